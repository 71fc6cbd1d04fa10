"""aukcio bidding policies.

Each policy answers from the public vector ``o`` and its own hand vector ``hand``
(layouts in ``sim/games/aukcio/obs.py``), its parameters and its own random stream:

- ``ceiling``: the highest price it pays for the lot now open in open bidding, or
  ``ASK`` to decide call by call. A policy with a ceiling bids the smallest legal bid
  while that is within its ceiling and its money, and passes otherwise; the kernel
  plays that itself, so an open lot between ceiling policies costs no policy call per
  turn (nothing a ceiling depends on changes during the lot).
- ``decide``: one call, a bid in thousands or ``PASS``: every single-bidding call and
  every open call of an ``ASK`` policy.

Dispatched by integer id, as in every game (``strategies/auktsion.py`` says why).
"""

from __future__ import annotations

import numpy as np

from sim.cfr import seat_start
from sim.games.aukcio import core as C
from sim.games.aukcio import obs as O
from sim.games.aukcio.abstraction import solved_ceiling
from sim.jit import jit
from sim.rng import below, uniform
from strategies.base import ILLEGAL_PID, VIEW_PID, Acts, GameStrategies, Param, Policy, view_hash

PASS, ASK = O.PASS, O.ASK

PASSIVE, RANDOM, SETVALUE, SOLVED = range(4)

MEAN_CARD = 216.0 / 39.0
"""Mean value of a money card (K2, K3: 4 x (2 + ... + 10) in 39 cards, jokers as 0)."""

SETVALUE_PARAMS = (
    Param("start", 0.08, 0.0, 1.0, "share of its money it pays for a card that starts a "
          "set (one of three), per set started"),
    Param("advance", 0.4, 0.0, 1.0, "share of its money it pays for a card that makes two "
          "of a set, per such set"),
    Param("block", 0.7, 0.0, 1.0, "share of its money it pays to take a card that would "
          "complete a rival's set"),
    Param("block_pair", 0.1, 0.0, 1.0, "share of its money it pays to take a card that "
          "would give a rival two of a set"),
    Param("draw_weight", 1.0, 0.0, 2.0, "weight of the money it draws after a purchase "
          "(buyer_draw cards of average value), added to its money when it prices a card",
          acts_when=(Acts("buyer_draw", above=0),)),
    Param("shade", 0.8, 0.0, 1.0, "single bidding: the share of its ceiling it bids",
          acts_when=(Acts("bidding", ("single",)),)),
)
(P_START, P_ADVANCE, P_BLOCK, P_BLOCK_PAIR, P_DRAW_WEIGHT, P_SHADE) = range(6)

POLICIES = (
    Policy("passive", "bid", PASSIVE, "never bids"),
    Policy("random", "bid", RANDOM, "random legal calls: bids with probability p_bid, "
           "a uniform amount from the smallest legal bid up to max_jump more", (
               Param("p_bid", 0.3, 0.0, 1.0, "probability of bidding when a bid is legal"),
               Param("max_jump", 5, 0, 100, "largest jump above the smallest legal bid",
                     integer=True),
           )),
    Policy("setvalue", "bid", SETVALUE,
           "prices the card by how far it advances its own sets (all its money for a card "
           "that completes one) and how far it would advance each rival's (blocking: only "
           "rivals who may bid now, or who may meet it again under unsold=bottom), as a "
           "share of its money plus the money it expects to draw", SETVALUE_PARAMS),
    Policy("solved", "bid", SOLVED,
           "plays the solution of `bidlab solve aukcio` for the rules in force: a ceiling "
           "for the lot (open bidding; single bidding: that bid, or a pass where it does not "
           "beat the high bid) drawn from the equilibrium's probabilities for what the card "
           "does to its own sets and to the rivals who may buy it, its money, the richest "
           "rival's money cards against its own, and the auction cards left"),
)

STRATEGIES = GameStrategies("aukcio", ("bid",), POLICIES, default="setvalue")


@jit(inline=True)
def kinds_present(o, at):
    """The kinds ``k`` with ``o[at + k] > 0``, as a bit set."""
    bits = 0
    for k in range(O.KINDS):
        bits |= np.int64(o[at + k] > 0) << k
    return bits


@jit(inline=True)
def _rank_bits(kinds, rank):
    """The kinds of ``rank`` in the bit set ``kinds``, as four bits by suit: bits rank,
    rank + 4, rank + 8, rank + 12 gathered by one multiplication (its partial products
    fall on distinct bits, so nothing carries) into bits 12..15."""
    return ((((kinds >> rank) & 0x1111) * 0x1248) >> 12) & 0xF


