"""The eight contract types of vybory (``rules/vybory.md``, "Contract types") as
tables the kernel, the policies and the referee-free parts of the analysis read, and
the points of a pair (V10).

A type is a code 1..8; each table has a row per type set (0 ``standard``, 1 ``alt``)
and a column per code (column 0 unused). A type's points are a sum of at most three
terms, each a weight times the number of cards of a card set the pair won, plus a
weight per trick and, for ``most_tricks``, 12 to the pair with more tricks.
"""

from __future__ import annotations

import numpy as np

from sim import tricks as T
from sim.jit import jit

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
NO_TRUMP = T.NO_TRUMP
MOST_TRICKS, NO_TRICKS, CLUB_TRICKS, LOWEST_WINS = 1, 2, 3, 4
MOST_BONUS = 12
"""V10: ``most_tricks`` gives 12 to the pair with more tricks (of 13: never a tie)."""


def _suit(s: int) -> int:
    return 0x1FFF << (13 * s)


def _ranks(ranks: tuple[int, ...], suits: tuple[int, ...]) -> int:
    return sum(1 << (13 * s + r) for s in suits for r in ranks)


RED = _suit(DIAMONDS) | _suit(HEARTS)
BLACK = _suit(CLUBS) | _suit(SPADES)
TEN_JACK = (8, 9)
BLACK_TJ = _ranks(TEN_JACK, (CLUBS, SPADES))
RED_TJ = _ranks(TEN_JACK, (DIAMONDS, HEARTS))

# (name, trump, lowest card wins, points per trick, ((card set, points per card), ...))
_STANDARD = (
    ("most_tricks", NO_TRUMP, False, 0, ()),
    ("no_tricks", NO_TRUMP, False, -2, ()),
    ("club_tricks", CLUBS, False, 2, ()),
    ("lowest_wins", CLUBS, True, 0, ((RED, 1),)),
    ("spades_in_hearts", HEARTS, False, 0, ((_suit(SPADES), 2),)),
    ("red_black", DIAMONDS, False, 0, ((RED, 1), (BLACK, -1))),
    ("tens_jacks", SPADES, False, 0, ((BLACK_TJ, 5), (RED_TJ, -5))),
    ("no_clubs", SPADES, False, 0, ((_suit(CLUBS), -2),)),
)
_ALT = _STANDARD[:5] + (
    ("red_cards", DIAMONDS, False, 0, ((RED, 1),)),
    ("black_cards", DIAMONDS, False, 0, ((BLACK, -1),)),
    ("tens_jacks_no_clubs", SPADES, False, 0, ((BLACK_TJ, 5), (RED_TJ, -5),
                                               (_suit(CLUBS), -2))),
)
TYPE_SETS = ("standard", "alt")
NAMES = tuple(tuple(t[0] for t in types) for types in (_STANDARD, _ALT))
"""``NAMES[type_set][code - 1]``: a type's name in the trace and the tables."""
N_TERMS = 3


def _table(column, dtype=np.int64) -> np.ndarray:
    return np.array([[0] + [column(t) for t in types] for types in (_STANDARD, _ALT)], dtype)


TRUMP = _table(lambda t: t[1])
LOW_WINS = _table(lambda t: int(t[2]))
PER_TRICK = _table(lambda t: t[3])
TERM_CARDS = np.array([[[0] * N_TERMS] + [[m for m, _ in t[4]] + [0] * (N_TERMS - len(t[4]))
                                         for t in types] for types in (_STANDARD, _ALT)],
                      np.int64)
TERM_POINTS = np.array([[[0] * N_TERMS] + [[w for _, w in t[4]] + [0] * (N_TERMS - len(t[4]))
                                          for t in types] for types in (_STANDARD, _ALT)],
                       np.int64)
CARD_POINTS = np.array([[[sum(w for m, w in zip(TERM_CARDS[a, t], TERM_POINTS[a, t])
                              if m >> c & 1) for c in range(52)] for t in range(9)]
                        for a in range(2)], np.int64)
