"""A plain-Python reference engine for vybory (``rules/vybory.md``): the slow path.

It plays the same tours as the numba kernel -- same random streams, same deal, same
policies, same observation vector -- with nothing but Python ints, floats and lists, so
that

- a test can assert ``reference.play(rules, seats, seed, i) == GAME.trace(...)``: two
  implementations of rules V1-V13 and of the policies agree call for call and card for
  card (``tests/test_conformance.py``);
- a user can prototype a policy as a plain Python function (:class:`PythonPolicy`)
  before writing it for numba. This path is slow and is labelled so: a Python policy's
  label starts with ``python:``;
- the benchmark has a plain-Python baseline (:func:`play_many`).

This module holds the rules (:class:`Match`) and the ports; what every reference engine
shares -- :class:`PythonPolicy`, turning strategies into seats (:func:`seats_from`),
``play`` and ``play_many`` -- is ``sim/reference.py``.

Ported here, and kept in step with their originals:

- ``sim/rng.py``, through its plain-Python twin ``sim/pyrng.py``: stream 0 deals (each
  deal a partial Fisher-Yates of the cards not given, so deal ``d`` is the same whatever
  the policies do), stream ``1 + seat`` feeds that seat's policies;
- the card-set helpers of ``sim/tricks.py`` that vybory uses (follow suit, either order
  within a suit, V7-V9), including ``draw_card``'s 6-bit chunks;
- the contract types of ``core.py``, re-derived here as tuples from the rules file's
  table (``_STANDARD``/``_ALT``), and the pair points and result (V10, V11);
- the match loop of ``kernel.py``: the election (V2-V5), the tricks (V6-V9; a policy is
  not asked when only one card is legal), the scores (V12, V13), and the order in which
  all of them change the public vector;
- the six policies of ``strategies/vybory.py`` (elect: ``random``, ``expected``,
  ``matcher``; play: ``random``, ``greedy``, ``pimc``) with the same float arithmetic in
  the same order (``math.exp`` for ``np.exp``), so the results are bitwise equal.

The observation is a list of ints laid out as in ``obs.py`` (offsets imported from
there). A plain-Python policy is called as ``policy(obs, params, rng)``: ``obs`` a copy
of the observation list (changing it changes nothing), ``params`` a tuple of floats,
``rng`` a ``Stream`` with ``below(n)`` and ``uniform()``. An elect policy returns a type
code 1..8 the seat has not named in this election; a play policy a card code from
``obs[LEGAL]``. vybory has two decision kinds, so a Python policy says which it answers:
``PythonPolicy(func, decision="elect")`` or ``decision="play"``; a seat's other decision
plays the default strategy's policy unless a tuple gives it, e.g. ``("matcher",
PythonPolicy(p, decision="play"))``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from numbers import Integral
from typing import Any

from sim import pytricks as PT
from sim import reference as shared
from sim.cards import format_card
from sim.errors import IllegalActionError
from sim.games.vybory import obs as O
from sim.games.vybory.rules import HAND, MAX_CALLS, N_TYPES, PLAYERS, TRICKS
from sim.games.vybory.rules import make as make_rules
from sim.pyrng import Stream
from sim.pytricks import count, highest, lowest, nth_card, random_card, suit_cards
from sim.reference import Ports, PythonPolicy, ReferenceMatch, Seat
from sim.rules import Rules
from sim.tricks import FOLLOW_SUIT, NO_TRUMP

__all__ = ["Match", "PythonPolicy", "play", "play_many", "seats_from"]

SUIT_BITS = 0x1FFF
DECK52 = (1 << 52) - 1
ALL_TYPES = ((1 << (N_TYPES + 1)) - 1) & ~1
"""Types 1..8 as a bit set (bit ``t`` for type ``t``)."""
RESULTS = {1: "win", -1: "loss", 0: "draw"}

ASKING = (O.SEAT, O.HAND, O.LEGAL)
"""Where a question shows the asking seat, its hand and its legal cards."""

# -- trick rules (port of sim/tricks.py: no joker, follow suit; sets in sim/pytricks.py) -


def legal(hand: int, led: int) -> int:
    """V7 (``FOLLOW_SUIT``): follow suit if able, else anything."""
    return PT.legal_cards(hand, led, NO_TRUMP, FOLLOW_SUIT)


def _better(card: int, low: bool) -> int:
    """Bits of the cards ranking above ``card`` in its suit (mask with the suit)."""
    return (1 << card) - 1 if low else -(2 << card)


def strongest_in(mask: int, low: bool) -> int:
    return lowest(mask) if low else highest(mask)


def beating_order(mask: int, best: int, led: int, trump: int, low: bool) -> int:
    if trump >= 0:
        trumps = mask & suit_cards(trump)
        if best // 13 == trump:
            return trumps & _better(best, low)
    else:
        trumps = 0
    if best // 13 == led:
        return trumps | (mask & suit_cards(led) & _better(best, low))
    return trumps


def sure_winner(card: int, unseen: int, trump: int, low: bool) -> bool:
    s = card // 13
    if unseen & suit_cards(s) & _better(card, low):
        return False
    return trump < 0 or s == trump or unseen & suit_cards(trump) == 0


def mask_cards(mask: int) -> list[str]:
    return [format_card(c) for c in range(52) if mask >> c & 1]


# -- the contract types (the rules file's table; core.py holds them as arrays) ---------

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
MOST_TRICKS = 1
MOST_BONUS = 12
"""V10: ``most_tricks`` gives 12 to the pair with more tricks (of 13: never a tie)."""


def _ranks(ranks: tuple[int, ...], suits: tuple[int, ...]) -> int:
    return sum(1 << (13 * s + r) for s in suits for r in ranks)


RED = suit_cards(DIAMONDS) | suit_cards(HEARTS)
BLACK = suit_cards(CLUBS) | suit_cards(SPADES)
BLACK_TJ = _ranks((8, 9), (CLUBS, SPADES))
RED_TJ = _ranks((8, 9), (DIAMONDS, HEARTS))

# (name, trump, lowest card wins, points per trick, ((card set, points per card), ...))
_STANDARD = (
    ("most_tricks", -1, False, 0, ()),
    ("no_tricks", -1, False, -2, ()),
    ("club_tricks", CLUBS, False, 2, ()),
    ("lowest_wins", CLUBS, True, 0, ((RED, 1),)),
    ("spades_in_hearts", HEARTS, False, 0, ((suit_cards(SPADES), 2),)),
    ("red_black", DIAMONDS, False, 0, ((RED, 1), (BLACK, -1))),
    ("tens_jacks", SPADES, False, 0, ((BLACK_TJ, 5), (RED_TJ, -5))),
    ("no_clubs", SPADES, False, 0, ((suit_cards(CLUBS), -2),)),
)
_ALT = _STANDARD[:5] + (
    ("red_cards", DIAMONDS, False, 0, ((RED, 1),)),
    ("black_cards", DIAMONDS, False, 0, ((BLACK, -1),)),
    ("tens_jacks_no_clubs", SPADES, False, 0, ((BLACK_TJ, 5), (RED_TJ, -5),
                                               (suit_cards(CLUBS), -2))),
)
_SETS = (_STANDARD, _ALT)
# Per type set (0 standard, 1 alt), per code 0..8 (code 0 unused), as core.py's tables.
NAMES = tuple(tuple(t[0] for t in types) for types in _SETS)
TRUMP = tuple((0,) + tuple(t[1] for t in types) for types in _SETS)
LOW_WINS = tuple((False,) + tuple(t[2] for t in types) for types in _SETS)
PER_TRICK = tuple((0,) + tuple(t[3] for t in types) for types in _SETS)
TERMS = tuple(((),) + tuple(tuple((m, w) for m, w in t[4] if w != 0) for t in types)
              for types in _SETS)
CARD_POINTS = tuple(tuple(tuple(sum(w for m, w in TERMS[a][t] if m >> c & 1)
                                for c in range(52)) for t in range(N_TYPES + 1))
                    for a in range(2))
"""``CARD_POINTS[type_set][code][card]``: what one card is worth to the pair winning it."""


def cards_value(mask: int, alt: int, code: int) -> int:
    """What the cards of ``mask`` are worth to the pair that wins them (type ``code``)."""
    pts = 0
    for m, w in TERMS[alt][code]:
        pts += w * count(mask & m)
    return pts


DECK_VALUE = tuple(tuple(cards_value(DECK52, a, t) for t in range(N_TYPES + 1))
                   for a in range(2))


def pair_points(won: int, tricks: int, alt: int, code: int) -> int:
    """V10: the points of a pair that won the cards ``won`` in ``tricks`` tricks."""
    pts = PER_TRICK[alt][code] * tricks
    if code == MOST_TRICKS and 2 * tricks > 13:
        pts += MOST_BONUS
    return pts + cards_value(won, alt, code)


def result(attack_points: int, defend_points: int) -> int:
    """V11: 1 if the attackers win the deal, -1 if they lose, 0 on a draw."""
    if attack_points > defend_points:
        return 1
    if attack_points < defend_points:
        return -1
    return 0


# -- the election policies (port of strategies/vybory.py) ------------------------------

@cache
def expected_defaults() -> tuple[float, ...]:
    """expected's parameters at their defaults (honour, length, ruff, partner, counters),
    read from where ``strategies/vybory.py`` declares them: pimc's belief weights use
    them (a lazy import, as ``sim.reference`` reads strategy texts)."""
    from strategies import for_game
    return for_game("vybory").by_name("expected").defaults()

_REVERSE13 = tuple(sum(1 << (12 - r) for r in range(13) if b >> r & 1)
                   for b in range(1 << 13))


def est_tricks(hand: int, trump: int, low: bool, honour: float, length: float,
               ruff: float) -> float:
    total = 0.0
    short = 0
    for s in range(4):
        cards = (hand >> (13 * s)) & SUIT_BITS
        if low:
            cards = _REVERSE13[cards]
        n = count(cards)
        if trump >= 0 and s != trump and n < 3:
            short += 3 - n
        if n == 0:
            continue
        h = 0.0
        if cards >> 12 & 1:
            h += 1.0
        if cards >> 11 & 1:
            h += 0.75 if n >= 2 else 0.25
        if cards >> 10 & 1:
            h += 0.5 if n >= 3 else 0.1
        total += honour * h
        if s == trump:
            total += length * max(n - 3, 0)
        elif trump < 0:
            total += length * 0.5 * max(n - 4, 0)
    if trump >= 0:
        trumps = count(hand & suit_cards(trump))
        total += ruff * 0.5 * min(short, trumps)
    return min(total, 13.0)


def type_value(hand: int, alt: int, code: int, p: Sequence[float], extra: float) -> float:
    mine = est_tricks(hand, TRUMP[alt][code], LOW_WINS[alt][code], p[0], p[1], p[2])
    pair = min(mine + p[3] + extra, 13.0)
    if code == MOST_TRICKS:
        q = 1.0 / (1.0 + math.exp(-(pair - 6.5) / 1.5))
        margin = MOST_BONUS * (2.0 * q - 1.0)
    else:
        per_trick = PER_TRICK[alt][code] + DECK_VALUE[alt][code] / 13.0
        margin = per_trick * (2.0 * pair - TRICKS)
    return margin + p[4] * cards_value(hand, alt, code)


def best_type(hand: int, alt: int, allowed: int, p: Sequence[float]) -> tuple[int, float]:
    best, value = -1, -1e18
    for t in range(1, N_TYPES + 1):
        if allowed >> t & 1:
            v = type_value(hand, alt, t, p, 0.0)
            if v > value:
                value, best = v, t
    return best, value


def allowed_types(o: list[int]) -> int:
    """V2: the types the asking seat has not named in this election."""
    return ALL_TYPES & ~o[O.NAMED + o[O.SEAT]]


def _random_type(o, p, rng) -> int:
    allowed = allowed_types(o)
    return nth_card(allowed, rng.below(count(allowed)))


def _expected_type(o, p, rng) -> int:
    return best_type(o[O.HAND], o[O.ALT], allowed_types(o), p)[0]


def _matcher_type(o, p, rng) -> int:
    hand, alt = o[O.HAND], o[O.ALT]
    allowed = allowed_types(o)
    best, value = -1, -1e18
    for t in range(1, N_TYPES + 1):
        if not allowed >> t & 1:
            continue
        v = type_value(hand, alt, t, p, 0.0)
        for k in range(o[O.N_CALLS]):
            if o[O.CALLS + k] == t:
                v = type_value(hand, alt, t, p, p[6] if k < PLAYERS else 0.5 * p[6]) + p[5]
                break
        if v > value:
            value, best = v, t
    return best


# -- greedy card play ------------------------------------------------------------------

def trick_worth(alt: int, code: int) -> int:
    return 2 if code == MOST_TRICKS else PER_TRICK[alt][code]


def _rank_in_order(card: int, low: bool) -> int:
    r = card % 13
    return 12 - r if low else r


def _most_points(mask: int, points: Sequence[int], low: bool) -> int:
    best, top = -1, -(1 << 30)
    while mask:
        c = lowest(mask)
        mask &= mask - 1
        v = points[c] * 32 - _rank_in_order(c, low)
        if v > top:
            top, best = v, c
    return best


def _least_points(mask: int, points: Sequence[int], low: bool, strong_first: bool) -> int:
    best, top = -1, 1 << 30
    while mask:
        c = lowest(mask)
        mask &= mask - 1
        r = _rank_in_order(c, low)
        v = points[c] * 32 + (12 - r if strong_first else r)
        if v < top:
            top, best = v, c
    return best


def _weakest_lead(hand: int, trump: int, low: bool) -> int:
    side = hand & ~(suit_cards(trump) if trump >= 0 else 0)
    m = side if side else hand
    return PT.first_lowest(m, lambda c: _rank_in_order(c, low))


def greedy_lead(hand: int, trump: int, low: bool, unseen: int, alt: int, code: int) -> int:
    worth = trick_worth(alt, code)
    best, best_v = -1, 0.0
    for s in range(4):
        mine = hand & suit_cards(s)
        if not mine:
            continue
        top = strongest_in(mine, low)
        if not sure_winner(top, unseen, trump, low):
            continue
        suit = (unseen | hand) & suit_cards(s)
        v = worth + 4.0 * cards_value(suit, alt, code) / count(suit)
        if v > best_v:
            best_v, best = v, top
    if best >= 0:
        return best
    return _weakest_lead(hand, trump, low)


def greedy_follow(hand: int, lg: int, trump: int, low: bool, led: int, best: int, trick: int,
                  ours: bool, n_after: int, unseen: int, alt: int, code: int) -> int:
    points = CARD_POINTS[alt][code]
    worth = trick_worth(alt, code) + cards_value(trick, alt, code)
    win = beating_order(lg, best, led, trump, low)
    lose = lg & ~win
    if ours:
        if lose:
            if worth >= 0:
                return _most_points(lose, points, low)
            return _least_points(lose, points, low, True)
        return _most_points(lg, points, low)
    if worth >= 0 and win:
        if n_after == 0:
            return _most_points(win, points, low)
        safe = 0
        m = win
        while m:
            c = lowest(m)
            m &= m - 1
            if beating_order(unseen, c, led, trump, low) == 0:
                safe |= 1 << c
        if safe:
            return _most_points(safe, points, low)
    if lose:
        return _least_points(lose, points, low, worth < 0)
    return _most_points(lg, points, low)


def greedy_card(hand: int, lg: int, trump: int, low: bool, led: int, best: int, trick: int,
                ours: bool, n_after: int, unseen: int, alt: int, code: int) -> int:
    if count(lg) == 1:
        return lowest(lg)
    if led < 0:
        return greedy_lead(hand, trump, low, unseen, alt, code)
    return greedy_follow(hand, lg, trump, low, led, best, trick, ours, n_after, unseen, alt,
                         code)


def partner_of(o: list[int], s: int) -> int:
    a, b = o[O.FIRST], o[O.SECOND]
    if s == a:
        return b
    if s == b:
        return a
    for t in range(PLAYERS):
        if t != s and t != a and t != b:
            return t
    return -1


def _winning_seat(o: list[int]) -> int:
    for i in range(o[O.TRICK_N]):
        if o[O.TRICK_CARDS + i] == o[O.WINNING]:
            return (o[O.LEADER] + i) % PLAYERS
    return -1


def _greedy(o, p, rng) -> int:
    me = o[O.SEAT]
    w = _winning_seat(o)
    ours = w == me or w == partner_of(o, me)
    unseen = DECK52 & ~o[O.PLAYED] & ~o[O.HAND]
    return greedy_card(o[O.HAND], o[O.LEGAL], o[O.TRUMP], o[O.LOW_WINS] != 0, o[O.LED],
                       o[O.WINNING], PT.trick_so_far(o, O.TRICKS), ours, PLAYERS - 1 - o[O.TRICK_N],
                       unseen, o[O.ALT], o[O.CONTRACT])


def _random_card(o, p, rng) -> int:
    return random_card(rng, o[O.LEGAL])


# -- pimc ------------------------------------------------------------------------------

WEIGHT_SCALE = 1024
"""A sample's weight is an integer: ``WEIGHT_SCALE x exp(-belief x regret)``."""


