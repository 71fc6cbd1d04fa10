"""Duplicate tournaments: several strategies compared on the same matches, each playing
every seat equally often.

Every game deals match ``i`` from ``(seed, i)`` alone, whatever the policies, so the same
matches can be replayed under several *lineups* (which strategy sits where). The lineups
form a balanced design (:func:`design`): each strategy occupies each seat equally often,
and where the design can be had with at most twice as many lineups as strategies, each
strategy also sits directly after (in the next seat) every other strategy equally often,
as a Williams design does. With fewer strategies than seats the table is filled: every
lineup holds each strategy ``floor(n/k)`` or ``ceil(n/k)`` times, never in two adjacent
seats.

The statistics treat the match as the unit: a strategy's value in match ``i`` is its mean
over every lineup and seat it holds in that match, so its intervals are clustered by
match, and the difference of two strategies is paired by match (the deal's luck, which
every lineup shares, cancels). Pairwise p-values are adjusted for the number of pairs
(Holm); the probability that the leader is best is a bootstrap over matches.

A game with fixed partnerships (bridge: North-South and East-West) seats one strategy per
side: the design's positions are the sides. With two strategies, ``tournament bridge``
is then the team match of ``analysis.bridge.team_match`` (A North-South at one table and
East-West at the other), scored in total points rather than IMPs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import strategies as strategies_
from analysis.design import Design, design, positions
from analysis.runs import _deals_provenance, import_deals, make_job
from analysis.spec import MATCHES_PER_LINEUP, RunSpec
from analysis.stats import bootstrap_best, holm, mean_ci, paired_difference
from sim import runner
from sim.errors import BidlabError
from sim.games import get_game

METRICS = ("score", "win")
METRIC_TITLES = {"score": "match score", "win": "win share"}
DEFAULT_BOOTSTRAP = 1000

# -- running ---------------------------------------------------------------------------

@dataclass
class Tournament:
    """Result of :func:`tournament`.

    ``frame``: one row per strategy, best first: ``rank, name, strategy`` (its canonical
    label), for each metric (``score``, ``win``, then the game's other ``summary_metrics``,
    e.g. bridge's ``imps_vs_par``) its mean per match with ``<metric>_ci_low/_ci_high`` (95%,
    clustered by match), ``p_best`` (bootstrap share of resamples it leads), ``matches``.
    ``differences``: one row per pair and metric: ``first, second`` (first ranked above
    second), ``metric``, ``diff`` (first minus second, paired by match), ``ci_low,
    ci_high``, ``p_value`` (paired t), ``p_holm`` (Holm-adjusted over the pairs), ``n``.
    ``per_match``: per metric, the matches x strategies array behind both.
    """

    game: str
    names: list[str]
    design: Design
    metric: str
    frame: pd.DataFrame
    differences: pd.DataFrame
    leader: str
    p_best: float
    provenance: dict[str, Any]
    per_match: dict[str, np.ndarray] = field(repr=False, default_factory=dict)
    out: Path | None = None
    seats: pd.DataFrame | None = field(repr=False, default=None)
    """With ``keep_seats``: every lineup's ``seats`` rows (``match, lineup, seat,
    strategy``, then the game's columns)."""

    def __repr__(self) -> str:
        n = int(self.frame["matches"].iloc[0]) if len(self.frame) else 0
        return (f"Tournament({self.game}: {len(self.names)} strategies, "
                f"{len(self.design.lineups)} lineups x {n:,} matches; leader {self.leader!r}, "
                f"P(best) {self.p_best:.2f})")

    def lineup_names(self) -> list[list[str]]:
        return [[self.names[a] for a in row] for row in self.design.lineups]

    def equity(self) -> pd.DataFrame:
        """The per-strategy means in the long form of :func:`analysis.tables.equity`
        (``metric, by, name, matches, mean, ci_low, ci_high``; ``by`` is ``strategy``),
        best first, which the report's tables and figures read."""
        rows = [{"metric": m, "by": "strategy", "name": r["name"], "matches": r["matches"],
                 "mean": r[m], "ci_low": r[f"{m}_ci_low"], "ci_high": r[f"{m}_ci_high"]}
                for m in self.per_match for r in self.frame.to_dict(orient="records")]
        return pd.DataFrame(rows)

    def head_to_head(self, a: str, b: str, metric: str = "score") -> np.ndarray:
        """Per match: 1 where ``a`` outscores ``b`` (each averaged over its seats and
        lineups), 0.5 on a tie, else 0."""
        x = self.per_match[metric][:, self.names.index(a)]
        y = self.per_match[metric][:, self.names.index(b)]
        return (x > y) + 0.5 * (x == y)

    def to_json(self) -> dict[str, Any]:
        return _clean({"game": self.game, "metric": self.metric, "leader": self.leader,
                       "p_best": self.p_best, "provenance": self.provenance,
                       "strategies": self.frame.to_dict(orient="records"),
                       "differences": self.differences.to_dict(orient="records")})


