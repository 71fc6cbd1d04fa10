"""Exact sampling of hidden cards under per-seat constraints, by counting.

The problem: deal the cards nobody has seen (the *pool*) to up to three seats, each
seat a fixed number of them, where some cards may not go to some seats and a seat's
points (the sum of a per-card value, plus what it holds already) must fall in a range.
Every deal that meets the constraints is to be equally likely: the distribution of
rejection sampling (shuffle, deal, redraw until consistent), but without its failure
where consistent deals are rare.

Cards that are alike for the constraints (the same value, barred from the same seats)
form a *type*; a deal is then a split of each type's ``m`` cards among the seats,
``(a0, a1, a2)``, realised by ``m! / (a0! a1! a2!)`` deals of the actual cards. A
dynamic programme over the types counts, for every state after the first ``k`` types
(cards and points given to the first two seats; the third seat's follow from the
totals), the deals of the remaining types that end consistent (``f[k, state]``).
Sampling walks the types in order and picks each split with probability
``weight x f[k + 1, next state] / f[k, state]``, then the actual cards of the split by
a shuffle of the type: every consistent deal has probability ``1 / f[0, start]``.

A seat whose points are not constrained is not tracked (its point axis has length 1);
the third seat, whose points are derived, is tracked only when all three are
constrained (``plan`` orders the seats so). Counts are floats (up to ~1e17 deals, far
inside float64's range; a relative rounding of 1e-16 per step is no bias one could
measure).
"""

from __future__ import annotations

import numpy as np

from sim.jit import jit
from sim.rng import below, uniform

SLOTS = 3
"""Seats one table deals to; fewer are padded with seats that take no card."""
MAX_CELLS = 4_000_000
"""Largest table (floats) ``plan`` builds; beyond it (exotic card values) callers fall
back to rejection."""


