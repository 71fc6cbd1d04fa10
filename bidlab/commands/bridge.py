"""``bidlab bridge deal|best|team|pairs``: the bridge players' tools (constrained
boards, the best contract of a hand, a team match in IMPs, a pairs event in
matchpoints), registered as one subcommand of the ``bidlab`` command line."""

from __future__ import annotations

import argparse
import json
import textwrap

from bidlab.commands.options import given_rules
from bidlab.output import print_table, table_lines
from reports import text as W

TOOLS = {
    "team": ("a team match in IMPs, with a per-board scorecard",
             "Strategies A (--a) and B (--b) as two teams on the same boards: A North-South "
             "at table 1 and East-West at table 2. Prints a scorecard (board, dealer and "
             "vulnerability, each table's contract, result and North-South score, the IMPs "
             "A won) and A's IMPs per board with a 95% interval across boards.",
             "examples:\n  bidlab bridge team --a natural --b natural:nt_min=14,nt_max=16 -n 200\n"
             "  bidlab bridge team --a natural --b random --boards boards.pbn --json\n"),
    "pairs": ("a pairs event in matchpoints",
              "Every STRATEGY sits North-South on the same boards against the same East-West "
              "--opponents; each board is matchpointed across the field: the mean matchpoint "
              "percentage per strategy and every pair's paired difference, with 95% intervals "
              "across boards.",
              "examples:\n  bidlab bridge pairs natural random par -n 500 --opponents natural\n"
              "  bidlab bridge pairs natural natural:nt_min=14,nt_max=16 --boards hands.pbn\n"),
    "best": ("the best contract of a hand",
             "For boards dealt under --hand/--hcp/--shape: the double-dummy tricks of the "
             "declarer --seat in each strain (C D H S NT) and the expected duplicate score of "
             "each undoubled contract he could declare, with a 95% interval and the chance "
             "that it makes, at the vulnerability given (--vulnerable, else not vulnerable).",
             "examples:\n  bidlab bridge best --hand N=AKQ52.K3.742.Q87 --hcp S=10-12 --seat N -n 200\n"
             "  bidlab bridge best --hand S=AKQ52.K3.742.Q87 --seat S --vulnerable -n 50\n"),
    "deal": ("constrained boards, printed or written as PBN",
             "Boards dealt under --hand/--hcp/--shape (board i of --seed is the same in every "
             "run), printed one a line, or written as PBN with --pbn FILE (board number, "
             "dealer and vulnerability by board number, rule B1).",
             "examples:\n  bidlab bridge deal --hcp N=20- -n 100 --pbn strong.pbn\n"
             "  bidlab bridge deal --hand N=AKQ52.K3.742.Q87 --hcp S=10-12 -n 4\n"),
}

# Options each tool once accepted from the shared parser though they do nothing there:
# still parsed (so the command line parses as before), hidden, and refused by name.
_FOREIGN = {"team": ["opponents", "hand", "hcp", "shape", "seat", "vulnerable", "pbn"],
            "pairs": ["a", "b", "hand", "hcp", "shape", "seat", "vulnerable", "pbn"],
            "best": ["a", "b", "opponents", "boards", "pbn", "rule", "rules"],
            "deal": ["a", "b", "opponents", "boards", "seat", "vulnerable", "json", "rule",
                     "rules"]}


