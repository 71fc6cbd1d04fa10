"""The pitch match loop (rules P1-P17), compiled with numba.

``play_chunk`` plays games ``[start, start + count)`` into preallocated arrays; it is
the only entry point the runner uses. ``play_match`` plays one game (deals until
someone reaches the target, or ``max_deals``) and, when asked, fills a per-deal table
and logs every bid and card for the trace. Both go through ``play_game``, the one match
loop, which bid-EV rollouts (``rollout.py``) also start in the middle of a game: at a
given deal, dealer and scores, with the calls made so far forced.

This module imports the policy dispatchers of ``strategies.pitch``: the one place
where ``sim`` reaches into ``strategies``, because numba must inline the policies into
the match loop (see ``sim/__init__.py`` for the cache key that keeps this honest).

Cards: stream 0 of the game deals; each deal draws ``6 x players`` cards by a partial
Fisher-Yates shuffle of a fresh deck, so deal ``d`` of game ``i`` is the same whatever
the policies do (common random numbers). Seat ``s`` gets cards ``6s .. 6s+5`` of the
draw. ``fixed`` (tests, bid-EV analyses) replaces chosen hands of one game:
``fixed[d, s]`` is a card mask for seat ``s`` in deal ``d``, or -1 to deal that seat at
random from the cards left; rows past ``fixed.shape[0]`` are dealt normally (a deal
with chosen hands draws fewer cards from stream 0, so later deals are other cards than
``(seed, i)`` deals unless they are chosen too). ``play_chunk`` takes one such table
per game (``deals=`` of ``engine.run_chunk``); ``deal_games`` gives the deals of
``(seed, i)`` in that layout.
"""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim import tricks as T
from sim.games.pitch import core as C
from sim.games.pitch import obs as O
from sim.games.pitch.rules import (
    HAND,
    MAX_PLAYERS,
    R_DEALER_HOLD,
    R_FIRST_DEALER,
    R_JOKER,
    R_LOW_CAPTURED,
    R_MAX_DEALS,
    R_MIN_BID,
    R_PLAYERS,
    R_SMUDGE,
    R_STUCK,
    R_TARGET,
    R_TIE_PITCHER,
)
from sim.harness import ERR_CODE, ILLEGAL, OK, TRACE_OVERFLOW, fail, show_rules
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, seed_stream

# A module import, resolved by numba when it compiles: importing ``strategies.pitch``
# first (it imports this package) then works too, and no name is needed before then.
from strategies import pitch as SP  # noqa: E402

PASS, HOLD = O.PASS, O.HOLD

# Error records (``sim/harness.py``). ILLEGAL: a bid that is not a pass, not a hold
# allowed at ``hi`` (-1: no hold allowed) and not ``lo..4``. ILLEGAL_CARD: card
# ``value`` not in the legal set ``lo`` (a mask) at trick ``step``; ``hi`` is the trump.
ILLEGAL_CARD = 3

# Columns of ``seat_out`` (int32, games x seats x SEAT_COLS).
S_SCORE, S_POINTS, S_SETS = 0, 1, 2
S_PITCHED = 3          # 4 columns: contracts of 1..4 this seat played as pitcher
S_MADE = S_PITCHED + 4  # 4 columns: ... and made
SEAT_COLS = S_MADE + 4
# Columns of ``game_out`` (int32, games x GAME_COLS).
G_DEALS, G_WINNER, G_REDEALS = 0, 1, 2
GAME_COLS = 3
# Columns of ``deal_out`` (int32, deal rows x DEAL_COLS); per seat ``deal_seat``
# (int32, deal rows x seats x 2: the deal's score, the score after it).
D_DEALER, D_PITCHER, D_CONTRACT, D_MADE, D_HOLD, D_STUCK, D_TRUMP = range(7)
D_OWNERS = 7           # 5 columns: owners of high, low, jack, joker, game (-1 nobody)
DEAL_COLS = D_OWNERS + C.N_POINTS
DS_SCORE, DS_AFTER = 0, 1

