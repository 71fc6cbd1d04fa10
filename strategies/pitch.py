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
from sim.games.pitch.rules import HAND
from sim.jit import jit
from sim.rng import below, uniform
from strategies import pimc
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
    pimc.policy(PIMC, "perfect-information Monte Carlo: deals the unseen cards at random "
                "consistent with what is known (cards left, voids shown by play), plays "
                "each legal card out with greedy for everyone on each deal, and picks the "
                "card with the best mean of own deal score minus the opponents' mean; cards "
                "that clearly trail stop being played out (race)",
                Param("race", 2.0, 0.0, 10.0, "0: play every card out on every sample; "
                      "z > 0: after every 8 samples stop playing out a card that trails the "
                      "leading card by z standard errors of their paired difference")),
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
    """The card of ``mask`` that costs least to give away (ties: the lowest card)."""
    return T.first_lowest(mask, throw_cost, trump)


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


# greedy_lead, greedy_follow, greedy_card, pimc's hooks and sim.tricks.draw_card are
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
# The search is strategies/pimc.py's; pitch gives it the hooks below: the playout is
# greedy's (its defaults), what a deal is worth is the deal's score, and a deal can be
# settled before its last trick (``_decided``).

# pitch's entries of the ``work`` scratch, after the search's.
W_DEALT = pimc.WORK_SIZE            # the sampled deal's hands as dealt
W_OWNERS = W_DEALT + O.MAX_PLAYERS  # the deal's points (core.N_POINTS)
W_POINTS = W_OWNERS + 8
W_DELTA = W_POINTS + O.MAX_PLAYERS
WORK_SIZE = W_DELTA + O.MAX_PLAYERS


@jit(inline=True)
def _plain(o, card):
    """A card without points (2..9; not a trump when low goes to its captor)."""
    trump = o[O.TRUMP]
    return card != 52 and card % 13 <= 7 and not (
        o[O.LOW_CAPTURED] != 0 and (trump < 0 or card // 13 == trump))


@jit(inline=True)
def _alike(o, a, b):
    """Two pointless cards play the same (as the first lead too: either names the same
    trump)."""
    return _plain(o, a) and _plain(o, b)


@jit(inline=True)
def _dealt(o, p, work):
    """The hands as dealt (sampled and played cards), which scoring reads; every deal
    weighs the same."""
    for s in range(o[O.PLAYERS]):
        work[W_DEALT + s] = work[pimc.W_HANDS + s] | o[O.PLAYED_BY + s]
    return np.int64(1)


@jit(inline=True)
def _greedy(context, seat, hand, legal, trump, led, best, trick, k, winning, played):
    """greedy's card, at its defaults."""
    pitcher, deck, n, joker_game, low_captured = context
    return greedy_card(hand, legal, trump, led, best, trick, n - 1 - k, seat == pitcher,
                       played, deck, n, joker_game, low_captured, GREEDY_RISK, GREEDY_PULL)


@jit(inline=True)
def _named(card, trump):
    """P6: the first lead of the deal names trump."""
    return trump if trump >= 0 else C.trump_of_lead(card)


@jit(inline=True)
def _decided(o, work, context, trump, tricks_done):
    """After a trick of a playout: can the rest of the deal still change who scores?
    No, once the jack of trumps and the joker are won, the low trump too when low goes
    to whoever wins it, and the game leader is ahead by more than the card points left.
    Then scoring the won cards now gives the deal's final points exactly. A playout
    that joins a trick under way first asks after its own first lead, as it always
    has (so every playout stops where it did)."""
    if o[O.TRICK_N] != 0 and tricks_done == o[O.TRICK] + 1:
        return False
    _, _, n, _, low_captured = context
    unplayed = np.int64(0)                           # the cards still held
    for s in range(n):
        unplayed |= work[pimc.W_PLAY + s]
    jack_joker = (np.int64(1) << (trump * 13 + C.JACK_RANK)) | np.int64(T.JOKER_BIT)
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
        g = C.game_count(work[pimc.W_WON + s])
        if g > first:
            second = first
            first = g
        elif g > second:
            second = g
    return first > second + C.game_count(unplayed)


@jit(inline=True)
def _score(o, work, context, trump):
    """The asking seat's utility: (players - 1) x its deal score minus the others'."""
    pitcher, _, n, _, low_captured = context
    me = o[O.SEAT]
    C.score_deal(work, W_DEALT, work, pimc.W_WON, n, trump, low_captured, o[O.TIE_PITCHER],
                 pitcher, work, W_OWNERS)
    C.settle(work, W_OWNERS, n, pitcher, o[O.CONTRACT], work, W_POINTS, W_DELTA)
    u = (n - 1) * work[W_DELTA + me]
    for s in range(n):
        if s != me:
            u -= work[W_DELTA + s]
    return u


@jit
def _playout(o, work, first):
    """The sampled deal played out with greedy for everyone, the asking seat's
    ``first`` card first; its utility (``_score``)."""
    context = (o[O.PITCHER], o[O.DECK], o[O.PLAYERS], o[O.JOKER], o[O.LOW_CAPTURED])
    return pimc.playout(o, O.TRICKS, work, first, o[O.PLAYERS], HAND, o[O.TRUMP],
                        T.FOLLOW_OR_TRUMP, False, context, _greedy, _named, _decided, _score)


@jit
def pimc_card(o, p, rng, work):
    """pimc's card: ``p`` = (samples, race z); a deal that cannot honour the voids
    shown falls back to dealing the seats in seat order."""
    return pimc.search(o, O.TRICKS, p, rng, work, o[O.SEAT], o[O.HAND], o[O.LEGAL],
                       o[O.DECK], o[O.PLAYERS], o[O.TRUMP], p[1], pimc.W_SEATS, _alike,
                       _dealt, _playout)


# -- dispatch ------------------------------------------------------------------------

@jit
def play(pid, o, p, rng, work):
    """One card from ``o[LEGAL]``."""
    if pid == GREEDY:
        return greedy_obs(o, np.int64(p[0]), np.int64(p[1]))
    if pid == PIMC:
        return pimc_card(o, p, rng, work)
    return T.random_card(rng, o[O.LEGAL])
