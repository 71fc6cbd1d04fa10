"""The auktsion match loop (rules A1-A15), compiled with numba.

``play_chunk`` plays matches ``[start, start + count)`` into preallocated arrays; it is
the only entry point the runner uses. ``play_match`` plays one match and, when asked,
logs every call and every deal's cards for the trace.

This module imports the policy dispatcher from ``strategies.auktsion``: the one place
where ``sim`` reaches into ``strategies``, because numba must inline the policies into
the match loop (see ``sim/__init__.py`` for the cache key that keeps this honest).
Its numba options (and why) are ``sim/jit.py``'s; no divisor here can be zero: the
rules are validated, and a policy's division by zero is never the figure it returns.
"""

from __future__ import annotations

import numpy as np

from sim.games.auktsion import obs as O
from sim.games.auktsion.rules import (
    R_CARRY,
    R_DEALS,
    R_FIRST_DEALER,
    R_FIRST_RANK,
    R_MIN_BID,
    R_MIN_RAISE,
    R_PLAYERS,
    R_SEALED,
    R_START_MONEY,
    R_SUIT_POINTS,
)
from sim.harness import ERR_CODE, ILLEGAL, OK, TRACE_OVERFLOW, fail, show_rules
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, seed_stream, shuffle
from strategies.auktsion import ceiling, decide, uses_rng

# Rows of the int64 scratch ``scratch_i`` (SCRATCH_ROWS x 52), one entry per card or seat.
(ROW_DECK, ROW_HAND_POINTS, ROW_MONEY, ROW_CAPS, ROW_EFF_CAPS, ROW_MATCH_POINTS,
 ROW_DEAL_POINTS) = range(7)
SCRATCH_ROWS = 7

# Error records (``sim/harness.py``): ILLEGAL is a bid outside ``lo..hi`` (smallest
# legal bid .. the bidder's money) that is not a pass; step is the lot's rank.


@jit(inline=True)
def _shuffled(R, rng, deck):
    """The deck of a deal (A1: 52 cards, 48 without twos), shuffled; returns its size."""
    first_rank = R[R_FIRST_RANK]
    per_suit = 13 - first_rank
    size = 4 * per_suit
    for suit in range(4):
        for i in range(per_suit):
            deck[suit * per_suit + i] = suit * 13 + first_rank + i
    shuffle(rng, deck[:size])
    return size


