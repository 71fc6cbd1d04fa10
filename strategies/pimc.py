"""Perfect-information Monte Carlo card play, one search for the trick games (pitch's and
vybory's ``pimc``): deal the cards the asking seat has not seen at random, consistent
with the voids shown by play, play every candidate card out on each deal with the
game's playout policy, and pick the card with the best total.

What differs between the games comes in as hooks, plain jitted functions that the
game's module passes:

- ``alike(o, a, b)``: two legal cards of one suit, with no unseen card between them,
  play the same (only the lower is tried);
- ``on_deal(o, p, work)``: what a sampled deal needs before its playouts (pitch: the
  hands as dealt, for scoring); returns the deal's integer weight (vybory's belief);
- ``playout(o, work, first)``: the deal played out, ``first`` the asking seat's card;
  its utility to the asking seat. The game writes it on :func:`playout`, which takes
  ``choose`` (the card a seat plays), ``named`` (the trump after a lead: pitch's first
  lead names it), ``decided`` (the deal's outcome is settled before its last trick) and
  ``worth`` (what the deal is worth to the asking seat), and a ``context`` tuple of
  the game's scalars, read once per playout and handed to those hooks.

The functions that take hooks (:func:`search`, :func:`playout`, :func:`candidates`) are
inlined (``jit(inline=True)``) into the game's own compiled ``pimc_card`` and
``_playout``, and so are the hooks called per card or per candidate. Two reasons.
numba compiles a function that takes another as an argument once per function passed,
and its disk cache would keep the pitch copy in this module's folder, whose key
(``sim/kernelcache.py``) does not cover pitch's file: an edit to a hook would not
recompile it. Inlined, each game's search is compiled in the game's module, whose key
covers this one. And a hook called per card costs more than its body: pitch's greedy
and early stop called instead of inlined made its pimc 16% slower
(``benchmarks/README.md``). The playout itself stays a call per candidate and deal, as
it was in each game. The functions without hooks (the deal plan, the deal, the race)
take only arrays and scalars: they compile once, here, for both games.

``work`` is the policy's int64 scratch (the kernel never writes into it); its first
:data:`WORK_SIZE` entries are laid out below, a game's own entries follow.
"""

from __future__ import annotations

import numpy as np

from sim import tricks
from sim.jit import jit
from strategies.base import Param, Policy

MAX_SEATS = 8
MAX_CANDIDATES = 16
"""At most as many legal cards as a hand holds (vybory: 13)."""

# Layout of the ``work`` scratch shared by the games' searches.
W_CAND = 0                              # candidate cards
W_TOTAL = W_CAND + MAX_CANDIDATES       # weighted utility summed per candidate
W_ALIVE = W_TOTAL + MAX_CANDIDATES      # 1 while a candidate is still played out
W_RESULT = W_ALIVE + MAX_CANDIDATES     # each candidate's utility on the current deal
W_HANDS = W_RESULT + MAX_CANDIDATES     # a sampled deal: every seat's unplayed cards
W_PLAY = W_HANDS + MAX_SEATS            # hands during a playout
W_WON = W_PLAY + MAX_SEATS              # cards won during a playout
W_ORDER = W_WON + MAX_SEATS             # the other seats, most constrained first
W_SEATS = W_ORDER + MAX_SEATS           # ... and in seat order
W_ALLOWED = W_SEATS + MAX_SEATS         # cards each seat may hold (no shown void)
W_ROOM = W_ALLOWED + MAX_SEATS          # ... how many more than it holds
W_DIFF = W_ROOM + MAX_SEATS             # candidates x candidates: sums of paired
W_DIFF2 = W_DIFF + MAX_CANDIDATES ** 2  # differences u_i - u_j, and of their squares
WORK_SIZE = W_DIFF2 + MAX_CANDIDATES ** 2

SAMPLES = Param("samples", 32, 1, 4096, "random deals of the unseen cards per decision (each "
                "legal card is played out on every one)", integer=True)


def policy(pid: int, description: str, param: Param) -> Policy:
    """A game's ``pimc`` play policy: its ``samples`` and the game's one parameter
    (``p[1]``), greedy in the playouts."""
    return Policy("pimc", "play", pid, description, (SAMPLES, param), playout="greedy")


DEAL_TRIES = 8
"""Deals tried with the voids honoured before one ignores them (never expected)."""
RACE_EVERY = 8
"""Samples between two looks of the race."""


# -- the deal ----------------------------------------------------------------------

