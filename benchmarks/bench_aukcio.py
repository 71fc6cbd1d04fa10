"""aukcio benchmarks: kernel throughput against the plain-Python reference engine playing
the same games in the same run, thread scaling, and the K8 payment search.

    .venv/bin/python benchmarks/bench_aukcio.py            # full counts
    .venv/bin/python benchmarks/bench_aukcio.py --quick    # smoke run

``rows(quick)`` is what ``benchmarks/run.py`` imports (the row format of
``bench_pitch.py``). Benchmarks report; they assert nothing.

Rows (games per second, best of the repeats after a warm-up):
- 3 players, ``setvalue`` in every seat, one numba thread: target >= 300,000 games/s;
- the same against the plain-Python engine (``sim/games/aukcio/reference.py``): target
  ratio >= 100x (the row's name says whether the two played identical games);
- the same on 2 threads against 1: target ratio >= 1.8x (on a machine with 2 cores
  free);
- 6 players with two decks, one thread: reported, no target;
- the payment search (``payment.best_payment``) on random hands of 5-15 money cards of
  one deck, prices uniform from 1 to what the hand can pay: target >= 5,000,000
  payments/s on one thread; and with prices up to 40 (the range of real prices: the
  mean price in the default game is about 13), no target.
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

SETVALUE = "all=setvalue"


def log(msg: str) -> None:
    print(f"[bench aukcio] {msg}", file=sys.stderr, flush=True)


def _setup(rules: dict, spec: str):
    import strategies
    from sim.games import get_game

    game = get_game("aukcio")
    r = game.make_rules(rules)
    seats = strategies.assign_seats(strategies.for_game("aukcio"), r.players, [spec])
    return game, r, seats, {"bid": (seats.ids("bid"), seats.params("bid"))}


def kernel_rate(rules: dict, spec: str, games: int, repeats: int, threads: int = 1) -> float:
    """Games/s of ``run_chunk`` on ``threads`` numba threads, best of ``repeats``."""
    import numba

    game, r, seats, policies = _setup(rules, spec)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        game.run_chunk(r, policies, seats.labels, 1, 0, 64)      # compile or load
        best = 0.0
        for _ in range(repeats):
            t0 = time.perf_counter()
            game.run_chunk(r, policies, seats.labels, 1, 0, games)
            best = max(best, games / (time.perf_counter() - t0))
    finally:
        numba.set_num_threads(before)
    return best


def python_rate(spec: str, seconds: float) -> tuple[float, bool]:
    """(games/s of the plain-Python reference engine, whether its games equal the
    kernel's), playing games one by one for about ``seconds``."""
    from sim.games.aukcio import reference

    game, r, seats, policies = _setup({}, spec)
    scores: list = []
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        scores += reference.play_many(r, seats, 1, games, 1)["score"]
        games += 1
    rate = games / (time.perf_counter() - t0)
    kernel = game.run_chunk(r, policies, seats.labels, 1, 0, games)["seats"]["score"]
    return rate, kernel.reshape(games, -1).tolist() == scores


def payment_rate(count: int, repeats: int, top: int | None) -> float:
    """Payments/s of the K8 search on ``count`` random hands (one thread)."""
    import numpy as np

    from sim.games.aukcio.payment import JOKERS, LEVEL_COLS, WORDS, best_payment, most_payable
    from sim.jit import jit

    rng = np.random.default_rng(0)
    deck = np.array([i for i in range(9) for _ in range(4)] + [JOKERS] * 3)
    hands = np.zeros((count, 10), np.int64)
    prices = np.zeros(count, np.int64)
    for h in range(count):
        hands[h] = np.bincount(rng.choice(deck, rng.integers(5, 16), replace=False), minlength=10)
        most = most_payable(hands[h], 1)
        prices[h] = rng.integers(1, (most if top is None else min(most, top)) + 1)

    @jit(nrt=True)
    def pay_all(hands, prices):
        pay, best = np.zeros(10, np.int64), np.zeros(3, np.int64)
        levels = np.zeros((9, LEVEL_COLS), np.int64)
        reach = np.zeros((10, 4, WORDS), np.uint64)
        total = 0
        for h in range(hands.shape[0]):
            total += best_payment(hands[h], 1, prices[h], pay, reach, levels, best)
        return total

    pay_all(hands[:8], prices[:8])
    best_rate = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        pay_all(hands, prices)
        best_rate = max(best_rate, count / (time.perf_counter() - t0))
    return best_rate


def rows(quick: bool) -> list[dict]:
    """The aukcio benchmark rows (see the module docstring)."""
    repeats = 2 if quick else 5
    games = 20_000 if quick else 200_000
    log(f"kernel, 3 players, {SETVALUE}: best of {repeats}")
    one = kernel_rate({}, SETVALUE, games, repeats)
    log("kernel, 2 threads")
    two = kernel_rate({}, SETVALUE, 2 * games, repeats, threads=2)
    log("plain Python, same strategies")
    py, same = python_rate(SETVALUE, 1.0 if quick else 4.0)
    log("kernel, 6 players, two decks")
    six = kernel_rate({"players": 6}, SETVALUE, games // 4, repeats)
    n_pay = 100_000 if quick else 1_000_000
    log(f"payment search, {n_pay:,} random hands")
    pay = payment_rate(n_pay, repeats, None)
    pay40 = payment_rate(n_pay, repeats, 40)
    agree = "same games" if same else "games DIFFER"
    return [
        row("aukcio kernel, 3 players, setvalue, 1 thread", one, "games/s", None,
             ">= 300,000 games/s", one >= 300_000),
        row(f"aukcio kernel vs plain Python, setvalue ({agree})", one, "games/s", py,
             "ratio >= 100x", one >= 100 * py),
        row("aukcio kernel, 3 players, setvalue, 2 threads vs 1", two, "games/s", one,
             "ratio >= 1.8x", two >= 1.8 * one),
        row("aukcio kernel, 6 players, two decks, setvalue, 1 thread", six, "games/s", None,
             "-", None),
        row("aukcio K8 payment search, hands of 5-15 cards, prices 1..all", pay, "payments/s",
             None, ">= 5,000,000 payments/s", pay >= 5_000_000),
        row("aukcio K8 payment search, hands of 5-15 cards, prices 1..40", pay40, "payments/s",
             None, "-", None),
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smaller counts, fewer repeats")
    args = p.parse_args(argv)
    for r in rows(args.quick):
        ratio = f"{r['ratio']:,.1f}x" if r["ratio"] else "-"
        base = f"{r['baseline']:,.0f}" if r["baseline"] else "-"
        ok = {True: "pass", False: "FAIL", None: "-"}[r["passed"]]
        print(f"{r['name']}: {r['value']:,.0f} {r['unit']} (baseline {base}, {ratio}; "
              f"target {r['target']}: {ok})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