@jit
def _deal(R, rng, deck, hands, points, log_decks, d, given, m):
    """Shuffle, deal and value the hands into ``hands`` (see ``complete_hands``). With
    ``given`` (rows per match of the chunk: every deal's deck in turn), match ``m``'s
    deck of deal ``d`` instead; the deck is shuffled either way, so the stream stays
    where a dealt match leaves it."""
    n = R[R_PLAYERS]
    size = _shuffled(R, rng, deck)
    cards = deck[:size]
    if given.shape[0] > 0:
        for k in range(size):
            cards[k] = given[m, d * size + k]
    if log_decks.shape[0] > 0:
        for k in range(size):
            log_decks[d, k] = cards[k]
    # Unsigned indices: numba then skips its test for a negative index.
    per = np.uint64(size // n)
    suit_points = R[R_SUIT_POINTS:R_SUIT_POINTS + 4]
    hands[:n, :] = 0.0
    for s in range(n):
        row = hands[s, O.HAND_POINTS:]
        total = 0  # a local: summing into points[s] would go through memory every card
        for k in range(np.uint64(s) * per, np.uint64(s + 1) * per):
            c = np.uint64(cards[k])
            suit = (c * np.uint64(5042)) >> np.uint64(16)  # c // 13 for c < 52
            v = suit_points[suit]
            row[c - np.uint64(13) * suit] += v
            total += v
        points[s] = total
    complete_hands(hands, n)


@jit
def complete_hands(hands, n):
    """Complete the hand vectors (``obs.py``) of seats ``0..n-1`` from their
    ``HAND_POINTS`` (float64 as the policies read them; whole numbers): ``HAND_REST``
    is summed here, once per deal, not at every question."""
    for s in range(n):
        above = 0.0
        for r in range(12, -1, -1):
            above += hands[s, O.HAND_POINTS + r]
            hands[s, O.HAND_REST + r] = above


# The kernels below run without numba's reference counting (``sim/jit.py``), so array
# views cost nothing: each policy gets its own rows ``hands[s]``, ``params[s]`` and
# ``rngs[1 + s]`` (it advances its random stream in place) and the public observation
# ``o``, in which only ``SEAT`` changes from one seat's question to the next.


@jit
def _call(pids, params, table, rngs, o, hands, s):
    """Seat ``s``'s call (a bid or PASS) from its policy's ``decide``."""
    o[O.SEAT] = s
    return decide(pids[s], o, hands[s], params[s], rngs[1 + s], table)


@jit(inline=True)
def _ceilings(pids, params, table, rngs, o, hands, money, caps, eff, n):
    """Ask every seat its ceiling for the lot now open (open form) into ``caps``, and
    the most it will bid (ceiling and money) into ``eff``. True if a seat answered ASK
    (it decides call by call)."""
    asking = False
    for s in range(n):
        o[O.SEAT] = s
        c = ceiling(pids[s], o, hands[s], params[s], rngs[1 + s], table)
        caps[s] = c
        # Computed here, one seat at a time: a vectorised pass over ``caps`` right after
        # these scalar stores stalls on store-to-load forwarding.
        eff[s] = min(c, money[s])
        asking |= c == O.ASK
    return asking


# -- the calls of a lot between ceiling policies, settled without playing them ----------
#
# Seat s can make bid number k + 1 of the lot (at price min_bid + k * min_raise, A8)
# while k <= cap[s] = (eff[s] - min_bid) // min_raise. The price only rises, so a seat
# that passes once passes for good. The lot therefore goes in phases: while the set S
# of seats with cap >= k holds two or more, they all bid in turn up to the lowest cap in
# S, and the phase's last bidder follows from its number of bids and who calls first;
# then the lowest seats leave S. With one seat left, it bids once more unless it holds
# the last bid (A10); with none, the lot ends (A11 when nobody bid at all).
#
# Each phase is straight-line code (at most three phases with four seats): a loop over
# the calls, or over the phases, branches on the ceilings and mispredicts
# (benchmarks/README.md has the measurements).


@jit(inline=True)
def _turn_index(n, S, first, j):
    return ((n - 3) * 16 + S) * 16 + first * 4 + j


def _turn_tables():
    """``TURN_DELAY[i]``, ``TURN_SEAT[i]``, ``TURN_NEXT[i]`` for ``i = _turn_index(n, S,
    first, j)``: with the seats of bit set S able to bid and seat ``first`` next to call,
    the j-th of them (0-based) to bid calls that many calls after ``first``; its seat;
    the seat after it."""
    delay, seat, after = (np.zeros(2 * 16 * 16, dtype=np.int64) for _ in range(3))
    for n in (3, 4):
        for S in range(1 << n):
            for first in range(n):
                able = [s for s in (first + d for d in range(n)) if S >> (s % n) & 1]
                for j, s in enumerate(able):
                    i = _turn_index.py_func(n, S, first, j)
                    delay[i], seat[i], after[i] = s - first, s % n, (s + 1) % n
    return delay, seat, after


TURN_DELAY, TURN_SEAT, TURN_NEXT = _turn_tables()
# ROUNDS[S]: x // c == (x * ROUNDS[S]) >> 33 for 0 <= x < 2**32, c = seats in S (1..4).
ROUNDS = np.array([(0, 1 << 33, 1 << 32, 0xAAAAAAAB, 1 << 31)[bin(S).count("1")]
                   for S in range(16)], dtype=np.int64)
_OUT = np.int64(1) << 40  # the lowest cap of an empty set


@jit(inline=True)
def _able(c0, c1, c2, c3, k):
    """(bit set S of the seats with cap >= k, how many, the lowest cap among them)"""
    b0, b1, b2, b3 = np.int64(c0 >= k), np.int64(c1 >= k), np.int64(c2 >= k), np.int64(c3 >= k)
    low = min(min(c0 if b0 else _OUT, c1 if b1 else _OUT),
              min(c2 if b2 else _OUT, c3 if b3 else _OUT))
    return b0 | b1 << 1 | b2 << 2 | b3 << 3, b0 + b1 + b2 + b3, low


@jit(inline=True)
def _phase(c0, c1, c2, c3, n, k, t, last, first):
    """One phase from k bids, the last made at call t (0-based) by ``last``, with
    ``first`` next to call; unchanged once fewer than two seats can bid."""
    S, c, low = _able(c0, c1, c2, c3, k)
    bids = low - k + 1
    rounds = ((bids - 1) * ROUNDS[S]) >> 33  # (bids - 1) // c: every able seat bids once a round
    i = _turn_index(n, S, first, (bids - 1 - rounds * c) & 3)
    go = c >= 2
    t = t + 1 + rounds * n + TURN_DELAY[i] if go else t
    last = TURN_SEAT[i] if go else last
    first = TURN_NEXT[i] if go else first
    k = low + 1 if go else k
    return k, t, last, first


@jit
def _ceiling_calls(eff, n, starter, min_bid, min_raise):
    """Open calls (A7-A11) when every seat bids the smallest legal bid while that is at
    most ``eff[s]`` and passes otherwise, as ``_open_calls`` would play them, settled
    in phases (see above). Returns (buyer or -1, price, calls)."""
    if min_raise == 1:
        c0, c1, c2, c3 = eff[0] - min_bid, eff[1] - min_bid, eff[2] - min_bid, eff[3] - min_bid
    else:
        c0, c1 = (eff[0] - min_bid) // min_raise, (eff[1] - min_bid) // min_raise
        c2, c3 = (eff[2] - min_bid) // min_raise, (eff[3] - min_bid) // min_raise
    c3 = c3 if n == 4 else -_OUT
    k, t, last, first = 0, -1, -1, starter
    k, t, last, first = _phase(c0, c1, c2, c3, n, k, t, last, first)
    k, t, last, first = _phase(c0, c1, c2, c3, n, k, t, last, first)
    k, t, last, first = _phase(c0, c1, c2, c3, n, k, t, last, first)
    S, c, _ = _able(c0, c1, c2, c3, k)
    i = _turn_index(n, S, first, 0)
    more = (c == 1) & (TURN_SEAT[i] != last)
    t = t + 1 + TURN_DELAY[i] if more else t
    last = TURN_SEAT[i] if more else last
    k = k + 1 if more else k
    if k == 0:
        return -1, 0, n
    return last, min_bid + (k - 1) * min_raise, t + n  # the last bid, then n - 1 passes


NO_CALL = -3
"""No forced call: every seat's policy decides. (A forced call is bid-EV's candidate.)"""


@jit
def _open_calls(R, pids, params, table, rngs, o, hands, money, caps, lot, first, price, high, passes,
                forced, m, d, err, log_calls, cursor):
    """Open ascending calls (A7-A11) one by one from seat ``first``, the lot standing at
    ``price`` bid by ``high`` (-1: no bid yet) after ``passes`` passes in a row; a fresh
    lot is (starter, 0, -1, 0). Unless ``forced`` is NO_CALL, it is ``first``'s call.
    Given the ceilings ``caps`` from ``_ceilings``, asks every seat whose ceiling is ASK
    for its call; logs the calls when tracing. Returns (buyer or -1, price, calls, cursor).
    """
    n = R[R_PLAYERS]
    min_bid = R[R_MIN_BID]
    min_raise = R[R_MIN_RAISE]
    tracing = log_calls.shape[0] > 0
    calls = 0
    s = first
    while True:
        lo = min_bid if high < 0 else max(min_bid, price + min_raise)
        if calls == 0 and forced != NO_CALL:
            bid = forced
        elif caps[s] != O.ASK:
            bid = lo if lo <= caps[s] and lo <= money[s] else O.PASS
        else:
            o[O.PRICE] = price
            o[O.HIGH_BIDDER] = high
            o[O.CALLS] = calls
            o[O.PASSES] = passes
            bid = _call(pids, params, table, rngs, o, hands, s)
        if bid != O.PASS and (bid < lo or bid > money[s]):
            fail(err, m, ILLEGAL, s, d, lot, bid, lo, money[s])
            return -1, 0, calls, cursor
        if tracing:
            if cursor >= log_calls.shape[0]:
                fail(err, m, TRACE_OVERFLOW, s, d, lot, bid, lo, money[s])
                return -1, 0, calls, cursor
            log_calls[cursor, 0] = s
            log_calls[cursor, 1] = bid
            cursor += 1
        calls += 1
        if bid == O.PASS:
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


@jit
def _sealed_lot(R, pids, params, table, rngs, o, hands, money, lot, starter, first, forced, m, d, err,
                log_calls, cursor):
    """One sealed bid or none per seat (seat ``first`` bids ``forced`` unless it is
    NO_CALL); highest wins, ties to the earliest seat from the starter; no bid at all
    leaves the lot unsold."""
    n = R[R_PLAYERS]
    min_bid = R[R_MIN_BID]
    tracing = log_calls.shape[0] > 0
    buyer = -1
    price = 0
    for k in range(n):
        s = (starter + k) % n
        if s == first and forced != NO_CALL:
            bid = forced
        else:
            bid = _call(pids, params, table, rngs, o, hands, s)
        if bid != O.PASS and (bid < min_bid or bid > money[s]):
            fail(err, m, ILLEGAL, s, d, lot, bid, min_bid, money[s])
            return -1, 0, k, cursor
        if tracing:
            if cursor >= log_calls.shape[0]:
                fail(err, m, TRACE_OVERFLOW, s, d, lot, bid, min_bid, money[s])
                return -1, 0, k, cursor
            log_calls[cursor, 0] = s
            log_calls[cursor, 1] = bid
            cursor += 1
        if bid != O.PASS and bid > price:
            buyer = s
            price = bid
    return buyer, price, n, cursor


RULES_SHOWN = np.array([(O.PLAYERS, R_PLAYERS), (O.DEALS, R_DEALS), (O.FIRST_RANK, R_FIRST_RANK),
                        (O.SEALED, R_SEALED), (O.MIN_BID, R_MIN_BID), (O.MIN_RAISE, R_MIN_RAISE),
                        (O.START_MONEY, R_START_MONEY), (O.CARRY_MONEY, R_CARRY)], np.int64)
"""(observation offset, packed rule index) of the rule values every policy sees."""


@jit
def _start_match(R, leftover, o):
    o[:] = 0.0
    show_rules(o, R, RULES_SHOWN)
    o[O.LEFTOVER_VALUE] = leftover
    deck_points = 0
    for suit in range(4):
        deck_points += (13 - R[R_FIRST_RANK]) * R[R_SUIT_POINTS + suit]
    o[O.DECK_POINTS] = deck_points
    o[O.MEAN_HAND] = o[O.DECK_POINTS] / o[O.PLAYERS]


@jit(inline=True)
def _new_deal(R, rngs, o, hands, d, scratch_i, m, detail, deal_money, deal_hand, deal_spent,
              log_decks, given):
    """Deal ``d`` (A1-A4): cards, coins, an observation with every lot to come.
    Returns the dealer."""
    deck, hand_points = scratch_i[ROW_DECK], scratch_i[ROW_HAND_POINTS]
    money = scratch_i[ROW_MONEY]
    match_points, deal_points = scratch_i[ROW_MATCH_POINTS], scratch_i[ROW_DEAL_POINTS]
    n = R[R_PLAYERS]
    dealer = (R[R_FIRST_DEALER] + d) % n                      # A4
    _deal(R, rngs[DEAL_STREAM], deck, hands, hand_points, log_decks, d, given, m)  # A1, A2
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
    return dealer


@jit(inline=True)
def _play_lots(R, policy, rngs, o, hands, scratch_i, d, first_lot, last_lot,
               last_buyer, first, price, high, passes, forced, m, err, spent, bought,
               detail, deal_score, deal_spent, lot_starter, lot_buyer, lot_price, lot_value,
               lot_calls, log_calls, cursor):
    """Sell the lots ``first_lot`` .. ``last_lot - 1`` of deal ``d`` (A5-A12), and score
    the deal (A13) where ``last_lot`` is 13 (past the ace; the solver stops and resumes a
    deal in between). The first of them resumes from (first, price, high, passes, forced)
    when ``forced`` is not NO_CALL (bid-EV); every other lot opens fresh. Returns the
    trace cursor. ``policy``: the seats' (policy ids, parameters, solution table), one
    argument (numba inlines no call of more than 30)."""
    pids, params, table = policy
    money, caps, eff = scratch_i[ROW_MONEY], scratch_i[ROW_CAPS], scratch_i[ROW_EFF_CAPS]
    match_points, deal_points = scratch_i[ROW_MATCH_POINTS], scratch_i[ROW_DEAL_POINTS]
    n = R[R_PLAYERS]
    tracing = log_calls.shape[0] > 0
    for lot in range(first_lot, last_lot):                    # A5
        starter = last_buyer + 1 if last_buyer + 1 < n else 0  # A6
        o[O.LOT] = lot
        o[O.STARTER] = starter
        o[O.PRICE] = 0
        o[O.HIGH_BIDDER] = -1
        o[O.CALLS] = 0
        o[O.PASSES] = 0
        o[O.LOT_STATUS + lot] = O.LOT_OPEN
        for t in range(n):
            o[O.MONEY + t] = money[t]
        if lot != first_lot or forced == NO_CALL:
            first, price, high, passes, forced = starter, 0, -1, 0, NO_CALL
        # Sell the lot (A7-A11). Written out here rather than in a function of its own:
        # passing this many arrays to a call per lot cost more than the lot's auction.
        if R[R_SEALED]:
            buyer, price, calls, cursor = _sealed_lot(R, pids, params, table, rngs, o, hands, money,
                                                      lot, starter, first, forced, m, d, err,
                                                      log_calls, cursor)
        elif (_ceilings(pids, params, table, rngs, o, hands, money, caps, eff, n)
              or forced != NO_CALL or tracing):
            buyer, price, calls, cursor = _open_calls(R, pids, params, table, rngs, o, hands, money,
                                                      caps, lot, first, price, high, passes,
                                                      forced, m, d, err, log_calls, cursor)
        else:
            # Nobody decides call by call: the calls follow from the ceilings and money.
            buyer, price, calls = _ceiling_calls(eff, n, starter, R[R_MIN_BID], R[R_MIN_RAISE])
        if err[m, ERR_CODE] != OK:
            return cursor
        face_up = np.int64(hands[buyer, O.HAND_POINTS + lot]) if buyer >= 0 else -1
        if buyer >= 0:                                        # A12
            money[buyer] -= price
            spent[m, buyer] += price
            bought[m, buyer] += 1
            deal_points[buyer] += face_up                     # A13
            last_buyer = buyer
            if detail:
                deal_spent[m, d, buyer] += price
            o[O.LOT_STATUS + lot] = O.LOT_SOLD
            o[O.LOT_BUYER + lot] = buyer
            o[O.LOT_PRICE + lot] = price
            o[O.LOT_FACE_UP + lot] = face_up
            o[O.DEAL_POINTS + buyer] = deal_points[buyer]
        else:
            o[O.LOT_STATUS + lot] = O.LOT_UNSOLD
        if detail:
            lot_starter[m, d, lot] = starter
            lot_buyer[m, d, lot] = buyer
            lot_price[m, d, lot] = price if buyer >= 0 else -1
            lot_value[m, d, lot] = face_up
            lot_calls[m, d, lot] = calls
    if last_lot < 13:
        return cursor
    for s in range(n):
        match_points[s] += deal_points[s]
        if detail:
            deal_score[m, d, s] = deal_points[s]
    return cursor


@jit(inline=True)
def _final_scores(R, leftover, scratch_i, m, score, win, money_end, points):
    """A14, A15: match scores, and the win shared among the highest."""
    money, match_points = scratch_i[ROW_MONEY], scratch_i[ROW_MATCH_POINTS]
    n = R[R_PLAYERS]
    best = -1e300
    for s in range(n):
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


@jit
def play_matches(seed, index0, lo, hi, R, leftover, pids, params, table, scratch_i, hands, o, rngs,
                 score, win, spent, money_end, points, bought,
                 detail, deal_money, deal_hand, deal_score, deal_spent,
                 lot_starter, lot_buyer, lot_price, lot_value, lot_calls,
                 err, log_calls, log_decks, given):
    """Play matches ``index0 + lo .. index0 + hi - 1`` into rows ``lo .. hi - 1`` of the
    output arrays. Returns the trace cursor of the last (see ``play_match``). Non-empty
    ``given`` holds the decks to play, one row per output row (``_deal``).

    ``scratch_i`` is int64[SCRATCH_ROWS, 52] (rows ``ROW_DECK`` .. ``ROW_DEAL_POINTS``);
    ``hands`` float64[MAX_PLAYERS, HAND_SIZE] (see ``complete_hands``); ``o``
    float64[O.SIZE]; ``rngs`` uint64[5, 4]. ``detail`` fills the per-deal and per-lot
    arrays; non-empty ``log_calls`` / ``log_decks`` record every call (seat, bid or
    PASS) and every deal's cards.

    One call plays many matches, and the match, deal and scoring steps are inlined
    into it: a call with ~25 array arguments, each passed as seven words, costs as
    much as a lot's auction.
    """
    cursor = 0
    # The rules' part of the observation, once: every other field is written at the
    # start of each deal or lot (_new_deal, _play_lots) before a policy reads it.
    _start_match(R, leftover, o)
    for m in range(lo, hi):
        cursor = play_match(seed, index0 + m, R, (pids, params, table), m, scratch_i, hands,
                            o, rngs, score, win, spent, money_end, points, bought, detail,
                            deal_money, deal_hand, deal_score, deal_spent, lot_starter,
                            lot_buyer, lot_price, lot_value, lot_calls, err, log_calls,
                            log_decks, given)
    return cursor


@jit(inline=True)
def play_match(seed, index, R, policy, m, scratch_i, hands, o, rngs,
               score, win, spent, money_end, points, bought,
               detail, deal_money, deal_hand, deal_score, deal_spent,
               lot_starter, lot_buyer, lot_price, lot_value, lot_calls,
               err, log_calls, log_decks, given):
    """Match ``index`` into row ``m`` (see ``play_matches``). The leftover value is read
    from ``o``, where ``_start_match`` put it: a call with more than 30 arguments is
    one numba cannot inline (so too the policies come as one tuple, ``_play_lots``)."""
    pids = policy[0]
    n = R[R_PLAYERS]
    seed_stream(rngs[0], seed, index, DEAL_STREAM)
    for s in range(n):
        if uses_rng(pids[s]):          # the other seats' streams are never read
            seed_stream(rngs[1 + s], seed, index, DEAL_STREAM + 1 + s)
    for s in range(n):
        scratch_i[ROW_MONEY, s] = 0
        scratch_i[ROW_MATCH_POINTS, s] = 0
        spent[m, s] = 0
        bought[m, s] = 0
    cursor = 0
    for d in range(R[R_DEALS]):
        dealer = _new_deal(R, rngs, o, hands, d, scratch_i, m, detail, deal_money, deal_hand,
                           deal_spent, log_decks, given)
        cursor = _play_lots(R, policy, rngs, o, hands, scratch_i, d, R[R_FIRST_RANK],
                            13, dealer, -1, 0, -1, 0, NO_CALL, m, err, spent, bought, detail,
                            deal_score, deal_spent, lot_starter, lot_buyer, lot_price,
                            lot_value, lot_calls, log_calls, cursor)
        if err[m, ERR_CODE] != OK:
            return cursor
    _final_scores(R, o[O.LEFTOVER_VALUE], scratch_i, m, score, win, money_end, points)
    return cursor



@jit(nrt=True)
def new_scratch():
    """Per-thread scratch for ``play_match``."""
    return (np.empty((SCRATCH_ROWS, 52), dtype=np.int64),
            np.empty((O.MAX_PLAYERS, O.HAND_SIZE), dtype=np.float64),
            np.empty(O.SIZE, dtype=np.float64),
            np.empty((O.MAX_PLAYERS + 1, 4), dtype=np.uint64))


@jit(parallel=True)
def play_chunk(seed, start, count, n_blocks, R, leftover, pids, params, table, detail,
               score, win, spent, money_end, points, bought,
               deal_money, deal_hand, deal_score, deal_spent,
               lot_starter, lot_buyer, lot_price, lot_value, lot_calls, err, given):
    """Play matches ``start .. start + count - 1`` into rows ``0 .. count - 1`` (with
    ``given``, its decks: ``_deal``).

    Matches are split into ``n_blocks`` blocks over numba's threads; each block
    allocates its scratch once. A match's result depends only on (seed, index), never
    on the block. (``numba.get_num_threads()`` is read by the caller: called in here it
    makes the kernel uncacheable.)
    """
    no_calls = np.empty((0, 2), dtype=np.int64)
    no_decks = np.empty((0, 52), dtype=np.int64)
    for b in prange(n_blocks):
        scratch_i, hands, o, rngs = new_scratch()
        play_matches(seed, start, b * count // n_blocks, (b + 1) * count // n_blocks, R,
                     leftover, pids, params, table, scratch_i, hands, o, rngs, score, win, spent,
                     money_end, points, bought, detail, deal_money, deal_hand, deal_score,
                     deal_spent, lot_starter, lot_buyer, lot_price, lot_value, lot_calls, err,
                     no_calls, no_decks, given)


@jit(parallel=True)
def deal_orders(R, seed, start, count, out):
    """Row m of ``out``: every deal's deck of match ``start + m`` as dealt, deal after
    deal (the layout of ``given``)."""
    for m in prange(count):
        rng = np.empty(4, np.uint64)
        deck = np.empty(52, np.int64)
        seed_stream(rng, seed, start + m, DEAL_STREAM)
        for d in range(R[R_DEALS]):
            size = _shuffled(R, rng, deck)
            for k in range(size):
                out[m, d * size + k] = deck[k]
