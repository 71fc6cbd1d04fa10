"""One vybory tour as a JSON hand history (field names from ``rules/vybory.md``)."""

from __future__ import annotations

import numpy as np

from sim import handtext as HT
from sim import harness as H
from sim.cards import format_card
from sim.game import Policies
from sim.games.vybory import core as C
from sim.games.vybory import kernel as K
from sim.games.vybory.engine import play_one
from sim.games.vybory.rules import KEYS, PLAYERS, TRICKS
from sim.rules import Rules

RESULTS = {1: "win", -1: "loss", 0: "draw"}


def mask_cards(mask: int) -> list[str]:
    """Card texts of a mask, in card order (suit by suit, low to high)."""
    return [format_card(c) for c in range(52) if int(mask) >> c & 1]


def trace(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
          index: int, deals: np.ndarray | None = None) -> dict:
    """Tour ``index`` of the run with ``seed``; ``deals`` as in ``engine.run_chunk``."""
    a, logs = play_one(rules, policies, labels, seed, index, deals)
    names = C.NAMES[C.TYPE_SETS.index(rules.type_set)]
    out = []
    for d in range(rules.deals_per_match):
        row = a["deal_out"][d]
        dealer = int(row[K.D_DEALER])
        calls = [[(dealer + 1 + k) % PLAYERS, names[int(t) - 1]]
                 for k, t in enumerate(logs["calls"][d][:int(row[K.D_CALLS])])]
        first, second = int(row[K.D_FIRST]), int(row[K.D_SECOND])
        tricks = []
        leader = (first + 1) % PLAYERS
        for t in range(TRICKS):
            cards = [[(leader + k) % PLAYERS, format_card(int(logs["cards"][d, t * PLAYERS + k]))]
                     for k in range(PLAYERS)]
            winner = int(logs["tricks"][d, t])
            tricks.append({"leader": leader, "cards": cards, "winner": winner})
            leader = winner
        out.append({"dealer": dealer,
                    "hands": [mask_cards(logs["hands"][d, s]) for s in range(PLAYERS)],
                    "announcements": calls,
                    "contract": names[int(row[K.D_CONTRACT]) - 1],
                    "attackers": [first, second],
                    "first_announcer": first,
                    "tricks": tricks,
                    "pair_points": {"attackers": int(row[K.D_ATTACK_POINTS]),
                                    "defenders": int(row[K.D_DEFEND_POINTS])},
                    "result": RESULTS[int(row[K.D_RESULT])],
                    "deal_scores": a["deal_seat"][d, :, K.DS_SCORE].tolist(),
                    "scores_after": a["deal_seat"][d, :, K.DS_AFTER].tolist()})
    totals = a["seat_out"][0, :, K.S_SCORE].tolist()
    return {**H.trace_header("vybory", rules, seed, index, labels),
            "deals": out, "totals": totals,
            "winners": [s for s in range(PLAYERS) if totals[s] == max(totals)]}


def text(t: dict) -> str:
    """The trace as a hand history for people (``bidlab trace vybory --text``)."""
    type_set = t["rules"].get("type_set", "standard")
    alt = C.TYPE_SETS.index(type_set)
    lines = HT.header(t, KEYS, "tour")
    for number, d in enumerate(t["deals"], 1):
        lines += ["", f"Deal {number}: dealer {HT.seat(d['dealer'])}"]
        lines += HT.hand_lines(d["hands"])
        lines += HT.wrap("election: " + HT.calls(d["announcements"]))
        code = C.type_code(d["contract"], type_set)
        trump = int(C.TRUMP[alt, code])
        play = "no trump" if trump == C.NO_TRUMP else f"{HT.SUIT_NAMES['CDHS'[trump]]} trump"
        if C.LOW_WINS[alt, code]:
            play += ", the lowest card wins"
        first, second = d["attackers"]
        defenders = [s for s in range(PLAYERS) if s not in d["attackers"]]
        # each seat list is one unbreakable item: a line never ends inside it
        lines += HT.wrap(f"contract {d['contract']} ({play}): "
                         + HT.keep(f"attackers {HT.seat(first)} (first announcer) and "
                                   f"{HT.seat(second)},") + " "
                         + HT.keep("defenders " + " and ".join(map(HT.seat, defenders))))
        lines += HT.trick_lines(d["tricks"])
        taken = sum(tr["winner"] in d["attackers"] for tr in d["tricks"])
        p = d["pair_points"]
        verdict = {"win": "the attackers win", "loss": "the attackers lose",
                   "draw": "a draw"}[d["result"]]
        lines.append(f"  tricks: attackers {taken}, defenders {len(d['tricks']) - taken}; "
                     f"points: attackers {HT.num(p['attackers'])}, defenders "
                     f"{HT.num(p['defenders'])}: {verdict}")
        lines += HT.seat_table({"deal": [HT.signed(x) for x in d["deal_scores"]],
                                "score": d["scores_after"]})
    lines += HT.final(t["totals"], t["winners"], "tour scores")
    return "\n".join(lines) + "\n"
