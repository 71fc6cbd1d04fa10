"""Bridge players' analyses on double-dummy results: the same boards at several
tables (``play_tables``; ``analysis.bridge.pairs`` matchpoints them), a team match
between two strategies and the "best contract" of a hand under constraints.

All solve only what they need through the cache (``dd.py``): any number of tables on n
boards cost one solve per board, and a rerun costs none.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from sim.errors import BidlabError
from sim.game import Policies
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


def seating(ns: Policies, ew: Policies) -> Policies:
    """One table's policies: ``ns``'s in seats 0 and 2, ``ew``'s in seats 1 and 3 (each
    given as a strategy's policies in all four seats)."""
    (ids_a, pa), (ids_b, pb) = ns["bid"], ew["bid"]
    ids = np.array([ids_a[0], ids_b[0]] * 2, dtype=np.int64)
    params = np.zeros((4, max(pa.shape[1], pb.shape[1])))
    params[0::2, :pa.shape[1]] = pa[0]
    params[1::2, :pb.shape[1]] = pb[0]
    return {"bid": (ids, params)}


@dataclass
class Tables:
    """Results of the same boards played at several tables."""

    boards: np.ndarray
    """Board number of each board (B1, or an imported board's tag)."""
    score_ns: np.ndarray
    """(tables, boards) int64: the North-South score at each table (B10, B11)."""
    par_ns: np.ndarray


def play_tables(seatings: list[tuple[Policies, tuple[str, ...]]], n: int, seed: int = 0,
                rules: Rules | None = None, start: int = 0, deals: np.ndarray | None = None,
                progress: bool | None = None) -> Tables:
    """Boards ``start .. start + n - 1`` (dealt from ``seed``, or rows of ``deals``, an
    imported file) at one table per ``(policies, labels)`` of ``seatings``. Every board
    is dealt and solved once; every table draws its policies' random numbers from the
    same streams ``(seed, board, seat)``, so two tables seated alike score alike."""
    rules = rules or make()
    if deals is not None:
        if start + n > deals.shape[0]:
            raise BidlabError(f"-n {n}: the file holds {deals.shape[0]} boards")
        deals = deals[start:start + n]
    hands = E.board_hands(seed, start, n, deals)
    tables, par_ns, oracle = E.solve_boards(rules, hands, start, progress, deals)
    scores = np.zeros((len(seatings), n), dtype=np.int64)
    for k, (policies, labels) in enumerate(seatings):
        out, _ = E.auctions(rules, policies, labels, seed, start, hands, tables, par_ns,
                            oracle, deals=deals)
        scores[k] = out[:, K.B_SCORE_NS]
    return Tables(E.board_numbers(start, n, deals), scores, par_ns.astype(np.int64))


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
               start: int = 0, progress: bool | None = None,
               deals: np.ndarray | None = None) -> TeamMatch:
    """Strategies ``a`` and ``b`` (``NAME[:param=value,...]``) as two teams on boards
    ``start .. start + n - 1`` (or on rows of ``deals``, imported boards): at table 1 A
    sits North-South and B East-West, at table 2 the other way round; team A wins
    ``imps(ns1 - ns2)`` on each board (B11)."""
    rules = rules or make()
    sa, pa = _policies(a, rules)
    sb, pb = _policies(b, rules)
    played = play_tables([(seating(pa, pb), (sa.label, sb.label) * 2),
                          (seating(pb, pa), (sb.label, sa.label) * 2)],
                         n, seed, rules, start, deals, progress)
    ns1, ns2 = played.score_ns
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
