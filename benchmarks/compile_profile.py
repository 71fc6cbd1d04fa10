"""Where a cold start's compile time goes (issue 34): per game, with an empty numba
cache in a temporary folder, the wall time of ``bidlab simulate GAME -n 1000`` (cold,
then warm from the cache it just filled) and, for every compiled function of the
repository, how many signatures it compiled and its compile time. The seed is the
default, 0, whose bridge boards have their double-dummy tables shipped: the empty
double-dummy cache (also in the temporary folder) solves nothing.

    .venv/bin/python benchmarks/compile_profile.py                 # every game
    .venv/bin/python benchmarks/compile_profile.py pitch vybory    # some
    .venv/bin/python benchmarks/compile_profile.py --top 8 --json benchmarks/out/compile.json
    .venv/bin/python benchmarks/compile_profile.py --trace   # and a cold ``bidlab trace GAME``

Each game runs in a fresh process with its own empty cache (``BIDLAB_CACHE_DIR``), as a
new user's first ``simulate`` would, so the modules games share compile once per game.
The child runs the command in-process (``bidlab.cli.main``, what the ``bidlab`` script
calls) under a recorder of numba's ``numba:compile`` events; the cold time is the
child's wall time from its start to the command's end, as the parent sees it. A
function's compile time is the time inside its own compile events less that of the
callees compiled inside them (exclusive); ``inline=True`` functions are compiled into
their callers and show up there. "Signatures" counts ``dispatcher.signatures``; a
function with more than one is compiled once per signature. Cache: the bytes numba wrote.

It prints a Markdown table (and the functions with several signatures, and the slowest
to compile) to stdout, progress to stderr, and reports only: it asserts nothing. Times
are distorted by other work on the machine; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GAMES = ("auktsion", "aukcio", "pitch", "bridge", "vybory", "fpsb")
CLEAN_ENV = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}

_CHILD = r"""
import json, os, sys, time
argv = json.loads(sys.argv[1])
from numba.core import event
with event.install_recorder("numba:compile") as rec:
    from bidlab.cli import main
    import contextlib, io
    with contextlib.redirect_stdout(io.StringIO()):
        rc = main(argv)
done = time.time()
import numba
from sim import kernelcache as KC
stack, excl, calls = [], {}, {}
for ts, ev in rec.buffer:
    d = ev.data["dispatcher"]
    key = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
    if ev.is_start:
        stack.append([key, ts, 0.0])
    else:
        k, t0, inner = stack.pop()
        excl[k] = excl.get(k, 0.0) + (ts - t0) - inner
        calls[k] = calls.get(k, 0) + 1
        if stack:
            stack[-1][2] += ts - t0
funcs = {}
for name, module in list(sys.modules.items()):
    if KC.module_name(getattr(module, "__file__", None) or "") != name:
        continue
    for value in list(vars(module).values()):
        if isinstance(value, numba.core.registry.CPUDispatcher) \
                and value.py_func.__module__ == name and value.signatures:
            key = f"{name}.{value.py_func.__qualname__}"
            funcs[key] = {"signatures": len(value.signatures),
                          "types": [str(s) for s in value.signatures],
                          "compile_s": round(excl.get(key, 0.0), 3),
                          "compiles": calls.get(key, 0)}
print(json.dumps({"rc": rc, "done": done, "functions": funcs,
                  "unlisted_compile_s": round(sum(v for k, v in excl.items()
                                                  if k not in funcs), 3)}))
"""


def log(msg: str) -> None:
    print(f"[compile] {msg}", file=sys.stderr, flush=True)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cache_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def cold_run(argv: list[str], cache: Path) -> tuple[float, dict]:
    """``bidlab ARGV`` in a fresh process with the cache folder ``cache``: its wall time
    from the start to the command's end, and what the child reports."""
    env = dict(CLEAN_ENV, BIDLAB_CACHE_DIR=str(cache))
    t0 = time.time()
    res = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(argv)], env=env,
                         cwd=ROOT, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(res.stderr.strip().splitlines()[-1] if res.stderr else "failed")
    out = json.loads(res.stdout.strip().splitlines()[-1])
    return out["done"] - t0, out


