"""``bidlab tournament GAME STRATEGY...``: the duplicate comparison of strategies."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

from bidlab.commands.options import (
    execution,
    execution_options,
    no_progress,
    per_game,
    rules,
    seed_and_rules,
)
from bidlab.output import table_lines
from reports import text as W

TOURNAMENT_EXAMPLES = """\
examples:
  bidlab tournament pitch strength+greedy strength+random random+random -n 20000 --seed 1
  bidlab tournament auktsion budget value:multiple=1.5 random -n 20000 --json
  bidlab tournament vybory expected+greedy random+random -n 5000 --out vybory.parquet
  bidlab tournament bridge natural natural:nt_min=14,nt_max=16 -n 500
  bidlab tournament pitch strength+greedy strength+greedy -n 20000   # the noise: A against A

With k strategies and n seats the design has k lineups (2k where the balance of who sits
after whom needs it: e.g. 3 strategies at 4 seats, or k = n odd); each lineup plays the
same N matches, so N x lineups matches are played in all.
"""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "tournament", help="compare strategies on the same matches, every one in every seat",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="The duplicate form of comparing strategies: the same N matches (same "
                    "seed, so the same deals) are played once per lineup of a balanced "
                    "design in which every STRATEGY sits in every seat equally often and, "
                    "where the seat count allows, directly after every other strategy "
                    "equally often (a Williams design); with fewer strategies than seats the "
                    "lineups fill the table with strategies repeated in a balanced way. "
                    "Prints the design, each strategy's mean match score and win share with "
                    "95% intervals clustered by match (every lineup of match i is one "
                    "unit), every pair's paired difference with its interval and a "
                    "Holm-adjusted p-value, and the probability that the leader is best "
                    "(bootstrap over matches). Strategies are ranked by the game's objective "
                    "(vybory: win share, as its scores are not zero-sum; the others: match "
                    "score). bridge seats one strategy per side (North-South, East-West): "
                    "with two strategies it is a team match, in total points.",
        epilog=TOURNAMENT_EXAMPLES)
    p.add_argument("game", help="game name (see `bidlab games`)")
    p.add_argument("strategies", nargs="+", metavar="STRATEGY",
                   help="NAME[:param=value,...] (see `bidlab policies GAME`); at least two; "
                        "the same one twice is allowed (its copy is named NAME #2)")
    p.add_argument("-n", type=int, help="matches per lineup, the same in every lineup "
                   f"(default: {per_game('default_n')})")
    seed_and_rules(p)
    p.add_argument("--balance", choices=["after", "seats"], default="after",
                   help="after: seats and who sits after whom, where at most 2k lineups allow "
                        "it; seats: seats only, always k lineups (default %(default)s)")
    p.add_argument("--out", metavar="PATH.parquet", help="write one row per match, lineup and "
                   "seat (columns match, lineup, seat, strategy, score, win, ...) to this "
                   "Parquet file; provenance (design included) is in the file's metadata")
    p.add_argument("--boards", metavar="FILE.pbn", help="bridge: play the boards of this PBN "
                   "file instead of dealing; -n defaults to all of them")
    execution_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    no_progress(p)


def run(args) -> None:
    from bidlab import api
    try:
        result = api.tournament(args.game, args.strategies, args.n, seed=args.seed,
                                rules=rules(args), rules_file=args.rules, out=args.out,
                                balance=args.balance, boards=args.boards, **execution(args),
                                progress=False if args.no_progress else None)
    except KeyboardInterrupt:
        if args.out:
            print(f"interrupted: {args.out} holds every chunk completed before the stop",
                  file=sys.stderr)
        raise SystemExit(130) from None
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return
    print(format_tournament(result))
    if args.out:
        print(f"\nresults: {args.out}")


def _letters(k: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(k)] if k <= 26 else [str(i + 1) for i in range(k)]


def format_tournament(result) -> str:
    """A tournament (``analysis.tournament.Tournament``) as text: the design, the
    strategies best first, the pairwise differences, the leader."""
    import pandas as pd

    from analysis.design import position_names
    from analysis.tournament import METRIC_TITLES
    p, d = result.provenance, result.design
    letters = _letters(d.k)
    letter_of = dict(zip(result.names, letters))
    rules = ", ".join(f"{k}={json.dumps(v).replace(' ', '')}" for k, v in p["rules"].items())
    source = f", boards of {p['boards']['file']}" if "boards" in p else ""
    played = p["n"] * len(d.lineups)
    lines = [f"{p['game']} tournament: {d.k} strategies, {len(d.lineups)} lineups x "
             f"{p['n']:,} matches (the same matches in every lineup; {played:,} played), "
             f"seed {p['seed']}{source}, {p['seconds']:.1f} s",
             textwrap.fill(f"rules: {rules}", 100, subsequent_indent="  "), ""]
    heads = position_names(p["game"], d.n)
    word = "side" if p["game"] == "bridge" else "seat"
    lines.append(f"design: {d.describe(word)}")
    design = pd.DataFrame([[str(i + 1), *[letters[a] for a in row]]
                           for i, row in enumerate(d.lineups)], columns=["lineup", *heads])
    lines += ["  " + line for line in table_lines(design)]
    lines.append("  " + ", ".join(f"{letter_of[name]} = {name}" for name in result.names))
    metric = result.metric
    other = [m for m in METRIC_TITLES if m != metric]
    f = result.frame
    lines += ["", textwrap.fill(f"ranked by {METRIC_TITLES[metric]} (the game's objective); "
                                f"a strategy's value in a match is its mean over every lineup "
                                f"and {word} it holds; 95% intervals clustered by match", 100)]
    extra = [c for c in f.columns if c + "_ci_low" in f.columns and c not in METRIC_TITLES]
    scale = {m: 100.0 if m == "win" else 1.0 for m in (*METRIC_TITLES, *extra)}

    def title_of(m):
        return METRIC_TITLES.get(m, m.replace("_", " ")) + (", %" if m == "win" else "")

    shown = {"rank": f["rank"].astype(str),
             "strategy": [f"{letter_of[n]} {n}" for n in f["name"]]}
    for m in (metric, *other, *extra):
        shown[f"{title_of(m)} [95% CI]"] = W.intervals(f[m], f[m + "_ci_low"],
                                                       f[m + "_ci_high"], scale[m])
    shown["P(best)"] = f["p_best"].map("{:.2f}".format)
    lines += table_lines(pd.DataFrame(shown))
    diffs = result.differences
    pairs = diffs[diffs["metric"] == metric].reset_index(drop=True)
    if len(pairs):
        lines += ["", textwrap.fill(
            f"paired differences, first minus second, per match (the same deals, averaged "
            f"over lineups and {word}s); p: paired t-test, Holm-adjusted over the "
            f"{len(pairs)} pair{'s' if len(pairs) != 1 else ''}", 100)]
        shown = {"first": [letter_of[n] for n in pairs["first"]],
                 "second": [letter_of[n] for n in pairs["second"]]}
        for m in (metric, *other):
            part = diffs[diffs["metric"] == m].reset_index(drop=True)
            cells = W.intervals(part["diff"], part["ci_low"], part["ci_high"], scale[m], sign=True)
            shown[f"{title_of(m)} diff [95% CI]"] = [
                W.ZERO if W.all_zero(*r) else c
                for r, c in zip(zip(part["diff"], part["ci_low"], part["ci_high"]), cells)]
            shown[f"p ({m})"] = part["p_holm"].map(W.p_text)
        lines += table_lines(pd.DataFrame(shown))
    lines.append(f"\nleader: {letter_of[result.leader]} {result.leader} (probability it is "
                 f"best: {result.p_best:.2f}, bootstrap over matches)")
    return "\n".join(lines)
