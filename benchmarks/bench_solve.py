"""Solver benchmarks (``bidlab solve``): speed of the training, size of the abstraction,
and the time a solve from nothing takes to reach the known answer (fpsb) or the shipped
solution's exploitability (pitch).

    .venv/bin/python benchmarks/bench_solve.py            # full
    .venv/bin/python benchmarks/bench_solve.py --quick    # smoke run

``rows(quick)`` is what ``benchmarks/run.py`` imports. Benchmarks report; they assert
nothing.

Rows:
- fpsb, 2, 3 and 4 bidders: seconds from nothing (kernels compiled) to the default
  iterations, and whether the known answer is met there (bid RMSE <= 0.01 against
  (n-1)/n v, relative utility loss <= 1e-3); target <= 30 s;
- pitch, 4 players: information-set updates a second (deals x seats, each seat's whole
  bidding evaluated against the others) on one thread and on two (target 2 threads
  >= 1.6x one); information sets; memory of the regret and average tables;
- pitch, 4 players: seconds from nothing to the shipped solution's iterations, and the
  held-out exploitability reached against the shipped file's (target <= 900 s);
- auktsion, default rules: decision points a second (a match played to a lot, every
  action of every seat holding the rank played out to the match's end) on one thread
  and on two; information sets; seconds from nothing to the shipped solution's
  iterations and the exploitability reached against the shipped file's (the issue's
  bar: within 20 minutes on two cores, 1200 s);
- aukcio, 3 players: the same rows (a sampled match played to a lot, then every seat's
  every ceiling played out to the match's end).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rows import row  # noqa: E402  (benchmarks/, the script's folder)


def log(msg: str) -> None:
    print(f"[bench solve] {msg}", file=sys.stderr, flush=True)


def _fpsb_rows(quick: bool) -> list[dict]:
    from analysis.solve import solve
    out = []
    for n in ((2,) if quick else (2, 3, 4)):
        with tempfile.TemporaryDirectory() as tmp:
            solve("fpsb", {"players": n}, iterations=250, out=Path(tmp) / "warm.sol",
                  progress=False)                                      # compile
            t0 = time.perf_counter()
            r = solve("fpsb", {"players": n}, out=Path(tmp) / "f.sol", progress=False)
            seconds = time.perf_counter() - t0
        last = r.curve[-1]
        met = last["bid_rmse"] <= 0.01 and last["relative_loss"] <= 1e-3
        log(f"fpsb {n}: {seconds:.1f} s, RMSE {last['bid_rmse']:.4f}, loss "
            f"{last['relative_loss']:.2e}")
        out.append(row(f"fpsb, {n} bidders: seconds from nothing to the known answer "
                       f"({r.solution.meta['iterations']:,} iterations; RMSE "
                       f"{last['bid_rmse']:.4f}, loss {last['relative_loss']:.1e})",
                       seconds, "s", None, "<= 30 s and the answer met",
                       seconds <= 30 and met))
    return out


def _pitch_rate(solver, iterations: int, threads: int) -> float:
    import numba
    numba.set_num_threads(threads)
    t0 = time.perf_counter()
    solver.run(iterations)
    return iterations * 4096 * solver.n / (time.perf_counter() - t0)


def _pitch_rows(quick: bool) -> list[dict]:
    import numba

    from analysis.solve import solve
    from analysis.solvers import make_solver
    from analysis.spec import make_rules
    from sim.games.pitch.abstraction import abstraction
    from strategies import solved

    rules = make_rules("pitch", {"players": 4})
    solver = make_solver("pitch", rules, 0)
    solver.run(1)                                                      # compile
    its = 5 if quick else 40
    one = _pitch_rate(solver, its, 1)
    two = _pitch_rate(solver, its, 2) if numba.config.NUMBA_NUM_THREADS >= 2 else None
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    a = abstraction(rules)
    out = [row("pitch, 4 players: information-set updates a second, 1 thread", one,
               "updates/s", None, "", None),
           row(f"pitch, 4 players: information sets ({a.infosets:,} x {a.actions} actions), "
               f"regret and average tables", 2 * solver.regret.nbytes / 2 ** 20, "MiB", None,
               "", None)]
    if two is not None:
        out.insert(1, row("pitch, 4 players: information-set updates a second, 2 threads",
                          two, "updates/s", one, "2 threads >= 1.6x one", two / one >= 1.6))
    if quick:
        return out
    shipped, path = solved.find("pitch", rules.to_json(), a)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        r = solve("pitch", {"players": 4}, iterations=shipped.meta["iterations"],
                  out=Path(tmp) / "p.sol", progress=False)
        seconds = time.perf_counter() - t0
    mine, theirs = r.curve[-1], shipped.meta["exploitability"][-1]
    log(f"pitch 4: {seconds:.1f} s; exploitability {mine['value']:.4f} (shipped "
        f"{theirs['value']:.4f})")
    out.append(row(f"pitch, 4 players: seconds from nothing to the shipped solution's "
                   f"{shipped.meta['iterations']:,} iterations (exploitability "
                   f"{mine['value']:.4f}, shipped {theirs['value']:.4f})", seconds, "s",
                   None, "<= 900 s", seconds <= 900 and mine["value"] <= theirs["ci_high"]))
    return out


def _rollout_rows(game: str, what: str, quick: bool, iterations: int) -> list[dict]:
    """The rows of a money auction's solver (auktsion, aukcio: regret matching on rollout
    values at sampled lots), default rules (``what`` names them): decision points a
    second on one thread and two (``iterations`` iterations each, a fifth with
    ``quick``), the tables' size, and (not ``quick``) the seconds from nothing to the
    shipped solution's iterations."""
    import numba

    from analysis.solve import solve
    from analysis.solvers import make_solver
    from analysis.spec import make_rules
    from strategies import solved

    rules = make_rules(game, {})
    solver = make_solver(game, rules, 0)
    solver.run(1)                                                      # compile
    its = max(1, iterations // 5) if quick else iterations

    def rate(threads: int) -> float:
        numba.set_num_threads(threads)
        t0 = time.perf_counter()
        solver.run(its)
        return its * 4096 / (time.perf_counter() - t0)

    one = rate(1)
    two = rate(2) if numba.config.NUMBA_NUM_THREADS >= 2 else None
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    a = solver.abstraction
    out = [row(f"{game}, {what}: decision points a second, 1 thread", one, "points/s", None,
               "", None),
           row(f"{game}: information sets ({a.infosets:,} x {a.actions} actions), regret "
               f"and average tables", 2 * solver.regret.nbytes / 2 ** 20, "MiB", None, "",
               None)]
    if two is not None:
        out.insert(1, row(f"{game}, {what}: decision points a second, 2 threads", two,
                          "points/s", one, "2 threads >= 1.6x one", two / one >= 1.6))
    if quick:
        return out
    shipped, _ = solved.find(game, rules.to_json(), a)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        r = solve(game, {}, iterations=shipped.meta["iterations"], out=Path(tmp) / "a.sol",
                  progress=False)
        seconds = time.perf_counter() - t0
    mine, theirs = r.curve[-1], shipped.meta["exploitability"][-1]
    log(f"{game}: {seconds:.1f} s; exploitability {mine['value']:.4f} (shipped "
        f"{theirs['value']:.4f})")
    out.append(row(f"{game}, {what}: seconds from nothing to the shipped solution's "
                   f"{shipped.meta['iterations']:,} iterations (exploitability "
                   f"{mine['value']:.4f}, shipped {theirs['value']:.4f})", seconds, "s", None,
                   "<= 1200 s", seconds <= 1200 and mine["value"] <= theirs["ci_high"]))
    return out


def rows(quick: bool = False) -> list[dict]:
    return (_fpsb_rows(quick) + _pitch_rows(quick)
            + _rollout_rows("auktsion", "default rules", quick, 5)
            + _rollout_rows("aukcio", "3 players", quick, 25))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    for r in rows(p.parse_args().quick):
        ratio = f"  ({r['ratio']:.2f}x)" if r["ratio"] else ""
        print(f"{r['name']}: {r['value']:,.1f} {r['unit']}{ratio}  [{r['target']}: "
              f"{'pass' if r['passed'] else '-' if r['passed'] is None else 'FAIL'}]")


if __name__ == "__main__":
    main()
