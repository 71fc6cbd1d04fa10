"""bridge bidding policies (one decision: the call).

``bid(pid, o, p, rng, oracle, memo)`` returns a call code (``sim/games/bridge/core.py``:
``PASS`` 0, ``DOUBLE`` 1, ``REDOUBLE`` 2, bids ``3 + 5 * (level - 1) + strain``) from
the observation ``o`` (``sim/games/bridge/obs.py``: the calls so far and the seat's own
hand), the parameter vector ``p`` and the seat's random stream ``rng``. ``oracle`` is the
board's par contract (level, strain, declarer, doubled); only ``par`` reads it, and
``par`` is labelled as cheating: it sees the double-dummy result of all four hands.
``memo`` (int64[MEMO_SIZE], cleared at the start of each board) lets a policy keep what
it derived from the public calls between its questions; partners who play the same
policy with the same parameters share one, so a memo must never hold a hand.

Policies are dispatched by integer id (one branch per policy), as in every game here:
it compiles once, loads from numba's disk cache and runs fastest.
"""

from __future__ import annotations

import numpy as np

from sim.games.bridge import core as C
from sim.games.bridge import obs as O
from sim.jit import jit
from sim.rng import below, uniform
from strategies import bridge_natural as NAT
from strategies.base import ILLEGAL_PID, VIEW_PID, GameStrategies, Param, Policy, view_hash

PASS_POLICY, RANDOM, NATURAL, PAR = range(4)

POLICIES = (
    Policy("pass", "bid", PASS_POLICY, "always passes (every board is passed out)"),
    Policy("random", "bid", RANDOM, "random legal calls: with probability p_bid one of the "
           "lowest `span` legal bids at random; doubles and redoubles rarely "
           "(p_double); otherwise a pass", (
               Param("p_bid", 0.25, 0.0, 1.0, "probability of bidding"),
               Param("span", 3, 1, 35, "bid among this many lowest legal bids", integer=True),
               Param("p_double", 0.03, 0.0, 1.0, "probability of a double or redouble when "
                     "one is legal"),
           )),
    Policy("natural", "bid", NATURAL,
           "a compact natural system in numba (strategies/bridge_natural/ tells it in "
           "full); it sees its own hand and the calls. Both partners replay the calls into "
           "what each has shown (a range of points, suit lengths), so they agree on it. "
           "Openings: 1NT nt_min..nt_max and 2NT nt2_min..nt2_max balanced, strong 2C, "
           "five-card majors, weak twos and preempts. Over 1NT/2NT: Stayman and Jacoby "
           "transfers, invitations, quantitative 4NT. Over one of a suit: single, limit "
           "and Jacoby 2NT raises, a four-card major, 2/1 new suits (forcing), notrump by "
           "points; opener rebids by shape and strength (a reverse needs 17). Competition: "
           "overcalls, weak jumps, 1NT overcall, takeout and negative doubles, cue-bid "
           "raises, the law of total tricks in partscores, rare penalty doubles by "
           "defensive tricks. Then the captain places the contract by combined points: "
           "invite_min invites, game_min game, slam_min slam (Blackwood 4NT with a major "
           "fit: five when two aces are missing), grand_min a grand slam",
           NAT.NATURAL_PARAMS),
    Policy("par", "bid", PAR, "CHEATING ORACLE: bids the board's double-dummy par contract "
           "(it sees all four hands through the solver); a yardstick, not a strategy"),
)

STRATEGIES = GameStrategies("bridge", ("bid",), POLICIES, default="natural")

INFERABLE = (NATURAL,)
"""Policies whose calls tell about their hand: each is a function of the hand and the
calls alone, so bid-EV deals such a seat only hands that make the calls it made.
(``pass`` is such a function too, but its passes tell nothing.)"""


@jit
def random_call(o, p, rng):
    legal = o[O.LEGAL]
    if legal & ((np.int64(1) << C.DOUBLE) | (np.int64(1) << C.REDOUBLE)):
        if uniform(rng) < p[2]:
            return C.DOUBLE if legal & (np.int64(1) << C.DOUBLE) else C.REDOUBLE
    lo = C.FIRST_BID if o[O.LAST_BID] == 0 else o[O.LAST_BID] + 1
    if lo < C.N_CALLS and uniform(rng) < p[0]:
        n = min(np.int64(p[1]), C.N_CALLS - lo)
        return lo + below(rng, max(n, 1))
    return C.PASS


@jit
def par_call(o, oracle):
    level = oracle[0]
    if level == 0:
        return C.PASS
    code = C.bid_code(level, oracle[1])
    seat = o[O.SEAT]
    declarer = oracle[2]
    if seat == declarer and o[O.LAST_BID] < code:
        return code
    if (oracle[3] >= 1 and (seat - declarer) % 2 == 1 and o[O.LAST_BID] == code
            and o[O.LAST_BIDDER] == declarer and o[O.DOUBLED] == 0):
        return C.DOUBLE
    return C.PASS


@jit
def view_call(o):
    """``VIEW_PID``'s call: a legal call picked by the hash of the whole view (its own
    hand is ``o[HAND]``)."""
    legal = o[O.LEGAL]
    n = np.int64(0)
    for c in range(C.N_CALLS):
        n += (legal >> c) & 1
    k = np.int64(view_hash(o, o[:0]) % np.uint64(n))
    for c in range(C.N_CALLS):
        if (legal >> c) & 1:
            if k == 0:
                return np.int64(c)
            k -= 1
    return np.int64(C.PASS)


# -- dispatch -------------------------------------------------------------------------
MEMO_SIZE = NAT.MEMO_SIZE
"""Length of a memo: what a policy may keep between its calls on one board. It holds
only what the policy derived from the public calls, never a hand."""


@jit
def same_system(pids, params, a, b):
    """Whether seats ``a`` and ``b`` play the same policy with the same parameters: then
    they read the public calls alike, and partners may share one memo."""
    if pids[a] != pids[b]:
        return False
    for j in range(params.shape[1]):
        if params[a, j] != params[b, j]:
            return False
    return True


@jit(inline=True)
def uses_rng(pid):
    """Whether the policy draws random numbers (the kernel seeds only those streams)."""
    return pid == RANDOM


@jit(inline=True)
def forget(memo):
    """Clear a seat's memo at the start of a board."""
    NAT.forget(memo)


# Inlined into the kernel's auction loop: the call costs showed in profiles (natural
# answers about nine calls per auction).
@jit(inline=True)
def bid(pid, o, p, rng, oracle, memo):
    """One call for the seat in ``o[SEAT]``."""
    if pid == NATURAL:
        return NAT.natural_call(o, p, memo)
    if pid == RANDOM:
        return random_call(o, p, rng)
    if pid == PAR:
        return par_call(o, oracle)
    if pid == VIEW_PID:
        return view_call(o)
    if pid == ILLEGAL_PID:
        return np.int64(-1)
    return C.PASS
