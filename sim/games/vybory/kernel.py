"""The vybory match loop (rules V1-V13), compiled with numba.

``play_chunk`` plays tours ``[start, start + count)`` into preallocated arrays; it is the
only entry point the runner uses. ``play_match`` plays one tour and, when asked, fills
the per-deal tables and logs every announcement and card for the trace. Both go through
``play_tour``, the one match loop, which bid-EV rollouts (``rollout.py``) also start in
the middle of a tour: at a given deal, dealer and scores, with the announcements made so
far forced.

This module imports the policy dispatchers of ``strategies.vybory``: the one place
where ``sim`` reaches into ``strategies``, because numba must inline the policies into
the match loop (see ``sim/__init__.py`` for the cache key that keeps this honest).

Cards: stream 0 of the tour deals; each deal shuffles a fresh deck (a partial
Fisher-Yates of the cards not given), so deal ``d`` of tour ``i`` is the same whatever
the policies do (common random numbers). ``fixed`` replaces chosen hands: ``fixed[d, s]``
is a card mask for seat ``s`` in deal ``d``, or -1 to deal that seat at random from the
cards left; rows past ``fixed.shape[0]`` are dealt at random.
"""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim import tricks as T
from sim.games.vybory import core as C
from sim.games.vybory import obs as O
from sim.games.vybory.rules import (
    HAND,
    MAX_CALLS,
    N_TYPES,
    PLAYERS,
    R_ALT,
    R_DEALS,
    R_FIRST_DEALER,
    R_RESULT,
    TRICKS,
)
from sim.harness import ERR_CODE, ILLEGAL, OK, fail, show_rules
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, seed_stream

# A module import, resolved by numba when it compiles: importing ``strategies.vybory``
# first (it imports this package) then works too, and no name is needed before then.
from strategies import vybory as SV  # noqa: E402

ALL_TYPES = ((1 << (N_TYPES + 1)) - 1) & ~1
"""Types 1..8 as a bit set (bit ``t`` for type ``t``)."""

# Error records (``sim/harness.py``). ILLEGAL: announcement ``value`` at call ``step``
# is not a type the seat may name; ``lo`` is the bit set of those it may name (V2).
# ILLEGAL_CARD: card ``value`` not in the legal set ``lo`` (a mask) at trick ``step``;
# ``hi`` is the suit led (-1: the card leads).
ILLEGAL_CARD = 3

# Columns of ``seat_out`` (int32, tours x seats x SEAT_COLS).
(S_SCORE, S_POINTS, S_TRICKS, S_ATTACKS, S_ATTACK_WINS, S_FIRSTS, S_DEAL_WINS,
 S_DEAL_DRAWS) = range(8)
S_NAMED = 8            # 8 columns: announcements of types 1..8
SEAT_COLS = S_NAMED + N_TYPES
# Columns of ``deal_out`` (int32, deal rows x DEAL_COLS).
(D_DEALER, D_CONTRACT, D_FIRST, D_SECOND, D_CALLS, D_ATTACK_TRICKS, D_ATTACK_POINTS,
 D_DEFEND_POINTS, D_RESULT) = range(9)
DEAL_COLS = 9
# Columns of ``deal_seat`` (int32, deal rows x seats x DS_COLS): the types named in
# rounds 1..3 (0: none), tricks won, the pair's contract points, the score added, the
# score after the deal.
DS_NAMED = 0
DS_TRICKS, DS_POINTS, DS_SCORE, DS_AFTER = 3, 4, 5, 6
DS_COLS = 7

# Layout of the kernel's own int64 scratch ``si``.
I_HANDS = 0                  # unplayed cards per seat
I_DEALT = I_HANDS + PLAYERS  # the hands as dealt
I_WON = I_DEALT + PLAYERS    # cards won per seat
I_TRICKS = I_WON + PLAYERS   # tricks won per seat
I_SCORES = I_TRICKS + PLAYERS
I_DELTA = I_SCORES + PLAYERS  # the deal's score per seat
I_DECK = I_DELTA + PLAYERS   # 52: the cards to shuffle
I_FORCED = I_DECK + 52       # announcements forced on the first deal played (bid-EV)
I_SIZE = I_FORCED + MAX_CALLS


