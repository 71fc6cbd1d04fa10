"""One bridge board as a JSON hand history (field names from ``rules/bridge.md``)."""

from __future__ import annotations

from sim.game import Policies
from sim.games.bridge import core as C
from sim.games.bridge import engine as E
from sim.games.bridge import kernel as K
from sim.games.bridge.pbn import format_deal, format_hand
from sim.games.bridge.rules import SEAT_NAMES, VUL_NAMES, board_number
from sim.rules import Rules


def trace(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
          index: int) -> dict:
    hands = E.deal(seed, index, 1)
    tables, par_ns, oracle = E.solve_boards(rules, hands, index, progress=None)
    out, calls = E.auctions(rules, policies, labels, seed, index, hands, tables, par_ns,
                            oracle, log=True)
    row = out[0]
    contract = E.contract_text(row)
    return {
        "game": "bridge",
        "rules": rules.to_json(),
        "seed": seed,
        "index": index,
        "strategies": list(labels),
        "board": board_number(index),
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
