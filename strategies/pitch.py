"""pitch policies: bidding and card play are separate decisions.

Each policy reads the seat's observation (an int64 vector, layout in
``sim/games/pitch/obs.py``: public information plus its own hand and legal cards), its
parameter vector and its own random stream; a play policy also gets ``work``, an int64
scratch array the kernel never writes into (so it holds no hidden card).

- ``bid(pid, o, p, rng, table)`` returns ``PASS`` (0), a bid 1..4, or ``HOLD`` (the dealer
  takes the contract at the highest bid, P3).
- ``play(pid, o, p, rng, work)`` returns a card from ``o[LEGAL]``. The kernel does not
  ask when only one card is legal.

Policies are dispatched by integer id (one branch per policy): measured with numba,
this compiles once, loads from the disk cache and runs faster than first-class
function arguments. ``greedy`` is written on scalars (:func:`greedy_card`) so that
``pimc``'s playouts call it without building observation vectors.
"""

from __future__ import annotations

import numpy as np

from sim import tricks as T
from sim.cfr import seat_start
from sim.games.pitch import core as C
from sim.games.pitch import obs as O
from sim.games.pitch.abstraction import solved_bid
from sim.games.pitch.core import best_suit, suit_value  # noqa: F401  (the hand evaluation)
from sim.jit import jit
from sim.rng import below, uniform
from strategies.base import ILLEGAL_PID, VIEW_PID, Acts, GameStrategies, Param, Policy, view_hash

PASS, HOLD = O.PASS, O.HOLD

# Policy ids per decision kind.
PASSIVE, RANDOM_BID, STRENGTH, SOLVED = range(4)
RANDOM_PLAY, GREEDY, PIMC = range(3)

STRENGTH_PARAMS = (
    Param("aggression", 1.0, 0.0, 3.0, "multiplies the hand's expected points in its best "
          "trump suit"),
    Param("slack", 0.5, -2.0, 4.0, "bids up to floor(aggression x expected points + slack)"),
    Param("position", 0.0, -2.0, 2.0, "extra slack for the dealer, who speaks last, sees "
          "every bid and may hold"),
    Param("urgency", 0.25, 0.0, 3.0, "extra slack when an opponent is within 2 points of "
          "the target (take the contract away from him)"),
)
GREEDY_PARAMS = (
    Param("risk", 10, 0, 60, "a trick worth at least this much (card points; jack and "
          "joker 10 each) is contested even with a card that may still be beaten",
          integer=True),
    Param("pull", 0, 0, 2, "as pitcher without the top trump, while opponents may hold "
          "trumps: 0 leads no trump, 1 its cheapest trump, 2 its highest",
          integer=True),
)
GREEDY_RISK, GREEDY_PULL = 10, 0  # greedy's defaults, used by pimc's playouts