@jit
def deal(rng, si, fixed, d):
    """V1: 13 cards each into ``si[I_HANDS + s]`` and ``si[I_DEALT + s]`` (masks); the
    hands of ``fixed[d]`` where given."""
    H.deal_hands(rng, si, fixed, d, PLAYERS, 52, HAND, I_DECK, I_HANDS, I_DEALT)


@jit(nrt=True)
def deal_tours(seed, start, n_deals, out):
    """The hands of every deal of tours ``start ..`` as the match loop deals them:
    ``out[m, d, s]`` masks (``engine.dealt``)."""
    si = np.zeros(I_SIZE, np.int64)
    rng = np.zeros(4, np.uint64)
    no_fixed = np.empty((0, PLAYERS), np.int64)
    for m in range(out.shape[0]):
        seed_stream(rng, seed, start + m, DEAL_STREAM)
        for d in range(n_deals):
            deal(rng, si, no_fixed, d)
            for s in range(PLAYERS):
                out[m, d, s] = si[I_DEALT + s]


RULES_SHOWN = np.array([(O.ALT, R_ALT), (O.RESULT, R_RESULT), (O.DEALS, R_DEALS)], np.int64)
"""(observation offset, packed rule index) of the rule values every policy sees."""


@jit
def _start_deal(o, d, dealer, si):
    o[O.DEAL] = d
    o[O.DEALER] = dealer
    o[O.PHASE] = O.ELECTING
    o[O.N_CALLS] = 0
    o[O.CONTRACT] = O.NONE
    o[O.FIRST] = -1
    o[O.SECOND] = -1
    o[O.TRUMP] = -1
    o[O.LOW_WINS] = 0
    o[O.LEGAL] = 0
    T.clear_tricks(o, O.TRICKS, PLAYERS, HAND)
    for k in range(MAX_CALLS):
        o[O.CALLS + k] = O.NONE
    for s in range(PLAYERS):
        o[O.NAMED + s] = 0
        o[O.SCORES + s] = si[I_SCORES + s]
        o[O.TRICKS_BY + s] = 0
        si[I_WON + s] = 0
        si[I_TRICKS + s] = 0


@jit
def _election(o, p, rng, si, elect_pids, elect_params, table, rngs, m, d, dealer, err,
              log_calls, n_forced):
    """V2-V5. Returns (contract type, first announcer, his partner, calls made); type 0
    after an illegal announcement. The first ``n_forced`` announcements are
    ``si[I_FORCED + k]`` instead of the policies' (bid-EV)."""
    for k in range(MAX_CALLS):
        s = (dealer + 1 + k) % PLAYERS
        if k < n_forced:
            t = si[I_FORCED + k]
        else:
            H.show_seat(o, p, rng, elect_params, rngs, s, si[I_HANDS + s], O.SEAT, O.HAND)
            t = SV.elect(elect_pids[s], o, p, rng, table)
            H.keep_seat_rng(o, rng, rngs, s, O.HAND, O.LEGAL)
        allowed = np.int64(ALL_TYPES) & ~o[O.NAMED + s]
        if t < 1 or t > N_TYPES or not allowed >> t & 1:                  # V2
            fail(err, m, ILLEGAL, s, d, k, t, allowed, 0)
            return np.int64(0), np.int64(-1), np.int64(-1), np.int64(k)
        if log_calls.shape[0] > 0:
            log_calls[d, k] = t
        announce(o, k, s, t)
        for other in range(PLAYERS):                                      # V3, V5
            if other != s and o[O.NAMED + other] >> t & 1:
                return np.int64(t), np.int64(other), np.int64(s), np.int64(k + 1)
    return np.int64(0), np.int64(-1), np.int64(-1), np.int64(MAX_CALLS)  # unreachable (V4)


@jit
def announce(o, k, s, t):
    """Show announcement ``k``, seat ``s`` naming type ``t``, in the observation."""
    o[O.CALLS + k] = t
    o[O.N_CALLS] = k + 1
    o[O.NAMED + s] |= np.int64(1) << t


