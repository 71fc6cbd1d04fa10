"""An independent referee for vybory hand histories (``rules/vybory.md``, V1-V13).

:func:`replay` reads a JSON trace as written by ``trace.py`` and re-derives every
figure in it from the rules, the hands, the announcements and the cards alone: the rule
values, the dealer of every deal and the hands (V1), the order and legality of every
announcement (V2), the end of the election, the contract and the pairs (V3-V5), the
leader of every trick (V6), the legality of every card -- in its player's hand and
following suit when able (V7) -- and the winner of every trick (V8, V9), the pairs'
contract points (V10), the result (V11), the deal scores and the scores after each deal
(V12), and the totals and the winners of the tour (V13). Anything wrong raises
:class:`~sim.errors.RefereeError` naming the deal, the announcement or trick, the seat
and the rule.

It is deliberately plain Python (only the allowed rule values come from the game's rule-key
table, the one statement of them): no NumPy, no numba, nothing from the kernel, the
engine, the type tables of ``core.py`` or the policies, so a bug there cannot hide
itself here. The contract types below are read again from the rules file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.cards import RANKS, SUITS
from sim.games.vybory.rules import KEYS
from sim.referee import Replayed, TraceReferee, is_int

PLAYERS = 4
HAND = 13
TRICKS = 13
MAX_CALLS = 9
"""V4: two rounds of distinct types, then the first call of the third round."""
MOST_BONUS = 12
"""V10: ``most_tricks`` gives 12 to the pair with more tricks."""
DECK = tuple(r + s for s in SUITS for r in RANKS)
RESULTS = ("win", "loss", "draw")


def is_red(card: str) -> bool:
    return card[1] in "DH"


def is_black(card: str) -> bool:
    return card[1] in "CS"


def is_ten_or_jack(card: str) -> bool:
    return card[0] in "TJ"


@dataclass(frozen=True)
class ContractType:
    """One contract type (rules file, "Contract types")."""

    name: str
    trump: str | None
    """The trump suit letter (``C D H S``), None for no trumps."""
    lowest_wins: bool
    """V9: the lowest trump, else the lowest card of the suit led, wins the trick."""
    per_trick: int
    """Points per trick the pair won."""
    terms: tuple[tuple[str, int], ...]
    """(card set, points per card of the set the pair won); card sets by name, see
    :func:`in_set`."""
    most_tricks: bool = False
    """V10: +12 to the pair with more tricks (of 13: never a tie)."""


def in_set(card: str, card_set: str) -> bool:
    """Is ``card`` in the named card set of a point term?"""
    if card_set == "red":
        return is_red(card)
    if card_set == "black":
        return is_black(card)
    if card_set == "clubs":
        return card[1] == "C"
    if card_set == "spades":
        return card[1] == "S"
    if card_set == "black_ten_jack":
        return is_ten_or_jack(card) and is_black(card)
    if card_set == "red_ten_jack":
        return is_ten_or_jack(card) and is_red(card)
    raise ValueError(f"unknown card set {card_set!r}")


_COMMON = (
    ContractType("most_tricks", None, False, 0, (), most_tricks=True),
    ContractType("no_tricks", None, False, -2, ()),
    ContractType("club_tricks", "C", False, 2, ()),
    ContractType("lowest_wins", "C", True, 0, (("red", 1),)),
    ContractType("spades_in_hearts", "H", False, 0, (("spades", 2),)),
)
TYPE_SETS: dict[str, tuple[ContractType, ...]] = {
    "standard": _COMMON + (
        ContractType("red_black", "D", False, 0, (("red", 1), ("black", -1))),
        ContractType("tens_jacks", "S", False, 0, (("black_ten_jack", 5), ("red_ten_jack", -5))),
        ContractType("no_clubs", "S", False, 0, (("clubs", -2),)),
    ),
    "alt": _COMMON + (
        ContractType("red_cards", "D", False, 0, (("red", 1),)),
        ContractType("black_cards", "D", False, 0, (("black", -1),)),
        ContractType("tens_jacks_no_clubs", "S", False, 0,
                     (("black_ten_jack", 5), ("red_ten_jack", -5), ("clubs", -2))),
    ),
}
"""The eight types of each ``type_set``, in the order of the rules file (codes 1..8)."""


def contract_type(type_set: str, name: str) -> ContractType:
    for t in TYPE_SETS[type_set]:
        if t.name == name:
            return t
    raise KeyError(name)


def card_points(ctype: ContractType, card: str) -> int:
    """What one card is worth to the pair that won it (a club ten under
    ``tens_jacks_no_clubs``: +5 - 2 = +3)."""
    return sum(w for card_set, w in ctype.terms if in_set(card, card_set))


def pair_points(ctype: ContractType, cards: list[str], tricks: int) -> int:
    """V10: the contract points of a pair that won ``cards`` in ``tricks`` tricks."""
    pts = ctype.per_trick * tricks + sum(card_points(ctype, c) for c in cards)
    if ctype.most_tricks and 2 * tricks > TRICKS:
        pts += MOST_BONUS
    return pts


def deal_result(attack: int, defend: int) -> str:
    """V11: the attackers win if their points exceed the defenders', lose if lower."""
    return "win" if attack > defend else "loss" if attack < defend else "draw"