POLICIES = (
    Policy("passive", "bid", PASSIVE, "always passes (a stuck dealer still has to take "
           "min_bid, P5)"),
    Policy("random", "bid", RANDOM_BID, "the dealer holds with probability p_hold when he "
           "may; otherwise a uniformly random legal bid with probability p_bid, else a pass", (
               Param("p_bid", 0.3, 0.0, 1.0, "probability of bidding when a bid is legal"),
               Param("p_hold", 0.5, 0.0, 1.0, "probability that the dealer holds when he may",
                     acts_when=(Acts("dealer_hold", (True,)),)),
           )),
    Policy("strength", "bid", STRENGTH,
           "values the hand in its best trump suit (expected high, low, jack, joker and "
           "game points); bids up to floor(aggression x value + slack), more as dealer "
           "(position) and when an opponent nears the target (urgency); an earlier seat "
           "bids that much, the dealer only what beats the highest bid, or holds",
           STRENGTH_PARAMS),
    Policy("solved", "bid", SOLVED,
           "plays the solution of `bidlab solve pitch` for the rules in force: a call drawn "
           "from the equilibrium's probabilities for its hand class (best trump suit's "
           "expected points, trumps, high and jack held), its and the nearest rival's "
           "distance to the target, its place before the dealer and the highest bid so far", (
               Param("strength_steps", 12, 1, 100, "the hand-strength steps of the solution "
                     "played: another than 12 plays one made with `bidlab solve pitch "
                     "--setting strength_steps=N`", integer=True),
               Param("score_buckets", 5, 1, 30, "the distance-to-target buckets of the "
                     "solution played (1: a score-blind solution): another than 5 plays one "
                     "made with `bidlab solve pitch --setting score_buckets=N`", integer=True),
               Param("win", 0, 0, 1, "1 plays the solution that maximizes the chance of "
                     "winning the game (`bidlab solve pitch --setting win=1`); 0 the one that "
                     "maximizes the final margin, own score less the others' mean",
                     integer=True),
           )),
    Policy("random", "play", RANDOM_PLAY, "a uniformly random legal card"),
    Policy("greedy", "play", GREEDY,
           "a card player's rules of thumb: as pitcher, names its best suit with its top "
           "card (or its lowest below a queen); leads its top trump to draw trumps while "
           "that is a sure winner, side aces once trumps are out, else its cheapest card; "
           "wins a trick that holds points with its lowest sure winner (or, if the trick is "
           "worth risk, with its highest winner); otherwise throws its cheapest card, "
           "keeping tens, the jack, the joker and trumps", GREEDY_PARAMS),
    Policy("pimc", "play", PIMC,
           "perfect-information Monte Carlo: deals the unseen cards at random consistent "
           "with what is known (cards left, voids shown by play), plays each legal card "
           "out with greedy for everyone on each deal, and picks the card with the best "
           "mean of own deal score minus the opponents' mean; cards that clearly trail "
           "stop being played out (race)", (
               Param("samples", 32, 1, 4096, "random deals of the unseen cards per "
                     "decision (each legal card is played out on every one)", integer=True),
               Param("race", 2.0, 0.0, 10.0, "0: play every card out on every sample; z > 0: "
                     "after every 8 samples stop playing out a card that trails the leading "
                     "card by z standard errors of their paired difference"),
           ), playout="greedy"),
)

STRATEGIES = GameStrategies(
    "pitch", ("bid", "play"), POLICIES, default="basic",
    bundles={"basic": "strength+greedy", "expert": "strength+pimc",
             "novice": "random+random", "sheep": "passive+greedy"})


# -- bidding -----------------------------------------------------------------------

@jit
def hold_allowed(o):
    """P3: the dealer may hold if there is a bid below 4."""
    high = o[O.HIGH_BID]
    return o[O.SEAT] == o[O.DEALER] and o[O.DEALER_HOLD] != 0 and 0 < high < 4


@jit
def smallest_bid(o):
    """P2: the smallest bid that beats the highest so far (5: none)."""
    return max(o[O.MIN_BID], o[O.HIGH_BID] + 1)


@jit
def random_bid(o, p, rng):
    if hold_allowed(o) and uniform(rng) < p[1]:
        return np.int64(HOLD)
    lo = smallest_bid(o)
    if lo > 4 or uniform(rng) >= p[0]:
        return np.int64(PASS)
    return lo + below(rng, 5 - lo)


@jit
def strength_bid(o, p):
    n = o[O.PLAYERS]
    seat = o[O.SEAT]
    _, value = best_suit(o[O.HAND], n, T.count(o[O.DECK]), o[O.JOKER], o[O.LOW_CAPTURED])
    top = p[0] * value + p[1]
    dealer = seat == o[O.DEALER]
    if dealer:
        top += p[2]
    for s in range(n):
        if s != seat and o[O.SCORES + s] >= o[O.TARGET] - 2:
            top += p[3]
            break
    most = min(np.int64(np.floor(top)), 4)
    high = o[O.HIGH_BID]
    if hold_allowed(o) and most >= high:
        return np.int64(HOLD)
    lo = smallest_bid(o)
    if most < lo:
        return np.int64(PASS)
    return lo if dealer else most


@jit
def view_bid(o):
    """``VIEW_PID``'s call: a pass, a legal bid or a hold picked by the hash of the whole
    view (its own hand is ``o[HAND]``)."""
    lo = smallest_bid(o)
    bids = max(np.int64(0), 5 - lo)
    hold = np.int64(1) if hold_allowed(o) else np.int64(0)
    k = np.int64(view_hash(o, o[:0]) % np.uint64(1 + bids + hold))
    if k == 0:
        return np.int64(PASS)
    if k <= bids:
        return lo + k - 1
    return np.int64(HOLD)


