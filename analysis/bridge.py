"""Bridge pairs events on double-dummy results: a field of bidding strategies, each
sitting North-South on the same boards against the same East-West opponents, scored by
matchpoints (B11) with 95% intervals across boards and paired differences.

The boards are common random numbers: every strategy meets the same deals, the same
opponents and the same random streams, so the paired differences are much tighter than
the separate intervals.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.stats import paired_difference
from analysis.tables import field_percentages, matchpoints
from sim.errors import BidlabError, StrategyError

DEFAULT_BOARDS = 200


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
    """One row per pair of fields: ``first, second, diff`` (second's percentage minus
    first's, per board, averaged), ``ci_low, ci_high, p_value, n`` (paired t)."""
    scores: pd.DataFrame
    """One row per board and field: ``match, board, field, score_ns, mp, pct``."""
    provenance: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"provenance": self.provenance,
                "fields": self.frame.to_dict(orient="records"),
                "differences": self.differences.to_dict(orient="records")}


def field_names(labels: list[str]) -> list[str]:
    """Distinct names: a label seen before gets ``#2``, ``#3``, ..."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return out


def pairs(strategies: list[str], n: int | None = None, *, seed: int = 0,
          opponents: str = "natural", rules: dict[str, Any] | None = None,
          boards: str | Path | None = None, start: int = 0,
          progress: bool | None = False) -> Pairs:
    """Every strategy of ``strategies`` (``NAME[:param=value,...]``) sits North-South on
    boards ``start .. start + n - 1`` (dealt from ``seed``, or the boards of the PBN file
    ``boards``) against ``opponents`` East-West; each board is matchpointed across the
    field (2 per result beaten, 1 per tie; B11)."""
    from analysis.runs import import_deals, make_rules
    from sim.games.bridge.tools import _policies, play_tables, seating

    if len(strategies) < 2:
        raise StrategyError(f"pairs needs at least two strategies to matchpoint against "
                            f"each other, got {len(strategies)}: e.g. natural random par")
    r = make_rules("bridge", rules)
    deals = import_deals("bridge", boards) if boards is not None else None
    if n is None:
        n = DEFAULT_BOARDS if deals is None else deals.shape[0] - start
    if n < 1:
        raise BidlabError(f"-n {n}: give at least 1 board")
    so, po = _policies(opponents, r)
    parsed = [_policies(spec, r) for spec in strategies]
    names = field_names([s.label for s, _ in parsed])
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
    rows = [{"first": a, "second": b, **paired_difference(pct[a].to_numpy(), pct[b].to_numpy())}
            for a, b in itertools.combinations(names, 2)]
    provenance = {"game": "bridge", "rules": r.to_json(), "strategies": list(strategies),
                  "fields": names, "opponents": so.label, "seed": seed, "start": start,
                  "boards": n}
    if boards is not None:
        provenance["boards_file"] = str(boards)
    return Pairs(names, so.label, frame, pd.DataFrame(rows), scored, provenance)

