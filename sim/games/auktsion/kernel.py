"""The auktsion match loop (rules A1-A15), compiled with numba.

``play_chunk`` plays matches ``[start, start + count)`` into preallocated arrays; it is
the only entry point the runner uses. ``play_match`` plays one match and, when asked,
logs every call and every deal's cards for the trace.

This module imports the policy dispatcher from ``strategies.auktsion``: the one place
where ``sim`` reaches into ``strategies``, because numba must inline the policies into
the match loop (see ``sim/__init__.py`` for the cache key that keeps this honest).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.games.auktsion import obs as O
from sim.games.auktsion.rules import (R_CARRY, R_DEALS, R_FIRST_DEALER, R_FIRST_RANK,
                                      R_MIN_BID, R_MIN_RAISE, R_PLAYERS, R_SEALED,
                                      R_START_MONEY, R_SUIT_POINTS)
from sim.rng import DEAL_STREAM, seed_stream, shuffle
from strategies.auktsion import ASK, PASS, ceiling, decide

# Error codes written to ``err[m, ERR_CODE]``.
OK, ILLEGAL_BID, TRACE_OVERFLOW = 0, 1, 2
ERR_CODE, ERR_SEAT, ERR_BID, ERR_LO, ERR_HI, ERR_DEAL, ERR_LOT = range(7)
ERR_SIZE = 7


@njit(cache=True, _nrt=False)
def _fail(err, m, code, seat, bid, lo, hi, deal, lot):
    err[m, ERR_CODE] = code
    err[m, ERR_SEAT] = seat
    err[m, ERR_BID] = bid
    err[m, ERR_LO] = lo
    err[m, ERR_HI] = hi
    err[m, ERR_DEAL] = deal
    err[m, ERR_LOT] = lot


@njit(cache=True, _nrt=False)
def _deal(R, rng, deck, value, points, log_decks, d):
    """Shuffle, deal and value the hands: value[s, r] = points of seat s's rank-r cards."""
    n = R[R_PLAYERS]
    first_rank = R[R_FIRST_RANK]
    size = 0
    for suit in range(4):
        for rank in range(first_rank, 13):
            deck[size] = suit * 13 + rank
            size += 1
    cards = deck[:size]
    shuffle(rng, cards)
    if log_decks.shape[0] > 0:
        for k in range(size):
            log_decks[d, k] = cards[k]
    per = size // n
    value[:, :] = 0
    for s in range(n):
        points[s] = 0
        for k in range(s * per, (s + 1) * per):
            c = cards[k]
            v = R[R_SUIT_POINTS + c // 13]
            value[s, c % 13] += v
            points[s] += v


@njit(cache=True, _nrt=False)
def _show(o, p, rng, value, params, rngs, s):
    """Prepare seat ``s``'s question: its seat number and own hand into the observation,
    its parameters and random state into scratch vectors (no array views in the hot
    loop: each view costs two atomic reference-count updates)."""
    o[O.SEAT] = s
    for r in range(13):
        o[O.OWN_VALUE + r] = value[s, r]
    for j in range(params.shape[1]):
        p[j] = params[s, j]
    for j in range(4):
        rng[j] = rngs[1 + s, j]


@njit(cache=True, _nrt=False)
def _keep_rng(rng, rngs, s):
    for j in range(4):
        rngs[1 + s, j] = rng[j]


@njit(cache=True, _nrt=False)
def _ask_ceiling(pid, o, p, rng, value, params, rngs, s):
    _show(o, p, rng, value, params, rngs, s)
    c = ceiling(pid, o, p, rng)
    _keep_rng(rng, rngs, s)
    return c


@njit(cache=True, _nrt=False)
def _ask_call(pid, o, p, rng, value, params, rngs, s):
    _show(o, p, rng, value, params, rngs, s)
    c = decide(pid, o, p, rng)
    _keep_rng(rng, rngs, s)
    return c


@njit(cache=True, _nrt=False)
def _open_lot(R, pids, params, rngs, o, p, rng, value, money, caps, lot, starter, m, d, err,
              log_calls, cursor):
    """Open ascending calls (A7-A11). Returns (buyer or -1, price, calls, cursor)."""
    n = R[R_PLAYERS]
    min_bid = R[R_MIN_BID]
    min_raise = R[R_MIN_RAISE]
    for s in range(n):
        caps[s] = _ask_ceiling(pids[s], o, p, rng, value, params, rngs, s)
    tracing = log_calls.shape[0] > 0
    price = 0
    high = -1
    passes = 0
    calls = 0
    s = starter
    while True:
        lo = min_bid if high < 0 else max(min_bid, price + min_raise)
        if caps[s] != ASK:
            bid = lo if lo <= caps[s] and lo <= money[s] else PASS
        else:
            o[O.PRICE] = price
            o[O.HIGH_BIDDER] = high
            o[O.CALLS] = calls
            o[O.PASSES] = passes
            bid = _ask_call(pids[s], o, p, rng, value, params, rngs, s)
            if bid != PASS and (bid < lo or bid > money[s]):
                _fail(err, m, ILLEGAL_BID, s, bid, lo, money[s], d, lot)
                return -1, 0, calls, cursor
        if tracing:
            if cursor >= log_calls.shape[0]:
                _fail(err, m, TRACE_OVERFLOW, s, bid, lo, money[s], d, lot)
                return -1, 0, calls, cursor
            log_calls[cursor, 0] = s
            log_calls[cursor, 1] = bid
            cursor += 1
        calls += 1
        if bid == PASS:
            passes += 1
            if high < 0 and passes == n:       # A11: nobody bid
                return -1, 0, calls, cursor
            if high >= 0 and passes == n - 1:  # A10: sold to the last bidder
                return high, price, calls, cursor
        else:
            price = bid
            high = s
            passes = 0
        s = (s + 1) % n


@njit(cache=True, _nrt=False)
def _sealed_lot(R, pids, params, rngs, o, p, rng, value, money, lot, starter, m, d, err,
                log_calls, cursor):
    """One sealed bid or none per seat; highest wins, ties to the earliest seat from
    the starter; no bid at all leaves the lot unsold."""
    n = R[R_PLAYERS]
    min_bid = R[R_MIN_BID]
    tracing = log_calls.shape[0] > 0
    buyer = -1
    price = 0
    for k in range(n):
        s = (starter + k) % n
        bid = _ask_call(pids[s], o, p, rng, value, params, rngs, s)
        if bid != PASS and (bid < min_bid or bid > money[s]):
            _fail(err, m, ILLEGAL_BID, s, bid, min_bid, money[s], d, lot)
            return -1, 0, k, cursor
        if tracing:
            if cursor >= log_calls.shape[0]:
                _fail(err, m, TRACE_OVERFLOW, s, bid, min_bid, money[s], d, lot)
                return -1, 0, k, cursor
            log_calls[cursor, 0] = s
            log_calls[cursor, 1] = bid
            cursor += 1
        if bid != PASS and bid > price:
            buyer = s
            price = bid
    return buyer, price, n, cursor


@njit(cache=True, _nrt=False)
def _start_match(R, leftover, o, n):
    o[:] = 0.0
    o[O.PLAYERS] = n
    o[O.DEALS] = R[R_DEALS]
    o[O.FIRST_RANK] = R[R_FIRST_RANK]
    o[O.SEALED] = R[R_SEALED]
    o[O.MIN_BID] = R[R_MIN_BID]
    o[O.MIN_RAISE] = R[R_MIN_RAISE]
    o[O.START_MONEY] = R[R_START_MONEY]
    o[O.CARRY_MONEY] = R[R_CARRY]
    o[O.LEFTOVER_VALUE] = leftover
    deck_points = 0
    for suit in range(4):
        deck_points += (13 - R[R_FIRST_RANK]) * R[R_SUIT_POINTS + suit]
    o[O.DECK_POINTS] = deck_points


@njit(cache=True, _nrt=False)
def play_match(seed, index, R, leftover, pids, params, m, scratch_i, value, o, p, rng, rngs,
               score, win, spent, money_end, points, bought,
               detail, deal_money, deal_hand, deal_score, deal_spent,
               lot_starter, lot_buyer, lot_price, lot_value, lot_calls,
               err, log_calls, log_decks):
    """Play match ``index`` into row ``m`` of the output arrays.

    ``scratch_i`` is int64[SCRATCH_ROWS, 52]; ``value`` int64[4, 13]; ``o`` float64[O.SIZE];
    ``p`` float64[params.shape[1]]; ``rng`` uint64[4]; ``rngs`` uint64[5, 4].
    ``detail`` fills the per-deal and per-lot arrays; non-empty ``log_calls`` /
    ``log_decks`` record every call (seat, bid or PASS) and every deal's cards.
    """
    deck = scratch_i[0]
    hand_points, money, caps = scratch_i[1], scratch_i[2], scratch_i[3]
    match_points, deal_points = scratch_i[4], scratch_i[5]
    n = R[R_PLAYERS]
    for k in range(n + 1):
        seed_stream(rngs[k], seed, index, DEAL_STREAM + k)
    _start_match(R, leftover, o, n)
    money[:n] = 0
    match_points[:n] = 0
    spent[m, :n] = 0
    bought[m, :n] = 0
    cursor = 0
    first_rank = R[R_FIRST_RANK]
    for d in range(R[R_DEALS]):
        dealer = (R[R_FIRST_DEALER] + d) % n                      # A4
        _deal(R, rngs[DEAL_STREAM], deck, value, hand_points, log_decks, d)  # A1, A2
        for s in range(n):
            if R[R_CARRY] == 0:                                   # A14
                money[s] = 0
            money[s] += max(0, R[R_START_MONEY] - hand_points[s])  # A3
            deal_points[s] = 0
            if detail:
                deal_money[m, d, s] = money[s]
                deal_hand[m, d, s] = hand_points[s]
                deal_spent[m, d, s] = 0
            o[O.MATCH_POINTS + s] = match_points[s]
            o[O.DEAL_POINTS + s] = 0
        o[O.DEAL] = d
        o[O.DEALER] = dealer
        for r in range(13):
            o[O.LOT_STATUS + r] = O.LOT_TO_COME
            o[O.LOT_BUYER + r] = -1
            o[O.LOT_PRICE + r] = 0
            o[O.LOT_FACE_UP + r] = 0
        last_buyer = dealer                                       # A6
        for lot in range(first_rank, 13):                         # A5
            starter = (last_buyer + 1) % n
            o[O.LOT] = lot
            o[O.STARTER] = starter
            o[O.PRICE] = 0
            o[O.HIGH_BIDDER] = -1
            o[O.CALLS] = 0
            o[O.PASSES] = 0
            o[O.LOT_STATUS + lot] = O.LOT_OPEN
            for t in range(n):
                o[O.MONEY + t] = money[t]
            if R[R_SEALED]:
                buyer, price, calls, cursor = _sealed_lot(
                    R, pids, params, rngs, o, p, rng, value, money, lot, starter, m, d, err,
                    log_calls, cursor)
            else:
                buyer, price, calls, cursor = _open_lot(
                    R, pids, params, rngs, o, p, rng, value, money, caps, lot, starter, m, d,
                    err, log_calls, cursor)
            if err[m, ERR_CODE] != OK:
                return cursor
            if buyer >= 0:                                        # A12
                money[buyer] -= price
                spent[m, buyer] += price
                bought[m, buyer] += 1
                deal_points[buyer] += value[buyer, lot]           # A13
                last_buyer = buyer
                if detail:
                    deal_spent[m, d, buyer] += price
                o[O.LOT_STATUS + lot] = O.LOT_SOLD
                o[O.LOT_BUYER + lot] = buyer
                o[O.LOT_PRICE + lot] = price
                o[O.LOT_FACE_UP + lot] = value[buyer, lot]
                o[O.DEAL_POINTS + buyer] = deal_points[buyer]
            else:
                o[O.LOT_STATUS + lot] = O.LOT_UNSOLD
            if detail:
                lot_starter[m, d, lot] = starter
                lot_buyer[m, d, lot] = buyer
                lot_price[m, d, lot] = price if buyer >= 0 else -1
                lot_value[m, d, lot] = value[buyer, lot] if buyer >= 0 else -1
                lot_calls[m, d, lot] = calls
        for s in range(n):
            match_points[s] += deal_points[s]
            if detail:
                deal_score[m, d, s] = deal_points[s]
    best = -1e300
    for s in range(n):                                            # A14, A15
        money_end[m, s] = money[s]
        points[m, s] = match_points[s]
        score[m, s] = match_points[s] + leftover * money[s]
        best = max(best, score[m, s])
    tied = 0
    for s in range(n):
        if score[m, s] == best:
            tied += 1
    for s in range(n):
        win[m, s] = 1.0 / tied if score[m, s] == best else 0.0
    return cursor


SCRATCH_ROWS = 6


@njit(cache=True)
def new_scratch(n_params):
    """Per-thread scratch for ``play_match``."""
    return (np.empty((SCRATCH_ROWS, 52), dtype=np.int64),
            np.empty((O.MAX_PLAYERS, 13), dtype=np.int64),
            np.empty(O.SIZE, dtype=np.float64),
            np.empty(max(1, n_params), dtype=np.float64),
            np.empty(4, dtype=np.uint64),
            np.empty((O.MAX_PLAYERS + 1, 4), dtype=np.uint64))


@njit(cache=True, parallel=True)
def play_chunk(seed, start, count, n_blocks, R, leftover, pids, params, detail,
               score, win, spent, money_end, points, bought,
               deal_money, deal_hand, deal_score, deal_spent,
               lot_starter, lot_buyer, lot_price, lot_value, lot_calls, err):
    """Play matches ``start .. start + count - 1`` into rows ``0 .. count - 1``.

    Matches are split into ``n_blocks`` blocks over numba's threads; each block
    allocates its scratch once. A match's result depends only on (seed, index), never
    on the block. (``numba.get_num_threads()`` is read by the caller: called in here it
    makes the kernel uncacheable.)
    """
    no_calls = np.empty((0, 2), dtype=np.int64)
    no_decks = np.empty((0, 52), dtype=np.int64)
    for b in prange(n_blocks):
        scratch_i, value, o, p, rng, rngs = new_scratch(params.shape[1])
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            play_match(seed, start + m, R, leftover, pids, params, m,
                       scratch_i, value, o, p, rng, rngs,
                       score, win, spent, money_end, points, bought,
                       detail, deal_money, deal_hand, deal_score, deal_spent,
                       lot_starter, lot_buyer, lot_price, lot_value, lot_calls,
                       err, no_calls, no_decks)