def _clean(obj):
    """JSON-safe: NaN -> None, numpy scalars -> Python."""
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def distinct_names(labels: Sequence[str]) -> list[str]:
    """A label seen before gets ``#2``, ``#3``, ... (the same strategy entered twice)."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return out


class _Accumulate:
    """Sink of one lineup: adds each strategy's per-match sums over the seats it holds."""

    def __init__(self, sums: dict[str, np.ndarray], seat_strategy: np.ndarray, bar=None):
        self.sums = sums
        self.seat_strategy = seat_strategy
        self.bar = bar

    def add(self, start: int, tables) -> None:
        seats = tables["seats"]
        n_seats = len(self.seat_strategy)
        count = len(seats["match"]) // n_seats
        for metric, sums in self.sums.items():
            values = np.asarray(seats[metric], dtype=np.float64).reshape(count, n_seats)
            for s, a in enumerate(self.seat_strategy):  # seat order: the same in any chunking
                sums[start:start + count, a] += values[:, s]
        if self.bar is not None:
            self.bar.update(count)


class _LineupTables:
    """Every lineup's ``seats`` table, with columns ``match, lineup, seat, strategy`` (the
    tournament's name of the strategy in that seat) first: written to one Parquet file
    (``path``), kept in memory (``keep``), or both."""

    def __init__(self, names: list[str], provenance: dict[str, Any],
                 path: str | Path | None = None, keep: bool = False):
        import json

        from sim.sinks import PROVENANCE_KEY
        self.path = Path(path) if path is not None else None
        self.names = names
        self.metadata = {PROVENANCE_KEY: json.dumps(_clean(provenance)).encode()}
        self.kept: list | None = [] if keep else None
        self.writer = None
        self.lineup = 0
        self.seat_strategy = np.zeros(0, dtype=np.int32)

    def add(self, start: int, tables) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        from sim.sinks import to_arrow
        table = to_arrow(tables["seats"])
        seat = np.asarray(tables["seats"]["seat"]).astype(np.int64)
        table = table.add_column(1, "lineup", pa.array(np.full(len(seat), self.lineup,
                                                                dtype=np.int32)))
        at = table.schema.get_field_index("seat") + 1
        table = table.add_column(at, "strategy", pa.DictionaryArray.from_arrays(
            self.seat_strategy[seat].astype(np.int32), self.names))
        if self.kept is not None:
            self.kept.append(table)
        if self.path is not None:
            if self.writer is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.writer = pq.ParquetWriter(self.path,
                                               table.schema.with_metadata(self.metadata),
                                               compression="zstd")
            self.writer.write_table(table.cast(self.writer.schema))

    def frame(self) -> pd.DataFrame | None:
        """The kept rows, ordered by lineup, match and seat (None: nothing kept)."""
        if self.kept is None:
            return None
        import pyarrow as pa
        frame = pa.concat_tables(self.kept, promote_options="default").to_pandas()
        return frame.sort_values(["lineup", "match", "seat"], kind="stable",
                                 ignore_index=True)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


