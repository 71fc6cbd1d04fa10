"""A bid-EV situation for auktsion: the user's hand plus the public state, validated.

Keys (values as strings from the command line, or Python values):

``seat``        your seat (default 0); it must be your turn to call
``hand``        the cards you were dealt this deal, e.g. ``"AH KH 7D 7S 2C ..."``
``money``       everyone's coins now, one per seat, e.g. ``"36,38,37,39"``
``lot``         the rank on offer now: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``
``price``       the current price (default 0: no bid yet in this lot)
``high_bidder`` the seat of the last bid (required when ``price`` > 0)
``passes``      passes in a row since the last bid, or since the lot opened (default 0)
``deal``        the deal number in the match, from 0 (default 0)
``scores``      points each seat scored in earlier deals (default all 0)
``sold``        earlier lots of this deal that were bought, ``RANK:BUYER:PRICE[:CARDS]``
                separated by ``;`` (the cards another buyer laid face up, e.g.
                ``5:2:7:5H 5S``; yours come from your hand). Earlier lots not listed
                went unsold.
``infer``       ``yes`` (default): where coins tell hand points (A3: at the start of
                the first deal, or of every deal without carry_money, a seat's coins
                plus what it spent this deal are start_money minus its hand points),
                the other seats are dealt only hands of those points, and money that
                no deal explains is an error; ``no``: deal them at random
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sim.cards import RANKS, format_card, parse_cards
from sim.errors import BidlabError
from sim.games.auktsion.rules import R_FIRST_RANK, R_SUIT_POINTS, pack
from sim.rules import Rules
from sim.situation import bad, check_keys, own_hand, parse_candidates, per_seat, span, whole, yes_no

KEYS = ("seat", "hand", "money", "lot", "price", "high_bidder", "passes", "deal", "scores",
        "sold", "infer")
HELP = __doc__.split("\n\n", 1)[1]


@dataclass
class Situation:
    seat: int
    hand: list[int]
    money: list[int]
    lot: int
    price: int
    high_bidder: int
    passes: int
    deal: int
    scores: list[int]
    sold: dict[int, tuple[int, int, list[int]]] = field(default_factory=dict)
    """rank -> (buyer, price, cards laid face up)"""
    points: list[tuple[int, int]] | None = None
    """per seat, the least and most hand points its coins allow; None: not inferred"""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "hand": [format_card(c) for c in self.hand],
                "money": self.money, "lot": RANKS[self.lot], "price": self.price,
                "high_bidder": self.high_bidder if self.price > 0 else None,
                "passes": self.passes, "deal": self.deal, "scores": self.scores,
                "sold": {RANKS[r]: {"buyer": b, "price": p, "cards": [format_card(c) for c in cs]}
                         for r, (b, p, cs) in sorted(self.sold.items())},
                # hand points the coins tell (null: at least start_money, or not inferred)
                "hand_points": self.points and [lo if lo == hi else None
                                                for lo, hi in self.points]}


def _rank(key: str, value: Any) -> int:
    text = str(value).strip().upper().replace("10", "T")
    if len(text) != 1 or text not in RANKS:
        raise bad(key, value, f"expected a rank: {' '.join(RANKS)}")
    return RANKS.index(text)


def parse(rules: Rules, values: dict[str, Any]) -> Situation:
    check_keys("auktsion", values, KEYS, required=("hand", "money", "lot"))
    n = rules.players
    first = 1 if n == 3 else 0
    per = (52 - 4 * first) // n
    seat = whole("seat", values.get("seat", 0), 0, n - 1)
    hand = own_hand(values, per, "all the cards you were dealt this deal")
    if first and any(c % 13 == 0 for c in hand):
        raise bad("hand", values["hand"], "there are no twos with 3 players (A1)")
    money = per_seat("money", values["money"], n, 0, 10**6)
    lot = _rank("lot", values["lot"])
    if lot < first:
        raise bad("lot", values["lot"], "there are no twos with 3 players (A1)")
    price = whole("price", values.get("price", 0), 0, 10**6)
    deal = whole("deal", values.get("deal", 0), 0, rules.deals_per_match - 1)
    scores = per_seat("scores", values.get("scores", ",".join(["0"] * n)), n, 0, 10**6)
    sold = _parse_sold(values.get("sold", ""), n, seat, hand, lot, first)
    high = -1
    if price > 0:
        if rules.auction_form == "sealed":
            raise bad("price", price, "the sealed form has no price before the bids")
        if "high_bidder" not in values:
            raise BidlabError("the situation has a price, so it needs high_bidder=SEAT")
        high = whole("high_bidder", values["high_bidder"], 0, n - 1)
        if high == seat:
            raise bad("high_bidder", high, "you cannot be asked to call over your own bid "
                       "(A10: the lot is sold once the others pass)")
        if money[high] < price:
            raise bad("price", price, f"seat {high} has only {money[high]} coins (A8)")
    passes = whole("passes", values.get("passes", 0), 0, n - 2 if high >= 0 else n - 1)
    dealer = (rules.first_dealer + deal) % n
    last_buyer = dealer
    for r in sorted(sold):
        last_buyer = sold[r][0]
    starter = (last_buyer + 1) % n
    first_to_speak = (high + 1) % n if high >= 0 else starter
    if rules.auction_form == "open" and (first_to_speak + passes) % n != seat and high < 0:
        raise BidlabError(f"it is not seat {seat}'s turn: lot {RANKS[lot]} opened with seat "
                          f"{starter} (after the last buyer or dealer) and {passes} pass(es) "
                          f"were made; fix seat=, passes= or sold=")
    if high >= 0 and (high + 1 + passes) % n != seat:
        raise BidlabError(f"it is not seat {seat}'s turn: after the bid of seat {high} and "
                          f"{passes} pass(es) it is seat {(high + 1 + passes) % n}'s turn")
    situation = Situation(seat, hand, money, lot, price, high, passes, deal, scores, sold)
    if yes_no("infer", values.get("infer", "yes")) and (deal == 0 or not rules.carry_money):
        situation.points = _points_from_money(rules, situation)
    return situation


def _points_from_money(rules: Rules, s: Situation) -> list[tuple[int, int]]:
    """Per seat, the least and most hand points its coins allow (A3): coins now plus
    what it spent this deal are max(0, start_money - hand points). Checks that your hand
    and the deck agree with them."""
    R, _ = pack(rules)
    suit_points = R[R_SUIT_POINTS:R_SUIT_POINTS + 4]  # in card suit order
    deck = int((13 - R[R_FIRST_RANK]) * suit_points.sum())
    start = rules.start_money
    fix = "fix money= or sold=, or set infer=no to deal the hidden hands at random"
    bounds = []
    for t, coins in enumerate(s.money):
        at_start = coins + sum(p for b, p, _ in s.sold.values() if b == t)
        if at_start > start:
            raise BidlabError(f"seat {t} has {coins} coins and spent {at_start - coins} in "
                              f"this deal: {at_start} at its start, more than start_money "
                              f"{start} (A3); {fix}")
        bounds.append((start - at_start, start - at_start) if at_start else (start, deck))
    mine = int(sum(suit_points[card // 13] for card in s.hand))
    lo, hi = bounds[s.seat]
    if not lo <= mine <= hi:
        told = f"{lo}" if lo == hi else f"at least {lo}"
        raise BidlabError(f"your hand has {mine} points, but seat {s.seat}'s coins say "
                          f"{told} (A3: coins at the start of the deal are start_money "
                          f"{start} minus hand points); {fix}")
    least, most = sum(b[0] for b in bounds), sum(b[1] for b in bounds)
    if not least <= deck <= most:
        told = f"{least}" if least == most else f"{least}..{most}"
        raise BidlabError(f"the coins say the hands hold {told} points in all, but the deck "
                          f"holds {deck} (A2, A3); {fix}")
    return bounds


def _parse_sold(text: Any, n: int, seat: int, hand: list[int], lot: int, first: int
                ) -> dict[int, tuple[int, int, list[int]]]:
    items = text if isinstance(text, list) else [t for t in str(text).split(";") if t.strip()]
    sold: dict[int, tuple[int, int, list[int]]] = {}
    seen: set[int] = set()
    for item in items:
        parts = item.split(":") if isinstance(item, str) else list(item)
        if len(parts) not in (3, 4):
            raise bad("sold", item, "write RANK:BUYER:PRICE or RANK:BUYER:PRICE:CARDS")
        rank = _rank("sold", parts[0])
        if not first <= rank < lot or rank in sold:
            raise bad("sold", item, f"each earlier rank at most once, before lot {RANKS[lot]}")
        buyer = whole("sold", parts[1], 0, n - 1)
        price = whole("sold", parts[2], 1, 10**6)
        if buyer == seat:
            cards = [c for c in hand if c % 13 == rank]
        else:
            cards = parse_cards(parts[3]) if len(parts) == 4 else []
            if any(c % 13 != rank or c in hand or c in seen for c in cards):
                raise bad("sold", item, f"the face-up cards must be of rank {RANKS[rank]}, "
                           f"not in your hand, each card once")
        seen.update(cards)
        sold[rank] = (buyer, price, cards)
    return sold


def candidates(rules: Rules, s: Situation, given: list[str] | None, count: int = 8
               ) -> list[int]:
    """Candidate calls (-1 = pass): ``given`` (``pass``, amounts, ``A..B``), or pass and
    the ``count`` smallest legal bids."""
    raised = s.high_bidder >= 0
    lo = max(rules.min_bid, s.price + rules.min_raise) if raised else rules.min_bid
    hi = s.money[s.seat]

    def illegal(call: int) -> str | None:
        if call < 0 or lo <= call <= hi:
            return None
        if call > hi:
            return f"seat {s.seat} has only {hi} coins (A8)"
        plus = f", price {s.price} + min_raise {rules.min_raise}" if raised else ""
        return f"the smallest legal bid is {lo} (min_bid {rules.min_bid}{plus}) (A8)"

    bids = span([str(lo), str(hi)] if lo < hi else [str(lo)] if lo == hi else [])
    return parse_candidates(given, [-1] + list(range(lo, min(hi, lo + count - 1) + 1)),
                            illegal=illegal, name=action_name,
                            legal_text="pass" + (f", bid {bids}" if bids else ""),
                            syntax="pass, a bid (coins) or a range of bids like 4..11",
                            words={"pass": -1, "p": -1})


def action_name(call: int) -> str:
    return "pass" if call < 0 else f"bid {call}"
