"""auktsion's abstraction for the solver: what a bidder weighs when a lot opens (A3-A15).

An information set is

- the lot's points to the bidder (its own cards of the rank, A2, A13), in ``VALUES``
  steps of a rank's most points (0..10 with the default suit points: exact);
- how rich it is: its *price of a point*, ``coins / points`` (below), against the
  table's ``(start_money - mean hand) / mean hand`` at a deal's start, on a log scale
  (``RICH`` buckets);
- its money against the richest rival's (``RIVAL`` buckets: that rival's money is at
  most half its own, ..., at least twice it): who can outbid whom;
- lots left in the deal, this one included (``LOTS`` buckets);
- deals left after this one (``DEALS`` buckets; one bucket where money does not carry,
  A14, since then later deals do not depend on this one's spending).

``coins / points`` is the ``budget`` policy's price of a point: the bidder's money (plus,
where money carries, the coins an average hand brings in each later deal) over its
points in this lot and the lots to come (plus an average hand's points per later deal).
The rivals' points are not public (A3 tells them only at the first deal's start) and
are not kept; their money is.

The action is a *ceiling* for the lot (open form: the kernel bids the smallest legal bid
while it is at most the ceiling, A8) or the sealed bid (sealed form): ``MULTIPLES[a]``
x the lot's points x the price of a point, at most the bidder's money and one raise
above the richest rival's money (more never buys anything more); action 0 passes. A lot
worth nothing to the bidder (no card of the rank) allows only the pass. Dropped: the
price and who holds it call by call (a ceiling is fixed for the lot), the seat order,
the scores, the rivals' face-up cards. ``README.md`` ("Solved bidding") has the
measured price of the ceiling form.
"""

from __future__ import annotations

import numpy as np

from sim.cfr import Abstraction, table_action
from sim.games.auktsion import obs as O
from sim.jit import jit
from sim.rng import uniform
from sim.rules import Rules

NAME = "auktsion-ceiling"
VERSION = 1
VALUES = 11
RICH = 3
RICH_EDGES = (-0.5, 0.5)
"""log2 of the bidder's price of a point over the table's: below -0.5, to 0.5, above."""
RIVAL = 5
RIVAL_EDGES = (0.5, 0.8, 1.25, 2.0)
"""The richest rival's money over the bidder's (the bidder broke counts as above all)."""
LOTS = 4
DEALS = 4
MULTIPLES = np.array([0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 7.0, 10.0])
"""Action a: a ceiling of MULTIPLES[a] x the lot's points x the price of a point
(``budget``'s default is 2.5); 0 passes."""
ACTIONS = MULTIPLES.size
INFOSETS = VALUES * RICH * RIVAL * LOTS * DEALS


def abstraction(rules: Rules) -> Abstraction:
    return Abstraction(NAME, VERSION, INFOSETS, ACTIONS,
                       {"values": VALUES, "rich": RICH, "rival": RIVAL, "lots": LOTS,
                        "deals": DEALS, "multiples": [float(m) for m in MULTIPLES]})


@jit
def price_of_point(o, hand):
    """The bidder's coins per point still to come (see the module docstring); 0 where
    no point is to come."""
    seat = np.int64(o[O.SEAT])
    lot = np.int64(o[O.LOT])
    coins = o[O.MONEY + seat]
    points = hand[O.HAND_REST + lot]
    if o[O.CARRY_MONEY] > 0:
        later = o[O.DEALS] - o[O.DEAL] - 1
        points += later * o[O.MEAN_HAND]
        coins += later * max(0.0, o[O.START_MONEY] - o[O.MEAN_HAND])
    return coins / points if points > 0 else 0.0


@jit
def richest_rival(o):
    """The most money another seat holds: more than one raise above it never buys
    anything more (``budget`` caps its ceiling there too)."""
    best = 0.0
    seat = np.int64(o[O.SEAT])
    for s in range(np.int64(o[O.PLAYERS])):
        if s != seat:
            best = max(best, o[O.MONEY + s])
    return best


