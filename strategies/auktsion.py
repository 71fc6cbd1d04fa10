"""auktsion bidding policies.

Each policy answers two questions, both from the public observation vector ``o`` and
the seat's own ``hand`` vector (layouts in ``sim/games/auktsion/obs.py``), its
parameter vector and its own random stream:

- ``ceiling``: the highest price it will pay for the lot now open in the open form, or
  ``ASK`` if it decides call by call. A policy with a ceiling bids the smallest legal
  bid whenever that is within its ceiling and its money, and passes otherwise; the
  kernel applies that rule itself, so a lot between ceiling policies costs no policy
  call per turn (the ceiling is fixed for the lot: nothing it depends on changes
  before the lot is sold).
- ``decide``: one call -- a bid in coins, or ``PASS``. Used for every sealed bid and
  for every open call of an ``ASK`` policy.

Policies are dispatched by integer id (one branch per policy): measured with numba,
this compiles once, loads from the disk cache and runs faster than first-class
function arguments, which would also recompile on every run.
"""

from __future__ import annotations

import numpy as np

from sim.cfr import seat_start
from sim.games.auktsion import obs as O
from sim.games.auktsion.abstraction import richest_rival, solved_ceiling
from sim.jit import jit
from sim.rng import below, uniform
from strategies.base import ILLEGAL_PID, VIEW_PID, Acts, GameStrategies, Param, Policy, view_hash

PASS, ASK = O.PASS, O.ASK

PASSIVE, RANDOM, VALUE, BUDGET, SOLVED = range(5)

POLICIES = (
    Policy("passive", "bid", PASSIVE, "never bids"),
    Policy("random", "bid", RANDOM, "random legal calls: bids with probability p_bid, "
           "a uniform amount from the smallest legal bid up to max_jump coins more", (
               Param("p_bid", 0.3, 0.0, 1.0, "probability of bidding when a bid is legal"),
               Param("max_jump", 3, 0, 1000, "largest jump above the smallest legal bid",
                     integer=True),
           )),
    Policy("value", "bid", VALUE, "bids up to multiple x the lot's points to it "
           "(sealed: bids that much)", (
               Param("multiple", 1.0, 0.0, 20.0, "coins per point of the lot's value"),
           )),
    Policy("budget", "bid", BUDGET,
           "prices points by its money per point still to come: (money + expected income) / "
           "(its points in lots to come + future deals' points), times aggression; never pays "
           "more than a coin is worth at the end (leftover_value) or than needed to outbid the "
           "richest rival; sealed bids are shaded", (
               Param("aggression", 2.5, 0.0, 5.0,
                     "multiplies the coins-per-point price (the default is near the self-play "
                     "equilibrium of the default rules, 2.46)"),
               Param("future_weight", 1.0, 0.0, 2.0,
                     "weight of the points expected in later deals of the match",
                     acts_when=(Acts("carry_money", (True,)), Acts("deals_per_match", above=1))),
               Param("shade", 0.8, 0.0, 1.0, "sealed form: fraction of the ceiling bid",
                     acts_when=(Acts("auction_form", ("sealed",)),)),
           )),
    Policy("solved", "bid", SOLVED,
           "plays the solution of `bidlab solve auktsion` for the rules in force: a ceiling "
           "for the lot (sealed: the bid) drawn from the equilibrium's probabilities, a "
           "multiple of the lot's points x its money per point still to come, by the lot's "
           "points, that price, its money against the richest rival's, the lots and the "
           "deals left (sim/games/auktsion/abstraction.py)"),
)

STRATEGIES = GameStrategies("auktsion", ("bid",), POLICIES, default="budget")


@jit
def smallest_bid(o):
    """Smallest legal bid now (A8): min_bid, and price + min_raise once there is a price."""
    lo = o[O.MIN_BID]
    if o[O.HIGH_BIDDER] >= 0:
        lo = max(lo, o[O.PRICE] + o[O.MIN_RAISE])
    return np.int64(lo)


