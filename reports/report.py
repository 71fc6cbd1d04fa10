"""``bidlab report``: every section of every game, written as one self-contained HTML
file, a Markdown version, the figures as PNG and the numbers behind them as Parquet.

Output directory layout::

    report.html          figures embedded (base64 PNG), inline CSS, no external URL
    report.md            the same text; links figures/*.png
    figures/<game>_<name>.png
    data/<game>_<name>.parquet   the tidy frame behind each table and figure
    provenance.json      seed, sizes, version, every run's rules and strategies, run times
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.spec import MATCHES, check_seed
from reports import style
from reports.context import Context
from reports.document import Document, GameReport, Section, to_html, to_markdown
from reports.games import spec_for
from reports.sections import builders
from reports.spec import GameSpec
from sim.errors import BidlabError
from sim.games import all_games, get_game
from sim.sinks import output_folder

DEFAULT_OUT = "report"


@dataclass
class ReportResult:
    out: Path
    html: Path
    markdown: Path
    figures: list[Path]
    data: list[Path]
    document: Document
    seconds: float
    failures: list[str] = field(default_factory=list)
    """``"game/section: error"`` for every section that failed (the report notes them)."""


def _software() -> dict[str, str]:
    import matplotlib
    import numba
    import numpy
    import pandas
    import pyarrow
    import scipy
    return {"python": platform.python_version(), "numpy": numpy.__version__,
            "numba": numba.__version__, "pandas": pandas.__version__, "scipy": scipy.__version__,
            "matplotlib": matplotlib.__version__, "pyarrow": pyarrow.__version__}


def _command(games: Sequence[str], n: int | None, seed: int, sections: Sequence[str] | None) -> str:
    """The command that reproduces the report (games always named: a later version may
    have more games)."""
    parts = ["bidlab", "report", *games]
    if n is not None:
        parts += ["-n", str(n)]
    parts += ["--seed", str(seed)]
    if sections:
        parts += ["--sections", ",".join(sections)]
    return " ".join(parts)


class _Progress:
    """A tqdm bar over the sections on a terminal (stderr); plain lines otherwise."""

    def __init__(self, total: int, enabled: bool | None):
        from tqdm.auto import tqdm

        tty = sys.stderr.isatty()
        self.lines = enabled is None and not tty
        self.bar = tqdm(total=total, unit="section", file=sys.stderr, dynamic_ncols=True,
                        disable=not (enabled if enabled is not None else tty),
                        bar_format="{bar:20} {n_fmt}/{total_fmt} sections, {elapsed} | {desc}{postfix}")

    def section(self, text: str) -> None:
        self.bar.set_description_str(text)
        self.bar.set_postfix_str("")

    def status(self, text: str) -> None:
        self.bar.set_postfix_str(text.split(": ", 1)[-1])

    def line(self, text: str) -> None:
        if self.lines:
            print(f"report: {text}", file=sys.stderr, flush=True)

    def step(self) -> None:
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


def _keep_larger(out: Path, games: Sequence[str], sections: Sequence[str] | None) -> None:
    """Refuse to write a report over one in ``out`` that holds more: a game this one
    leaves out, or every section where this one keeps only some."""
    try:
        old = json.loads((out / "provenance.json").read_text())
        held = list(old["games"])
    except (OSError, ValueError, KeyError, TypeError):
        return  # no report there (or not one of ours): nothing to lose
    old_sections = old.get("sections", "--sections" in str(old.get("command", "")) or None)
    missing = [g for g in held if g not in games]
    if not missing and (sections is None or (isinstance(old_sections, list)
                                             and set(old_sections) <= set(sections))):
        return
    what = ", ".join(held) + (" (every section)" if old_sections is None else
                              f" (sections {', '.join(old_sections)})"
                              if isinstance(old_sections, list) else " (some sections)")
    new = ", ".join(games) + (f" (sections {', '.join(sections)})" if sections else "")
    raise BidlabError(f"--out {str(out)!r} holds a report of {what}; this report of {new} "
                      f"would replace it. Give another --out, or --replace to replace it")


def build_report(games: Sequence[str] | None = None, *, n: int | None = None, seed: int = 0,
                 out: str | Path = DEFAULT_OUT, sections: Sequence[str] | None = None,
                 specs: dict[str, GameSpec] | None = None, progress: bool | None = None,
                 strict: bool = False, write: bool = True, replace: bool = False,
                 processes: int | None = 1) -> ReportResult:
    """Build the report of ``games`` (default: every game) and write it under ``out``.

    ``n`` sets the main run size of every game (default: each game's spec; its other
    runs scale with it); ``sections`` keeps only those section ids; ``specs`` replaces
    the spec of some games (tests). A section that fails is replaced by a note saying
    so and listed in ``failures``; with ``strict`` the error is raised instead. A report
    already under ``out`` that this one would not cover (a game or a section it leaves
    out) is refused before anything runs, naming what it holds; ``replace`` replaces it.

    ``processes``: games built at once, each in a process of its own with the cores
    shared out (None: one per core, at most one per game, as ``bidlab report`` does; 1,
    the default: one after the other in this process). Games are independent, so a cold
    start compiles two games' kernels at once on two cores; every number and figure is
    the same whatever it is. The workers are spawned, so a script that asks for more
    than one calls this under ``if __name__ == "__main__":``.
    """
    t0 = time.perf_counter()
    started = _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()
    games = list(games) if games else list(all_games())
    for g in games:
        get_game(g)  # a clear error for an unknown name, before anything runs
    if n is not None:
        MATCHES.check(n)
    check_seed(seed)
    if processes is not None and processes < 1:
        raise BidlabError(f"--processes {processes}: give at least 1")
    if write:
        output_folder(out, "--out")
        if not replace:
            _keep_larger(Path(out), games, sections)
    chosen = {g: (specs or {}).get(g) or spec_for(g) for g in games}
    plans = {g: _plan(spec, sections) for g, spec in chosen.items()}
    if sections:
        known = {sid for spec in chosen.values() for sid in spec.sections}
        unknown = sorted(set(sections) - known)
        if unknown:
            raise BidlabError(f"--sections: no section {unknown[0]!r}; sections: "
                              f"{', '.join(sorted(known))}")
    if processes is None:
        processes = min(os.cpu_count() or 1, len(games))
    bar = _Progress(sum(len(p) for p in plans.values()), progress)
    try:
        if processes > 1 and specs is None and len(games) > 1:
            outputs = _build_in_processes(games, processes, n, seed, sections, strict, bar)
        else:
            outputs = _build_here(chosen, plans, n, seed, strict, bar)
    finally:
        bar.close()
    stopped = next((o.stopped if o is not None else f"{g}/start"
                    for g, o in zip(games, outputs) if o is None or o.stopped), None)
    built = [o for o in outputs if o is not None]
    failures = [f for o in built for f in o.failures]
    reports_ = [o.report for o in built]

    total = time.perf_counter() - t0
    digest = hashlib.sha256("".join(o.digest for o in built).encode()).hexdigest()[:16]
    from sim.runner import version
    provenance: dict[str, Any] = {
        "command": _command(games, n, seed, sections),
        "seed": seed, "n": {o.report.game: o.n for o in built}, "version": version(),
        "started": started, "seconds": round(total, 2),
        "game_seconds": {r.game: round(r.seconds, 2) for r in reports_},
        "software": _software(),
        "machine": f"{platform.platform()}, {os.cpu_count()} CPUs",
        "digest": digest, "games": {r.game: r.provenance for r in reports_},
        "sections": list(sections) if sections else None,
        "failures": failures}
    if stopped:
        provenance["partial"] = {"interrupted_in": stopped,
                                 "games_complete": [o.report.game for o in built
                                                    if not o.stopped
                                                    or o.stopped.endswith("/end")],
                                 "games_not_started": [g for g, o in zip(games, outputs)
                                                       if o is None]}
    doc = Document(
        title="bidlab report: " + ", ".join(games),
        intro=("What each strategy scores and how often it wins, where the money goes, what a "
               "lot costs, what a bid is worth and which house rules change the game: Monte "
               "Carlo estimates with 95% intervals, each with a one-sentence reading. "
               + "Matches per game: " + ", ".join(f"{o.report.game} {o.n:,}" for o in built)
               + f"; seed {seed}."
               + (f" **Partial report**: interrupted {place(stopped)}; only the sections "
                  f"completed before that are here." if stopped else "")),
        games=reports_, provenance=provenance)
    out = Path(out)
    figures, datas = [], []
    if write:
        figures, datas = _write(out, doc, built)
    result = ReportResult(out, out / "report.html", out / "report.md", figures, datas, doc,
                          time.perf_counter() - t0, failures)
    if stopped:
        raise ReportInterrupted(result, stopped)
    return result


def _plan(spec: GameSpec, sections: Sequence[str] | None):
    """The spec's section builders, only ``sections`` where given."""
    plan = builders(spec)
    return [(sid, fn) for sid, fn in plan if sid in sections] if sections else plan


