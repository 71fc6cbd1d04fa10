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

from typing import Any

import numpy as np

from sim import harness as H
from sim.game import Rollouts
from sim.games.pitch import kernel as K
from sim.games.pitch.engine import _check_policies, explain
from sim.games.pitch.obs import NOT_YET
from sim.games.pitch.rules import MAX_PLAYERS, R_PLAYERS, pack
from sim.games.pitch.situation import action_name, candidates, parse
from sim.games.pitch.trace import mask_cards
from sim.jit import jit, prange
from sim.rules import Rules


@jit(parallel=True)
def rollouts(seed, count, n_blocks, R, bid_pids, bid_params, table, play_pids, play_params, seat,
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
        err1 = np.zeros((1, H.ERR_SIZE), dtype=np.int64)
        no_log = np.empty((0, 1), dtype=np.int64)
        for r in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            for c in range(calls.shape[0]):
                H.start_deal(si, K.I_SCORES, scores0, n, K.I_FORCED, forced, n_before, calls[c])
                K.play_game(seed, r, R, bid_pids, bid_params, table, play_pids, play_params, 0,
                            fixed, first_deal, dealer, n_before + 1, o, p, rng, rngs, work,
                            si, seat_out, win1, game_out, False, doff, deal_out, deal_seat,
                            err1, no_log, no_log, no_log, no_log)
                if err1[0, H.ERR_CODE] != H.OK:
                    for j in range(H.ERR_SIZE):
                        err[r, j] = err1[0, j]
                    break
                score[r, c] = seat_out[0, seat, K.S_SCORE]
                win[r, c] = win1[0, seat]


def prepare(rules: Rules, values: dict[str, Any], given: list[str] | None):
    """The situation ``values``, its candidate calls, the hands it fixes (yours, on its
    deal) and the calls already made, as the rollout kernel reads them."""
    s = parse(rules, values)
    calls = np.array(candidates(rules, s, given), np.int64)
    fixed = np.full((s.deal + 1, rules.players), -1, np.int64)
    fixed[s.deal, s.seat] = sum(1 << c for c in s.hand)
    forced = np.zeros(max(1, len(s.bids)), np.int64)
    forced[:len(s.bids)] = s.bids
    return s, calls, fixed, forced


def policy_arrays(policies):
    """(bid ids, bid parameters, the solution table, play ids, play parameters)."""
    bid_ids, bid_params, play_ids, play_params = H.policy_arrays(policies, ("bid", "play"))
    return bid_ids, bid_params, H.solution_table(policies), play_ids, play_params


def run_rollouts(rules: Rules, policies, labels: tuple[str, ...], values: dict[str, Any],
                 given: list[str] | None, seed: int, n: int,
                 progress: bool | None = None):
    """``Game.rollouts`` for pitch: every candidate call in the situation ``values``,
    played out ``n`` times."""
    _check_policies(policies, rules.players)
    s, calls, fixed, forced = prepare(rules, values, given)
    score = np.zeros((n, len(calls)))
    win = np.zeros((n, len(calls)))
    err = H.new_errors(n)
    rollouts(np.uint64(seed), n, H.blocks(n), pack(rules),
             *policy_arrays(policies), s.seat, fixed, s.deal, s.dealer,
             np.array(s.scores, np.int64), forced, len(s.bids), calls, score, win, err)
    H.check(err, 0, explain, labels)
    return Rollouts([action_name(int(c)) for c in calls], score, win, s.to_json(rules.players))


def play_rollout(rules: Rules, policies, labels: tuple[str, ...], values: dict[str, Any],
                 action: str, seed: int, index: int) -> dict[str, Any]:
    """Rollout ``index`` of one candidate ``action``, recorded: the same game that
    :func:`run_rollouts` plays for it. Returns ``hands`` (per deal played, each seat's
    cards as dealt), ``bids`` (per deal, the calls in speaking order: 0 pass, -1 hold),
    ``score`` and ``win`` of the asking seat, ``deals`` (the deal number the game
    ended after, counting from 1)."""
    _check_policies(policies, rules.players)
    s, calls, fixed, forced = prepare(rules, values, [action])
    n = rules.players
    R = pack(rules)
    arrays = policy_arrays(policies)
    o, p, rng, rngs, work, si = K.new_scratch(max(arrays[1].shape[1], arrays[4].shape[1]))

    def play(rows: int | None):
        rows = rows or 0
        seat_out = np.zeros((1, n, K.SEAT_COLS), np.int32)
        win = np.zeros((1, n))
        game_out = np.zeros((1, K.GAME_COLS), np.int32)
        err = H.new_errors(1)
        logs = dict(hands=np.zeros((rows, n), np.int64),
                    bids=np.full((rows, n), NOT_YET, np.int64),
                    cards=np.full((rows, 6 * n), -1, np.int64),
                    tricks=np.full((rows, 6), -1, np.int64))
        if rows == 0:
            logs = {k: np.empty((0, 1), np.int64) for k in logs}
        H.start_deal(si, K.I_SCORES, np.array(s.scores, np.int64), n, K.I_FORCED, forced,
                     len(s.bids), calls[0])
        K.play_game(np.uint64(seed), index, R, *arrays, 0, fixed, s.deal, s.dealer,
                    len(s.bids) + 1, o, p, rng, rngs, work, si, seat_out, win, game_out,
                    False, np.zeros(2, np.int64), np.zeros((0, K.DEAL_COLS), np.int32),
                    np.zeros((0, n, 2), np.int32), err, logs["hands"], logs["bids"],
                    logs["cards"], logs["tricks"])
        H.check(err, index, explain, labels)
        return seat_out, win, game_out, logs

    seat_out, win, game_out, logs = H.record_twice(play, lambda first: int(first[2][0, K.G_DEALS]))
    deals = int(game_out[0, K.G_DEALS])
    return {"hands": [[mask_cards(logs["hands"][d, t]) for t in range(n)]
                      for d in range(s.deal, deals)],
            "bids": [logs["bids"][d].tolist() for d in range(s.deal, deals)],
            "score": int(seat_out[0, s.seat, K.S_SCORE]), "win": float(win[0, s.seat]),
            "deals": deals}
