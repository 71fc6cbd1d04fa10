"""One aukcio match as a JSON hand history (field names from ``rules/aukcio.md``), read
from the kernel's event log (``kernel.EV_*``)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from sim import handtext as HT
from sim import harness as H
from sim.cards import format_card
from sim.game import Policies
from sim.games.aukcio import kernel as K
from sim.games.aukcio.core import SETS, kind_card
from sim.games.aukcio.engine import play_one
from sim.games.aukcio.obs import PASS
from sim.games.aukcio.rules import FACE_PER_DECK, KEYS, MONEY_PER_DECK
from sim.rules import Rules


def _new_lot(card: int, turner: int) -> dict:
    return {"card": format_card(card), "turner": turner, "sitting_out": None,
            "ace_draws": [], "calls": [], "buyer": None, "price": None, "payment": [],
            "buyer_draws": [], "reshuffles": [], "unsold": None}


def _lots(events: np.ndarray, hands: list[Counter], owned: list[list[str]]) -> tuple[list, dict]:
    """The lots of the event log; updates ``hands`` and ``owned`` as the match goes."""
    lots: list[dict] = []
    end = {"winner": None, "set": None}
    for kind, a, b in events.tolist():
        lot = lots[-1] if lots else None
        if kind == K.EV_LOT:
            lots.append(_new_lot(a, b))
        elif kind == K.EV_SITTING:
            lot["sitting_out"] = a if a >= 0 else None
        elif kind == K.EV_RESHUFFLE:
            lot["reshuffles"].append([])
        elif kind == K.EV_CARD:
            lot["reshuffles"][-1].append(format_card(a))
        elif kind == K.EV_ACE:
            lot["ace_draws"].append([a, format_card(b)])
            hands[a][format_card(b)] += 1
        elif kind == K.EV_CALL:
            lot["calls"].append({"seat": a, "bid": None if b == PASS else b})
        elif kind == K.EV_SALE:
            lot["buyer"], lot["price"] = a, b
            owned[a].append(lot["card"])
        elif kind == K.EV_PAY:
            lot["payment"].append(format_card(a))
            hands[lot["buyer"]][format_card(a)] -= 1
        elif kind == K.EV_DRAW:
            lot["buyer_draws"].append(format_card(b))
            hands[a][format_card(b)] += 1
        elif kind == K.EV_UNSOLD:
            lot["unsold"] = "bottom" if a else "discard"
        elif kind == K.EV_WIN:
            end = {"winner": a, "set": [format_card(kind_card(k)) for k in SETS[b]]}
    return lots, end


def trace(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
          index: int, deals: np.ndarray | None = None) -> dict:
    a, log = play_one(rules, policies, labels, seed, index, deals)
    n, dealer = rules.players, rules.first_dealer
    faces, money = FACE_PER_DECK * rules.decks, MONEY_PER_DECK * rules.decks
    auction = [format_card(c) for c in log[:faces, 1]]
    deck = [format_card(c) for c in log[faces:faces + money, 1]]
    dealt = [[] for _ in range(n)]
    for k in range(n * rules.hand_size):   # one card at a time from the dealer's left
        dealt[(dealer + 1 + k) % n].append(deck[k])
    hands = [Counter(h) for h in dealt]
    owned: list[list[str]] = [[] for _ in range(n)]
    lots, end = _lots(log[faces + money:], hands, owned)
    money_end = [sorted(h.elements()) for h in hands]
    assert [len(h) for h in money_end] == a["seat_out"][K.S_CARDS_LEFT, 0].tolist()
    return {
        **H.trace_header("aukcio", rules, seed, index, labels),
        "dealer": dealer,
        "auction_deck": auction,
        "money_deck": deck[n * rules.hand_size:],
        "hands": dealt,
        "lots": lots,
        "owned": owned,
        "money_end": money_end,
        **end,
        "scores": a["score"][0].tolist(),
    }


def _money(cards: list[str]) -> str:
    """Money cards high to low and what they are worth (K3: numbers in thousands, a
    joker doubling one card)."""
    worth = sum(10 if c[0] == "T" else int(c[0]) for c in cards if c != "JK")
    jokers = cards.count("JK")
    extra = f" + {jokers} joker{'s' * (jokers > 1)}" if jokers else ""
    return f"{' '.join(HT.by_rank(cards)) or '-'}  ({worth}{extra})"


def text(t: dict) -> str:
    """The trace as a hand history for people (``bidlab trace aukcio --text``)."""
    lines = HT.header(t, KEYS)
    lines += ["", f"dealer {HT.seat(t['dealer'])}"]
    lines += HT.wrap("auction deck (top first): " + " ".join(t["auction_deck"]), "")
    lines.append("money dealt (worth in thousands):")
    lines += [f"  {HT.seat(s):<4}{_money(h)}" for s, h in enumerate(t["hands"])]
    lines += HT.wrap("draw pile (top first): " + " ".join(t["money_deck"]), "")
    for number, lot in enumerate(t["lots"], 1):
        out = f", {HT.seat(lot['sitting_out'])} sits out" if lot["sitting_out"] is not None else ""
        lines += ["", f"Lot {number}: {lot['card']}, turned by {HT.seat(lot['turner'])}{out}"]
        if lot["ace_draws"]:
            lines += HT.wrap("an ace: " + HT.calls((s, f"draws {c}") for s, c in lot["ace_draws"]))
        lines += HT.wrap("calls: " + (HT.calls((c["seat"], HT.bid(c["bid"])) for c in lot["calls"])
                                      or "none"))
        if lot["buyer"] is not None:
            draws = " ".join(lot["buyer_draws"]) or "nothing"
            lines += HT.wrap(f"{HT.seat(lot['buyer'])} buys {lot['card']} for {lot['price']}, "
                             f"pays {' '.join(lot['payment'])}, draws {draws}")
        else:
            lines.append("  unsold: " + {"bottom": "put under the auction deck",
                                         "discard": "set aside"}.get(lot["unsold"], "set aside"))
        for pile in lot["reshuffles"]:
            lines += HT.wrap("payments reshuffled into a new draw pile (top first): "
                             + (" ".join(pile) or "none"))
    lines += ["", "at the end:"]
    for s, (owned, money) in enumerate(zip(t["owned"], t["money_end"])):
        lines += HT.wrap(f"{HT.seat(s):<4}owns {' '.join(owned) or 'nothing'}; money "
                         + _money(money), more="      ")
    if t["winner"] is not None:
        lines += ["", f"{HT.seat(t['winner'])} completes the set {' '.join(t['set'])}"]
    else:
        lines += ["", "the auction deck ran out with no set: a draw"]
    lines += HT.final(t["scores"], [] if t["winner"] is None else [t["winner"]], "scores",
                      draw="no winner: a draw")
    return "\n".join(lines) + "\n"