@jit
def bid(pid, o, p, rng, table):
    """One bidding call: PASS, a bid, or HOLD. ``table``: the solution ``solved`` plays
    (a placeholder where no seat plays it)."""
    if pid == STRENGTH:
        return strength_bid(o, p)
    if pid == SOLVED:
        return solved_bid(o, rng, table, seat_start(table, o[O.SEAT]))
    if pid == RANDOM_BID:
        return random_bid(o, p, rng)
    if pid == VIEW_PID:
        return view_bid(o)
    if pid == ILLEGAL_PID:
        return np.int64(5)
    return np.int64(PASS)


# -- greedy card play --------------------------------------------------------------

@jit
def trick_value(mask, trump):
    """What the cards of a trick are worth to its winner: card points, and 10 each for
    the jack of trumps and the joker."""
    v = C.game_count(mask)
    if trump >= 0 and mask & (np.int64(1) << np.int64(trump * 13 + C.JACK_RANK)):
        v += 10
    if mask & np.int64(T.JOKER_BIT):
        v += 10
    return v


_THROW = np.array([4 * int(C.GAME_POINTS[c % 13]) + c % 13 for c in range(52)] + [300],
                  dtype=np.int64)
"""Card points x 4 + rank; the joker 300 (see ``throw_cost``)."""


@jit
def throw_cost(card, trump):
    """What a card costs to give away (or to spend): its card points, its rank, and a
    premium for trumps, the jack of trumps and the joker."""
    cost = _THROW[card]
    if trump >= 0 and card // 13 == trump:
        cost += 100
        if card % 13 == C.JACK_RANK:
            cost += 100
    return cost


@jit
def cheapest(mask, trump):
    best = np.int64(-1)
    cost = np.int64(1 << 30)
    m = np.int64(mask)
    while m != 0:
        c = T.lowest(m)
        m &= m - 1
        x = throw_cost(c, trump)
        if x < cost:
            cost = x
            best = c
    return best


@jit
def first_lead(hand, n, deck, joker_game, low_captured):
    """The pitcher's first card, which names trump (P6): its best suit; the top card if
    it is a queen or better, else the lowest (the joker alone names spades)."""
    suit, _ = best_suit(hand, n, T.count(deck), joker_game, low_captured)
    cards = hand & T.suit_cards(suit)
    if cards == 0:
        return np.int64(52)
    top = T.highest(cards)
    if top % 13 >= 10:
        return top
    return T.lowest(cards)


