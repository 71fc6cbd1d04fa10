"""bidlab benchmarks: auktsion kernel throughput, peak memory of a streamed run and
start-up time, auktsion bid-EV, plus the rows of ``bench_pitch.py``, ``bench_bridge.py``,
``bench_aukcio.py``, ``bench_vybory.py``, ``bench_tournament.py`` and ``bench_solve.py``.

    .venv/bin/python benchmarks/run.py            # everything (the 10^7 run takes minutes)
    .venv/bin/python benchmarks/run.py --quick    # smoke run: smaller counts, no 10^7
    .venv/bin/python benchmarks/run.py --only kernel --only startup
    # benchmarks: kernel memory startup bidev pitch bridge aukcio vybory tournament solve

Every row is a measured value, a baseline measured in the same run, their ratio, and a
target with pass/fail. The table goes to stdout and to ``benchmarks/results.md``; the
raw numbers and the machine to ``benchmarks/out/results.json``. Progress goes to
stderr. Benchmarks report; they assert nothing (the exit status is 0 whatever fails).
See ``benchmarks/README.md`` for what each row measures.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GAME = "auktsion"
STRATEGY = "all=budget"
CLEAN_ENV = dict(os.environ)  # before ``import sim`` sets NUMBA_CACHE_DIR in this process
MiB = 1024 * 1024
BENCHMARKS = ("kernel", "memory", "startup", "cold", "bidev", "pitch", "bridge", "aukcio",
              "vybory", "tournament", "solve")


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


@dataclass
class Row:
    """One line of the table: ``value`` against ``baseline``; the target applies to
    the value or to the ratio value / baseline; ``ok`` None means no target or not run."""

    group: str
    name: str
    value: float | None
    unit: str
    baseline: float | None = None
    baseline_name: str = ""
    target: str = ""
    ok: bool | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.value is None or not self.baseline:
            return None
        return self.value / self.baseline


def check(row: Row, on: str, op: str, limit: float, text: str) -> Row:
    x = row.value if on == "value" else row.ratio
    row.target = text
    row.ok = None if x is None else (x >= limit if op == ">=" else x < limit if op == "<"
                                     else x <= limit)
    return row


# -- 1. kernel throughput --------------------------------------------------------------

def _timed(fn, threads: int = 1) -> tuple[float, float]:
    """(wall seconds of one call, CPU share): this process's CPU time over wall time x
    threads; well under 1 means other processes took the cores (or the work is serial)."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    wall = time.perf_counter() - t0
    return wall, (time.process_time() - c0) / (wall * threads)


