"""Running matches for analysis: validated rules and strategies in, a summary and tables
out. ``bidlab.simulate`` and ``bidlab.trace`` are these functions."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

import strategies as strategies_
from analysis.spec import MATCHES, RunSpec, StrategySpec, make_rules
from analysis.summary import GameSummary, SeatSummary
from sim import runner
from sim.errors import BidlabError
from sim.game import SOLUTION
from sim.games import get_game
from sim.rules import Rules
from sim.sinks import MemorySink, ParquetSink, output_file, table_paths
from strategies import solved


def policy_arrays(game: str, seats: strategies_.SeatAssignment) -> runner.Policies:
    """Per decision kind: (policy id per seat, parameter matrix) for the kernel; and the
    solution table where a seat plays ``solved``."""
    arrays: dict = {d: (seats.ids(d), seats.params(d)) for d in strategies_.for_game(game).decisions}
    if seats.solution is not None:
        arrays[SOLUTION] = seats.solution
    return arrays


def make_job(game: str, rules: Rules, seats: strategies_.SeatAssignment, seed: int, n: int,
             detail: bool = False, deals=None) -> runner.Job:
    """The job of ``n`` matches of ``seed``; the seed and ``n`` come checked, from a
    :class:`RunSpec`."""
    seats = solved.attach(game, rules, seats)
    return runner.Job(game, rules.to_json(), policy_arrays(game, seats), seats.labels, seed, n,
                      detail, deals)


def import_deals(game: str, path: str | Path):
    """The boards of a file (bridge: PBN) that ``simulate``/``trace`` play instead of
    dealing; match ``i`` is the file's ``i``-th board."""
    g = get_game(game)
    if g.boards is None:
        from sim.games import all_games
        able = [name for name, other in all_games().items() if other.boards is not None]
        raise BidlabError(f"--boards: {game} deals its own boards; games that import boards "
                          f"from a file: {', '.join(able) or 'none'}")
    check_boards_file(path)
    return g.boards.read(path)


def check_boards_file(path: str | Path) -> Path:
    """``--boards`` names a readable file (a folder or a missing file: one error)."""
    p, what = Path(path), "give a PBN file of boards, e.g. --boards hands.pbn"
    if p.is_dir():
        raise BidlabError(f"--boards {str(path)!r} is a folder; {what}")
    if not p.exists():
        raise BidlabError(f"--boards {str(path)!r}: no such file; {what}")
    return p


def _deals_provenance(path, deals) -> dict[str, Any]:
    import hashlib
    return {"file": str(path), "count": int(deals.shape[0]),
            "sha256": hashlib.sha256(deals.tobytes()).hexdigest()}


def seat_means(game: str, rules: Rules, seats: strategies_.SeatAssignment, seed: int, n: int,
               metric: str = "score") -> list[float]:
    """Mean of ``metric`` per seat over matches ``0..n-1`` (no tables kept): the
    objective of the optimisers, deterministic for a given seed (common random numbers)."""
    summary = SeatSummary(seats.labels, (metric,))
    runner.run(make_job(game, rules, seats, seed, n), [summary], progress=False)
    frame = summary.frame()
    return frame.loc[frame["by"] == "seat", metric].tolist()


