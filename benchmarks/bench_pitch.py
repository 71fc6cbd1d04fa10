"""pitch benchmarks: kernel throughput on one thread against the plain-Python reference
engine playing the same games in the same run.

    .venv/bin/python benchmarks/bench_pitch.py            # full counts
    .venv/bin/python benchmarks/bench_pitch.py --quick    # smoke run

``rows(quick)`` is what ``benchmarks/run.py`` imports: one dict per row with the keys
``name, value, unit, baseline, ratio, target, passed`` (``baseline`` is the plain-Python
rate measured in the same run; ``ratio`` is value / baseline; ``passed`` is None when a
row has no target). Benchmarks report; they assert nothing.

Rows (4 players, default rules, one numba thread, deals per second counting redeals):
- ``strength`` + ``greedy`` in every seat: target >= 300,000 deals/s;
- the same against the plain-Python engine: target ratio >= 100x (the two engines
  produce identical games; the row's name says whether they did in this run);
- ``strength`` + ``pimc`` (32 samples per decision) in every seat: target >= 2,000
  deals/s, with the plain-Python engine as baseline (a few deals, it is slow);
- bid-EV: the first speaker's 5 candidate calls (pass, bid 1..4), each played out to the
  end of the game on the same N rollouts (``strength+greedy`` everywhere, all numba
  threads): seconds for ``analysis.bidev.bid_ev`` end to end (rollouts and the bootstrap
  summary), best of the repeats after a warm-up call; no target.
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

GREEDY = "all=strength+greedy"
PIMC = "all=strength+pimc:samples=32"


def log(msg: str) -> None:
    print(f"[bench pitch] {msg}", file=sys.stderr, flush=True)


def _setup(spec: str):
    import strategies
    from sim.games import get_game

    game = get_game("pitch")
    rules = game.make_rules({})
    gs = strategies.for_game("pitch")
    seats = strategies.assign_seats(gs, rules.players, [spec])
    policies = {d: (seats.ids(d), seats.params(d)) for d in gs.decisions}
    return game, rules, seats, policies


def kernel_rate(spec: str, games: int, repeats: int) -> tuple[float, float]:
    """(deals/s, games/s) of ``run_chunk`` on one numba thread, best of ``repeats``."""
    import numba

    game, rules, seats, policies = _setup(spec)
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        game.run_chunk(rules, policies, seats.labels, 1, 0, 8)      # compile or load
        best = 0.0, 0.0
        for _ in range(repeats):
            t0 = time.perf_counter()
            out = game.run_chunk(rules, policies, seats.labels, 1, 0, games)
            dt = time.perf_counter() - t0
            deals = int(out["seats"]["deals"][::rules.players].sum())
            if deals / dt > best[0]:
                best = deals / dt, games / dt
    finally:
        numba.set_num_threads(before)
    return best


def python_rate(spec: str, seconds: float) -> tuple[float, bool]:
    """(deals/s of the plain-Python reference engine, whether the games it played equal
    the kernel's), playing games one by one for about ``seconds``."""
    from sim.games.pitch import reference

    game, rules, seats, policies = _setup(spec)
    deals = games = 0
    scores = []
    t0 = time.perf_counter()
    while True:
        out = reference.play_many(rules, seats, 1, games, 1)
        deals += out["deals"][0]
        scores += out["score"]
        games += 1
        if time.perf_counter() - t0 >= seconds:
            break
    rate = deals / (time.perf_counter() - t0)
    kernel = game.run_chunk(rules, policies, seats.labels, 1, 0, games)["seats"]["score"]
    return rate, kernel.reshape(games, -1).tolist() == scores


BIDEV_SITUATION = {"seat": "1", "dealer": "0", "hand": "AH KH 7H 2H 9C 3D"}


def bidev_seconds(rollouts: int, repeats: int) -> float:
    """Seconds of one pitch bid-EV (5 candidates x ``rollouts``), best of ``repeats``."""
    from analysis.bidev import bid_ev

    bid_ev("pitch", BIDEV_SITUATION, rollouts=100)                  # compile or load
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        r = bid_ev("pitch", BIDEV_SITUATION, rollouts=rollouts, seed=1)
        best = min(best, time.perf_counter() - t0)
    assert len(r.frame) == 5
    return best


def rows(quick: bool) -> list[dict]:
    """The pitch benchmark rows (see the module docstring)."""
    repeats = 2 if quick else 5
    log(f"kernel, {GREEDY}: best of {repeats}")
    greedy, _ = kernel_rate(GREEDY, 20_000 if quick else 100_000, repeats)
    log("plain Python, same strategies")
    py_greedy, same = python_rate(GREEDY, 1.0 if quick else 4.0)
    log(f"kernel, {PIMC}: best of {repeats}")
    pimc, _ = kernel_rate(PIMC, 60 if quick else 400, repeats)
    log("plain Python, pimc (slow: a few deals)")
    py_pimc, same_pimc = python_rate(PIMC, 2.0 if quick else 10.0)
    bidev_n = 2_000 if quick else 20_000
    log(f"bid-EV, 5 candidates x {bidev_n:,} rollouts: best of {repeats}")
    bidev = bidev_seconds(bidev_n, repeats)
    agree = "same games" if same else "games DIFFER"
    agree_pimc = "same games" if same_pimc else "games DIFFER"
    return [
        row("pitch kernel, 4 players, strength+greedy, 1 thread", greedy, "deals/s", py_greedy,
             ">= 300,000 deals/s", greedy >= 300_000),
        row(f"pitch kernel vs plain Python, strength+greedy ({agree})", greedy, "deals/s",
             py_greedy, "ratio >= 100x", greedy >= 100 * py_greedy),
        row(f"pitch kernel, 4 players, strength+pimc:samples=32, 1 thread ({agree_pimc})", pimc,
             "deals/s", py_pimc, ">= 2,000 deals/s", pimc >= 2_000),
        row(f"pitch bid-EV: 5 candidates x {bidev_n:,} rollouts (to the end of the game, "
             f"all threads)", bidev, "s", None, "-", None),
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smaller counts, fewer repeats")
    args = p.parse_args(argv)
    result = rows(args.quick)
    head = ["benchmark", "measured", "plain Python (same run)", "ratio", "target", "result"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in result:
        ratio = f"{r['ratio']:,.0f}x" if r["ratio"] else "-"
        base = f"{r['baseline']:,.1f} {r['unit']}" if r["baseline"] else "-"
        ok = {True: "pass", False: "**FAIL**", None: "-"}[r["passed"]]
        value = f"{r['value']:,.0f}" if r["value"] >= 100 else f"{r['value']:.2f}"
        print(f"| {r['name']} | {value} {r['unit']} | {base} | {ratio} | "
              f"{r['target']} | {ok} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