def bench_kernel(quick: bool, repeats: int) -> list[Row]:
    """Matches/s of ``run_chunk`` on 1 and 2 numba threads, and of the plain-Python
    reference engine, with ``budget`` in all 4 seats, for 1-deal and 4-deal matches."""
    import numba
    import numpy as np

    from sim.games import get_game
    from strategies import assign_seats, for_game

    game = get_game(GAME)
    seats = assign_seats(for_game(GAME), 4, [STRATEGY])
    policies = {"bid": (seats.ids("bid"), seats.params("bid"))}
    try:
        from sim.games.auktsion import reference
    except ImportError:
        reference = None
        log("kernel: sim/games/auktsion/reference.py is missing: no plain-Python baseline")
    threads = [t for t in (1, 2) if t <= numba.config.NUMBA_NUM_THREADS]
    rows = []
    for deals in (1, 4):
        rules = game.make_rules({"deals_per_match": deals})
        count = (1 << (14 if quick else 16)) // deals
        best = {t: (float("inf"), 0.0) for t in threads}
        log(f"kernel: {deals} deal(s)/match, {'/'.join(map(str, threads))} thread(s): warm-up, "
            f"then best of {repeats} x {count:,} matches, thread counts interleaved")
        for t in threads:
            numba.set_num_threads(t)
            game.run_chunk(rules, policies, seats.labels, 1, 0, 1024)  # compile or load cache
        for _ in range(repeats):  # interleaved, so both thread counts see the same load
            for t in threads:
                numba.set_num_threads(t)
                best[t] = min(best[t], _timed(
                    partial(game.run_chunk, rules, policies, seats.labels, 1, 0, count), t))
        rate = {t: count / best[t][0] for t in threads}
        share = {t: best[t][1] for t in threads}
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        py = None
        if reference is not None:
            py_count = max(20, int((0.1 if quick else 0.4) * 2500 / deals))  # ~2,500 deals/s
            log(f"kernel: plain-Python reference, {deals} deal(s)/match: best of "
                f"{repeats} x {py_count:,} matches")
            py = py_count / min(_timed(partial(reference.play_many, rules, seats, 1, 0, py_count))
                                for _ in range(repeats))[0]
            ref = np.asarray(reference.play_many(rules, seats, 1, 0, 256)["score"]).ravel()
            ker = game.run_chunk(rules, policies, seats.labels, 1, 0, 256)["seats"]["score"]
            same = np.array_equal(ref, ker)
            if not same:
                log(f"kernel: WARNING: reference and kernel scores differ ({deals} deals)")
        py_name = "plain Python" if py else "plain Python (missing)"
        agree = "" if py is None else ("Python: same scores" if same
                                       else "Python: scores DIFFER from the kernel")
        cpu = {t: f"CPU share {share[t]:.0%}" for t in rate}
        if deals == 1:
            rows.append(check(Row("kernel", "kernel, 1 thread, 1-deal match", rate[1], "deals/s",
                                  py, py_name, note=f"= matches/s; {cpu[1]}"),
                              "value", ">=", 500_000, "≥ 500,000 deals/s"))
            rows.append(check(Row("kernel", "kernel vs plain Python, 1 thread, 1-deal match",
                                  rate[1], "deals/s", py, py_name, note=agree),
                              "ratio", ">=", 200, "ratio ≥ 200×"))
            if 2 in rate:
                rows.append(check(Row("kernel", "kernel, 2 threads, 1-deal match", rate[2],
                                      "deals/s", rate[1], "kernel, 1 thread", note=cpu[2]),
                                  "ratio", ">=", 1.8, "ratio ≥ 1.8×"))
        else:
            for t in rate:
                base, name = (py, py_name) if t == 1 else (rate[1], "kernel, 1 thread")
                rows.append(Row("kernel", f"kernel, {t} thread{'s' * (t > 1)}, {deals}-deal "
                                f"match (default)", rate[t], "matches/s", base, name,
                                note=f"{rate[t] * deals:,.0f} deals/s; {cpu[t]}"
                                     + (f"; {agree}" if t == 1 and agree else "")))
    rows += _kernel_breakdown(game, repeats, rows[0].value, quick)
    return rows


def _kernel_breakdown(game, repeats: int, rate_budget: float, quick: bool) -> list[Row]:
    """Where the 1-deal budget kernel's time goes: the same matches with ``passive`` (no
    bid at all: dealing, asking, bookkeeping) and ``value`` (short auctions) in every
    seat, as a share of the budget run's time per deal."""
    import numba

    from strategies import assign_seats, for_game

    rules = game.make_rules({"deals_per_match": 1})
    count = 1 << (14 if quick else 16)
    numba.set_num_threads(1)
    rows = []
    try:
        for spec, what in (("all=passive", "no bidding"), ("all=value", "short auctions")):
            seats = assign_seats(for_game(GAME), 4, [spec])
            policies = {"bid": (seats.ids("bid"), seats.params("bid"))}
            game.run_chunk(rules, policies, seats.labels, 1, 0, 1024)
            best = min(_timed(partial(game.run_chunk, rules, policies, seats.labels, 1, 0,
                                      count))[0] for _ in range(repeats))
            rows.append(Row("kernel", f"kernel, 1 thread, 1-deal match, {spec} ({what})",
                            count / best, "deals/s", note=f"{rate_budget / (count / best):.0%} "
                                                          f"of budget's time per deal"))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    return rows


# -- child processes: wall time and peak memory --------------------------------------

def bidlab_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("bidlab")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "bidlab"]


def run_child(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Run ``cmd`` in a fresh process: (wall seconds, its peak RSS in MiB)."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err,
                                env=env or CLEAN_ENV, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)  # this child's own rusage
        seconds = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            err.seek(0)
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n"
                               f"{err.read().decode(errors='replace')[-2000:]}")
    rss = usage.ru_maxrss * (1 if sys.platform == "darwin" else 1024)  # bytes on macOS
    return seconds, rss / MiB


def simulate_cmd(n: int, *extra: str, game: str = GAME) -> list[str]:
    return bidlab_cmd() + ["simulate", game, "-n", str(n), "--seed", "1", "--no-progress",
                           *extra]


# -- 2. peak memory --------------------------------------------------------------------

