"""A plain-Python reference engine for auktsion (``rules/auktsion.md``): the slow path.

It plays the same matches as the numba kernel -- same random streams, same policies,
same observation vector -- with nothing but Python ints, floats and lists, so that

- a test can assert ``reference.play(rules, seats, seed, i) == GAME.trace(...)``: two
  independent implementations of rules A1-A15 agree call for call;
- a user can prototype a policy as a plain Python function (:class:`PythonPolicy`)
  before writing it for numba. This path is slow (some 50-100 times slower than the
  kernel on one core) and is labelled so: a Python policy's label starts with ``python:``;
- the benchmark has a plain-Python baseline (:func:`play_many`).

This module holds the rules (:class:`Match`) and the ports of the policies; what every
reference engine shares -- :class:`PythonPolicy`, turning strategies into seats
(:func:`seats_from`), ``play`` and ``play_many`` -- is ``sim/reference.py``.

Ported here, and kept in step with their originals:

- ``sim/rng.py``, through its plain-Python twin ``sim/pyrng.py``: stream 0 deals the
  cards, stream ``1 + seat`` feeds that seat's policy (``sim.pyrng.Stream``);
- ``strategies/auktsion.py``: the four policies, with the same float arithmetic in the
  same order, so the results are bitwise equal;
- the public observation and hand vectors of ``obs.py`` (offsets imported from there).

A plain-Python policy is called as ``policy(obs, hand, params, rng)``: ``obs`` (the
public information) and ``hand`` (the seat's own cards, per rank) lists of floats laid
out as in ``obs.py`` (copies: changing them changes nothing), ``params`` a tuple of
floats, ``rng`` a ``sim.pyrng.Stream`` with ``below(n)`` and ``uniform()``. It returns a
bid in coins or ``-1`` (``PASS``). It is asked for every call it makes, in the open
form and in the sealed form. A bare function or a ``(function, params)`` pair is
taken as a :class:`PythonPolicy` (auktsion has one decision kind, ``bid``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from numbers import Integral
from typing import Any

from sim import reference as shared
from sim.cards import RANKS, format_card
from sim.errors import IllegalActionError
from sim.games.auktsion import obs as O
from sim.games.auktsion.rules import make as make_rules
from sim.reference import Ports, PythonPolicy, ReferenceMatch, Seat
from sim.rules import Rules

__all__ = ["PASS", "Match", "PythonPolicy", "play", "play_many", "seats_from", "smallest_bid"]

PASS = O.PASS

# -- the four policies (port of strategies/auktsion.py) -------------------------------------

def smallest_bid(o: list[float]) -> int:
    """Smallest legal bid now (A8)."""
    lo = o[O.MIN_BID]
    if o[O.HIGH_BIDDER] >= 0:
        lo = max(lo, o[O.PRICE] + o[O.MIN_RAISE])
    return int(lo)


def _richest_rival(o: list[float]) -> float:
    best = 0.0
    seat = int(o[O.SEAT])
    for s in range(int(o[O.PLAYERS])):
        if s != seat:
            best = max(best, o[O.MONEY + s])
    return best


def _budget_worth(o: list[float], hand: list[float], p: Sequence[float]) -> float:
    """``budget_ceiling`` of strategies/auktsion.py, operation for operation."""
    seat = int(o[O.SEAT])
    lot = int(o[O.LOT])
    value = hand[O.HAND_POINTS + lot]
    money = o[O.MONEY + seat]
    if value <= 0.0 or money <= 0.0:
        return 0.0
    points_to_come = hand[O.HAND_REST + lot]
    coins = money
    if o[O.CARRY_MONEY] > 0:
        later = o[O.DEALS] - o[O.DEAL] - 1
        per_hand = o[O.MEAN_HAND]
        points_to_come += p[1] * later * per_hand
        coins += later * max(0.0, o[O.START_MONEY] - per_hand)
    worth = p[0] * value * coins / points_to_come
    if o[O.LEFTOVER_VALUE] > 0.0:
        worth = min(worth, value / o[O.LEFTOVER_VALUE])
    return min(worth, money, _richest_rival(o) + o[O.MIN_RAISE])


def _passive_ceiling(o, hand, p, rng) -> int:
    return 0


def _value_ceiling(o, hand, p, rng) -> int:
    return math.floor(p[0] * hand[O.HAND_POINTS + int(o[O.LOT])])


def _budget_ceiling(o, hand, p, rng) -> int:
    return math.floor(_budget_worth(o, hand, p))


def _under(top: int, o: list[float]) -> int:
    """A ceiling policy's call: sealed, its ceiling (at most its money) if that is a
    legal bid; open, the smallest legal bid while that is within ceiling and money."""
    lo = smallest_bid(o)
    money = int(o[O.MONEY + int(o[O.SEAT])])
    if o[O.SEALED] > 0:
        top = min(top, money)
        return top if top >= lo else PASS
    return lo if lo <= top and lo <= money else PASS


def _passive(o, hand, p, rng) -> int:
    return _under(0, o)


def _value(o, hand, p, rng) -> int:
    return _under(_value_ceiling(o, hand, p, rng), o)


def _budget(o, hand, p, rng) -> int:
    if o[O.SEALED] > 0:
        return _under(math.floor(p[2] * _budget_worth(o, hand, p)), o)  # sealed bids are shaded
    return _under(_budget_ceiling(o, hand, p, rng), o)


def _random(o, hand, p, rng) -> int:
    lo = smallest_bid(o)
    money = int(o[O.MONEY + int(o[O.SEAT])])
    if lo > money or rng.uniform() >= p[0]:
        return PASS
    hi = min(money, lo + int(p[1]))
    return lo + rng.below(hi - lo + 1)


# The ports, per decision kind: policy name -> its call. A ceiling policy also has a
# ceiling (the highest open-form price it pays for the lot, settled without asking it
# call by call, as the kernel does); the others are asked for every call.
PORTS = Ports("auktsion", make_rules,
              {"bid": {"passive": _passive, "random": _random, "value": _value, "budget": _budget}},
              "policy(obs, hand, params, rng)")
CEILINGS: dict[str, Callable] = {"passive": _passive_ceiling, "value": _value_ceiling,
                                 "budget": _budget_ceiling}


def seats_from(strategies: Any, n: int) -> list[Seat]:
    """One seat per player (see ``sim.reference.seats_from``)."""
    return shared.seats_from(PORTS, strategies, n)


# -- the match --------------------------------------------------------------------------

class Match(ReferenceMatch):
    """One auktsion match, played all at once (``play``) or step by step
    (``start_deal``, ``play_lot`` per rank, ``end_deal``), then read with ``trace``,
    ``totals`` or ``observation``.

    ``strategies`` is anything :func:`seats_from` takes. With ``record`` the match keeps
    the JSON hand history of ``trace.py``; without it, only the figures
    :func:`play_many` needs.
    """

    PORTS = PORTS
    CEILINGS = CEILINGS
    FIGURES = ("score", "win", "points", "money_spent", "money_end", "lots_bought")

    def __init__(self, rules: Rules | Mapping[str, Any] | None, strategies: Any, seed: int,
                 index: int, record: bool = True):
        super().__init__(rules, strategies, seed, index, record)
        rules, n = self.rules, self.n
        self.first_rank = 1 if n == 3 else 0                       # A1: no twos with 3 players
        h, d, s, c = rules.suit_points
        self.suit_points = (c, d, h, s)                              # A2, in card suit order
        self.leftover = float(rules.leftover_value)
        self.money = [0] * n
        self.match_points = [0] * n
        self.spent = [0] * n
        self.bought = [0] * n
        # Public information as the policies see it (layout: obs.py).
        o = self.o = [0.0] * O.SIZE
        o[O.PLAYERS] = float(n)
        o[O.DEALS] = float(rules.deals_per_match)
        o[O.FIRST_RANK] = float(self.first_rank)
        o[O.SEALED] = 1.0 if rules.auction_form == "sealed" else 0.0
        o[O.MIN_BID] = float(rules.min_bid)
        o[O.MIN_RAISE] = float(rules.min_raise)
        o[O.START_MONEY] = float(rules.start_money)
        o[O.CARRY_MONEY] = 1.0 if rules.carry_money else 0.0
        o[O.LEFTOVER_VALUE] = self.leftover
        o[O.DECK_POINTS] = float((13 - self.first_rank) * sum(self.suit_points))
        o[O.MEAN_HAND] = o[O.DECK_POINTS] / o[O.PLAYERS]

    # -- what a seat sees ---------------------------------------------------------------
    def _show(self, seat: int) -> tuple[list[float], list[float]]:
        """What ``seat`` sees: the public vector (with ``SEAT`` set) and its own hand
        vector; no other seat's hidden cards."""
        self.o[O.SEAT] = float(seat)
        return self.o, self.hand_vectors[seat]

    def observation(self, seat: int) -> tuple[list[float], list[float]]:
        """Copies of what ``seat`` would be shown if asked now: (public, hand)."""
        o, hand = self._show(seat)
        return list(o), list(hand)

    def _ask(self, seat: int) -> int:
        return self.ask(seat, "bid", *self._show(seat))

    def _checked(self, seat: int, rank: int, bid: Any, lo: int) -> int:
        """``bid`` as an int if it is a pass or a legal bid (A7, A8: ``lo`` up to the
        seat's money); otherwise an IllegalActionError naming match, seat and policy."""
        whole = isinstance(bid, Integral) and not isinstance(bid, bool)
        hi = self.money[seat]
        if whole and (bid == PASS or lo <= bid <= hi):
            return int(bid)
        where = (f"match {self.index}, deal {self.deal}, lot {RANKS[rank]}, seat {seat}: "
                 f"policy {self.seats[seat].label!r}")
        legal = f"a bid of {lo}..{hi} or a pass ({PASS})" if lo <= hi else \
            f"only a pass ({PASS}): the smallest bid {lo} > money {hi}"
        if not whole:
            raise IllegalActionError(f"{where} returned {bid!r}, not a whole number of coins; "
                                     f"legal: {legal} (rule A7, A8)")
        raise IllegalActionError(f"{where} bid {bid}, which is illegal; legal: {legal} (rule A8)")

    # -- a deal -------------------------------------------------------------------------
    def start_deal(self, d: int, hands: list[list[int]] | None = None) -> None:
        """Deal ``d`` (A1-A4): shuffle with stream 0 (or take ``hands``, card codes per
        seat, for tests), value the hands, hand out money."""
        n, rules, o = self.n, self.rules, self.o
        self.deal = d
        self.dealer = (rules.first_dealer + d) % n                  # A4
        if hands is None:
            deck = [suit * 13 + rank for suit in range(4) for rank in range(self.first_rank, 13)]
            self.deal_rng.shuffle(deck)
            per = len(deck) // n
            hands = [deck[s * per:(s + 1) * per] for s in range(n)]
        self.hands = hands
        value = [[0.0] * 13 for _ in range(n)]                       # A2, per seat and rank
        hand_points = [0] * n
        sp = self.suit_points
        for s, hand in enumerate(hands):
            for card in hand:
                v = sp[card // 13]
                value[s][card % 13] += v
                hand_points[s] += v
        self.value = value
        # The hand vectors (obs.py): points per rank, then in this rank and above.
        self.hand_vectors = [v + [float(sum(v[r:])) for r in range(13)] for v in value]
        for s in range(n):
            if not rules.carry_money:                                # A14
                self.money[s] = 0
            self.money[s] += max(0, rules.start_money - hand_points[s])  # A3
            o[O.MATCH_POINTS + s] = float(self.match_points[s])
            o[O.DEAL_POINTS + s] = 0.0
        self.deal_points = [0] * n
        self.deal_spent = [0] * n
        o[O.DEAL] = float(d)
        o[O.DEALER] = float(self.dealer)
        for r in range(13):
            o[O.LOT_STATUS + r] = float(O.LOT_TO_COME)
            o[O.LOT_BUYER + r] = -1.0
            o[O.LOT_PRICE + r] = 0.0
            o[O.LOT_FACE_UP + r] = 0.0
        self.last_buyer = self.dealer                                # A6
        if self.record:
            self.deal_record = {
                "dealer": self.dealer,
                "hands": [[format_card(c) for c in sorted(hand)] for hand in hands],
                "hand_points": hand_points,
                "money_start": list(self.money),
                "lots": [],
            }

    def play_lot(self, rank: int) -> None:
        """Offer ``rank`` (A5-A12)."""
        n, o, money = self.n, self.o, self.money
        starter = (self.last_buyer + 1) % n                          # A6
        o[O.LOT] = float(rank)
        o[O.STARTER] = float(starter)
        o[O.PRICE] = 0.0
        o[O.HIGH_BIDDER] = -1.0
        o[O.CALLS] = 0.0
        o[O.PASSES] = 0.0
        o[O.LOT_STATUS + rank] = float(O.LOT_OPEN)
        for s in range(n):
            o[O.MONEY + s] = float(money[s])
        calls: list[dict] | None = [] if self.record else None
        if self.rules.auction_form == "sealed":
            buyer, price = self._sealed_lot(rank, starter, calls)
        else:
            buyer, price = self._open_lot(rank, starter, calls)
        if buyer >= 0:                                               # A12
            money[buyer] -= price
            self.spent[buyer] += price
            self.deal_spent[buyer] += price
            self.bought[buyer] += 1
            face_up = self.value[buyer][rank]
            self.deal_points[buyer] += int(face_up)                  # A13
            self.last_buyer = buyer
            o[O.LOT_STATUS + rank] = float(O.LOT_SOLD)
            o[O.LOT_BUYER + rank] = float(buyer)
            o[O.LOT_PRICE + rank] = float(price)
            o[O.LOT_FACE_UP + rank] = face_up
            o[O.DEAL_POINTS + buyer] = float(self.deal_points[buyer])
        else:
            o[O.LOT_STATUS + rank] = float(O.LOT_UNSOLD)                    # A11: last buyer stays
        if self.record:
            self.deal_record["lots"].append({
                "rank": RANKS[rank], "starter": starter, "calls": calls,
                "buyer": buyer if buyer >= 0 else None,
                "price": price if buyer >= 0 else None,
            })

    def _open_lot(self, rank: int, starter: int, calls: list | None) -> tuple[int, int]:
        """Open ascending calls (A7-A11): (buyer or -1, price)."""
        n, o, money = self.n, self.o, self.money
        min_bid, min_raise = self.rules.min_bid, self.rules.min_raise
        # Ceiling policies fix their ceiling for the lot before the first call (as the
        # kernel does: nothing a ceiling depends on changes before the lot is sold).
        caps = [None if ceiling is None else
                ceiling(*self._show(s), self.bids[s].params, self.rngs[s])
                for s, ceiling in enumerate(self.ceilings)]
        price, high, passes, k = 0, -1, 0, 0
        s = starter
        while True:
            lo = min_bid if high < 0 else max(min_bid, price + min_raise)   # A8
            cap = caps[s]
            if cap is not None:
                bid = lo if lo <= cap and lo <= money[s] else PASS
            else:
                o[O.PRICE] = float(price)
                o[O.HIGH_BIDDER] = float(high)
                o[O.CALLS] = float(k)
                o[O.PASSES] = float(passes)
                bid = self._checked(s, rank, self._ask(s), lo)
            if calls is not None:
                calls.append({"seat": s, "bid": None if bid == PASS else bid})
            k += 1
            if bid == PASS:                                          # A9: not out of the lot
                passes += 1
                if high < 0 and passes == n:                         # A11: nobody bid
                    return -1, 0
                if high >= 0 and passes == n - 1:                    # A10: sold
                    return high, price
            else:
                price, high, passes = bid, s, 0
            s = (s + 1) % n

    def _sealed_lot(self, rank: int, starter: int, calls: list | None) -> tuple[int, int]:
        """One sealed bid or none per seat from the starter; the highest wins, a tie goes
        to the earliest seat from the starter; no bid leaves the lot unsold."""
        n, min_bid = self.n, self.rules.min_bid
        buyer, price = -1, 0
        for k in range(n):
            s = (starter + k) % n
            bid = self._checked(s, rank, self._ask(s), min_bid)
            if calls is not None:
                calls.append({"seat": s, "bid": None if bid == PASS else bid})
            if bid != PASS and bid > price:
                buyer, price = s, bid
        return buyer, price

    def end_deal(self) -> None:
        for s in range(self.n):
            self.match_points[s] += self.deal_points[s]
        if self.record:
            record = self.deal_record
            record["scores"] = list(self.deal_points)
            record["spent"] = list(self.deal_spent)
            record["money_end"] = list(self.money)
            self.deals.append(record)

    def play(self, hands: Sequence[list[list[int]]] | None = None) -> Match:
        """Play every deal; ``hands`` (per deal, per seat, card codes) replaces the
        shuffle, for tests that need particular hands."""
        for d in range(self.rules.deals_per_match):
            self.start_deal(d, None if hands is None else hands[d])
            for rank in range(self.first_rank, 13):                  # A5
                self.play_lot(rank)
            self.end_deal()
        return self

    # -- the result ---------------------------------------------------------------------
    def totals(self) -> list[float]:
        """A14, A15: points plus leftover_value per coin left after the last deal."""
        return [self.match_points[s] + self.leftover * self.money[s] for s in range(self.n)]

    def result(self) -> dict:
        totals = self.totals()
        best = max(totals)
        return {"totals": totals, "winners": [s for s, t in enumerate(totals) if t == best]}

    def figures(self) -> dict[str, list]:
        """The columns of the kernel's ``seats`` table: per seat ``score``, ``win``
        (share, ties split), ``points``, ``money_spent``, ``money_end``, ``lots_bought``."""
        totals = self.totals()
        best = max(totals)
        tied = totals.count(best)
        return {"score": totals, "win": [1.0 / tied if t == best else 0.0 for t in totals],
                "points": list(self.match_points), "money_spent": list(self.spent),
                "money_end": list(self.money), "lots_bought": list(self.bought)}


play, play_many = shared.entry_points(Match)
