"""One bridge board as a JSON hand history (field names from ``rules/bridge.md``), and
as PBN text (``trace --pbn``)."""

from __future__ import annotations

import numpy as np

from sim import handtext as HT
from sim import harness as H
from sim.game import Policies
from sim.games.bridge import core as C
from sim.games.bridge import engine as E
from sim.games.bridge import kernel as K
from sim.games.bridge import pbn as PBN
from sim.games.bridge.pbn import format_deal, format_hand
from sim.games.bridge.rules import KEYS, SEAT_NAMES, VUL_NAMES
from sim.rules import Rules


def trace(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
          index: int, deals: np.ndarray | None = None) -> dict:
    """Board ``index`` of the run with ``seed``; with ``deals`` (the one row of an
    imported file for this board) that board instead of a dealt one."""
    hands = E.board_hands(seed, index, 1, deals)
    tables, par_ns, oracle = E.solve_boards(rules, hands, index, progress=None, deals=deals)
    out, calls = E.auctions(rules, policies, labels, seed, index, hands, tables, par_ns,
                            oracle, log=True, deals=deals)
    row = out[0]
    contract = E.contract_text(row)
    result = {
        **H.trace_header("bridge", rules, seed, index, labels),
        "board": int(E.board_numbers(index, 1, deals)[0]),
        "dealer": int(row[K.B_DEALER]),
        "vulnerability": VUL_NAMES[int(row[K.B_VUL])],
        "hands": [format_hand(hands[0, s]) for s in range(4)],
        "deal": format_deal(hands[0]),
        "auction": [C.call_text(int(c)) for c in calls[0, :row[K.B_NCALLS]]],
        "contract": contract,
        "declarer": int(row[K.B_DECLARER]) if contract else None,
        "declarer_name": SEAT_NAMES[int(row[K.B_DECLARER])] if contract else None,
        "tricks": int(row[K.B_TRICKS]) if contract else None,
        "score_ns": int(row[K.B_SCORE_NS]),
        "dd_table": tables[0].astype(int).tolist(),
        "par_ns": int(par_ns[0]),
    }
    if deals is not None:
        result["imported"] = _tags(deals[0])
    return result


def _tags(row: np.ndarray) -> dict:
    """What an imported board's file said (None where a tag was absent), so that the
    referee can check the board facts against the file rather than against B1."""
    return {"board": int(row[PBN.D_BOARD]) if row[PBN.D_BOARD] > 0 else None,
            "dealer": int(row[PBN.D_DEALER]) if row[PBN.D_DEALER] >= 0 else None,
            "vulnerability": VUL_NAMES[int(row[PBN.D_VUL])] if row[PBN.D_VUL] >= 0 else None}


def trace_pbn(t: dict) -> str:
    """A trace as one PBN game (the players are the seats' strategies)."""
    return PBN.pbn_text([t], players=t.get("strategies", ("",) * 4))


_HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}
_VUL_TEXT = {"None": "nobody vulnerable", "NS": "NS vulnerable", "EW": "EW vulnerable",
             "Both": "both sides vulnerable"}


def _seat(s: int) -> str:
    return SEAT_NAMES[s]


def _call(c: str) -> str:
    """A call as people write it: ``Pass``, ``X``, ``1NT``."""
    return "Pass" if c == "P" else c[:-1] + "NT" if c.endswith("N") else c


def _hand(name: str, pbn: str) -> list[str]:
    """A hand of the diagram: its seat and points, then one line per suit (S H D C)."""
    suits = pbn.split(".")
    hcp = sum(_HCP.get(r, 0) for r in "".join(suits))
    return [f"{name} ({hcp} HCP)"] + [f"{s}: {' '.join(ranks) or '-'}"
                                     for s, ranks in zip("SHDC", suits)]


def _diagram(hands: list[str]) -> list[str]:
    """N on top, W left, E right, S at the bottom."""
    n, e, s, w = (_hand(name, h) for name, h in zip(("North", "East", "South", "West"), hands))
    left = max(len(x) for x in w) + 4
    mid = max(len(x) for x in n + s) + 4
    lines = ["  " + " " * left + x for x in n]
    lines += [("  " + a.ljust(left + mid) + b).rstrip() for a, b in zip(w, e)]
    lines += ["  " + " " * left + x for x in s]
    return lines


def _auction(dealer: int, auction: list[str]) -> list[str]:
    """The calls in a table with a column per seat (N E S W), from the dealer."""
    cells = [""] * dealer + [_call(c) for c in auction]
    rows = [cells[i:i + 4] for i in range(0, len(cells), 4)]
    return ["  " + "".join(c.ljust(6) for c in row).rstrip()
            for row in [list(SEAT_NAMES)] + rows]


def _result(t: dict) -> str:
    if not t["contract"]:
        return "passed out"
    level, tricks = int(t["contract"][0]), t["tricks"]
    over = tricks - (level + 6)
    how = ("made" if over == 0 else f"made, {over} overtrick{'s' * (over > 1)}" if over > 0
           else f"down {-over}")
    return f"{_call(t['contract'])} by {t['declarer_name']}, {tricks} tricks ({how})"


def text(t: dict) -> str:
    """The trace as a hand history for people (``bidlab trace bridge --text``): the
    diagram, the auction, the result and the double-dummy table."""
    lines = HT.header(t, KEYS, "index", _seat)
    lines += ["", f"Board {t['board']}: dealer {_seat(t['dealer'])}, "
                  f"{_VUL_TEXT.get(t['vulnerability'], t['vulnerability'])}"]
    if t.get("imported"):
        lines.append("(a board from a file)")
    lines += [""] + _diagram(t["hands"])
    lines += ["", "auction:"] + _auction(t["dealer"], t["auction"])
    lines += ["", f"result: {_result(t)}; score NS {HT.signed(t['score_ns'])}, "
                  f"EW {HT.signed(-t['score_ns'])}",
              f"par: NS {HT.signed(t['par_ns'])}"]
    if t.get("dd_table"):
        lines += ["", "double-dummy tricks (declarer by strain):"]
        lines += HT.table(["", "C", "D", "H", "S", "NT"],
                          [[_seat(s), *("-" if x < 0 else x for x in row)]
                           for s, row in enumerate(t["dd_table"])])
    return "\n".join(lines) + "\n"
