"""``bidlab compare GAME --variant ...``: house variants or strategies on the same
matches, paired by match (``--solved``: every seat playing its variant's own solution)."""

from __future__ import annotations

import argparse
import json
import sys

from bidlab.commands.options import default_n, game_options, given_rules, no_progress, per_game
from bidlab.output import print_table
from reports import text as W


def add_parser(sub) -> None:
    p = sub.add_parser(
        "compare", help="compare house variants, or strategies, on the same deals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play the same matches (same seed, so the same deals and random streams) "
                    "under each variant, a rule set, other strategies in some seats, or both, "
                    "and show every metric side by side with the paired difference against "
                    "the first variant, its 95% interval and a paired t-test. With one "
                    "--variant, the command's own rules and strategies are the baseline.",
        epilog="variants (--variant, repeatable; parts joined by ';'):\n"
               "  default                         the rules and strategies of the command\n"
               "  KEY=VALUE[,KEY=VALUE...]        house rules on top of them\n"
               "  strategy SEAT=SPEC [SEAT=SPEC]  strategies on top of --strategy (SEAT=SPEC\n"
               "                                  as in --strategy: 0=value, 0,2=value:multiple=2)\n"
               "  strategy 0=value; players=3     both\n"
               "Seat rows are paired seat by seat; a strategy's row is paired where the\n"
               "baseline has that strategy too.\n\n"
               "examples:\n  bidlab compare auktsion --variant carry_money=false\n"
               "  bidlab compare auktsion --variant default --variant min_raise=5 "
               "--variant auction_form=sealed -n 50000\n"
               "  # seat 0 plays value instead of budget, on the same matches:\n"
               "  bidlab compare auktsion --strategy all=budget --variant 'strategy 0=value' "
               "-n 20000\n"
               "  bidlab compare pitch --variant 'strategy 0=strength+greedy' \\\n"
               "      --variant 'strategy 0=strength:aggression=1.4+greedy' -n 20000\n\n"
               "house variants with players who adapt (--solved): every seat of each variant\n"
               "plays that variant's own solution (`bidlab solve`; fpsb, auktsion, aukcio:\n"
               "solved, pitch and vybory: solved+greedy), so a rule's effect includes how\n"
               "good players change their bidding for it; without --solved the strategies\n"
               "stay fixed (\"what if nobody adapts\"). A variant whose solution is neither\n"
               "in $BIDLAB_SOLUTIONS (else ~/.local/share/bidlab/solutions) nor shipped\n"
               "stops the command before anything is played, with the `bidlab solve` command\n"
               "of every missing one; --solve-missing solves them first instead (minutes\n"
               "each for pitch, vybory, auktsion and aukcio).\n"
               "  bidlab compare fpsb --variant players=3 --variant players=4 --solved\n"
               "  bidlab compare auktsion --variant default --variant carry_money=false "
               "--solved\n"
               "  bidlab solve pitch --rule min_bid=2            # once, a minute or two\n"
               "  bidlab compare pitch --variant default --variant min_bid=2 --solved "
               "-n 20000\n")
    game_options(p)
    p.add_argument("--variant", action="append", metavar="VARIANT", required=True,
                   help="'default', KEY=VALUE[,KEY=VALUE...] (rules), 'strategy SEAT=SPEC "
                        "...' (strategies), or parts of both joined by ';' (see below); "
                        "repeatable")
    p.add_argument("-n", type=int, help=f"matches per variant (default: {per_game('default_n')})")
    p.add_argument("--solved", action="store_true",
                   help="every seat of each variant plays that variant's own solution "
                        "(players who adapt to the rule); with no --strategy and house-rule "
                        "variants only; a missing solution stops the command with the "
                        "`bidlab solve` command that makes it (see below)")
    p.add_argument("--solve-missing", action="store_true",
                   help="with --solved: solve the variants that have no solution first, at "
                        "the solver's default iterations, where `solved` finds them")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    no_progress(p)


def run(args) -> None:
    from analysis.compare import compare
    rules = given_rules(args)
    n = args.n if args.n is not None else default_n(args.game)
    result = compare(args.game, args.variant, n, seed=args.seed, strategies=args.strategy,
                     rules=rules, progress=False if args.no_progress else None,
                     solved=args.solved, solve_missing=args.solve_missing,
                     log=None if args.no_progress else (
                         lambda line: print(line, file=sys.stderr)))
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return
    shown = format_comparison(result)
    print(f"{args.game}: {n:,} matches per variant, seed {args.seed}; differences are "
          f"against {next(iter(result.variants))!r}, paired by match")
    if result.solutions:
        from analysis import solved as AS
        print(f"players who adapt: every seat plays {AS.strategy(args.game)}, each variant "
              f"its own solution:")
        for label, sol in result.solutions.items():
            print(f"  {label}: {solution_line(sol)}")
    for label, seats in result.provenance.get("variant_strategies", {}).items():
        print(f"{label}: " + ", ".join(f"seat {s['seat']} {s['label']}" for s in seats))
    for label, why in result.left_out.items():
        print(f"{label}: {why}")
    print()
    print_table(shown)


def solution_line(sol: dict) -> str:
    """A solution's provenance in a line: file (a shipped one by its name: --json has
    the full path), source, iterations, held-out exploitability."""
    from pathlib import Path
    e = sol.get("exploitability", {})
    where = (f"{Path(sol['path']).name} (shipped with bidlab" if sol["source"] == "shipped"
             else f"{sol['path']} (made by bidlab solve")
    text = f"{where}; {sol['iterations']:,} iterations"
    if "value" in e:
        text += (f"; held-out exploitability {e['value']:.2g} [{e['ci_low']:.2g}, "
                 f"{e['ci_high']:.2g}]" + (f" {e['unit']}" if e.get("unit") else ""))
    return text + ")"


def format_comparison(result):
    """``compare``'s frame as a table: one block per metric, the seat in its own column,
    one number of decimals down each column of a block (win share in %); a change that
    is zero in every match says so, and the win share of a strategy that holds every
    seat (1/n by construction) is left out."""
    import pandas as pd

    baseline = next(iter(result.variants))
    f = result.frame
    only = f.loc[f["by"] == "strategy", "name"].nunique() == 1
    blocks = []
    for metric, part in f.groupby("metric", sort=False):
        if metric == "win" and only:
            part = part[part["by"] != "strategy"]
        scale = 100.0 if metric == "win" else 1.0
        base = (part["variant"] == baseline).to_numpy()
        same = [W.all_zero(*r) for r in zip(part["diff"], part["ci_low"], part["ci_high"])]
        cells = W.intervals(part["diff"], part["ci_low"], part["ci_high"], scale, sign=True)
        places = W.column_places(part["ci_low"] * scale, part["ci_high"] * scale)
        seat = part["by"] == "seat"
        name = part["name"].str.partition(" ")
        blocks.append(pd.DataFrame({
            "metric": "win share, %" if metric == "win" else metric,
            "seat": name[0].where(seat, "all"), "strategy": name[2].where(seat, part["name"]),
            "variant": part["variant"],
            "value": [W.num(v * scale, places) for v in part["value"]],
            "difference [95% CI]": ["(baseline)" if b else W.ZERO if z else c
                                    for b, z, c in zip(base, same, cells)],
            "p": ["" if b or z else W.p_text(p) for b, z, p in zip(base, same, part["p_value"])]}))
    return pd.concat(blocks, ignore_index=True)
