"""The plain-Python port of ``sim/tricks.py``'s card-set helpers that every trick game's
reference engine needs (``sim/games/<game>/reference.py``): masks as Python ints, bit
``c`` for card ``c``, and the random card draws consuming ``sim/pyrng.py`` streams
exactly as the kernels consume theirs. Each game's reference keeps only its own trick
rules (follow rule, trump, order)."""

from __future__ import annotations

from sim.pyrng import Stream


def count(m: int) -> int:
    return m.bit_count()


def lowest(m: int) -> int:
    return (m & -m).bit_length() - 1 if m else -1


def highest(m: int) -> int:
    return m.bit_length() - 1 if m else -1


def suit_cards(suit: int) -> int:
    return 0x1FFF << (13 * suit)


def nth_card(mask: int, i: int) -> int:
    for _ in range(i):
        mask &= mask - 1
    return lowest(mask)


def random_card(rng: Stream, mask: int) -> int:
    """``sim.tricks.random_card``: one ``below`` draw."""
    return nth_card(mask, rng.below(count(mask)))


def draw_card(rng: Stream, mask: int) -> int:
    """``sim.tricks.draw_card``: 6-bit chunks of 64-bit draws for 16 cards or more."""
    k = count(mask)
    if k < 16:
        return nth_card(mask, rng.below(k))
    while True:
        x = rng.next_u64()
        for _ in range(10):
            c = x & 63
            if mask >> c & 1:
                return c
            x >>= 6
