"""Bridge players' analyses on double-dummy results: a team match between two
strategies and the "best contract" of a hand under constraints.

Both solve only what they need through the cache (``dd.py``): a team match of two
strategies on n boards costs one solve per board, and a rerun costs none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.games.bridge import core as C
from sim.games.bridge import dd as DD
from sim.games.bridge import engine as E
from sim.games.bridge import kernel as K
from sim.games.bridge.rules import Rules, make


def _interval(x: np.ndarray) -> tuple[float, float, float]:
    from scipy import stats
    n = len(x)
    mean = float(x.mean()) if n else math.nan
    if n < 2:
        return mean, math.nan, math.nan
    half = stats.t.ppf(0.975, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _policies(spec: str, rules: Rules):
    from strategies import assign_seats, for_game
    seats = assign_seats(for_game("bridge"), 4, [f"all={spec}"])
    return seats.strategies[0], {"bid": (seats.ids("bid"), seats.params("bid"))}


@dataclass
class TeamMatch:
    a: str
    b: str
    boards: int
    imps_per_board: float
    lo: float
    hi: float
    imps: np.ndarray
    """Per board: IMPs won by team A (A's NS score at table 1 minus B's NS score at
    table 2, in IMPs)."""
    score_ns_1: np.ndarray
    score_ns_2: np.ndarray


def team_match(a: str, b: str, n: int, seed: int = 0, rules: Rules | None = None,
               start: int = 0, progress: bool | None = None) -> TeamMatch:
    """Strategies ``a`` and ``b`` (``NAME[:param=value,...]``) as two teams on boards
    ``start .. start + n - 1``: at table 1 A sits North-South and B East-West, at table 2
    the other way round; team A wins ``imps(ns1 - ns2)`` on each board (B11)."""
    rules = rules or make()
    sa, pa = _policies(a, rules)
    sb, pb = _policies(b, rules)
    ids = np.array([pa["bid"][0][0], pb["bid"][0][0]] * 2)
    width = max(pa["bid"][1].shape[1], pb["bid"][1].shape[1])
    params = np.zeros((4, width))
    params[0::2, :pa["bid"][1].shape[1]] = pa["bid"][1][0]
    params[1::2, :pb["bid"][1].shape[1]] = pb["bid"][1][0]
    t1 = {"bid": (ids, params)}
    t2 = {"bid": (ids[[1, 0, 1, 0]], params[[1, 0, 1, 0]])}
    hands = E.deal(seed, start, n)
    tables, par_ns, oracle = E.solve_boards(rules, hands, start, progress)
    labels = (sa.label, sb.label) * 2
    o1, _ = E.auctions(rules, t1, labels, seed, start, hands, tables, par_ns, oracle)
    o2, _ = E.auctions(rules, t2, labels[::-1], seed, start, hands, tables, par_ns, oracle)
    ns1 = o1[:, K.B_SCORE_NS].astype(np.int64)
    ns2 = o2[:, K.B_SCORE_NS].astype(np.int64)
    imps = E._imps_vec(ns1 - ns2).astype(np.float64)
    mean, lo, hi = _interval(imps)
    return TeamMatch(sa.label, sb.label, n, mean, lo, hi, imps, ns1, ns2)


@dataclass
class BestContract:
    boards: int
    tricks: np.ndarray
    """(boards, 5): the declarer seat's double-dummy tricks per strain C D H S N."""
    contracts: list[dict]
    """Per contract level 1..7 x strain: mean score with 95% interval, P(make)."""


def best_contract(constraints, seat: int, n: int, seed: int = 0, vulnerable: bool = False,
                  progress: bool | None = None) -> BestContract:
    """For boards dealt under ``constraints`` (``deal.Constraints``), the distribution of
    ``seat``'s double-dummy tricks per strain as declarer, and the expected duplicate
    score of every undoubled contract he could declare, with 95% intervals."""
    from sim.games.bridge.deal import deal
    hands = deal(constraints, seed, 0, n)
    tables = DD.solve(hands, progress=progress)
    tricks = tables[:, seat, :].astype(np.int64)
    rows = []
    for level in range(1, 8):
        for strain in range(5):
            sc = np.array([C.score(level, strain, 0, int(vulnerable), int(t))
                           for t in tricks[:, strain]], dtype=np.float64)
            mean, lo, hi = _interval(sc)
            rows.append({"contract": f"{level}{C.STRAINS[strain]}", "mean": mean, "lo": lo,
                         "hi": hi, "p_make": float((tricks[:, strain] >= level + 6).mean())})
    rows.sort(key=lambda r: -r["mean"])
    return BestContract(n, tricks, rows)