# Layout of the kernel's own int64 scratch ``si``.
I_HANDS = 0
I_DEALT = I_HANDS + MAX_PLAYERS
I_WON = I_DEALT + MAX_PLAYERS
I_SCORES = I_WON + MAX_PLAYERS
I_POINTS = I_SCORES + MAX_PLAYERS
I_DELTA = I_POINTS + MAX_PLAYERS
I_OWNERS = I_DELTA + MAX_PLAYERS
I_TRICK = I_OWNERS + 8
I_DECK = I_TRICK + 8
I_FORCED = I_DECK + 56      # calls forced on the first deal played (bid-EV), speaking order
I_SIZE = I_FORCED + MAX_PLAYERS


@jit
def _deal(R, rng, si, fixed, d):
    """P1: six cards each into ``si[I_HANDS + s]`` (masks) and ``si[I_DEALT + s]``."""
    H.deal_hands(rng, si, fixed, d, R[R_PLAYERS], 52 + R[R_JOKER], HAND, I_DECK, I_HANDS,
                 I_DEALT)


RULES_SHOWN = np.array([(O.PLAYERS, R_PLAYERS), (O.JOKER, R_JOKER), (O.MIN_BID, R_MIN_BID),
                        (O.DEALER_HOLD, R_DEALER_HOLD), (O.STUCK_DEALER, R_STUCK),
                        (O.LOW_CAPTURED, R_LOW_CAPTURED), (O.TIE_PITCHER, R_TIE_PITCHER),
                        (O.SMUDGE, R_SMUDGE), (O.TARGET, R_TARGET)], np.int64)
"""(observation offset, packed rule index) of the rule values every policy sees."""


@jit
def _start_game(R, o):
    for i in range(o.shape[0]):
        o[i] = 0
    show_rules(o, R, RULES_SHOWN)
    o[O.DECK] = np.int64(T.DECK52) | (np.int64(T.JOKER_BIT) if R[R_JOKER] else np.int64(0))


@jit
def _start_deal(o, n, d, dealer, si):
    o[O.DEAL] = d
    o[O.DEALER] = dealer
    o[O.PHASE] = O.BIDDING
    o[O.HIGH_BID] = 0
    o[O.HIGH_BIDDER] = -1
    o[O.PITCHER] = -1
    o[O.CONTRACT] = 0
    o[O.TRUMP] = -1
    o[O.LEGAL] = 0
    T.clear_tricks(o, O.TRICKS, n, HAND)
    for s in range(n):
        o[O.BIDS + s] = O.NOT_YET
        o[O.SCORES + s] = si[I_SCORES + s]
        si[I_WON + s] = 0


@jit
def _ask_bid(pid, o, p, rng, si, params, table, rngs, s):
    H.show_seat(o, p, rng, params, rngs, s, si[I_HANDS + s], O.SEAT, O.HAND)
    b = SP.bid(pid, o, p, rng, table)
    H.keep_seat_rng(o, rng, rngs, s, O.HAND, O.LEGAL)
    return b


@jit
def _ask_card(pid, o, p, rng, work, si, params, rngs, s, legal):
    H.show_seat(o, p, rng, params, rngs, s, si[I_HANDS + s], O.SEAT, O.HAND)
    o[O.LEGAL] = legal
    c = SP.play(pid, o, p, rng, work)
    H.keep_seat_rng(o, rng, rngs, s, O.HAND, O.LEGAL)
    return c


@jit
def _bidding(R, o, p, rng, work, si, bid_pids, bid_params, table, rngs, m, d, dealer, err,
             log_bids, n_forced):
    """P2-P5. Returns (pitcher or -1 for a redeal, contract, held, stuck). The first
    ``n_forced`` calls (speaking order) are ``si[I_FORCED + k]`` instead of the
    policies' (bid-EV: the bids already made, then the candidate call)."""
    n = R[R_PLAYERS]
    min_bid = R[R_MIN_BID]
    high = 0
    bidder = -1
    held = False
    for k in range(n):
        s = (dealer + 1 + k) % n
        if k < n_forced:
            b = si[I_FORCED + k]
        else:
            b = _ask_bid(bid_pids[s], o, p, rng, si, bid_params, table, rngs, s)
        hold_ok = s == dealer and R[R_DEALER_HOLD] != 0 and 0 < high < 4
        ok = b == PASS or (b == HOLD and hold_ok) or (min_bid <= b <= 4 and b > high)
        if not ok:
            fail(err, m, ILLEGAL, s, d, k, b, max(min_bid, high + 1), high if hold_ok else -1)
            return -1, 0, False, False
        if log_bids.shape[0] > 0:
            log_bids[d, k] = b
        o[O.BIDS + s] = b
        if b == HOLD:
            bidder = dealer
            held = True
            o[O.HIGH_BIDDER] = dealer
        elif b != PASS:
            high = b
            bidder = s
            o[O.HIGH_BID] = b
            o[O.HIGH_BIDDER] = s
    if bidder >= 0:
        return bidder, high, held, False
    if R[R_STUCK]:
        return dealer, min_bid, False, True
    return -1, 0, False, False


