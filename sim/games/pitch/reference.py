"""A plain-Python reference engine for pitch (``rules/pitch.md``): the slow path.

It plays the same games as the numba kernel -- same random streams, same deal, same
policies, same observation vector -- with nothing but Python ints, floats and lists, so
that

- a test can assert ``reference.play(rules, seats, seed, i) == GAME.trace(...)``: two
  implementations of rules P1-P17 and of the policies agree card for card;
- a test can play hand-made deals with scripted plain-Python policies
  (:class:`PythonPolicy`), and a user can prototype a policy before writing it for
  numba. This path is slow (hundreds of times slower than the kernel) and is labelled
  so: a Python policy's label starts with ``python:``;
- the benchmark has a plain-Python baseline (:func:`play_many`).

This module holds the rules (:class:`Match`) and the ports; what every reference engine
shares -- :class:`PythonPolicy`, turning strategies into seats (:func:`seats_from`),
``play`` and ``play_many`` -- is ``sim/reference.py``.

Ported here, and kept in step with their originals: the card-set helpers of
``sim/tricks.py``, the rules of ``sim/games/pitch/core.py``, the match loop of
``kernel.py`` (a policy is not asked when only one card is legal), and the policies of
``strategies/pitch.py`` with the same float arithmetic in the same order, so the results
are bitwise equal. The random streams are ``sim/pyrng.py``, the plain-Python twin of
``sim/rng.py``. The observation is a list of ints laid out as in ``obs.py``.

A plain-Python policy is called as ``policy(obs, params, rng)``: ``obs`` a copy of the
observation list (changing it changes nothing), ``params`` a tuple of floats, ``rng`` a
``Stream`` with ``below(n)`` and ``uniform()``. A bid policy returns ``PASS`` (0), a
bid 1..4 or ``HOLD`` (-1); a play policy returns a card code from ``obs[LEGAL]``.
Pitch has two decision kinds, so a Python policy says which it answers:
``PythonPolicy(func, decision="bid")``; a seat's other decision plays the default
strategy's policy unless a tuple gives it: ``(PythonPolicy(b, decision="bid"),
PythonPolicy(p, decision="play"))`` or ``("strength", PythonPolicy(p, decision="play"))``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from numbers import Integral
from typing import Any

from sim import pytricks as PT
from sim import reference as shared
from sim.cards import SUITS, format_card
from sim.errors import IllegalActionError
from sim.games.pitch import obs as O
from sim.games.pitch.rules import make as make_rules
from sim.pyrng import Stream
from sim.pytricks import count, highest, lowest, random_card, suit_cards
from sim.reference import Ports, PythonPolicy, ReferenceMatch, Seat
from sim.rules import Rules
from sim.tricks import FOLLOW_OR_TRUMP

__all__ = ["HOLD", "PASS", "Match", "PythonPolicy", "play", "play_many", "seats_from"]

PASS, HOLD = O.PASS, O.HOLD
JOKER = 52
SUIT_BITS = 0x1FFF
DECK52 = (1 << 52) - 1
SPADES = 3
JACK_RANK = 9
GAME_POINTS = (0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4)
POINT_NAMES = ("high", "low", "jack", "joker", "game")
GREEDY_RISK, GREEDY_PULL = 10, 0

ASKING = (O.SEAT, O.HAND, O.LEGAL)
"""Where a question shows the asking seat, its hand and its legal cards."""

# -- trick rules (port of sim/tricks.py; the card-set helpers are in sim/pytricks.py) ----


def legal(hand: int, led: int, trump: int) -> int:
    """P7 (``FOLLOW_OR_TRUMP``)."""
    return PT.legal_cards(hand, led, trump, FOLLOW_OR_TRUMP)


def highest_trump(m: int, trump: int) -> int:
    t = m & suit_cards(trump)
    if t:
        return highest(t)
    return JOKER if m & PT.JOKER_BIT else -1


def lowest_trump(m: int, trump: int) -> int:
    if m & PT.JOKER_BIT:
        return JOKER
    return lowest(m & suit_cards(trump))


def _above(card: int) -> int:
    return -(2 << card)


def beating(mask: int, best: int, led: int, trump: int) -> int:
    if trump >= 0 and (best == JOKER or best // 13 == trump):
        if best == JOKER:
            return mask & suit_cards(trump)
        return mask & suit_cards(trump) & _above(best)
    out = mask & PT.trump_cards(trump)
    if best // 13 == led:
        out |= mask & suit_cards(led) & _above(best)
    return out


def weakest(mask: int, led: int, trump: int) -> int:
    tr = PT.trump_cards(trump)
    lc = PT.led_cards(led, trump) if led >= 0 else 0
    off = mask & ~tr & ~lc
    if off:
        return lowest(off)
    side = mask & lc & ~tr
    if side:
        return lowest(side)
    return lowest_trump(mask, trump)


def strongest(mask: int, led: int, trump: int) -> int:
    t = highest_trump(mask, trump) if trump >= 0 else -1
    if t >= 0:
        return t
    if led >= 0:
        side = mask & suit_cards(led)
        if side:
            return highest(side)
    return highest(mask)


def game_count(m: int) -> int:
    """P13: card points of a set of cards."""
    total = 0
    for r in (8, 9, 10, 11, 12):
        total += GAME_POINTS[r] * count(m & (((1 << r) | (1 << (r + 13)) | (1 << (r + 26))
                                              | (1 << (r + 39)))))
    return total


# -- the deal's points (port of sim/games/pitch/core.py) ----------------------------------

def trump_of_lead(card: int) -> int:
    return SPADES if card == JOKER else card // 13


def _owner(masks: Sequence[int], card: int) -> int:
    for s, m in enumerate(masks):
        if m >> card & 1:
            return s
    return -1


def score_deal(dealt: Sequence[int], won: Sequence[int], trump: int, low_captured: bool,
               tie_pitcher: bool, pitcher: int) -> list[int]:
    """P9-P13: owners of high, low, jack, joker, game (-1 nobody)."""
    in_play = 0
    for m in dealt:
        in_play |= m
    trumps = in_play & suit_cards(trump)
    top = highest_trump(in_play, trump)
    high = _owner(dealt, top) if top >= 0 else -1
    if trumps:
        low_card = lowest(trumps)
        low = _owner(won if low_captured else dealt, low_card)
    else:
        low = -1
    jack_card = trump * 13 + JACK_RANK
    jack = _owner(won, jack_card) if in_play >> jack_card & 1 else -1
    joker = _owner(won, JOKER) if in_play & PT.JOKER_BIT else -1
    counts = [game_count(m) for m in won]
    best = max(counts)
    tied = [s for s, c in enumerate(counts) if c == best]
    if len(tied) == 1:
        game = tied[0]
    else:
        game = pitcher if tie_pitcher and pitcher in tied else -1
    return [high, low, jack, joker, game]


def settle(owners: Sequence[int], n: int, pitcher: int, contract: int
           ) -> tuple[list[int], list[int], bool]:
    """P14: (points per seat, score change per seat, made)."""
    points = [0] * n
    for w in owners:
        if w >= 0:
            points[w] += 1
    delta = list(points)
    made = points[pitcher] >= contract
    if not made:
        delta[pitcher] = -contract
    return points, delta, made


def game_winner(before: Sequence[int], delta: Sequence[int], owners: Sequence[int],
                pitcher: int, contract: int, made: bool, target: int, smudge: bool) -> int:
    """P15-P17."""
    n = len(before)
    if smudge and made and contract == 4:
        return pitcher
    after = [before[s] + delta[s] for s in range(n)]
    reached = [s for s in range(n) if after[s] >= target]
    if not reached:
        return -1
    if made and after[pitcher] >= target:
        return pitcher
    if len(reached) == 1:
        return reached[0]
    for i, w in enumerate(owners):
        if w < 0 or w == pitcher:
            continue
        got = sum(1 for j in range(i + 1) if owners[j] == w)
        if before[w] + got >= target and after[w] >= target:
            return w
    return -1


# -- the policies (port of strategies/pitch.py) ------------------------------------------

def suit_value(hand: int, suit: int, n: int, deck_size: int, joker_game: int,
               low_captured: int) -> float:
    cards = (hand >> (13 * suit)) & SUIT_BITS
    joker = joker_game != 0 and (hand & PT.JOKER_BIT) != 0
    if cards == 0 and not (joker and suit == SPADES):
        return -1.0
    cnt = count(cards) + (1 if joker else 0)
    q = (n - 1) * 6.0 / (deck_size - 6)
    keep = 1.0 - q
    top = highest(cards)
    high = 1.0
    for _ in range(12 - top):
        high *= keep
    low = 0.0
    if cards != 0:
        low = 1.0
        for _ in range(lowest(cards)):
            low *= keep
        if low_captured:
            low *= 0.75
    above_jack = count(cards >> (JACK_RANK + 1))
    if cards & (1 << JACK_RANK):
        jack = 0.55 + 0.15 * min(above_jack, 2)
    else:
        jack = q * 0.12 * above_jack
    joker_pts = 0.0
    if joker_game:
        if joker:
            joker_pts = 0.35 + 0.1 * min(cnt - 1, 3)
        else:
            joker_pts = q * 0.08 * cnt
    gp = game_count(hand)
    game = (1.0 + 0.35 * (cnt - 1.5) + 0.04 * (gp - 9.0)) / n
    game = min(max(game, 0.02), 0.9)
    return high + low + jack + joker_pts + game


def best_suit(hand: int, n: int, deck_size: int, joker_game: int, low_captured: int
              ) -> tuple[int, float]:
    best, value = -1, -2.0
    for s in range(4):
        v = suit_value(hand, s, n, deck_size, joker_game, low_captured)
        if v > value:
            value, best = v, s
    return best, value


def hold_allowed(o: list[int]) -> bool:
    return o[O.SEAT] == o[O.DEALER] and o[O.DEALER_HOLD] != 0 and 0 < o[O.HIGH_BID] < 4


def smallest_bid(o: list[int]) -> int:
    return max(o[O.MIN_BID], o[O.HIGH_BID] + 1)


def _passive_bid(o, p, rng) -> int:
    return PASS


def _random_bid(o, p, rng) -> int:
    if hold_allowed(o) and rng.uniform() < p[1]:
        return HOLD
    lo = smallest_bid(o)
    if lo > 4 or rng.uniform() >= p[0]:
        return PASS
    return lo + rng.below(5 - lo)


def _strength_bid(o, p, rng) -> int:
    n = o[O.PLAYERS]
    seat = o[O.SEAT]
    _, value = best_suit(o[O.HAND], n, count(o[O.DECK]), o[O.JOKER], o[O.LOW_CAPTURED])
    top = p[0] * value + p[1]
    dealer = seat == o[O.DEALER]
    if dealer:
        top += p[2]
    for s in range(n):
        if s != seat and o[O.SCORES + s] >= o[O.TARGET] - 2:
            top += p[3]
            break
    most = min(math.floor(top), 4)
    high = o[O.HIGH_BID]
    if hold_allowed(o) and most >= high:
        return HOLD
    lo = smallest_bid(o)
    if most < lo:
        return PASS
    return lo if dealer else most


def trick_value(mask: int, trump: int) -> int:
    v = game_count(mask)
    if trump >= 0 and mask >> (trump * 13 + JACK_RANK) & 1:
        v += 10
    if mask & PT.JOKER_BIT:
        v += 10
    return v


def throw_cost(card: int, trump: int) -> int:
    if card == JOKER:
        return 300
    r = card % 13
    cost = 4 * GAME_POINTS[r] + r
    if trump >= 0 and card // 13 == trump:
        cost += 100
        if r == JACK_RANK:
            cost += 100
    return cost


def cheapest(mask: int, trump: int) -> int:
    return PT.first_lowest(mask, lambda c: throw_cost(c, trump))


def first_lead(hand: int, n: int, deck: int, joker_game: int, low_captured: int) -> int:
    suit, _ = best_suit(hand, n, count(deck), joker_game, low_captured)
    cards = hand & suit_cards(suit)
    if cards == 0:
        return JOKER
    top = highest(cards)
    if top % 13 >= 10:
        return top
    return lowest(cards)


def greedy_lead(hand: int, trump: int, played: int, deck: int, is_pitcher: bool,
                pull: int) -> int:
    unseen = deck & ~played & ~hand
    tr = PT.trump_cards(trump)
    mine = hand & tr
    theirs = unseen & tr
    if mine and theirs:
        top = highest_trump(mine, trump)
        if beating(theirs, top, trump, trump) == 0:
            return top
        if is_pitcher and pull == 1:
            return cheapest(mine, trump)
        if is_pitcher and pull == 2:
            return top
    if theirs == 0:
        side = hand & ~tr
        best = -1
        while side:
            c = lowest(side)
            side &= side - 1
            if unseen & suit_cards(c // 13) & -(2 << c) == 0:
                best = c
        if best >= 0:
            return best
    return cheapest(hand, trump)


def greedy_follow(hand: int, lg: int, trump: int, led: int, best: int, trick: int,
                  n_after: int, played: int, deck: int, risk: int) -> int:
    unseen = deck & ~played & ~hand
    value = trick_value(trick, trump)
    win = beating(lg, best, led, trump)
    if win:
        if n_after == 0:
            safe = win
        else:
            safe = 0
            m = win
            while m:
                c = lowest(m)
                m &= m - 1
                if beating(unseen, c, led, trump) == 0:
                    safe |= 1 << c
        if safe:
            c = weakest(safe, led, trump)
            if value > 0 or (c != JOKER and c // 13 != trump):
                return c
        if value >= risk and value > 0:
            return strongest(win, led, trump)
    return cheapest(lg, trump)


def greedy_card(hand, lg, trump, led, best, trick, n_after, is_pitcher, played, deck, n,
                joker_game, low_captured, risk, pull) -> int:
    if count(lg) == 1:
        return lowest(lg)
    if led < 0:
        if trump < 0:
            return first_lead(hand, n, deck, joker_game, low_captured)
        return greedy_lead(hand, trump, played, deck, is_pitcher, pull)
    return greedy_follow(hand, lg, trump, led, best, trick, n_after, played, deck, risk)


def _greedy(o, p, rng) -> int:
    k = o[O.TRICK_N]
    return greedy_card(o[O.HAND], o[O.LEGAL], o[O.TRUMP], o[O.LED], o[O.WINNING],
                       PT.trick_so_far(o, O.TRICKS), o[O.PLAYERS] - 1 - k, o[O.SEAT] == o[O.PITCHER],
                       o[O.PLAYED], o[O.DECK], o[O.PLAYERS], o[O.JOKER], o[O.LOW_CAPTURED],
                       int(p[0]), int(p[1]))


def _random_card(o, p, rng) -> int:
    return random_card(rng, o[O.LEGAL])


def _sample(o: list[int], rng: Stream) -> list[int] | None:
    """Port of strategies/pitch.py ``_sample``: hands per seat, or None on failure."""
    n, me, trump = o[O.PLAYERS], o[O.SEAT], o[O.TRUMP]
    pool = o[O.DECK] & ~o[O.PLAYED] & ~o[O.HAND]

    def room(s: int) -> int:
        return count(pool & ~PT.void_cards(o[O.VOIDS + s], trump)) - o[O.LEFT + s]

    order: list[int] = []
    for s in range(n):
        if s == me:
            continue
        r = room(s)
        j = len(order)
        while j > 0 and room(order[j - 1]) > r:
            j -= 1
        order.insert(j, s)
    hands = [0] * n
    hands[me] = o[O.HAND]
    for s in order:
        hand = PT.draw_hand(rng, pool & ~PT.void_cards(o[O.VOIDS + s], trump), o[O.LEFT + s])
        if hand is None:
            return None
        pool &= ~hand
        hands[s] = hand
    return hands


def _sample_relaxed(o: list[int], rng: Stream) -> list[int]:
    n, me = o[O.PLAYERS], o[O.SEAT]
    pool = o[O.DECK] & ~o[O.PLAYED] & ~o[O.HAND]
    hands = [0] * n
    hands[me] = o[O.HAND]
    for s in range(n):
        if s == me:
            continue
        hands[s] = PT.draw_hand(rng, pool, o[O.LEFT + s])
        pool &= ~hands[s]
    return hands


def _playout(o: list[int], sampled: list[int], dealt: list[int], first: int) -> int:
    n, me, pitcher, deck = o[O.PLAYERS], o[O.SEAT], o[O.PITCHER], o[O.DECK]
    joker_game, low_captured = o[O.JOKER], o[O.LOW_CAPTURED]
    hands = list(sampled)
    won = [o[O.WON_BY + s] for s in range(n)]
    trump, trick = o[O.TRUMP], PT.TrickInPlay(o, O.TRICKS, n)
    card = first
    while True:
        seat = trick.seat
        if card < 0:
            hand, led = hands[seat], trick.led
            card = greedy_card(hand, legal(hand, led, trump), trump, led, trick.best,
                               trick.cards, n - 1 - trick.k, seat == pitcher, trick.played,
                               deck, n, joker_game, low_captured, GREEDY_RISK, GREEDY_PULL)
        hands[seat] &= ~(1 << card)
        if trump < 0:
            trump = trump_of_lead(card)
        winner = trick.add(card, trump, False)
        card = -1
        if winner >= 0:
            won[winner] |= trick.taken
            if trick.number == 6:
                break
    owners = score_deal(dealt, won, trump, bool(low_captured), bool(o[O.TIE_PITCHER]), pitcher)
    _, delta, _ = settle(owners, n, pitcher, o[O.CONTRACT])
    u = (n - 1) * delta[me]
    for s in range(n):
        if s != me:
            u -= delta[s]
    return u


def _candidates(o: list[int]) -> list[int]:
    lg, trump = o[O.LEGAL], o[O.TRUMP]
    unseen = o[O.DECK] & ~o[O.PLAYED] & ~o[O.HAND]
    out: list[int] = []
    prev = -1
    m = lg
    while m:
        c = lowest(m)
        m &= m - 1
        plain = (c != JOKER and c % 13 <= 7 and not (
            o[O.LOW_CAPTURED] != 0 and (trump < 0 or c // 13 == trump)))
        if plain and prev >= 0 and prev // 13 == c // 13:
            if unseen & ((1 << c) - (2 << prev)) == 0:
                prev = c
                continue
        prev = c if plain else -1
        out.append(c)
    return out


def _race(alive: list[bool], totals: list[int], s1: list[list[int]], s2: list[list[int]],
          t: int, z: float) -> int:
    lead = -1
    for i in range(len(alive)):
        if alive[i] and (lead < 0 or totals[i] > totals[lead]):
            lead = i
    count_alive = 0
    for i in range(len(alive)):
        if not alive[i]:
            continue
        if i != lead:
            a, b = s1[i][lead], s2[i][lead]
            mean = a / t
            var = (b - a * mean) / (t - 1)
            if mean + z * math.sqrt(max(var, 0.0) / t) < 0.0:
                alive[i] = False
                continue
        count_alive += 1
    return count_alive


def _pimc(o, p, rng) -> int:
    n = o[O.PLAYERS]
    cands = _candidates(o)
    k = len(cands)
    if k == 1:
        return cands[0]
    totals = [0] * k
    alive = [True] * k
    s1 = [[0] * k for _ in range(k)]
    s2 = [[0] * k for _ in range(k)]
    samples, z = int(p[0]), p[1]
    u = [0] * k
    for t in range(1, samples + 1):
        hands = None
        for _try in range(8):
            hands = _sample(o, rng)
            if hands is not None:
                break
        if hands is None:
            hands = _sample_relaxed(o, rng)
        dealt = [hands[s] | o[O.PLAYED_BY + s] for s in range(n)]
        for i, c in enumerate(cands):
            if alive[i]:
                u[i] = _playout(o, hands, dealt, c)
                totals[i] += u[i]
        if z > 0.0:
            for i in range(k):
                if alive[i]:
                    for j in range(k):
                        if alive[j]:
                            d = u[i] - u[j]
                            s1[i][j] += d
                            s2[i][j] += d * d
            if t % 8 == 0 and t < samples and _race(alive, totals, s1, s2, t, z) == 1:
                break
    best = -1
    for i in range(k):
        if alive[i] and (best < 0 or totals[i] > totals[best]):
            best = i
    return cands[best]


PORTS = Ports("pitch", make_rules,
              {"bid": {"passive": _passive_bid, "random": _random_bid, "strength": _strength_bid},
               "play": {"random": _random_card, "greedy": _greedy, "pimc": _pimc}},
              "policy(obs, params, rng)")


def seats_from(strategies: Any, n: int) -> list[Seat]:
    """One seat per player (see ``sim.reference.seats_from``): a tuple is one seat's
    parts, e.g. ``("strength", PythonPolicy(f, decision="play"))``."""
    return shared.seats_from(PORTS, strategies, n)


def _show_card(c: Any) -> str:
    ok = isinstance(c, Integral) and not isinstance(c, bool) and 0 <= c <= 52
    return format_card(int(c)) if ok else repr(c)


def mask_cards(mask: int) -> list[str]:
    return [format_card(c) for c in range(53) if mask >> c & 1]


# -- the game ---------------------------------------------------------------------------

class Match(ReferenceMatch):
    """One pitch game. ``fixed`` (optional): per deal, one card mask or -1 per seat, as
    the kernel's ``fixed`` (hands chosen for tests)."""

    PORTS = PORTS
    FIGURES = ("score", "win", "points", "deals")

    def __init__(self, rules: Rules | Mapping[str, Any] | None, strategies: Any, seed: int,
                 index: int, record: bool = True, fixed: Sequence[Sequence[int]] | None = None):
        super().__init__(rules, strategies, seed, index, record)
        rules, n = self.rules, self.n
        self.fixed = [list(row) for row in fixed] if fixed is not None else []
        self.scores = [0] * n
        self.winner = -1
        self.deals_played = 0
        self.stats = {"points": [0] * n, "pitched": [[0] * 4 for _ in range(n)],
                      "made": [[0] * 4 for _ in range(n)], "sets": [0] * n, "redeals": 0}
        o = self.o = [0] * O.SIZE
        o[O.PLAYERS] = n
        o[O.JOKER] = int(rules.joker)
        o[O.MIN_BID] = rules.min_bid
        o[O.DEALER_HOLD] = int(rules.dealer_hold)
        o[O.STUCK_DEALER] = int(rules.all_pass == "stuck_dealer")
        o[O.LOW_CAPTURED] = int(rules.low_to == "captured")
        o[O.TIE_PITCHER] = int(rules.game_tie == "pitcher")
        o[O.SMUDGE] = int(rules.smudge)
        o[O.TARGET] = rules.target
        o[O.DECK] = DECK52 | (PT.JOKER_BIT if rules.joker else 0)

    # -- what a seat sees ---------------------------------------------------------------
    def observation(self, seat: int, legal_cards: int = 0) -> list[int]:
        """A copy of what ``seat`` is shown: public information, its own hand and, when
        it is to play, its legal cards. No other seat's unplayed cards."""
        o = list(self.o)
        o[O.SEAT] = seat
        o[O.HAND] = self.hands[seat]
        o[O.LEGAL] = legal_cards
        return o

    def _ask(self, seat: int, decision: str, legal: int = 0) -> int:
        return self.ask_holding(seat, decision, self.o, self.hands[seat], legal, ASKING)

    # -- a deal -------------------------------------------------------------------------
    def _deal(self, d: int) -> None:
        n = self.n
        row = self.fixed[d] if d < len(self.fixed) else [-1] * n
        hands = PT.deal_hands(self.deal_rng, row, 52 + int(self.rules.joker), 6)
        self.hands = hands
        self.dealt = list(hands)

    def _bidding(self, d: int, dealer: int, calls: list | None):
        n, rules, o = self.n, self.rules, self.o
        high, bidder, held = 0, -1, False
        for k in range(n):
            s = (dealer + 1 + k) % n
            b = self._ask(s, "bid")
            hold_ok = s == dealer and rules.dealer_hold and 0 < high < 4
            ok = isinstance(b, Integral) and not isinstance(b, bool) and (
                b == PASS or (b == HOLD and hold_ok) or (rules.min_bid <= b <= 4 and b > high))
            if not ok:
                allowed = [f"a pass ({PASS})"]
                if max(rules.min_bid, high + 1) <= 4:
                    allowed.append(f"a bid of {max(rules.min_bid, high + 1)}..4")
                if hold_ok:
                    allowed.append(f"a hold ({HOLD}) at {high}")
                raise IllegalActionError(
                    f"game {self.index}, deal {d}, seat {s}: bid policy of "
                    f"{self.seats[s].label!r} answered {b!r}, which is illegal; legal: "
                    f"{', '.join(allowed)} (rules P2, P3)")
            o[O.BIDS + s] = b
            if calls is not None:
                calls.append(b)
            if b == HOLD:
                bidder, held = dealer, True
                o[O.HIGH_BIDDER] = dealer
            elif b != PASS:
                high, bidder = b, s
                o[O.HIGH_BID] = b
                o[O.HIGH_BIDDER] = s
        if bidder >= 0:
            return bidder, high, held, False
        if rules.all_pass == "stuck_dealer":
            return dealer, rules.min_bid, False, True
        return -1, 0, False, False

    def _tricks(self, d: int, pitcher: int, log: list | None) -> tuple[int, list[int]]:
        n, o = self.n, self.o
        won = [0] * n
        leader, trump = pitcher, -1
        o[O.PHASE] = O.PLAYING
        for t in range(6):
            PT.open_trick(o, O.TRICKS, t, leader)
            cards = []
            for k in range(n):
                s = (leader + k) % n
                hand = self.hands[s]
                lg = legal(hand, o[O.LED], trump)
                if count(lg) == 1:
                    c = lowest(lg)
                else:
                    c = self._ask(s, "play", lg)
                    if not isinstance(c, Integral) or isinstance(c, bool) or not 0 <= c <= 52 \
                            or not lg >> c & 1:
                        raise IllegalActionError(
                            f"game {self.index}, deal {d}, seat {s}, trick {t}: play policy of "
                            f"{self.seats[s].label!r} played {_show_card(c)}, which is "
                            f"illegal; legal: "
                            f"{' '.join(mask_cards(lg))} (rule P7)")
                self.hands[s] = hand & ~(1 << c)
                if trump < 0:
                    trump = trump_of_lead(c)                                          # P6
                    o[O.TRUMP] = trump
                PT.show_card(o, O.TRICKS, k, s, c, trump, FOLLOW_OR_TRUMP, False)      # P7, P8
                cards.append([s, format_card(c)])
            winner, taken = PT.close_trick(o, O.TRICKS, n)
            won[winner] |= taken
            if log is not None:
                log.append({"leader": leader, "cards": cards, "winner": winner})
            leader = winner
        return trump, won

    def play_deal(self, d: int) -> None:
        n, rules, o = self.n, self.rules, self.o
        dealer = (rules.first_dealer + d) % n
        self._deal(d)
        o[O.DEAL], o[O.DEALER], o[O.PHASE] = d, dealer, O.BIDDING
        o[O.HIGH_BID], o[O.HIGH_BIDDER], o[O.PITCHER], o[O.CONTRACT] = 0, -1, -1, 0
        o[O.TRUMP], o[O.LEGAL] = -1, 0
        PT.clear_tricks(o, O.TRICKS, n, 6)
        for s in range(n):
            o[O.BIDS + s] = O.NOT_YET
            o[O.SCORES + s] = self.scores[s]
        calls: list | None = [] if self.record else None
        pitcher, contract, held, stuck = self._bidding(d, dealer, calls)
        self.deals_played = d + 1
        record = None
        if self.record:
            bids = []
            for k, b in enumerate(calls):
                seat = (dealer + 1 + k) % n
                bids.append({"seat": seat, "bid": contract, "hold": True} if b == HOLD else
                            {"seat": seat, "bid": None if b == PASS else b})
            record = {"dealer": dealer, "hands": [mask_cards(h) for h in self.dealt],
                      "bids": bids, "pitcher": pitcher if pitcher >= 0 else None,
                      "contract": contract if pitcher >= 0 else None,
                      "trump": None, "tricks": []}
            if stuck:
                record["stuck"] = True
            self.deals.append(record)
        if pitcher < 0:                                                 # P5: redeal
            self.stats["redeals"] += 1
            if record is not None:
                record["points"] = {name: None for name in POINT_NAMES}
                record["deal_scores"] = [0] * n
                record["scores_after"] = list(self.scores)
            return
        o[O.PITCHER], o[O.CONTRACT] = pitcher, contract
        trump, won = self._tricks(d, pitcher, record["tricks"] if record is not None else None)
        owners = score_deal(self.dealt, won, trump, rules.low_to == "captured",
                            rules.game_tie == "pitcher", pitcher)
        points, delta, made = settle(owners, n, pitcher, contract)
        before = list(self.scores)
        self.winner = game_winner(before, delta, owners, pitcher, contract, made, rules.target,
                                  rules.smudge)
        self.stats["pitched"][pitcher][contract - 1] += 1
        if made:
            self.stats["made"][pitcher][contract - 1] += 1
        else:
            self.stats["sets"][pitcher] += 1
        for s in range(n):
            self.scores[s] += delta[s]
            self.stats["points"][s] += points[s]
        if record is not None:
            record["trump"] = SUITS[trump]
            record["points"] = {name: (w if w >= 0 else None)
                                for name, w in zip(POINT_NAMES, owners)}
            record["made"] = made
            record["deal_scores"] = delta
            record["scores_after"] = list(self.scores)

    def play(self) -> Match:
        for d in range(self.rules.max_deals):
            self.play_deal(d)
            if self.winner >= 0:
                break
        return self

    def wins(self) -> list[float]:
        if self.winner >= 0:
            return [1.0 if s == self.winner else 0.0 for s in range(self.n)]
        return [1.0 / self.n] * self.n

    def result(self) -> dict:
        return {"winner": self.winner if self.winner >= 0 else None,
                "deals_played": self.deals_played, "scores": list(self.scores)}

    def figures(self) -> dict[str, Any]:
        """Per seat ``score``, ``win`` (share), ``points``; the game's ``deals``."""
        return {"score": list(self.scores), "win": self.wins(),
                "points": list(self.stats["points"]), "deals": self.deals_played}


play, play_many = shared.entry_points(Match)