class Plan:
    """A deal problem in the form the kernels read (``plan`` builds it).

    ``slot_seat[i]``: the seat of slot i (-1: padding); ``need``: cards per slot;
    ``track``: 1 where the slot's points are tracked; ``lo``/``hi``: its range of points
    from the pool (what it holds already subtracted); ``cards``: the pool ordered by
    type; ``start``: type k is ``cards[start[k]:start[k + 1]]``; ``value``: per type;
    ``allowed``: type x slot, 1 where the slot may take the type; ``table``: the counts
    ``f`` (``count`` fills it); ``feasible``: some deal meets the constraints."""

    def __init__(self, slot_seat, need, track, lo, hi, cards, start, value, allowed, table):
        self.slot_seat, self.need, self.track, self.lo, self.hi = slot_seat, need, track, lo, hi
        self.cards, self.start, self.value, self.allowed = cards, start, value, allowed
        self.table = table
        self.feasible = False

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays ``sample`` reads, in its argument order."""
        return (self.slot_seat, self.need, self.track, self.cards, self.start, self.value,
                self.allowed, self.table)


def plan(pool: np.ndarray, card_value: np.ndarray, barred: np.ndarray, seats: list[int],
         need: list[int], lo: list[int], hi: list[int]) -> Plan | None:
    """The deal problem: ``pool`` the hidden cards, ``card_value[card]`` its points,
    ``barred[card]`` a bit set of the seats that may not take it; ``seats`` (at most
    three) take ``need`` cards each with pool points within ``lo..hi`` (a range that every
    hand meets is no constraint). None where the table would exceed ``MAX_CELLS``.
    The counts are filled (``count``) and ``feasible`` set."""
    if len(seats) > SLOTS:
        raise ValueError(f"at most {SLOTS} seats, not {len(seats)}")
    pool = np.asarray(pool, np.int64)
    values = np.array([int(card_value[c]) for c in pool], np.int64)
    top = int(values.max()) if len(values) else 0
    low = int(values.min()) if len(values) else 0
    rows = []
    for t, k, a, b in zip(seats, need, lo, hi):
        constrained = not (a <= k * low and b >= k * top)
        rows.append((not constrained, t, k, a, b))
    rows.sort(key=lambda row: row[0])  # constrained seats first
    while len(rows) < SLOTS:
        rows.append((True, -1, 0, 0, 0))
    every = all(not row[0] for row in rows)
    slot_seat = np.array([row[1] for row in rows], np.int64)
    need_a = np.array([row[2] for row in rows], np.int64)
    track = np.array([int(not row[0] and (i < SLOTS - 1 or every)) for i, row in enumerate(rows)],
                     np.int64)
    lo_a = np.array([max(0, row[3]) for row in rows], np.int64)
    hi_a = np.array([min(row[2] * top, row[4]) for row in rows], np.int64)
    # types: (value, barred slots)
    kinds: dict[tuple[int, int], list[int]] = {}
    for c, v in zip(pool.tolist(), values.tolist()):
        bar = sum(1 << i for i, t in enumerate(slot_seat.tolist())
                  if t < 0 or (int(barred[c]) >> t) & 1)
        kinds.setdefault((v, bar), []).append(c)
    keys = sorted(kinds)
    cards = np.array([c for key in keys for c in kinds[key]], np.int64)
    start = np.zeros(len(keys) + 1, np.int64)
    for k, key in enumerate(keys):
        start[k + 1] = start[k] + len(kinds[key])
    value = np.array([key[0] for key in keys], np.int64)
    allowed = np.array([[0 if key[1] >> i & 1 else 1 for i in range(SLOTS)] for key in keys],
                       np.int64).reshape(len(keys), SLOTS)
    axis = [int(max(-1, hi_a[i]) + 1) if track[i] else 1 for i in range(2)]
    shape = (len(keys) + 1, int(need_a[0]) + 1, max(axis[0], 0), int(need_a[1]) + 1,
             max(axis[1], 0))
    if int(np.prod(shape)) > MAX_CELLS:
        return None
    out = Plan(slot_seat, need_a, track, lo_a, hi_a, cards, start, value, allowed,
               np.zeros(shape, np.float64))
    if len(cards) != int(need_a.sum()):
        return out  # the hands cannot be filled: infeasible
    if 0 in shape:
        return out
    count(need_a, track, lo_a, hi_a, start, value, allowed, _binomials(max(1, len(cards))),
          out.table)
    out.feasible = bool(out.table[(0,) * 5] > 0)
    return out


def _binomials(n: int) -> np.ndarray:
    c = np.zeros((n + 1, n + 1), np.float64)
    for i in range(n + 1):
        c[i, 0] = 1.0
        for j in range(1, i + 1):
            c[i, j] = c[i - 1, j - 1] + c[i - 1, j]
    return c


@jit
def count(need, track, lo, hi, start, value, allowed, binom, f):
    """Fill ``f[k, c0, p0, c1, p1]``: the deals of types ``k..`` from that state that end
    with every slot's cards and points as required (module docstring)."""
    n_types = start.shape[0] - 1
    n0, n1, n2 = need[0], need[1], need[2]
    P0, P1 = f.shape[2], f.shape[4]
    dealt = start[n_types]
    total = 0
    for k in range(n_types):
        total += value[k] * (start[k + 1] - start[k])
    # the last layer: every slot full, every tracked slot's points in range
    for c0 in range(n0 + 1):
        for p0 in range(P0):
            for c1 in range(n1 + 1):
                for p1 in range(P1):
                    ok = c0 == n0 and c1 == n1
                    if track[0] and not lo[0] <= p0 <= hi[0]:
                        ok = False
                    if track[1] and not lo[1] <= p1 <= hi[1]:
                        ok = False
                    if track[2]:
                        p2 = total - p0 - p1
                        if not lo[2] <= p2 <= hi[2]:
                            ok = False
                    f[n_types, c0, p0, c1, p1] = 1.0 if ok else 0.0
    points_before = total
    for k in range(n_types - 1, -1, -1):
        m = start[k + 1] - start[k]
        v = value[k]
        dealt -= m
        points_before -= v * m
        for c0 in range(n0 + 1):
            for c1 in range(n1 + 1):
                c2 = dealt - c0 - c1
                for p0 in range(P0):
                    for p1 in range(P1):
                        f[k, c0, p0, c1, p1] = 0.0
                if c2 < 0 or c2 > n2:
                    continue
                for p0 in range(P0):
                    for p1 in range(P1):
                        if track[2]:
                            p2 = points_before - p0 - p1
                            if p2 < 0 or p2 > hi[2]:
                                continue
                        acc = 0.0
                        top0 = min(m, n0 - c0) if allowed[k, 0] else 0
                        for a0 in range(top0 + 1):
                            q0 = p0 + a0 * v if track[0] else 0
                            if q0 >= P0:
                                break
                            top1 = min(m - a0, n1 - c1) if allowed[k, 1] else 0
                            for a1 in range(top1 + 1):
                                a2 = m - a0 - a1
                                if a2 > n2 - c2 or (a2 > 0 and not allowed[k, 2]):
                                    continue
                                q1 = p1 + a1 * v if track[1] else 0
                                if q1 >= P1:
                                    break
                                nxt = f[k + 1, c0 + a0, q0, c1 + a1, q1]
                                if nxt > 0.0:
                                    acc += binom[m, a0] * binom[m - a0, a1] * nxt
                        f[k, c0, p0, c1, p1] = acc


