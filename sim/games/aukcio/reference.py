"""A plain-Python reference engine for aukcio (``rules/aukcio.md``): the slow path.

It plays the same matches as the numba kernel -- same random streams, same deal, same
policies, same observation and hand vectors -- with nothing but Python ints, floats and
lists, so that

- a test can assert ``reference.play(rules, seats, seed, i) == GAME.trace(...)``: two
  independent implementations of rules K1-K14 agree event for event (calls, payments,
  draws, reshuffles);
- a user can prototype a policy as a plain Python function (:class:`PythonPolicy`)
  before writing it for numba. This path is slow and is labelled so: a Python policy's
  label starts with ``python:``;
- the benchmark has a plain-Python baseline (:func:`play_many`).

This module holds the rules (:class:`Match`), the payment and the ports of the
policies; what every reference engine shares -- :class:`PythonPolicy`, turning
strategies into seats (:func:`seats_from`), ``play`` and ``play_many`` -- is
``sim/reference.py``.

Ported here, and kept in step with their originals:

- ``sim/rng.py``, through its plain-Python twin ``sim/pyrng.py``: stream 0 deals (the
  auction deck's shuffle, then the money deck's, then every reshuffle of the payment
  pile, K12), stream ``1 + seat`` feeds that seat's policy;
- the match loop of ``kernel.py``: the deal one card at a time from the dealer's left
  (K4), the turner and the seat sitting out (K5, K9), the ace draws (K10), the two
  bidding forms (K6, K7), unsold cards (K11, with ``bottom``'s once-unsold mark that a
  sale clears), the buyer's draws and the win (K9, K13, K14), and the order in which
  all of them change the public vector;
- the ceiling/decide protocol of ``strategies/aukcio.py``: in open bidding every seat
  still in the lot states its ceiling when the bidding starts, and a seat with one bids
  the smallest legal bid while that is within its ceiling and the most it can pay, and
  passes otherwise; ``random`` (whose ceiling is ``ASK``), Python policies and every
  single-bidding call are asked call by call;
- the three policies of ``strategies/aukcio.py`` (``passive``, ``random``,
  ``setvalue``), with the same float arithmetic in the same order, so the results are
  bitwise equal;
- the public vector and hand vector of ``obs.py`` (offsets imported from there), the sets
  of ``core.py`` (as lists).

The payment (K8, :func:`best_payment`) is not a port of ``payment.py``'s search but an
independent computation with the same unique answer: a dynamic programme over the
values from the tens down that keeps, per (value so far, jokers used), the partial
payment with the fewest cards and then the most cards of the highest values; of the
payments that reach the price it takes the one that overpays least, then has the
fewest cards, then the fewest jokers, then the most tens, nines, ... (``payment.py``'s
tie-break). The buyer hands over the lowest suit he holds of each value (C < D < H < S),
as ``kernel._pay`` does.

A plain-Python policy is called as ``policy(obs, hand, params, rng)``: ``obs`` (the
public information) and ``hand`` (the seat's own money: cards per value, jokers last,
then the most it can pay and the cards it holds) lists of floats laid out as in
``obs.py`` (copies: changing them changes nothing), ``params`` a tuple of floats,
``rng`` a ``sim.pyrng.Stream`` with ``below(n)`` and ``uniform()``. It returns a bid in
thousands or ``-1`` (``PASS``). It is asked for every call it makes, in both bidding
forms. A bare function or a ``(function, params)`` pair is taken as a
:class:`PythonPolicy` (aukcio has one decision kind, ``bid``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from numbers import Integral
from typing import Any

from sim import reference as shared
from sim.cards import format_card
from sim.errors import IllegalActionError
from sim.games.aukcio import core as C
from sim.games.aukcio import obs as O
from sim.games.aukcio.rules import FACE_PER_DECK, JOKERS_PER_DECK
from sim.games.aukcio.rules import make as make_rules
from sim.harness import trace_header
from sim.reference import Ports, PythonPolicy, ReferenceMatch, Seat
from sim.rules import Rules

__all__ = ["PASS", "Match", "PythonPolicy", "best_payment", "most_payable", "play", "play_many",
           "seats_from", "smallest_bid"]

PASS = O.PASS
JOKER_CARD = 52
NUMBER_VALUES = 9
"""Number-card values 2..10, at value index 0..8; the jokers are at ``O.JOKER`` (9)."""
SETS: list[list[int]] = C.SETS.tolist()
KIND_SETS: list[list[int]] = C.KIND_SETS.tolist()
SET_KIND: list[int] = C.SET_KIND.tolist()


def kind_of(card: int) -> int:
    """A face card's kind (``suit * 4 + rank``, rank 0..3 = J, Q, K, A)."""
    return (card // 13) * 4 + card % 13 - 9


def kind_card(kind: int) -> int:
    """The card code of a face-card kind."""
    return (kind // 4) * 13 + 9 + kind % 4


def completing_set(owned: list[int], kind: int) -> int:
    """The first set (index into SETS) that ``kind`` completes for a seat owning
    ``owned`` (counts per kind), or -1 (``core.completing_set``)."""
    for k in KIND_SETS[kind]:
        if k < 0:
            return -1
        if all(other == kind or owned[other] > 0 for other in SETS[k]):
            return k
    return -1


# -- money (K3, K6, K8) -----------------------------------------------------------------

def most_payable(counts: list[int], jokers_per_payment: int) -> int:
    """The most a seat can pay (K6): every number card, the highest of them doubled by
    as many jokers as it may pay."""
    total = 0
    doubled = min(counts[O.JOKER], jokers_per_payment)
    for i in range(NUMBER_VALUES - 1, -1, -1):
        c = counts[i]
        d = min(c, doubled)
        total += (c + d) * (i + 2)
        doubled -= d
    return total


def _better(a: tuple, b: tuple | None) -> bool:
    """Whether payment ``a`` beats ``b`` (each (value, cards, jokers, cards per value
    from the tens down)): less value (so less overpaid), then fewer cards, then fewer
    jokers, then more cards of the highest value, the next, ... (K8, ``payment.py``)."""
    if b is None:
        return True
    if a[:3] != b[:3]:
        return a[:3] < b[:3]
    return a[3] > b[3]


def best_payment(counts: list[int], jokers_per_payment: int, price: int
                 ) -> tuple[int, list[int]]:
    """(value paid, cards per value with the jokers at ``O.JOKER``) of the payment of
    ``price`` (K8), or (-1, []) when the seat cannot pay it.

    A dynamic programme over the values from the tens down: a partial payment is
    (value, jokers used) -> (cards, cards per value so far); of two with the same value
    and jokers, every way to finish one finishes the other, so the one with fewer cards,
    then more cards of the higher values, is kept. A partial payment that reaches the
    price is a candidate and is not extended (any card more overpays more)."""
    limit = min(counts[O.JOKER], jokers_per_payment, 3)
    below = [0] * (NUMBER_VALUES + 1)        # below[i]: values 0..i-1 all doubled, at most
    for i in range(NUMBER_VALUES):
        below[i + 1] = below[i] + 2 * counts[i] * (i + 2)
    states: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(0, 0): (0, ())}
    best: tuple | None = None
    for i in range(NUMBER_VALUES - 1, -1, -1):
        v, c = i + 2, counts[i]
        pad = (0,) * i
        grown: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        for (t, u), (n, take) in states.items():
            for d in range(min(c, limit - u) + 1):
                for k in range(c - d + 1):
                    t2, n2 = t + (k + 2 * d) * v, n + k + 2 * d
                    here = take + (k + d,)
                    if t2 >= price:
                        candidate = (t2, n2, u + d, here + pad)
                        if _better(candidate, best):
                            best = candidate
                        break                 # one card more only overpays more
                    if t2 + below[i] < price:
                        continue
                    key = (t2, u + d)
                    old = grown.get(key)
                    if old is None or n2 < old[0] or (n2 == old[0] and here > old[1]):
                        grown[key] = (n2, here)
        states = grown
    if best is None:
        return -1, []
    pay = list(reversed(best[3])) + [best[2]]
    return best[0], pay


# -- the three policies (port of strategies/aukcio.py) ---------------------------------------

ASK = O.ASK
MEAN_CARD = 216.0 / 39.0
"""Mean value of a money card (``strategies.aukcio.MEAN_CARD``)."""
(P_START, P_ADVANCE, P_BLOCK, P_BLOCK_PAIR, P_DRAW_WEIGHT, P_SHADE) = range(6)


def smallest_bid(o: list[float]) -> int:
    """Smallest legal bid now (K6)."""
    return int(o[O.HIGH_BID]) + 1


def _available(o: list[float], seat: int, kind: int, k: int) -> bool:
    """Whether set ``k`` can still be completed by ``seat`` once it owns ``kind``."""
    base = O.OWNED + seat * O.KINDS
    for other in SETS[k]:
        if other != kind and o[base + other] == 0 and o[O.IN_DECK + other] == 0:
            return False
    return True


def _progress(o: list[float], seat: int, kind: int) -> tuple[int, int, int]:
    """(sets ``kind`` completes, makes two of three, starts) for ``seat``, among the
    sets still available to it."""
    done = two = one = 0
    base = O.OWNED + seat * O.KINDS
    for k in KIND_SETS[kind]:
        if k < 0:
            break
        if not _available(o, seat, kind, k):
            continue
        have = 0
        for other in SETS[k]:
            if other != kind and o[base + other] > 0:
                have += 1
        if have == 2:
            done += 1
        elif have == 1:
            two += 1
        else:
            one += 1
    return done, two, one


def _setvalue_ceiling(o: list[float], hand: list[float], p: Sequence[float], rng: Any) -> int:
    """``setvalue_ceiling`` of strategies/aukcio.py, operation for operation."""
    seat = int(o[O.SEAT])
    kind = int(o[O.CARD])
    most = hand[O.HAND_MOST]
    done, two, one = _progress(o, seat, kind)
    if done > 0:
        return int(most)                       # the card wins the game (K14)
    share = p[P_ADVANCE] * two + p[P_START] * one
    sitting_out = int(o[O.SITTING_OUT])
    block = 0.0
    for r in range(int(o[O.PLAYERS])):
        if r == seat:
            continue
        if r == sitting_out and o[O.BOTTOM] == 0:
            continue
        rd, rt, _ = _progress(o, r, kind)
        if rd > 0:
            block = max(block, p[P_BLOCK])
        elif rt > 0:
            block = max(block, p[P_BLOCK_PAIR])
    share = min(1.0, share + block)
    budget = most + p[P_DRAW_WEIGHT] * o[O.BUYER_DRAW] * MEAN_CARD
    return int(min(most, float(math.floor(share * budget))))


def _passive_ceiling(o: list[float], hand: list[float], p: Sequence[float], rng: Any) -> int:
    return 0


def _decide(top: int, o: list[float], hand: list[float], shade: float | None) -> int:
    """``decide`` of a ceiling policy whose ceiling is ``top``: pass when the smallest
    legal bid is above it (or above the most the seat can pay); open bidding, the
    smallest legal bid; single bidding, the ceiling, shaded by ``shade`` (setvalue)
    unless the card is worth all the seat's money."""
    lo = smallest_bid(o)
    most = int(hand[O.HAND_MOST])
    top = min(top, most)
    if lo > top:
        return PASS
    if o[O.SINGLE] == 0:
        return lo
    if shade is not None and top < most:
        return max(lo, math.floor(shade * top))
    return top


def _passive(o, hand, p, rng) -> int:
    return _decide(_passive_ceiling(o, hand, p, rng), o, hand, None)


def _setvalue(o, hand, p, rng) -> int:
    return _decide(_setvalue_ceiling(o, hand, p, rng), o, hand, p[P_SHADE])


def _random(o, hand, p, rng) -> int:
    lo = smallest_bid(o)
    most = int(hand[O.HAND_MOST])
    if lo > most or rng.uniform() >= p[0]:
        return PASS
    hi = min(most, lo + int(p[1]))
    return lo + rng.below(hi - lo + 1)


# The ports, per decision kind: policy name -> its call (``decide``). A ceiling policy
# also has a ceiling (the highest open-bidding price it pays for the lot, settled when
# the bidding starts, as the kernel does); ``random`` (ceiling ASK) and Python policies
# are asked for every call.
PORTS = Ports("aukcio", make_rules,
              {"bid": {"passive": _passive, "random": _random, "setvalue": _setvalue}},
              "policy(obs, hand, params, rng)")
CEILINGS: dict[str, Callable] = {"passive": _passive_ceiling, "setvalue": _setvalue_ceiling}


def seats_from(strategies: Any, n: int) -> list[Seat]:
    """One seat per player (see ``sim.reference.seats_from``)."""
    return shared.seats_from(PORTS, strategies, n)


# -- the match --------------------------------------------------------------------------

class Match(ReferenceMatch):
    """One aukcio match, played with ``play`` and read with ``trace`` (the JSON hand
    history of ``trace.py``) or ``figures`` (the columns of the kernel's ``seats`` table
    and the match's lots, sales and reshuffles), or ``observation`` mid-match.

    ``strategies`` is anything :func:`seats_from` takes. With ``record`` the match keeps
    the hand history; without it, only the figures :func:`play_many` needs.
    """

    PORTS = PORTS
    CEILINGS = CEILINGS
    FIGURES = ("score", "win", "set_kind", "face_cards", "money_spent", "overpaid",
               "cards_paid", "jokers_paid", "cards_drawn", "money_left", "cards_left",
               "lots", "sales", "reshuffles")

    def __init__(self, rules: Rules | Mapping[str, Any] | None, strategies: Any, seed: int,
                 index: int, record: bool = True):
        super().__init__(rules, strategies, seed, index, record)
        rules, n = self.rules, self.n
        self.jokers = rules.jokers_per_payment
        self.single = rules.bidding == "single"
        self.bottom = rules.unsold == "bottom"
        self.dealer = rules.first_dealer
        self.winner, self.won_set = -1, -1
        self.lots_played = self.sales = self.reshuffles = 0
        self.face = [0] * n
        self.spent = [0] * n
        self.overpaid = [0] * n
        self.cards_paid = [0] * n
        self.jokers_paid = [0] * n
        self.drawn = [0] * n
        self.lot_records: list[dict] = []
        self.owned_cards: list[list[str]] = [[] for _ in range(n)]

    # -- what a seat sees ---------------------------------------------------------------
    def observation(self, seat: int) -> tuple[list[float], list[float]]:
        """Copies of what ``seat`` would be shown if asked now: (public, hand)."""
        o = list(self.o)
        o[O.SEAT] = float(seat)
        return o, list(self.h[seat])

    def _refresh_hand(self, s: int) -> None:
        """Seat ``s``'s hand vector and public card count after its money changed."""
        counts = self.counts[s]
        held = sum(counts)
        self.h[s] = [float(c) for c in counts] + [float(most_payable(counts, self.jokers)),
                                                  float(held)]
        self.o[O.MONEY_CARDS + s] = float(held)

    def _take(self, s: int, c: int) -> None:
        self.hands[s][c] += 1
        self.counts[s][O.JOKER if c == JOKER_CARD else c % 13] += 1

    def _set_call(self, s: int, high: int, bidder: int, calls: int) -> None:
        o = self.o
        o[O.SEAT] = float(s)
        o[O.HIGH_BID] = float(high)
        o[O.HIGH_BIDDER] = float(bidder)
        o[O.CALLS] = float(calls)

    # -- the deal (K1, K2, K4) ----------------------------------------------------------
    def _deal(self) -> None:
        n, rules, rng = self.n, self.rules, self.deal_rng
        decks = rules.decks
        size = FACE_PER_DECK * decks
        auction = [kind_card(k % O.KINDS) for k in range(size)]
        rng.shuffle(auction)
        money: list[int] = []
        for _ in range(decks):
            money += [suit * 13 + r for suit in range(4) for r in range(NUMBER_VALUES)]
            money += [JOKER_CARD] * JOKERS_PER_DECK
        rng.shuffle(money)
        # The auction deck from its top, each card with its unsold-once mark (K11).
        self.auction = [[c, 0] for c in auction]
        self.draw, self.dtop, self.paid = money, 0, []
        self.hands = [[0] * 53 for _ in range(n)]
        self.counts = [[0] * O.VALUES for _ in range(n)]
        self.owned = [[0] * O.KINDS for _ in range(n)]
        o = self.o = [0.0] * O.SIZE
        o[O.PLAYERS] = float(n)
        o[O.DECKS] = float(decks)
        o[O.HAND_SIZE] = float(rules.hand_size)
        o[O.BUYER_DRAW] = float(rules.buyer_draw)
        o[O.ACE_DRAW] = float(rules.ace_draw)
        o[O.JOKERS_PER_PAYMENT] = float(rules.jokers_per_payment)
        o[O.SINGLE] = 1.0 if self.single else 0.0
        o[O.BOTTOM] = 1.0 if self.bottom else 0.0
        for _ in range(rules.hand_size):           # one card at a time from the dealer's left
            for k in range(1, n + 1):
                self._take((self.dealer + k) % n, money[self.dtop])
                self.dtop += 1
        self.h = [[] for _ in range(n)]
        for s in range(n):
            self._refresh_hand(s)
        for kind in range(O.KINDS):
            o[O.IN_DECK + kind] = float(decks)
        o[O.DRAW_PILE] = float(len(money) - self.dtop)
        o[O.SITTING_OUT] = -1.0
        if self.record:
            dealt = n * rules.hand_size
            self.deal_record = {
                "auction_deck": [format_card(c) for c in auction],
                "money_deck": [format_card(c) for c in money[dealt:]],
                "hands": [[format_card(money[k]) for k in range(dealt)
                           if (self.dealer + 1 + k) % n == s] for s in range(n)],
            }

    def _draw(self, s: int) -> int:
        """Seat ``s`` draws the top money card (K12: the payment pile is shuffled into a
        new draw pile when the draw pile is empty; nothing when both are). The card, or -1."""
        o = self.o
        if self.dtop == len(self.draw):
            if not self.paid:
                return -1
            draw = self.paid
            self.deal_rng.shuffle(draw)
            self.draw, self.dtop, self.paid = draw, 0, []
            self.reshuffles += 1
            if self.record:
                self.lot_record["reshuffles"].append([format_card(c) for c in draw])
            for i in range(O.VALUES):
                o[O.PAID + i] = 0.0
            o[O.PAYMENT_PILE] = 0.0
        c = self.draw[self.dtop]
        self.dtop += 1
        o[O.DRAW_PILE] = float(len(self.draw) - self.dtop)
        self._take(s, c)
        self._refresh_hand(s)
        self.drawn[s] += 1
        return c

    def _pay(self, s: int, price: int) -> int:
        """The buyer pays ``price`` (K8) into the payment pile, the lowest suit he holds
        of each value; returns the value paid."""
        o, hand, counts = self.o, self.hands[s], self.counts[s]
        value, pay = best_payment(counts, self.jokers, price)
        paid: list[int] = []
        for i in range(O.VALUES):
            for _ in range(pay[i]):
                c = JOKER_CARD if i == O.JOKER else i
                while hand[c] == 0:
                    c += 13
                hand[c] -= 1
                counts[i] -= 1
                self.paid.append(c)
                o[O.PAID + i] += 1.0
                paid.append(c)
        o[O.PAYMENT_PILE] = float(len(self.paid))
        self._refresh_hand(s)
        self.spent[s] += value
        self.overpaid[s] += value - price
        self.cards_paid[s] += len(paid)
        self.jokers_paid[s] += pay[O.JOKER]
        if self.record:
            self.lot_record["payment"] = [format_card(c) for c in paid]
        return value

    # -- a lot (K5-K14) -----------------------------------------------------------------
    def _open_lot(self, card: int, turner: int, sitting_out: int, lot: int) -> int:
        """Turn ``card`` (K5), set up the public view of the lot, make the ace draws
        (K10); returns the first speaker."""
        n, o = self.n, self.o
        kind = kind_of(card)
        first = turner if turner != sitting_out else (turner + 1) % n
        o[O.LOT], o[O.CARD], o[O.TURNER] = float(lot), float(kind), float(turner)
        o[O.SITTING_OUT], o[O.FIRST] = float(sitting_out), float(first)
        o[O.IN_DECK + kind] -= 1.0
        o[O.AUCTION_LEFT] = float(len(self.auction))
        for s in range(n):
            o[O.IN_LOT + s] = 0.0 if s == sitting_out else 1.0
        if self.record:
            self.lot_record = {"card": format_card(card), "turner": turner,
                               "sitting_out": sitting_out if sitting_out >= 0 else None,
                               "ace_draws": [], "calls": [], "buyer": None, "price": None,
                               "payment": [], "buyer_draws": [], "reshuffles": [],
                               "unsold": None}
            self.lot_records.append(self.lot_record)
        if kind % 4 == 3:
            for _ in range(self.rules.ace_draw):
                for k in range(1, n):
                    s = (turner + k) % n
                    c = self._draw(s)
                    if c >= 0 and self.record:
                        self.lot_record["ace_draws"].append([s, format_card(c)])
        return first

    def _checked(self, s: int, bid: Any, lo: int, most: int, lot: int) -> int:
        """``bid`` as an int if it is a pass or a legal bid (K6: ``lo`` up to the most
        the seat can pay); otherwise an IllegalActionError naming match, lot, seat and
        policy."""
        whole = isinstance(bid, Integral) and not isinstance(bid, bool)
        if whole and (bid == PASS or lo <= bid <= most):
            return int(bid)
        where = f"match {self.index}, lot {lot}, seat {s}: policy {self.seats[s].label!r}"
        legal = (f"a bid of {lo}..{most} or a pass ({PASS})" if lo <= most else
                 f"only a pass ({PASS}): the smallest bid {lo} > the most it can pay, {most}")
        if not whole:
            raise IllegalActionError(f"{where} returned {bid!r}, not a whole number of "
                                     f"thousands; legal: {legal} (rules K6, K7)")
        raise IllegalActionError(f"{where} bid {bid}, which is illegal; legal: {legal} "
                                 f"(rules K6, K7)")

    def _bidding(self, s: int, lot: int) -> tuple[int, int]:
        """The calls of one lot (K6, K7) from seat ``s``: (buyer or -1, price)."""
        n, o, single = self.n, self.o, self.single
        in_lot = O.IN_LOT
        high, bidder, calls = 0, -1, 0
        left = 0
        caps: list[int | None] = [None] * n
        for t in range(n):
            if o[in_lot + t] > 0:
                left += 1
                if not single:
                    self._set_call(t, high, bidder, calls)
                    ceiling = self.ceilings[t]
                    if ceiling is not None:
                        caps[t] = ceiling(o, self.h[t], self.bids[t].params, self.rngs[t])
        record = self.lot_record["calls"] if self.record else None
        while True:
            if o[in_lot + s] > 0:
                lo = high + 1
                most = int(self.h[s][O.HAND_MOST])
                cap = caps[s]
                if cap is None:
                    self._set_call(s, high, bidder, calls)
                    bid = self._checked(s, self.ask(s, "bid", o, self.h[s]), lo, most, lot)
                else:
                    bid = lo if lo <= cap and lo <= most else PASS
                if record is not None:
                    record.append({"seat": s, "bid": None if bid == PASS else bid})
                calls += 1
                if bid == PASS or single:
                    o[in_lot + s] = 0.0
                    left -= 1
                if bid != PASS:
                    high, bidder = bid, s
                # open: the lot ends when all but the high bidder have passed (or all have)
                if left == 0 or (not single and left == 1 and bidder >= 0
                                 and o[in_lot + bidder] > 0):
                    return bidder, high
            s = s + 1 if s + 1 < n else 0

    def _lot(self, card: int, mark: int, lot: int, first: int) -> tuple[int, int]:
        """Bid for ``card`` and settle the lot (K8-K11, K14): (buyer or -1, the set the
        purchase completed or -1)."""
        o = self.o
        kind = kind_of(card)
        buyer, price = self._bidding(first, lot)
        if buyer < 0:                                                # K11
            under = self.bottom and mark == 0
            if under:
                self.auction.append([card, 1])
                o[O.IN_DECK + kind] += 1.0
            if self.record:
                self.lot_record["unsold"] = "bottom" if under else "discard"
            return -1, -1
        if self.record:                                              # K8, K9
            self.lot_record["buyer"], self.lot_record["price"] = buyer, price
            self.owned_cards[buyer].append(self.lot_record["card"])
        self._pay(buyer, price)
        self.owned[buyer][kind] += 1
        o[O.OWNED + buyer * O.KINDS + kind] += 1.0
        self.face[buyer] += 1
        done = completing_set(self.owned[buyer], kind)
        for entry in self.auction:                                   # a sale clears the marks
            entry[1] = 0
        if done >= 0:                                                # K14: the buyer wins
            return buyer, done
        for _ in range(self.rules.buyer_draw):
            c = self._draw(buyer)
            if c >= 0 and self.record:
                self.lot_record["buyer_draws"].append(format_card(c))
        return buyer, -1

    def play(self) -> Match:
        """Deal, then turn and sell cards until a set is made or the auction deck is
        empty (K4-K14)."""
        self._deal()
        n = self.n
        turner, sitting_out, lot = (self.dealer + 1) % n, -1, 0
        while self.auction:
            card, mark = self.auction.pop(0)
            first = self._open_lot(card, turner, sitting_out, lot)
            buyer, done = self._lot(card, mark, lot, first)
            lot += 1
            if buyer >= 0:
                self.sales += 1
            if done >= 0:
                self.winner, self.won_set = buyer, done
                break
            sitting_out = buyer                                      # K9 (-1 after no sale)
            turner = (turner + 1) % n
        self.lots_played = lot
        return self

    # -- the result ---------------------------------------------------------------------
    def scores(self) -> list[float]:
        """K14: 1 for the winner, 0 for everyone else (all 0 in a draw)."""
        return [1.0 if s == self.winner else 0.0 for s in range(self.n)]

    def result(self) -> dict:
        """The trace's fields after its header, as ``trace.py`` writes them."""
        won = self.won_set
        return {
            "dealer": self.dealer,
            **self.deal_record,
            "lots": self.lot_records,
            "owned": self.owned_cards,
            "money_end": [sorted(format_card(c) for c in range(53) for _ in range(hand[c]))
                          for hand in self.hands],
            "winner": self.winner if self.winner >= 0 else None,
            "set": [format_card(kind_card(k)) for k in SETS[won]] if won >= 0 else None,
            "scores": self.scores(),
        }

    def trace(self, labels: Sequence[str] | None = None) -> dict:
        """The JSON hand history of ``trace.py`` (``labels`` replace the seats' labels).
        One deal per match: the trace has no ``deals`` list, its fields are
        :meth:`result`'s."""
        labels = tuple(labels) if labels is not None else tuple(s.label for s in self.seats)
        return {**trace_header(self.PORTS.game, self.rules, self.seed, self.index, labels),
                **self.result()}

    def figures(self) -> dict[str, Any]:
        """The columns of the kernel's ``seats`` table, per seat (``set_kind``: what the
        winner made, ``core`` RANK_SET / RUN_JQK / RUN_QKA, -1 for everyone else), and the
        match's ``lots``, ``sales`` and ``reshuffles``."""
        n, scores = self.n, self.scores()
        won = SET_KIND[self.won_set] if self.won_set >= 0 else -1
        return {"score": scores, "win": list(scores),
                "set_kind": [won if s == self.winner else -1 for s in range(n)],
                "face_cards": list(self.face), "money_spent": list(self.spent),
                "overpaid": list(self.overpaid), "cards_paid": list(self.cards_paid),
                "jokers_paid": list(self.jokers_paid), "cards_drawn": list(self.drawn),
                "money_left": [sum(c[i] * (i + 2) for i in range(NUMBER_VALUES))
                               for c in self.counts],
                "cards_left": [sum(c) for c in self.counts],
                "lots": self.lots_played, "sales": self.sales, "reshuffles": self.reshuffles}


play, play_many = shared.entry_points(Match)