@dataclass
class _GameOutput:
    """One game's report as built, here or in a worker process (so: picklable)."""

    report: GameReport
    figures: dict[str, bytes]
    data: dict[str, Any]
    digest: str
    n: int
    failures: list[str]
    stopped: str | None
    """``game/section`` where an interruption stopped it; None: complete."""


def _build_game(spec: GameSpec, plan, n: int | None, seed: int, strict: bool,
                bar) -> _GameOutput:
    """Every section of ``plan`` for one game; an interruption (Ctrl-C, SIGTERM) keeps
    the sections completed before it."""
    g = spec.game
    g0 = time.perf_counter()
    style.fresh()
    ctx = Context(spec, n=n, seed=seed, progress=bar.status)
    done, failures, stopped = [], [], None
    timings = ctx.provenance.setdefault("section_seconds", {})
    sid = "start"
    try:
        for sid, fn in plan:
            bar.section(f"{g}: {sid}")
            s0 = time.perf_counter()
            try:
                section = fn(ctx)
            except Exception as e:  # noqa: BLE001 - one broken section must not sink the report
                if strict:
                    raise
                failures.append(f"{g}/{sid}: {type(e).__name__}: {e}")
                section = Section(sid, f"{sid} (failed)")
                section.note(f"This section failed and is left out: {type(e).__name__}: {e}")
            timings[sid] = round(time.perf_counter() - s0, 2)
            if section is not None:
                done.append(section)
            bar.step()
    except KeyboardInterrupt:
        stopped = f"{g}/{sid}"
    seconds = time.perf_counter() - g0
    ctx.provenance["seconds"] = round(seconds, 2)
    if stopped:
        ctx.provenance["partial"] = f"interrupted in section {sid}"
    output = None
    while output is None:        # an interruption now: the game is whole, keep it
        try:
            output = _GameOutput(GameReport(g, ctx.g.title, done, ctx.provenance, seconds),
                                 ctx.figures, ctx.data, ctx.digest(), ctx.n, failures, stopped)
            if not stopped:
                bar.line(f"{g}: {len(done)} sections in {seconds:.1f} s")
        except KeyboardInterrupt:
            stopped = stopped or f"{g}/end"
            output = None
    return output


