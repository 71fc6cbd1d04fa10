"""The plain-Python port of ``sim/tricks.py``'s card-set helpers that every trick game's
reference engine needs (``sim/games/<game>/reference.py``): masks as Python ints, bit
``c`` for card ``c``, and the random card draws consuming ``sim/pyrng.py`` streams
exactly as the kernels consume theirs; the trick rules every game shares (legal cards
by follow rule, a card's power, revealed voids); and the public trick state of the
observation, kept as ``sim.tricks`` keeps it (:func:`clear_tricks`, :func:`open_trick`,
:func:`show_card`, :func:`close_trick` on a game's ``obs.TRICKS``). Each game's
reference keeps only its own trick rules (which follow rule, trump, order)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sim.cards import JOKER
from sim.pyrng import Stream
from sim.tricks import FOLLOW_OR_TRUMP, FOLLOW_SUIT, TrickView

JOKER_BIT = 1 << JOKER


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


# -- trick rules (as sim/tricks.py) ------------------------------------------------------

def trump_cards(trump: int) -> int:
    return suit_cards(trump) | JOKER_BIT if trump >= 0 else 0


def effective_suit(card: int, trump: int) -> int:
    return trump if card == JOKER else card // 13


def led_cards(led: int, trump: int) -> int:
    return trump_cards(trump) if led == trump else suit_cards(led)


def legal_cards(hand: int, led: int, trump: int, rule: int) -> int:
    """The cards of ``hand`` that may be played to a trick led in ``led`` (-1: any)."""
    if led < 0:
        return hand
    follow = hand & led_cards(led, trump)
    if rule == FOLLOW_OR_TRUMP and trump >= 0 and led != trump:
        follow |= hand & trump_cards(trump)
    return follow if follow else hand


def power(card: int, led: int, trump: int, low_wins: bool = False) -> int:
    """The highest power wins the trick: trump 32 + rank (the joker 31), led suit
    16 + rank, anything else 0; ``low_wins`` reverses the ranks."""
    if card == JOKER:
        r, s = -1, trump
    else:
        r, s = card % 13, card // 13
    if low_wins:
        r = 12 - r
    if trump >= 0 and s == trump:
        return 32 + r
    if s == led:
        return 16 + r
    return 0


def revealed_voids(card: int, led: int, trump: int, rule: int) -> int:
    """The suits (4-bit set) a seat shows it lacks by playing ``card`` to ``led``."""
    s = effective_suit(card, trump)
    if led < 0 or s == led:
        return 0
    if rule == FOLLOW_SUIT:
        return 1 << led
    if trump >= 0 and s == trump:
        return 0
    return 1 << led | (1 << trump if trump >= 0 else 0)


def void_cards(voids: int, trump: int) -> int:
    """The cards a seat with the void set ``voids`` cannot hold."""
    m = 0
    for s in range(4):
        if voids & (1 << s):
            m |= led_cards(s, trump) if trump >= 0 else suit_cards(s)
    return m


# -- the public trick state (as sim/tricks.py keeps it) ----------------------------------

def clear_tricks(o: list[int], v: TrickView, n: int, hand_size: int) -> None:
    o[v.trick], o[v.leader], o[v.n_cards], o[v.played], o[v.led], o[v.winning] = \
        0, -1, 0, 0, -1, -1
    for s in range(n):
        o[v.left + s], o[v.played_by + s], o[v.won_by + s] = hand_size, 0, 0
        o[v.voids + s], o[v.cards + s] = 0, -1


def open_trick(o: list[int], v: TrickView, t: int, leader: int) -> None:
    o[v.trick], o[v.leader] = t, leader


def show_card(o: list[int], v: TrickView, k: int, s: int, card: int, trump: int, rule: int,
              low_wins: bool) -> None:
    """Seat ``s`` plays ``card`` as the ``k``-th card of the trick in progress."""
    b = 1 << card
    if k == 0:
        o[v.led], o[v.winning] = effective_suit(card, trump), card
    else:
        led = o[v.led]
        o[v.voids + s] |= revealed_voids(card, led, trump, rule)
        if power(card, led, trump, low_wins) > power(o[v.winning], led, trump, low_wins):
            o[v.winning] = card
    o[v.cards + k], o[v.n_cards] = card, k + 1
    o[v.played] |= b
    o[v.played_by + s] |= b
    o[v.left + s] -= 1


def close_trick(o: list[int], v: TrickView, n: int) -> tuple[int, int]:
    """The full trick goes to its winning card's seat: (that seat, the trick's cards)."""
    winner, taken = -1, trick_so_far(o, v)
    for k in range(n):
        if o[v.cards + k] == o[v.winning]:
            winner = (o[v.leader] + k) % n
        o[v.cards + k] = -1
    o[v.won_by + winner] |= taken
    o[v.n_cards], o[v.led], o[v.winning] = 0, -1, -1
    return winner, taken


def trick_so_far(o: list[int], v: TrickView) -> int:
    """The cards of the trick in progress, as a mask."""
    m = 0
    for i in range(o[v.n_cards]):
        m |= 1 << o[v.cards + i]
    return m


# -- dealing and sampling ----------------------------------------------------------------

def deal_hands(rng: Stream, row: list[int], size: int, hand_size: int) -> list[int]:
    """``sim.harness.deal_hands``: per seat the given hand ``row[s]`` (a mask; -1: dealt),
    the others in seat order from a partial Fisher-Yates of the cards ``0..size-1`` left;
    where they take every card left, the last is what the others leave, with no draw."""
    taken = 0
    for m in row:
        if m >= 0:
            taken |= m
    deck = [c for c in range(size) if not taken >> c & 1]
    random_seats = sum(1 for m in row if m < 0)
    need = hand_size * random_seats
    if need == len(deck):
        need = hand_size * max(random_seats - 1, 0)
    for i in range(need):
        j = i + rng.below(len(deck) - i)
        deck[i], deck[j] = deck[j], deck[i]
    hands, r = [], 0
    for m in row:
        if m < 0:
            m = 0
            for c in deck[hand_size * r:hand_size * (r + 1)]:
                m |= 1 << c
            r += 1
        hands.append(m)
    return hands


def draw_hand(rng: Stream, allowed: int, need: int) -> int | None:
    """``need`` cards drawn one by one from ``allowed`` (a sampled hand), or None when
    it holds fewer."""
    if count(allowed) < need:
        return None
    hand = 0
    for _ in range(need):
        c = draw_card(rng, allowed)
        hand |= 1 << c
        allowed &= ~(1 << c)
    return hand


def first_lowest(mask: int, key: Callable[[int], float]) -> int:
    """The card of ``mask`` with the lowest ``key``, the lowest card on a tie (-1: none)."""
    return min(cards_of(mask), key=key, default=-1)


def cards_of(mask: int) -> Iterator[int]:
    """The cards of ``mask``, lowest first."""
    while mask:
        yield lowest(mask)
        mask &= mask - 1


# -- playouts ------------------------------------------------------------------------------

class TrickInPlay:
    """A playout's copy of the trick in progress, taken from the observation's
    :class:`~sim.tricks.TrickView` and played on: what a search policy's playouts
    track, as the match loop tracks it in the observation."""

    def __init__(self, o: list[int], v: TrickView, n: int):
        self.n = n
        self.leader, self.number, self.k = o[v.leader], o[v.trick], o[v.n_cards]
        self.played, self.led, self.best = o[v.played], o[v.led], o[v.winning]
        self.cards = trick_so_far(o, v)
        self.best_pos = next((i for i in range(self.k) if o[v.cards + i] == self.best), 0)
        self.taken = 0

    @property
    def seat(self) -> int:
        """The seat to play next."""
        return (self.leader + self.k) % self.n

    @property
    def winning_seat(self) -> int:
        return (self.leader + self.best_pos) % self.n

    def add(self, card: int, trump: int, low_wins: bool) -> int:
        """Play ``card``; when it completes the trick, the next trick begins and the
        trick's winner (its cards in ``taken``) is returned, else -1."""
        b = 1 << card
        self.played |= b
        self.cards |= b
        if self.k == 0:
            self.led, self.best, self.best_pos = effective_suit(card, trump), card, 0
        elif power(card, self.led, trump, low_wins) > power(self.best, self.led, trump,
                                                              low_wins):
            self.best, self.best_pos = card, self.k
        self.k += 1
        if self.k < self.n:
            return -1
        winner, self.taken = self.winning_seat, self.cards
        self.number += 1
        self.leader, self.k, self.cards, self.led, self.best = winner, 0, 0, -1, -1
        return winner
