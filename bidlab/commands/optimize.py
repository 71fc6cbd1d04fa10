"""``bidlab optimize GAME --strategy ...``: tune a strategy (best response, self-play),
scored held out."""

from __future__ import annotations

import argparse
import json
import sys

from bidlab.commands.options import default_n, given_rules, no_progress, per_game, seed_and_rules
from bidlab.output import print_table
from reports import text as W

OPTIMIZE_SCALE = 2
"""``optimize`` plays this many times the game's ``default_n`` per evaluation by default."""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "optimize", help="tune a strategy's parameters (best response, self-play) and score "
                         "the tuned responder on fresh matches",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Tune the parameters of STRATEGY with a SciPy optimiser on common random "
                    "numbers (matches 0..N-1 of --seed), then score the tuned responder on "
                    "fresh, held-out matches (N..N+M-1 of the same seed, M = --holdout): its "
                    "gain over the profile, paired by match, with a 95% interval clustered by "
                    "match. The responders searched, the family F: the tuned policy over its "
                    "parameters (every continuous one by default, --param to restrict) and "
                    "each --responders policy over its own; each member is tuned, the best on "
                    "the tuning matches is the one scored held out. Parameters that cannot act "
                    "under the rules in force (e.g. auktsion budget's shade in the open "
                    "auction) are not tuned, and the output says so. Without --self-play: the "
                    "best response against --opponents in every other seat, and its held-out "
                    "gain over STRATEGY as given. With --self-play K: K steps toward a "
                    "symmetric equilibrium, each a best response to the previous profile (in "
                    "the tuned policy) or, every other step where it is safe, a Steffensen "
                    "(Aitken) extrapolation of the last three; every profile's exploitability "
                    "reads 'at least X (95% CI lo..hi) against responders from F', and the "
                    "result is the least exploitable profile found, not the last.",
        epilog="examples:\n  bidlab optimize fpsb --strategy linear --rule players=4 --self-play 6\n"
               "  bidlab optimize fpsb --strategy linear:a=0.2 --rule players=4 --responders capped\n"
               "  bidlab optimize auktsion --strategy budget --param aggression "
               "--opponents value -n 20000\n"
               "  bidlab optimize auktsion --strategy budget --self-play 3 -n 20000\n")
    p.add_argument("game", help="game name (see `bidlab games`)")
    p.add_argument("--strategy", required=True, metavar="NAME[:param=value,...]",
                   help="the strategy to tune; its given values are the starting point")
    p.add_argument("--opponents", metavar="NAME[:param=value,...]",
                   help="the strategy of every other seat (default: the tuned strategy as given)")
    p.add_argument("--param", action="append", metavar="NAME",
                   help="a parameter to tune (default: all continuous ones that act under the "
                        "rules); repeatable")
    p.add_argument("--responders", metavar="POLICY,...",
                   help="other policies of the tuned decision to add to the family of "
                        "responders, each tuned over its continuous parameters (e.g. fpsb: "
                        "capped)")
    p.add_argument("--seat", type=int, help="tune for this seat only (default: the mean over "
                   "all seats, so seat advantages cancel)")
    p.add_argument("--self-play", type=int, default=0, metavar="K",
                   help="best-response iterations toward a symmetric equilibrium")
    p.add_argument("-n", type=int, help="tuning matches per evaluation (default: "
                   f"{per_game('default_n', OPTIMIZE_SCALE)})")
    p.add_argument("--holdout", type=int, metavar="M", help="fresh matches the tuned responder "
                   "is scored on, N..N+M-1 of the same seed (default: M = N)")
    seed_and_rules(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    no_progress(p, "no progress lines on stderr (each evaluation's log line)")


def run(args) -> None:
    import pandas as pd

    from analysis.optimize import optimize
    log = None if args.json or args.no_progress else (lambda line: print(line, file=sys.stderr))
    n = args.n if args.n is not None else OPTIMIZE_SCALE * default_n(args.game)
    rules = given_rules(args)
    result = optimize(args.game, args.strategy, n=n, seed=args.seed, rules=rules,
                      opponents=args.opponents, params=args.param, seat=args.seat,
                      self_play=args.self_play, responders=args.responders,
                      holdout=args.holdout, log=log)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return
    h, pv, e = result.history, result.provenance, result.exploitability
    unit = " win share" if pv["objective"] == "win" else " match score"
    scale = 100.0 if pv["objective"] == "win" else 1.0  # win share: in %, gains in points
    a, b = pv["holdout_matches"]
    print(f"{args.game}: tuning {args.strategy!r} on matches 0..{n - 1:,} of seed {args.seed} "
          f"({pv['evaluations']} evaluations, maximising the mean{unit}); each responder "
          f"scored on the fresh matches {a:,}..{b:,}, paired by match")
    print(f"family F of responders: {e['family']}")
    for item in result.not_tuned:
        print(f"not tuned: {item['policy']}.{item['param']} {item['why']}")
    print()
    mark = ["*" if i == e["iteration"] else "" for i in h["iteration"]]
    print_table(pd.DataFrame({
        "iteration": [f"{i}{m}" for i, m in zip(h["iteration"], mark)], "step": h["step"],
        "params": h["params"].map(str),
        "score" + (", %" if scale != 1 else ""): W.nums(h["score"], scale=scale,
                                                         places=W.plain_places(h["score"] * scale, 5)),
        "responder": h["responder"], "best_response": h["best_response"].map(str),
        "tuning gain": W.nums(h["tuning_gain"], scale=scale, sign=True),
        "held-out gain [95% CI]": W.intervals(h["gain"], h["gain_ci_low"], h["gain_ci_high"],
                                              scale, sign=True)}))
    claim = result.exploitability_text(" in mean" + unit + (" (percentage points)" if scale != 1
                                                             else ""), scale)
    if args.self_play:
        print(f"\nresult (*): iteration {e['iteration']}, the least exploitable profile found: "
              f"{result.best}\nexploitability: {claim} (held out)")
    elif args.opponents:
        print(f"\nresult: best response {result.best}\nits gain over {args.strategy!r} against "
              f"{args.opponents!r}: {claim} (held out)")
    else:
        print(f"\nresult: best response {result.best}\nexploitability of {args.strategy!r} "
              f"in every seat: {claim} (held out)")
    if e["stood_still"]:
        print("(no responder in F beat the profile on the tuning matches)")
