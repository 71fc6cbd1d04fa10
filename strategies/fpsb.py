"""fpsb bidding policies: one sealed bid from the bidder's own value."""

from __future__ import annotations

from numba import njit

from sim.rng import uniform
from strategies.base import GameStrategies, Param, Policy

OBS_SEAT, OBS_PLAYERS, OBS_VALUE = range(3)
OBS_SIZE = 3

LINEAR, RANDOM = range(2)

POLICIES = (
    Policy("linear", "bid", LINEAR, "bids a x its value (the equilibrium is a = (n-1)/n)", (
        Param("a", 0.5, 0.0, 1.0, "fraction of the value bid"),
    )),
    Policy("random", "bid", RANDOM, "bids a uniform amount between 0 and its value"),
)

STRATEGIES = GameStrategies("fpsb", ("bid",), POLICIES, default="linear")


@njit(cache=True, _nrt=False)
def decide(pid, o, p, rng):
    """The sealed bid (>= 0)."""
    if pid == LINEAR:
        return p[0] * o[OBS_VALUE]
    return uniform(rng) * o[OBS_VALUE]