@dataclass
class Simulation:
    """Result of :func:`simulate`: the summary, the tables and their provenance."""

    game: str
    provenance: dict[str, Any]
    summary: pd.DataFrame
    completed: int
    out: Path | None = None
    _memory: MemorySink | None = field(default=None, repr=False)
    game_summary: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Game-level figures with 95% intervals (``GameSummary.frame``), e.g. pitch's mean
    deals per game and bid made rate by contract; empty for games that declare none."""

    def __repr__(self) -> str:
        where = f", tables in {self.out}" if self.out is not None else ""
        return (f"Simulation({self.game}: {self.completed:,} matches, seed "
                f"{self.provenance.get('seed')}{where})")

    def table(self, name: str = "seats") -> pd.DataFrame:
        """A results table as a DataFrame (``seats``; ``deals``/``lots`` with detail)."""
        if self._memory is not None:
            if name not in self._memory.names():
                raise BidlabError(f"no table {name!r}; this run has {self._memory.names()} "
                                  f"(detail=True adds the per-deal and per-lot tables)")
            return self._memory.table(name).to_pandas()
        path = table_paths(self.out, [name])[name]
        if not path.exists():
            raise BidlabError(f"no table {name!r} at {path} (detail=True writes it)")
        return pq.read_table(path).to_pandas()

    @cached_property
    def seats(self) -> pd.DataFrame:
        return self.table("seats")


def simulate(game: str, n: int | None = None, *, seed: int = 0,
             rules: Mapping[str, Any] | None = None, rules_file: str | None = None,
             strategies: StrategySpec = None, out: str | Path | None = None,
             detail: bool = False, chunk_size: int = runner.DEFAULT_CHUNK,
             threads: int | None = None, workers: int | None = None,
             scheduler: str | None = None, progress: bool | None = False,
             boards: str | Path | None = None, pbn: str | Path | None = None) -> Simulation:
    """Play ``n`` matches of ``game``; match ``i`` depends only on ``(seed, i)``.

    With ``out`` the tables stream to Parquet (memory stays flat); without it they are
    kept in memory. If the run stops early (an error or Ctrl-C), the files hold every
    chunk completed before the stop and the exception is re-raised. ``boards``: a file
    of boards to play instead of dealing (bridge: PBN; ``n`` defaults to all of them,
    match ``i`` is its ``i``-th board). ``pbn``: write every board played to this file
    (bridge), streamed like ``out``. ``n`` defaults to the game's ``default_n``.
    """
    deals = import_deals(game, boards) if boards is not None else None
    spec = RunSpec.make(game, n if n is not None or deals is None else deals.shape[0],
                        seed=seed, rules=rules, rules_file=rules_file, strategies=strategies,
                        threads=threads, chunk_size=chunk_size, workers=workers,
                        scheduler=scheduler, progress=progress, count=MATCHES)
    if deals is not None and spec.n > deals.shape[0]:
        raise BidlabError(f"-n {spec.n}: {boards} holds only {deals.shape[0]} boards")
    return play(spec, out=out, detail=detail, pbn=pbn, deals=deals, boards=boards)


def play(spec: RunSpec, *, out: str | Path | None = None, detail: bool = False,
         pbn: str | Path | None = None, deals=None, boards: str | Path | None = None
         ) -> Simulation:
    """:func:`simulate` of a validated spec (``deals``: the boards read from the file
    ``boards``, at least ``spec.n`` of them)."""
    game, g, n, seats = spec.game, get_game(spec.game), spec.n, spec.strategies
    if pbn is not None and g.boards is None:
        raise BidlabError(f"--pbn: {game} has no board file format (bridge writes PBN)")
    if out is not None:
        output_file(out, "--out")
    if pbn is not None:
        output_file(pbn, "--pbn", None)
    job = make_job(game, spec.rules, seats, spec.seed, n, detail or pbn is not None,
                   None if deals is None else deals[:n])
    provenance = {"game": game, "rules": spec.rules.to_json(), "strategies": seats.to_json(),
                  "seed": spec.seed, "n": n, "version": runner.version(), "detail": detail}
    if deals is not None:
        provenance["boards"] = _deals_provenance(boards, deals[:n])
    summary = SeatSummary(seats.labels, g.summary_metrics, g.share_metrics)
    sinks: list = [summary]
    game_summary = None
    if g.match_metrics or g.ratio_metrics or g.table_ratios:
        game_summary = GameSummary(seats.labels, g.match_metrics, g.ratio_metrics,
                                   g.table_ratios)
        sinks.append(game_summary)
    names = list(g.tables) if detail else ["seats"]
    if out is not None:
        sink: ParquetSink | MemorySink = ParquetSink(table_paths(out, names), seats.labels, provenance)
    else:
        sink = MemorySink(seats.labels, names)
    sinks.append(sink)
    if pbn is not None:
        sinks.append(g.boards.writer(pbn, seats.labels, _comment(provenance)))
    t0 = time.perf_counter()
    complete = False
    try:
        runner.run(job, sinks, **spec.execution())
        complete = True
    finally:
        for s in sinks:
            if isinstance(s, ParquetSink):
                s.close(complete)
            elif hasattr(s, "close"):
                s.close()
    provenance["seconds"] = round(time.perf_counter() - t0, 3)
    return Simulation(game, provenance, summary.frame(), summary.matches,
                      Path(out) if out is not None else None,
                      sink if isinstance(sink, MemorySink) else None,
                      game_summary.frame() if game_summary is not None else pd.DataFrame())


def lone_player(game: str, strategy: str, m: int, *, seed: int = 0,
                rules: Mapping[str, Any] | None = None) -> dict[str, np.ndarray]:
    """One player of ``strategy`` among the default strategy, sitting in every seat in
    turn on matches ``0..m-1`` of ``seed``: per match, the mean over its seats of its
    ``score``, ``win`` and ``lead`` (its score minus the mean of the others at its
    table), so that no seat's advantage enters a best-response curve."""
    n_seats = get_game(game).n_seats(make_rules(game, rules))
    out = {k: np.zeros(m) for k in ("score", "win", "lead")}
    for seat in range(n_seats):
        run = simulate(game, m, seed=seed, rules=dict(rules or {}),
                       strategies=[f"{seat}={strategy}"], progress=False)
        rows = run.seats.sort_values(["match", "seat"], kind="stable")
        score = rows["score"].to_numpy(np.float64).reshape(m, n_seats)
        win = rows["win"].to_numpy(np.float64).reshape(m, n_seats)
        mine = score[:, seat]
        out["score"] += mine / n_seats
        out["win"] += win[:, seat] / n_seats
        out["lead"] += (mine - (score.sum(axis=1) - mine) / (n_seats - 1)) / n_seats
    return out


