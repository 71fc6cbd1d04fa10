"""Bid-EV rollouts for auktsion: play the rest of a match from a situation.

Rollout ``r`` deals the cards nobody has seen (not in the asking seat's hand, not laid
face up) to the other seats at random, consistently with what is public: a seat that
bought a rank laid all its cards of that rank face up (A12), so it gets no more of
them; inconsistent deals are redrawn (rejection, so every consistent deal is equally
likely). Then the candidate call is made and the policies play the rest of the match.
Every candidate starts rollout ``r`` from the same random streams ``(seed, r,
stream)``: common random numbers.

Not conditioned on: the hand points that money revealed at the start of the first deal
(A3).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from sim.games.auktsion import obs as O
from sim.games.auktsion.kernel import (ERR_CODE, ILLEGAL_BID, OK, _call, _ceiling_calls,
                                       _ceilings, _deal, _fail, _open_calls, _sealed_lot,
                                       _start_match, new_scratch)
from sim.games.auktsion.rules import (R_CARRY, R_DEALS, R_FIRST_DEALER, R_FIRST_RANK,
                                      R_MIN_BID, R_MIN_RAISE, R_PLAYERS, R_SEALED,
                                      R_START_MONEY, R_SUIT_POINTS)
from sim.rng import DEAL_STREAM, below, seed_stream
from strategies.auktsion import ASK, PASS

TOO_CONSTRAINED = 3
MAX_REDRAWS = 100_000


@njit(cache=True, _nrt=False)
def _sample_hands(R, rng, seat, hand, up_seat, lot_buyer, value, pool, need):
    """Fill value[t, r] for the deal of the situation. False if no consistent deal
    came in MAX_REDRAWS draws."""
    n = R[R_PLAYERS]
    first = R[R_FIRST_RANK]
    per = (52 - 4 * first) // n
    value[:, :] = 0
    for t in range(n):
        need[t] = 0 if t == seat else per
    size = 0
    for c in range(52):
        if c % 13 < first:
            continue
        points = R[R_SUIT_POINTS + c // 13]
        if up_seat[c] >= 0:
            value[up_seat[c], c % 13] += points
            need[up_seat[c]] -= 1
        elif hand[c]:
            value[seat, c % 13] += points
        else:
            pool[size] = c
            size += 1
    for _ in range(MAX_REDRAWS):
        for i in range(size - 1, 0, -1):
            j = below(rng, i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        k = 0
        consistent = True
        for t in range(n):
            for _j in range(need[t]):
                if lot_buyer[pool[k] % 13] == t:
                    consistent = False
                k += 1
        if consistent:
            k = 0
            for t in range(n):
                for _j in range(need[t]):
                    value[t, pool[k] % 13] += R[R_SUIT_POINTS + pool[k] // 13]
                    k += 1
            return True
    return False


@njit(cache=True, _nrt=False)
def _resume_open_lot(R, pids, params, rngs, o, value, money, caps, eff, lot, seat, call,
                     price, high, passes, m, d, err):
    """The open lot from the situation: ``seat`` makes ``call`` now, then the policies
    go on around the table (A7-A11). Returns (buyer or -1, price)."""
    n = R[R_PLAYERS]
    min_bid = R[R_MIN_BID]
    min_raise = R[R_MIN_RAISE]
    _ceilings(pids, params, rngs, o, value, money, caps, eff, n)
    calls = 0
    s = seat
    while True:
        lo = min_bid if high < 0 else max(min_bid, price + min_raise)
        if calls == 0:
            bid = call
        elif caps[s] != ASK:
            bid = lo if lo <= caps[s] and lo <= money[s] else PASS
        else:
            o[O.PRICE] = price
            o[O.HIGH_BIDDER] = high
            o[O.CALLS] = calls
            o[O.PASSES] = passes
            bid = _call(pids, params, rngs, o, value, s)
        if bid != PASS and (bid < lo or bid > money[s]):
            _fail(err, m, ILLEGAL_BID, s, bid, lo, money[s], d, lot)
            return -1, 0
        calls += 1
        if bid == PASS:
            passes += 1
            if high < 0 and passes == n:
                return -1, 0
            if high >= 0 and passes == n - 1:
                return high, price
        else:
            price = bid
            high = s
            passes = 0
        s = (s + 1) % n


@njit(cache=True, _nrt=False)
def _resume_sealed_lot(R, pids, params, rngs, o, value, money, lot, starter, seat, call,
                       m, d, err):
    """The sealed lot of the situation: ``seat`` bids ``call``, the others decide; the
    highest bid wins, ties to the earliest seat from the starter."""
    n = R[R_PLAYERS]
    buyer = -1
    price = 0
    for k in range(n):
        s = (starter + k) % n
        bid = call if s == seat else _call(pids, params, rngs, o, value, s)
        if bid != PASS and (bid < R[R_MIN_BID] or bid > money[s]):
            _fail(err, m, ILLEGAL_BID, s, bid, R[R_MIN_BID], money[s], d, lot)
            return -1, 0
        if bid != PASS and bid > price:
            buyer = s
            price = bid
    return buyer, price


@njit(cache=True, _nrt=False)
def _rollout(R, leftover, pids, params, seat, call, deal, lot, price, high, passes,
             money0, scores0, lot_buyer, lot_price, value, o, rngs, ints, m, err,
             no_calls, no_decks):
    """Play the match on from the situation; returns (seat's match score, win share)."""
    n = R[R_PLAYERS]
    money, caps, match_points, deal_points, hand_points = ints[0], ints[1], ints[2], ints[3], ints[4]
    deck, eff = ints[5], ints[6]
    first_rank = R[R_FIRST_RANK]
    _start_match(R, leftover, o, n)
    for t in range(n):
        money[t] = money0[t]
        match_points[t] = scores0[t]
        deal_points[t] = 0
    for r in range(first_rank, lot):
        if lot_buyer[r] >= 0:
            deal_points[lot_buyer[r]] += np.int64(value[lot_buyer[r], r])
    d = deal
    first_lot = lot
    while d < R[R_DEALS]:
        dealer = (R[R_FIRST_DEALER] + d) % n
        if d > deal:                                              # a later deal: A1-A3
            _deal(R, rngs[DEAL_STREAM], deck, value, hand_points, no_decks, d)
            for t in range(n):
                if R[R_CARRY] == 0:
                    money[t] = 0
                money[t] += max(0, R[R_START_MONEY] - hand_points[t])
                deal_points[t] = 0
        o[O.DEAL] = d
        o[O.DEALER] = dealer
        last_buyer = dealer
        for r in range(13):
            status = O.LOT_TO_COME
            o[O.LOT_BUYER + r] = -1
            o[O.LOT_PRICE + r] = 0
            o[O.LOT_FACE_UP + r] = 0
            if d == deal and first_rank <= r < lot:
                status = O.LOT_UNSOLD
                if lot_buyer[r] >= 0:
                    status = O.LOT_SOLD
                    last_buyer = lot_buyer[r]
                    o[O.LOT_BUYER + r] = lot_buyer[r]
                    o[O.LOT_PRICE + r] = lot_price[r]
                    o[O.LOT_FACE_UP + r] = value[lot_buyer[r], r]
            o[O.LOT_STATUS + r] = status
        for t in range(n):
            o[O.MATCH_POINTS + t] = match_points[t]
            o[O.DEAL_POINTS + t] = deal_points[t]
        for r in range(first_lot, 13):
            starter = (last_buyer + 1) % n
            o[O.LOT] = r
            o[O.STARTER] = starter
            o[O.PRICE] = 0
            o[O.HIGH_BIDDER] = -1
            o[O.CALLS] = 0
            o[O.PASSES] = 0
            o[O.LOT_STATUS + r] = O.LOT_OPEN
            for t in range(n):
                o[O.MONEY + t] = money[t]
            resumed = d == deal and r == lot
            if resumed and R[R_SEALED] == 0:
                buyer, paid = _resume_open_lot(R, pids, params, rngs, o, value, money, caps,
                                               eff, r, seat, call, price, high, passes, m, d,
                                               err)
            elif resumed:
                buyer, paid = _resume_sealed_lot(R, pids, params, rngs, o, value, money, r,
                                                 starter, seat, call, m, d, err)
            elif R[R_SEALED]:
                buyer, paid, _, _ = _sealed_lot(R, pids, params, rngs, o, value, money, r,
                                                starter, m, d, err, no_calls, 0)
            elif _ceilings(pids, params, rngs, o, value, money, caps, eff, n):
                buyer, paid, _, _ = _open_calls(R, pids, params, rngs, o, value, money, caps, r,
                                                starter, m, d, err, no_calls, 0)
            else:  # only ceiling policies: the calls follow from ceilings and money
                buyer, paid, _ = _ceiling_calls(eff, n, starter, R[R_MIN_BID], R[R_MIN_RAISE])
            if err[m, ERR_CODE] != OK:
                return 0.0, 0.0
            if buyer >= 0:
                money[buyer] -= paid
                deal_points[buyer] += np.int64(value[buyer, r])
                last_buyer = buyer
                o[O.LOT_STATUS + r] = O.LOT_SOLD
                o[O.LOT_BUYER + r] = buyer
                o[O.LOT_PRICE + r] = paid
                o[O.LOT_FACE_UP + r] = value[buyer, r]
                o[O.DEAL_POINTS + buyer] = deal_points[buyer]
            else:
                o[O.LOT_STATUS + r] = O.LOT_UNSOLD
        for t in range(n):
            match_points[t] += deal_points[t]
        d += 1
        first_lot = first_rank
    best = -1e300
    mine = 0.0
    for t in range(n):
        total = match_points[t] + leftover * money[t]
        best = max(best, total)
        if t == seat:
            mine = total
    tied = 0
    for t in range(n):
        if match_points[t] + leftover * money[t] == best:
            tied += 1
    return mine, (1.0 / tied if mine == best else 0.0)


@njit(cache=True, parallel=True)
def rollouts(seed, count, n_blocks, R, leftover, pids, params, seat, hand, up_seat, lot_buyer,
             lot_price, money0, scores0, deal, lot, price, high, passes, calls, score, win, err):
    """Rollouts 0..count-1 of every candidate call in ``calls``: score[r, c], win[r, c]."""
    n = R[R_PLAYERS]
    for b in prange(n_blocks):
        ints, value, o, rngs = new_scratch()
        dealt = np.empty((O.MAX_PLAYERS, 13), dtype=np.int64)
        saved = np.empty(4, dtype=np.uint64)
        pool = np.empty(52, dtype=np.int64)
        need = np.empty(O.MAX_PLAYERS, dtype=np.int64)
        no_calls = np.empty((0, 2), dtype=np.int64)
        no_decks = np.empty((0, 52), dtype=np.int64)
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            seed_stream(rngs[DEAL_STREAM], seed, m, DEAL_STREAM)
            if not _sample_hands(R, rngs[DEAL_STREAM], seat, hand, up_seat, lot_buyer, dealt,
                                 pool, need):
                err[m, ERR_CODE] = TOO_CONSTRAINED
                continue
            for j in range(4):
                saved[j] = rngs[DEAL_STREAM, j]
            for c in range(calls.shape[0]):
                # the same hidden cards, later deals and policy streams for every candidate
                for j in range(4):
                    rngs[DEAL_STREAM, j] = saved[j]
                for k in range(1, n + 1):
                    seed_stream(rngs[k], seed, m, DEAL_STREAM + k)
                value[:, :] = dealt
                score[m, c], win[m, c] = _rollout(
                    R, leftover, pids, params, seat, calls[c], deal, lot, price, high, passes,
                    money0, scores0, lot_buyer, lot_price, value, o, rngs, ints, m, err,
                    no_calls, no_decks)
                if err[m, ERR_CODE] != OK:
                    break