def _sample_plan(o: list[int]) -> tuple[list[int], list[int]]:
    """(the other seats, most constrained first; the cards each may hold)."""
    me = o[O.SEAT]
    pool = DECK52 & ~o[O.PLAYED] & ~o[O.HAND]
    allowed = [0] * PLAYERS
    room = [0] * PLAYERS
    order: list[int] = []
    for s in range(PLAYERS):
        if s == me:
            continue
        allowed[s] = a = pool & ~PT.void_cards(o[O.VOIDS + s], NO_TRUMP)
        room[s] = r = count(a) - o[O.LEFT + s]
        j = len(order)
        while j > 0 and room[order[j - 1]] > r:
            j -= 1
        order.insert(j, s)
    return order, allowed


def _sample(o: list[int], rng: Stream, order: list[int], allowed: list[int],
            honour_voids: bool) -> list[int] | None:
    """Hands per seat (the asking seat's own included), or None on failure."""
    pool = DECK52 & ~o[O.PLAYED] & ~o[O.HAND]
    hands = [0] * PLAYERS
    hands[o[O.SEAT]] = o[O.HAND]
    for s in order:
        hand = PT.draw_hand(rng, (allowed[s] if honour_voids else pool) & pool, o[O.LEFT + s])
        if hand is None:
            return None
        pool &= ~hand
        hands[s] = hand
    return hands


