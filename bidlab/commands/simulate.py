"""``bidlab simulate GAME``: play N matches, print the summary (or stream them to Parquet)."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap

from bidlab.commands.options import (
    execution,
    execution_options,
    game_options,
    no_progress,
    per_game,
    rules,
)
from bidlab.output import table_lines
from reports import text as W

EXAMPLES = """\
examples:
  bidlab games                                  # the games
  bidlab games auktsion                         # its rule keys (house variants)
  bidlab policies auktsion                      # its policies and their parameters
  bidlab simulate auktsion -n 100000 --seed 1
  bidlab simulate auktsion -n 100000 --strategy all=budget --strategy 0=value:multiple=1.5
  bidlab simulate auktsion -n 100000 --strategy 0,2=value --strategy 1,3=budget
  bidlab simulate pitch -n 2000 --strategy 0=strength:aggression=1.4+pimc:samples=8
  bidlab simulate auktsion -n 1000000 --rule players=3 --rule auction_form=sealed \\
      --out results.parquet --detail
  bidlab trace auktsion --seed 1 --index 7      # the hand history of match 7 of that run
  bidlab simulate bridge -n 200 --pbn boards.pbn   # every board played, as PBN
  bidlab simulate bridge --boards boards.pbn --strategy all=natural:nt_min=14,nt_max=16
"""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "simulate", help="simulate N matches and print a summary",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play N matches (match i depends only on the seed and i, so every run "
                    "and every strategy sees the same deals) and print per strategy and seat "
                    "the mean match score and win share with 95% intervals.",
        epilog=EXAMPLES)
    game_options(p)
    p.add_argument("-n", type=int, help=f"number of matches (default: {per_game('default_n')})")
    p.add_argument("--out", metavar="PATH.parquet", help="write one row per match and seat "
                   "(columns match, seat, strategy, score, win, ...) to this Parquet file, "
                   "streamed chunk by chunk; provenance is in the file's metadata")
    p.add_argument("--detail", action="store_true", help="with --out, also write the game's "
                   "other tables next to it (auktsion: PATH.deals.parquet, PATH.lots.parquet)")
    execution_options(p)
    p.add_argument("--boards", metavar="FILE.pbn", help="bridge: play the boards of this PBN "
                   "file instead of dealing (match i is its i-th board; board number, dealer "
                   "and vulnerability from its tags, else by board number); -n defaults to "
                   "all of them")
    p.add_argument("--pbn", metavar="FILE", help="bridge: write every board played (deal, "
                   "auction, contract, declarer, tricks, score, par) to this PBN file")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    no_progress(p)


def run(args) -> None:
    from bidlab import api
    from sim.errors import BidlabError
    if args.detail and not args.out:
        raise BidlabError("--detail without --out: it only adds the game's other tables as "
                          "files next to --out PATH.parquet; give --out too, or leave out --detail")
    try:
        run = api.simulate(args.game, args.n, seed=args.seed, rules=rules(args),
                           rules_file=args.rules, strategies=args.strategy, out=args.out,
                           detail=args.detail, **execution(args),
                           progress=False if args.no_progress else None, boards=args.boards,
                           pbn=args.pbn)
    except KeyboardInterrupt:
        _interrupted("simulate", args.out)
    if args.json:
        print(json.dumps({"provenance": run.provenance,
                          "summary": json.loads(run.summary.to_json(orient="records")),
                          "game_summary": json.loads(run.game_summary.to_json(orient="records"))},
                         indent=1))
        return
    print(format_summary(run))
    if args.out:
        print(f"\nresults: {args.out}" + (" (+ detail tables next to it)" if args.detail else ""))
    if args.pbn:
        print(f"boards: {args.pbn} ({run.completed:,} boards, PBN)")


def _interrupted(command: str, out: str | None) -> None:
    """One line on what an interrupted run left, then exit 130."""
    where = ""
    if out:
        from sim.sinks import read_provenance
        try:
            held = read_provenance(out).get("matches", 0)
            where = f": {out} holds the {held:,} matches completed before the stop (marked " \
                    f"incomplete in its provenance)"
        except (OSError, ValueError):
            where = f": nothing was written to {out} yet"
    print(f"bidlab {command}: interrupted{where}", file=sys.stderr)
    raise SystemExit(130)


def format_summary(run) -> str:
    """The summary as a human-readable table."""
    p = run.provenance
    rules = ", ".join(f"{k}={json.dumps(v).replace(' ', '')}" for k, v in p["rules"].items())
    source = f", boards of {p['boards']['file']}" if "boards" in p else ""
    lines = [f"{p['game']}: {run.completed:,} matches, seed {p['seed']}{source}, "
             f"{p['seconds']:.1f} s", textwrap.fill(f"rules: {rules}", 100,
                                                     subsequent_indent="  "), ""]
    import pandas as pd

    frame = run.summary
    seat_rows = frame["by"] == "seat"
    parts = frame["name"].str.partition(" ")
    shown = {"by": frame["by"], "seat": parts[0].where(seat_rows, ""),
             "strategy": parts[2].where(seat_rows, frame["name"]),
             "matches": frame["matches"].map("{:,}".format)}
    for m in [c for c in frame.columns if c + "_ci_low" in frame.columns]:
        title = {"win": "win share, %", "score": "match score"}.get(m, m.replace("_", " "))
        shown[title] = W.intervals(frame[m], frame[m + "_ci_low"], frame[m + "_ci_high"],
                                   100.0 if m == "win" else 1.0)
    lines += table_lines(pd.DataFrame(shown))
    lines.append("\nmeans with 95% intervals [low, high]; win share: ties split; a strategy "
                 "in several seats is averaged over its seats per match")
    if not run.game_summary.empty:
        lines.append(format_game_summary(run.game_summary))
    return "\n".join(lines)


def format_game_summary(frame) -> str:
    """Game-level figures (``Simulation.game_summary``): per-match means, then one row
    per ratio and strategy (``all``: every seat together)."""
    import pandas as pd

    def cells(rows, scale=1.0):
        """A column of "value [low, high]" cells at one precision ("-": nothing to divide by)."""
        shown = W.intervals(rows["value"], rows["ci_low"], rows["ci_high"], scale)
        return ["-" if v != v else c for v, c in zip(rows["value"], shown)]

    lines = [""]
    per_match = frame[frame["by"] == "match"]
    for metric, shown in zip(per_match["metric"], cells(per_match)):
        lines.append(f"{metric}: {shown} (95% interval)")
    ratios = frame[frame["by"] != "match"].copy()
    if not ratios.empty:
        # Titles "GROUP: CASE" (e.g. "bid made rate by contract: 2") share one table.
        split = ratios["metric"].str.partition(": ")
        ratios["group"], ratios["case"] = split[0], split[2].where(split[2] != "", split[0])
        if ratios.loc[ratios["name"] != "all", "name"].nunique() == 1:
            ratios = ratios[ratios["name"] == "all"]  # one strategy: its rows repeat "all"
        for group in dict.fromkeys(ratios["group"]):
            part = ratios[ratios["group"] == group]
            order = {name: i for i, name in enumerate(dict.fromkeys(part["name"]))}
            part = part.iloc[sorted(range(len(part)), key=lambda i: order[part["name"].iloc[i]])]
            column = group.rpartition(" by ")[2] if " by " in group else "case"
            table = pd.DataFrame({"strategy": part["name"], column: part["case"],
                                  "n": [f"{c:,}" for c in part["count"]],
                                  "rate, % [95% interval]": cells(part, 100.0)})
            lines.append(f"\n{group} (n: the denominator; intervals clustered by match):")
            lines += table_lines(table)
    return "\n".join(lines)