def tournament(game: str, strategies: Sequence[str], n: int | None = None, *, seed: int = 0,
               rules: Mapping[str, Any] | None = None, rules_file: str | None = None,
               out: str | Path | None = None, balance: str = "after",
               chunk_size: int = runner.DEFAULT_CHUNK, threads: int | None = None,
               workers: int | None = None, scheduler: str | None = None,
               progress: bool | None = False, boards: str | Path | None = None,
               bootstrap: int = DEFAULT_BOOTSTRAP, keep_seats: bool = False) -> Tournament:
    """Play matches ``0..n-1`` of ``seed`` once per lineup of :func:`design` over
    ``strategies`` (``NAME[:param=value,...]``; the same one twice is allowed and gets
    ``#2``), and compare the strategies paired by match.

    ``n``: matches per lineup (the same matches in every lineup; default the game's
    ``default_n``). Ranked by the game's ``objective`` (``win`` for vybory, whose scores
    are not zero-sum; else ``score``); both are reported. ``out``: every lineup's
    ``seats`` table in one Parquet file, with the provenance (design included) in its
    metadata. ``keep_seats``: keep those rows in memory too (``Tournament.seats``).
    ``boards``: play the boards of a file instead of dealing (bridge: PBN).
    ``workers``/``scheduler``: play on a Dask cluster (one local cluster of ``workers``
    processes serves every lineup), with the same results bit for bit.
    """
    g = get_game(game)
    if isinstance(strategies, str):
        strategies = strategies.split()
    strategies = list(strategies or [])
    if len(strategies) < 2:
        raise BidlabError(f"a tournament needs at least two strategies to compare, got "
                          f"{len(strategies)}" + (f" ({strategies[0]})" if strategies else "")
                          + "; e.g. `bidlab tournament GAME A B`")
    deals = import_deals(game, boards) if boards is not None else None
    # the spec's strategies stay the default: the entrants take the seats lineup by lineup
    spec = RunSpec.make(game, n if n is not None or deals is None else deals.shape[0],
                        seed=seed, rules=rules, rules_file=rules_file, threads=threads,
                        chunk_size=chunk_size, workers=workers, scheduler=scheduler,
                        progress=progress, count=MATCHES_PER_LINEUP)
    n, r = spec.n, spec.rules
    if deals is not None and n > deals.shape[0]:
        raise BidlabError(f"-n {n}: {boards} holds only {deals.shape[0]} boards")
    gs = strategies_.for_game(game)
    parsed = [gs.parse(text) for text in strategies]
    names = distinct_names([s.label for s in parsed])
    n_seats = g.n_seats(r)
    seats_of = positions(game, n_seats)
    d = design(len(parsed), len(seats_of), balance)
    position_of = np.zeros(n_seats, dtype=np.int64)
    for p, seats in enumerate(seats_of):
        position_of[list(seats)] = p
    metric = g.objective if g.objective in METRICS else "score"
    metrics = METRICS + tuple(m for m in g.summary_metrics if m not in METRICS)
    provenance = {"command": "tournament", "game": game, "rules": r.to_json(),
                  "strategies": [{"name": name, "label": s.label, "spec": text, **s.to_json()}
                                 for name, s, text in zip(names, parsed, strategies)],
                  "design": d.to_json(), "positions": [list(s) for s in seats_of],
                  "lineups": [[names[row[p]] for p in position_of] for row in d.lineups],
                  "seed": seed, "n": n, "objective": metric, "version": runner.version()}
    if deals is not None:
        provenance["boards"] = _deals_provenance(boards, deals[:n])
    from tqdm.auto import tqdm

    sums = {m: np.zeros((n, d.k), dtype=np.float64) for m in metrics}
    appearances = np.zeros(d.k, dtype=np.int64)
    writer = (_LineupTables(names, provenance, out, keep_seats)
              if out is not None or keep_seats else None)
    bar = tqdm(total=n * len(d.lineups), unit="match", unit_scale=True, leave=False,
               disable=None if spec.progress is None else not spec.progress,
               dynamic_ncols=True)
    t0 = time.perf_counter()
    # one local cluster serves every lineup (started once, not once per lineup)
    cluster = (runner.local_cluster(spec.workers, spec.threads) if spec.workers is not None
               else nullcontext((spec.scheduler, spec.threads)))
    try:
        with cluster as (address, threads):
            for i, row in enumerate(d.lineups):
                bar.set_description(f"{game} lineup {i + 1}/{len(d.lineups)}")
                seat_strategy = np.array([row[p] for p in position_of], dtype=np.int64)
                np.add.at(appearances, seat_strategy, 1)
                seats = strategies_.SeatAssignment(tuple(parsed[a] for a in seat_strategy))
                job = make_job(game, r, seats, seed, n,
                               deals=None if deals is None else deals[:n])
                sinks: list = [_Accumulate(sums, seat_strategy, bar)]
                if writer is not None:
                    writer.lineup, writer.seat_strategy = i, seat_strategy
                    sinks.append(writer)
                runner.run(job, sinks, chunk_size=spec.chunk_size, threads=threads,
                           scheduler=address, progress=False)
    finally:
        bar.close()
        if writer is not None:
            writer.close()
    provenance["seconds"] = round(time.perf_counter() - t0, 3)
    per_match = {m: s / appearances for m, s in sums.items()}
    result = summarize(game, names, [s.label for s in parsed], d, per_match, metric,
                       provenance, bootstrap, seed, Path(out) if out is not None else None)
    result.seats = writer.frame() if writer is not None else None
    return result