def add_parser(sub) -> None:
    """Register ``bidlab bridge`` on the subparsers ``sub`` of the main parser: one
    subcommand per tool, each with its own options and ``--help``."""
    from analysis.bridge import DEFAULT_BOARDS
    from strategies import for_game

    natural = for_game("bridge").default
    p = sub.add_parser(
        "bridge", help="bridge tools: team match, pairs (matchpoints), best contract, deals",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=("The bridge players' tools (below); `bidlab bridge TOOL --help` shows "
                     "a tool's options.\nIntervals are 95% across boards. team and pairs play "
                     "the boards of a PBN file\nwith --boards FILE.pbn (board number, dealer "
                     "and vulnerability from its tags)."),
        epilog="examples:\n  bidlab bridge team --a natural --b natural:nt_min=14,nt_max=16 -n 2000\n"
               "  bidlab bridge pairs natural random par -n 500 --opponents natural\n"
               "  bidlab bridge pairs natural natural:nt_min=14,nt_max=16 --boards hands.pbn\n"
               "  bidlab bridge best --hand N=AKQ52.K3.742.Q87 --hcp S=10-12 --seat N -n 200\n"
               "  bidlab bridge deal --hcp N=20- -n 100 --pbn strong.pbn\n")
    tools = p.add_subparsers(dest="tool", metavar="TOOL", title="tools")
    for name, (line, description, epilog) in TOOLS.items():
        t = tools.add_parser(name, help=line, description=textwrap.fill(description, 90),
                             epilog=epilog,
                             formatter_class=argparse.RawDescriptionHelpFormatter)
        hide = set(_FOREIGN[name])

        def opt(*flags, key, t=t, hide=hide, **kw):
            if key in hide:
                kw = {k: v for k, v in kw.items() if k in ("action", "type", "metavar")}
                kw["help"] = argparse.SUPPRESS
                kw["default"] = None
            t.add_argument(*flags, **kw)

        if name == "pairs":
            t.add_argument("strategies", nargs="*", metavar="STRATEGY",
                           help="the strategies of the field, NAME[:param=value,...] (at "
                                "least two; see `bidlab policies bridge`)")
        else:  # parsed so that a strategy list gets our one-line error, not argparse's
            t.add_argument("strategies", nargs="*", help=argparse.SUPPRESS)
        opt("--a", key="a", default=natural, metavar="STRATEGY",
            help="team A's strategy (default %(default)s)")
        opt("--b", key="b", default=natural, metavar="STRATEGY",
            help="team B's strategy (default %(default)s)")
        opt("--opponents", key="opponents", default=natural, metavar="NAME[:param=value,...]",
            help="the East-West strategy at every table (default %(default)s)")
        t.add_argument("-n", type=int, help=f"boards (default {DEFAULT_BOARDS}"
                       + (", or every board of --boards" if name in ("team", "pairs") else "")
                       + ("; double-dummy solving costs ~0.15 s of a core per new board, "
                          "cached on disk)" if name != "deal" else ")"))
        t.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
        opt("--boards", key="boards", metavar="FILE.pbn",
            help="play the boards of this PBN file instead of dealing")
        opt("--rule", key="rule", action="append", metavar="KEY=VALUE",
            help="a house rule, e.g. --rule vulnerability=none (see `bidlab games bridge`); "
                 "repeatable")
        opt("--rules", key="rules", metavar="FILE.toml",
            help="house rules from a TOML file of key = value lines (--rule items override it)")
        opt("--hand", key="hand", action="append", metavar="SEAT=S.H.D.C",
            help="a fixed hand, PBN suit order, e.g. N=AKQ52.K3.742.Q87; repeatable")
        opt("--hcp", key="hcp", action="append", metavar="SEAT=LO-HI",
            help="an HCP range, e.g. S=10-12 or N=20-; repeatable")
        opt("--shape", key="shape", action="append", metavar="SEAT=S5-,H0-2",
            help="suit-length ranges of a seat; repeatable")
        opt("--seat", key="seat", default="N", metavar="SEAT",
            help="the declarer: N, E, S or W (or 0..3; default N)")
        opt("--vulnerable", key="vulnerable", action="store_true",
            help="the declarer is vulnerable (default: not vulnerable)")
        opt("--pbn", key="pbn", metavar="FILE", help="write the boards to this PBN file")
        if name == "deal":
            t.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
        else:
            t.add_argument("--json", action="store_true", help="print one JSON object")
        t.add_argument("--no-progress", action="store_true",
                       help="no progress bar" if name != "deal" else argparse.SUPPRESS)


def _refuse_foreign(args) -> None:
    """One error for an option that the tool does not take (the shared parser of before
    accepted and ignored it)."""
    from sim.errors import BidlabError
    for key in _FOREIGN[args.tool]:
        value = getattr(args, key, None)
        if value not in (None, False):
            flag = f"--{key}"
            takers = [t for t in TOOLS if key not in _FOREIGN[t]]
            raise BidlabError(f"{flag}: bridge {args.tool} takes no {flag} (it is an option of "
                              f"{' and '.join('bridge ' + t for t in takers)}); see "
                              f"`bidlab bridge {args.tool} --help`")


def run(args) -> None:
    from sim.errors import BidlabError
    from sim.games.bridge.deal import Constraints
    if args.tool is None:
        raise BidlabError("give a tool: bridge team, pairs, best or deal (see `bidlab bridge "
                          "--help`)")
    if args.strategies and args.tool != "pairs":
        raise BidlabError(f"bridge {args.tool} takes no strategy list ({' '.join(args.strategies)})"
                          f"; team takes --a and --b, pairs takes the list")
    if args.boards and args.tool not in ("team", "pairs"):
        raise BidlabError(f"--boards: bridge {args.tool} deals its own boards; team and pairs "
                          f"play the boards of a PBN file")
    _refuse_foreign(args)
    from analysis.runs import check_boards_file
    from analysis.spec import check_seed
    check_seed(args.seed)
    if args.boards:
        check_boards_file(args.boards)
    if args.tool == "best":
        from sim.games.bridge.rules import seat_number
        seat, args.seat = args.seat, seat_number(args.seat)
        if args.seat is None:
            raise BidlabError(f"--seat {seat}: the declarer seat is N, E, S or W (or 0..3: "
                              f"0 N, 1 E, 2 S, 3 W)")
    progress = False if args.no_progress else None
    if args.tool == "team":
        _bridge_team(args, progress)
    elif args.tool == "pairs":
        _bridge_pairs(args, progress)
    else:
        _bridge_hands(args, Constraints.parse(args.hand, args.hcp, args.shape), progress)


