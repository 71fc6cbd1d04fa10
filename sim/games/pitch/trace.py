"""One pitch game as a JSON hand history (field names from ``rules/pitch.md``)."""

from __future__ import annotations

import numpy as np

from sim import handtext as HT
from sim import harness as H
from sim.cards import SUITS, format_card
from sim.game import Policies
from sim.games.pitch import kernel as K
from sim.games.pitch.core import POINT_NAMES
from sim.games.pitch.engine import play_one
from sim.games.pitch.obs import HOLD, PASS
from sim.games.pitch.rules import KEYS
from sim.rules import Rules


def mask_cards(mask: int) -> list[str]:
    """Card texts of a mask, in card order (suit by suit, low to high; the joker last)."""
    return [format_card(c) for c in range(53) if int(mask) >> c & 1]


def trace(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
          index: int, deals: np.ndarray | None = None) -> dict:
    """Game ``index`` of the run with ``seed``; ``deals`` as in ``engine.run_chunk``."""
    a, logs = play_one(rules, policies, labels, seed, index, deals)
    n = rules.players
    deals = []
    for d in range(int(a["game_out"][0, K.G_DEALS])):
        row = a["deal_out"][d]
        dealer = int(row[K.D_DEALER])
        bids = []
        for k in range(n):
            seat = (dealer + 1 + k) % n
            b = int(logs["bids"][d, k])
            if b == HOLD:
                bids.append({"seat": seat, "bid": int(row[K.D_CONTRACT]), "hold": True})
            else:
                bids.append({"seat": seat, "bid": None if b == PASS else b})
        pitcher = int(row[K.D_PITCHER])
        deal = {"dealer": dealer,
                "hands": [mask_cards(logs["hands"][d, s]) for s in range(n)],
                "bids": bids,
                "pitcher": pitcher if pitcher >= 0 else None,
                "contract": int(row[K.D_CONTRACT]) if pitcher >= 0 else None,
                "trump": SUITS[int(row[K.D_TRUMP])] if pitcher >= 0 else None,
                "tricks": []}
        if row[K.D_STUCK]:
            deal["stuck"] = True
        if pitcher >= 0:
            leader = pitcher
            for t in range(6):
                cards = [[(leader + k) % n, format_card(int(logs["cards"][d, t * n + k]))]
                         for k in range(n)]
                winner = int(logs["tricks"][d, t])
                deal["tricks"].append({"leader": leader, "cards": cards, "winner": winner})
                leader = winner
            deal["points"] = {name: (int(row[K.D_OWNERS + i]) if row[K.D_OWNERS + i] >= 0
                                     else None)
                              for i, name in enumerate(POINT_NAMES)}
            deal["made"] = bool(row[K.D_MADE])
        else:
            deal["points"] = {name: None for name in POINT_NAMES}
        deal["deal_scores"] = a["deal_seat"][d, :, K.DS_SCORE].tolist()
        deal["scores_after"] = a["deal_seat"][d, :, K.DS_AFTER].tolist()
        deals.append(deal)
    winner = int(a["game_out"][0, K.G_WINNER])
    return {
        **H.trace_header("pitch", rules, seed, index, labels),
        "deals": deals,
        "winner": winner if winner >= 0 else None,
        "deals_played": int(a["game_out"][0, K.G_DEALS]),
        "scores": a["seat_out"][0, :, K.S_SCORE].tolist(),
    }


def text(t: dict) -> str:
    """The trace as a hand history for people (``bidlab trace pitch --text``)."""
    joker = t["rules"].get("joker", False)
    lines = HT.header(t, KEYS, "game")
    for number, d in enumerate(t["deals"], 1):
        lines += ["", f"Deal {number}: dealer {HT.seat(d['dealer'])}"]
        lines += HT.hand_lines(d["hands"])
        lines += HT.wrap("bids: " + HT.calls(
            (b["seat"], f"holds {b['bid']}" if b.get("hold") else HT.bid(b["bid"]))
            for b in d["bids"]))
        pitcher = d["pitcher"]
        if pitcher is None:
            lines.append("  everyone passed: thrown in, the next dealer deals")
        else:
            stuck = " (stuck: everyone passed)" if d.get("stuck") else ""
            lines.append(f"  {HT.seat(pitcher)} pitches {d['contract']}{stuck}; "
                         f"trump {HT.SUIT_NAMES[d['trump']]}")
            lines += HT.trick_lines(d["tricks"])
            names = [n for n in d["points"] if n != "joker" or joker]
            lines.append("  points: " + ", ".join(
                f"{n} {'nobody' if d['points'][n] is None else HT.seat(d['points'][n])}"
                for n in names))
            lines.append(f"  {HT.seat(pitcher)} " + (f"makes {d['contract']}" if d["made"]
                                                     else f"is set back {d['contract']}"))
        lines += HT.seat_table({"deal": [HT.signed(x) for x in d["deal_scores"]],
                                "score": d["scores_after"]})
    played = t.get("deals_played", len(t["deals"]))
    lines += HT.final(t["scores"], [] if t["winner"] is None else [t["winner"]],
                      f"final scores after {played} deals",
                      draw=f"no winner: a draw after max_deals={t['rules'].get('max_deals')}")
    return "\n".join(lines) + "\n"
