"""pitch's abstraction for the solver: what a bidder keys on when it speaks (P2-P5).

An information set is

- the hand, by its best trump suit (the suit of highest expected points under the
  ``strength`` policy's model, ``core.suit_value``): those expected points in
  ``steps`` equal steps of 0 to ``RANGE`` (default ``STRENGTH`` = 12 steps of 0.35; the
  last step takes everything above); how many trumps it holds (1, 2, 3, 4 or more, the
  joker counted); whether it holds that suit's ace or king (high, P9); whether it holds
  its jack (P11). Low and game are in the expected points, not kept apart;
- the match score (P16, P17): how far the bidder is from the target, and how far the
  nearest rival is, each 1, 2, .. ``buckets - 1`` points or ``buckets`` and more
  (default ``SCORE_BUCKETS`` = 5: 4 points is the most a 52-card deal brings one
  player, so "5 and more" cannot go out this deal);
- its place in the speaking order (0 first after the dealer, ``players - 1`` the
  dealer, who alone may hold, P3);
- the highest bid so far (0 none, 1..4).

Dropped: the other cards (beyond what the expected points count), who holds the high
bid, which rival is nearest, and the other rivals' scores.
Actions: pass, bid 1..4, hold (``ACTIONS``); which are legal depends only on the place
and the highest bid (and the rules ``min_bid``, ``dealer_hold``), so on the
information set. Size: ``hands(steps, buckets) x players x 5`` information sets of 6
actions (``steps`` and ``buckets``: settings of the solve, kept in the table's header, so
a coarser or finer abstraction is played by the same compiled policy; ``buckets`` = 1 is
a score-blind solution).
"""

from __future__ import annotations

import numpy as np

from sim import tricks as T
from sim.cfr import T_SETTING, Abstraction, table_action
from sim.games.pitch import core as C
from sim.games.pitch import obs as O
from sim.jit import jit
from sim.rng import uniform
from sim.rules import Rules

NAME = "pitch-strength-score"
VERSION = 2
STRENGTH, RANGE = 12, 4.2
"""The default hand-strength steps, and the expected points they cover."""
SCORE_BUCKETS = 5
"""The default distance-to-target buckets (for the bidder and for the nearest rival)."""
COUNTS = 4
HIGHS = 5
PASS_A, HOLD_A = 0, 5
ACTIONS = 6
"""Action a: 0 pass, 1..4 a bid of a, 5 hold."""


def hands(steps: int, buckets: int = 1) -> int:
    """Private classes (hand and score) with ``steps`` strength steps and ``buckets``
    distance buckets."""
    return steps * COUNTS * 2 * 2 * buckets * buckets


def abstraction(rules: Rules, strength_steps: int = STRENGTH,
                score_buckets: int = SCORE_BUCKETS, win: int = 0) -> Abstraction:
    """``win``: 1 for a solution that maximizes the chance of winning the game rather
    than the final margin (the same layout; another solution)."""
    steps, buckets = strength_steps, score_buckets
    return Abstraction(NAME, VERSION, hands(steps, buckets) * rules.players * HIGHS, ACTIONS,
                       {"strength_steps": steps, "step": round(RANGE / steps, 6),
                        "trump_counts": COUNTS, "score_buckets": buckets,
                        "places": rules.players, "high_bids": HIGHS, "win": win})


@jit
def hand_class(hand, n, deck_size, joker_game, low_captured, steps):
    """The hand's class, 0..hands(steps)-1 (see the module docstring)."""
    suit, value = C.best_suit(hand, n, deck_size, joker_game, low_captured)
    cards = (hand >> np.int64(13 * suit)) & np.int64(T.SUIT_BITS)
    count = T.count(cards)
    if joker_game != 0 and (hand & np.int64(T.JOKER_BIT)) != 0:
        count += 1
    strength = min(max(np.int64(value * steps / RANGE), 0), steps - 1)
    top = 1 if cards >> np.int64(11) else 0                       # K or A of the suit
    jack = 1 if cards & np.int64(1 << C.JACK_RANK) else 0
    return ((strength * COUNTS + min(max(count, 1), COUNTS) - 1) * 2 + top) * 2 + jack


@jit
def rival_distance(scores, seat, n, target):
    """How far the other seat nearest the target is from it (at most ``target``)."""
    rival = target
    for s in range(n):
        if s != seat:
            rival = min(rival, target - scores[s])
    return rival


@jit
def score_class(scores, seat, n, target, buckets):
    """The match score's class, 0..buckets**2 - 1: the distances to the target of
    ``seat`` and of the nearest other seat, each cut at ``buckets``."""
    return distance_class(target - scores[seat], rival_distance(scores, seat, n, target),
                          buckets)


@jit
def distance_class(me, rival, buckets):
    """The match score's class of a bidder ``me`` points from the target whose nearest
    rival is ``rival`` points from it."""
    return (min(max(me, 1), buckets) - 1) * buckets + min(max(rival, 1), buckets) - 1


@jit
def private_class(hand_cls, score_cls, buckets):
    return hand_cls * buckets * buckets + score_cls


@jit
def infoset(hand_cls, place, high, n):
    return (hand_cls * n + place) * HIGHS + high


@jit
def legal(a, place, high, n, min_bid, dealer_hold):
    """Whether action ``a`` is legal at this place after this highest bid (P2, P3)."""
    if a == PASS_A:
        return True
    if a == HOLD_A:
        return place == n - 1 and dealer_hold != 0 and 0 < high < 4
    return a >= min_bid and a > high


@jit
def call_of(a):
    """The bid code (``obs.PASS``, 1..4, ``obs.HOLD``) of action ``a``."""
    if a == HOLD_A:
        return np.int64(O.HOLD)
    return np.int64(a)


@jit
def observed_infoset(o, steps, buckets):
    n = o[O.PLAYERS]
    place = (o[O.SEAT] - o[O.DEALER] - 1 + n) % n
    cls = hand_class(o[O.HAND], n, T.count(o[O.DECK]), o[O.JOKER], o[O.LOW_CAPTURED], steps)
    score = score_class(o[O.SCORES:O.SCORES + n], o[O.SEAT], n, o[O.TARGET], buckets)
    return infoset(private_class(cls, score, buckets), place, o[O.HIGH_BID], n)


@jit
def solved_bid(o, rng, table, base):
    """The solution's call: an action drawn from its information set's row (the
    strength steps and score buckets it was solved with are in the table's header)."""
    steps = np.int64(table[base + T_SETTING])
    buckets = np.int64(table[base + T_SETTING + 1])
    return call_of(table_action(table, base, observed_infoset(o, steps, buckets),
                                uniform(rng)))
