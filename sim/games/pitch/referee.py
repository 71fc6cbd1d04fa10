"""An independent referee for pitch hand histories (``rules/pitch.md``).

:func:`replay` reads a JSON trace as written by ``trace.py`` and re-derives every
figure in it from the rules, the hands and the calls and cards alone: the deck and the
hands (P1), the dealer of every deal (P1), the order and legality of every call (P2,
P3), the pitcher and contract or the redeal (P4, P5), the trump (P6), the legality of
every card -- in its player's hand, and following P7 -- and the winner of every trick
(P8), the deal's points (P9-P13), the deal scores (P14), the scores after each deal,
and the end of the game and its winner (P15-P17, ``max_deals``). Anything wrong raises
:class:`~sim.errors.RefereeError` naming the deal, the trick, the seat and the rule.

It is deliberately plain Python (only the allowed rule values come from the game's rule-key
table, the one statement of them): no NumPy, no numba, nothing from the kernel, the trick
machinery or the policies, so a bug there cannot hide itself here.
"""

from __future__ import annotations

from sim.games.pitch.rules import KEYS
from sim.referee import Replayed, TraceReferee
from sim.referee import is_int as _is_int

RANKS = "23456789TJQKA"
SUITS = "CDHS"
JOKER = "JK"
POINTS = ("high", "low", "jack", "joker", "game")  # P17's counting order
CARD_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10}