@jit
def _show_contract(o, alt, code, first, second):
    """The contract the election reached into the observation (V3, V5); returns its
    trump and whether the lowest card wins (V8, V9)."""
    trump = C.TRUMP[alt, code]
    low = C.LOW_WINS[alt, code] != 0
    o[O.CONTRACT] = code
    o[O.FIRST] = first
    o[O.SECOND] = second
    o[O.TRUMP] = trump
    o[O.LOW_WINS] = 1 if low else 0
    return trump, low


@jit
def _tricks(o, p, rng, work, si, play_pids, play_params, rngs, m, d, first, trump, low, err,
            log_cards, log_tricks):
    """V6-V9: thirteen tricks, the seat after the first announcer leading the first.
    Returns False after an illegal card."""
    logging = log_cards.shape[0] > 0
    leader = (first + 1) % PLAYERS                                        # V6
    o[O.PHASE] = O.PLAYING
    for t in range(TRICKS):
        T.open_trick(o, O.TRICKS, t, leader)
        for k in range(PLAYERS):
            s = (leader + k) % PLAYERS
            hand = si[I_HANDS + s]
            legal = T.legal_cards(hand, o[O.LED], trump, T.FOLLOW_SUIT)  # V7
            if T.count(legal) == 1:
                c = T.lowest(legal)
            else:
                H.show_seat(o, p, rng, play_params, rngs, s, hand, O.SEAT, O.HAND)
                o[O.LEGAL] = legal
                c = SV.play(play_pids[s], o, p, rng, work)
                H.keep_seat_rng(o, rng, rngs, s, O.HAND, O.LEGAL)
                if c < 0 or c > 51 or not legal & (np.int64(1) << c):
                    fail(err, m, ILLEGAL_CARD, s, d, t, c, legal, o[O.LED])
                    return False
            T.play_card(o, O.TRICKS, si, I_HANDS, k, s, c, trump, T.FOLLOW_SUIT, low)  # V8, V9
            if logging:
                log_cards[d, t * PLAYERS + k] = c
        leader, taken = T.close_trick(o, O.TRICKS, PLAYERS)
        si[I_WON + leader] |= taken
        si[I_TRICKS + leader] += 1
        o[O.TRICKS_BY + leader] += 1
        if logging:
            log_tricks[d, t] = leader
    return True