@jit
def plan(o, view, work, pool, me, n, trump):
    """What every deal of this decision shares: the cards each other seat may hold
    (``pool``, the unseen cards, less the suits it has shown it lacks) and the orders
    the seats are dealt to: most constrained first (fewest spare cards; ties in seat
    order) into ``W_ORDER``, seat order into ``W_SEATS``. Returns how many seats."""
    k = 0
    for s in range(n):
        if s == me:
            continue
        allowed = pool & ~tricks.void_cards(o[view.voids + s], trump)
        work[W_ALLOWED + s] = allowed
        room = tricks.count(allowed) - o[view.left + s]
        work[W_ROOM + s] = room
        work[W_SEATS + k] = s
        j = k                                   # insertion by room, fewest first
        while j > 0 and work[W_ROOM + work[W_ORDER + j - 1]] > room:
            work[W_ORDER + j] = work[W_ORDER + j - 1]
            j -= 1
        work[W_ORDER + j] = s
        k += 1
    return k


@jit
def deal(o, view, rng, work, pool, hand, me, order, k, honour_voids):
    """Deal the unseen ``pool`` to the ``k`` other seats listed at ``work[order..]``,
    uniformly at random among the cards each may hold (``honour_voids``; else any),
    the asking seat keeping ``hand``. Returns False if a seat's cards run out (the
    caller retries, then relaxes)."""
    work[W_HANDS + me] = hand
    for i in range(k):
        s = work[order + i]
        allowed = (work[W_ALLOWED + s] if honour_voids else pool) & pool
        need = o[view.left + s]
        if tricks.count(allowed) < need:
            return False
        dealt = np.int64(0)
        for _ in range(need):
            c = tricks.draw_card(rng, allowed)
            b = np.int64(1) << c
            dealt |= b
            allowed &= ~b
        pool &= ~dealt
        work[W_HANDS + s] = dealt
    return True


@jit(inline=True)
def _deal_sample(o, view, rng, work, pool, hand, me, k, relaxed_order):
    """One deal: up to ``DEAL_TRIES`` with the voids honoured, in the plan's order;
    then without them, in ``relaxed_order`` (``W_ORDER`` or ``W_SEATS``: each game's
    fallback kept as it was, so that its decisions are too)."""
    for _try in range(DEAL_TRIES):
        if deal(o, view, rng, work, pool, hand, me, W_ORDER, k, True):
            return
    deal(o, view, rng, work, pool, hand, me, relaxed_order, k, False)


# -- the candidates and the race ----------------------------------------------------

@jit(inline=True)
def candidates(o, work, legal, unseen, alike):
    """The legal cards worth trying, into ``work[W_CAND..]``; returns how many. Of two
    cards of one suit that the game's ``alike`` finds interchangeable and that have no
    unseen card between them, only the lower is tried: they play the same."""
    k = 0
    prev = np.int64(-1)
    m = legal
    while m != 0:
        c = tricks.lowest(m)
        m &= m - 1
        if prev >= 0 and prev // 13 == c // 13 and alike(o, prev, c):
            between = unseen & ((np.int64(1) << c) - (np.int64(2) << prev))
            if between == 0:
                prev = c
                continue
        prev = c
        work[W_CAND + k] = c
        k += 1
    return k


@jit
def _start(work, k, z):
    """Every candidate in the race with nothing summed (the paired sums only when
    racing)."""
    for i in range(k):
        work[W_TOTAL + i] = 0
        work[W_ALIVE + i] = 1
        if z > 0.0:
            for j in range(k):
                work[W_DIFF + MAX_CANDIDATES * i + j] = 0
                work[W_DIFF2 + MAX_CANDIDATES * i + j] = 0


@jit
def _add_pairs(work, k):
    """This deal's paired differences between the candidates still played out."""
    for i in range(k):
        if work[W_ALIVE + i]:
            for j in range(k):
                if work[W_ALIVE + j]:
                    d = work[W_RESULT + i] - work[W_RESULT + j]
                    work[W_DIFF + MAX_CANDIDATES * i + j] += d
                    work[W_DIFF2 + MAX_CANDIDATES * i + j] += d * d


@jit
def leading(work, k):
    """The candidate still played out with the best total (ties: the first)."""
    lead = -1
    for i in range(k):
        if work[W_ALIVE + i] and (lead < 0 or work[W_TOTAL + i] > work[W_TOTAL + lead]):
            lead = i
    return lead


