"""The exact constrained dealer (``sim/exactdeal.py``): it counts every consistent deal,
and draws each of them equally often; checked against brute-force enumeration."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from scipy import stats

from sim import exactdeal
from sim.rng import seed_stream


def brute(pool, value, barred, seats, need, lo, hi):
    """Every consistent deal, as a tuple of the seat of each pool card."""
    out = []
    for owners in itertools.product(seats, repeat=len(pool)):
        ok = True
        for t, k, a, b in zip(seats, need, lo, hi):
            mine = [c for c, o in zip(pool, owners) if o == t]
            points = sum(value[c] for c in mine)
            ok &= len(mine) == k and a <= points <= b and not any(barred[c] >> t & 1 for c in mine)
        if ok:
            out.append(owners)
    return out


def draws(plan, pool, count, seed=5):
    binom = exactdeal.binomials(plan)
    rng = np.empty(4, np.uint64)
    work = np.empty(len(pool), np.int64)
    owner = np.full(64, -9, np.int64)
    got = []
    for r in range(count):
        seed_stream(rng, seed, r, 0)
        exactdeal.sample(rng, *plan.arrays(), binom, work, owner)
        got.append(tuple(int(owner[c]) for c in pool))
    return got


CASES = [
    # (values of the pool cards, barred seat bits, seats, need, lo, hi)
    ([4, 4, 3, 3, 2, 2, 1, 1, 1], [0, 2, 0, 0, 8, 0, 2, 0, 0], [1, 2, 3], [3, 3, 3],
     [7, 6, 0], [8, 9, 99]),                                    # two seats constrained
    ([4, 3, 3, 2, 2, 1, 1, 1, 4], [0] * 9, [0, 2, 3], [2, 3, 4], [8, 6, 7], [8, 6, 7]),  # all exact
    ([4, 3, 2, 1, 4, 3, 2, 1], [1, 1, 0, 0, 2, 0, 0, 4], [0, 1, 2], [2, 3, 3],
     [0, 0, 0], [99, 99, 99]),                                  # only barred cards
    ([4, 3, 2, 1, 1, 2, 3], [0] * 7, [1, 3], [3, 4], [6, 0], [6, 99]),  # two seats (padded)
]


@pytest.mark.parametrize("values,barred,seats,need,lo,hi", CASES)
def test_counts_and_draws_match_enumeration(values, barred, seats, need, lo, hi):
    pool = list(range(10, 10 + len(values)))
    value = np.zeros(64, np.int64)
    bar = np.zeros(64, np.int64)
    value[pool] = values
    bar[pool] = barred
    plan = exactdeal.plan(np.array(pool), value, bar, seats, need, lo, hi)
    every = brute(pool, value, bar, seats, need, lo, hi)
    assert plan.feasible and plan.table[(0,) * 5] == pytest.approx(len(every))
    got = Counter(draws(plan, pool, 30 * len(every)))
    assert set(got) <= set(every)  # every draw consistent
    # every consistent deal equally likely: a chi-square goodness of fit to uniform
    observed = [got[d] for d in every]
    assert stats.chisquare(observed).pvalue > 1e-3


def test_no_consistent_deal_is_infeasible():
    pool = np.arange(6)
    value = np.array([1, 1, 1, 1, 1, 1] + [0] * 58)
    plan = exactdeal.plan(pool, value, np.zeros(64, np.int64), [1, 2, 3], [2, 2, 2],
                          [3, 0, 0], [99, 99, 99])  # 2 cards of 1 point make no 3
    assert not plan.feasible