@jit
def sample(rng, slot_seat, need, track, cards, start, value, allowed, table, binom, work,
           owner):
    """One deal, every consistent deal equally likely: ``owner[card]`` = the seat that
    gets it, for every card of the pool (others untouched). ``work``: scratch at least
    as long as the pool. The table must be feasible."""
    n_types = start.shape[0] - 1
    P0, P1 = table.shape[2], table.shape[4]
    n0, n1, n2 = need[0], need[1], need[2]
    c0, p0, c1, p1 = 0, 0, 0, 0
    dealt = 0
    for k in range(n_types):
        m = start[k + 1] - start[k]
        v = value[k]
        c2 = dealt - c0 - c1
        u = uniform(rng) * table[k, c0, p0, c1, p1]
        acc = 0.0
        pick0, pick1 = -1, -1
        top0 = min(m, n0 - c0) if allowed[k, 0] else 0
        for a0 in range(top0 + 1):
            q0 = p0 + a0 * v if track[0] else 0
            if q0 >= P0:
                break
            top1 = min(m - a0, n1 - c1) if allowed[k, 1] else 0
            for a1 in range(top1 + 1):
                a2 = m - a0 - a1
                if a2 > n2 - c2 or (a2 > 0 and not allowed[k, 2]):
                    continue
                q1 = p1 + a1 * v if track[1] else 0
                if q1 >= P1:
                    break
                nxt = table[k + 1, c0 + a0, q0, c1 + a1, q1]
                if nxt > 0.0:
                    acc += binom[m, a0] * binom[m - a0, a1] * nxt
                    pick0, pick1 = a0, a1  # the last split with weight: rounding's fallback
                    if u < acc:
                        break
            if pick0 >= 0 and u < acc:
                break
        a0, a1 = pick0, pick1
        # which cards of the type: a uniform shuffle, the first a0 to slot 0, ...
        for i in range(m):
            work[i] = cards[start[k] + i]
        for i in range(m - 1, 0, -1):
            j = below(rng, i + 1)
            work[i], work[j] = work[j], work[i]
        for i in range(m):
            slot = 0 if i < a0 else 1 if i < a0 + a1 else 2
            owner[work[i]] = slot_seat[slot]
        c0 += a0
        c1 += a1
        if track[0]:
            p0 += a0 * v
        if track[1]:
            p1 += a1 * v
        dealt += m


def binomials(plan: Plan) -> np.ndarray:
    """The binomial table ``sample`` reads for ``plan``."""
    return _binomials(max(1, len(plan.cards)))
