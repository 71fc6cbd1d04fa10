"""An independent referee for auktsion hand histories (``rules/auktsion.md``).

:func:`replay` reads a JSON trace as written by ``trace.py`` and re-derives every
figure in it from the rules, the hands and the calls alone: the deck and the hands
(A1, A2), the money of every deal (A3, A14), the dealer (A4), the lot order (A5), the
starter of each lot (A6), the legality and order of every call (A7-A9, or the sealed
form), the end of each lot and its buyer and price (A10-A12), the scores (A13) and the
match result (A14, A15). Anything wrong raises :class:`~sim.errors.RefereeError` with
a message that names the deal, the lot, the call and the seat.

It is deliberately plain Python (only the allowed rule values come from the game's rule-key
table, the one statement of them): no NumPy, no numba, nothing from the kernel or the
policies, so a bug there cannot hide itself here.
"""

from __future__ import annotations

import math
from typing import Any

from sim.games.auktsion.rules import KEYS
from sim.referee import Replayed, TraceReferee
from sim.referee import is_int as _is_int

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _same_number(a: Any, b: float) -> bool:
    return _is_number(a) and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9)


class _Referee(TraceReferee):
    game = "auktsion"

    def seat_list(self, obj: dict, key: str, where: str, number=_is_int) -> list:
        value = self.field(obj, key, where)
        if not isinstance(value, list) or len(value) != self.n or not all(map(number, value)):
            raise self.fail(where, f"{key} must list one number per seat ({self.n}), "
                                   f"got {value!r}")
        return value

    # -- rules ---------------------------------------------------------------------
    def check_rules(self) -> None:
        rules = self.rules_allowed(KEYS)
        n = rules["players"]
        self.rules = rules
        self.n = n
        self.first_rank = 1 if n == 3 else 0                       # A1, A5: no twos with 3
        self.per_hand = (52 - 4 * self.first_rank) // n             # A1: 13 or 16 cards
        h, d, s, c = rules["suit_points"]
        self.suit_points = {"H": h, "D": d, "S": s, "C": c}         # A2
        self.deck = {r + u for u in SUITS for r in RANKS[self.first_rank:]}

    # -- one deal ------------------------------------------------------------------
    def check_hands(self, deal: dict, where: str) -> list[list[int]]:
        """A1, A2: the hands partition the deck; returns points per seat and rank."""
        hands = self.field(deal, "hands", where)
        if not isinstance(hands, list) or len(hands) != self.n:
            raise self.fail(where, f"hands must hold one hand per seat ({self.n})")
        seen: dict[str, int] = {}
        value = [[0] * 13 for _ in range(self.n)]
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != self.per_hand:
                raise self.fail(f"{where}, seat {seat}",
                                f"a hand holds {self.per_hand} cards with {self.n} players (A1), "
                                f"got {len(hand) if isinstance(hand, list) else hand!r}")
            for card in hand:
                if card not in self.deck:
                    raise self.fail(f"{where}, seat {seat}",
                                    f"{card!r} is not a card of the {len(self.deck)}-card deck (A1)")
                if card in seen:
                    raise self.fail(f"{where}, seat {seat}",
                                    f"card {card} is dealt twice (also to seat {seen[card]}) (A1)")
                seen[card] = seat
                value[seat][RANKS.index(card[0])] += self.suit_points[card[1]]
        return value

    def check_deal(self, d: int, deal: dict, money: list[int]) -> tuple[list[int], list[int]]:
        """Check deal ``d``; ``money`` is what each seat carries in. Returns (money at the
        end, deal scores)."""
        n, rules = self.n, self.rules
        where = f"deal {d}"
        dealer = self.dealer_of(deal, d, where, rules["first_dealer"], n, "A4")
        value = self.check_hands(deal, where)
        hand_points = [sum(v) for v in value]
        if "hand_points" in deal and deal["hand_points"] != hand_points:
            raise self.fail(where, f"hand_points {deal['hand_points']!r}, expected "
                                   f"{hand_points} (A2)")
        start = [(money[s] if rules["carry_money"] else 0)                  # A14
                 + max(0, rules["start_money"] - hand_points[s]) for s in range(n)]  # A3
        got = self.seat_list(deal, "money_start", where)
        if got != start:
            raise self.fail(where, f"money_start {got}, expected {start}: carried "
                                   f"{money if rules['carry_money'] else [0] * n} plus "
                                   f"max(0, {rules['start_money']} - hand points {hand_points}) (A3, A14)")
        money = list(start)
        spent = [0] * n
        scores = [0] * n
        lots = self.field(deal, "lots", where)
        ranks = RANKS[self.first_rank:]
        if not isinstance(lots, list) or [lot.get("rank") if isinstance(lot, dict) else lot
                                          for lot in lots] != list(ranks):
            raise self.fail(where, f"lots must offer the ranks {' '.join(ranks)} in this order (A5)")
        last_buyer = dealer                                             # A6
        for lot in lots:
            r = RANKS.index(lot["rank"])
            lw = f"{where}, lot {lot['rank']}"
            starter = (last_buyer + 1) % n
            if self.field(lot, "starter", lw) != starter:
                raise self.fail(lw, f"starter is {lot['starter']!r}, expected seat {starter}, "
                                    f"the seat after the last buyer {last_buyer} (A6)")
            buyer, price = self.check_calls(lot, lw, starter, money)
            if self.field(lot, "buyer", lw) != buyer or self.field(lot, "price", lw) != price:
                raise self.fail(lw, f"buyer {lot['buyer']!r} at price {lot['price']!r}, but the "
                                    f"calls give buyer {buyer} at price {price} (A10-A12)")
            if buyer is not None:
                money[buyer] -= price                                   # A12
                spent[buyer] += price
                scores[buyer] += value[buyer][r]                        # A13
                last_buyer = buyer                                      # A6
            self.checked["lots"] += 1
        checks = [("scores", scores, "A13"), ("money_end", money, "A12, A14")]
        if "spent" in deal:  # an optional field
            checks.append(("spent", spent, "A12"))
        for key, expected, rule in checks:
            got = self.seat_list(deal, key, where)
            if got != expected:
                raise self.fail(where, f"{key} {got}, expected {expected} ({rule})")
        return money, scores

    # -- one lot -------------------------------------------------------------------
    def check_calls(self, lot: dict, where: str, starter: int,
                    money: list[int]) -> tuple[int | None, int | None]:
        calls = self.field(lot, "calls", where)
        if not isinstance(calls, list):
            raise self.fail(where, "calls must be a list")
        if self.rules["auction_form"] == "sealed":
            return self.sealed(calls, where, starter, money)
        return self.open(calls, where, starter, money)

    def read_call(self, calls: list, k: int, where: str, starter: int):
        call = calls[k]
        seat = (starter + k) % self.n                                   # A7
        cw = f"{where}, call {k}, seat {seat}"
        if not isinstance(call, dict) or "seat" not in call or "bid" not in call:
            raise self.fail(cw, f"a call is {{'seat': s, 'bid': amount or null}}, got {call!r}")
        if call["seat"] != seat:
            raise self.fail(cw, f"seat {call['seat']!r} spoke, but it is seat {seat}'s turn "
                                f"(seat order from the starter {starter}) (A7)")
        bid = call["bid"]
        if bid is not None and not _is_int(bid):
            raise self.fail(cw, f"bid {bid!r} is not a whole number of coins or a pass (A7)")
        self.checked["calls"] += 1
        return seat, bid, cw

    def open(self, calls: list, where: str, starter: int, money: list[int]):
        """A7-A11: calls around the table until players-1 passes follow a bid (sold) or
        every player passed without a bid (unsold)."""
        n, min_bid, min_raise = self.n, self.rules["min_bid"], self.rules["min_raise"]
        price, high, passes = 0, None, 0
        for k in range(len(calls)):
            seat, bid, cw = self.read_call(calls, k, where, starter)
            if bid is None:                                              # A9: may bid later
                passes += 1
            else:
                lo = min_bid if high is None else max(min_bid, price + min_raise)   # A8
                if bid < lo:
                    raised = f", price {price} + min_raise {min_raise}" if high is not None else ""
                    raise self.fail(cw, f"bid {bid} is illegal: the smallest legal bid is {lo} "
                                        f"(min_bid {min_bid}{raised}) (A8)")
                if bid > money[seat]:
                    raise self.fail(cw, f"bid {bid} is illegal: seat {seat} has only "
                                        f"{money[seat]} coins (A8)")
                price, high, passes = bid, seat, 0
            closed = (high is None and passes == n) or (high is not None and passes == n - 1)
            if closed and k != len(calls) - 1:
                raise self.fail(f"{where}, call {k + 1}",
                                "the lot was already " + ("unsold (A11)" if high is None else
                                                          f"sold to seat {high} (A10)")
                                + f" after call {k}, yet more calls follow")
        if not ((high is None and passes == n) or (high is not None and passes == n - 1)):
            raise self.fail(where, f"the calls stop after {len(calls)} calls with the lot still "
                                   f"open ({passes} passes in a row"
                                   + (f" after seat {high}'s bid of {price}" if high is not None else "")
                                   + f"; it closes after {n - 1} passes following a bid (A10) or "
                                     f"{n} passes without one (A11))")
        return (high, price) if high is not None else (None, None)

    def sealed(self, calls: list, where: str, starter: int, money: list[int]):
        """Sealed form: one bid or none per seat from the starter; highest wins, a tie goes
        to the earliest seat from the starter; no bid leaves the lot unsold."""
        n, min_bid = self.n, self.rules["min_bid"]
        if len(calls) != n:
            raise self.fail(where, f"the sealed form has exactly one entry per seat ({n}), "
                                   f"got {len(calls)}")
        buyer, price = None, None
        for k in range(n):
            seat, bid, cw = self.read_call(calls, k, where, starter)
            if bid is None:
                continue
            if not min_bid <= bid <= money[seat]:
                raise self.fail(cw, f"sealed bid {bid} is illegal: legal bids are "
                                    f"{min_bid}..{money[seat]} (min_bid to the seat's money) (A8)")
            if price is None or bid > price:
                buyer, price = seat, bid
        return buyer, price

    # -- the match -----------------------------------------------------------------
    def run(self) -> Replayed:
        self.check_rules()
        n, rules = self.n, self.rules
        if "strategies" in self.trace and (not isinstance(self.trace["strategies"], list)
                                           or len(self.trace["strategies"]) != n):
            raise self.fail("", f"strategies must name one strategy per seat ({n})")
        deals = self.field(self.trace, "deals", "")
        if not isinstance(deals, list) or len(deals) != rules["deals_per_match"]:
            raise self.fail("", f"a match has deals_per_match={rules['deals_per_match']} deals, "
                                f"the trace has {len(deals) if isinstance(deals, list) else deals!r}")
        money = [0] * n
        points = [0] * n
        for d, deal in enumerate(deals):
            money, scores = self.check_deal(d, deal, money)
            points = [p + x for p, x in zip(points, scores)]
        # A14, A15: money left after the last deal is worth leftover_value per coin, even
        # when carry_money is false (that key only concerns money between deals).
        totals = [points[s] + rules["leftover_value"] * money[s] for s in range(n)]
        got = self.seat_list(self.trace, "totals", "match", number=_is_number)
        for s in range(n):
            if not _same_number(got[s], totals[s]):
                raise self.fail(f"match, seat {s}",
                                f"total {got[s]!r}, expected {totals[s]!r} = points {points[s]} + "
                                f"leftover_value {rules['leftover_value']} x money {money[s]} (A15)")
        best = max(totals)
        winners = [s for s in range(n) if totals[s] == best]
        if self.field(self.trace, "winners", "match") != winners:
            raise self.fail("match", f"winners {self.trace['winners']!r}, expected {winners}: "
                                     f"the highest total {best}, ties shared (A15)")
        return Replayed(totals, winners, self.checked["calls"],
                        {"points": points, "money_end": money, "deals": len(deals),
                         "lots": self.checked["lots"]})


def replay(trace: dict) -> Replayed:
    """Check an auktsion trace against the rules and re-derive its results: the totals
    (``scores``), the winners, the calls checked (``actions``) and per seat ``points``
    and ``money_end`` (``details``, with ``deals`` and ``lots``). Raises :class:`~sim.errors.RefereeError`
    naming the deal, lot, call and seat of the first thing that is wrong.
    """
    return _Referee(trace).run()