def _bridge_team(args, progress) -> None:
    from analysis.bridge import team_match
    from analysis.runs import import_deals
    from analysis.spec import make_rules
    deals = import_deals("bridge", args.boards) if args.boards else None
    r = team_match(args.a, args.b, args.n, seed=args.seed, progress=progress, deals=deals,
                   rules=make_rules("bridge", given_rules(args)))
    result = r.to_json()
    if args.boards:
        result["boards_file"] = args.boards
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(format_team(r, f"boards of {args.boards}" if args.boards else f"seed {args.seed}"))


def format_team(r, source: str) -> str:
    """A team match (``analysis.bridge.TeamMatch``) as text: the scorecard, then the
    totals."""
    import pandas as pd

    def result(row, t):
        contract = row[f"t{t}_contract"]
        if contract is None:
            return "passed out"
        return f"{contract} {row[f't{t}_declarer']} {row[f't{t}_result']}"

    card = pd.DataFrame({
        "board": [str(x["board"]) for x in r.rows],
        "dealer": [x["dealer"] for x in r.rows],
        "vul": [x["vulnerability"] for x in r.rows],
        "table 1 (A NS)": [result(x, 1) for x in r.rows],
        "NS score 1": [f"{x['t1_score_ns']:+d}" for x in r.rows],
        "table 2 (A EW)": [result(x, 2) for x in r.rows],
        "NS score 2": [f"{x['t2_score_ns']:+d}" for x in r.rows],
        "IMPs A": [f"{x['imps']:+d}" if x["imps"] else "0" for x in r.rows]})
    won = int(r.imps[r.imps > 0].sum())
    lost = int(-r.imps[r.imps < 0].sum())
    lines = [f"team match, {r.boards:,} boards, {source}: A = {r.a}, B = {r.b}",
             "A sits North-South at table 1 and East-West at table 2; scores are North-South's;",
             "IMPs are A's (its NS score at table 1 minus B's at table 2, on the IMP scale)", ""]
    lines += table_lines(card)
    lines += ["", f"total: A {won} IMPs, B {lost} IMPs (A {won - lost:+d})",
              f"IMPs per board for A: "
              f"{W.intervals([r.imps_per_board], [r.ci_low], [r.ci_high], sign=True)[0]} "
              f"(95% interval)"]
    return "\n".join(lines)


def _bridge_pairs(args, progress) -> None:
    from analysis.bridge import pairs
    r = pairs(args.strategies, args.n, seed=args.seed, opponents=args.opponents,
              rules=given_rules(args), boards=args.boards, progress=progress)
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
        "matchpoints % [95% CI]": W.intervals(f["pct"], f["ci_low"], f["ci_high"]),
        "mean score_ns": [W.num(v, 1, sign=True) for v in f["score_ns"]]}))
    d = r.differences
    print("\npaired differences (first minus second, same boards), percentage points:\n")
    print_table(pd.DataFrame({
        "first": d["first"], "second": d["second"],
        "difference [95% CI]": [
            "0 on every board" if W.all_zero(*r) else c for r, c in
            zip(zip(d["diff"], d["ci_low"], d["ci_high"]),
                W.intervals(d["diff"], d["ci_low"], d["ci_high"], sign=True))],
        "p": d["p_value"].map(W.p_text)}))


def _bridge_hands(args, c, progress) -> None:
    from analysis.bridge import board_count
    n = board_count(args.n)
    if args.tool == "best":
        import numpy as np
        import pandas as pd

        from analysis.bridge import STRAIN_NAMES, best_contract
        from sim.games.bridge.rules import SEAT_NAMES
        r = best_contract(c, args.seat, n, seed=args.seed, vulnerable=args.vulnerable,
                          progress=progress)
        dist = {st: [int(x) for x in np.bincount(r.tricks[:, i], minlength=14)]
                for i, st in enumerate(STRAIN_NAMES)}
        seat = SEAT_NAMES[args.seat]
        vul = "vulnerable" if args.vulnerable else "not vulnerable"
        if args.json:
            print(json.dumps({"declarer": seat, "vulnerable": bool(args.vulnerable),
                              "boards": r.boards, "tricks": dist, "contracts": r.contracts},
                             indent=1))
            return
        print(f"best contract with {seat} as declarer, {vul}, {r.boards:,} boards "
              f"(double-dummy tricks; undoubled contracts, scored for {seat}'s side):\n")
        means = [sum(k * v for k, v in enumerate(counts)) / max(1, r.boards)
                 for counts in dist.values()]
        print("\n".join("  " + line for line in table_lines(pd.DataFrame(
            {"strain": list(dist), "mean tricks": W.nums(means, places=2)}))))
        print()
        top = r.contracts[:10]
        print("\n".join("  " + line for line in table_lines(pd.DataFrame({
            "contract": [row["contract"] + " " + seat for row in top],
            "score [95% CI]": W.intervals([c["mean"] for c in top], [c["ci_low"] for c in top],
                                          [c["ci_high"] for c in top], sign=True),
            "P(make), %": W.nums([c["p_make"] for c in top], places=1, scale=100.0)}))))
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
