"""vybory benchmarks: kernel throughput against the plain-Python reference engine playing
the same tours in the same run, thread scaling, and pimc.

    .venv/bin/python benchmarks/bench_vybory.py            # full counts
    .venv/bin/python benchmarks/bench_vybory.py --quick    # smoke run

``rows(quick)`` is what ``benchmarks/run.py`` imports (the row format of
``bench_pitch.py``). Benchmarks report; they assert nothing.

Rows (default rules: tours of 8 deals; deals per second = tours x deals_per_match per
second, best of the repeats after a warm-up):
- ``expected+greedy`` in every seat, one numba thread: target >= 250,000 deals/s;
- the same against the plain-Python engine (``sim/games/vybory/reference.py``): target
  ratio >= 100x (the row's name says whether the two played identical tours);
- the same on 2 threads against 1: target ratio >= 1.8x (on a machine with 2 cores
  free);
- ``expected+pimc`` (32 samples per decision) in every seat, one thread, one-deal tours:
  target >= 100 deals/s, with the plain-Python engine as baseline (a few deals: it is
  slow).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rows import row  # noqa: E402  (benchmarks/, the script's folder)

GREEDY = "all=expected+greedy"
PIMC = "all=expected+pimc:samples=32"
ONE_DEAL = {"deals_per_match": 1}


def log(msg: str) -> None:
    print(f"[bench vybory] {msg}", file=sys.stderr, flush=True)


def _setup(rules: dict, spec: str):
    import strategies
    from sim.games import get_game

    game = get_game("vybory")
    r = game.make_rules(rules)
    gs = strategies.for_game("vybory")
    seats = strategies.assign_seats(gs, game.n_seats(r), [spec])
    policies = {d: (seats.ids(d), seats.params(d)) for d in gs.decisions}
    return game, r, seats, policies


def kernel_rate(rules: dict, spec: str, tours: int, repeats: int, threads: int = 1) -> float:
    """Deals/s of ``run_chunk`` on ``threads`` numba threads, best of ``repeats``."""
    import numba

    game, r, seats, policies = _setup(rules, spec)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        game.run_chunk(r, policies, seats.labels, 1, 0, 4)       # compile or load
        best = 0.0
        for _ in range(repeats):
            t0 = time.perf_counter()
            game.run_chunk(r, policies, seats.labels, 1, 0, tours)
            best = max(best, tours * r.deals_per_match / (time.perf_counter() - t0))
    finally:
        numba.set_num_threads(before)
    return best


def python_rate(rules: dict, spec: str, seconds: float) -> tuple[float, bool]:
    """(deals/s of the plain-Python reference engine, whether its tours equal the
    kernel's), playing tours one by one for about ``seconds`` (at least one)."""
    from sim.games.vybory import reference

    game, r, seats, policies = _setup(rules, spec)
    scores: list = []
    tours = 0
    t0 = time.perf_counter()
    while True:
        scores += reference.play_many(r, seats, 1, tours, 1)["score"]
        tours += 1
        if time.perf_counter() - t0 >= seconds:
            break
    rate = tours * r.deals_per_match / (time.perf_counter() - t0)
    kernel = game.run_chunk(r, policies, seats.labels, 1, 0, tours)["seats"]["score"]
    return rate, kernel.reshape(tours, -1).tolist() == scores


def rows(quick: bool) -> list[dict]:
    """The vybory benchmark rows (see the module docstring)."""
    repeats = 2 if quick else 5
    tours = 4_000 if quick else 25_000
    log(f"kernel, {GREEDY}: best of {repeats}")
    one = kernel_rate({}, GREEDY, tours, repeats)
    log("kernel, 2 threads")
    two = kernel_rate({}, GREEDY, 2 * tours, repeats, threads=2)
    log("plain Python, same strategies")
    py, same = python_rate({}, GREEDY, 1.0 if quick else 4.0)
    log(f"kernel, {PIMC}, one-deal tours: best of {repeats}")
    pimc = kernel_rate(ONE_DEAL, PIMC, 50 if quick else 200, repeats)
    log("plain Python, pimc (slow: a few deals)")
    py_pimc, same_pimc = python_rate(ONE_DEAL, PIMC, 2.0 if quick else 10.0)
    agree = "same tours" if same else "tours DIFFER"
    agree_pimc = "same tours" if same_pimc else "tours DIFFER"
    return [
        row("vybory kernel, expected+greedy, 1 thread", one, "deals/s", None,
             ">= 250,000 deals/s", one >= 250_000),
        row(f"vybory kernel vs plain Python, expected+greedy ({agree})", one, "deals/s", py,
             "ratio >= 100x", one >= 100 * py),
        row("vybory kernel, expected+greedy, 2 threads vs 1", two, "deals/s", one,
             "ratio >= 1.8x", two >= 1.8 * one),
        row(f"vybory kernel, expected+pimc:samples=32, 1 thread ({agree_pimc})", pimc,
             "deals/s", py_pimc, ">= 100 deals/s", pimc >= 100),
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smaller counts, fewer repeats")
    args = p.parse_args(argv)
    for r in rows(args.quick):
        ratio = f"{r['ratio']:,.1f}x" if r["ratio"] else "-"
        base = f"{r['baseline']:,.1f}" if r["baseline"] else "-"
        ok = {True: "pass", False: "FAIL", None: "-"}[r["passed"]]
        print(f"{r['name']}: {r['value']:,.0f} {r['unit']} (baseline {base}, {ratio}; "
              f"target {r['target']}: {ok})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
