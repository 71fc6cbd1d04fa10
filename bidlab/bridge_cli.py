"""``bidlab bridge deal|best|team|pairs``: the bridge players' tools (constrained
boards, the best contract of a hand, a team match in IMPs, a pairs event in
matchpoints), registered as one subcommand of the ``bidlab`` command line."""

from __future__ import annotations

import argparse
import json

from bidlab.output import print_table


def add_parser(sub) -> None:
    """Register ``bidlab bridge`` on the subparsers ``sub`` of the main parser."""
    from analysis.bridge import DEFAULT_BOARDS
    from strategies import for_game

    natural = for_game("bridge").default
    p = sub.add_parser(
        "bridge", help="bridge tools: team match, pairs (matchpoints), best contract, deals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "team   strategies A (--a) and B (--b) as two teams on the same boards (A North-\n"
            "       South at one table, East-West at the other): A's mean IMPs per board.\n"
            "pairs  every STRATEGY sits North-South on the same boards against the same\n"
            "       East-West --opponents; each board is matchpointed across the field:\n"
            "       mean matchpoint percentage per strategy and paired differences.\n"
            "best   for boards dealt under --hand/--hcp/--shape: the double-dummy tricks of\n"
            "       --seat per strain and the expected score of each contract.\n"
            "deal   constrained boards, printed or written as PBN (--pbn FILE).\n\n"
            "Intervals are 95% across boards. team and pairs play the boards of a PBN file\n"
            "with --boards FILE.pbn (board number, dealer and vulnerability from its tags)."),
        epilog="examples:\n  bidlab bridge team --a natural --b natural:nt_min=14,nt_max=16 -n 2000\n"
               "  bidlab bridge pairs natural random par -n 500 --opponents natural\n"
               "  bidlab bridge pairs natural natural:nt_min=14,nt_max=16 --boards hands.pbn\n"
               "  bidlab bridge best --hand N=AKQ52.K3.742.Q87 --hcp S=10-12 --seat 0 -n 200\n"
               "  bidlab bridge deal --hcp N=20- -n 100 --pbn strong.pbn\n")
    p.add_argument("tool", choices=["team", "pairs", "best", "deal"])
    p.add_argument("strategies", nargs="*", metavar="STRATEGY",
                   help="pairs: the strategies of the field, NAME[:param=value,...] "
                        "(at least two)")
    p.add_argument("--a", default=natural, help="team: team A's strategy (default %(default)s)")
    p.add_argument("--b", default=natural, help="team: team B's strategy (default %(default)s)")
    p.add_argument("--opponents", default=natural, metavar="NAME[:param=value,...]",
                   help="pairs: the East-West strategy at every table (default %(default)s)")
    p.add_argument("-n", type=int, help=f"boards (default {DEFAULT_BOARDS}, or every board of "
                   f"--boards; double-dummy solving costs ~0.15 s of a core per new board, "
                   f"cached on disk)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    p.add_argument("--boards", metavar="FILE.pbn", help="team, pairs: play the boards of this "
                   "PBN file instead of dealing")
    p.add_argument("--hand", action="append", metavar="SEAT=S.H.D.C",
                   help="a fixed hand, PBN suit order, e.g. N=AKQ52.K3.742.Q87; repeatable")
    p.add_argument("--hcp", action="append", metavar="SEAT=LO-HI", help="an HCP range, "
                   "e.g. S=10-12 or N=20-; repeatable")
    p.add_argument("--shape", action="append", metavar="SEAT=S5-,H0-2",
                   help="suit-length ranges of a seat; repeatable")
    p.add_argument("--seat", type=int, default=0, help="declarer seat for best (0 N .. 3 W)")
    p.add_argument("--vulnerable", action="store_true", help="best: the declarer is vulnerable")
    p.add_argument("--pbn", metavar="FILE", help="deal: write the boards to this PBN file")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def cmd_bridge(args) -> None:
    from sim.errors import BidlabError
    from sim.games.bridge.deal import Constraints
    if args.strategies and args.tool != "pairs":
        raise BidlabError(f"bridge {args.tool} takes no strategy list ({' '.join(args.strategies)})"
                          f"; team takes --a and --b, pairs takes the list")
    if args.boards and args.tool not in ("team", "pairs"):
        raise BidlabError(f"--boards: bridge {args.tool} deals its own boards; team and pairs "
                          f"play the boards of a PBN file")
    from analysis.runs import check_boards_file, check_seed
    check_seed(args.seed)
    if args.boards:
        check_boards_file(args.boards)
    if args.n is not None and args.n < 1:
        raise BidlabError(f"-n {args.n}: give at least 1 board")
    if args.tool == "best" and not 0 <= args.seat <= 3:
        raise BidlabError(f"--seat {args.seat}: the declarer seat is 0..3 (0 N, 1 E, 2 S, 3 W)")
    progress = False if args.no_progress else None
    if args.tool == "team":
        _bridge_team(args, progress)
    elif args.tool == "pairs":
        _bridge_pairs(args, progress)
    else:
        _bridge_hands(args, Constraints.parse(args.hand, args.hcp, args.shape), progress)


