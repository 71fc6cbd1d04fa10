"""The shared trick-taking machinery (``sim/tricks.py``): card sets as bit masks, legal
cards under both follow rules, trick winners (trumps, the joker as the lowest trump,
reversed order), captured cards and revealed voids."""

from __future__ import annotations

import numpy as np
import pytest

from sim import tricks as T
from sim.cards import JOKER, parse_card, parse_cards
from sim.jit import jit

C, D, H, S = range(4)
N = -1  # no trump / nothing led


def m(text: str) -> int:
    """Mask of the cards in ``text`` ('AS TH JK')."""
    out = 0
    for c in parse_cards(text):
        out |= 1 << c
    return out


def cards(mask: int) -> set[str]:
    from sim.cards import format_card
    return {format_card(c) for c in range(53) if mask >> c & 1}


def test_bit_helpers():
    assert T.count(0) == 0 and T.count(m("2C AS JK")) == 3
    assert T.lowest(0) == -1 and T.highest(0) == -1
    assert T.lowest(m("5D AS")) == parse_card("5D")
    assert T.highest(m("5D AS JK")) == JOKER
    assert T.suit_cards(H) == m("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    assert T.trump_cards(S) == T.suit_cards(S) | T.JOKER_BIT
    assert T.trump_cards(T.NO_TRUMP) == 0
    assert T.effective_suit(JOKER, H) == H and T.effective_suit(parse_card("2C"), H) == C
    out = np.zeros(53, np.int64)
    k = T.to_cards(m("QS 2C 9H"), out)
    assert k == 3 and out[:k].tolist() == parse_cards("2C 9H QS")
    assert [T.nth_card(m("QS 2C 9H"), i) for i in range(3)] == parse_cards("2C 9H QS")
    assert T.rank_mask(12) == m("AC AD AH AS")
    weights = np.array([0] * 8 + [10, 1, 2, 3, 4], np.int64)
    assert T.count_by_rank(m("TC JD QH KS AS JK 2C"), weights) == 10 + 1 + 2 + 3 + 4


def test_random_card_is_uniform_over_the_mask():
    rng = np.zeros(4, np.uint64)
    from sim.rng import seed_stream
    seed_stream(rng, 1, 2, 3)
    mask = m("2C 7D JK AS")
    seen = {c: 0 for c in parse_cards("2C 7D JK AS")}
    for _ in range(4000):
        seen[int(T.random_card(rng, mask))] += 1
    assert all(850 < v < 1150 for v in seen.values()), seen


@pytest.mark.parametrize("hand, led, trump, rule, legal", [
    # leading: anything
    ("2C 5H AS", N, H, T.FOLLOW_SUIT, "2C 5H AS"),
    # strict: follow suit if able, else anything (never obliged to trump)
    ("2C 5H AS", C, H, T.FOLLOW_SUIT, "2C"),
    ("5H AS", C, H, T.FOLLOW_SUIT, "5H AS"),
    ("2C 5H AS", D, N, T.FOLLOW_SUIT, "2C 5H AS"),
    # pitch P7: follow suit or trump, even when able to follow
    ("2C 5H AS", C, H, T.FOLLOW_OR_TRUMP, "2C 5H"),
    ("5H AS", C, H, T.FOLLOW_OR_TRUMP, "5H"),
    ("2D AS", C, H, T.FOLLOW_OR_TRUMP, "2D AS"),
    # trump led: trump if able (the joker is a trump)
    ("2C 5H AS", H, H, T.FOLLOW_OR_TRUMP, "5H"),
    ("2C JK AS", H, H, T.FOLLOW_OR_TRUMP, "JK"),
    ("2C JK AS", C, H, T.FOLLOW_OR_TRUMP, "2C JK"),
    ("2C AS", H, H, T.FOLLOW_OR_TRUMP, "2C AS"),
])
def test_legal_cards(hand, led, trump, rule, legal):
    assert cards(T.legal_cards(m(hand), led, trump, rule)) == set(legal.split())


@pytest.mark.parametrize("trick, trump, low_wins, winner", [
    ("3D KD 2D", H, False, 1),        # highest of the suit led
    ("3D AC KD", H, False, 2),        # an off-suit card never wins
    ("3D KD 2H", H, False, 2),        # the lowest trump beats the suit led
    ("3D JK KD", H, False, 1),        # the joker is a trump
    ("2H JK 3D", H, False, 0),        # ... the lowest one
    ("JK 3D 4S", S, False, 2),        # the joker led: spades led
    ("3D KD 2D", N, False, 1),        # no trump
    ("3D KD 2D", H, True, 2),         # lowest wins (vybory V9)
    ("3D KD 5C", C, True, 2),         # lowest trump wins
])
def test_trick_winner(trick, trump, low_wins, winner):
    t = np.array(parse_cards(trick), np.int64)
    led = T.effective_suit(int(t[0]), trump)
    assert T.trick_winner(t, len(t), led, trump, low_wins) == winner
    # the same trick played through a policy's view of it
    v = T.TrickView(*range(6), 6, 14, 22, 30, 38)
    o = np.zeros(46, np.int64)
    T.clear_tricks(o, v, len(t), 1)
    T.open_trick(o, v, 0, 0)
    for k, c in enumerate(t):
        T.show_card(o, v, k, k, int(c), trump, T.FOLLOW_SUIT, low_wins)
        assert T.trick_so_far(o, v) == m(" ".join(trick.split()[:k + 1]))
    assert T.close_trick(o, v, len(t)) == (winner, m(trick))
    assert T.trick_so_far(o, v) == 0


def test_masks_agree_with_powers_on_random_situations():
    """``beating``/``weakest``/``strongest`` (by masks) agree with ``power`` card by card."""
    rng = np.random.default_rng(5)
    for _ in range(3000):
        trump = int(rng.integers(-1, 4))
        deck = list(range(52)) + ([JOKER] if trump >= 0 else [])
        chosen = rng.choice(deck, size=12, replace=False)
        led_card = int(chosen[0])
        if led_card == JOKER and trump < 0:
            continue
        led = T.effective_suit(led_card, trump)
        best = int(chosen[int(rng.integers(0, 3))])
        if T.power(best, led, trump, False) == 0:
            best = led_card
        mask = 0
        for c in chosen[3:]:
            mask |= 1 << int(c)
        expect = 0
        for c in chosen[3:]:
            if T.power(int(c), led, trump, False) > T.power(best, led, trump, False):
                expect |= 1 << int(c)
        assert T.beating(mask, best, led, trump) == expect
        assert T.beaters(mask, best, led, trump, False) == expect
        powers = {int(c): T.power(int(c), led, trump, False) for c in chosen[3:]}
        weak = T.weakest(mask, led, trump)
        assert powers[weak] == min(powers.values())
        strong = T.strongest(mask, led, trump)
        assert powers[strong] == max(powers.values())


_COSTS = np.random.default_rng(11).integers(0, 5, 53)   # few values: many ties


@jit(inline=True)
def _cost(card, costs):
    return costs[card]


@jit
def _cheapest(mask, costs):
    return T.first_lowest(mask, _cost, costs)


def test_first_lowest_is_the_plain_python_one():
    """The card with the lowest key, the lowest card on a tie (-1: none), as
    ``sim.pytricks.first_lowest``, with the key passed as a jitted function."""
    from sim import pytricks
    rng = np.random.default_rng(12)
    for mask in [0, *(int(x) for x in rng.integers(1, 1 << 53, 500))]:
        expect = pytricks.first_lowest(mask, lambda c: _COSTS[c])
        assert _cheapest(np.int64(mask), _COSTS) == expect


def test_highest_and_lowest_trump():
    assert T.highest_trump(m("2H JK 9H AC"), H) == parse_card("9H")
    assert T.highest_trump(m("JK AC"), H) == JOKER
    assert T.highest_trump(m("AC"), H) == -1
    assert T.lowest_trump(m("2H JK 9H"), H, True) == JOKER
    assert T.lowest_trump(m("2H JK 9H"), H, False) == parse_card("2H")


def test_revealed_voids():
    # pitch: off-suit and no trump on a side lead -> void in both; a trump says nothing
    assert T.revealed_voids(parse_card("2C"), D, H, T.FOLLOW_OR_TRUMP) == (1 << D) | (1 << H)
    assert T.revealed_voids(parse_card("2H"), D, H, T.FOLLOW_OR_TRUMP) == 0
    assert T.revealed_voids(JOKER, D, H, T.FOLLOW_OR_TRUMP) == 0
    assert T.revealed_voids(parse_card("2D"), D, H, T.FOLLOW_OR_TRUMP) == 0
    # trump led, no trump played -> void in trumps
    assert T.revealed_voids(parse_card("2C"), H, H, T.FOLLOW_OR_TRUMP) == 1 << H
    # strict following: only the suit led
    assert T.revealed_voids(parse_card("2H"), D, H, T.FOLLOW_SUIT) == 1 << D
    # the void's cards: the trump void covers the joker
    assert T.void_cards((1 << D) | (1 << H), H) == T.suit_cards(D) | T.trump_cards(H)
