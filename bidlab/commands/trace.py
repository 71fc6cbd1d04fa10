"""``bidlab trace GAME --index I``: the hand history of one match."""

from __future__ import annotations

import argparse
import json
import sys

from bidlab.commands.options import game_options, no_progress, rules


def add_parser(sub) -> None:
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
    game_options(p)
    p.add_argument("--index", type=int, default=0, help="match index (default %(default)s)")
    p.add_argument("--check", action="store_true",
                   help="also replay it through the plain-Python referee")
    p.add_argument("--boards", metavar="FILE.pbn", help="bridge: the board comes from this "
                   "PBN file (--index selects it, from 0), as `simulate --boards` plays it")
    no_progress(p, "accepted as by the other commands (trace plays one match: no bar)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--text", action="store_true", help="print a hand history to read "
                      "instead of JSON: the header, each deal's hands by suit, every call and "
                      "trick in order, the scores (bridge: the diagram, the auction, the "
                      "double-dummy table)")
    form.add_argument("--pbn", action="store_true", help="bridge: print the board as PBN "
                      "instead of JSON")


def run(args) -> None:
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
    result = api.trace(args.game, seed=args.seed, index=args.index, rules=rules(args),
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