def _bridge_team(args, progress) -> None:
    from analysis.bridge import team_match
    deals = None
    if args.boards:
        from analysis.runs import import_deals
        deals = import_deals("bridge", args.boards)
    r = team_match(args.a, args.b, args.n, seed=args.seed, progress=progress, deals=deals)
    result = {"a": r.a, "b": r.b, "boards": r.boards, "imps_per_board": r.imps_per_board,
              "lo": r.lo, "hi": r.hi}
    if args.boards:
        result["boards_file"] = args.boards
    if args.json:
        print(json.dumps(result, indent=1))
        return
    source = f"boards of {args.boards}" if args.boards else f"seed {args.seed}"
    print(f"team match, {r.boards:,} boards, {source}: A = {r.a}, B = {r.b}\n"
          f"IMPs per board for A: {r.imps_per_board:+.3f} [{r.lo:+.3f}, {r.hi:+.3f}] "
          f"(95% interval)")


def _bridge_pairs(args, progress) -> None:
    from analysis.bridge import pairs
    r = pairs(args.strategies, args.n, seed=args.seed, opponents=args.opponents,
              boards=args.boards, progress=progress)
    if args.json:
        print(json.dumps(r.to_json(), indent=1))
        return
    import pandas as pd
    p = r.provenance
    source = f"boards of {args.boards}" if args.boards else f"seed {args.seed}"
    print(f"pairs: {p['boards']:,} boards, {source}; every field sits North-South against "
          f"{r.opponents} East-West; matchpoints per board across the field\n")
    f = r.frame
    print_table(pd.DataFrame({
        "field": f["field"].astype(str),
        "matchpoints % [95% CI]": [f"{m:.2f} [{lo:.2f}, {hi:.2f}]" for m, lo, hi in
                                   zip(f["pct"], f["ci_low"], f["ci_high"])],
        "mean score_ns": f["score_ns"].map("{:+.1f}".format)}))
    d = r.differences
    print("\npaired differences (second minus first, same boards), percentage points:\n")
    print_table(pd.DataFrame({
        "first": d["first"], "second": d["second"],
        "difference [95% CI]": [f"{x:+.2f} [{lo:+.2f}, {hi:+.2f}]" for x, lo, hi in
                                zip(d["diff"], d["ci_low"], d["ci_high"])],
        "p": d["p_value"].map("{:.3g}".format)}))


def _bridge_hands(args, c, progress) -> None:
    from analysis.bridge import board_count
    n = board_count(args.n)
    if args.tool == "best":
        import numpy as np

        from analysis.bridge import best_contract
        r = best_contract(c, args.seat, n, seed=args.seed, vulnerable=args.vulnerable,
                          progress=progress)
        dist = {st: [int(x) for x in np.bincount(r.tricks[:, i], minlength=14)]
                for i, st in enumerate("CDHSN")}
        if args.json:
            print(json.dumps({"boards": r.boards, "tricks": dist, "contracts": r.contracts},
                             indent=1))
            return
        print(f"best contract for seat {args.seat} as declarer, {r.boards:,} boards:\n")
        for st, counts in dist.items():
            mean = sum(k * v for k, v in enumerate(counts)) / max(1, r.boards)
            print(f"  {st}: mean tricks {mean:.2f}")
        print()
        for row in r.contracts[:10]:
            print(f"  {row['contract']:3s} {row['mean']:+8.1f} [{row['lo']:+.1f}, "
                  f"{row['hi']:+.1f}]  P(make) {row['p_make']:.2f}")
        return
    from sim.games.bridge.deal import deal
    from sim.games.bridge.engine import board_facts, board_numbers
    from sim.games.bridge.pbn import format_deal, write_pbn
    from sim.games.bridge.rules import VUL_NAMES, make
    hands = deal(c, args.seed, 0, n)
    if args.pbn:
        dealers, vuls = board_facts(make(), 0, n)        # B1
        write_pbn(args.pbn, [{"board": b, "dealer": d, "vulnerability": VUL_NAMES[v],
                              "hands": h} for b, d, v, h in
                             zip(board_numbers(0, n), dealers, vuls, hands)])
        print(f"wrote {n} boards to {args.pbn}")
    else:
        for h in hands:
            print(format_deal(h))