@jit
def lot_max(o):
    """The most points one rank can hold: one card of each suit (``DECK_POINTS`` over
    the ranks in play)."""
    return o[O.DECK_POINTS] / (13 - o[O.FIRST_RANK])


@jit
def value_class(value, top):
    """The lot's points, ``VALUES`` steps of ``top`` (exact with the default points)."""
    if top <= 0 or value <= 0:
        return 0
    return min(max(np.int64(np.floor(value * (VALUES - 1) / top + 0.5)), 1), VALUES - 1)


@jit
def bucket(x, e0, e1, e2, e3, k):
    """How many of the first ``k - 1`` edges ``e0 < e1 < ...`` are at most ``x``."""
    b = 0
    if k > 1 and x >= e0:
        b = 1
    if k > 2 and x >= e1:
        b = 2
    if k > 3 and x >= e2:
        b = 3
    if k > 4 and x >= e3:
        b = 4
    return b


@jit
def infoset_of(value_cls, rich, rival, lots, deals):
    return (((value_cls * RICH + rich) * RIVAL + rival) * LOTS + lots) * DEALS + deals


@jit
def observed_infoset(o, hand):
    """The information set of the seat ``o[SEAT]`` at the lot ``o[LOT]`` now open."""
    seat = np.int64(o[O.SEAT])
    lot = np.int64(o[O.LOT])
    value = hand[O.HAND_POINTS + lot]
    v = value_class(value, lot_max(o))
    mean = o[O.MEAN_HAND]
    table = max(o[O.START_MONEY] - mean, 1.0) / mean if mean > 0 else 1.0
    c = price_of_point(o, hand)
    rich = bucket(np.log2(c / table) if c > 0 else -1e9, RICH_EDGES[0], RICH_EDGES[1],
                  0.0, 0.0, RICH)
    money = o[O.MONEY + seat]
    ratio = richest_rival(o) / money if money > 0 else 1e9
    rival = bucket(ratio, RIVAL_EDGES[0], RIVAL_EDGES[1], RIVAL_EDGES[2], RIVAL_EDGES[3],
                   RIVAL)
    left = 13 - lot                                   # this lot included, 1..13
    lots = min((left - 1) // 3, LOTS - 1)
    deals = 0
    if o[O.CARRY_MONEY] > 0:
        deals = min(np.int64(o[O.DEALS] - o[O.DEAL] - 1), DEALS - 1)
    return infoset_of(v, rich, rival, lots, deals)


@jit
def legal_in(row, a):
    """Only the pass where the lot is worth nothing to the bidder."""
    return a == 0 or row // (RICH * RIVAL * LOTS * DEALS) > 0


def legal_mask() -> np.ndarray:
    mask = np.zeros((INFOSETS, ACTIONS), np.int64)
    for row in range(INFOSETS):
        for a in range(ACTIONS):
            mask[row, a] = legal_in(row, a)
    return mask


@jit
def action_ceiling(o, hand, a):
    """Action ``a``'s ceiling (or sealed bid) in coins for the seat ``o[SEAT]``: see the
    module docstring; 0 (never a legal bid, A8) for the pass."""
    if a == 0:
        return np.int64(0)
    seat = np.int64(o[O.SEAT])
    value = hand[O.HAND_POINTS + np.int64(o[O.LOT])]
    worth = MULTIPLES[a] * value * price_of_point(o, hand)
    worth = min(worth, o[O.MONEY + seat], richest_rival(o) + o[O.MIN_RAISE])
    return np.int64(np.floor(worth))


@jit
def solved_ceiling(o, hand, rng, table, base):
    """The solution's ceiling (sealed: its bid) for the lot now open: an action drawn
    from its information set's row."""
    return action_ceiling(o, hand, table_action(table, base, observed_infoset(o, hand),
                                                uniform(rng)))