@jit
def _tricks(R, o, p, rng, work, si, play_pids, play_params, rngs, m, d, pitcher, err,
            log_cards, log_tricks):
    """P6-P8: six tricks, the pitcher leading the first. Returns the trump suit, or -1
    after an illegal card."""
    n = R[R_PLAYERS]
    logging = log_cards.shape[0] > 0
    leader = pitcher
    trump = np.int64(-1)
    o[O.PHASE] = O.PLAYING
    for t in range(HAND):
        T.open_trick(o, O.TRICKS, t, leader)
        for k in range(n):
            s = (leader + k) % n
            legal = C.legal(si[I_HANDS + s], o[O.LED], trump)
            if T.count(legal) == 1:
                c = T.lowest(legal)
            else:
                c = _ask_card(play_pids[s], o, p, rng, work, si, play_params, rngs, s, legal)
                if c < 0 or c > 52 or not legal & (np.int64(1) << c):
                    fail(err, m, ILLEGAL_CARD, s, d, t, c, legal, trump)
                    return np.int64(-1)
            if trump < 0:
                trump = C.trump_of_lead(c)                                   # P6
                o[O.TRUMP] = trump
            T.play_card(o, O.TRICKS, si, I_HANDS, k, s, c, trump, T.FOLLOW_OR_TRUMP, False)  # P7, P8
            if logging:
                log_cards[d, t * n + k] = c
        leader, taken = T.close_trick(o, O.TRICKS, n)
        si[I_WON + leader] |= taken
        if logging:
            log_tricks[d, t] = leader
    return trump


@jit
def play_match(seed, index, R, bid_pids, bid_params, table, play_pids, play_params, m, fixed,
               o, p, rng, rngs, work, si,
               seat_out, win, game_out, detail, doff, deal_out, deal_seat,
               err, log_hands, log_bids, log_cards, log_tricks):
    """Play game ``index`` into row ``m`` of the output arrays.

    Scratch: ``o`` int64[O.SIZE]; ``p`` float64[max parameter count]; ``rng``
    uint64[4]; ``rngs`` uint64[MAX_PLAYERS + 1, 4]; ``work`` int64[WORK_SIZE] (the play
    policies' own scratch); ``si`` int64[I_SIZE]. With ``detail`` deal ``d`` of the
    game fills row ``doff[m] + d`` of ``deal_out``/``deal_seat`` while that is below
    ``doff[m + 1]``. Non-empty ``log_*`` arrays (one row per deal) record the hands as
    dealt (masks), the calls in speaking order, the cards in play order and the trick
    winners.
    """
    for s in range(R[R_PLAYERS]):
        si[I_SCORES + s] = 0
    play_game(seed, index, R, bid_pids, bid_params, table, play_pids, play_params, m, fixed,
              0, R[R_FIRST_DEALER], 0, o, p, rng, rngs, work, si, seat_out, win, game_out,
              detail, doff, deal_out, deal_seat, err, log_hands, log_bids, log_cards,
              log_tricks)