def _comment(provenance: dict[str, Any]) -> str:
    """Where a board file comes from, for its header."""
    p = provenance
    source = f"the boards of {p['boards']['file']}" if "boards" in p else "dealt boards"
    players = ", ".join(f"{s['seat']}={s['label']}" for s in p["strategies"])
    return (f"bidlab {p['version']}: {p['game']}, {p['n']} boards ({source}), seed "
            f"{p['seed']}\nstrategies by seat: {players}")


def trace(game: str, *, seed: int = 0, index: int = 0, rules: Mapping[str, Any] | None = None,
          rules_file: str | None = None, strategies: StrategySpec = None,
          check: bool = False, boards: str | Path | None = None) -> dict[str, Any]:
    """The JSON hand history of match ``index`` of the run with ``seed`` (the same match
    :func:`simulate` plays); ``check`` replays it through the plain-Python referee.
    ``boards``: the file :func:`simulate` played (``index`` selects its board, from 0)."""
    if index < 0:
        raise BidlabError(f"--index {index}: match indices start at 0")
    spec = RunSpec.make(game, seed=seed, rules=rules, rules_file=rules_file,
                        strategies=strategies)
    g, r, seats = get_game(game), spec.rules, spec.strategies
    extra = {}
    if boards is not None:
        deals = import_deals(game, boards)
        if index >= deals.shape[0]:
            raise BidlabError(f"--index {index}: {boards} holds {deals.shape[0]} boards "
                              f"(indices 0..{deals.shape[0] - 1})")
        extra["deals"] = deals[index:index + 1]
    result = g.trace(r, policy_arrays(game, seats), seats.labels, seed, index, **extra)
    if check:
        g.replay(result)
    return result
