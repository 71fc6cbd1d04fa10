"""One auktsion match as a JSON hand history (field names from ``rules/auktsion.md``)."""

from __future__ import annotations

import numpy as np

from sim import handtext as HT
from sim import harness as H
from sim.cards import RANKS, format_cards
from sim.game import Policies
from sim.games.auktsion.engine import play_one
from sim.games.auktsion.obs import PASS
from sim.games.auktsion.rules import KEYS
from sim.rules import Rules


def trace(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
          index: int, deals: np.ndarray | None = None) -> dict:
    a, calls, decks = play_one(rules, policies, labels, seed, index, deals)
    n = rules.players
    first = 1 if n == 3 else 0
    per = (52 - 4 * first) // n
    cursor = 0
    played = []
    for d in range(rules.deals_per_match):
        deck = decks[d][: per * n]
        lots = []
        for r in range(first, 13):
            k = int(a["lot_calls"][0, d, r])
            buyer = int(a["lot_buyer"][0, d, r])
            lots.append({
                "rank": RANKS[r],
                "starter": int(a["lot_starter"][0, d, r]),
                "calls": [{"seat": int(s), "bid": None if b == PASS else int(b)}
                          for s, b in calls[cursor:cursor + k]],
                "buyer": buyer if buyer >= 0 else None,
                "price": int(a["lot_price"][0, d, r]) if buyer >= 0 else None,
            })
            cursor += k
        money_start = a["deal_money"][0, d].tolist()
        spent = a["deal_spent"][0, d].tolist()
        played.append({
            "dealer": (rules.first_dealer + d) % n,
            "hands": [format_cards(np.sort(deck[s * per:(s + 1) * per])) for s in range(n)],
            "hand_points": a["deal_hand"][0, d].tolist(),
            "money_start": money_start,
            "lots": lots,
            "scores": a["deal_score"][0, d].tolist(),
            "spent": spent,
            "money_end": [m - x for m, x in zip(money_start, spent)],
        })
    totals = [float(x) for x in a["score"][0]]
    best = max(totals)
    return {
        **H.trace_header("auktsion", rules, seed, index, labels),
        "deals": played,
        "totals": totals,
        "winners": [s for s, t in enumerate(totals) if t == best],
    }


def text(t: dict) -> str:
    """The trace as a hand history for people (``bidlab trace auktsion --text``)."""
    sealed = t["rules"].get("auction_form") == "sealed"
    lines = HT.header(t, KEYS)
    for number, d in enumerate(t["deals"], 1):
        lines += ["", f"Deal {number}: dealer {HT.seat(d['dealer'])}"]
        lines += HT.hand_lines(d["hands"], notes=[
            f"{p} points, {m} coins" for p, m in zip(d["hand_points"], d["money_start"])])
        for lot in d["lots"]:
            rank = lot["rank"]
            calls = HT.calls((c["seat"], HT.bid(c["bid"], "no bid" if sealed else "pass"))
                             for c in lot["calls"])
            if lot["buyer"] is None:
                sold = "unsold"
            else:
                held = [c for c in d["hands"][lot["buyer"]] if c[0] == rank]
                sold = (f"{HT.seat(lot['buyer'])} buys for {HT.num(lot['price'])}, laying "
                        + (" ".join(HT.by_rank(held)) if held else "no card"))
            lines += HT.wrap(f"lot {rank} (starter {HT.seat(lot['starter'])}): {calls} "
                             + HT.keep("-> " + sold), more="      ")
        lines += HT.seat_table({"deal score": d["scores"], "spent": d["spent"],
                                "coins left": d["money_end"]})
    lines += HT.final(t["totals"], t["winners"], "match scores")
    return "\n".join(lines) + "\n"