def _weight(o: list[int], hands: list[int], belief: float) -> int:
    if belief <= 0.0:
        return WEIGHT_SCALE
    regret = 0.0
    alt = o[O.ALT]
    for k in range(min(o[O.N_CALLS], PLAYERS)):
        s = (o[O.DEALER] + 1 + k) % PLAYERS
        if s == o[O.SEAT]:
            continue
        dealt = hands[s] | o[O.PLAYED_BY + s]
        _, top = best_type(dealt, alt, ALL_TYPES, expected_defaults())
        named = type_value(dealt, alt, o[O.CALLS + k], expected_defaults(), 0.0)
        regret += top - named
    return int(WEIGHT_SCALE * math.exp(-belief * regret) + 0.5)


def _playout(o: list[int], sampled: list[int], first: int) -> int:
    me, alt, code = o[O.SEAT], o[O.ALT], o[O.CONTRACT]
    trump, low = o[O.TRUMP], o[O.LOW_WINS] != 0
    a1, a2 = o[O.FIRST], o[O.SECOND]
    hands = list(sampled)
    won = [o[O.WON_BY + s] for s in range(PLAYERS)]
    tricks = [o[O.TRICKS_BY + s] for s in range(PLAYERS)]
    trick = PT.TrickInPlay(o, O.TRICKS, PLAYERS)
    card = first
    while True:
        seat = trick.seat
        hand = hands[seat]
        if card < 0:
            w, k = trick.winning_seat, trick.k
            ours = k > 0 and ((w == a1 or w == a2) == (seat == a1 or seat == a2))
            unseen = DECK52 & ~trick.played & ~hand
            card = greedy_card(hand, legal(hand, trick.led), trump, low, trick.led, trick.best,
                               trick.cards, ours, PLAYERS - 1 - k, unseen, alt, code)
        hands[seat] = hand & ~(1 << card)
        winner = trick.add(card, trump, low)
        card = -1
        if winner >= 0:
            won[winner] |= trick.taken
            tricks[winner] += 1
            if trick.number == TRICKS:
                break
    won_a = won[a1] | won[a2]
    tricks_a = tricks[a1] + tricks[a2]
    pts_a = pair_points(won_a, tricks_a, alt, code)
    pts_d = pair_points(DECK52 & ~won_a, TRICKS - tricks_a, alt, code)
    margin = pts_a - pts_d
    if o[O.RESULT]:
        margin += 64 * result(pts_a, pts_d)
    return margin if me == a1 or me == a2 else -margin


