"""``bidlab solve``: run a game's solver (``analysis/solvers/``) to a solution file, with
a progress bar on the exploitability, checkpoints, and a resume that changes nothing.

The exploitability is measured after a fixed schedule of iterations (``schedule``): a
solve with ``iterations=N`` is a pure function of its settings (game, rules, seed, N),
so its file is the same bit for bit on any number of threads and after an interrupt and
resume. A solve stopped by ``seconds`` records the iterations it reached; solving again
with that many iterations gives the same file.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from analysis.solvers import Solver, make_solver
from analysis.spec import RunSpec
from sim import cfr, runner
from sim.errors import BidlabError
from sim.runner import version
from strategies import solved

FIRST_EVAL = 250
"""The first iteration at which the exploitability is measured; then every doubling."""
STEP = 250
"""Iterations run between two looks at the clock (for checkpoints and the bar)."""
CHECKPOINT_SECONDS = 10.0
"""A checkpoint is written at least this often, besides one at every measurement."""


def schedule(iterations: int) -> list[int]:
    """The iterations after which a solve of ``iterations`` measures its exploitability:
    250, 500, 1000, ... below ``iterations``, and ``iterations`` itself."""
    points, k = [], FIRST_EVAL
    while k < iterations:
        points.append(k)
        k *= 2
    return points + [iterations]


@dataclass
class SolveResult:
    solution: solved.Solution
    path: Path
    curve: list[dict[str, Any]]
    """The exploitability after each measured iteration, with the seconds spent."""
    seconds: float
    resumed_from: int = 0
    infosets: int = 0

    def to_json(self) -> dict[str, Any]:
        s = self.solution
        return {"game": s.game, "rules": s.rules, "abstraction": s.abstraction,
                "infosets": self.infosets, "iterations": s.meta["iterations"],
                "seconds": round(self.seconds, 3), "exploitability": self.curve,
                "file": str(self.path), "resumed_from": self.resumed_from}


def _checkpoint_path(out: Path) -> Path:
    return out.with_name(out.name + ".checkpoint.npz")


def _identity(game: str, rules: Mapping[str, Any], solver: Solver, seed: int) -> dict:
    return {"game": game, "rules": dict(rules), "abstraction": solver.abstraction.to_json(),
            "seed": seed, "method": solver.method}


def _save_checkpoint(path: Path, solver: Solver, identity: dict, curve: list, seconds: float):
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, identity=np.array(json.dumps(identity, sort_keys=True)),
             curve=np.array(json.dumps(curve)), seconds=np.array(seconds), **solver.state())
    os.replace(tmp, path)


def _resume(path: Path, solver: Solver, identity: dict) -> tuple[list, float]:
    """Restore ``solver`` from the checkpoint at ``path`` (made by the same solve)."""
    try:
        with np.load(path) as data:
            mine = json.loads(str(data["identity"]))
            state = {k: data[k] for k in data.files if k not in ("identity", "curve", "seconds")}
            curve, seconds = json.loads(str(data["curve"])), float(data["seconds"])
    except Exception as e:  # a damaged checkpoint: say so, keep it for the user
        raise BidlabError(f"checkpoint {str(path)!r} cannot be read ({e}); remove it to "
                          f"start the solve afresh") from None
    if mine != identity:
        differ = ", ".join(k for k in identity if mine.get(k) != identity[k])
        raise BidlabError(f"checkpoint {str(path)!r} belongs to another solve (its {differ} "
                          f"differ); remove it, or give --out another file")
    solver.restore(state)
    return curve, seconds


def solve(game: str, rules: Mapping[str, Any] | None = None, rules_file: str | None = None, *,
          iterations: int | None = None, seconds: float | None = None, seed: int = 0,
          out: str | Path | None = None, threads: int | None = None,
          workers: int | None = None, scheduler: str | None = None,
          settings: Mapping[str, Any] | None = None,
          progress: bool | None = None) -> SolveResult:
    """Solve ``game``'s bidding under ``rules``; write the solution to ``out`` (default:
    where ``solved`` finds it, ``strategies.solved.default_path``) and return it.

    ``iterations``: how many (default: the solver's); ``seconds``: stop at the first
    measurement after that much time instead. An interrupted solve resumes from its
    checkpoint (``OUT.checkpoint.npz``, removed when the solve completes). ``workers``
    (a local Dask cluster of that many processes) or ``scheduler`` (a running one): the
    deals of every iteration are shared out over the cluster's workers, with the same
    file as a local solve. ``settings``: the abstraction's settings (pitch:
    ``strength_steps``), for coarser or finer solutions."""
    # a solve plays no matches of its own: the spec's n and strategies stay the defaults
    spec = RunSpec.make(game, seed=seed, rules=rules, rules_file=rules_file, threads=threads,
                        workers=workers, scheduler=scheduler, progress=progress)
    if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
        raise BidlabError(f"--iterations {iterations!r}: give a whole number of at least 1")
    if seconds is not None and not seconds > 0:
        raise BidlabError(f"--time {seconds!r}: give a number of seconds above 0")
    r = spec.rules
    if threads is not None and workers is None and scheduler is None:
        import numba
        numba.set_num_threads(threads)
    solver = make_solver(game, r, seed, dict(settings or {}))
    cluster = workers is not None or scheduler is not None
    if cluster and not hasattr(solver, "increments"):
        raise BidlabError(f"{game}'s solver works at full width, with no deals to share out: "
                          f"--workers and --scheduler do not apply (it takes seconds here)")
    total = iterations or (None if seconds else solver.default_iterations)
    own = {k: v for k, v in (settings or {}).items() if k not in solver.abstraction.settings}
    path = Path(out) if out is not None else solved.default_path(game, r.to_json(),
                                                                   solver.abstraction, own)
    if path.is_dir():
        raise BidlabError(f"--out {str(path)!r} is a folder; give a file, e.g. "
                          f"{path / (game + '.sol')}")
    path.parent.mkdir(parents=True, exist_ok=True)
    identity = _identity(game, r.to_json(), solver, seed)
    ckpt = _checkpoint_path(path)
    curve: list[dict[str, Any]] = []
    spent = 0.0
    if ckpt.exists():
        curve, spent = _resume(ckpt, solver, identity)
    resumed_from = solver.iteration
    points = schedule(total) if total else _open_schedule()
    bar = _bar(progress, total, game)
    bar.update(solver.iteration)
    start = time.perf_counter() - spent
    try:
        with ExitStack() as stack:
            client, worker_threads = (stack.enter_context(runner.dask_client(
                workers, scheduler, threads)) if cluster else (None, None))
            _iterate(solver, points, resumed_from, bar, ckpt, identity, curve, start, seconds,
                     client, worker_threads)
    finally:
        bar.close()
    played = cfr.purified(solver.probabilities())
    meta = {"method": solver.method, "iterations": solver.iteration, "seed": seed,
            **({"settings": solver.settings} if getattr(solver, "settings", None) else {}),
            "bidlab": version(), "purified_below": 1e-3,
            "exploitability": [{k: v for k, v in c.items() if k != "seconds"} for c in curve]}
    solution = solved.Solution(game, r.to_json(), solver.abstraction.to_json(),
                               cfr.pack_table(played, solver.abstraction.version,
                                              getattr(solver, "table_settings", ())), meta)
    solution.save(path)
    ckpt.unlink(missing_ok=True)
    return SolveResult(solution, path, curve, time.perf_counter() - start, resumed_from,
                       solver.abstraction.infosets)


def _iterate(solver: Solver, points, resumed_from: int, bar, ckpt: Path, identity: dict,
             curve: list[dict[str, Any]], start: float, seconds: float | None, client,
             threads: int | None) -> None:
    """Run ``solver`` to each measurement point in turn (appending to ``curve``), with a
    checkpoint at every measurement and at least every ``CHECKPOINT_SECONDS``."""
    saved = time.perf_counter()
    for point in points:
        if point <= resumed_from:
            continue
        while solver.iteration < point:   # in steps, so that a checkpoint is near
            steps = min(STEP, point - solver.iteration)
            if client is None:
                solver.run(steps)
            else:
                solver.run(steps, client, threads)
            bar.update(solver.iteration - bar.n)
            if time.perf_counter() - saved > CHECKPOINT_SECONDS and solver.iteration < point:
                _save_checkpoint(ckpt, solver, identity, curve, time.perf_counter() - start)
                saved = time.perf_counter()
        played = cfr.purified(solver.probabilities())
        measured = {"iteration": solver.iteration, **solver.exploitability(played)}
        elapsed = time.perf_counter() - start
        curve.append({**measured, "seconds": round(elapsed, 3)})
        _save_checkpoint(ckpt, solver, identity, curve, elapsed)
        saved = time.perf_counter()
        bar.set_postfix_str(f"exploitability {measured['value']:.4g}")
        if seconds is not None and elapsed >= seconds:
            return


def _open_schedule():
    k = FIRST_EVAL
    while True:
        yield k
        k *= 2


def _bar(progress: bool | None, total: int | None, game: str):
    from tqdm.auto import tqdm
    return tqdm(total=total, desc=f"solve {game}", unit="it", disable=progress is False,
                dynamic_ncols=True)