# Plain IEEE divisions (``sim/jit.py``): a divisor may be zero only where the result is not
# returned, so the seat's figures can all be computed before deciding whether it bids
# at all (see the end). Inlined into ceiling() and decide(): a call with three arrays,
# seven words each, costs more than the arithmetic.
@jit(inline=True)
def budget_ceiling(o, hand, p):
    seat = np.int64(o[O.SEAT])
    lot = np.int64(o[O.LOT])
    value = hand[O.HAND_POINTS + lot]
    money = o[O.MONEY + seat]
    points_to_come = hand[O.HAND_REST + lot]  # own points in this lot and the lots to come
    coins = money
    if o[O.CARRY_MONEY] > 0:
        # Later deals bring a hand of average points and the coins it is short of.
        later = o[O.DEALS] - o[O.DEAL] - 1
        per_hand = o[O.MEAN_HAND]
        points_to_come += p[1] * later * per_hand
        coins += later * max(0.0, o[O.START_MONEY] - per_hand)
    worth = p[0] * value * coins / points_to_come
    if o[O.LEFTOVER_VALUE] > 0.0:
        worth = min(worth, value / o[O.LEFTOVER_VALUE])
    # Outbidding the richest rival by one raise wins the lot whatever he does.
    worth = min(worth, money, richest_rival(o) + o[O.MIN_RAISE])
    # Nothing without a card of this rank or without money. Tested last, as a select:
    # whether a seat holds the rank is a coin flip to the branch predictor.
    return 0.0 if (value <= 0.0) | (money <= 0.0) else worth


# Inlined into the kernel's per-lot loop (with the kernel's ``_ceilings``): called, or
# left to LLVM's inliner once ``solved`` grew the kernel, the call per seat and lot cost
# the budget kernel 20% of its speed. ``solved_ceiling`` stays a call.
@jit(inline=True)
def ceiling(pid, o, hand, p, rng, table):
    """Highest open-form price the policy pays for this lot, or ASK. ``table``: the
    solution ``solved`` plays (a placeholder where no seat plays it)."""
    if pid == PASSIVE:
        return np.int64(0)
    if pid == VALUE:
        return np.int64(np.floor(p[0] * hand[O.HAND_POINTS + np.int64(o[O.LOT])]))
    if pid == BUDGET:
        return np.int64(np.floor(budget_ceiling(o, hand, p)))
    if pid == SOLVED:
        return solved_ceiling(o, hand, rng, table, seat_start(table, np.int64(o[O.SEAT])))
    return np.int64(ASK)


@jit
def random_call(o, p, rng):
    lo = smallest_bid(o)
    money = np.int64(o[O.MONEY + np.int64(o[O.SEAT])])
    if lo > money or uniform(rng) >= p[0]:
        return np.int64(PASS)
    hi = min(money, lo + np.int64(p[1]))
    return lo + below(rng, hi - lo + 1)


@jit(inline=True)
def uses_rng(pid):
    """Whether the policy draws random numbers (the kernel seeds only those streams)."""
    return (pid == RANDOM) | (pid == SOLVED)


@jit
def view_call(o, hand):
    """``VIEW_PID``'s call: a pass or a legal bid picked by the hash of the whole view,
    so that any change in what the seat is shown changes its calls."""
    lo = smallest_bid(o)
    money = np.int64(o[O.MONEY + np.int64(o[O.SEAT])])
    k = np.int64(view_hash(o, hand) % np.uint64(max(1, money - lo + 2)))
    return np.int64(PASS) if lo > money or k == 0 else lo + k - 1


@jit
def decide(pid, o, hand, p, rng, table):
    """One call: a bid in coins or PASS."""
    if pid == RANDOM:
        return random_call(o, p, rng)
    if pid == VIEW_PID:
        return view_call(o, hand)
    lo = smallest_bid(o)
    money = np.int64(o[O.MONEY + np.int64(o[O.SEAT])])
    if pid == ILLEGAL_PID:
        return money + 1
    if o[O.SEALED] > 0:
        top = ceiling(pid, o, hand, p, rng, table)
        if pid == BUDGET:
            top = np.int64(np.floor(p[2] * budget_ceiling(o, hand, p)))
        top = min(top, money)
        return top if top >= lo else np.int64(PASS)
    top = ceiling(pid, o, hand, p, rng, table)
    return lo if lo <= top and lo <= money else np.int64(PASS)
