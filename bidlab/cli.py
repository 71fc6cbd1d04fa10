"""The ``bidlab`` command line: a thin layer over :mod:`bidlab.api`."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import textwrap

from bidlab import bridge_cli, solve_cli
from bidlab.output import print_table, table_lines
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

STRATEGY_HELP = """SEAT=NAME[:param=value,...]; SEAT is a seat number, a list of
seats (0,2) or 'all'; a strategy of several policies is NAME+NAME, each policy's
parameters after it (strength:aggression=1.4+pimc:samples=8) or all of them at the
end (strength+pimc:aggression=1.4,samples=8); later items override earlier ones;
unnamed seats get the game's default strategy (see `bidlab policies GAME`).
Repeatable."""

OPTIMIZE_SCALE = 2
"""``optimize`` plays this many times the game's ``default_n`` per evaluation by default."""


def _common_game_options(p: argparse.ArgumentParser, strategy: bool = True) -> None:
    p.add_argument("game", help="game name (see `bidlab games`)")
    _seed_and_rules(p)
    if strategy:
        p.add_argument("--strategy", action="append", metavar="SEAT=SPEC", help=STRATEGY_HELP)


def _seed_and_rules(p: argparse.ArgumentParser) -> None:
    """--seed, --rule and --rules, the same in every command that plays matches."""
    p.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="a house rule, e.g. --rule players=3 (see `bidlab games GAME`); repeatable")
    p.add_argument("--rules", metavar="FILE.toml", help="house rules from a TOML file of key = value "
                   "lines (--rule items override it)")


def _no_progress(p: argparse.ArgumentParser, what: str = "no progress bar") -> None:
    p.add_argument("--no-progress", action="store_true", help=what)


