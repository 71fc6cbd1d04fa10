"""An independent referee for aukcio hand histories (``rules/aukcio.md``, K1-K14).

:func:`replay` reads a JSON trace as written by ``trace.py`` and re-derives every
figure in it from the rules, the deal, the decks and the calls alone: the rule values
(K1, K4), the deal (K2, K4), the card and turner of every lot (K5, K11), the seat that
sits out (K6, K9), the ace draws (K10), the order and legality of every call (K6, K7),
the buyer and price, the payment and its optimality (K3, K8), the buyer's draws (K9),
every reshuffle of the payment pile (K12), the fate of an unsold card (K11), the end of
the game and its winner and set (K13, K14), and what every seat owns and holds at the
end. Anything wrong raises :class:`~sim.errors.RefereeError` naming the lot, the call,
the seat and the rule.

It is deliberately plain Python (only the allowed rule values come from the game's rule-key
table, the one statement of them): no NumPy, no numba, nothing from the kernel, its
payment search or the policies, so a bug there cannot hide itself here.
"""

from __future__ import annotations

from collections import Counter, deque
from itertools import combinations
from typing import Any

from sim.games.aukcio.rules import KEYS
from sim.referee import Replayed, TraceReferee, is_int

NUMBER_RANKS = "23456789T"
FACE_RANKS = "JQKA"
SUITS = "CDHS"
JOKER = "JK"
RUNS = ("JQK", "QKA")
"""K13: the two runs of one suit that make a set."""


def value_of(card: str) -> int:
    """K3: a number card's worth in thousands (T is 10); a joker alone is worth 0."""
    return 0 if card == JOKER else NUMBER_RANKS.index(card[0]) + 2


def full_money_deck(decks: int) -> Counter[str]:
    """K1, K2: the number cards 2..10 of every suit plus 3 jokers, per deck."""
    deck = Counter({r + s: decks for r in NUMBER_RANKS for s in SUITS})
    deck[JOKER] = 3 * decks
    return deck


def full_auction_deck(decks: int) -> Counter[str]:
    """K2: J, Q, K, A of every suit, per deck."""
    return Counter({r + s: decks for r in FACE_RANKS for s in SUITS})


