"""A bid-EV situation for aukcio: your money cards plus the public state, validated.

Keys (values as strings from the command line, or Python values):

``seat``        your seat (default 0); it must be your turn to call
``hand``        your money cards now, e.g. ``"TH 7C 7D 3S JK"`` (JK: a joker)
``card``        the face card on offer, e.g. ``QH``
``cards``       money cards each seat holds now, one per seat (default: ``hand_size``
                for the others, your hand's size for you)
``owned``       face cards each seat owns, seats separated by ``;``, e.g.
                ``"JH QH;AS;"`` (default: none)
``turner``      the seat that turned the card (default: you)
``sitting_out`` the seat that bought the last lot, or ``none`` (default)
``calls``       the calls so far in this lot, in speaking order from the first speaker
                (the turner, or the seat after him when he sits out): bids and
                ``pass``, e.g. ``"3,pass,5"`` (default: none)
``paid``        the money cards in the payment pile (default: none)
``gone``        face cards out of the game, set aside unsold (default: none); every
                other face card not owned nor on offer is still in the auction deck
                (with ``unsold=bottom``, the cards put under it are taken as shuffled
                into it)
``lot``         lots played before this one (default: the face cards owned and gone)

The money cards nobody has seen (not in your hand nor in the payment pile) are dealt
at random: each other seat gets as many as it holds, the rest is the draw pile.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim.cards import JOKER, format_card, parse_cards
from sim.errors import BidlabError
from sim.games.aukcio.core import card_kind, completing_set, kind_bits
from sim.games.aukcio.payment import JOKERS, most_payable
from sim.games.aukcio.rules import JOKERS_PER_DECK
from sim.rules import Rules
from sim.situation import bad, check_keys, parse_candidates, per_seat, span, whole

KEYS = ("seat", "hand", "card", "cards", "owned", "turner", "sitting_out", "calls", "paid",
        "gone", "lot")
HELP = __doc__.split("\n\n", 1)[1]
METRIC = "win"
OUTCOMES = (("win", "win share"), ("score", "match score (1 for a win)"))


@dataclass
class Situation:
    seat: int
    hand: list[int]
    card: int
    cards: list[int]
    owned: list[list[int]]
    turner: int
    sitting_out: int
    calls: list[tuple[int, int]]
    """(seat, bid or -1 for a pass) in speaking order"""
    paid: list[int]
    gone: list[int]
    lot: int
    first: int
    high: int
    bidder: int
    in_lot: list[bool]
    """who may still call in this lot"""
    jokers_per_payment: int = 1

    @property
    def most(self) -> int:
        """The most your money cards can pay (K6)."""
        return most_payable(money_counts(self.hand), self.jokers_per_payment)

    def to_json(self) -> dict[str, Any]:
        def cards(cs):
            return [format_card(c) for c in cs]
        return {"seat": self.seat, "hand": cards(self.hand), "card": format_card(self.card),
                "cards": self.cards, "owned": [cards(o) for o in self.owned],
                "turner": self.turner,
                "sitting_out": self.sitting_out if self.sitting_out >= 0 else None,
                "calls": [{"seat": s, "bid": None if b < 0 else b} for s, b in self.calls],
                "paid": cards(self.paid), "gone": cards(self.gone), "lot": self.lot,
                "high_bid": self.high, "most_you_can_pay": self.most}


def money_counts(cards: list[int]) -> np.ndarray:
    """Cards per value (``payment.py``'s layout) of a list of money-card codes."""
    counts = np.zeros(JOKERS + 1, np.int64)
    for c in cards:
        counts[JOKERS if c == JOKER else c % 13] += 1
    return counts


def _cards(key: str, value: Any, face: bool) -> list[int]:
    try:
        cards = parse_cards(value) if value not in (None, "") else []
    except BidlabError as e:
        raise bad(key, value, str(e)) from None
    for c in cards:
        is_face = c != JOKER and c % 13 >= 9
        if is_face != face:
            raise bad(key, value, f"{format_card(c)} is not a "
                                  f"{'face card (J, Q, K, A)' if face else 'money card (2..T or JK)'}")
    return cards


def _within(key: str, value: Any, cards: list[int], decks: int) -> None:
    """No card more often than the decks hold it (K1, K2)."""
    for c, k in Counter(cards).items():
        most = JOKERS_PER_DECK * decks if c == JOKER else decks
        if k > most:
            raise bad(key, value, f"{format_card(c)} {k} times, but {decks} deck(s) hold "
                                  f"{most}")


def _seat_or_none(key: str, value: Any, n: int) -> int:
    if str(value).strip().lower() in ("none", "", "-1"):
        return -1
    return whole(key, value, 0, n - 1)


def parse(rules: Rules, values: dict[str, Any]) -> Situation:
    check_keys("aukcio", values, KEYS, required=("hand", "card"))
    n, decks = rules.players, rules.decks
    seat = whole("seat", values.get("seat", 0), 0, n - 1)
    hand = _cards("hand", values["hand"], face=False)
    paid = _cards("paid", values.get("paid", ""), face=False)
    _within("hand and paid", f"{values['hand']} / {values.get('paid', '')}", hand + paid, decks)
    cards_given = values.get("cards")
    if cards_given is None:
        cards = [len(hand) if s == seat else rules.hand_size for s in range(n)]
    else:
        cards = per_seat("cards", cards_given, n, 0, 78)
    if cards[seat] != len(hand):
        raise bad("cards", cards_given, f"seat {seat} (you) holds the {len(hand)} cards of hand=")
    hidden = decks * 39 - len(hand) - len(paid)
    if sum(cards) - len(hand) > hidden:
        raise bad("cards", cards_given, f"the others hold {sum(cards) - len(hand)} cards, but "
                                        f"only {hidden} money cards are not in your hand or paid")
    card = _cards("card", values["card"], face=True)
    if len(card) != 1:
        raise bad("card", values["card"], "expected one face card")
    owned = _owned(values.get("owned", ""), n)
    gone = _cards("gone", values.get("gone", ""), face=True)
    _within("owned, card and gone", values.get("owned", ""), sum(owned, []) + card + gone, decks)
    for s, mine in enumerate(owned):
        kinds = [card_kind(c) for c in mine]
        if any(completing_set.py_func(kind_bits(kinds), k) >= 0 for k in kinds):
            raise bad("owned", values["owned"], f"seat {s} already owns a set: the game is over "
                                                f"(K14)")
    turner = whole("turner", values.get("turner", seat), 0, n - 1)
    sitting_out = _seat_or_none("sitting_out", values.get("sitting_out", "none"), n)
    if sitting_out == seat:
        raise bad("sitting_out", sitting_out, "you sit out this lot, so you cannot call (K9)")
    lot = whole("lot", values.get("lot", len(sum(owned, [])) + len(gone)), 0, 10_000)
    s = Situation(seat, hand, card[0], cards, owned, turner, sitting_out, [], paid, gone, lot,
                  turner if turner != sitting_out else (turner + 1) % n, 0, -1,
                  [t != sitting_out for t in range(n)], rules.jokers_per_payment)
    _replay_calls(rules, s, values.get("calls", ""))
    return s


def _owned(text: Any, n: int) -> list[list[int]]:
    parts = text if isinstance(text, list) else str(text).split(";")
    if len(parts) == 1 and not str(parts[0]).strip():
        parts = [""] * n
    if len(parts) != n:
        raise bad("owned", text, f"expected {n} seats' face cards separated by ';' (empty for "
                                 f"none), e.g. {';'.join(['JH QH'] + [''] * (n - 1))}")
    return [_cards("owned", p, face=True) for p in parts]


def _replay_calls(rules: Rules, s: Situation, text: Any) -> None:
    """Apply the calls so far (K6, K7) and check that the lot is still open and that
    it is ``s.seat``'s turn."""
    n = rules.players
    items = text if isinstance(text, list) else [t for t in str(text).replace(",", " ").split()]
    speaker = s.first
    for item in items:
        while not s.in_lot[speaker]:
            speaker = (speaker + 1) % n
        word = str(item).strip().lower()
        if word in ("pass", "p", "-"):
            bid = -1
        else:
            bid = whole("calls", item, s.high + 1, 10**6)
        if speaker == s.seat and bid > s.most:
            raise bad("calls", text, f"your bid {bid} is more than you can pay now ({s.most})")
        s.calls.append((speaker, bid))
        if bid < 0 or rules.bidding == "single":
            s.in_lot[speaker] = False
        if bid >= 0:
            s.high, s.bidder = bid, speaker
        left = sum(s.in_lot)
        if left == 0 or (rules.bidding == "open" and left == 1 and s.bidder >= 0
                         and s.in_lot[s.bidder]):
            raise bad("calls", text, "after these calls the lot is over (K7): nobody is left "
                                     "to call")
        speaker = (speaker + 1) % n
    while not s.in_lot[speaker]:
        speaker = (speaker + 1) % n
    if speaker != s.seat:
        raise BidlabError(f"it is not seat {s.seat}'s turn: the lot opened with seat {s.first} "
                          f"(the turner {s.turner}, or the next seat if he sits out) and after "
                          f"{len(s.calls)} call(s) seat {speaker} speaks; fix seat=, turner=, "
                          f"sitting_out= or calls=")


def candidates(rules: Rules, s: Situation, given: list[str] | None, count: int = 9) -> list[int]:
    """Candidate calls (-1 = pass): ``given`` (``pass``, bids, ``A..B``), or pass and up
    to ``count - 1`` bids spread from the smallest legal bid to all you can pay."""
    lo, hi = s.high + 1, s.most

    def illegal(call: int) -> str | None:
        if call < 0 or lo <= call <= hi:
            return None
        if call > hi:
            return f"you can pay at most {hi} (K6)"
        return f"a bid must exceed the high bid {s.high} (K6)"

    step = max(1, -(-(hi - lo) // (count - 2))) if hi > lo else 1
    default = [-1] + (list(range(lo, hi + 1, step)) if hi >= lo else [])
    if hi >= lo and default[-1] != hi:
        default.append(hi)
    bids = span([str(lo), str(hi)] if lo < hi else [str(lo)] if lo == hi else [])
    return parse_candidates(given, default, illegal=illegal, name=action_name,
                            legal_text="pass" + (f", bid {bids}" if bids else ""),
                            syntax="pass, a bid (thousands) or a range of bids like 4..11",
                            words={"pass": -1, "p": -1})


def action_name(call: int) -> str:
    return "pass" if call < 0 else f"bid {call}"
