"""A bid-EV situation for vybory: your hand and the announcements so far this deal.

Keys (values as strings from the command line, or Python values):

``seat``    your seat 0..3 (default 0); it must be your turn to announce
``hand``    your 13 cards, e.g. ``"AS KS 7S 2S AH 9H 4H KD 8D 3D QC 6C 2C"``
``calls``   the announcements before yours in this deal, in order from the seat after
            the dealer: type names (or codes 1..8) separated by commas, e.g.
            ``calls=no_tricks,club_tricks`` (default: none, you announce first). None of
            them may repeat a type another seat named: that would have ended the
            election (V3)
``dealer``  the dealer of this deal (default: the seat that makes it your turn after
            ``calls``)
``scores``  everyone's tour score before this deal, e.g. ``10,-4,0,6`` (default all 0):
            what the policies see; the rollouts play this deal only
``deal``    deals played before this one in the tour (default 0)
``infer``   yes (default) or no: whether the announcements so far condition the hidden
            hands

Candidates: every type you have not named yet (V2), by name or code (``--candidates
most_tricks,no_tricks`` or ``1..3``). A type another seat has named makes you his
partner and ends the election; a new type lets it go on, the policies (``--strategy``,
yours too) making the rest of the announcements and playing the deal.

Each rollout deals the hidden hands once and plays every candidate on that deal (common
random numbers). With ``infer=yes`` a seat whose election policy is ``expected`` or
``matcher`` (deterministic given its hand) is dealt only hands on which it makes
exactly the announcements it made, and a seat playing ``solved`` hands in proportion to
the solution's probability of its announcements on them (rejection sampling, a walk by
card swaps where that finds no deal; the JSON output's ``conditioned`` is the share of
rollouts whose deal passed, the others keep their last try); seats playing ``random``
are not conditioned. The outcomes are those of the deal:
your deal score (your pair's points; with ``scoring=result`` +1, 0 or -1), your pair's
share of the deal's win (1 win, 1/2 draw), which ranks the candidates, and your pair's
margin of points over the other pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sim.games.vybory import core as C
from sim.games.vybory.rules import HAND, MAX_CALLS, N_TYPES, PLAYERS
from sim.rules import Rules
from sim.situation import bad, check_keys, dealer_of, own_hand, parse_candidates, per_seat, whole, yes_no

KEYS = ("seat", "hand", "calls", "dealer", "scores", "deal", "infer")
HELP = __doc__.split("\n\n", 1)[1]
METRIC = "win"
"""What bid-EV ranks vybory candidates by: the pair's share of the deal's win."""
OUTCOMES = (("win", "deal win share (your pair)"), ("score", "deal score"),
            ("margin", "pair points margin"))


@dataclass
class Situation:
    seat: int
    hand: list[int]
    dealer: int
    calls: list[int]
    """The announcements before the asking seat's, type codes in order."""
    scores: list[int]
    deal: int
    infer: bool

    def caller(self, k: int) -> int:
        return (self.dealer + 1 + k) % PLAYERS

    def named_by(self, seat: int) -> set[int]:
        return {t for k, t in enumerate(self.calls) if self.caller(k) == seat}

    def to_json(self, names: tuple[str, ...]) -> dict[str, Any]:
        from sim.cards import format_card
        return {"seat": self.seat, "hand": [format_card(c) for c in self.hand],
                "dealer": self.dealer,
                "calls": [[self.caller(k), names[t - 1]] for k, t in enumerate(self.calls)],
                "scores": self.scores, "deal": self.deal, "infer": self.infer}


def type_names(rules: Rules) -> tuple[str, ...]:
    return C.NAMES[C.TYPE_SETS.index(rules.type_set)]


def _read_type(text: str, names: tuple[str, ...]) -> int:
    """A type code from its name or code; ValueError otherwise."""
    t = text.strip().lower()
    if t in names:
        return names.index(t) + 1
    if t.isdigit() and 1 <= int(t) <= N_TYPES:
        return int(t)
    raise ValueError(t)


def _parse_calls(value: Any, names: tuple[str, ...]) -> list[int]:
    items = [t.strip() for t in (value.split(",") if isinstance(value, str) else value)
             if str(t).strip()] if value not in (None, "") else []
    if len(items) > MAX_CALLS - 1:
        raise bad("calls", value, f"at most {MAX_CALLS - 1} announcements come before yours "
                                   f"(V4: the election ends by the first call of round 3)")
    calls: list[int] = []
    for k, item in enumerate(items):
        try:
            t = _read_type(str(item), names)
        except ValueError:
            raise bad("calls", value, f"announcement {k + 1} ({item!r}) is not a type; "
                                       f"types: {', '.join(names)} (or codes 1..8)") from None
        calls.append(t)
    return calls


def _check_election(calls: list[int], dealer: int, names: tuple[str, ...], value: Any) -> None:
    """V2, V3: nobody names a type twice, and no call repeats another seat's type."""
    named: list[set[int]] = [set() for _ in range(PLAYERS)]
    for k, t in enumerate(calls):
        s = (dealer + 1 + k) % PLAYERS
        if t in named[s]:
            raise bad("calls", value, f"announcement {k + 1}: seat {s} names {names[t - 1]} a "
                                       f"second time, which V2 forbids")
        other = [o for o in range(PLAYERS) if o != s and t in named[o]]
        if other:
            raise bad("calls", value, f"announcement {k + 1}: seat {s} names {names[t - 1]}, "
                                       f"which seat {other[0]} named, so the election ended "
                                       f"there (V3) and nobody announces after it")
        named[s].add(t)


def parse(rules: Rules, values: dict[str, Any]) -> Situation:
    check_keys("vybory", values, KEYS, required=("hand",))
    names = type_names(rules)
    seat = whole("seat", values.get("seat", 0), 0, PLAYERS - 1)
    hand = own_hand(values, HAND, "the cards you were dealt this deal, V1")
    calls = _parse_calls(values.get("calls", ""), names)
    dealer = dealer_of(values, seat, len(calls), PLAYERS, "calls")
    _check_election(calls, dealer, names, values.get("calls", ""))
    scores = per_seat("scores", values.get("scores", "0,0,0,0"), PLAYERS, -10**6, 10**6)
    deal = whole("deal", values.get("deal", 0), 0, rules.deals_per_match - 1)
    infer = yes_no("infer", values.get("infer", "yes"))
    return Situation(seat, hand, dealer, calls, scores, deal, infer)


def candidates(rules: Rules, s: Situation, given: list[str] | None) -> list[int]:
    """Candidate types: ``given`` (names, codes, ``A..B`` ranges of codes), or every type
    the asking seat has not named (V2)."""
    names = type_names(rules)
    mine = s.named_by(s.seat)
    legal = [t for t in range(1, N_TYPES + 1) if t not in mine]

    def illegal(t: int) -> str | None:
        return None if t in legal else f"you named {names[t - 1]} already (V2)"

    return parse_candidates(given, legal, illegal=illegal,
                            legal_text=", ".join(names[t - 1] for t in legal),
                            name=lambda t: names[t - 1],
                            syntax="a type name (" + ", ".join(names) + "), a code 1..8 or a "
                                   "range of codes like 1..3",
                            read=lambda text: _read_type(text, names))