def trick_winner(cards: list[str], trump: str | None, lowest_wins: bool) -> int:
    """V8, V9: the position (0 = the lead) of the card that takes the trick."""
    led = cards[0][1]
    suit = trump if trump is not None and any(c[1] == trump for c in cards) else led
    candidates = [k for k, c in enumerate(cards) if c[1] == suit]
    pick = min if lowest_wins else max
    return pick(candidates, key=lambda k: RANKS.index(cards[k][0]))


def _same(got: Any, want: int) -> bool:
    """Equal and a JSON integer: ``false`` is not seat 0, ``16.0`` is not 16."""
    return is_int(got) and got == want


def _int_list(got: Any, want: list[int]) -> bool:
    return (isinstance(got, list) and len(got) == len(want)
            and all(_same(g, w) for g, w in zip(got, want)))


class _Referee(TraceReferee):
    game = "vybory"

    # -- rules -----------------------------------------------------------------------
    def check_rules(self) -> None:
        rules = self.rules_allowed(KEYS)
        self.rules = rules
        self.types = TYPE_SETS[rules["type_set"]]
        self.names = [t.name for t in self.types]

    # -- one deal --------------------------------------------------------------------
    def check_hands(self, deal: dict, where: str) -> list[set[str]]:
        """V1: four hands of 13 different cards that make the 52-card deck."""
        hands = self.field(deal, "hands", where)
        if not isinstance(hands, list) or len(hands) != PLAYERS:
            raise self.fail(where, f"hands must hold one hand per seat ({PLAYERS}) (V1)")
        seen: dict[str, int] = {}
        for seat, hand in enumerate(hands):
            sw = f"{where}, seat {seat}"
            if not isinstance(hand, list) or len(hand) != HAND:
                raise self.fail(sw, f"a hand holds {HAND} cards (V1), got {hand!r}")
            for card in hand:
                if card not in DECK:
                    raise self.fail(sw, f"{card!r} is not a card of the 52-card deck (V1)")
                if card in seen:
                    raise self.fail(sw, f"card {card} is dealt twice (also to seat "
                                        f"{seen[card]}) (V1)")
                seen[card] = seat
        return [set(h) for h in hands]

    def check_election(self, deal: dict, where: str, dealer: int) -> tuple[str, list[int]]:
        """V2-V5: returns the contract type's name and the attackers (first announcer,
        then the matcher)."""
        calls = self.field(deal, "announcements", where)
        if not isinstance(calls, list) or not calls:
            raise self.fail(where, "announcements must be a non-empty list of [seat, type] (V2)")
        named: dict[str, int] = {}   # type -> the seat that named it (each at most once)
        by_seat: list[list[str]] = [[] for _ in range(PLAYERS)]
        end = None
        for k, call in enumerate(calls):
            seat = (dealer + 1 + k) % PLAYERS
            cw = f"{where}, announcement {k}"
            if end is not None:
                first, name = end
                raise self.fail(cw, f"the election ended at announcement {first}, when seat "
                                    f"{(dealer + 1 + first) % PLAYERS} named {name}, already "
                                    f"named by seat {named[name]}; yet {len(calls) - first - 1} "
                                    f"more announcement(s) follow (V3)")
            if k >= MAX_CALLS:  # cannot happen once V2 holds: eight names exhaust them
                raise self.fail(cw, "the election goes past the first call of round 3 (V4)")
            if not isinstance(call, list) or len(call) != 2 or not _same(call[0], seat):
                raise self.fail(cw, f"expected [{seat}, type]: announcements go round in seat "
                                    f"order from the seat after the dealer {dealer} (V2), got "
                                    f"{call!r}")
            cw = f"{cw}, seat {seat}"
            name = call[1]
            if name not in self.names:
                raise self.fail(cw, f"{name!r} is not a contract type of type_set="
                                    f"{self.rules['type_set']}: {', '.join(self.names)} (V2)")
            if name in by_seat[seat]:
                raise self.fail(cw, f"seat {seat} names {name} a second time; he named "
                                    f"{', '.join(by_seat[seat])} before in this election (V2)")
            self.checked["calls"] += 1
            by_seat[seat].append(name)
            if name in named:
                end = (k, name)
            else:
                named[name] = seat
        if end is None:
            extra = ("; every type has been named, so the first call of round 3 must match "
                     "one (V3, V4)" if len(calls) >= 2 * PLAYERS else " (V3)")
            raise self.fail(where, f"the election stops after {len(calls)} announcement(s) "
                                   f"without a player naming a type another one named{extra}")
        k, name = end
        matcher = (dealer + 1 + k) % PLAYERS
        return name, [named[name], matcher]

    def check_tricks(self, deal: dict, where: str, hands: list[set[str]], ctype: ContractType,
                     first: int) -> list[int]:
        """V6-V9: returns the winner of each trick; ``hands`` are emptied."""
        tricks = self.field(deal, "tricks", where)
        if not isinstance(tricks, list) or len(tricks) != TRICKS:
            raise self.fail(where, f"{TRICKS} tricks are played (V6), got "
                                   f"{len(tricks) if isinstance(tricks, list) else tricks!r}")
        rule = "V9" if ctype.lowest_wins else "V8"
        leader = (first + 1) % PLAYERS
        winners = []
        for t, trick in enumerate(tricks):
            tw = f"{where}, trick {t}"
            if not isinstance(trick, dict):
                raise self.fail(tw, "a trick is a JSON object")
            if not _same(self.field(trick, "leader", tw), leader):
                why = (f"the seat after the first announcer {first} leads the first trick"
                       if t == 0 else f"seat {leader} won trick {t - 1} and leads this one")
                raise self.fail(tw, f"leader is {trick['leader']!r}, expected seat {leader}: "
                                    f"{why} (V6)")
            cards = self.field(trick, "cards", tw)
            if not isinstance(cards, list) or len(cards) != PLAYERS:
                raise self.fail(tw, f"a trick holds one card per player ({PLAYERS}) (V7)")
            played: list[str] = []
            for k, item in enumerate(cards):
                seat = (leader + k) % PLAYERS
                cw = f"{tw}, card {k}, seat {seat}"
                if not isinstance(item, list) or len(item) != 2 or not _same(item[0], seat):
                    raise self.fail(cw, f"expected [{seat}, card]: play goes round in seat order "
                                        f"from the leader {leader} (V7), got {item!r}")
                card = item[1]
                held = hands[seat]
                if card not in held:
                    raise self.fail(cw, f"{card!r} is not in seat {seat}'s remaining hand "
                                        f"{' '.join(sorted(held, key=DECK.index))} (V1, V7)")
                if k > 0:
                    led = played[0][1]
                    follow = sorted((c for c in held if c[1] == led), key=DECK.index)
                    if card[1] != led and follow:
                        raise self.fail(cw, f"{card} does not follow the suit led ({led}); "
                                            f"seat {seat} holds {' '.join(follow)} (V7)")
                held.discard(card)
                played.append(card)
                self.checked["cards"] += 1
            best = trick_winner(played, ctype.trump, ctype.lowest_wins)
            winner = (leader + best) % PLAYERS
            if not _same(self.field(trick, "winner", tw), winner):
                how = ("the lowest trump, else the lowest card of the suit led"
                       if ctype.lowest_wins else "the highest trump, else the highest card of "
                                                  "the suit led")
                trump = f"trump {ctype.trump}" if ctype.trump else "no trump"
                raise self.fail(tw, f"winner is {trick['winner']!r}, but {played[best]} of seat "
                                    f"{winner} takes the trick ({' '.join(played)}; {trump}; "
                                    f"{how} wins under {ctype.name}) ({rule})")
            winners.append(winner)
            leader = winner
        return winners

    def check_deal(self, deal: Any, d: int, scores: list[int]) -> list[int]:
        """One deal; returns the scores after it."""
        where = f"deal {d}"
        rules = self.rules
        if isinstance(deal, dict) and not is_int(deal.get("dealer")):
            raise self.fail(where, f"dealer is {deal.get('dealer')!r}, not a seat (V1)")
        dealer = self.dealer_of(deal, d, where, rules["first_dealer"], PLAYERS, "V1")
        hands = self.check_hands(deal, where)
        name, attackers = self.check_election(deal, where, dealer)
        if self.field(deal, "contract", where) != name:
            raise self.fail(where, f"contract is {deal['contract']!r}, but the election ends "
                                   f"when {name} is named a second time (V3)")
        got = self.field(deal, "attackers", where)
        if not _int_list(got, attackers):
            raise self.fail(where, f"attackers are {got!r}, expected {attackers}: seat "
                                   f"{attackers[0]} named {name} first and seat {attackers[1]} "
                                   f"matched it (V3, V5)")
        if not _same(self.field(deal, "first_announcer", where), attackers[0]):
            raise self.fail(where, f"first_announcer is {deal['first_announcer']!r}, expected "
                                   f"seat {attackers[0]}, the attacker who named {name} "
                                   f"first (V5)")
        ctype = contract_type(rules["type_set"], name)
        winners = self.check_tricks(deal, where, hands, ctype, attackers[0])
        tricks = deal["tricks"]
        won_a = [c for trick, w in zip(tricks, winners) if w in attackers
                 for _, c in trick["cards"]]
        won_d = [c for trick, w in zip(tricks, winners) if w not in attackers
                 for _, c in trick["cards"]]
        tricks_a = sum(1 for w in winners if w in attackers)
        pts = {"attackers": pair_points(ctype, won_a, tricks_a),
               "defenders": pair_points(ctype, won_d, TRICKS - tricks_a)}
        got = self.field(deal, "pair_points", where)
        if (not isinstance(got, dict) or set(got) != set(pts)
                or not all(_same(got[k], v) for k, v in pts.items())):
            raise self.fail(where, f"pair_points {got!r}, expected {pts}: under {name} the "
                                   f"attackers {attackers} won {tricks_a} tricks and the "
                                   f"defenders {TRICKS - tricks_a} (V10)")
        result = deal_result(pts["attackers"], pts["defenders"])
        if self.field(deal, "result", where) != result:
            raise self.fail(where, f"result is {deal['result']!r}, expected {result!r}: the "
                                   f"attackers have {pts['attackers']} points, the defenders "
                                   f"{pts['defenders']} (V11)")
        self.checked[result] += 1
        if rules["scoring"] == "points":
            delta = [pts["attackers"] if s in attackers else pts["defenders"]
                     for s in range(PLAYERS)]
            how = "each player adds his pair's contract points"
        else:
            sign = {"win": 1, "loss": -1, "draw": 0}[result]
            delta = [sign if s in attackers else -sign for s in range(PLAYERS)]
            how = "+1 to each player of the pair that won the deal, -1 to the losers, 0 on a draw"
        got = self.field(deal, "deal_scores", where)
        if not _int_list(got, delta):
            raise self.fail(where, f"deal_scores {got!r}, expected {delta}: scoring="
                                   f"{rules['scoring']}, {how} (V12)")
        after = [a + b for a, b in zip(scores, delta)]
        got = self.field(deal, "scores_after", where)
        if not _int_list(got, after):
            raise self.fail(where, f"scores_after {got!r}, expected {after}: the scores before "
                                   f"{scores} plus the deal scores {delta} (scoring="
                                   f"{rules['scoring']}, V12)")
        return after

    # -- the tour ----------------------------------------------------------------------
    def run(self) -> Replayed:
        self.check_rules()
        n_deals = self.rules["deals_per_match"]
        deals = self.field(self.trace, "deals", "")
        if not isinstance(deals, list) or len(deals) != n_deals:
            got = len(deals) if isinstance(deals, list) else deals
            raise self.fail("", f"deals must list the {n_deals} deals of the tour "
                                f"(deals_per_match), got {got!r} (V1, V13)")
        scores = [0] * PLAYERS
        for d, deal in enumerate(deals):
            scores = self.check_deal(deal, d, scores)
        got = self.field(self.trace, "totals", "")
        if not _int_list(got, scores):
            raise self.fail("end", f"totals {got!r}, expected {scores}, the scores after the "
                                   f"last deal (V13)")
        top = max(scores)
        winners = [s for s in range(PLAYERS) if scores[s] == top]
        got = self.field(self.trace, "winners", "")
        if not _int_list(got, winners):
            raise self.fail("end", f"winners {got!r}, expected {winners}: every seat with the "
                                   f"top total {top}; ties are shared (V13)")
        calls, cards = self.checked["calls"], self.checked["cards"]
        return Replayed([float(s) for s in scores], winners, calls + cards,
                        {"deals": n_deals, "calls": calls, "cards": cards,
                         "results": {r: self.checked[r] for r in RESULTS}})


def replay(trace: dict) -> Replayed:
    """Check a vybory trace against the rules and re-derive its results: the tour scores
    (the totals), the winners (every seat with the top total), the announcements and
    cards checked (``actions``; ``details`` has each, with ``deals`` and the deal
    ``results`` counted from the attackers' side). Raises
    :class:`~sim.errors.RefereeError` naming the deal, the announcement or trick, the seat
    and the rule of the first thing that is wrong.
    """
    return _Referee(trace).run()


__all__ = ["TYPE_SETS", "ContractType", "card_points", "contract_type",
           "deal_result", "pair_points", "replay", "trick_winner"]