# greedy_lead, greedy_follow, greedy_card, _decided and sim.tricks.draw_card are
# inlined (numba IR): pimc's playouts call them for every card of every sample, and
# the calls cost more than their bodies (benchmarks/README.md has the measurement).
@jit(inline=True)
def greedy_lead(hand, trump, played, deck, is_pitcher, pull):
    unseen = deck & ~played & ~hand
    tr = T.trump_cards(trump)
    mine = hand & tr
    theirs = unseen & tr
    if mine != 0 and theirs != 0:
        top = T.highest_trump(mine, trump)
        if T.beating(theirs, top, trump, trump) == 0:
            return top                                   # a sure winner draws trumps
        if is_pitcher and pull == 1:
            return cheapest(mine, trump)                 # draw trumps cheaply
        if is_pitcher and pull == 2:
            return top
    if theirs == 0:
        # No trump is out: a side card that no unseen card of its suit beats wins.
        side = hand & ~tr
        best = np.int64(-1)
        while side != 0:
            c = T.lowest(side)
            side &= side - 1
            if unseen & T.suit_cards(c // 13) & -(np.int64(2) << np.int64(c)) == 0:
                best = c
        if best >= 0:
            return best
    return cheapest(hand, trump)


@jit(inline=True)
def greedy_follow(hand, legal, trump, led, best, trick, n_after, played, deck, risk):
    win = T.beating(legal, best, led, trump)
    if win != 0:
        unseen = deck & ~played & ~hand
        value = trick_value(trick, trump)
        if n_after == 0:
            safe = win
        else:
            safe = np.int64(0)
            m = win
            while m != 0:
                c = T.lowest(m)
                m &= m - 1
                if T.beating(unseen, c, led, trump) == 0:
                    safe |= np.int64(1) << c
        if safe != 0:
            c = T.weakest(safe, led, trump)
            if value > 0 or (c != 52 and c // 13 != trump):
                return c
        if value >= risk and value > 0:
            return T.strongest(win, led, trump)
    return cheapest(legal, trump)


@jit(inline=True)
def greedy_card(hand, legal, trump, led, best, trick, n_after, is_pitcher, played, deck, n,
                joker_game, low_captured, risk, pull):
    """greedy's card from scalars: ``trick`` is the mask of the trick's cards so far,
    ``best`` the card winning it (-1 when leading), ``n_after`` the players still to
    play to it, ``played`` every card played in the deal."""
    if T.count(legal) == 1:
        return T.lowest(legal)
    if led < 0:
        if trump < 0:
            return first_lead(hand, n, deck, joker_game, low_captured)
        return greedy_lead(hand, trump, played, deck, is_pitcher, pull)
    return greedy_follow(hand, legal, trump, led, best, trick, n_after, played, deck, risk)


@jit
def greedy_obs(o, risk, pull):
    k = o[O.TRICK_N]
    return greedy_card(o[O.HAND], o[O.LEGAL], o[O.TRUMP], o[O.LED], o[O.WINNING],
                       T.trick_so_far(o, O.TRICKS), o[O.PLAYERS] - 1 - k, o[O.SEAT] == o[O.PITCHER],
                       o[O.PLAYED], o[O.DECK], o[O.PLAYERS], o[O.JOKER], o[O.LOW_CAPTURED],
                       risk, pull)


# -- pimc --------------------------------------------------------------------------

# Layout of the ``work`` scratch (int64) used by pimc.
W_CAND = 0                       # candidate cards
W_TOTAL = W_CAND + 8             # summed utility per candidate
W_HANDS = W_TOTAL + 8            # a sampled deal: every seat's unplayed cards
W_DEALT = W_HANDS + O.MAX_PLAYERS  # ... and the hands as dealt
W_PLAY = W_DEALT + O.MAX_PLAYERS   # hands during a playout
W_WON = W_PLAY + O.MAX_PLAYERS     # cards won during a playout
W_OWNERS = W_WON + O.MAX_PLAYERS   # the deal's points (core.N_POINTS)
W_POINTS = W_OWNERS + 8
W_DELTA = W_POINTS + O.MAX_PLAYERS
W_ORDER = W_DELTA + O.MAX_PLAYERS  # seats in the order they are dealt to
W_ALLOWED = W_ORDER + O.MAX_PLAYERS  # cards each seat may hold (no shown void)
W_ROOM = W_ALLOWED + O.MAX_PLAYERS   # ... how many more than it holds
W_ALIVE = W_ROOM + O.MAX_PLAYERS     # 1 while a candidate is still played out
W_U = W_ALIVE + 8                    # each candidate's result on the current sample
W_S1 = W_U + 8                       # 8 x 8: sums of paired differences u_i - u_j
W_S2 = W_S1 + 64                     # ... and of their squares
WORK_SIZE = W_S2 + 64


@jit
def _sample_plan(o, work):
    """What every sample of this decision shares: the cards each other seat may hold
    (not a suit it has shown it lacks) and the order seats are dealt to, most
    constrained first (fewest spare cards; ties in seat order). Returns how many seats."""
    n = o[O.PLAYERS]
    me = o[O.SEAT]
    trump = o[O.TRUMP]
    pool = o[O.DECK] & ~o[O.PLAYED] & ~o[O.HAND]
    k = 0
    for s in range(n):
        if s == me:
            continue
        allowed = pool
        if o[O.VOIDS + s] != 0:
            allowed = pool & ~T.void_cards(o[O.VOIDS + s], trump)
        work[W_ALLOWED + s] = allowed
        room = T.count(allowed) - o[O.LEFT + s]
        work[W_ROOM + s] = room
        j = k                                   # insertion by room, fewest first
        while j > 0 and work[W_ROOM + work[W_ORDER + j - 1]] > room:
            work[W_ORDER + j] = work[W_ORDER + j - 1]
            j -= 1
        work[W_ORDER + j] = s
        k += 1
    return k


@jit
def _sample(o, rng, work, k):
    """Deal the cards unseen by the asking seat to the other seats, uniformly at random
    among those each may hold, in the order of ``_sample_plan``. Returns False if that
    fails (the caller retries or relaxes)."""
    pool = o[O.DECK] & ~o[O.PLAYED] & ~o[O.HAND]
    work[W_HANDS + o[O.SEAT]] = o[O.HAND]
    for i in range(k):
        s = work[W_ORDER + i]
        allowed = work[W_ALLOWED + s] & pool
        need = o[O.LEFT + s]
        if T.count(allowed) < need:
            return False
        hand = np.int64(0)
        for _ in range(need):
            c = T.draw_card(rng, allowed)
            b = np.int64(1) << c
            hand |= b
            allowed &= ~b
        pool &= ~hand
        work[W_HANDS + s] = hand
    return True


@jit
def _sample_relaxed(o, rng, work):
    """Fallback when voids cannot be honoured (never expected): ignore them."""
    n = o[O.PLAYERS]
    me = o[O.SEAT]
    pool = o[O.DECK] & ~o[O.PLAYED] & ~o[O.HAND]
    work[W_HANDS + me] = o[O.HAND]
    for s in range(n):
        if s == me:
            continue
        hand = np.int64(0)
        for _ in range(o[O.LEFT + s]):
            c = T.draw_card(rng, pool)
            b = np.int64(1) << c
            hand |= b
            pool &= ~b
        work[W_HANDS + s] = hand


@jit(inline=True)
def _decided(work, n, trump, unplayed, jack_joker, low_captured):
    """After a trick of a playout: can the rest of the deal still change who scores?
    No, once the jack and the joker in play are won, the low trump too when low goes to
    whoever wins it, and the game leader is ahead by more than the card points left.
    Then scoring the won cards now gives the deal's final points exactly."""
    if jack_joker & unplayed:
        return False
    if low_captured:
        low = T.lowest(work[W_DEALT] & T.suit_cards(trump))
        for s in range(1, n):
            c = T.lowest(work[W_DEALT + s] & T.suit_cards(trump))
            if c >= 0 and (low < 0 or c < low):
                low = c
        if low >= 0 and unplayed & (np.int64(1) << low):
            return False
    first = np.int64(-1)
    second = np.int64(-1)
    for s in range(n):
        g = C.game_count(work[W_WON + s])
        if g > first:
            second = first
            first = g
        elif g > second:
            second = g
    return first > second + C.game_count(unplayed)


@jit
def _playout(o, work, first):
    """Play the deal out from the current position on the sampled hands in ``work``:
    the asking seat plays ``first``, then greedy plays every card. Returns the asking
    seat's utility: (players - 1) x its deal score minus the others' deal scores."""
    n = o[O.PLAYERS]
    me = o[O.SEAT]
    pitcher = o[O.PITCHER]
    deck = o[O.DECK]
    joker_game = o[O.JOKER]
    low_captured = o[O.LOW_CAPTURED]
    for s in range(n):
        work[W_PLAY + s] = work[W_HANDS + s]
        work[W_WON + s] = o[O.WON_BY + s]
    trump = o[O.TRUMP]
    leader = o[O.LEADER]
    trick_no = o[O.TRICK]
    k = o[O.TRICK_N]
    played = o[O.PLAYED]
    led = o[O.LED]
    best = o[O.WINNING]
    trick = np.int64(0)
    best_pos = 0
    for i in range(k):
        c = o[O.TRICK_CARDS + i]
        trick |= np.int64(1) << c
        if c == best:
            best_pos = i
    # the jack of trumps and the joker, where they are in play (trump may not be known yet)
    jack_joker = np.int64(-1)
    card = first
    while True:
        seat = leader + k
        if seat >= n:
            seat -= n
        if card < 0:
            hand = work[W_PLAY + seat]
            card = greedy_card(hand, C.legal(hand, led, trump), trump, led, best, trick,
                               n - 1 - k, seat == pitcher, played, deck, n, joker_game,
                               low_captured, GREEDY_RISK, GREEDY_PULL)
        b = np.int64(1) << card
        work[W_PLAY + seat] &= ~b
        played |= b
        trick |= b
        if k == 0:
            if trump < 0:
                trump = C.trump_of_lead(card)
            if jack_joker < 0:
                in_play = np.int64(0)
                for s in range(n):
                    in_play |= work[W_DEALT + s]
                jack_joker = in_play & ((np.int64(1) << (trump * 13 + C.JACK_RANK))
                                        | np.int64(T.JOKER_BIT))
            led = T.effective_suit(card, trump)
            best = card
            best_pos = 0
        elif T.power(card, led, trump, False) > T.power(best, led, trump, False):
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
            if trick_no == 6:
                break
            unplayed = np.int64(0)
            for s in range(n):
                unplayed |= work[W_PLAY + s]
            if _decided(work, n, trump, unplayed, jack_joker, low_captured):
                break
            leader = winner
            k = 0
            trick = np.int64(0)
            led = -1
            best = -1
    C.score_deal(work, W_DEALT, work, W_WON, n, trump, low_captured, o[O.TIE_PITCHER],
                 pitcher, work, W_OWNERS)
    C.settle(work, W_OWNERS, n, pitcher, o[O.CONTRACT], work, W_POINTS, W_DELTA)
    u = (n - 1) * work[W_DELTA + me]
    for s in range(n):
        if s != me:
            u -= work[W_DELTA + s]
    return u


@jit
def _candidates(o, work):
    """The legal cards worth trying, into ``work[W_CAND..]``; returns how many. Of two
    pointless cards (2..9; not trumps when low is captured) of one suit with no unseen
    card between them, only the lower is tried: they play the same (as the first lead
    too: either names the same trump)."""
    legal = o[O.LEGAL]
    trump = o[O.TRUMP]
    unseen = o[O.DECK] & ~o[O.PLAYED] & ~o[O.HAND]
    k = 0
    prev = np.int64(-1)
    m = legal
    while m != 0:
        c = T.lowest(m)
        m &= m - 1
        plain = (c != 52 and c % 13 <= 7 and not (
            o[O.LOW_CAPTURED] != 0 and (trump < 0 or c // 13 == trump)))
        if plain and prev >= 0 and prev // 13 == c // 13:
            between = unseen & ((np.int64(1) << c) - (np.int64(2) << prev))
            if between == 0:
                prev = c
                continue
        prev = c if plain else np.int64(-1)
        work[W_CAND + k] = c
        k += 1
    return k


@jit
def _race(work, k, t, z):
    """After ``t`` samples: stop playing out every candidate whose paired difference
    from the leader (the best total so far) is below zero with confidence: its mean
    plus ``z`` standard errors is still negative. Returns how many remain."""
    lead = -1
    for i in range(k):
        if work[W_ALIVE + i] and (lead < 0 or work[W_TOTAL + i] > work[W_TOTAL + lead]):
            lead = i
    alive = 0
    for i in range(k):
        if not work[W_ALIVE + i]:
            continue
        if i != lead:
            s1 = work[W_S1 + 8 * i + lead]
            s2 = work[W_S2 + 8 * i + lead]
            mean = s1 / t
            var = (s2 - s1 * mean) / (t - 1)
            if mean + z * np.sqrt(max(var, 0.0) / t) < 0.0:
                work[W_ALIVE + i] = 0
                continue
        alive += 1
    return alive


@jit
def pimc_card(o, p, rng, work):
    n = o[O.PLAYERS]
    k = _candidates(o, work)
    if k == 1:
        return work[W_CAND]
    for i in range(k):
        work[W_TOTAL + i] = 0
        work[W_ALIVE + i] = 1
        for j in range(k):
            work[W_S1 + 8 * i + j] = 0
            work[W_S2 + 8 * i + j] = 0
    samples = np.int64(p[0])
    z = p[1]
    seats = _sample_plan(o, work)
    for t in range(1, samples + 1):
        ok = False
        for _try in range(8):
            if _sample(o, rng, work, seats):
                ok = True
                break
        if not ok:
            _sample_relaxed(o, rng, work)
        for s in range(n):
            work[W_DEALT + s] = work[W_HANDS + s] | o[O.PLAYED_BY + s]
        for i in range(k):
            if work[W_ALIVE + i]:
                u = _playout(o, work, work[W_CAND + i])
                work[W_U + i] = u
                work[W_TOTAL + i] += u
        if z > 0.0:
            for i in range(k):
                if work[W_ALIVE + i]:
                    for j in range(k):
                        if work[W_ALIVE + j]:
                            d = work[W_U + i] - work[W_U + j]
                            work[W_S1 + 8 * i + j] += d
                            work[W_S2 + 8 * i + j] += d * d
            if t % 8 == 0 and t < samples and _race(work, k, t, z) == 1:
                break
    best = -1
    for i in range(k):
        if work[W_ALIVE + i] and (best < 0 or work[W_TOTAL + i] > work[W_TOTAL + best]):
            best = i
    return work[W_CAND + best]


# -- dispatch ------------------------------------------------------------------------

@jit
def play(pid, o, p, rng, work):
    """One card from ``o[LEGAL]``."""
    if pid == GREEDY:
        return greedy_obs(o, np.int64(p[0]), np.int64(p[1]))
    if pid == PIMC:
        return pimc_card(o, p, rng, work)
    return T.random_card(rng, o[O.LEGAL])
