"""Bridge players' comparisons on double-dummy results, with 95% intervals:

- ``pairs``: a field of bidding strategies, each sitting North-South on the same boards
  against the same East-West opponents, scored by matchpoints (B11), with paired
  differences;
- ``team_match``: two strategies as teams (A North-South at one table, East-West at the
  other), IMPs per board (B11);
- ``best_contract``: for a hand under constraints, the double-dummy tricks per strain
  and the expected score of every contract.

The boards are common random numbers: every strategy meets the same deals, the same
opponents and the same random streams, so paired differences are much tighter than
separate intervals.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.runs import import_deals
from analysis.spec import make_rules
from analysis.stats import mean_ci, paired_difference
from analysis.tables import field_percentages, matchpoints
from analysis.tournament import distinct_names
from sim.errors import BidlabError, StrategyError
from sim.game import Policies
from sim.games.bridge.core import score as duplicate_score
from sim.games.bridge.dd import solve
from sim.games.bridge.deal import deal
from sim.games.bridge.engine import imps_vec
from sim.games.bridge.tools import play_tables, seating
from sim.rules import Rules
from strategies import Strategy, assign_seats, for_game

DEFAULT_BOARDS = 200

STRAIN_NAMES = ("C", "D", "H", "S", "NT")
"""Strains as players write them, in ``sim.games.bridge.core.STRAINS`` order (no trump is NT)."""


@dataclass
class Pairs:
    """Result of :func:`pairs`."""

    fields: list[str]
    """Field names in the order given (a strategy listed twice gets ``#2``)."""
    opponents: str
    frame: pd.DataFrame
    """One row per field: ``field, boards, pct, ci_low, ci_high`` (mean matchpoint
    percentage with a 95% interval across boards), ``score_ns`` (mean NS score)."""
    differences: pd.DataFrame
    """One row per pair of fields: ``first, second, diff`` (first's percentage minus
    second's, per board, averaged), ``ci_low, ci_high, p_value, n`` (paired t)."""
    scores: pd.DataFrame
    """One row per board and field: ``match, board, field, score_ns, mp, pct``."""
    provenance: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (f"Pairs(bridge: {len(self.fields)} fields against {self.opponents!r}, "
                f"{self.provenance.get('boards', 0):,} boards)")

    def to_json(self) -> dict[str, Any]:
        return {"provenance": self.provenance,
                "fields": self.frame.to_dict(orient="records"),
                "differences": self.differences.to_dict(orient="records")}


def board_count(n: int | None, deals: np.ndarray | None = None, start: int = 0) -> int:
    """``-n``, by default DEFAULT_BOARDS, or every board of ``deals`` from ``start``."""
    if n is None:
        n = DEFAULT_BOARDS if deals is None else deals.shape[0] - start
    if n < 1:
        raise BidlabError(f"-n {n}: give at least 1 board")
    return n


def strategy_policies(spec: str) -> tuple[Strategy, Policies]:
    """A strategy ``NAME[:param=value,...]`` and its policies in all four seats."""
    seats = assign_seats(for_game("bridge"), 4, [f"all={spec}"])
    return seats.strategies[0], {"bid": (seats.ids("bid"), seats.params("bid"))}


def pairs(strategies: list[str], n: int | None = None, *, seed: int = 0,
          opponents: str = "natural", rules: dict[str, Any] | None = None,
          boards: str | Path | None = None, start: int = 0,
          progress: bool | None = False) -> Pairs:
    """Every strategy of ``strategies`` (``NAME[:param=value,...]``) sits North-South on
    boards ``start .. start + n - 1`` (dealt from ``seed``, or the boards of the PBN file
    ``boards``) against ``opponents`` East-West; each board is matchpointed across the
    field (2 per result beaten, 1 per tie; B11)."""
    if len(strategies) < 2:
        raise StrategyError(f"pairs needs at least two strategies to matchpoint against "
                            f"each other, got {len(strategies)}: e.g. natural random par")
    r = make_rules("bridge", rules)
    deals = import_deals("bridge", boards) if boards is not None else None
    n = board_count(n, deals, start)
    so, po = strategy_policies(opponents)
    parsed = [strategy_policies(spec) for spec in strategies]
    names = distinct_names([s.label for s, _ in parsed])
    seatings = [(seating(p, po), (s.label, so.label) * 2) for s, p in parsed]
    played = play_tables(seatings, n, seed, r, start, deals, progress)
    scores = pd.DataFrame({
        "match": np.tile(np.arange(start, start + n), len(names)),
        "board": np.tile(played.boards, len(names)),
        "field": pd.Categorical(np.repeat(names, n), categories=names),
        "score_ns": played.score_ns.ravel()})
    scored = matchpoints(scores, board="match")
    frame = field_percentages(scored, board="match")
    frame["score_ns"] = [float(played.score_ns[k].mean()) for k in range(len(names))]
    pct = scored.pivot(index="match", columns="field", values="pct")
    rows = [{"first": a, "second": b, **paired_difference(pct[b].to_numpy(), pct[a].to_numpy())}
            for a, b in itertools.combinations(names, 2)]
    provenance = {"game": "bridge", "rules": r.to_json(), "strategies": list(strategies),
                  "fields": names, "opponents": so.label, "seed": seed, "start": start,
                  "boards": n}
    if boards is not None:
        provenance["boards_file"] = str(boards)
    return Pairs(names, so.label, frame, pd.DataFrame(rows), scored, provenance)


@dataclass
class TeamMatch:
    a: str
    b: str
    boards: int
    imps_per_board: float
    ci_low: float
    ci_high: float
    imps: np.ndarray
    """Per board: IMPs won by team A (A's NS score at table 1 minus B's NS score at
    table 2, in IMPs)."""
    score_ns_1: np.ndarray
    score_ns_2: np.ndarray
    rows: list[dict] = field(default_factory=list)
    """The scorecard, one dict per board: ``board, dealer`` (N E S W), ``vulnerability``
    (None NS EW Both), per table ``t1_contract, t1_declarer, t1_result`` (tricks over or
    under the contract: ``=``, ``+1``, ``-2``; None where the board was passed out),
    ``t1_score_ns`` and the same for ``t2``, and ``imps`` (won by team A)."""

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "boards": self.boards,
                "imps_per_board": self.imps_per_board, "ci_low": self.ci_low,
                "ci_high": self.ci_high,
                "imps_total": int(self.imps.sum()), "scorecard": self.rows}