def profile(game: str, n: int, trace: bool) -> dict:
    argv = ["simulate", game, "-n", str(n), "--no-progress"]  # seed 0: bridge plays shipped boards
    cache = Path(tempfile.mkdtemp(prefix="bidlab-compile-"))
    try:
        load_start = load()
        cold, out = cold_run(argv, cache)
        nbytes = cache_bytes(cache)
        t1 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "bidlab", *argv], cwd=ROOT, capture_output=True,
                       env=dict(CLEAN_ENV, BIDLAB_CACHE_DIR=str(cache)), check=True)
        warm = time.perf_counter() - t1
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    funcs = out["functions"]
    result = {"game": game, "cold_s": cold, "warm_s": warm, "load_start": load_start,
              "load_end": load(), "functions": funcs, "cache_bytes": nbytes,
              "signatures": sum(f["signatures"] for f in funcs.values()),
              "compile_s": sum(f["compile_s"] for f in funcs.values())
              + out["unlisted_compile_s"]}
    if trace:  # ``bidlab trace GAME`` (match 0, JSON) from its own empty cache
        cache = Path(tempfile.mkdtemp(prefix="bidlab-compile-"))
        try:
            result["trace_cold_s"], out = cold_run(["trace", game], cache)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        result["trace_functions"] = len(out["functions"])
        result["trace_signatures"] = sum(f["signatures"] for f in out["functions"].values())
    return result


_LITERAL = re.compile(r"Literal\[(\w+)\]\([^)]*\)")


def why(types: list[str]) -> str:
    """"literal" where the signatures differ only in the values of literal arguments
    (a constant at each call site, ``Literal[int](7)``), else "types"."""
    plain = {_LITERAL.sub(lambda m: {"int": "int64"}.get(m.group(1), m.group(1)), t)
             for t in types}
    return "literal" if len(plain) == 1 else "types"


def short(name: str) -> str:
    return name.replace("sim.games.", "").replace("strategies.", "strat.")


def report(results: list[dict], top: int) -> str:
    traced = any("trace_cold_s" in r for r in results)
    lines = ["| game | cold simulate -n 1000 | warm | compile events (excl. sum) | "
             "functions compiled | signatures | functions with >1 signature | cache | "
             + ("cold trace (functions, signatures) | " if traced else "")
             + "load (1-min avg, start / end) |",
             "|---|---|---|---|---|---|---|---|---|" + ("---|" if traced else "")]
    for r in results:
        multi = {k: f["signatures"] for k, f in r["functions"].items() if f["signatures"] > 1}
        trace = (f"{r['trace_cold_s']:.1f} s ({r['trace_functions']}, "
                 f"{r['trace_signatures']}) | " if "trace_cold_s" in r else
                 "- | " if traced else "")
        lines.append(
            f"| {r['game']} | {r['cold_s']:.1f} s | {r['warm_s']:.1f} s | "
            f"{r['compile_s']:.1f} s | {len(r['functions'])} | {r['signatures']} | "
            f"{len(multi)} | {r['cache_bytes'] / 2**20:.1f} MiB | {trace}"
            f"{r['load_start'].split()[0]} / {r['load_end'].split()[0]} |")
    lines += ["", "Functions with several signatures (game: function x signatures, and why: "
              "`literal` where they differ only in literal argument values, else `types`):",
              ""]
    for r in results:
        multi = sorted((k, f["signatures"], why(f["types"]))
                       for k, f in r["functions"].items() if f["signatures"] > 1)
        lines.append(f"- {r['game']}: " + (", ".join(f"`{short(k)}` x{s} {w}"
                                                      for k, s, w in multi) or "none"))
    lines += ["", f"Slowest {top} functions to compile (exclusive seconds):", ""]
    for r in results:
        slow = sorted(r["functions"].items(), key=lambda kv: -kv[1]["compile_s"])[:top]
        lines.append(f"- {r['game']}: " + ", ".join(
            f"`{short(k)}` {f['compile_s']:.1f}" for k, f in slow))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(GAMES))
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--trace", action="store_true",
                    help="also time a cold `bidlab trace GAME`, from its own empty cache")
    ap.add_argument("--json", type=Path, default=HERE / "out" / "compile_profile.json")
    args = ap.parse_args()
    results = []
    for game in args.games:
        log(f"{game}: cold simulate -n {args.n} (load {load()})")
        try:
            results.append(profile(game, args.n, args.trace))
        except Exception as e:  # noqa: BLE001  (a benchmark reports, never stops)
            log(f"{game}: failed: {e}")
            continue
        r = results[-1]
        log(f"{game}: cold {r['cold_s']:.1f} s, warm {r['warm_s']:.1f} s, "
            f"{len(r['functions'])} functions, {r['signatures']} signatures")
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                         capture_output=True, text=True).stdout.strip()
    print(f"git {git}, {os.cpu_count()} CPUs, load average at the end {load()}\n")
    print(report(results, args.top))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"git": git, "results": results}, indent=1))


if __name__ == "__main__":
    main()
