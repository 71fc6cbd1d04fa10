"""Bid-EV rollouts for pitch: play the rest of a game from a bidding situation.

Rollout ``r`` is game ``r`` of the match loop (``kernel.play_game``) started in the
middle: at the situation's deal, dealt by its dealer, with its scores; the asking
seat's hand is fixed (``fixed``) and the other seats get six cards each of the cards
it does not hold, by the kernel's own deal (stream 0 of ``(seed, r)``): nothing about
other hands is public during the bidding, so every such deal is equally likely. The
bids already made are replayed, the candidate call is made, the policies make the
remaining calls and play the deal and every later deal until the game ends.

Every candidate plays rollout ``r`` from the same random streams ``(seed, r, stream)``:
the same hidden cards, the same later deals and the same policy streams (common random
numbers). Not conditioned on: what the earlier bids suggest about the bidders' hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.games.pitch import kernel as K
from sim.games.pitch.rules import MAX_PLAYERS, R_PLAYERS


@njit(cache=True, _nrt=False)
def _setup(si, n, scores0, forced, n_before, call):
    """The game state before the candidate call: the scores before the deal, the bids
    already made and the candidate call as the deal's first forced calls."""
    for s in range(n):
        si[K.I_SCORES + s] = scores0[s]
    for k in range(n_before):
        si[K.I_FORCED + k] = forced[k]
    si[K.I_FORCED + n_before] = call


@njit(cache=True, parallel=True)
def rollouts(seed, count, n_blocks, R, bid_pids, bid_params, play_pids, play_params, seat,
             fixed, first_deal, dealer, scores0, forced, n_before, calls, score, win, err):
    """Rollouts ``0 .. count - 1`` of every candidate call in ``calls`` (``PASS``, a bid
    or ``HOLD``): the asking seat's final score ``score[r, c]`` and win share
    ``win[r, c]``. ``forced[:n_before]`` are the calls made before its turn (speaking
    order from the seat after ``dealer``); ``scores0`` the scores before the deal
    ``first_deal``; ``fixed`` (rows up to ``first_deal``) deals the asking seat's hand.
    A rollout that hits an illegal action writes its error row to ``err[r]``."""
    n = R[R_PLAYERS]
    n_params = max(bid_params.shape[1], play_params.shape[1])
    for b in prange(n_blocks):
        o, p, rng, rngs, work, si = K.new_scratch(n_params)
        seat_out = np.zeros((1, MAX_PLAYERS, K.SEAT_COLS), dtype=np.int32)
        win1 = np.zeros((1, MAX_PLAYERS), dtype=np.float64)
        game_out = np.zeros((1, K.GAME_COLS), dtype=np.int32)
        deal_out = np.zeros((0, K.DEAL_COLS), dtype=np.int32)
        deal_seat = np.zeros((0, MAX_PLAYERS, 2), dtype=np.int32)
        doff = np.zeros(2, dtype=np.int64)
        err1 = np.zeros((1, K.ERR_SIZE), dtype=np.int64)
        no_log = np.empty((0, 1), dtype=np.int64)
        for r in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            for c in range(calls.shape[0]):
                _setup(si, n, scores0, forced, n_before, calls[c])
                K.play_game(seed, r, R, bid_pids, bid_params, play_pids, play_params, 0,
                            fixed, first_deal, dealer, n_before + 1, o, p, rng, rngs, work,
                            si, seat_out, win1, game_out, False, doff, deal_out, deal_seat,
                            err1, no_log, no_log, no_log, no_log)
                if err1[0, K.ERR_CODE] != K.OK:
                    for j in range(K.ERR_SIZE):
                        err[r, j] = err1[0, j]
                    break
                score[r, c] = seat_out[0, seat, K.S_SCORE]
                win[r, c] = win1[0, seat]