@jit
def play_game(seed, index, R, bid_pids, bid_params, table, play_pids, play_params, m, fixed,
              first_deal, first_dealer, n_forced, o, p, rng, rngs, work, si,
              seat_out, win, game_out, detail, doff, deal_out, deal_seat,
              err, log_hands, log_bids, log_cards, log_tricks):
    """The one match loop: play game ``index`` from deal ``first_deal`` on (dealt by
    ``first_dealer``, then the next seat and so on) until it ends, into row ``m``.

    ``play_match`` starts it at deal 0 with every score 0. Bid-EV rollouts start it in
    the middle of a game: the caller writes the scores before ``first_deal`` into
    ``si[I_SCORES + s]`` and the first ``n_forced`` calls of that deal (speaking order)
    into ``si[I_FORCED + k]``; ``fixed`` deals the asking seat's hand. Deal ``d`` reads
    the random streams ``(seed, index, stream)`` as a full game does, so rollout
    ``index`` gives every candidate the same cards and policy streams.
    """
    n = R[R_PLAYERS]
    for k in range(n + 1):
        seed_stream(rngs[k], seed, index, DEAL_STREAM + k)
    _start_game(R, o)
    for s in range(n):
        win[m, s] = 0.0
        for j in range(SEAT_COLS):
            seat_out[m, s, j] = 0
    winner = -1
    redeals = 0
    deals = 0
    for d in range(first_deal, R[R_MAX_DEALS]):
        deals = d + 1
        dealer = (first_dealer + d - first_deal) % n                     # P1
        _deal(R, rngs[DEAL_STREAM], si, fixed, d)
        if log_hands.shape[0] > 0:
            if d >= log_hands.shape[0]:
                fail(err, m, TRACE_OVERFLOW, 0, d, 0, 0, 0, 0)
                return
            for s in range(n):
                log_hands[d, s] = si[I_DEALT + s]
        _start_deal(o, n, d, dealer, si)
        pitcher, contract, held, stuck = _bidding(R, o, p, rng, work, si, bid_pids,
                                                  bid_params, table, rngs, m, d, dealer, err,
                                                  log_bids, n_forced if d == first_deal else 0)
        if err[m, ERR_CODE] != OK:
            return
        row = doff[m] + d
        record = detail and row < doff[m + 1]
        if record:
            deal_out[row, D_DEALER] = dealer
            deal_out[row, D_PITCHER] = pitcher
            deal_out[row, D_CONTRACT] = contract
            deal_out[row, D_HOLD] = 1 if held else 0
            deal_out[row, D_STUCK] = 1 if stuck else 0
        if pitcher < 0:                                                  # P5: redeal
            redeals += 1
            if record:
                deal_out[row, D_MADE] = -1
                deal_out[row, D_TRUMP] = -1
                for i in range(C.N_POINTS):
                    deal_out[row, D_OWNERS + i] = -1
                for s in range(n):
                    deal_seat[row, s, DS_SCORE] = 0
                    deal_seat[row, s, DS_AFTER] = si[I_SCORES + s]
            continue
        o[O.PITCHER] = pitcher
        o[O.CONTRACT] = contract
        trump = _tricks(R, o, p, rng, work, si, play_pids, play_params, rngs, m, d, pitcher,
                        err, log_cards, log_tricks)
        if err[m, ERR_CODE] != OK:
            return
        C.score_deal(si, I_DEALT, si, I_WON, n, trump, R[R_LOW_CAPTURED],
                     R[R_TIE_PITCHER], pitcher, si, I_OWNERS)                # P9-P13
        made = C.settle(si, I_OWNERS, n, pitcher, contract, si, I_POINTS, I_DELTA)  # P14
        winner = C.game_winner(si, I_SCORES, si, I_DELTA, si, I_OWNERS, n, pitcher,
                               contract, made, R[R_TARGET], R[R_SMUDGE])      # P15-P17
        seat_out[m, pitcher, S_PITCHED + contract - 1] += 1
        if made:
            seat_out[m, pitcher, S_MADE + contract - 1] += 1
        else:
            seat_out[m, pitcher, S_SETS] += 1
        for s in range(n):
            si[I_SCORES + s] += si[I_DELTA + s]
            seat_out[m, s, S_POINTS] += si[I_POINTS + s]
        if record:
            deal_out[row, D_MADE] = 1 if made else 0
            deal_out[row, D_TRUMP] = trump
            for i in range(C.N_POINTS):
                deal_out[row, D_OWNERS + i] = si[I_OWNERS + i]
            for s in range(n):
                deal_seat[row, s, DS_SCORE] = si[I_DELTA + s]
                deal_seat[row, s, DS_AFTER] = si[I_SCORES + s]
        if winner >= 0:                                                  # P16
            break
    for s in range(n):
        seat_out[m, s, S_SCORE] = si[I_SCORES + s]
        if winner >= 0:
            win[m, s] = 1.0 if s == winner else 0.0
        else:
            win[m, s] = 1.0 / n                       # a draw at max_deals: shared
    game_out[m, G_DEALS] = deals
    game_out[m, G_WINNER] = winner
    game_out[m, G_REDEALS] = redeals


