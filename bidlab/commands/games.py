"""``bidlab games [GAME]``: the games, or one game's rule keys."""

from __future__ import annotations

from bidlab.output import print_table


def add_parser(sub) -> None:
    p = sub.add_parser("games", help="list the games, or the rule keys of one game",
                       description="Without GAME: the games. With GAME: its rule keys "
                                   "(house variants), defaults and allowed values.")
    p.add_argument("game", nargs="?", help="a game (see `bidlab games`): list its rule keys")


def run(args) -> None:
    from bidlab import api
    if args.game:
        keys = api.rule_keys(args.game)     # an unknown game: the one-line error, nothing else
        print(f"{args.game}: rule keys (set with --rule KEY=VALUE)\n")
        print_table(keys)
    else:
        for name, title in api.games().items():
            print(f"{name:10s} {title}")
        print("\n`bidlab games GAME` lists its rule keys; `bidlab policies GAME` its policies.")
