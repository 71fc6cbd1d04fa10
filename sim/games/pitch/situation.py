"""A bid-EV situation for pitch: the user's hand plus the public state of the bidding.

Keys (values as strings from the command line, or Python values):

``seat``    your seat (default 0); it must be your turn to speak
``hand``    your six cards, e.g. ``"AH KH 7H 2H 9C 3D"`` (the joker is ``JK``, joker
            games only)
``dealer``  the dealer of this deal (default: the seat that makes it your turn after
            ``bids``)
``bids``    the calls before yours in this deal, in speaking order from the seat after
            the dealer, each ``pass`` or a bid: ``bids=pass,2`` means the first speaker
            passed and the second bid 2 (default: none, you speak first)
``scores``  everyone's score before this deal, one per seat, e.g. ``3,5,-2,6``
            (default all 0); each below the target
``deal``    deals played before this one in the game, redeals included (default 0; it
            only matters near ``max_deals``)

Candidates: pass, each bid above the highest so far, and hold for the dealer where P3
allows (``--candidates`` picks some: ``pass,hold,3..4``). With ``all_pass=stuck_dealer``
the dealer's pass after everyone passed means he plays ``min_bid`` (P5).

The outcome of a rollout is the end of the game: your win share (1 if you win, 0 if
not, 1/players for a draw at ``max_deals``) and your final score. Candidates are ranked
by win share (the game is a race to the target, so that is what a call is for); the
expected final score is reported next to it. The other hands are dealt uniformly from
the cards you do not hold: the earlier bids do not condition them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.cards import JOKER, format_card
from sim.games.pitch.obs import HOLD, PASS
from sim.games.pitch.rules import HAND, TOP_BID
from sim.rules import Rules
from sim.situation import bad, check_keys, dealer_of, own_hand, parse_candidates, span, whole

KEYS = ("seat", "hand", "dealer", "bids", "scores", "deal")
HELP = __doc__.split("\n\n", 1)[1]
METRIC = "win"
"""What bid-EV ranks pitch candidates by: the win share of the game."""


@dataclass
class Situation:
    seat: int
    hand: list[int]
    dealer: int
    bids: list[int]
    """The calls before the asking seat's, speaking order: PASS (0) or a bid 1..4."""
    scores: list[int]
    deal: int

    @property
    def high(self) -> int:
        """The highest bid so far (0: none)."""
        return max(self.bids, default=0)

    def to_json(self, n: int) -> dict[str, Any]:
        return {"seat": self.seat, "hand": [format_card(c) for c in self.hand],
                "dealer": self.dealer,
                "bids": [{"seat": (self.dealer + 1 + k) % n, "bid": b if b != PASS else None}
                         for k, b in enumerate(self.bids)],
                "scores": self.scores, "deal": self.deal}


def _items(value: Any) -> list[str]:
    if isinstance(value, str):
        return [t.strip() for t in value.split(",") if t.strip()]
    return [str(t).strip() for t in value]


def _why_not_bid(rules: Rules, high: int, b: int) -> str | None:
    """Why ``b`` is not a legal bid over the highest bid ``high`` (0: none), or None."""
    lo = max(rules.min_bid, high + 1)
    if lo <= b <= TOP_BID:
        return None
    if lo > TOP_BID:
        return f"nothing beats the bid of {high} (P2)"
    if high == 0 or b > TOP_BID:
        return f"the bids are {rules.min_bid}..{TOP_BID} (P2)"
    return f"a bid must exceed the highest bid so far, {high}: {lo}..{TOP_BID} (P2)"


def _parse_bids(value: Any, rules: Rules) -> list[int]:
    out: list[int] = []
    high = 0
    items = _items(value)
    if len(items) > rules.players - 1:
        raise bad("bids", value, f"at most {rules.players - 1} calls come before yours "
                                  f"({rules.players} players, you speak once)")
    for k, item in enumerate(items):
        text = item.lower()
        if text in ("pass", "p", "none", "null", "-"):
            out.append(PASS)
            continue
        if text == "hold":
            raise bad("bids", value, "only the dealer holds, and he speaks last (P3): no "
                                      "call can follow a hold")
        try:
            b = int(text)
        except ValueError:
            raise bad("bids", value, f"call {k + 1} ({item!r}): write pass or a bid "
                                      f"{rules.min_bid}..{TOP_BID}") from None
        why = _why_not_bid(rules, high, b)
        if why:
            raise bad("bids", value, f"call {k + 1} ({item}) is illegal: {why}")
        high = b
        out.append(b)
    return out


def parse(rules: Rules, values: dict[str, Any]) -> Situation:
    check_keys("pitch", values, KEYS, required=("hand",))
    n = rules.players
    seat = whole("seat", values.get("seat", 0), 0, n - 1)
    hand = own_hand(values, HAND, "the cards you were dealt this deal, P1")
    if JOKER in hand and not rules.joker:
        raise bad("hand", values["hand"], "there is no joker in this game (rule joker=false)")
    bids = _parse_bids(values.get("bids", ""), rules)
    dealer = dealer_of(values, seat, len(bids), n, "bids")
    scores_text = values.get("scores", ",".join(["0"] * n))
    parts = _items(scores_text)
    if len(parts) != n:
        raise bad("scores", scores_text, f"expected {n} comma-separated whole numbers, one "
                                          f"per seat")
    scores = [whole("scores", p, -10**6, 10**6) for p in parts]
    over = [s for s, v in enumerate(scores) if v >= rules.target]
    if over:
        raise bad("scores", scores_text, f"seat {over[0]} has reached the target "
                   f"({rules.target}), so the game is over (P16): every score before a deal "
                   f"is below the target")
    deal = whole("deal", values.get("deal", 0), 0, rules.max_deals - 1)
    return Situation(seat, hand, dealer, bids, scores, deal)


def legal_calls(rules: Rules, s: Situation) -> list[int]:
    """The asking seat's legal calls: PASS, each bid above the highest, HOLD (P2, P3)."""
    high = s.high
    calls = [PASS] + list(range(max(rules.min_bid, high + 1), TOP_BID + 1))
    if s.seat == s.dealer and rules.dealer_hold and 0 < high < TOP_BID:
        calls.append(HOLD)
    return calls


def action_name(call: int) -> str:
    return "pass" if call == PASS else "hold" if call == HOLD else f"bid {call}"


def candidates(rules: Rules, s: Situation, given: list[str] | None) -> list[int]:
    """Candidate calls: ``given`` (``pass``, ``hold``, amounts, ``A..B``), or every legal
    call (pass, each bid above the highest, and hold for the dealer where P3 allows)."""
    legal = legal_calls(rules, s)

    def illegal(call: int) -> str | None:
        if call in legal:
            return None
        if call == HOLD:
            return (f"only the dealer may hold, over a bid below {TOP_BID}, with "
                    f"dealer_hold=true (P3)")
        return _why_not_bid(rules, s.high, call)

    bids = span([str(c) for c in legal if c > 0])
    text = ", ".join(["pass"] + [f"bid {bids}"] * bool(bids) + ["hold"] * (HOLD in legal))
    return parse_candidates(given, legal, illegal=illegal, legal_text=text, name=action_name,
                            syntax="pass, hold, a bid or a range of bids like 2..4",
                            words={"pass": PASS, "p": PASS, "hold": HOLD})
