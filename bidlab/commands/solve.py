"""``bidlab solve``: its parser, handler and output."""

from __future__ import annotations

import argparse
import json

from bidlab.commands.options import execution, no_progress, rules, seed_and_rules

EPILOG = """\
examples:
  bidlab solve fpsb --rule players=3            # the known answer: bids (n-1)/n x value
  bidlab solve fpsb --iterations 20000 --out fpsb3.sol --rule players=3 --json
  bidlab simulate fpsb --rule players=3 --strategy all=solved
  bidlab solve pitch --setting strength_steps=6      # a coarser abstraction
  bidlab tournament pitch solved+greedy solved:strength_steps=6+greedy -n 20000
  bidlab solve pitch --setting win=1                 # for the chance of winning the game
  bidlab tournament pitch solved:win=1+greedy strength+greedy -n 20000

A solve writes its solution where the `solved` policy finds it ($BIDLAB_SOLUTIONS, else
~/.local/share/bidlab/solutions, named by a digest of the rules and the abstraction),
unless --out names another file. Interrupted (Ctrl-C), it keeps a checkpoint next to
the file (FILE.checkpoint.npz) and the same command resumes from it; with the same
--seed and --iterations the file is the same bit for bit on any number of threads,
resumed or not.
"""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "solve", help="solve a game's bidding: an approximate equilibrium on an abstraction",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Compute an approximate equilibrium of the game's bidding decision by "
                    "regret minimization (fpsb: CFR+ at full width; pitch, vybory: Monte "
                    "Carlo CFR over deals; auktsion and aukcio: regret matching on rollout "
                    "values of every ceiling at sampled lots) on an abstraction of what a "
                    "bidder knows, measuring its exploitability on held-out deals as it "
                    "goes. The result "
                    "is played by the policy `solved` wherever a policy works.",
        epilog=EPILOG)
    p.add_argument("game", help="game name (see `bidlab games`; bridge is not solved)")
    seed_and_rules(p)
    p.add_argument("--iterations", type=int, metavar="N",
                   help="solver iterations (default: the game's, enough for its shipped "
                        "solution's exploitability)")
    p.add_argument("--time", type=float, metavar="SECONDS",
                   help="stop at the first measurement after this many seconds")
    p.add_argument("--out", metavar="FILE", help="solution file to write (default: where "
                   "`solved` finds it)")
    p.add_argument("--threads", type=int, help="numba threads (the file does not depend on it)")
    p.add_argument("--workers", type=int, metavar="N", help="share each iteration's deals out "
                   "over a local Dask cluster of N processes (the same file)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="... or over a running Dask cluster "
                   "(tcp://host:8786)")
    p.add_argument("--setting", action="append", metavar="KEY=VALUE",
                   help="an abstraction setting, for a coarser or finer solution (pitch: "
                        "strength_steps=N, default 12; score_buckets=N, default 5, 1 is blind "
                        "to the score; win=1 maximizes the chance of winning the game instead "
                        "of the final margin; play it with solved:strength_steps=N and so "
                        "on); repeatable")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    no_progress(p, "no progress bar")


def run(args) -> None:
    from analysis.solve import solve
    result = solve(args.game, rules(args), args.rules, iterations=args.iterations,
                   seconds=args.time, seed=args.seed, out=args.out, **execution(args),
                   settings=_settings(args.setting),
                   progress=False if args.no_progress or args.json else None)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return
    print(format_result(result))


def _settings(items: list[str] | None) -> dict:
    from sim.rules import parse_assignments
    out = {}
    for key, value in parse_assignments(items, what="--setting").items():
        try:
            out[key] = int(value)
        except ValueError:
            out[key] = value
    return out


def format_result(result) -> str:
    """The solve in a few lines and its exploitability curve as a table."""
    import pandas as pd

    from bidlab.output import table_lines
    s, a = result.solution, result.solution.abstraction
    from reports import text as W
    curve = result.curve
    cells = W.intervals([c["value"] for c in curve], [c["ci_low"] for c in curve],
                        [c["ci_high"] for c in curve])
    places = W.column_places([c["ci_low"] for c in curve], [c["ci_high"] for c in curve])
    extra = {}
    for key, name in (("in_sample", "in-sample"), ("relative_loss", "relative loss, %"),
                      ("bid_rmse", "bid RMSE")):
        if all(key in c for c in curve):
            values = [c[key] for c in curve]
            extra[name] = (W.nums(values, places) if key == "in_sample" else
                           W.nums(values, scale=100.0) if key == "relative_loss" else
                           W.nums(values))
    rows = pd.DataFrame({
        "iteration": [f"{c['iteration']:,}" for c in curve],
        "seconds": [f"{c['seconds']:.1f}" for c in curve],
        "exploitability [95% CI]": cells, **extra})
    last = result.curve[-1]
    resumed = f" (resumed at {result.resumed_from:,})" if result.resumed_from else ""
    return "\n".join([
        f"{s.game} solved: {s.meta['iterations']:,} iterations in {result.seconds:.1f} s{resumed}",
        f"abstraction {a['name']} v{a['version']}: {a['infosets']:,} information sets x "
        f"{a['actions']} actions",
        f"method: {s.meta['method']}", "",
        f"exploitability in the abstract game: the best response's gain on held-out deals "
        f"({last.get('unit', 'payoff')}), 95% CI", *table_lines(rows), "",
        f"written to {result.path}; play it with --strategy SEAT=solved"])
