"""aukcio's abstraction for the solver: what a bidder weighs when a face card is on offer
(K6-K14).

An information set is, at the lot's start (all of it public but the bidder's money):

- what the card does to the bidder's own sets (``strategies.aukcio.progress``): it
  completes one (the card wins the match, K14); it makes two of three of two or more
  sets; of one; it only starts sets; it helps nothing (``OWN`` = 5 classes);
- what it does to the rivals who may buy it now (all but the seat sitting out, K9;
  with ``unsold=bottom`` that one too, as ``setvalue`` reads it): it completes one's
  set; it makes two of three of one's set; neither (``THREAT`` = 3);
- the bidder's money, the most it can pay (K3, K6), in ``MONEY`` buckets of thousands
  (``MONEY_EDGES``);
- the money cards of the richest such rival against the bidder's own (public counts):
  two or more fewer, within one, two or more more (``RICH`` = 3);
- the auction cards left, the one on offer excluded, as a share of the deck: more than
  10/16, 5/16 to 10/16, fewer (``LEFT`` = 3).

Dropped: which sets, the other rivals, the cards paid, the calls so far, the draw pile
(the draws to come, K9, K10, are rule values, the same in every information set of a
solution), and whether the bidder can pay a price without overpaying (the ceiling is a
share of what it can pay; the kernel's payment overpays least, K8).

Actions: the lot's ceiling as a share of the most the bidder can pay (``SHARES``;
share 0 is a pass): in open bidding (K7) the kernel bids the smallest legal bid while
it is within the ceiling, as for every ceiling policy; in single bidding the call is
the ceiling itself where it beats the high bid, else a pass. Every action is legal in
every information set. Size: 5 x 3 x 7 x 3 x 3 = 945 information sets of 8 actions,
for any number of players and either bidding form.
"""

from __future__ import annotations

import numpy as np

from sim.cfr import Abstraction, table_action
from sim.games.aukcio import obs as O
from sim.jit import jit
from sim.rng import uniform
from sim.rules import Rules

NAME = "aukcio-sets-money"
VERSION = 1
SHARES = np.array([0.0, 0.05, 0.12, 0.2, 0.3, 0.45, 0.65, 1.0])
"""Action a's ceiling: ``SHARES[a]`` of the most the bidder can pay (rounded, at least 1
for a > 0); action 0 passes."""
ACTIONS = SHARES.shape[0]
OWN, THREAT, MONEY, RICH, LEFT = 5, 3, 7, 3, 3
MONEY_EDGES = np.array([6, 12, 18, 25, 33, 45])
"""Upper bounds (exclusive) of the money buckets, in thousands (a 5-card hand holds 27.7
on average, K2-K4)."""
INFOSETS = OWN * THREAT * MONEY * RICH * LEFT
GAIN_DONE, GAIN_TWO, GAIN_ONE = 0, 1, 2
"""Columns of the ``gains`` rows the kernel passes (``strategies.aukcio.lot_gains``; a
test checks they agree): sets the card completes, makes two of three, starts."""
OWN_DONE, OWN_TWO_MANY, OWN_TWO, OWN_START, OWN_NONE = range(OWN)
THREAT_NONE, THREAT_TWO, THREAT_DONE = range(THREAT)


def abstraction(rules: Rules) -> Abstraction:
    return Abstraction(NAME, VERSION, INFOSETS, ACTIONS,
                       {"shares": [float(x) for x in SHARES], "money_edges": [
                           int(x) for x in MONEY_EDGES], "own": OWN, "threat": THREAT,
                        "rich": RICH, "left": LEFT})


@jit
def own_class(done, two, one):
    if done > 0:
        return OWN_DONE
    if two >= 2:
        return OWN_TWO_MANY
    if two == 1:
        return OWN_TWO
    return OWN_START if one > 0 else OWN_NONE


@jit
def money_class(most):
    for k in range(MONEY_EDGES.shape[0]):
        if most < MONEY_EDGES[k]:
            return k
    return MONEY_EDGES.shape[0]


@jit
def rich_class(mine, richest):
    """The richest rival's money cards against the bidder's, as three classes."""
    d = richest - mine
    return 0 if d <= -2 else (2 if d >= 2 else 1)


@jit
def left_class(left, size):
    """Auction cards left (the card on offer excluded) as a share of the deck's ``size``."""
    if 16 * left > 10 * size:
        return 0
    return 1 if 16 * left >= 5 * size else 2


@jit
def infoset(own, threat, money, rich, left):
    return (((own * THREAT + threat) * MONEY + money) * RICH + rich) * LEFT + left


@jit
def observed_infoset(o, hand, gains):
    """The information set of seat ``o[SEAT]`` for the lot on offer (module docstring)."""
    n = np.int64(o[O.PLAYERS])
    seat = np.int64(o[O.SEAT])
    sitting_out = np.int64(o[O.SITTING_OUT])
    threat = THREAT_NONE
    richest = 0
    for r in range(n):
        if r == seat or (r == sitting_out and o[O.BOTTOM] == 0):
            continue
        if gains[r, GAIN_DONE] > 0:
            threat = THREAT_DONE
        elif gains[r, GAIN_TWO] > 0 and threat == THREAT_NONE:
            threat = THREAT_TWO
        richest = max(richest, np.int64(o[O.MONEY_CARDS + r]))
    own = own_class(gains[seat, GAIN_DONE], gains[seat, GAIN_TWO], gains[seat, GAIN_ONE])
    size = 16 * np.int64(o[O.DECKS])
    return infoset(own, threat, money_class(np.int64(hand[O.HAND_MOST])),
                   rich_class(np.int64(hand[O.HAND_HELD]), richest),
                   left_class(np.int64(o[O.AUCTION_LEFT]), size))


@jit
def action_ceiling(a, most):
    """The ceiling of action ``a`` for a bidder who can pay at most ``most``."""
    if a == 0:
        return np.int64(0)
    return max(np.int64(1), np.int64(np.floor(SHARES[a] * most + 0.5)))


@jit
def solved_ceiling(o, hand, rng, gains, table, base):
    """The solution's ceiling for the lot: an action drawn from its information set's
    row (one uniform draw per lot and seat)."""
    a = table_action(table, base, observed_infoset(o, hand, gains), uniform(rng))
    return action_ceiling(a, np.int64(hand[O.HAND_MOST]))