MEMORY_GAMES = (GAME, "aukcio")
"""The games whose streamed runs the memory benchmark measures: auktsion (its ``lots``
table is the largest per match) and aukcio (the newest kernel)."""


def bench_memory(quick: bool) -> list[Row]:
    return [row for game in MEMORY_GAMES for row in bench_memory_of(game, quick)]


def bench_memory_of(game: str, quick: bool) -> list[Row]:
    """Peak RSS of ``bidlab simulate GAME -n N --out FILE.parquet`` against start-up RSS."""
    def cmd(n: int, *extra: str) -> list[str]:
        return simulate_cmd(n, *extra, game=game)

    label = "" if game == GAME else f"{game} "
    log(f"memory, {game}: warm-up run (fills the numba cache), then start-up RSS of -n 1000")
    run_child(cmd(1000))
    _, base = run_child(cmd(1000))
    exps = (5, 6) if quick else (5, 6, 7)
    rss = {}
    rows = []
    with tempfile.TemporaryDirectory(prefix="bidlab-bench-") as tmp:
        for e in exps:
            n = 10 ** e
            log(f"memory, {game}: simulate -n 10^{e} --out FILE.parquet" +
                (" (a few minutes)" if e >= 7 else ""))
            out = os.path.join(tmp, f"n{e}.parquet")
            seconds, rss[e] = run_child(cmd(n, "--out", out))
            row = Row("memory", f"peak RSS, {label}simulate -n 10^{e} --out", rss[e], "MiB", base,
                      "start-up (-n 1000)", note=f"{seconds:.1f} s, {n / seconds:,.0f} matches/s")
            if e == 7:
                check(row, "value", "<", 1536, "< 1.5 GiB")
            rows.append(row)
            os.remove(out)
    top = max(exps)
    if quick:
        rows.append(Row("memory", f"peak RSS, {label}simulate -n 10^7 --out", None, "MiB",
                        target="< 1.5 GiB", note="skipped (--quick)"))
    rows.append(check(Row("memory", f"RSS growth, {label}10^5 → 10^{top}", rss[top], "MiB",
                          rss[5], "peak RSS at 10^5"), "ratio", "<=", 1.25, "flat: ratio ≤ 1.25×"))
    return rows


# -- 3. start-up time ------------------------------------------------------------------

def import_profile(env: dict[str, str], top: int = 6) -> list[tuple[str, float]]:
    """Where a warm ``simulate -n 1000`` spends its import time: ``python -X importtime``
    self times summed per top-level package (ms), the heaviest ``top`` and the total."""
    code = ("from bidlab.cli import main; main(['simulate', 'auktsion', '-n', '1000', "
            "'--seed', '1', '--no-progress'])")
    res = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    ms: dict[str, float] = {}
    for m in re.finditer(r"^import time:\s+(\d+) \|\s+\d+ \| *([\w.]+)", res.stderr, re.M):
        package = m.group(2).split(".")[0]
        ms[package] = ms.get(package, 0.0) + int(m.group(1)) / 1000
    heaviest = sorted(ms.items(), key=lambda kv: -kv[1])[:top]
    return heaviest + [("all imports", sum(ms.values()))]


def bench_startup(repeats: int) -> tuple[list[Row], list[tuple[str, float]]]:
    """Wall time of ``simulate -n 1000`` with an empty numba cache (cold) and with the
    kernels cached (warm), against ``python -c "import numpy, numba"``."""
    log("start-up: python -c 'import numpy, numba'")
    base = min(run_child([sys.executable, "-c", "import numpy, numba"])[0]
               for _ in range(repeats))
    cache = tempfile.mkdtemp(prefix="bidlab-bench-cache-")
    try:
        env = dict(CLEAN_ENV, BIDLAB_CACHE_DIR=cache)
        log("start-up: cold (empty numba cache: compiles every kernel)")
        cold = run_child(simulate_cmd(1000), env)[0]
        log("start-up: warm (same cache)")
        warm = min(run_child(simulate_cmd(1000), env)[0] for _ in range(repeats))
        log("start-up: -X importtime profile of the warm run")
        profile = import_profile(env)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    rows = [Row("startup", "cold start-up, simulate -n 1000 (empty cache)", cold, "s", base,
                "python -c 'import numpy, numba'", note="compiles the kernels"),
            check(Row("startup", "warm start-up, simulate -n 1000 (cached)", warm, "s", base,
                      "python -c 'import numpy, numba'"), "value", "<", 3.0, "< 3 s")]
    return rows, profile


