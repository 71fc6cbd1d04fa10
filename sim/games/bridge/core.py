"""bridge arithmetic in numba: calls (B2-B4), duplicate score (B10), IMPs (B11), hands.

Calls are small integers: ``PASS`` 0, ``DOUBLE`` 1, ``REDOUBLE`` 2, and the 35 bids
``3 + 5 * (level - 1) + strain`` with strains ``C D H S N`` = 0..4 (B3), so a higher
code is a higher bid. Hands are 52-bit masks (bit ``c`` = card ``c = suit * 13 + rank``,
``sim/cards.py``).
"""

from __future__ import annotations

import numpy as np

from sim.jit import jit

PASS, DOUBLE, REDOUBLE = 0, 1, 2
FIRST_BID = 3
N_CALLS = 38
STRAINS = "CDHSN"
NOTRUMP = 4
MAX_AUCTION = 320
"""Longest possible auction is 319 calls (3 passes, then 35 bids each followed by
pass, pass, double, pass, pass, redouble, pass, pass; then 3 final passes)."""

IMP_LIMITS = np.array([10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890,
                       1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990],
                      dtype=np.int64)
"""B11: the largest difference of each IMP step; a difference above the k-th limit is
worth at least k + 1 IMPs."""


@jit
def bid_code(level, strain):
    return FIRST_BID + 5 * (level - 1) + strain


@jit
def bid_level(code):
    return (code - FIRST_BID) // 5 + 1


@jit
def bid_strain(code):
    return (code - FIRST_BID) % 5


def call_text(code: int) -> str:
    """``P``, ``X``, ``XX`` or ``1C`` .. ``7N``."""
    if code == PASS:
        return "P"
    if code == DOUBLE:
        return "X"
    if code == REDOUBLE:
        return "XX"
    if FIRST_BID <= code < N_CALLS:
        return f"{(code - FIRST_BID) // 5 + 1}{STRAINS[(code - FIRST_BID) % 5]}"
    raise ValueError(f"call code {code} is not a call (0..{N_CALLS - 1})")


def parse_call(text: str) -> int:
    t = text.strip().upper().replace("NT", "N")
    if t in ("P", "PASS"):
        return PASS
    if t in ("X", "D", "DBL"):
        return DOUBLE
    if t in ("XX", "R", "RDBL"):
        return REDOUBLE
    if len(t) == 2 and t[0] in "1234567" and t[1] in STRAINS:
        return FIRST_BID + 5 * (int(t[0]) - 1) + STRAINS.index(t[1])
    raise ValueError(f"cannot read call {text!r}: write P, X, XX or a bid 1C..7N")


@jit
def legal_mask(last_bid, last_bidder, doubled, seat):
    """Bit set of the legal calls (bit ``code``) for ``seat`` (B3, B4). ``last_bid`` is
    the code of the last bid (0: none), ``last_bidder`` its seat, ``doubled`` 0/1/2."""
    lo = FIRST_BID if last_bid == 0 else last_bid + 1
    # pass, and every bid from ``lo`` up: one mask, no loop (this runs on every call)
    m = np.int64(1) | (((np.int64(1) << N_CALLS) - 1) & ~((np.int64(1) << lo) - 1))
    if last_bid != 0:
        opp = (last_bidder - seat) % 2 == 1
        if doubled == 0 and opp:
            m |= np.int64(1) << DOUBLE
        if doubled == 1 and not opp:
            m |= np.int64(1) << REDOUBLE
    return m


@jit
def is_legal(call, last_bid, last_bidder, doubled, seat):
    if call == PASS:
        return True
    if call >= FIRST_BID:
        return call < N_CALLS and call > last_bid
    if last_bid == 0 or call < 0:
        return False
    opp = (last_bidder - seat) % 2 == 1
    if call == DOUBLE:
        return doubled == 0 and opp
    return call == REDOUBLE and doubled == 1 and not opp


@jit
def score(level, strain, doubled, vul, tricks):
    """B10: duplicate score of the declaring side; ``doubled`` 0/1/2, ``vul`` 0/1 (the
    declaring side's), ``tricks`` taken by the declarer. Negative when down."""
    need = level + 6
    if tricks >= need:
        mult = 1 << doubled                                    # 1, 2, 4
        if strain == NOTRUMP:
            per = 40 + 30 * (level - 1)
        elif strain >= 2:
            per = 30 * level
        else:
            per = 20 * level
        trick_score = per * mult
        total = trick_score
        if trick_score >= 100:
            total += 500 if vul else 300
        else:
            total += 50
        if level == 6:
            total += 750 if vul else 500
        elif level == 7:
            total += 1500 if vul else 1000
        if doubled == 1:
            total += 50
        elif doubled == 2:
            total += 100
        over = tricks - need
        if doubled == 0:
            total += over * (20 if strain < 2 else 30)
        else:
            total += over * (100 if not vul else 200) * (doubled)  # X: 100/200, XX: 200/400
        return total
    u = need - tricks
    if doubled == 0:
        return -u * (100 if vul else 50)
    if vul:
        pen = 200 + 300 * (u - 1)
    else:
        pen = 100 + 200 * min(u - 1, 2) + 300 * max(u - 3, 0)
    return -pen * doubled                                      # XX: twice the X figure


@jit
def imps(diff):
    """B11: IMPs for a difference of ``diff`` points (signed)."""
    a = abs(diff)
    k = 0
    while k < 24 and a > IMP_LIMITS[k]:
        k += 1
    return k if diff >= 0 else -k


@jit
def popcount(x):
    x = np.int64(x)
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@jit
def suit_length(hand, suit):
    return popcount((np.int64(hand) >> np.int64(13 * suit)) & np.int64(0x1FFF))


@jit
def hcp(hand):
    """High-card points: A 4, K 3, Q 2, J 1."""
    h = np.int64(hand)
    total = 0
    for s in range(4):
        bits = (h >> np.int64(13 * s)) & np.int64(0x1FFF)
        total += 4 * ((bits >> 12) & 1) + 3 * ((bits >> 11) & 1) + 2 * ((bits >> 10) & 1) \
            + ((bits >> 9) & 1)
    return np.int64(total)


def score_py(level: int, strain: int, doubled: int, vul: bool, tricks: int) -> int:
    return int(score(level, strain, doubled, int(bool(vul)), tricks))
