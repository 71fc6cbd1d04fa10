"""``bidlab bid-ev GAME --hand ... --state ...``: what each candidate call is worth
in a situation, on common rollouts."""

from __future__ import annotations

import argparse
import json

from bidlab.commands.options import game_options, games, given_rules, no_progress, per_game
from bidlab.output import print_table
from reports import text as W


def add_parser(sub) -> None:
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
    game_options(p)
    no_progress(p)
    p.add_argument("--seat", help="your seat (default 0)")
    p.add_argument("--hand", required=True, help="your cards, e.g. 'AH KH 7D 2C' (rank then "
                   "suit); bridge: PBN S.H.D.C, e.g. S=AKQ52.K3.742.Q87 (seat optional)")
    p.add_argument("--state", action="append", metavar="KEY=VALUE",
                   help="public state, one key at a time (see below); repeatable")
    p.add_argument("--candidates", action="append", metavar="LIST",
                   help="actions to compare, e.g. pass,5,6,8 or 4..11; bridge: 2S,3S,4S or "
                        "P,X (default: the game's typical set, see below)")
    p.add_argument("--rollouts", type=int, help="rollouts per candidate (default: "
                   f"{per_game('bidev_rollouts')})")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _situations_help(only: str | None = None) -> str:
    """The situation keys of every game that has bid-EV (or of game ``only``), for the
    help epilog, as plain text (the games' reST markup taken out)."""
    return "".join(f"\nsituation keys for {name} (--state KEY=VALUE; --seat and --hand also):\n"
                   + plain_text(g.situation_help) for name, g in games().items()
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
        if game in games():
            head = parser.epilog.split("\nsituation keys for ", 1)[0]
            parser.epilog = head + (_situations_help(game) or
                                    f"\n{game} has no bid-EV situations yet.\n")
        parser.print_help()
        parser.exit()


def run(args) -> None:
    from analysis.bidev import bid_ev
    from sim.rules import parse_assignments
    situation = parse_assignments(args.state, what="--state")
    situation["hand"] = args.hand
    if args.seat is not None:
        situation["seat"] = args.seat
    rules = given_rules(args)
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