def _candidates(o: list[int]) -> list[int]:
    points = CARD_POINTS[o[O.ALT]][o[O.CONTRACT]]
    unseen = DECK52 & ~o[O.PLAYED] & ~o[O.HAND]
    out: list[int] = []
    prev = -1
    m = o[O.LEGAL]
    while m:
        c = lowest(m)
        m &= m - 1
        if prev >= 0 and prev // 13 == c // 13 and points[prev] == points[c]:
            if unseen & ((1 << c) - (2 << prev)) == 0:
                prev = c
                continue
        prev = c
        out.append(c)
    return out


def _pimc(o, p, rng) -> int:
    cands = _candidates(o)
    k = len(cands)
    if k == 1:
        return cands[0]
    totals = [0] * k
    samples, belief = int(p[0]), p[1]
    order, allowed = _sample_plan(o)
    for _ in range(samples):
        hands = None
        for _try in range(8):
            hands = _sample(o, rng, order, allowed, True)
            if hands is not None:
                break
        if hands is None:
            hands = _sample(o, rng, order, allowed, False)
        w = _weight(o, hands, belief)
        for i in range(k):
            totals[i] += w * _playout(o, hands, cands[i])
    best = 0
    for i in range(1, k):
        if totals[i] > totals[best]:
            best = i
    return cands[best]


