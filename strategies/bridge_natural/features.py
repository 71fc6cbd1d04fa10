"""Hand features: what the natural system reads from its own 52-bit card mask (suit
lengths, HCP, length and support points, shape, stoppers, aces, quick tricks).
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import intrinsic, overload

from sim.jit import jit

_HONOURS = np.array([4 * (i >> 3 & 1) + 3 * (i >> 2 & 1) + 2 * (i >> 1 & 1) + (i & 1)
                     for i in range(16)], dtype=np.int64)
"""HCP of the four top cards of a suit (bits A K Q J, from ``bits >> 9``): a 16-entry
table stays in the L1 cache (a table per 13-card suit pattern would not)."""
ACE, KING, QUEEN, JACK = 1 << 12, 1 << 11, 1 << 10, 1 << 9
MAJORS = (2, 3)


def _popcount(x):
    """Set bits of an int64: the CPU's population count in compiled code (the hot path
    counts suit lengths on every call), ``int.bit_count`` in plain Python."""
    return int(x).bit_count()


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@overload(_popcount)
def _popcount_compiled(x):
    return lambda x: _ctpop(np.int64(x))


@jit
def _bits(hand, s):
    return (np.int64(hand) >> np.int64(13 * s)) & np.int64(0x1FFF)


@jit(inline=True)
def _hand(hand):
    """(suit lengths C D H S, HCP) from a 52-bit card mask."""
    b0, b1, b2, b3 = _bits(hand, 0), _bits(hand, 1), _bits(hand, 2), _bits(hand, 3)
    lens = (_popcount(b0), _popcount(b1), _popcount(b2), _popcount(b3))
    return lens, _HONOURS[b0 >> 9] + _HONOURS[b1 >> 9] + _HONOURS[b2 >> 9] + _HONOURS[b3 >> 9]


@jit
def _length_points(hcp, lens):
    return hcp + max(lens[0] - 4, 0) + max(lens[1] - 4, 0) + max(lens[2] - 4, 0) + \
        max(lens[3] - 4, 0)


# Shortness points by suit length (void, singleton, doubleton) with four trumps or more,
# and with three; tables, so the hot path does not branch on every suit.
_SHORT4 = np.array([5, 3, 1] + [0] * 11, dtype=np.int64)
_SHORT3 = np.array([3, 2, 1] + [0] * 11, dtype=np.int64)


@jit
def _support_points(hcp, lens, trump):
    """HCP + shortness, for the hand that raises (dummy points)."""
    t = _SHORT4 if lens[trump] >= 4 else _SHORT3
    return hcp + t[lens[0]] + t[lens[1]] + t[lens[2]] + t[lens[3]] - t[lens[trump]]


@jit
def _balanced(lens):
    """4-3-3-3, 4-4-3-2, 5-3-3-2: no suit shorter than two, at most one doubleton."""
    doubletons = (lens[0] == 2) + (lens[1] == 2) + (lens[2] == 2) + (lens[3] == 2)
    return min(min(lens[0], lens[1]), min(lens[2], lens[3])) >= 2 and doubletons <= 1


@jit
def _no_shortness(lens):
    return min(min(lens[0], lens[1]), min(lens[2], lens[3])) >= 2


@jit
def _stopper(hand, s):
    """A, Kx, Qxx or Jxxx in suit ``s``."""
    b = _bits(hand, s)
    n = _popcount(b)
    return (b & ACE) != 0 or ((b & KING) != 0 and n >= 2) or ((b & QUEEN) != 0 and n >= 3) \
        or ((b & JACK) != 0 and n >= 4)


@jit
def _aces(hand):
    n = 0
    for s in range(4):
        if _bits(hand, s) & ACE:
            n += 1
    return n


# Quick tricks by the top three cards of a suit (bits A K Q, from ``bits >> 10``): AK 2,
# AQ 1.5, A or KQ 1, K 0.5 (Kx: a singleton king is no trick, see _quick_tricks).
_QUICK = np.array([0.0, 0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0])


@jit
def _quick_tricks(hand):
    total = 0.0
    for s in range(4):
        b = _bits(hand, s)
        total += _QUICK[b >> 10]
        if b == KING:
            total -= 0.5
    return total


@jit
def _suit_quality(hand, s):
    """Honours among A K Q J T in suit ``s``."""
    return _popcount(_bits(hand, s) & 0x1F00)


@jit
def _longest(lens, skip_mask):
    """Longest suit outside ``skip_mask`` (ties: the higher-ranking); -1 if none."""
    best = -1
    for s in range(3, -1, -1):
        if not (skip_mask >> s) & 1 and (best < 0 or lens[s] > lens[best]):
            best = s
    return best