"""``CARD_POINTS[type_set, code, card]``: what one card is worth to the pair that wins it."""


def type_code(name: str, type_set: str) -> int:
    """The code 1..8 of a type name in ``type_set``; an error lists the names."""
    names = NAMES[TYPE_SETS.index(type_set)]
    if name not in names:
        raise ValueError(f"no contract type {name!r} in type_set={type_set}; types: "
                         f"{', '.join(names)}")
    return names.index(name) + 1


@jit
def pair_points(won, tricks, alt, code):
    """V10: the contract points of a pair that won the cards ``won`` (a mask) in
    ``tricks`` tricks, under type ``code`` of type set ``alt``."""
    pts = PER_TRICK[alt, code] * tricks
    if code == MOST_TRICKS and 2 * tricks > 13:
        pts += MOST_BONUS
    for k in range(N_TERMS):
        w = TERM_POINTS[alt, code, k]
        if w != 0:
            pts += w * T.count(won & TERM_CARDS[alt, code, k])
    return np.int64(pts)


@jit
def result(attack_points, defend_points):
    """V11: 1 if the attackers win the deal, -1 if they lose, 0 on a draw."""
    if attack_points > defend_points:
        return np.int64(1)
    if attack_points < defend_points:
        return np.int64(-1)
    return np.int64(0)


# -- hand evaluation (expected's estimate; the solver's abstraction reads it too) ------

@jit
def _reverse13(bits):
    out = np.int64(0)
    for r in range(13):
        if bits >> r & 1:
            out |= np.int64(1) << (12 - r)
    return out


@jit
def est_tricks(hand, trump, low, honour, length, ruff):
    """Tricks ``hand`` should take under a contract with ``trump`` (-1: none) and order
    ``low`` (lowest wins): honour tricks of each suit's top three cards, length, ruffs."""
    total = 0.0
    short = 0
    for s in range(4):
        cards = (hand >> np.int64(13 * s)) & np.int64(T.SUIT_BITS)
        if low:
            cards = _reverse13(cards)
        n = T.count(cards)
        if trump >= 0 and s != trump and n < 3:
            short += 3 - n
        if n == 0:
            continue
        h = 0.0
        if cards >> 12 & 1:
            h += 1.0
        if cards >> 11 & 1:
            h += 0.75 if n >= 2 else 0.25
        if cards >> 10 & 1:
            h += 0.5 if n >= 3 else 0.1
        total += honour * h
        if s == trump:
            total += length * max(n - 3, 0)
        elif trump < 0:
            total += length * 0.5 * max(n - 4, 0)
    if trump >= 0:
        trumps = T.count(hand & T.suit_cards(trump))
        total += ruff * 0.5 * min(short, trumps)
    return min(total, 13.0)


@jit
def cards_value(mask, alt, code):
    """What the cards of ``mask`` are worth to the pair that wins them (type ``code``)."""
    pts = np.int64(0)
    for k in range(N_TERMS):
        w = TERM_POINTS[alt, code, k]
        if w != 0:
            pts += w * T.count(mask & TERM_CARDS[alt, code, k])
    return pts


@jit
def type_value(hand, alt, code, p, extra):
    """expected's estimate of the attackers' margin (their pair points minus the
    defenders') under type ``code`` when ``hand`` attacks, with ``extra`` tricks
    expected of the partner beyond ``partner`` (parameters ``p``, EXPECTED_PARAMS)."""
    trump = TRUMP[alt, code]
    mine = est_tricks(hand, trump, LOW_WINS[alt, code] != 0, p[0], p[1], p[2])
    pair = min(mine + p[3] + extra, 13.0)
    if code == MOST_TRICKS:
        q = 1.0 / (1.0 + np.exp(-(pair - 6.5) / 1.5))
        margin = MOST_BONUS * (2.0 * q - 1.0)
    else:
        per_trick = PER_TRICK[alt, code] + cards_value(np.int64(T.DECK52), alt, code) / 13.0
        margin = per_trick * (2.0 * pair - 13)
    return margin + p[4] * cards_value(hand, alt, code)