PORTS = Ports("vybory", make_rules,
              {"elect": {"random": _random_type, "expected": _expected_type,
                         "matcher": _matcher_type},
               "play": {"random": _random_card, "greedy": _greedy, "pimc": _pimc}},
              "policy(obs, params, rng)")


def seats_from(strategies: Any, n: int = PLAYERS) -> list[Seat]:
    """One seat per player (see ``sim.reference.seats_from``): a tuple is one seat's
    parts, e.g. ``("matcher", PythonPolicy(f, decision="play"))``."""
    return shared.seats_from(PORTS, strategies, n)


def _show_card(c: Any) -> str:
    ok = isinstance(c, Integral) and not isinstance(c, bool) and 0 <= c < 52
    return format_card(int(c)) if ok else repr(c)


# -- the game ---------------------------------------------------------------------------

class Match(ReferenceMatch):
    """One vybory tour. ``fixed`` (optional): per deal, one card mask or -1 per seat, as
    the kernel's ``fixed`` (hands chosen for tests; deals past its rows are dealt at
    random)."""

    PORTS = PORTS
    FIGURES = ("score", "win", "points", "tricks")

    @staticmethod
    def n_seats(rules: Rules) -> int:
        return PLAYERS

    def __init__(self, rules: Rules | Mapping[str, Any] | None, strategies: Any, seed: int,
                 index: int, record: bool = True, fixed: Sequence[Sequence[int]] | None = None):
        super().__init__(rules, strategies, seed, index, record)
        rules = self.rules
        self.fixed = [[int(m) for m in row] for row in fixed] if fixed is not None else []
        self.alt = int(rules.type_set == "alt")
        self.names = NAMES[self.alt]
        self.scores = [0] * PLAYERS
        self.points = [0] * PLAYERS
        self.tricks_total = [0] * PLAYERS
        o = self.o = [0] * O.SIZE
        o[O.ALT] = self.alt
        o[O.RESULT] = int(rules.scoring == "result")
        o[O.DEALS] = rules.deals_per_match

    def _ask(self, seat: int, decision: str, legal: int = 0) -> Any:
        return self.ask_holding(seat, decision, self.o, self.hands[seat], legal, ASKING)

    # -- a deal -------------------------------------------------------------------------
    def _deal(self, d: int) -> None:
        """V1: a partial Fisher-Yates of the cards not given, 13 to each random seat."""
        row = self.fixed[d] if d < len(self.fixed) else [-1] * PLAYERS
        hands = PT.deal_hands(self.deal_rng, row, 52, HAND)
        self.hands = hands
        self.dealt = list(hands)

    def _start_deal(self, d: int, dealer: int) -> None:
        o = self.o
        o[O.DEAL], o[O.DEALER], o[O.PHASE], o[O.N_CALLS] = d, dealer, O.ELECTING, 0
        o[O.CONTRACT], o[O.FIRST], o[O.SECOND], o[O.TRUMP] = O.NONE, -1, -1, -1
        o[O.LOW_WINS], o[O.LEGAL] = 0, 0
        PT.clear_tricks(o, O.TRICKS, PLAYERS, HAND)
        for k in range(MAX_CALLS):
            o[O.CALLS + k] = O.NONE
        for s in range(PLAYERS):
            o[O.NAMED + s] = 0
            o[O.SCORES + s] = self.scores[s]
            o[O.TRICKS_BY + s] = 0

    def _election(self, d: int, dealer: int) -> tuple[int, int, int, int]:
        """V2-V5: (contract type, first announcer, his partner, calls made)."""
        o = self.o
        for k in range(MAX_CALLS):
            s = (dealer + 1 + k) % PLAYERS
            t = self._ask(s, "elect")
            allowed = ALL_TYPES & ~o[O.NAMED + s]
            whole = isinstance(t, Integral) and not isinstance(t, bool)
            if not whole or not 1 <= t <= N_TYPES or not allowed >> t & 1:        # V2
                legal_types = ", ".join(str(x) for x in range(1, N_TYPES + 1)
                                        if allowed >> x & 1)
                raise IllegalActionError(
                    f"match {self.index}, deal {d}, seat {s}, announcement {k + 1}: elect "
                    f"policy of {self.seats[s].label!r} named type {t!r}, which is illegal; "
                    f"legal: the types it has not named yet, {legal_types} (rule V2)")
            t = int(t)
            o[O.CALLS + k] = t
            o[O.N_CALLS] = k + 1
            for other in range(PLAYERS):                                         # V3, V5
                if other != s and o[O.NAMED + other] >> t & 1:
                    o[O.NAMED + s] |= 1 << t
                    return t, other, s, k + 1
            o[O.NAMED + s] |= 1 << t
        raise AssertionError("V4: the election always ends by the ninth announcement")

    def _tricks(self, d: int, first: int, trump: int, low: bool,
                log: list | None) -> tuple[list[int], list[int]]:
        """V6-V9: thirteen tricks; (cards won, tricks won) per seat."""
        o = self.o
        won = [0] * PLAYERS
        tricks = [0] * PLAYERS
        leader = (first + 1) % PLAYERS                                            # V6
        o[O.PHASE] = O.PLAYING
        for t in range(TRICKS):
            PT.open_trick(o, O.TRICKS, t, leader)
            cards = []
            for k in range(PLAYERS):
                s = (leader + k) % PLAYERS
                hand = self.hands[s]
                lg = legal(hand, o[O.LED])                                        # V7
                if count(lg) == 1:
                    c = lowest(lg)
                else:
                    c = self._ask(s, "play", lg)
                    if not isinstance(c, Integral) or isinstance(c, bool) or not 0 <= c < 52 \
                            or not lg >> c & 1:
                        raise IllegalActionError(
                            f"match {self.index}, deal {d}, seat {s}, trick {t + 1}: play "
                            f"policy of {self.seats[s].label!r} played {_show_card(c)}, "
                            f"which is illegal; legal: {' '.join(mask_cards(lg))} (rule V7)")
                    c = int(c)
                self.hands[s] = hand & ~(1 << c)
                PT.show_card(o, O.TRICKS, k, s, c, trump, FOLLOW_SUIT, low)          # V8, V9
                if log is not None:
                    cards.append([s, format_card(c)])
            winner, taken = PT.close_trick(o, O.TRICKS, PLAYERS)
            won[winner] |= taken
            tricks[winner] += 1
            o[O.TRICKS_BY + winner] += 1
            if log is not None:
                log.append({"leader": leader, "cards": cards, "winner": winner})
            leader = winner
        return won, tricks

    def play_deal(self, d: int) -> None:
        o, alt = self.o, self.alt
        self._deal(d)
        dealer = (self.rules.first_dealer + d) % PLAYERS                          # V1
        self._start_deal(d, dealer)
        code, first, second, calls = self._election(d, dealer)
        trump, low = TRUMP[alt][code], LOW_WINS[alt][code]
        o[O.CONTRACT], o[O.FIRST], o[O.SECOND] = code, first, second
        o[O.TRUMP], o[O.LOW_WINS] = trump, int(low)
        log: list | None = [] if self.record else None
        won, tricks = self._tricks(d, first, trump, low, log)
        won_a = won[first] | won[second]                                          # V10, V11
        tricks_a = tricks[first] + tricks[second]
        pts_a = pair_points(won_a, tricks_a, alt, code)
        pts_d = pair_points(DECK52 & ~won_a, TRICKS - tricks_a, alt, code)
        res = result(pts_a, pts_d)
        by_result = self.rules.scoring == "result"
        delta = [0] * PLAYERS
        for s in range(PLAYERS):                                                  # V12
            attacker = s == first or s == second
            if by_result:
                delta[s] = res if attacker else -res
            else:
                delta[s] = pts_a if attacker else pts_d
            self.scores[s] += delta[s]
            self.points[s] += pts_a if attacker else pts_d
            self.tricks_total[s] += tricks[s]
        if self.record:
            self.deals.append({
                "dealer": dealer,
                "hands": [mask_cards(h) for h in self.dealt],
                "announcements": [[(dealer + 1 + k) % PLAYERS,
                                   self.names[o[O.CALLS + k] - 1]] for k in range(calls)],
                "contract": self.names[code - 1],
                "attackers": [first, second],
                "first_announcer": first,
                "tricks": log,
                "pair_points": {"attackers": pts_a, "defenders": pts_d},
                "result": RESULTS[res],
                "deal_scores": delta,
                "scores_after": list(self.scores)})

    def play(self) -> Match:
        for d in range(self.rules.deals_per_match):
            self.play_deal(d)
        return self

    def wins(self) -> list[float]:
        """V13: the highest score wins the tour; ties are shared."""
        top = max(self.scores)
        tied = self.scores.count(top)
        return [1.0 / tied if x == top else 0.0 for x in self.scores]

    def result(self) -> dict:
        top = max(self.scores)
        return {"totals": list(self.scores),
                "winners": [s for s in range(PLAYERS) if self.scores[s] == top]}

    def figures(self) -> dict[str, Any]:
        """Per seat ``score``, ``win`` (share), ``points`` (pair points summed) and
        ``tricks``, as the kernel's seats table."""
        return {"score": list(self.scores), "win": self.wins(), "points": list(self.points),
                "tricks": list(self.tricks_total)}


play, play_many = shared.entry_points(Match)