def summarize(game: str, names: list[str], labels: list[str], d: Design,
              per_match: dict[str, np.ndarray], metric: str, provenance: dict[str, Any],
              bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = 0,
              out: Path | None = None) -> Tournament:
    """The tournament's tables from the per-match values (matches x strategies per
    metric): intervals clustered by match, paired differences with Holm's adjustment, and
    the bootstrap probability that each strategy is best (by ``metric``)."""
    x = per_match[metric]
    n = x.shape[0]
    means = [math.fsum(x[:, a]) / n for a in range(d.k)]
    order = sorted(range(d.k), key=lambda a: -means[a])   # stable: ties keep the given order
    p_best = bootstrap_best(x, bootstrap, seed)
    shares = get_game(game).share_metrics
    rows = []
    for rank, a in enumerate(order, 1):
        row: dict[str, Any] = {"rank": rank, "name": names[a], "strategy": labels[a],
                               "matches": n}
        for m in per_match:
            # a strategy's value is the mean over every position it holds in the lineups
            share_of = int(d.seat_counts[a].sum()) if m in shares else 0
            mean, lo, hi = mean_ci(per_match[m][:, a], share_of=share_of)
            row.update({m: mean, f"{m}_ci_low": lo, f"{m}_ci_high": hi})
        row["p_best"] = float(p_best[a])
        rows.append(row)
    diffs = []
    for m in (metric, *[m for m in per_match if m != metric]):
        part = []
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                dd = paired_difference(per_match[m][:, b], per_match[m][:, a])
                part.append({"first": names[a], "second": names[b], "metric": m, **dd})
        for row, p in zip(part, holm([q["p_value"] for q in part])):
            row["p_holm"] = p
        diffs += part
    columns = ["first", "second", "metric", "diff", "ci_low", "ci_high", "p_value", "p_holm",
               "n"]
    differences = pd.DataFrame(diffs, columns=columns)[columns]
    return Tournament(game, names, d, metric, pd.DataFrame(rows), differences,
                      names[order[0]], float(p_best[order[0]]), provenance, per_match, out)


def compare_tournaments(runs: Mapping[str, Tournament]) -> pd.DataFrame:
    """The same tournament (strategies, design, seed and matches) under several rule
    sets, against the first: one row per metric, strategy and rule set, in the long form
    of :class:`analysis.compare.Comparison` (``metric, by, name, variant, value, diff,
    ci_low, ci_high, p_value, n``; ``by`` is ``strategy``), each strategy's change paired
    by match (the first rule set's rows have a difference of 0)."""
    labels = list(runs)
    base = runs[labels[0]]
    for label in labels[1:]:
        other = runs[label]
        if other.names != base.names or other.per_match[base.metric].shape != \
                base.per_match[base.metric].shape or other.design != base.design:
            raise BidlabError(f"tournament {label!r} is not the same tournament as "
                              f"{labels[0]!r} (strategies, design or matches differ)")
    rows = []
    for metric in base.per_match:
        for a, name in enumerate(base.names):
            for label, run in runs.items():
                series = run.per_match[metric][:, a]
                d = paired_difference(base.per_match[metric][:, a], series)
                rows.append({"metric": metric, "by": "strategy", "name": name,
                             "variant": label, "value": math.fsum(series) / len(series), **d})
    return pd.DataFrame(rows)
