"""Tournament benchmarks: the duplicate design's cost, and what it buys in interval width
against fixed seats at the same number of games played.

    .venv/bin/python benchmarks/bench_tournament.py            # 20,000 games per lineup
    .venv/bin/python benchmarks/bench_tournament.py --quick    # 2,000

``rows(quick)`` is what ``benchmarks/run.py`` imports (the row format of
``bench_pitch.py``). Benchmarks report; they assert nothing.

pitch, 4 players, default rules, seed 1, 2 numba threads, after a warm-up run (kernels
loaded or compiled); N = 20,000 games per lineup (2,000 with ``--quick``):

- a 4-strategy tournament (``STRATEGIES``; a Williams design: 4 lineups, 4N games):
  seconds of ``analysis.tournament.tournament`` end to end (bootstrap included), against
  ``simulate`` of the same 4N games with the four strategies in fixed seats 0..3;
  target < 120 s;
- the half-width of the 95% interval of the difference in match score between the first
  two strategies (A minus B, paired by game): in the tournament above, against the same
  difference from those fixed seats (4N games, A in seat 0 and B in seat 1); no target;
- the same for the two strategies alone: a 2-strategy tournament (2 lineups of 2N games:
  A B A B and B A B A) against ``simulate`` with A in seats 0 and 2 and B in 1 and 3
  (4N games); no target.

The ratio of a width row is tournament / fixed seats: below 1 the duplicate design gives
the tighter interval for the same number of games played (it is also free of the seat
advantage, which fixed seats leave in the difference).
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

GAME = "pitch"
STRATEGIES = ["strength+greedy", "strength+greedy:aggression=1.2", "strength+random",
              "random+greedy"]
THREADS = 2
SEED = 1


def log(msg: str) -> None:
    print(f"[bench tournament] {msg}", file=sys.stderr, flush=True)


def _fixed(seats: list[str], games: int) -> tuple[float, float]:
    """(seconds, half-width of A - B) of ``simulate`` with ``seats`` fixed, A being
    ``STRATEGIES[0]`` and B ``STRATEGIES[1]`` (each averaged over its seats per game)."""
    import strategies
    from analysis.runs import simulate
    from analysis.stats import paired_difference, per_match

    spec = [f"{s}={name}" for s, name in enumerate(seats)]
    t0 = time.perf_counter()
    run = simulate(GAME, games, seed=SEED, strategies=spec, threads=THREADS)
    seconds = time.perf_counter() - t0
    label = [strategies.for_game(GAME).parse(x).label for x in STRATEGIES[:2]]
    series = per_match(run.seats, "score")
    d = paired_difference(series[("strategy", label[1])], series[("strategy", label[0])])
    return seconds, (d["ci_high"] - d["ci_low"]) / 2


def _tournament(strategies: list[str], games: int):
    from analysis.tournament import tournament

    t0 = time.perf_counter()
    result = tournament(GAME, strategies, games, seed=SEED, threads=THREADS)
    seconds = time.perf_counter() - t0
    d = result.differences
    names = result.names[:2]
    row = d[(d["metric"] == "score") & d["first"].isin(names) & d["second"].isin(names)].iloc[0]
    return seconds, (row["ci_high"] - row["ci_low"]) / 2, result


def rows(quick: bool) -> list[dict]:
    """The tournament rows (see the module docstring)."""
    import numba

    before = numba.get_num_threads()
    games = 2_000 if quick else 20_000
    try:
        log("warm-up (loads or compiles the pitch kernel)")
        _tournament(STRATEGIES, 1_024)
        log(f"4-strategy tournament, {games:,} games per lineup, {THREADS} threads")
        t_tour, w_tour, result = _tournament(STRATEGIES, games)
        played = games * len(result.design.lineups)
        log(f"fixed seats, {played:,} games")
        t_fixed, w_fixed = _fixed(STRATEGIES, played)
        log(f"2-strategy tournament, {2 * games:,} games per lineup")
        _, w_two, two = _tournament(STRATEGIES[:2], 2 * games)
        log(f"fixed seats A B A B, {4 * games:,} games")
        _, w_two_fixed = _fixed([STRATEGIES[0], STRATEGIES[1]] * 2, 4 * games)
    finally:
        numba.set_num_threads(before)
    a, b = STRATEGIES[:2]
    return [
        row(f"pitch tournament, 4 strategies x {games:,} games per lineup "
             f"({len(result.design.lineups)} lineups), {THREADS} threads", t_tour, "s",
             t_fixed, "< 120 s", t_tour < 120,
             f"baseline: simulate, the same {played:,} games in fixed seats"),
        row(f"tournament vs fixed seats: 95% half-width of {a} minus {b}, match score, "
             f"{played:,} games each", w_tour, "points", w_fixed, "-", None,
             f"4-strategy tournament against seats 0..3 fixed: ±{w_tour:.4f} against "
             f"±{w_fixed:.4f}"),
        row(f"2-strategy tournament vs fixed seats A B A B: 95% half-width of A minus B, "
             f"{4 * games:,} games each", w_two, "points", w_two_fixed, "-", None,
             f"{len(two.design.lineups)} lineups x {2 * games:,} games: ±{w_two:.4f} against "
             f"±{w_two_fixed:.4f}"),
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="2,000 games per lineup")
    args = p.parse_args(argv)
    result = rows(args.quick)
    head = ["benchmark", "measured", "baseline (same run)", "ratio", "target", "result", "note"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in result:
        ratio = f"{r['ratio']:.2f}x" if r["ratio"] else "-"
        base = f"{r['baseline']:.3g} {r['unit']}" if r["baseline"] else "-"
        ok = {True: "pass", False: "**FAIL**", None: "-"}[r["passed"]]
        print(f"| {r['name']} | {r['value']:.3g} {r['unit']} | {base} | {ratio} | "
              f"{r['target']} | {ok} | {r['note']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