@jit(nrt=True)
def new_scratch(n_params):
    """Per-thread scratch for ``play_match``: (o, p, rng, rngs, work, si)."""
    return H.new_scratch(O.SIZE, n_params, MAX_PLAYERS, SP.WORK_SIZE, I_SIZE)


@jit(nrt=True)
def deal_games(seed, start, R, out):
    """The hands of games ``start ..`` as ``(seed, i)`` deals them, whatever is played:
    ``out[m, d, s]`` (int64 ``games x deals x seats``) the card mask of seat ``s`` in
    deal ``d`` of game ``start + m``, for the first ``out.shape[1]`` deals."""
    rng = np.zeros(4, dtype=np.uint64)
    si = np.zeros(I_SIZE, dtype=np.int64)
    none = np.empty((0, 1), dtype=np.int64)
    for m in range(out.shape[0]):
        seed_stream(rng, seed, start + m, DEAL_STREAM)
        for d in range(out.shape[1]):
            _deal(R, rng, si, none, d)
            for s in range(out.shape[2]):
                out[m, d, s] = si[I_HANDS + s]


@jit
def deal_for_solver(R, rng, si, o, empty):
    """Deal six cards each from ``rng`` into ``si`` (P1) and start the game's
    observation: the deals ``bidlab solve`` plays its bidding over. ``empty``: an int64
    array of shape (0, 1)."""
    _deal(R, rng, si, empty, 0)
    _start_game(R, o)


@jit
def points_if_pitching(R, o, p, rng, work, si, play_pids, play_params, rngs, err, dealer,
                       pitcher, points, owners, empty):
    """The points (P9-P13) each seat wins in the deal of ``deal_for_solver`` when
    ``pitcher`` pitches and every seat plays its play policy, into ``points[s]``, and who
    won each point into ``owners`` (``core.N_POINTS``, -1 where none): the solver's
    payoffs (the play does not depend on the contract, only on the pitcher). Returns
    False after an illegal card (``err`` says which)."""
    n = R[R_PLAYERS]
    for s in range(n):
        si[I_HANDS + s] = si[I_DEALT + s]
        si[I_SCORES + s] = 0
    _start_deal(o, n, 0, dealer, si)
    o[O.PITCHER] = pitcher
    o[O.CONTRACT] = 1
    trump = _tricks(R, o, p, rng, work, si, play_pids, play_params, rngs, 0, 0, pitcher, err,
                    empty, empty)
    if trump < 0:
        return False
    C.score_deal(si, I_DEALT, si, I_WON, n, trump, R[R_LOW_CAPTURED], R[R_TIE_PITCHER],
                 pitcher, si, I_OWNERS)
    for s in range(n):
        points[s] = 0
    for i in range(C.N_POINTS):
        owners[i] = si[I_OWNERS + i]
        if owners[i] >= 0:
            points[owners[i]] += 1
    return True


@jit(parallel=True)
def play_chunk(seed, start, count, n_blocks, R, bid_pids, bid_params, table, play_pids, play_params,
               fixed, seat_out, win, game_out, detail, doff, deal_out, deal_seat, err):
    """Play games ``start .. start + count - 1`` into rows ``0 .. count - 1``.

    ``fixed``: chosen hands per game, ``fixed[m]`` game ``start + m``'s table (see the
    module's docstring); one empty table (shape ``1 x 0 x 1``): every game dealt.
    Games are split into ``n_blocks`` blocks over numba's threads; each block allocates
    its scratch once. A game's result depends only on (seed, index), never on the
    block. (``numba.get_num_threads()`` is read by the caller: called in here it makes
    the kernel uncacheable.)
    """
    no_log = np.empty((0, 1), dtype=np.int64)
    n_params = max(bid_params.shape[1], play_params.shape[1])
    for b in prange(n_blocks):
        o, p, rng, rngs, work, si = new_scratch(n_params)
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            play_match(seed, start + m, R, bid_pids, bid_params, table, play_pids, play_params, m,
                       fixed[min(m, fixed.shape[0] - 1)], o, p, rng, rngs, work, si,
                       seat_out, win, game_out, detail, doff, deal_out, deal_seat, err,
                       no_log, no_log, no_log, no_log)
