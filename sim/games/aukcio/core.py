"""The sets of K13, as the kernel and the policies read them.

A face card's *kind* is ``suit * 4 + rank`` (rank 0..3 = J, Q, K, A; ``obs.py``). There
are 24 sets: for each rank, the four ways to pick three of its four suits (16), and
for each suit the runs J-Q-K and Q-K-A (8). ``SETS[k]`` lists set k's three kinds;
``KIND_SETS[kind]`` the sets a kind belongs to (three of its rank, one or two runs),
padded with -1. With two decks a seat may own two cards of a kind: what counts is
whether it owns the kind at all.
"""

from __future__ import annotations

import numpy as np

from sim.cards import card
from sim.jit import jit

FACE_RANKS = "JQKA"
RANK_SET, RUN_JQK, RUN_QKA = 0, 1, 2
"""What a set is (``set_kind`` columns): three of a rank, or one of the two runs."""


def _sets() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sets, what = [], []
    for rank in range(4):
        for left_out in range(4):
            sets.append([s * 4 + rank for s in range(4) if s != left_out])
            what.append(RANK_SET)
    for suit in range(4):
        sets.append([suit * 4 + r for r in (0, 1, 2)])
        what.append(RUN_JQK)
        sets.append([suit * 4 + r for r in (1, 2, 3)])
        what.append(RUN_QKA)
    by_kind = np.full((16, 5), -1, np.int64)
    for kind in range(16):
        mine = [i for i, s in enumerate(sets) if kind in s]
        by_kind[kind, :len(mine)] = mine
    return np.array(sets, np.int64), np.array(what, np.int64), by_kind


SETS, SET_KIND, KIND_SETS = _sets()
N_SETS = len(SETS)
NO_SET = 1 << 16
KIND_OTHERS_MASK = np.array([[sum(1 << int(o) for o in SETS[k] if o != kind) if k >= 0 else NO_SET
                              for k in KIND_SETS[kind]] for kind in range(16)], np.int64)
"""``KIND_OTHERS_MASK[kind, j]``: the two other kinds of set ``KIND_SETS[kind, j]``, as a
bit set of kinds; ``NO_SET`` (a bit no kind has) pads a kind with four sets."""


def _progress(others: int, mine: int, available: int) -> int:
    """One set's part of ``PROGRESS_*``: the set whose other kinds are ``others``, for a
    seat owning ``mine`` with ``available`` (owned or still in the auction deck) --
    completed (1), made two of three (16), started (256), or nothing when it is closed."""
    if others & ~available:
        return 0
    return (1, 16, 256)[2 - bin(others & mine).count("1")]


def _progress_tables() -> tuple[np.ndarray, np.ndarray]:
    """``PROGRESS_RANK``, ``PROGRESS_RUN``."""
    pairs = [(1 << a) | (1 << b) for a in range(4) for b in range(a + 1, 4)]
    runs = (0b0111, 0b1110)                        # J-Q-K and Q-K-A, by rank bit
    rank = np.zeros(256, np.int64)
    run = np.zeros(4 * 256, np.int64)
    for m in range(16):
        for a in range(16):
            rank[m << 4 | a] = sum(_progress(p, m, a) for p in pairs)
            for r in range(4):
                run[r << 8 | m << 4 | a] = sum(_progress(x & ~(1 << r), m, a)
                                               for x in runs if x >> r & 1)
    return rank, run


PROGRESS_RANK, PROGRESS_RUN = _progress_tables()
"""How far a card advances a seat's sets (``strategies.aukcio.progress``), looked up
rather than counted set by set: sets completed + 16 x sets made two of three + 256 x
sets started. ``PROGRESS_RANK[m << 4 | a]`` counts the three-of-a-rank sets, from the
card's rank across the four suits (bit s: suit s) as owned (``m``) and available
(``a``), the card's own suit cleared in both: the sets are then the pairs of suits, and
those with the card's suit, never available, count nothing. ``PROGRESS_RUN[rank << 8 |
m << 4 | a]`` counts the runs through ``rank``, from the card's suit across the four
ranks (bit r: rank r), its own rank cleared."""


def kind_card(kind: int) -> int:
    """The card code (``sim.cards``) of a face-card kind."""
    return card(9 + kind % 4, kind // 4)


@jit(inline=True)
def card_kind(code):
    """The kind of a face card's code (``sim.cards``): the inverse of ``kind_card``."""
    return (code // 13) * 4 + code % 13 - 9


@jit(inline=True)
def completing_set(mine, kind):
    """The first set (index into SETS) that ``kind`` completes for a seat owning the
    kinds ``mine`` (a bit set, kind k at bit k; ``kind`` itself need not be in it), or
    -1."""
    for j in range(KIND_OTHERS_MASK.shape[1]):
        if KIND_OTHERS_MASK[kind, j] & ~mine == 0:   # NO_SET is never owned
            return KIND_SETS[kind, j]
    return -1


def kind_bits(kinds) -> int:
    """The bit set of the kinds listed (``completing_set``'s ``mine``)."""
    return sum(1 << k for k in set(kinds))