def forms_set(cards: list[str]) -> bool:
    """K13: one rank in three suits, or J-Q-K / Q-K-A of one suit. Three distinct cards:
    a duplicate from the second deck does not count twice."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return False
    ranks, suits = {c[0] for c in cards}, {c[1] for c in cards}
    if len(ranks) == 1:
        return len(suits) == 3
    return len(suits) == 1 and "".join(sorted(ranks, key=FACE_RANKS.index)) in RUNS


def completes_set(owned: Counter[str], card: str) -> bool:
    """Does ``card`` (already in ``owned``) make a set with two other owned cards?"""
    others = sorted(set(owned) - {card})
    return any(forms_set([card, a, b]) for a, b in combinations(others, 2))


def pay_limit(values: list[int], jokers: int, jokers_per_payment: int) -> int:
    """K6: the most a hand can pay: every number card, the largest ones doubled by as
    many jokers as the hand holds, one payment allows, and number cards there are."""
    top = sorted(values, reverse=True)
    return sum(top) + sum(top[:min(jokers, jokers_per_payment, len(top))])


def least_payment(values: list[int], jokers: int, jokers_per_payment: int,
                  price: int) -> tuple[int, int, int] | None:
    """K8: (overpayment, cards, jokers) of the best payment of at least ``price`` from a
    hand of number cards worth ``values`` and ``jokers`` jokers, or None if the hand
    cannot pay. Best: least overpayment, then fewest cards, then fewest jokers.

    A card of the payment is either paid plain or doubled by its own joker, so a
    dynamic programme over the cards keeps, per (doubled cards, value), the fewest
    number cards reaching it. A partial payment already worth the price is not
    extended: more cards only add to the overpayment (every value is positive)."""
    most = min(jokers, jokers_per_payment, len(values))
    fewest: list[dict[int, int]] = [{0: 0}] + [{} for _ in range(most)]
    for x in values:
        grown = [dict(level) for level in fewest]
        for doubled, level in enumerate(fewest):
            for value, cards in level.items():
                if value >= price:
                    continue
                _keep_fewer(grown[doubled], value + x, cards + 1)
                if doubled < most:
                    _keep_fewer(grown[doubled + 1], value + 2 * x, cards + 1)
        fewest = grown
    options = [(value - price, cards + doubled, doubled)
               for doubled, level in enumerate(fewest)
               for value, cards in level.items() if value >= price]
    return min(options) if options else None


def _keep_fewer(level: dict[int, int], value: int, cards: int) -> None:
    if cards < level.get(value, cards + 1):
        level[value] = cards


def _same(got: Any, want: int | None) -> bool:
    """Equal, and of the same JSON kind: ``false`` is not seat 0, ``0`` is not null."""
    return got is None if want is None else is_int(got) and got == want


def _shown(cards: Counter[str]) -> str:
    return " ".join(sorted(cards.elements())) or "none"


class _Referee(TraceReferee):
    game = "aukcio"

    def cards(self, value: Any, what: str, where: str) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise self.fail(where, f"{what} must be a list of card texts, got {value!r}")
        return value

    def per_seat(self, obj: dict, key: str, where: str) -> list:
        value = self.field(obj, key, where)
        if not isinstance(value, list) or len(value) != self.n:
            raise self.fail(where, f"{key} must hold one entry per seat ({self.n}), got {value!r}")
        return value

    # -- rules and deal ------------------------------------------------------------
    def check_rules(self) -> None:
        rules = self.rules_allowed(KEYS)
        self.rules, self.n = rules, rules["players"]
        held = sum(full_money_deck(rules["decks"]).values())
        if self.n * rules["hand_size"] > held:
            raise self.fail("rules", f"{self.n} players x hand_size {rules['hand_size']} needs "
                                     f"more than the {held} money cards (K4)")

    def check_deal(self) -> None:
        r, trace = self.rules, self.trace
        self.dealer = self.field(trace, "dealer", "deal")
        if not _same(self.dealer, r["first_dealer"]):
            raise self.fail("deal", f"dealer is {self.dealer!r}, expected first_dealer "
                                    f"{r['first_dealer']} (K4)")
        if "strategies" in trace and (not isinstance(trace["strategies"], list)
                                      or len(trace["strategies"]) != self.n):
            raise self.fail("deal", f"strategies must name one strategy per seat ({self.n})")
        self.hands: list[Counter[str]] = []
        for seat, hand in enumerate(self.per_seat(trace, "hands", "deal")):
            hand = self.cards(hand, "a hand", f"deal, seat {seat}")
            if len(hand) != r["hand_size"]:
                raise self.fail(f"deal, seat {seat}", f"the hand holds {len(hand)} money cards; "
                                                      f"the deal gives hand_size {r['hand_size']} (K4)")
            self.hands.append(Counter(hand))
        pile = self.cards(self.field(trace, "money_deck", "deal"), "money_deck", "deal")
        self.check_multiset(sum(self.hands, Counter()) + Counter(pile),
                            full_money_deck(r["decks"]), "hands + money_deck", "money", "K2, K4")
        auction = self.cards(self.field(trace, "auction_deck", "deal"), "auction_deck", "deal")
        self.check_multiset(Counter(auction), full_auction_deck(r["decks"]), "auction_deck",
                            "auction", "K2")
        self.pile = deque(pile)             # the draw pile, top first
        self.paid: Counter[str] = Counter()  # the payment pile (its order is never used)
        # The auction deck, top first; each card carries its "unsold once" mark (K11).
        self.queue = deque([card, False] for card in auction)

    def check_multiset(self, got: Counter, want: Counter, what: str, deck: str, rule: str) -> None:
        if got != want:
            raise self.fail("deal", f"{what} is not the {deck} deck of decks={self.rules['decks']}: "
                                    f"extra {_shown(got - want)}, missing {_shown(want - got)} ({rule})")

    # -- drawing -------------------------------------------------------------------
    def take(self, where: str) -> str | None:
        """K12: the top of the draw pile; when it is empty, the payment pile becomes the
        next draw pile (in the order of the lot's next reshuffle); None if both are empty."""
        if not self.pile and self.paid:
            if self.shuffled == len(self.shuffles):
                raise self.fail(where, f"the draw pile is empty and the payment pile holds "
                                       f"{_shown(self.paid)}, so it must be reshuffled into a new "
                                       f"draw pile, but the lot lists no reshuffle for it (K12)")
            order = self.cards(self.shuffles[self.shuffled], f"reshuffle {self.shuffled}", where)
            if Counter(order) != self.paid:
                raise self.fail(where, f"reshuffle {self.shuffled} is {' '.join(order) or 'empty'}, "
                                       f"not a permutation of the payment pile {_shown(self.paid)} (K12)")
            self.shuffled += 1
            self.pile, self.paid = deque(order), Counter()
        return self.pile.popleft() if self.pile else None

    def give(self, seat: int, card: str) -> None:
        self.hands[seat][card] += 1
        self.drawn[seat] += 1
        self.checked["draws"] += 1

    def check_ace_draws(self, lot: dict, where: str, card: str, turner: int) -> None:
        """K10: after an ace, ``ace_draw`` rounds of one card to every seat but the turner,
        from his left, the seat sitting out included; a draw from two empty piles is absent."""
        got = self.field(lot, "ace_draws", where)
        if not isinstance(got, list):
            raise self.fail(where, f"ace_draws must be a list of [seat, card], got {got!r}")
        rounds = self.rules["ace_draw"] if card[0] == "A" else 0
        seats = [(turner + i) % self.n for _ in range(rounds) for i in range(1, self.n)]
        k = 0
        for seat in seats:
            dw = f"{where}, ace draw {k}, seat {seat}"
            top = self.take(dw)
            if top is None:
                continue
            if k == len(got):
                raise self.fail(dw, f"seat {seat} must draw {top} after the {card} (K10), but "
                                    f"ace_draws ends after {k} draws")
            entry = got[k]
            if not isinstance(entry, list) or len(entry) != 2:
                raise self.fail(dw, f"an ace draw is [seat, card], got {entry!r}")
            if not _same(entry[0], seat):
                raise self.fail(dw, f"seat {entry[0]!r} draws, but it is seat {seat}'s draw: "
                                    f"{rounds} round(s) from the turner's ({turner}) left (K10)")
            if entry[1] != top:
                raise self.fail(dw, f"seat {seat} draws {entry[1]!r}, but the top of the draw "
                                    f"pile is {top} (K10, K12)")
            self.give(seat, top)
            k += 1
        if k < len(got):
            why = (f"the {card} is not an ace" if not rounds else
                   "that is more draws than ace_draw gives, or the draw pile and the payment "
                   "pile are both empty (K12)")
            raise self.fail(f"{where}, ace draw {k}", f"ace draw {got[k]!r} is extra: {why} (K10)")

    def check_buyer_draws(self, lot: dict, where: str, buyer: int, won: bool) -> None:
        """K9: the buyer draws ``buyer_draw`` cards (fewer only when both piles run out);
        K14: nothing when his purchase won the game."""
        got = self.cards(self.field(lot, "buyer_draws", where), "buyer_draws", where)
        count = 0 if won else self.rules["buyer_draw"]
        bw = f"{where}, seat {buyer}"
        k = 0
        for _ in range(count):
            top = self.take(bw)
            if top is None:
                break
            if k == len(got):
                raise self.fail(bw, f"the buyer draws {k} cards, but buyer_draw is {count} and the "
                                    f"next card of the draw pile is {top} (K9, K12)")
            if got[k] != top:
                raise self.fail(bw, f"buyer draw {k} is {got[k]!r}, but the top of the draw pile "
                                    f"is {top} (K9, K12)")
            self.give(buyer, top)
            k += 1
        if k < len(got):
            why = ("his purchase completed a set, so he draws nothing (K14)" if won else
                   f"buyer_draw is {count}, or the draw and payment piles are empty (K9, K12)")
            raise self.fail(bw, f"buyer draw {k} ({got[k]!r}) is extra: {why}")

    # -- calls ---------------------------------------------------------------------
    def limit(self, seat: int) -> int:
        hand = self.hands[seat]
        values = [value_of(c) for c in hand.elements() if c != JOKER]
        return pay_limit(values, hand[JOKER], self.rules["jokers_per_payment"])

    def read_call(self, calls: list, k: int, where: str, seat: int) -> int | None:
        call, cw = calls[k], f"{where}, call {k}"
        if not isinstance(call, dict) or "seat" not in call or "bid" not in call:
            raise self.fail(cw, f"a call is {{'seat': s, 'bid': thousands or null}}, got {call!r}")
        if not _same(call["seat"], seat):
            if _same(call["seat"], self.sitting_out):
                raise self.fail(cw, f"seat {call['seat']} calls, but it bought the previous lot "
                                    f"and sits out this one (K6, K9)")
            raise self.fail(cw, f"seat {call['seat']!r} calls, but it is seat {seat}'s turn (K5, K7)")
        bid = call["bid"]
        if bid is not None and not is_int(bid):
            raise self.fail(f"{cw}, seat {seat}", f"bid {bid!r} is neither whole thousands nor a "
                                                  f"pass (null) (K6)")
        self.checked["calls"] += 1
        return bid

    def check_bid(self, where: str, seat: int, bid: int, high: int) -> None:
        """K6: a bid exceeds the high bid (the first is at least 1) and the seat can pay it."""
        bw = f"{where}, seat {seat}"
        if bid <= high:
            raise self.fail(bw, f"bid {bid} must exceed the high bid {high} (K6)" if high else
                            f"bid {bid} is below the smallest bid, 1 (K6)")
        limit = self.limit(seat)
        if bid > limit:
            raise self.fail(bw, f"bid {bid}, but seat {seat}'s money cards "
                                f"({_shown(self.hands[seat])}) pay at most {limit} (K3, K6)")

    def open_calls(self, calls: list, where: str, eligible: list[int]) -> tuple[int | None, int]:
        """K7 open: around and around from the first speaker, a pass is final; the lot ends
        when every eligible seat has passed (unsold) or all but the high bidder have (sold)."""
        passed: set[int] = set()
        high, price, turn = None, 0, 0

        def closed() -> bool:
            return len(passed) == len(eligible) - (high is not None)

        for k in range(len(calls)):
            if closed():
                raise self.fail(f"{where}, call {k}", "the lot was already " +
                                (f"sold to seat {high} at {price}" if high is not None else "unsold")
                                + f" after call {k - 1}, yet more calls follow (K7)")
            while eligible[turn % len(eligible)] in passed:
                turn += 1
            seat = eligible[turn % len(eligible)]
            bid = self.read_call(calls, k, where, seat)
            if bid is None:
                passed.add(seat)
            else:
                self.check_bid(f"{where}, call {k}", seat, bid, price)
                high, price = seat, bid
            turn += 1
        if not closed():
            waiting = [s for s in eligible if s not in passed and s != high]
            raise self.fail(where, f"the calls stop after {len(calls)} calls with the lot still "
                                   f"open: seats {waiting} have not passed (K7)")
        return high, price

    def single_calls(self, calls: list, where: str, eligible: list[int]) -> tuple[int | None, int]:
        """K7 single: every eligible seat calls once, in seat order from the first speaker;
        a bid exceeds every earlier bid; the highest bid buys."""
        high, price = None, 0
        for k in range(len(calls)):
            if k == len(eligible):
                raise self.fail(f"{where}, call {k}", f"every eligible seat {eligible} has called "
                                                      f"once, yet more calls follow (K7)")
            seat = eligible[k]
            bid = self.read_call(calls, k, where, seat)
            if bid is not None:
                self.check_bid(f"{where}, call {k}", seat, bid, price)
                high, price = seat, bid
        if len(calls) < len(eligible):
            raise self.fail(where, f"the calls stop after {len(calls)}, but seats "
                                   f"{eligible[len(calls):]} have not called (K7)")
        return high, price

    # -- one lot -------------------------------------------------------------------
    def play_lot(self, n_lot: int, lot: Any, sitting_out: int | None) -> tuple[int | None, bool]:
        """Check lot ``n_lot``; returns its buyer (or None) and whether he won."""
        where = f"lot {n_lot}"
        if not isinstance(lot, dict):
            raise self.fail(where, f"a lot is a JSON object, got {lot!r}")
        shuffles = self.field(lot, "reshuffles", where)
        if not isinstance(shuffles, list):
            raise self.fail(where, f"reshuffles must be a list of draw piles, got {shuffles!r}")
        self.shuffles, self.shuffled, self.sitting_out = shuffles, 0, sitting_out
        card, marked = self.queue.popleft()
        if self.field(lot, "card", where) != card:
            raise self.fail(where, f"the lot turns {lot['card']!r}, but the next card of the "
                                   f"auction deck is {card} (K5, K11)")
        turner = (self.dealer + 1 + n_lot) % self.n
        if not _same(self.field(lot, "turner", where), turner):
            raise self.fail(where, f"turner is {lot['turner']!r}, expected seat {turner}: the seat "
                                   f"after the dealer {self.dealer}, then one further each lot (K5)")
        if not _same(self.field(lot, "sitting_out", where), sitting_out):
            raise self.fail(where, f"sitting_out is {lot['sitting_out']!r}, expected {sitting_out}: "
                                   f"the buyer of the previous lot sits out, nobody else (K6, K9)")
        self.check_ace_draws(lot, where, card, turner)
        first = turner if turner != sitting_out else (turner + 1) % self.n
        eligible = [s for s in ((first + i) % self.n for i in range(self.n)) if s != sitting_out]
        calls = self.field(lot, "calls", where)
        if not isinstance(calls, list):
            raise self.fail(where, f"calls must be a list, got {calls!r}")
        bidding = self.open_calls if self.rules["bidding"] == "open" else self.single_calls
        buyer, price = bidding(calls, where, eligible)
        price = price if buyer is not None else None
        if not (_same(self.field(lot, "buyer", where), buyer)
                and _same(self.field(lot, "price", where), price)):
            raise self.fail(where, f"buyer {lot['buyer']!r} at price {lot['price']!r}, but the calls "
                                   f"give buyer {buyer} at price {price} (K7)")
        won = False
        if buyer is None:
            self.unsold(lot, where, card, marked)
        else:
            won = self.sold(lot, where, card, buyer, price)
        if self.shuffled < len(shuffles):
            raise self.fail(where, f"reshuffle {self.shuffled} is listed, but the draw pile never "
                                   f"ran empty again in this lot (K12)")
        self.checked["lots"] += 1
        return buyer, won

    def unsold(self, lot: dict, where: str, card: str, marked: bool) -> None:
        """K11: set aside, or under the auction deck -- unless it went unsold before with
        no sale since, and then it is discarded."""
        for key in ("payment", "buyer_draws"):
            if self.field(lot, key, where) != []:
                raise self.fail(where, f"{key} must be [] when the lot is unsold, got {lot[key]!r}")
        if self.rules["unsold"] == "discard":
            want, why = "discard", "unsold=discard sets an unsold card aside"
        elif marked:
            want, why = "discard", "it went unsold before with no sale since, so it is discarded"
        else:
            want, why = "bottom", "with unsold=bottom it goes under the auction deck"
        got = self.field(lot, "unsold", where)
        if got != want:
            raise self.fail(where, f"unsold is {got!r}, expected {want!r}: {card} is unsold and {why} (K11)")
        if want == "bottom":
            self.queue.append([card, True])

    def sold(self, lot: dict, where: str, card: str, buyer: int, price: int) -> bool:
        """K8, K9, K14: the buyer pays, takes the card and draws unless it won the game."""
        if self.field(lot, "unsold", where) is not None:
            raise self.fail(where, f"unsold is {lot['unsold']!r}, but the lot was sold (K11)")
        payment = self.cards(self.field(lot, "payment", where), "payment", where)
        self.check_payment(f"{where}, seat {buyer}", buyer, price, payment)
        self.hands[buyer] -= Counter(payment)
        self.paid += Counter(payment)
        self.owned[buyer][card] += 1
        for entry in self.queue:  # K11: a sale clears every card's "unsold once" mark
            entry[1] = False
        won = completes_set(self.owned[buyer], card)
        self.check_buyer_draws(lot, where, buyer, won)
        return won

    def check_payment(self, where: str, buyer: int, price: int, payment: list[str]) -> None:
        """K3, K8: cards the buyer holds, jokers within the limit, worth the price, and
        optimal against an exact search over the whole hand."""
        hand, jpp = self.hands[buyer], self.rules["jokers_per_payment"]
        missing = Counter(payment) - hand
        if missing:
            raise self.fail(where, f"pays {_shown(missing)}, which seat {buyer} does not hold "
                                   f"(it holds {_shown(hand)}) (K8)")
        numbers = [value_of(c) for c in payment if c != JOKER]
        jokers = len(payment) - len(numbers)
        if jokers > min(jpp, len(numbers)):
            raise self.fail(where, f"the payment {' '.join(payment)} has {jokers} jokers; at most "
                                   f"jokers_per_payment={jpp}, each doubling a different number "
                                   f"card (K3, K8)")
        # The payer picks which cards the jokers double: the cheapest choice still worth the price.
        worths = [sum(numbers) + sum(d) for d in combinations(numbers, jokers)]
        enough = [w for w in worths if w >= price]
        if not enough:
            raise self.fail(where, f"the payment {' '.join(payment) or 'none'} is worth at most "
                                   f"{max(worths)}, less than the price {price} (K3, K8)")
        mine = (min(enough) - price, len(payment), jokers)
        values = [value_of(c) for c in hand.elements() if c != JOKER]
        best = least_payment(values, hand[JOKER], jpp, price)
        if mine != best:
            raise self.fail(where, f"the payment {' '.join(payment)} for price {price} overpays "
                                   f"{mine[0]} with {mine[1]} cards and {mine[2]} jokers, but from "
                                   f"{_shown(hand)} the best overpays {best[0]} with {best[1]} cards "
                                   f"and {best[2]} jokers: least overpayment, then fewest cards, "
                                   f"then fewest jokers (K8)")
        self.checked["payments"] += 1

    # -- the game ------------------------------------------------------------------
    def run(self) -> Replayed:
        self.check_rules()
        self.check_deal()
        n = self.n
        lots = self.field(self.trace, "lots", "")
        if not isinstance(lots, list):
            raise self.fail("", f"lots must be a list, got {lots!r}")
        self.owned: list[Counter[str]] = [Counter() for _ in range(n)]
        self.drawn = [0] * n
        sitting_out = winner = last = None
        ended, sales, reshuffles = "", 0, 0
        for n_lot, lot in enumerate(lots):
            if ended:
                raise self.fail(f"lot {n_lot}", f"{ended}, yet lot {n_lot} follows (K14)")
            buyer, won = self.play_lot(n_lot, lot, sitting_out)
            reshuffles += self.shuffled
            sales += buyer is not None
            sitting_out = buyer                      # K9: the buyer sits out the next lot
            if won:
                winner, last = buyer, lot["card"]
                ended = f"the game ended at lot {n_lot}: seat {buyer} completed a set with {last}"
            elif not self.queue:
                ended = f"the game ended at lot {n_lot}: the auction deck is exhausted"
        if not ended:
            raise self.fail("end", f"the trace stops after {len(lots)} lots, but the auction deck "
                                   f"still holds {len(self.queue)} cards and no one owns a set (K14)")
        scores = self.check_end(winner, last)
        money = [sum(value_of(c) for c in hand.elements()) for hand in self.hands]
        return Replayed(scores, [] if winner is None else [winner], self.checked["calls"],
                        {"lots": len(lots), "reshuffles": reshuffles, "sales": sales,
                         "cards_drawn": list(self.drawn), "money_end": money})

    def check_end(self, winner: int | None, last: str | None) -> list[float]:
        for key, want, rule in (("owned", self.owned, "K9"), ("money_end", self.hands, "K8-K12")):
            for seat, got in enumerate(self.per_seat(self.trace, key, "end")):
                got = self.cards(got, key, f"end, seat {seat}")
                if Counter(got) != want[seat]:
                    raise self.fail(f"end, seat {seat}", f"{key} is {' '.join(sorted(got)) or 'none'}, "
                                                         f"but the lots leave {_shown(want[seat])} ({rule})")
        got = self.field(self.trace, "winner", "end")
        if not _same(got, winner):
            why = (f"seat {winner} completed a set with {last}" if winner is not None
                   else "the auction deck ran out with no set made")
            raise self.fail("end", f"winner is {got!r}, expected {winner}: {why} (K14)")
        self.check_set(winner, last)
        scores = [1.0 if s == winner else 0.0 for s in range(self.n)]
        got = self.per_seat(self.trace, "scores", "end")
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in got) or got != scores:
            raise self.fail("end", f"scores {got!r}, expected {scores}: 1 for the winner, 0 "
                                   f"otherwise, all 0 in a draw (K14)")
        return scores

    def check_set(self, winner: int | None, last: str | None) -> None:
        got = self.field(self.trace, "set", "end")
        if winner is None:
            if got is not None:
                raise self.fail("end", f"set is {got!r}, but the game is a draw: null (K14)")
            return
        got = self.cards(got, "set", "end")
        owned = self.owned[winner]
        if not forms_set(got) or last not in got or any(c not in owned for c in got):
            raise self.fail("end", f"set {got!r} is not three cards seat {winner} owns "
                                   f"({_shown(owned)}) that form a set with the card just "
                                   f"bought, {last} (K13)")


def replay(trace: dict) -> Replayed:
    """Check an aukcio trace against the rules and re-derive its result: ``scores`` (1 for
    the winner), ``winners`` ([] on a draw), the calls checked (``actions``) and in
    ``details`` the ``lots``, ``reshuffles`` and ``sales`` counts and per seat
    ``cards_drawn`` (after the deal) and ``money_end`` (face value of the number cards
    held at the end, in thousands). Raises :class:`~sim.errors.RefereeError` naming the
    lot, the call, the seat and the rule of the first thing that is wrong.
    """
    return _Referee(trace).run()