def _build_here(chosen: dict[str, GameSpec], plans, n, seed, strict, bar
                ) -> list[_GameOutput | None]:
    """The games one after the other in this process; None for a game an interruption
    kept from starting."""
    outputs: list[_GameOutput | None] = []
    for g, spec in chosen.items():
        if outputs and (outputs[-1] is None or outputs[-1].stopped):
            outputs.append(None)
            continue
        try:
            outputs.append(_build_game(spec, plans[g], n, seed, strict, bar))
        except KeyboardInterrupt:  # while setting the game up: nothing of it is kept
            outputs.append(None)
    return outputs


class _Relay:
    """A worker's progress, sent to the parent's bar through a queue."""

    def __init__(self, queue):
        self.queue = queue

    def __getattr__(self, name: str):
        return lambda *args: self.queue.put((name, *args))


_QUEUE = None
_BUILDING = False
"""In a worker: a game's sections are being built (an interruption stops them);
otherwise the worker is idle and an interruption is the parent's to handle."""


def _worker_start(queue, threads: int) -> None:
    """A report worker: its share of the cores; its pid to the parent, which forwards an
    interruption of its own as SIGINT. SIGINT stops a build in progress (even where the
    parent was started with SIGINT ignored, as a shell's background jobs are) and is
    ignored by an idle worker, which the pool's shutdown ends."""
    global _QUEUE
    import signal

    import numba
    signal.signal(signal.SIGINT, _on_interrupt)
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    _QUEUE = queue
    queue.put(("pid", os.getpid()))


def _on_interrupt(signum, frame) -> None:
    if _BUILDING:
        raise KeyboardInterrupt


def _worker_build(game: str, n, seed, sections, strict) -> _GameOutput:
    global _BUILDING
    spec = spec_for(game)
    _BUILDING = True
    try:
        return _build_game(spec, _plan(spec, sections), n, seed, strict, _Relay(_QUEUE))
    finally:
        _BUILDING = False