def bench_cold(quick: bool) -> list[Row]:
    """What a first run costs, compiling included: per game, ``simulate -n 1000`` and
    ``trace`` each in an empty kernel cache (and an empty double-dummy cache), against
    the same command run again in that cache (warm); and the default ``bidlab report``
    (``make demo``'s job) in an empty cache."""
    from sim.games import all_games

    rows = []
    for game in all_games():
        for what, cmd in (("simulate -n 1000", simulate_cmd(1000, game=game)),
                          ("trace", bidlab_cmd() + ["trace", game, "--seed", "1"])):
            with tempfile.TemporaryDirectory(prefix="bidlab-bench-cache-") as cache:
                env = dict(CLEAN_ENV, BIDLAB_CACHE_DIR=cache, BIDLAB_DD_CACHE=cache + "/dd")
                log(f"cold {game} {what}")
                cold = run_child(cmd, env)[0]
                warm = run_child(cmd, env)[0]
            row = Row("cold", f"{game}: cold {what} (empty caches)", cold, "s", warm,
                      "the same, warm")
            rows.append(check(row, "value", "<=", 10.0, "<= 10 s") if what.startswith("sim")
                        else row)
    if quick:
        return rows + [Row("cold", "cold default report", None, "s", target="<= 150 s",
                           note="skipped (--quick)")]
    with tempfile.TemporaryDirectory(prefix="bidlab-bench-cache-") as cache:
        env = dict(CLEAN_ENV, BIDLAB_CACHE_DIR=cache, BIDLAB_DD_CACHE=cache + "/dd")
        log("cold default report (every game's kernels compiled)")
        seconds = run_child(bidlab_cmd() + ["report", "--out", cache + "/report",
                                            "--no-progress"], env)[0]
    return rows + [check(Row("cold", "cold default report (empty caches)", seconds, "s"),
                         "value", "<=", 150.0, "<= 150 s")]


# -- 4. other games' rows -------------------------------------------------------------

def bench_bidev(quick: bool) -> list[Row]:
    """auktsion bid-EV end to end: 8 candidate bids x 20,000 rollouts each (all threads)."""
    from analysis.bidev import bid_ev

    situation = {"hand": "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H", "money": "36,38,37,39",
                 "lot": "7", "price": "3", "high_bidder": "3"}
    rollouts = 2_000 if quick else 20_000
    bid_ev(GAME, situation, rollouts=50, candidates=["4..11"])  # compile / load the cache
    t = time.perf_counter()
    bid_ev(GAME, situation, rollouts=rollouts, candidates=["4..11"])
    seconds = time.perf_counter() - t
    return [check(Row("bidev", f"auktsion bid-EV, 8 candidates x {rollouts:,} rollouts",
                      seconds, "s"), "value", "<", 30.0, "< 30 s")]


def bench_game(game: str, quick: bool) -> list[Row]:
    """The rows of ``benchmarks/bench_<game>.py``, as that file defines them (each
    against its own baseline, measured in the same run)."""
    sys.path.insert(0, str(HERE))
    rows = importlib.import_module(f"bench_{game}").rows
    return [Row(game, r["name"], r["value"], r["unit"], r["baseline"],
                "baseline" if r["baseline"] else "", _target_text(r), r["passed"],
                r.get("note", ""))
            for r in rows(quick)]


def _target_text(r: dict) -> str:
    """A row's target as text: given as text, or a number that bounds the ratio (rows
    with a baseline) or the value."""
    t = r["target"]
    if t is None or isinstance(t, str):
        return (t or "").strip("- ")
    return f"ratio ≥ {t:g}×" if r["baseline"] else f"≥ {t:,} {r['unit']}"


# -- output ----------------------------------------------------------------------------

def machine() -> dict:
    import numba
    import numpy
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor()
    git = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT,
                         capture_output=True, text=True).stdout.strip()
    return {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "cpu_count": os.cpu_count(), "cpu": cpu, "platform": platform.platform(),
            "python": platform.python_version(), "numba": numba.__version__,
            "numpy": numpy.__version__, "numba_threads": numba.config.NUMBA_NUM_THREADS,
            "load_avg": [round(x, 2) for x in os.getloadavg()], "git": git}


def fmt(x: float | None, unit: str = "") -> str:
    if x is None:
        return "—"
    if unit == "×":
        return f"{x:,.0f}×" if x >= 100 else f"{x:.2f}×"
    text = f"{x:,.0f}" if abs(x) >= 100 else f"{x:.2f}"
    return f"{text} {unit}".strip()