class _Referee(TraceReferee):
    game = "pitch"

    # -- rules ---------------------------------------------------------------------
    def check_rules(self) -> None:
        rules = self.rules_allowed(KEYS)
        n = rules["players"]
        self.rules = rules
        self.n = n
        self.deck = {r + s for s in SUITS for r in RANKS} | ({JOKER} if rules["joker"] else set())

    # -- cards -----------------------------------------------------------------------
    def suit(self, card: str, trump: str | None) -> str:
        """The suit a card counts as: the joker is a trump (P6, P7)."""
        return trump if card == JOKER else card[1]

    def rank(self, card: str) -> int:
        """Rank within its suit; the joker is below the two (the lowest trump, P6)."""
        return -1 if card == JOKER else RANKS.index(card[0])

    def power(self, card: str, led: str, trump: str) -> tuple[int, int]:
        """P8: trumps beat the suit led, which beats everything else; then rank."""
        s = self.suit(card, trump)
        return (2 if s == trump else 1 if s == led else 0, self.rank(card))

    # -- one deal --------------------------------------------------------------------
    def check_hands(self, deal: dict, where: str) -> list[list[str]]:
        hands = self.field(deal, "hands", where)
        if not isinstance(hands, list) or len(hands) != self.n:
            raise self.fail(where, f"hands must hold one hand per seat ({self.n})")
        seen: dict[str, int] = {}
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != 6:
                raise self.fail(f"{where}, seat {seat}",
                                f"a hand holds 6 cards (P1), got {hand!r}")
            for card in hand:
                if card not in self.deck:
                    raise self.fail(f"{where}, seat {seat}",
                                    f"{card!r} is not a card of the {len(self.deck)}-card "
                                    f"deck (P1)")
                if card in seen:
                    raise self.fail(f"{where}, seat {seat}",
                                    f"card {card} is dealt twice (also to seat {seen[card]}) (P1)")
                seen[card] = seat
        return [list(h) for h in hands]

    def check_bids(self, deal: dict, where: str, dealer: int) -> tuple[int | None, int | None]:
        """P2-P5: returns (pitcher, contract), or (None, None) for a redeal."""
        n, rules = self.n, self.rules
        bids = self.field(deal, "bids", where)
        if not isinstance(bids, list) or len(bids) != n:
            raise self.fail(where, f"bids must hold one call per seat ({n}): each speaks once "
                                   f"(P2)")
        high, bidder = 0, None
        for k, call in enumerate(bids):
            seat = (dealer + 1 + k) % n
            cw = f"{where}, call {k}, seat {seat}"
            if not isinstance(call, dict) or call.get("seat") != seat or "bid" not in call:
                raise self.fail(cw, f"expected {{'seat': {seat}, 'bid': ...}}: seats speak in "
                                    f"order from the one after the dealer {dealer} (P2), "
                                    f"got {call!r}")
            b = call["bid"]
            self.checked["calls"] += 1
            if call.get("hold"):
                if seat != dealer:
                    raise self.fail(cw, "only the dealer may hold (P3)")
                if not rules["dealer_hold"]:
                    raise self.fail(cw, "a hold, but the rule dealer_hold is off (P3)")
                if not 0 < high < 4:
                    raise self.fail(cw, f"a hold needs a highest bid below 4, the highest is "
                                        f"{high or 'none'} (P3)")
                if b != high:
                    raise self.fail(cw, f"the dealer holds at the highest bid {high}, "
                                        f"the trace says {b!r} (P3)")
                bidder = dealer
                continue
            if b is None:
                continue
            if not _is_int(b) or not rules["min_bid"] <= b <= 4:
                raise self.fail(cw, f"bid {b!r} is not allowed: a bid is "
                                    f"{rules['min_bid']}..4 (P2)")
            if b <= high:
                raise self.fail(cw, f"bid {b} does not exceed the highest bid {high} (P2)")
            high, bidder = b, seat
        if bidder is not None:
            return bidder, high                                           # P4
        if rules["all_pass"] == "stuck_dealer":
            return dealer, rules["min_bid"]                                # P5
        return None, None

    def check_tricks(self, deal: dict, where: str, hands: list[list[str]],
                     pitcher: int) -> tuple[str, list[list[str]]]:
        """P6-P8: returns the trump suit and the cards each seat won."""
        n = self.n
        tricks = self.field(deal, "tricks", where)
        if not isinstance(tricks, list) or len(tricks) != 6:
            raise self.fail(where, "six tricks are played (P8)")
        held = [set(h) for h in hands]
        won: list[list[str]] = [[] for _ in range(n)]
        leader = pitcher                                                   # P6
        trump = None
        for t, trick in enumerate(tricks):
            tw = f"{where}, trick {t}"
            if self.field(trick, "leader", tw) != leader:
                raise self.fail(tw, f"leader is {trick['leader']!r}, expected seat {leader} "
                                    + ("(the pitcher leads first, P6)" if t == 0 else
                                       "(the winner of the last trick, P8)"))
            cards = self.field(trick, "cards", tw)
            if not isinstance(cards, list) or len(cards) != n:
                raise self.fail(tw, f"a trick holds one card per player ({n})")
            led = None
            played = []
            for k, item in enumerate(cards):
                seat = (leader + k) % n
                cw = f"{tw}, card {k}, seat {seat}"
                if not isinstance(item, list) or len(item) != 2 or item[0] != seat:
                    raise self.fail(cw, f"expected [{seat}, card]: play goes round from the "
                                        f"leader, got {item!r}")
                card = item[1]
                if card not in held[seat]:
                    raise self.fail(cw, f"{card!r} is not in seat {seat}'s hand "
                                        f"{sorted(held[seat])}")
                if k == 0:
                    if trump is None:                                      # P6
                        trump = "S" if card == JOKER else card[1]
                    led = self.suit(card, trump)
                else:
                    has_led = [c for c in held[seat] if self.suit(c, trump) == led]
                    has_trump = [c for c in held[seat] if self.suit(c, trump) == trump]
                    s = self.suit(card, trump)
                    if led == trump and has_led and s != trump:            # P7
                        raise self.fail(cw, f"{card} does not follow the trump led; seat {seat} "
                                            f"holds trumps {sorted(has_led)} (P7)")
                    if led != trump and s not in (led, trump) and (has_led or has_trump):
                        raise self.fail(cw, f"{card} neither follows {led} nor trumps; seat "
                                            f"{seat} holds {sorted(has_led + has_trump)} (P7)")
                held[seat].discard(card)
                played.append(card)
                self.checked["cards"] += 1
            best = max(range(n), key=lambda k: self.power(played[k], led, trump))   # P8
            winner = (leader + best) % n
            if self.field(trick, "winner", tw) != winner:
                raise self.fail(tw, f"winner is {trick['winner']!r}, but {played[best]} of seat "
                                    f"{winner} takes the trick (P8)")
            won[winner].extend(played)
            leader = winner
        return trump, won

    def deal_points(self, hands: list[list[str]], won: list[list[str]], trump: str,
                    pitcher: int) -> dict[str, int | None]:
        """P9-P13."""
        rules, n = self.rules, self.n
        dealt_to = {c: s for s, h in enumerate(hands) for c in h}
        won_by = {c: s for s, w in enumerate(won) for c in w}
        trumps = sorted((c for c in dealt_to if self.suit(c, trump) == trump), key=self.rank)
        points: dict[str, int | None] = {}
        points["high"] = dealt_to[trumps[-1]]                               # P9
        real = [c for c in trumps if c != JOKER]                            # P10
        if not real:
            points["low"] = None
        else:
            points["low"] = (won_by if rules["low_to"] == "captured" else dealt_to)[real[0]]
        jack = "J" + trump                                                  # P11
        points["jack"] = won_by[jack] if jack in dealt_to else None
        points["joker"] = won_by[JOKER] if JOKER in dealt_to else None      # P12
        counts = [sum(CARD_POINTS.get(c[0], 0) for c in w if c != JOKER) for w in won]  # P13
        best = max(counts)
        tied = [s for s in range(n) if counts[s] == best]
        if len(tied) == 1:
            points["game"] = tied[0]
        elif rules["game_tie"] == "pitcher" and pitcher in tied:
            points["game"] = pitcher
        else:
            points["game"] = None
        return points

    def game_winner(self, before: list[int], after: list[int], points: dict, pitcher: int,
                    contract: int, made: bool) -> int | None:
        """P15-P17."""
        target = self.rules["target"]
        if self.rules["smudge"] and made and contract == 4:
            return pitcher
        reached = [s for s in range(self.n) if after[s] >= target]
        if not reached:
            return None
        if pitcher in reached:
            return pitcher
        running = list(before)
        for name in POINTS:
            s = points[name]
            if s is None or s == pitcher:
                continue
            running[s] += 1
            if s in reached and running[s] >= target:
                return s
        raise self.fail("", "no player reached the target by P17's count")  # cannot happen

    # -- the game ------------------------------------------------------------------
    def run(self) -> Replayed:
        self.check_rules()
        n, rules = self.n, self.rules
        deals = self.field(self.trace, "deals", "")
        if not isinstance(deals, list) or not deals:
            raise self.fail("", "deals must be a non-empty list")
        scores = [0] * n
        winner = None
        redeals = 0
        for d, deal in enumerate(deals):
            where = f"deal {d}"
            if winner is not None:
                raise self.fail(where, f"the game was over: seat {winner} won after deal {d - 1} "
                                       f"(P16)")
            if d >= rules["max_deals"]:
                raise self.fail(where, f"more than max_deals={rules['max_deals']} deals")
            dealer = self.dealer_of(deal, d, where, rules["first_dealer"], n, "P1")
            hands = self.check_hands(deal, where)
            pitcher, contract = self.check_bids(deal, where, dealer)
            for key, value in (("pitcher", pitcher), ("contract", contract)):
                if self.field(deal, key, where) != value:
                    raise self.fail(where, f"{key} is {deal[key]!r}, the calls give {value!r} "
                                           f"(P4, P5)")
            before = list(scores)
            if pitcher is None:                                             # P5: redeal
                redeals += 1
                if self.field(deal, "trump", where) is not None or deal.get("tricks"):
                    raise self.fail(where, "a redeal has no trump and no tricks (P5)")
                delta = [0] * n
                points = None
            else:
                trump, won = self.check_tricks(deal, where, hands, pitcher)
                if self.field(deal, "trump", where) != trump:
                    raise self.fail(where, f"trump is {deal['trump']!r}, but the first card led "
                                           f"makes it {trump} (P6)")
                points = self.deal_points(hands, won, trump, pitcher)
                got = self.field(deal, "points", where)
                if not isinstance(got, dict):
                    raise self.fail(where, f"points must be an object {{name: seat}}, got {got!r}")
                for name in POINTS:
                    if got.get(name) != points[name]:
                        rule = {"high": 9, "low": 10, "jack": 11, "joker": 12, "game": 13}[name]
                        raise self.fail(where, f"{name} point to {got.get(name)!r}, expected "
                                               f"{points[name]!r} (P{rule})")
                won_points = [sum(1 for v in points.values() if v == s) for s in range(n)]
                delta = list(won_points)                                   # P14
                made = won_points[pitcher] >= contract
                if not made:
                    delta[pitcher] = -contract
                if "made" in deal and deal["made"] is not made:
                    raise self.fail(where, f"made is {deal['made']!r}: the pitcher won "
                                           f"{won_points[pitcher]} points on a contract of "
                                           f"{contract} (P14)")
            if self.field(deal, "deal_scores", where) != delta:
                raise self.fail(where, f"deal_scores {deal['deal_scores']!r}, expected {delta} "
                                       f"(P14)")
            scores = [a + b for a, b in zip(scores, delta)]
            if self.field(deal, "scores_after", where) != scores:
                raise self.fail(where, f"scores_after {deal['scores_after']!r}, expected "
                                       f"{scores}")
            if points is not None:
                winner = self.game_winner(before, scores, points, pitcher, contract, made)
        if winner is None and len(deals) != rules["max_deals"]:
            raise self.fail("", f"the game stops after {len(deals)} deals with nobody at the "
                                f"target {rules['target']} and max_deals={rules['max_deals']} "
                                f"not reached (P16)")
        if self.field(self.trace, "winner", "") != winner:
            raise self.fail("", f"winner is {self.trace['winner']!r}, expected {winner!r} "
                                f"(P15-P17" + ("; a draw at max_deals)" if winner is None else ")"))
        if self.field(self.trace, "deals_played", "") != len(deals):
            raise self.fail("", f"deals_played is {self.trace['deals_played']!r}, the trace "
                                f"has {len(deals)} deals (redeals count)")
        if "scores" in self.trace and self.trace["scores"] != scores:
            raise self.fail("", f"scores {self.trace['scores']!r}, expected {scores}")
        return Replayed(scores, [] if winner is None else [winner],
                        self.checked["calls"] + self.checked["cards"],
                        {"deals": len(deals), "redeals": redeals, "calls": self.checked["calls"],
                         "cards": self.checked["cards"]})


def replay(trace: dict) -> Replayed:
    """Check a pitch trace against the rules and re-derive its results: the scores, the
    winner (none on a draw), the calls and cards checked (``actions``; ``details`` has
    each, with ``deals`` and ``redeals``). Raises :class:`~sim.errors.RefereeError` naming the
    deal, trick, seat and rule of the first thing that is wrong.
    """
    return _Referee(trace).run()