@jit
def race(work, k, t, z):
    """After ``t`` samples: stop playing out every candidate whose paired difference
    from the leader (the best total so far) is below zero with confidence: its mean
    plus ``z`` standard errors is still negative. Returns how many remain."""
    lead = leading(work, k)
    alive = 0
    for i in range(k):
        if not work[W_ALIVE + i]:
            continue
        if i != lead:
            s1 = work[W_DIFF + MAX_CANDIDATES * i + lead]
            s2 = work[W_DIFF2 + MAX_CANDIDATES * i + lead]
            mean = s1 / t
            var = (s2 - s1 * mean) / (t - 1)
            if mean + z * np.sqrt(max(var, 0.0) / t) < 0.0:
                work[W_ALIVE + i] = 0
                continue
        alive += 1
    return alive


# -- the search --------------------------------------------------------------------

@jit(inline=True)
def search(o, view, p, rng, work, me, hand, legal, deck, n, trump, z, relaxed_order,
           alike, on_deal, playout):
    """The card of ``legal`` with the best total over ``p[0]`` sampled deals of the
    cards of ``deck`` the asking seat ``me`` (holding ``hand``) has not seen. ``view``:
    the observation's :class:`sim.tricks.TrickView`. ``z`` > 0 races the candidates
    (:func:`race`, every ``RACE_EVERY`` samples, on the unweighted results); 0 plays
    every candidate on every deal."""
    pool = deck & ~o[view.played] & ~hand
    k = candidates(o, work, legal, pool, alike)
    if k == 1:
        return work[W_CAND]
    _start(work, k, z)
    seats = plan(o, view, work, pool, me, n, trump)
    samples = np.int64(p[0])
    for t in range(1, samples + 1):
        _deal_sample(o, view, rng, work, pool, hand, me, seats, relaxed_order)
        weight = on_deal(o, p, work)
        for i in range(k):
            if work[W_ALIVE + i]:
                u = playout(o, work, work[W_CAND + i])
                work[W_RESULT + i] = u
                work[W_TOTAL + i] += weight * u
        if z > 0.0:
            _add_pairs(work, k)
            if t % RACE_EVERY == 0 and t < samples and race(work, k, t, z) == 1:
                break
    return work[W_CAND + leading(work, k)]


# -- the playout -------------------------------------------------------------------

@jit(inline=True)
def playout(o, view, work, first, n, hand_size, trump, rule, low_wins, context, choose,
            named, decided, worth):
    """Play the sampled deal in ``work[W_HANDS..]`` out from the observed position:
    the asking seat plays ``first``, then ``choose(context, seat, hand, legal, trump,
    led, best, trick, k, winning, played)`` every card (``trick``: the mask of the
    trick's ``k`` cards so far, ``best`` the card winning it, ``winning`` its seat).
    ``n`` seats, ``hand_size`` tricks a deal, ``rule`` and ``low_wins`` as in
    :mod:`sim.tricks`. Cards won go to ``work[W_WON..]``; returns ``worth(o, work,
    context, trump)``, unless ``decided(o, work, context, trump, tricks_done)`` ends the
    deal early."""
    for s in range(n):
        work[W_PLAY + s] = work[W_HANDS + s]
        work[W_WON + s] = o[view.won_by + s]
    leader = o[view.leader]
    trick_no = o[view.trick]
    k = o[view.n_cards]
    played = o[view.played]
    led = o[view.led]
    best = o[view.winning]
    trick = np.int64(0)
    best_pos = 0
    for i in range(k):
        c = o[view.cards + i]
        trick |= np.int64(1) << c
        if c == best:
            best_pos = i
    card = first
    while True:
        seat = leader + k
        if seat >= n:
            seat -= n
        hand = work[W_PLAY + seat]
        if card < 0:
            winning = leader + best_pos
            if winning >= n:
                winning -= n
            card = choose(context, seat, hand, tricks.legal_cards(hand, led, trump, rule),
                          trump, led, best, trick, k, winning, played)
        b = np.int64(1) << card
        work[W_PLAY + seat] = hand & ~b
        played |= b
        trick |= b
        if k == 0:
            trump = named(card, trump)
            led = tricks.effective_suit(card, trump)
            best = card
            best_pos = 0
        elif tricks.power(card, led, trump, low_wins) > tricks.power(best, led, trump,
                                                                     low_wins):
            best = card
            best_pos = k
        k += 1
        card = -1
        if k == n:
            winner = leader + best_pos
            if winner >= n:
                winner -= n
            work[W_WON + winner] |= trick
            trick_no += 1
            if trick_no == hand_size or decided(o, work, context, trump, trick_no):
                break
            leader = winner
            k = 0
            trick = np.int64(0)
            led = -1
            best = -1
    return worth(o, work, context, trump)