def table(rows: list[Row]) -> str:
    head = ["benchmark", "measured", "baseline (same run)", "ratio", "target", "result", "note"]
    body = []
    for r in rows:
        base = f"{fmt(r.baseline, r.unit)} ({r.baseline_name})" if r.baseline else r.baseline_name
        result = {True: "pass", False: "**FAIL**", None: "—" if not r.target else "not run"}[r.ok]
        body.append([r.name, fmt(r.value, r.unit), base or "—", fmt(r.ratio, "×"),
                     r.target or "—", result, r.note])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def busy(info: dict) -> bool:
    return max(info["load_avg"][0], info.get("load_avg_end", [0])[0]) > 0.5 * info["cpu_count"]


def markdown(rows: list[Row], info: dict, profile, argv: list[str]) -> str:
    m = info
    lines = [f"# bidlab benchmark results ({m['date']})", "",
             f"`{' '.join(['.venv/bin/python', 'benchmarks/run.py', *argv])}` — "
             f"{m['cpu_count']} CPUs ({m['cpu']}), {m['platform']}, Python {m['python']}, "
             f"numba {m['numba']}, NumPy {m['numpy']}, git {m['git']}, "
             f"load average {m['load_avg'][0]} at the start, {m['load_avg_end'][0]} at the "
             f"end{' (a busy machine: rates are low and noisy)' if busy(m) else ''}.", "",
             table(rows)]
    if profile:
        lines += ["", "Import time of a warm `simulate -n 1000` by package (self times "
                      "from `python -X importtime`): "
                  + ", ".join(f"{name} {ms:.0f} ms" for name, ms in profile) + "."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke run: smaller counts, fewer "
                   "repeats, no 10^7 memory run")
    p.add_argument("--only", action="append", choices=BENCHMARKS,
                   help="run only this benchmark (repeatable)")
    p.add_argument("--repeats", type=int, help="repeats per timing, the best taken "
                   "(default: kernel 9, start-up 3; --quick 3 and 2)")
    p.add_argument("--no-write", action="store_true",
                   help="print only; do not write results.md and out/results.json")
    args = p.parse_args(argv)
    repeats = args.repeats or (3 if args.quick else 9)
    startup_repeats = args.repeats or (2 if args.quick else 3)
    only = [b for b in BENCHMARKS if b in (args.only or BENCHMARKS)]
    info = machine()
    log(f"{info['cpu_count']} CPUs, {info['platform']}, Python {info['python']}, "
        f"numba {info['numba']}, load average {info['load_avg']}")
    if busy(info):
        log("WARNING: the machine is busy; timings will be low and noisy")
    rows, profile = [], []
    t0 = time.perf_counter()
    for name in only:
        try:
            if name == "kernel":
                rows += bench_kernel(args.quick, repeats)
                import numba
                info["threading_layer"] = numba.threading_layer()
            elif name == "memory":
                rows += bench_memory(args.quick)
            elif name == "bidev":
                rows += bench_bidev(args.quick)
            elif name == "cold":
                rows += bench_cold(args.quick)
            elif name in ("pitch", "bridge", "aukcio", "vybory", "tournament", "solve"):
                rows += bench_game(name, args.quick)
            else:
                startup_rows, profile = bench_startup(startup_repeats)
                rows += startup_rows
                log("start-up: import time by package: "
                    + ", ".join(f"{package} {ms:.0f} ms" for package, ms in profile))
        except Exception as e:  # report it and go on with the other benchmarks
            log(f"{name}: FAILED: {e}")
            first = str(e).strip().splitlines()
            rows.append(Row(name, f"{name} benchmark", None, "", ok=False, target="runs",
                            note="failed: " + (first[-1] if first else type(e).__name__)))
    info["load_avg_end"] = [round(x, 2) for x in os.getloadavg()]
    info["seconds"] = round(time.perf_counter() - t0, 1)
    text = markdown(rows, info, profile, argv)
    print(text)
    if not args.no_write:
        (HERE / "results.md").write_text(text)
        out = HERE / "out"
        out.mkdir(exist_ok=True)
        (out / "results.json").write_text(json.dumps(
            {"machine": info, "argv": argv, "import_profile_ms": dict(profile),
             "rows": [dict(asdict(r), ratio=r.ratio) for r in rows]}, indent=1))
        log(f"wrote {HERE / 'results.md'} and {out / 'results.json'} "
            f"({info['seconds']:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
