"""One bridge board as a JSON hand history (field names from ``rules/bridge.md``), and
as PBN text (``trace --pbn``)."""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.game import Policies
from sim.games.bridge import core as C
from sim.games.bridge import engine as E
from sim.games.bridge import kernel as K
from sim.games.bridge import pbn as PBN
from sim.games.bridge.pbn import format_deal, format_hand
from sim.games.bridge.rules import SEAT_NAMES, VUL_NAMES
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