@jit
def play_tour(seed, index, R, elect_pids, elect_params, table, play_pids, play_params, m, fixed,
              first_deal, n_deals, first_dealer, n_forced, o, p, rng, rngs, work, si,
              seat_out, win, detail, deal_out, deal_seat, err, log_hands, log_calls,
              log_cards, log_tricks):
    """The one match loop: deals ``first_deal .. first_deal + n_deals - 1`` of tour
    ``index`` (dealt by ``first_dealer``, then the next seat and so on), into row ``m``.

    ``play_match`` plays the whole tour with every score 0. Bid-EV rollouts play one
    deal: the caller writes the scores before it into ``si[I_SCORES + s]`` and the first
    ``n_forced`` announcements into ``si[I_FORCED + k]``; ``fixed`` deals the asking
    seat's hand. Deal ``d`` reads the random streams ``(seed, index, stream)`` as a
    whole tour does. With ``detail`` deal ``d`` fills row ``m * n_deals + d -
    first_deal`` of ``deal_out``/``deal_seat``; non-empty ``log_*`` arrays (one row per
    deal) record the hands as dealt, the announcements, the cards in play order and
    the trick winners.
    """
    alt = R[R_ALT]
    for k in range(PLAYERS + 1):
        seed_stream(rngs[k], seed, index, DEAL_STREAM + k)
    for i in range(o.shape[0]):
        o[i] = 0
    show_rules(o, R, RULES_SHOWN)
    for s in range(PLAYERS):
        win[m, s] = 0.0
        for j in range(SEAT_COLS):
            seat_out[m, s, j] = 0
    for d in range(first_deal + n_deals):
        deal(rngs[DEAL_STREAM], si, fixed, d)
        if d < first_deal:                      # the earlier deals' cards, drawn alike
            continue
        dealer = (first_dealer + d - first_deal) % PLAYERS                # V1
        if log_hands.shape[0] > 0:
            for s in range(PLAYERS):
                log_hands[d, s] = si[I_DEALT + s]
        _start_deal(o, d, dealer, si)
        code, first, second, calls = _election(o, p, rng, si, elect_pids, elect_params,
                                               table, rngs, m, d, dealer, err, log_calls,
                                               n_forced if d == first_deal else 0)
        if err[m, ERR_CODE] != OK:
            return
        trump, low = _show_contract(o, alt, code, first, second)
        if not _tricks(o, p, rng, work, si, play_pids, play_params, rngs, m, d, first,
                       trump, low, err, log_cards, log_tricks):
            return
        won_a = si[I_WON + first] | si[I_WON + second]                   # V10, V11
        tricks_a = si[I_TRICKS + first] + si[I_TRICKS + second]
        pts_a = C.pair_points(won_a, tricks_a, alt, code)
        pts_d = C.pair_points(np.int64(T.DECK52) & ~won_a, TRICKS - tricks_a, alt, code)
        res = C.result(pts_a, pts_d)
        for s in range(PLAYERS):                                          # V12
            attacker = s == first or s == second
            if R[R_RESULT]:
                si[I_DELTA + s] = res if attacker else -res
            else:
                si[I_DELTA + s] = pts_a if attacker else pts_d
            si[I_SCORES + s] += si[I_DELTA + s]
            won_deal = res == 1 if attacker else res == -1
            seat_out[m, s, S_POINTS] += pts_a if attacker else pts_d
            seat_out[m, s, S_TRICKS] += si[I_TRICKS + s]
            seat_out[m, s, S_ATTACKS] += 1 if attacker else 0
            seat_out[m, s, S_ATTACK_WINS] += 1 if attacker and res == 1 else 0
            seat_out[m, s, S_DEAL_WINS] += 1 if won_deal else 0
            seat_out[m, s, S_DEAL_DRAWS] += 1 if res == 0 else 0
        seat_out[m, first, S_FIRSTS] += 1
        for k in range(calls):
            seat_out[m, (dealer + 1 + k) % PLAYERS, S_NAMED + o[O.CALLS + k] - 1] += 1
        if detail:
            row = m * n_deals + d - first_deal
            deal_out[row, D_DEALER] = dealer
            deal_out[row, D_CONTRACT] = code
            deal_out[row, D_FIRST] = first
            deal_out[row, D_SECOND] = second
            deal_out[row, D_CALLS] = calls
            deal_out[row, D_ATTACK_TRICKS] = tricks_a
            deal_out[row, D_ATTACK_POINTS] = pts_a
            deal_out[row, D_DEFEND_POINTS] = pts_d
            deal_out[row, D_RESULT] = res
            for s in range(PLAYERS):
                for r in range(3):
                    deal_seat[row, s, DS_NAMED + r] = 0
                attacker = s == first or s == second
                deal_seat[row, s, DS_TRICKS] = si[I_TRICKS + s]
                deal_seat[row, s, DS_POINTS] = pts_a if attacker else pts_d
                deal_seat[row, s, DS_SCORE] = si[I_DELTA + s]
                deal_seat[row, s, DS_AFTER] = si[I_SCORES + s]
            for k in range(calls):
                deal_seat[row, (dealer + 1 + k) % PLAYERS, DS_NAMED + k // PLAYERS] = \
                    o[O.CALLS + k]
    top = si[I_SCORES]                                                    # V13
    for s in range(1, PLAYERS):
        top = max(top, si[I_SCORES + s])
    tied = 0
    for s in range(PLAYERS):
        seat_out[m, s, S_SCORE] = si[I_SCORES + s]
        if si[I_SCORES + s] == top:
            tied += 1
    for s in range(PLAYERS):
        win[m, s] = 1.0 / tied if si[I_SCORES + s] == top else 0.0


@jit
def play_match(seed, index, R, elect_pids, elect_params, table, play_pids, play_params, m,
               fixed, o, p, rng, rngs, work, si, seat_out, win, detail, deal_out, deal_seat, err,
               log_hands, log_calls, log_cards, log_tricks):
    """Play tour ``index`` into row ``m`` of the output arrays (see ``play_tour``).

    Scratch: ``o`` int64[O.SIZE]; ``p`` float64[max parameter count]; ``rng``
    uint64[4]; ``rngs`` uint64[PLAYERS + 1, 4]; ``work`` int64[SV.WORK_SIZE] (the play
    policies' own scratch); ``si`` int64[I_SIZE].
    """
    for s in range(PLAYERS):
        si[I_SCORES + s] = 0
    play_tour(seed, index, R, elect_pids, elect_params, table, play_pids, play_params, m,
              fixed, 0, R[R_DEALS], R[R_FIRST_DEALER], 0, o, p, rng, rngs, work, si, seat_out,
              win, detail, deal_out, deal_seat, err, log_hands, log_calls, log_cards,
              log_tricks)


@jit
def deal_for_solver(R, rng, si, o, no_fixed):
    """Deal 13 cards each from ``rng`` into ``si`` (V1) and show the rules in the
    observation: the deals ``bidlab solve`` plays its election over. ``no_fixed``: an
    int64 array of shape (0, 4)."""
    deal(rng, si, no_fixed, 0)
    for i in range(o.shape[0]):
        o[i] = 0
    show_rules(o, R, RULES_SHOWN)


@jit
def margin_if_elected(R, o, p, rng, work, si, play_pids, play_params, rngs, err, dealer, code,
                      first, second, no_log):
    """The deal of ``deal_for_solver`` played out (V6-V12) when the election ends with
    ``first`` and ``second`` attacking type ``code`` and every seat plays its play
    policy: the attackers' deal score minus the defenders' (scoring=points: their pair
    points' difference; result: 2, 0 or -2), the solver's payoff. The play reads only the
    contract, the pairs and the first announcer, never the announcements. ``err`` row 0
    records an illegal card (then the result is 0). ``no_log``: an int64 array of shape
    (0, 1)."""
    for s in range(PLAYERS):
        si[I_HANDS + s] = si[I_DEALT + s]
        si[I_SCORES + s] = 0
    _start_deal(o, 0, dealer, si)
    alt = R[R_ALT]
    trump, low = _show_contract(o, alt, code, first, second)
    if not _tricks(o, p, rng, work, si, play_pids, play_params, rngs, 0, 0, first, trump, low,
                   err, no_log, no_log):
        return np.int64(0)
    won_a = si[I_WON + first] | si[I_WON + second]
    tricks_a = si[I_TRICKS + first] + si[I_TRICKS + second]
    pts_a = C.pair_points(won_a, tricks_a, alt, code)
    pts_d = C.pair_points(np.int64(T.DECK52) & ~won_a, TRICKS - tricks_a, alt, code)
    if R[R_RESULT]:
        return 2 * C.result(pts_a, pts_d)
    return pts_a - pts_d


@jit(nrt=True)
def new_scratch(n_params):
    """Per-thread scratch for ``play_match``: (o, p, rng, rngs, work, si)."""
    return H.new_scratch(O.SIZE, n_params, PLAYERS, SV.WORK_SIZE, I_SIZE)


@jit(parallel=True)
def play_chunk(seed, start, count, n_blocks, R, elect_pids, elect_params, table, play_pids,
               play_params, fixed, seat_out, win, detail, deal_out, deal_seat, err):
    """Play tours ``start .. start + count - 1`` into rows ``0 .. count - 1``; ``fixed``
    holds the hands of every tour (``fixed[m]``: deals x seats masks) or none (shape 0).

    Tours are split into ``n_blocks`` blocks over numba's threads; each block allocates
    its scratch once. A tour's result depends only on (seed, index), never on the
    block. (``numba.get_num_threads()`` is read by the caller: called in here it makes
    the kernel uncacheable.)
    """
    no_log = np.empty((0, 1), dtype=np.int64)
    no_fixed = np.empty((0, PLAYERS), dtype=np.int64)
    n_params = max(elect_params.shape[1], play_params.shape[1])
    for b in prange(n_blocks):
        o, p, rng, rngs, work, si = new_scratch(n_params)
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            given = fixed[m] if fixed.shape[0] > 0 else no_fixed
            play_match(seed, start + m, R, elect_pids, elect_params, table, play_pids,
                       play_params, m, given, o, p, rng, rngs, work, si, seat_out, win, detail, deal_out,
                       deal_seat, err, no_log, no_log, no_log, no_log)