def build_parser() -> argparse.ArgumentParser:
    from reports.games import spec_for
    from reports.spec import GENERIC_SECTIONS

    parser = argparse.ArgumentParser(
        prog="bidlab", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Monte Carlo strategy analysis for auction card games: simulate millions "
                    "of matches under pluggable bidding strategies and summarize equity and "
                    "win rates with 95% intervals.", epilog=EXAMPLES)
    parser.add_argument("--version", action="version", version=f"bidlab {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("games", help="list the games, or the rule keys of one game",
                       description="Without GAME: the games. With GAME: its rule keys "
                                   "(house variants), defaults and allowed values.")
    p.add_argument("game", nargs="?", help="a game (see `bidlab games`): list its rule keys")

    p = sub.add_parser("policies", help="the policies of a game and their parameters",
                       description="Policies of GAME, their parameters with defaults and "
                                   "bounds. Use them as --strategy SEAT=NAME:param=value.")
    p.add_argument("game", help="game name (see `bidlab games`)")

    p = sub.add_parser(
        "simulate", help="simulate N matches and print a summary",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play N matches (match i depends only on the seed and i, so every run "
                    "and every strategy sees the same deals) and print per strategy and seat "
                    "the mean match score and win share with 95% intervals.",
        epilog=EXAMPLES)
    _common_game_options(p)
    p.add_argument("-n", type=int, help=f"number of matches (default: {_per_game('default_n')})")
    p.add_argument("--out", metavar="PATH.parquet", help="write one row per match and seat "
                   "(columns match, seat, strategy, score, win, ...) to this Parquet file, "
                   "streamed chunk by chunk; provenance is in the file's metadata")
    p.add_argument("--detail", action="store_true", help="with --out, also write the game's "
                   "other tables next to it (auktsion: PATH.deals.parquet, PATH.lots.parquet)")
    _execution_options(p)
    p.add_argument("--boards", metavar="FILE.pbn", help="bridge: play the boards of this PBN "
                   "file instead of dealing (match i is its i-th board; board number, dealer "
                   "and vulnerability from its tags, else by board number); -n defaults to "
                   "all of them")
    p.add_argument("--pbn", metavar="FILE", help="bridge: write every board played (deal, "
                   "auction, contract, declarer, tricks, score, par) to this PBN file")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    _no_progress(p)

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
               "plays that variant's own solution (`bidlab solve`; fpsb, auktsion: solved,\n"
               "pitch and vybory: solved+greedy), so a rule's effect includes how good players change\n"
               "their bidding for it; without --solved the strategies stay fixed (\"what if\n"
               "nobody adapts\"). A variant whose solution is neither in $BIDLAB_SOLUTIONS\n"
               "(else ~/.local/share/bidlab/solutions) nor shipped stops the command before\n"
               "anything is played, with the `bidlab solve` command of every missing one;\n"
               "--solve-missing solves them first instead (minutes each for pitch and vybory).\n"
               "  bidlab compare fpsb --variant players=3 --variant players=4 --solved\n"
               "  bidlab solve pitch --rule smudge=true          # once, several minutes\n"
               "  bidlab compare pitch --variant default --variant smudge=true --solved "
               "-n 20000\n")
    _common_game_options(p)
    p.add_argument("--variant", action="append", metavar="VARIANT", required=True,
                   help="'default', KEY=VALUE[,KEY=VALUE...] (rules), 'strategy SEAT=SPEC "
                        "...' (strategies), or parts of both joined by ';' (see below); "
                        "repeatable")
    p.add_argument("-n", type=int, help=f"matches per variant (default: {_per_game('default_n')})")
    p.add_argument("--solved", action="store_true",
                   help="every seat of each variant plays that variant's own solution "
                        "(players who adapt to the rule); with no --strategy and house-rule "
                        "variants only; a missing solution stops the command with the "
                        "`bidlab solve` command that makes it (see below)")
    p.add_argument("--solve-missing", action="store_true",
                   help="with --solved: solve the variants that have no solution first, at "
                        "the solver's default iterations, where `solved` finds them")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _no_progress(p)

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
                   f"{_per_game('default_n', OPTIMIZE_SCALE)})")
    p.add_argument("--holdout", type=int, metavar="M", help="fresh matches the tuned responder "
                   "is scored on, N..N+M-1 of the same seed (default: M = N)")
    _seed_and_rules(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    _no_progress(p, "no progress lines on stderr (each evaluation's log line)")

    p = sub.add_parser(
        "bid-ev", help="expected outcome of each candidate action in a situation",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Describe your hand and the public state; bidlab deals the hidden cards "
                    "at random consistently with what is public, plays each candidate action "
                    "now and lets the strategies (yours included) play the rest of the match. "
                    "Every candidate sees the same rollouts (common random numbers). Prints the "
                    "expected match score and win share of each candidate with 95% intervals, "
                    "the best action and the probability that it is best.",
        epilog="examples:\n"
               "  bidlab bid-ev auktsion --hand 'AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H' \\\n"
               "      --state money=36,38,37,39 --state lot=7 --state price=3 "
               "--state high_bidder=3\n"
               "  bidlab bid-ev auktsion --hand '...' --state money=20,20,20,20 --state deal=3 "
               "--state lot=A \\\n      --candidates pass,5..12 --rollouts 50000\n"
               "  bidlab bid-ev pitch --hand 'AH KH 7H 2H 9C 3D' --seat 2 --state dealer=3 "
               "--state bids=pass,2 --state scores=3,5,0,6\n"
               "  bidlab bid-ev bridge --hand S=KQ52.AJ3.742.Q87 --state board=1 "
               "--state calls=1H,P \\\n      --state 'hcp=N=11-21' --state shape=N=H5- "
               "--candidates 2H,3H,4H\n"
               "  bidlab bid-ev pitch --help       # the situation keys of pitch only\n"
               + _situations_help(), add_help=False)
    p.add_argument("-h", "--help", action=_GameHelp, help="show this help (with GAME "
                   "before it, only that game's situation keys) and exit")
    _common_game_options(p)
    _no_progress(p)
    p.add_argument("--seat", help="your seat (default 0)")
    p.add_argument("--hand", required=True, help="your cards, e.g. 'AH KH 7D 2C' (rank then "
                   "suit); bridge: PBN S.H.D.C, e.g. S=AKQ52.K3.742.Q87 (seat optional)")
    p.add_argument("--state", action="append", metavar="KEY=VALUE",
                   help="public state, one key at a time (see below); repeatable")
    p.add_argument("--candidates", action="append", metavar="LIST",
                   help="actions to compare, e.g. pass,5,6,8 or 4..11; bridge: 2S,3S,4S or "
                        "P,X (default: the game's typical set, see below)")
    p.add_argument("--rollouts", type=int, help="rollouts per candidate (default: "
                   f"{_per_game('bidev_rollouts')})")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("trace", help="print the hand history of one match (JSON or text)",
                       formatter_class=argparse.RawDescriptionHelpFormatter,
                       description="Print match INDEX of the run with SEED as JSON: hands, "
                                   "every call, every score (the same match `simulate` plays "
                                   "with the same seed, rules and strategies); with --text "
                                   "as a hand history to read.",
                       epilog="examples:\n  bidlab trace auktsion --seed 1 --index 7 --check\n"
                              "  bidlab trace pitch --seed 1 --index 0 --text\n"
                              "  bidlab trace bridge --seed 1 --index 3 --pbn\n"
                              "  bidlab trace bridge --boards hands.pbn --index 0 --check\n")
    _common_game_options(p)
    p.add_argument("--index", type=int, default=0, help="match index (default %(default)s)")
    p.add_argument("--check", action="store_true",
                   help="also replay it through the plain-Python referee")
    p.add_argument("--boards", metavar="FILE.pbn", help="bridge: the board comes from this "
                   "PBN file (--index selects it, from 0), as `simulate --boards` plays it")
    _no_progress(p, "accepted as by the other commands (trace plays one match: no bar)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--text", action="store_true", help="print a hand history to read "
                      "instead of JSON: the header, each deal's hands by suit, every call and "
                      "trick in order, the scores (bridge: the diagram, the auction, the "
                      "double-dummy table)")
    form.add_argument("--pbn", action="store_true", help="bridge: print the board as PBN "
                      "instead of JSON")

    bridge_cli.add_parser(sub)
    solve_cli.add_parser(sub, _seed_and_rules, _no_progress)
    _add_tournament_parser(sub)

    p = sub.add_parser(
        "report", help="the statistics report of every game (HTML, Markdown, figures, data)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Simulate each GAME (default: every game) and write a report a person "
                    "would want to read: rules and strategies, equity and win rates, money "
                    "flow, prices or contracts, optimal bids and house-variant comparisons, "
                    "each with 95% intervals and a one-sentence reading. Writes DIR/report.html "
                    "(self-contained: figures embedded, no network needed), DIR/report.md, "
                    "DIR/figures/*.png, DIR/data/*.parquet (the numbers behind every table and "
                    "figure) and DIR/provenance.json.",
        epilog="examples:\n  bidlab report                       # every game, default sizes\n"
               "  bidlab report auktsion -n 50000 --out auktsion-report\n"
               "  bidlab report fpsb --sections equity,equilibrium\n")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to report (default: all)")
    p.add_argument("-n", type=int, help="matches in each game's main runs (default: per game, "
                   f"e.g. {spec_for('auktsion').n} for auktsion); the game's other runs scale "
                   f"with it")
    p.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    p.add_argument("--out", default="report", metavar="DIR",
                   help="output folder (default: %(default)s)")
    p.add_argument("--sections", metavar="ID[,ID...]", help="only these sections: "
                   f"{', '.join(GENERIC_SECTIONS)}, and a game's own (e.g. auktsion: "
                   f"{', '.join(spec_for('auktsion').extra)})")
    p.add_argument("--replace", action="store_true",
                   help="write even where DIR holds a report of more games or sections "
                        "(without it such a report is kept and this one refused)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return parser


def _per_game(attr: str, scale: int = 1) -> str:
    """A :class:`sim.game.Game` default for the help: the usual value, then every game
    that differs (``100000; bridge 1000``); ``bidev_rollouts`` only of games with bid-EV."""
    from sim.game import Game

    usual = getattr(Game, attr)
    odd = [f"{name} {scale * getattr(g, attr)}" for name, g in _games().items()
           if getattr(g, attr) != usual
           and (attr != "bidev_rollouts" or g.rollouts is not None)]
    return "; ".join([str(scale * usual), *odd])


def _games() -> dict:
    """Every game, for help texts; none where one fails to import (the help must never
    break the parser: that game's own commands report its error)."""
    from sim.games import all_games
    try:
        return all_games()
    except Exception:  # noqa: BLE001 - help text must never break the parser
        return {}


def _version() -> str:
    from sim.runner import version
    return version()


def cmd_games(args) -> None:
    from bidlab import api
    if args.game:
        keys = api.rule_keys(args.game)     # an unknown game: the one-line error, nothing else
        print(f"{args.game}: rule keys (set with --rule KEY=VALUE)\n")
        print_table(keys)
    else:
        for name, title in api.games().items():
            print(f"{name:10s} {title}")
        print("\n`bidlab games GAME` lists its rule keys; `bidlab policies GAME` its policies.")


def cmd_policies(args) -> None:
    from bidlab import api
    frame = api.policies(args.game)     # an unknown game: the one-line error, nothing else
    print(f"{args.game}: policies (use as --strategy SEAT=NAME:param=value,...)")
    decisions = [d for d in dict.fromkeys(frame["decision"]) if d and d != "bundle"]
    if len(decisions) > 1:
        print(f"a strategy names one policy per decision, joined by '+' ({' + '.join(decisions)}), "
              f"or a bundle; parameters follow ':', e.g. --strategy 0=NAME+NAME:param=value")
    for row in frame.itertuples():
        if row.policy:
            print(f"\n{row.decision}: {row.policy}")
            print(textwrap.fill(row.meaning, 96, initial_indent="    ", subsequent_indent="    "))
        else:
            print(f"    {row.param} = {row.default}  ({row.range}): {row.meaning}")


def _rules(args) -> dict[str, str]:
    from sim.rules import parse_assignments
    return parse_assignments(args.rule)


def _default_n(game: str) -> int:
    from sim.games import get_game
    return get_game(game).default_n


def cmd_simulate(args) -> None:
    from bidlab import api
    from sim.errors import BidlabError
    if args.detail and not args.out:
        raise BidlabError("--detail without --out: it only adds the game's other tables as "
                          "files next to --out PATH.parquet; give --out too, or leave out --detail")
    try:
        run = api.simulate(args.game, args.n, seed=args.seed, rules=_rules(args),
                           rules_file=args.rules, strategies=args.strategy, out=args.out,
                           detail=args.detail, chunk_size=args.chunk_size,
                           threads=args.threads, workers=args.workers, scheduler=args.scheduler,
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


def _situations_help(only: str | None = None) -> str:
    """The situation keys of every game that has bid-EV (or of game ``only``), for the
    help epilog, as plain text (the games' reST markup taken out)."""
    return "".join(f"\nsituation keys for {name} (--state KEY=VALUE; --seat and --hand also):\n"
                   + plain_text(g.situation_help) for name, g in _games().items()
                   if g.situation_help and (only is None or name == only))


def plain_text(text: str) -> str:
    """reST-ish help text for a terminal: ````x```` -> ``x``, keeping a definition
    list's columns aligned (a key's markup is 4 characters: its description and the
    indented lines under it move left by as much)."""
    import re
    lines, shift = [], 0
    for line in text.splitlines():
        m = re.match(r"``([^`]+)``(\s+)", line)
        if m:
            shift = 4
            line = m.group(1) + m.group(2) + line[m.end():]
        elif shift and line.startswith(" " * (shift + 1)):
            line = line[shift:]
        elif not line.startswith(" "):
            shift = 0
        lines.append(line)
    plain = re.sub(r"``(.*?)``", r"\1", "\n".join(lines), flags=re.S)
    return plain + ("\n" if text.endswith("\n") else "")


class _GameHelp(argparse.Action):
    """``-h``/``--help`` of bid-ev: after GAME (``bid-ev pitch --help``) only that game's
    situation keys, else every game's."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help=None):
        super().__init__(option_strings, dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        game = getattr(namespace, "game", None)
        if game in _games():
            head = parser.epilog.split("\nsituation keys for ", 1)[0]
            parser.epilog = head + (_situations_help(game) or
                                    f"\n{game} has no bid-EV situations yet.\n")
        parser.print_help()
        parser.exit()


def cmd_bid_ev(args) -> None:
    from analysis.bidev import bid_ev
    from sim.rules import load_rules_file, parse_assignments
    situation = parse_assignments(args.state, what="--state")
    situation["hand"] = args.hand
    if args.seat is not None:
        situation["seat"] = args.seat
    rules = {**(load_rules_file(args.rules) if args.rules else {}), **_rules(args)}
    result = bid_ev(args.game, situation, rollouts=args.rollouts, seed=args.seed, rules=rules,
                    strategies=args.strategy, candidates=args.candidates,
                    progress=False if args.no_progress else None)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
        return
    import pandas as pd

    f = result.grouped()  # candidates with the same outcome in every rollout: one row
    by_win = result.metric == "win"
    titles = result.outcomes
    scale = 100.0 if by_win else 1.0
    extra = {f"{titles[name]} [95% CI]": W.intervals(f[name], f[f"{name}_ci_low"], f[f"{name}_ci_high"],
                                                    sign=True)
             for name in titles if name not in ("score", "win")}
    shown = pd.DataFrame({
        "action": f["action"],
        titles["win" if by_win else "score"] + (", %" if by_win else "") + " [95% CI]":
            W.intervals(f["mean"], f["ci_low"], f["ci_high"], scale),
        "vs best [95% CI]": W.intervals(f["diff_vs_best"], f["diff_ci_low"], f["diff_ci_high"], scale,
                                        sign=True),
        **extra,
        **({titles["score"]: W.nums(f["score"])} if by_win else
           {titles["win"] + ", %": W.nums(f["win"], scale=100.0)}),
        "P(best)": [W.num(p, 2) for p in f["p_best"]]})
    print(f"{args.game}: {result.provenance['rollouts']:,} rollouts per candidate, seed {args.seed}"
          + (f", ranked by {titles['win']} ({titles['score']} beside it)" if by_win else ""))
    tell = result.situation.get("calls_tell")
    if tell:
        print(f"hidden hands of {', '.join(tell)} dealt to make their calls so far as their "
              f"strategy bids them (--state infer=no: from hcp/shape alone)")
    share = result.situation.get("conditioned")
    if share is not None:
        seats = ", ".join(str(q) for q in result.situation["conditioned_seats"])
        print(f"hidden hands of seat(s) {seats} dealt so that their election policies make "
              f"the calls they made ({share:.1%} of rollouts; --state infer=no: at random)")
    told = result.points_told()
    if told:
        print(f"hidden hands dealt with the points their coins tell (A3): "
              f"{', '.join(f'seat {s} {p}' for s, p in told)} (--state infer=no: at random)")
    print()
    print_table(shown)
    best = f[[result.best in a for a in f["actions"]]].iloc[0]
    if best["size"] > 1:
        print(f"\nbest: any of {best['action']}: they give the same outcome in every rollout "
              f"(probability this group is best: {best['p_best']:.2f})")
    else:
        print(f"\nbest: {result.best} (probability it is best: {result.p_best:.2f})")


def cmd_trace(args) -> None:
    from bidlab import api
    from sim.errors import BidlabError
    from sim.games import get_game
    game = get_game(args.game)
    boards = game.boards
    if args.pbn and boards is None:
        raise BidlabError(f"--pbn: {args.game} has no board notation (bridge prints PBN)")
    if args.text and game.trace_text is None:
        raise BidlabError(f"--text: {args.game} has no text hand history yet (its "
                          f"trace.py defines no text()); leave out --text for the JSON")
    result = api.trace(args.game, seed=args.seed, index=args.index, rules=_rules(args),
                       rules_file=args.rules, strategies=args.strategy, check=args.check,
                       boards=args.boards)
    if args.pbn:
        print(boards.text(result), end="")
    elif args.text:
        print(game.trace_text(result), end="")
    else:
        print(json.dumps(result, indent=1))
    if args.check:
        print("referee: every call and every score checks out", file=sys.stderr)


def cmd_compare(args) -> None:
    from analysis.compare import compare
    from sim.rules import load_rules_file
    rules = {**(load_rules_file(args.rules) if args.rules else {}), **_rules(args)}
    n = args.n if args.n is not None else _default_n(args.game)
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


def cmd_optimize(args) -> None:
    import pandas as pd

    from analysis.optimize import optimize
    from sim.rules import load_rules_file
    log = None if args.json or args.no_progress else (lambda line: print(line, file=sys.stderr))
    n = args.n if args.n is not None else OPTIMIZE_SCALE * _default_n(args.game)
    rules = {**(load_rules_file(args.rules) if args.rules else {}), **_rules(args)}
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


def _add_tournament_parser(sub) -> None:
    """``bidlab tournament GAME STRATEGY...``: the duplicate comparison of strategies."""

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
                   f"(default: {_per_game('default_n')})")
    p.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    p.add_argument("--rule", action="append", metavar="KEY=VALUE",
                   help="a house rule, e.g. --rule players=3 (see `bidlab games GAME`); repeatable")
    p.add_argument("--rules", metavar="FILE.toml", help="house rules from a TOML file of key = "
                   "value lines (--rule items override it)")
    p.add_argument("--balance", choices=["after", "seats"], default="after",
                   help="after: seats and who sits after whom, where at most 2k lineups allow "
                        "it; seats: seats only, always k lineups (default %(default)s)")
    p.add_argument("--out", metavar="PATH.parquet", help="write one row per match, lineup and "
                   "seat (columns match, lineup, seat, strategy, score, win, ...) to this "
                   "Parquet file; provenance (design included) is in the file's metadata")
    p.add_argument("--boards", metavar="FILE.pbn", help="bridge: play the boards of this PBN "
                   "file instead of dealing; -n defaults to all of them")
    _execution_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _execution_options(p) -> None:
    """Where and how matches run: threads, chunks, a Dask cluster (same results)."""
    from sim.runner import BLOCK, DEFAULT_CHUNK

    p.add_argument("--threads", type=int, metavar="T", help="numba threads in this process "
                   "(default: all cores)")
    p.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK, metavar="C",
                   help=f"matches per chunk, a multiple of {BLOCK} (default %(default)s)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N",
                       help="run chunks on a local Dask cluster of N worker processes")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run chunks on an existing Dask cluster, e.g. tcp://host:8786 "
                            "(bidlab of the same version must be installed on its workers)")


def cmd_tournament(args) -> None:
    from bidlab import api
    from sim.runner import check_options
    check_options(args.chunk_size, args.threads, args.workers, args.scheduler)
    try:
        result = api.tournament(args.game, args.strategies, args.n, seed=args.seed,
                                rules=_rules(args), rules_file=args.rules, out=args.out,
                                balance=args.balance, chunk_size=args.chunk_size,
                                threads=args.threads, workers=args.workers,
                                scheduler=args.scheduler, boards=args.boards,
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

    from analysis.tournament import METRIC_TITLES, position_names
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


def cmd_report(args) -> None:
    from pathlib import Path

    from reports.report import ReportInterrupted, build_report
    sections = [t.strip() for t in args.sections.split(",") if t.strip()] if args.sections else None
    try:
        result = build_report(args.games or None, n=args.n, seed=args.seed, out=args.out,
                              sections=sections, progress=False if args.no_progress else None,
                              replace=args.replace)
    except ReportInterrupted as e:
        done = sum(len(g.sections) for g in e.result.document.games)
        print(f"bidlab report: {e}: {Path(e.result.html).resolve()} holds "
              f"the {done} sections completed before it (provenance.json: partial)",
              file=sys.stderr)
        raise SystemExit(130) from None
    html = Path(result.html).resolve()
    print(f"report: {html}\n  open: {html.as_uri()}\n  markdown: {result.markdown}\n"
          f"  figures: {len(result.figures)} PNG in {Path(args.out) / 'figures'}\n"
          f"  data: {len(result.data)} Parquet in {Path(args.out) / 'data'}\n"
          f"  {result.seconds:.0f} s")
    if result.failures:
        for f in result.failures:
            print(f"bidlab report: section failed: {f}", file=sys.stderr)
        raise SystemExit(1)


COMMANDS = {"games": cmd_games, "policies": cmd_policies, "simulate": cmd_simulate,
            "trace": cmd_trace, "compare": cmd_compare, "optimize": cmd_optimize,
            "bid-ev": cmd_bid_ev, "report": cmd_report, "bridge": bridge_cli.cmd_bridge,
            "tournament": cmd_tournament,
            "solve": lambda args: solve_cli.cmd_solve(args, _rules(args))}


def _stop(signum, frame) -> None:
    """SIGTERM stops a command as Ctrl-C does: completed work is kept."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    from sim.errors import BidlabError
    signal.signal(signal.SIGTERM, _stop)
    try:
        COMMANDS[args.command](args)
    except BidlabError as e:
        print(f"bidlab {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"bidlab {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``bidlab trace ... | head``): not an error of ours. Point
        # stdout at /dev/null so that the interpreter's final flush stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        # A bad environment (a file that cannot be read or written, a full disk, no
        # network): one line naming what failed, never a traceback.
        where = f" {e.filename!r}" if getattr(e, "filename", None) else ""
        why = e.strerror or " ".join(str(e).split()) or type(e).__name__
        print(f"bidlab {args.command}: error:{where} {why}", file=sys.stderr)
        return 2
    return 0
