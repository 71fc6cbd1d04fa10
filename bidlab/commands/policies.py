"""``bidlab policies GAME``: a game's policies and their parameters."""

from __future__ import annotations

import textwrap


def add_parser(sub) -> None:
    p = sub.add_parser("policies", help="the policies of a game and their parameters",
                       description="Policies of GAME, their parameters with defaults and "
                                   "bounds. Use them as --strategy SEAT=NAME:param=value.")
    p.add_argument("game", help="game name (see `bidlab games`)")


def run(args) -> None:
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