@jit(inline=True)
def progress(mine, in_deck, kind):
    """(sets ``kind`` completes, sets it makes two of three, sets it starts) for a seat
    owning the kinds ``mine`` (a bit set), among the sets still available to it: each
    other card of the set is owned by it or still in the auction deck (``in_deck``).
    Looked up in ``core.PROGRESS_RANK`` and ``core.PROGRESS_RUN``, without a branch:
    which sets are open and how far is a coin toss."""
    suit, rank = kind >> 2, kind & 3
    rest = ~(1 << kind)                   # the kinds but the card's own
    m, a = mine & rest, (mine | in_deck) & rest
    packed = (C.PROGRESS_RANK[_rank_bits(m, rank) << 4 | _rank_bits(a, rank)]
              + C.PROGRESS_RUN[rank << 8 | ((m >> 4 * suit) & 0xF) << 4
                               | ((a >> 4 * suit) & 0xF)])
    return packed & 15, (packed >> 4) & 15, packed >> 8


GAIN_DONE, GAIN_TWO, GAIN_ONE = range(3)
GAIN_COLS = 3


@jit(inline=True)
def lot_gains(kind, players, in_deck, owned, gains):
    """Row ``r`` of ``gains``: ``progress`` of seat ``r`` for the card of ``kind`` on
    offer, from the public view as bit sets of kinds (``kinds_present``): ``in_deck``
    those still in the auction deck, ``owned[r]`` those seat ``r`` owns. It is public
    and the same all lot long, so the kernel works it out once per lot for every seat's
    policy (a seat's ceiling reads every rival's), from bit sets it keeps up to date."""
    for r in range(players):
        gains[r, GAIN_DONE], gains[r, GAIN_TWO], gains[r, GAIN_ONE] = progress(
            owned[r], in_deck, kind)


@jit(inline=True)
def setvalue_ceiling(o, hand, p, gains):
    seat = np.int64(o[O.SEAT])
    most = hand[O.HAND_MOST]
    done, two, one = gains[seat, GAIN_DONE], gains[seat, GAIN_TWO], gains[seat, GAIN_ONE]
    if done > 0:
        return np.int64(most)  # the card wins the game (K14)
    share = p[P_ADVANCE] * two + p[P_START] * one
    sitting_out = np.int64(o[O.SITTING_OUT])
    block = 0.0
    for r in range(np.int64(o[O.PLAYERS])):
        if r == seat:
            continue
        # a rival sitting out cannot buy it now; it meets him again only under bottom
        if r == sitting_out and o[O.BOTTOM] == 0:
            continue
        if gains[r, GAIN_DONE] > 0:
            block = max(block, p[P_BLOCK])
        elif gains[r, GAIN_TWO] > 0:
            block = max(block, p[P_BLOCK_PAIR])
    share = min(1.0, share + block)
    budget = most + p[P_DRAW_WEIGHT] * o[O.BUYER_DRAW] * MEAN_CARD
    return np.int64(min(most, np.floor(share * budget)))


@jit(inline=True)
def ceiling(pid, o, hand, p, rng, gains, table):
    """Highest open-bidding price the policy pays for this lot, or ASK (``gains``:
    ``lot_gains``; ``table``: the solutions ``solved`` plays, ``sim.cfr.stack_tables``)."""
    if pid == PASSIVE:
        return np.int64(0)
    if pid == SETVALUE:
        return setvalue_ceiling(o, hand, p, gains)
    if pid == SOLVED:
        return solved_ceiling(o, hand, rng, gains, table, seat_start(table, np.int64(o[O.SEAT])))
    return np.int64(ASK)


@jit(inline=True)
def uses_rng(pid):
    """Whether the policy draws random numbers (the kernel seeds only those streams)."""
    return pid == RANDOM or pid == SOLVED


@jit(inline=True)
def smallest_bid(o):
    return np.int64(o[O.HIGH_BID]) + 1


@jit
def random_call(o, hand, p, rng):
    lo = smallest_bid(o)
    most = np.int64(hand[O.HAND_MOST])
    if lo > most or uniform(rng) >= p[0]:
        return np.int64(PASS)
    hi = min(most, lo + np.int64(p[1]))
    return lo + below(rng, hi - lo + 1)


@jit
def view_call(o, hand):
    """``VIEW_PID``'s call: a pass or a legal bid picked by the hash of the whole view,
    so that any change in what the seat is shown changes its calls."""
    lo = smallest_bid(o)
    most = np.int64(hand[O.HAND_MOST])
    k = np.int64(view_hash(o, hand) % np.uint64(max(1, most - lo + 2)))
    return np.int64(PASS) if lo > most or k == 0 else lo + k - 1


@jit
def decide(pid, o, hand, p, rng, gains, table):
    """One call: a bid in thousands or PASS (``gains``: ``lot_gains``; ``table``:
    ``ceiling``'s)."""
    if pid == RANDOM:
        return random_call(o, hand, p, rng)
    if pid == VIEW_PID:
        return view_call(o, hand)
    lo = smallest_bid(o)
    most = np.int64(hand[O.HAND_MOST])
    if pid == ILLEGAL_PID:
        return most + 1
    top = min(ceiling(pid, o, hand, p, rng, gains, table), most)
    if lo > top:
        return np.int64(PASS)
    if o[O.SINGLE] == 0:
        return lo  # open bidding: the smallest legal bid
    if pid == SETVALUE and top < most:  # one call: shade it, unless the card is worth it all
        return max(lo, np.int64(np.floor(p[P_SHADE] * top)))
    return top