def _build_in_processes(games: list[str], processes: int, n, seed, sections, strict, bar
                        ) -> list[_GameOutput | None]:
    """The games in ``processes`` worker processes at once, the cores shared out among
    them; in ``games`` order, None for a game an interruption kept from completing."""
    import multiprocessing
    import queue as queues
    import signal
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    mp = multiprocessing.get_context("spawn")   # no fork of a process with numba threads
    messages = mp.Queue()
    threads = max(1, (os.cpu_count() or 1) // processes)
    pids: list[int] = []

    def relay() -> None:
        """Everything the workers have sent so far, to the bar (and their pids here)."""
        try:
            while True:
                name, *args = messages.get_nowait()
                if name == "pid":
                    pids.append(args[0])
                else:
                    getattr(bar, name)(*args)
        except queues.Empty:
            pass

    pool = ProcessPoolExecutor(processes, mp_context=mp, initializer=_worker_start,
                               initargs=(messages, threads))
    futures = [pool.submit(_worker_build, g, n, seed, sections, strict) for g in games]
    interrupted = False
    try:
        while not all(f.done() for f in futures):
            wait([f for f in futures if not f.done()], timeout=0.2,
                 return_when=FIRST_COMPLETED)
            relay()
    except KeyboardInterrupt:
        interrupted = True
        for f in futures:
            f.cancel()
        for pid in pids:                 # a SIGTERM reached only this process
            try:
                os.kill(pid, signal.SIGINT)
            except OSError:
                pass
        wait(futures, timeout=60)
    finally:
        relay()
        pool.shutdown(wait=True, cancel_futures=True)
        relay()
    outputs: list[_GameOutput | None] = []
    for g, f in zip(games, futures):
        error = f.exception(timeout=0) if f.done() and not f.cancelled() else None
        if f.done() and not f.cancelled() and error is None:
            outputs.append(f.result())
        elif error is not None and not interrupted:
            if strict:
                raise error
            outputs.append(_failed(g, error))
        else:
            outputs.append(None)
    return outputs


def _failed(game: str, error: BaseException) -> _GameOutput:
    """A game whose worker process failed outside any section (the others are kept)."""
    why = f"{type(error).__name__}: {error}"
    section = Section("failed", "report (failed)")
    section.note(f"Building this game's report failed and it is left out: {why}")
    report = GameReport(game, get_game(game).title, [section], {"game": game, "failed": why}, 0.0)
    return _GameOutput(report, {}, {}, "", 0, [f"{game}: {why}"], None)


def place(where: str) -> str:
    """``game/section`` (or ``game/start``, ``game/end``) in words."""
    game, _, sid = where.partition("/")
    return {"start": f"at the start of {game}", "end": f"after {game}"}.get(
        sid, f"in {game}, section {sid}")


class ReportInterrupted(Exception):
    """An interruption stopped the report at ``where`` (``game/section``); ``result`` is
    what was written: every section completed before it, the provenance marked partial."""

    def __init__(self, result: ReportResult, where: str):
        super().__init__(f"interrupted {place(where)}")
        self.result, self.where = result, where


def _write(out: Path, doc: Document, built: list[_GameOutput]
           ) -> tuple[list[Path], list[Path]]:
    (out / "figures").mkdir(parents=True, exist_ok=True)
    (out / "data").mkdir(parents=True, exist_ok=True)
    figures, datas = [], []
    for ctx in built:
        for stem, png in ctx.figures.items():
            path = out / "figures" / f"{stem}.png"
            path.write_bytes(png)
            figures.append(path)
        for stem, frame in ctx.data.items():
            path = out / "data" / f"{stem}.parquet"
            _parquet(frame, path)
            datas.append(path)
    _remove_stale(out / "figures", "*.png", figures)
    _remove_stale(out / "data", "*.parquet", datas)
    (out / "report.html").write_text(to_html(doc), encoding="utf-8")
    (out / "report.md").write_text(to_markdown(doc), encoding="utf-8")
    (out / "provenance.json").write_text(json.dumps(doc.provenance, indent=1, default=str),
                                         encoding="utf-8")
    return figures, datas


def _remove_stale(folder: Path, pattern: str, written: list[Path]) -> None:
    """Delete what an earlier report left in the report's own ``folder`` (other games
    or sections): a reader of ``data/`` would take it for this report's numbers."""
    keep = set(written)
    for path in folder.glob(pattern):
        if path not in keep:
            path.unlink()


def _parquet(frame, path: Path) -> None:
    """Write a frame; columns of mixed Python objects are stored as text."""
    frame = frame.copy()
    for c in frame.columns:
        if frame[c].dtype == object:
            kinds = {type(v) for v in frame[c].dropna()}
            if len(kinds) > 1 or (kinds and not kinds <= {str}):
                frame[c] = frame[c].map(lambda v: v if v is None else
                                        (json.dumps(v, default=str) if isinstance(v, (dict, list))
                                         else str(v)))
    frame.to_parquet(path, index=False)


def main_sizes() -> dict[str, int]:
    """Default main run size per game (what ``bidlab report`` without ``-n`` plays)."""
    return {g: spec_for(g).n for g in all_games()}


__all__ = ["build_report", "ReportResult", "ReportInterrupted", "DEFAULT_OUT", "main_sizes"]