def result_text(tricks: int, level: int) -> str:
    """Tricks against a contract of ``level``, as a scorecard writes it: ``=``, ``+1``, ``-2``."""
    over = tricks - (level + 6)
    return "=" if over == 0 else f"{over:+d}"


def scorecard(played, imps: np.ndarray) -> list[dict]:
    """Per board of two tables (``tools.Tables`` with ``out``): board, dealer,
    vulnerability, each table's contract, declarer, result and NS score, the IMPs."""
    from sim.games.bridge import kernel as K
    from sim.games.bridge.engine import contract_text
    from sim.games.bridge.rules import SEAT_NAMES, VUL_NAMES
    rows = []
    for i, board in enumerate(played.boards):
        first = played.out[0, i]
        row: dict[str, Any] = {"board": int(board), "dealer": SEAT_NAMES[int(first[K.B_DEALER])],
                               "vulnerability": VUL_NAMES[int(first[K.B_VUL])]}
        for t in (0, 1):
            r = played.out[t, i]
            contract = contract_text(r)
            if contract is not None and contract[1] == "N":
                contract = contract[0] + "NT" + contract[2:]
            row[f"t{t + 1}_contract"] = contract
            row[f"t{t + 1}_declarer"] = SEAT_NAMES[int(r[K.B_DECLARER])] if contract else None
            row[f"t{t + 1}_result"] = (result_text(int(r[K.B_TRICKS]), int(r[K.B_LEVEL]))
                                       if contract else None)
            row[f"t{t + 1}_score_ns"] = int(r[K.B_SCORE_NS])
        row["imps"] = int(imps[i])
        rows.append(row)
    return rows


def team_match(a: str, b: str, n: int | None = None, seed: int = 0, rules: Rules | None = None,
               start: int = 0, progress: bool | None = None,
               deals: np.ndarray | None = None) -> TeamMatch:
    """Strategies ``a`` and ``b`` (``NAME[:param=value,...]``) as two teams on boards
    ``start .. start + n - 1`` (or on rows of ``deals``, imported boards; ``n``: see
    :func:`board_count`): at table 1 A sits North-South and B East-West, at table 2 the
    other way round; team A wins ``imps(ns1 - ns2)`` on each board (B11)."""
    rules = rules or make_rules("bridge", None)
    n = board_count(n, deals, start)
    sa, pa = strategy_policies(a)
    sb, pb = strategy_policies(b)
    played = play_tables([(seating(pa, pb), (sa.label, sb.label) * 2),
                          (seating(pb, pa), (sb.label, sa.label) * 2)],
                         n, seed, rules, start, deals, progress)
    ns1, ns2 = played.score_ns
    imps = imps_vec(ns1 - ns2).astype(np.float64)
    mean, lo, hi = mean_ci(imps)
    return TeamMatch(sa.label, sb.label, n, mean, lo, hi, imps, ns1, ns2,
                     scorecard(played, imps))


@dataclass
class BestContract:
    boards: int
    tricks: np.ndarray
    """(boards, 5): the declarer seat's double-dummy tricks per strain C D H S N."""
    contracts: list[dict]
    """Per contract level 1..7 x strain: mean score with 95% interval, P(make)."""

    def __repr__(self) -> str:
        top = self.contracts[0] if self.contracts else {}
        return (f"BestContract({self.boards:,} boards: best {top.get('contract')} with "
                f"{top.get('mean', float('nan')):+.0f} on average)")


def best_contract(constraints, seat: int, n: int, seed: int = 0, vulnerable: bool = False,
                  progress: bool | None = None) -> BestContract:
    """For boards dealt under ``constraints`` (``deal.Constraints``), the distribution of
    ``seat``'s double-dummy tricks per strain as declarer, and the expected duplicate
    score of every undoubled contract he could declare, with 95% intervals."""
    hands = deal(constraints, seed, 0, n)
    tables = solve(hands, progress=progress)
    tricks = tables[:, seat, :].astype(np.int64)
    rows = []
    for level in range(1, 8):
        for strain in range(5):
            sc = np.array([duplicate_score(level, strain, 0, int(vulnerable), int(t))
                           for t in tricks[:, strain]], dtype=np.float64)
            mean, lo, hi = mean_ci(sc)
            rows.append({"contract": f"{level}{STRAIN_NAMES[strain]}", "mean": mean,
                         "ci_low": lo, "ci_high": hi,
                         "p_make": float((tricks[:, strain] >= level + 6).mean())})
    rows.sort(key=lambda r: -r["mean"])
    return BestContract(n, tricks, rows)
