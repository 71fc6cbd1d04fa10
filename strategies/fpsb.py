"""fpsb bidding policies: one sealed bid from the bidder's own value."""

from __future__ import annotations

from sim.cfr import seat_start
from sim.games.fpsb import obs as O
from sim.games.fpsb.abstraction import solved_bid
from sim.jit import jit
from sim.rng import uniform
from strategies.base import ILLEGAL_PID, VIEW_PID, GameStrategies, Param, Policy, view_hash

LINEAR, RANDOM, CAPPED, SOLVED = range(4)

POLICIES = (
    Policy("linear", "bid", LINEAR, "bids a x its value (the equilibrium is a = (n-1)/n)", (
        Param("a", 0.5, 0.0, 1.0, "fraction of the value bid"),
    )),
    Policy("random", "bid", RANDOM, "bids a uniform amount between 0 and its value"),
    Policy("capped", "bid", CAPPED, "bids c x its value, but never more than cap (against "
           "rivals bidding a x their values the best response is c = (n-1)/n, cap = a)", (
        Param("c", 0.5, 0.0, 1.0, "fraction of the value bid"),
        Param("cap", 1.0, 0.0, 1.0, "the highest bid"),
    )),
    Policy("solved", "bid", SOLVED, "plays the solution of `bidlab solve fpsb` for the rules in "
           "force: a bid cell drawn for its value's cell, the bid uniform within it"),
)

STRATEGIES = GameStrategies("fpsb", ("bid",), POLICIES, default="linear")


@jit
def decide(pid, o, p, rng, table):
    """The sealed bid (>= 0); ``table``: the solution ``solved`` plays (empty when no
    seat plays it)."""
    if pid == LINEAR:
        return p[0] * o[O.VALUE]
    if pid == CAPPED:
        return min(p[0] * o[O.VALUE], p[1])
    if pid == SOLVED:
        return solved_bid(o, rng, table, seat_start(table, int(o[O.SEAT])))
    if pid == ILLEGAL_PID:
        return -1.0
    if pid == VIEW_PID:  # a bid hashed from the whole view (the value is all it has)
        return (view_hash(o, o[:0]) % 1000) / 1000.0 * o[O.VALUE]
    return uniform(rng) * o[O.VALUE]
