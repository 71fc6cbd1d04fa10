"""The bridge board loop (rules B1-B11), compiled with numba.

Two entry points the engine uses, both ``parallel=True`` over blocks of boards:

- ``deal_chunk`` deals boards ``[start, start + count)``: stream 0 of board ``i``
  shuffles a fresh deck (Fisher-Yates) and seat ``s`` gets cards ``13s .. 13s+12`` of
  it, so the cards of ``(seed, i)`` never depend on policies, threads or chunks.
- ``auction_chunk`` plays the auctions of those boards (B2-B7) and, given the
  double-dummy tables, scores them (B9-B11). The solver is never called from here:
  the engine solves the boards a chunk needs in batches first (``dd.py``).

This module imports the policy dispatcher of ``strategies.bridge``: the one place where
``sim`` reaches into ``strategies`` (numba inlines the policies into the auction loop).
"""

from __future__ import annotations

import numpy as np

from sim.games.bridge import core as C
from sim.games.bridge import obs as O
from sim.games.bridge.rules import BOARD_VUL, R_VUL
from sim.harness import ILLEGAL, fail
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, _below, seed_stream
from strategies import bridge as SB  # noqa: E402

# Error records (``sim/harness.py``). ILLEGAL: call ``value`` (the ``step``-th of the
# auction, from 0) not in the legal set ``lo`` (a mask of call codes). NO_DD: no
# double-dummy result for declarer ``seat`` in strain ``value``.
NO_DD = 3

# Columns of ``board_out`` (int32, boards x BOARD_COLS).
(B_DEALER, B_VUL, B_LEVEL, B_STRAIN, B_DOUBLED, B_DECLARER, B_TRICKS, B_SCORE_NS, B_PAR_NS,
 B_NCALLS) = range(10)
BOARD_COLS = 10


@jit
def deal_board(seed, index, state, deck, hands, m):
    """Deal board ``index`` into ``hands[m, 0..3]`` (52-bit masks)."""
    seed_stream(state, seed, index, DEAL_STREAM)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for c in range(52):
        deck[c] = c
    for i in range(51, 0, -1):
        j, s0, s1, s2, s3 = _below(i + 1, s0, s1, s2, s3)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for s in range(4):
        h = np.int64(0)
        for k in range(13 * s, 13 * s + 13):
            h |= np.int64(1) << deck[k]
        hands[m, s] = h


@jit(parallel=True)
def deal_chunk(seed, start, count, n_blocks, hands):
    for b in prange(n_blocks):
        state = np.zeros(4, dtype=np.uint64)
        deck = np.zeros(52, dtype=np.int64)
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            deal_board(seed, start + m, state, deck, hands, m)


@jit(inline=True)
def _facts(facts, m, index, R):
    """(dealer, vulnerability code) of row ``m``: ``facts[m]``, or with no ``facts`` by
    B1 from the board number ``index % 16 + 1`` (and the ``vulnerability`` rule)."""
    if facts.shape[0] > 0:
        return facts[m, 0], facts[m, 1]
    cycle = index % 16                                                      # B1
    return cycle % 4, (R[R_VUL] if R[R_VUL] >= 0 else BOARD_VUL[cycle])


@jit
def play_boards(seed, index0, step, lo, hi, R, hands, facts, dd, par_ns, oracle, pids,
                params, o, rng, orc, first, memo, board_out, err, log_calls, forced):
    """Auctions (and, when ``dd`` has rows, the scores) of rows ``lo .. hi - 1``: row
    ``m`` is board ``index0 + step * m`` (its seed index), from ``hands[m]`` into
    ``board_out[m]``; ``facts[m]`` is its (dealer, vulnerability code), which the
    engine takes from an imported board's tags (an empty ``facts``: B1 for every row).

    ``dd[m, declarer, strain]`` double-dummy tricks (int8), ``par_ns[m]``, ``oracle[m]``
    (par contract: level, strain, declarer, doubled) -- all empty (0 rows) to play the
    auctions only. Each seat's policy gets its row of ``params`` as a view (no copy per
    call; policies read their parameters and never write them). Scratch: ``o``
    int64[O.SIZE], ``rng`` uint64[4, 4] (one stream per seat), ``orc`` int64[4],
    ``first`` int64[2, 5] (B7), ``memo`` int64[4, SB.MEMO_SIZE] (the seats' memories
    within a board; partners of the same system share one, ``memo_fold``). A non-empty
    ``log_calls`` records the calls of row ``m`` in its row ``m``. The first
    ``len(forced)`` calls of every board are ``forced`` (checked like any call) instead
    of the policies' answers: bid-EV replays the calls made so far and the candidate
    call this way.

    One call plays many boards: a call per board, with ~20 array arguments each passed
    as seven words, showed in profiles.
    """
    fold = memo_fold(pids, params)
    for m in range(lo, hi):
        play_board(seed, index0 + step * m, R, hands, facts, dd, par_ns, oracle, pids,
                   params, m, o, rng, orc, first, memo, fold, board_out, err, log_calls,
                   forced)


@jit
def memo_fold(pids, params):
    """Partners who play the same system alike share one memo (see strategies.bridge):
    seat s uses row ``s - 2 * (fold >> s & 1)``, without a branch or a table."""
    return (np.int64(SB.same_system(pids, params, 0, 2)) << 2) | \
        (np.int64(SB.same_system(pids, params, 1, 3)) << 3)


@jit(inline=True)
def _start_auction(o, dealer, vul):
    """The observation of a new auction: no calls yet (B2)."""
    for i in range(o[O.N_CALLS]):
        o[O.CALLS + i] = 0
    o[O.DEALER] = dealer
    o[O.VUL] = vul
    o[O.N_CALLS] = 0
    o[O.LAST_BID] = 0
    o[O.LAST_BIDDER] = -1
    o[O.DOUBLED] = 0


@jit(inline=True)
def _record(o, call, seat):
    """A legal call of ``seat`` into the observation (B3, B4)."""
    k = o[O.N_CALLS]
    o[O.CALLS + k] = call
    o[O.N_CALLS] = k + 1
    if call == C.DOUBLE:
        o[O.DOUBLED] = 1
    elif call == C.REDOUBLE:
        o[O.DOUBLED] = 2
    elif call != C.PASS:
        o[O.LAST_BID] = call
        o[O.LAST_BIDDER] = seat
        o[O.DOUBLED] = 0


@jit
def makes_calls(hands, calls, check, dealer, vul, pids, params, fold, o, rng, orc, memo):
    """Whether every seat in the bit set ``check`` would have made its calls among
    ``calls`` (from the dealer) holding ``hands[seat]``, its policy asked as in
    ``play_board``: bid-EV keeps only the deals on which the calls so far come out
    again (the calls tell about the hands). Only for policies whose call is a function
    of the hand and the calls (``SB.INFERABLE``)."""
    _start_auction(o, dealer, vul)
    for s in range(4):
        SB.forget(memo[s])
    for k in range(calls.shape[0]):
        seat = (dealer + k) % 4
        call = calls[k]
        if (check >> seat) & 1:
            o[O.SEAT] = seat
            o[O.HAND] = hands[seat]
            o[O.LEGAL] = C.legal_mask(o[O.LAST_BID], o[O.LAST_BIDDER], o[O.DOUBLED], seat)
            mine = SB.bid(pids[seat], o, params[seat], rng[seat], orc,
                          memo[seat - 2 * ((fold >> seat) & 1)])
            o[O.HAND] = 0
            if mine != call:
                return False
        _record(o, call, seat)
    return True


@jit(inline=True)
def play_board(seed, index, R, hands, facts, dd, par_ns, oracle, pids, params, m,
               o, rng, orc, first, memo, fold, board_out, err, log_calls, forced):
    """Board ``index`` in row ``m`` (see ``play_boards``)."""
    dealer, vul = _facts(facts, m, index, R)
    for s in range(4):
        SB.forget(memo[s])
        if SB.uses_rng(pids[s]):
            seed_stream(rng[s], seed, index, 1 + s)
    scoring = dd.shape[0] > 0
    for j in range(4):
        orc[j] = oracle[m, j] if scoring else 0
    _start_auction(o, dealer, vul)
    for side in range(2):
        for st in range(5):
            first[side, st] = -1
    passes = 0
    k = 0
    seat = dealer
    while True:                                                            # B2
        legal = C.legal_mask(o[O.LAST_BID], o[O.LAST_BIDDER], o[O.DOUBLED], seat)
        o[O.SEAT] = seat
        o[O.HAND] = hands[m, seat]
        o[O.LEGAL] = legal
        if k < forced.shape[0]:
            call = forced[k]
        else:
            call = SB.bid(pids[seat], o, params[seat], rng[seat], orc,
                           memo[seat - 2 * ((fold >> seat) & 1)])
        o[O.HAND] = 0
        if call < 0 or call >= C.N_CALLS or not (legal >> call) & 1:      # B3, B4
            fail(err, m, ILLEGAL, seat, 0, k, call, legal, 0)
            return
        _record(o, call, seat)
        if log_calls.shape[0] > 0:
            log_calls[m, k] = call
        k += 1
        if call == C.PASS:
            passes += 1
        else:
            passes = 0
            if call >= C.FIRST_BID:
                st = C.bid_strain(call)
                if first[seat % 2, st] < 0:
                    first[seat % 2, st] = seat                             # B7
        if (o[O.LAST_BID] == 0 and passes == 4) or (o[O.LAST_BID] != 0 and passes == 3):
            break                                                          # B5, B6
        seat = (seat + 1) % 4
    board_out[m, B_DEALER] = dealer
    board_out[m, B_VUL] = vul
    board_out[m, B_NCALLS] = k
    board_out[m, B_PAR_NS] = par_ns[m] if scoring else 0
    if o[O.LAST_BID] == 0:                                                 # B5
        board_out[m, B_LEVEL] = 0
        board_out[m, B_STRAIN] = -1
        board_out[m, B_DOUBLED] = 0
        board_out[m, B_DECLARER] = -1
        board_out[m, B_TRICKS] = -1
        board_out[m, B_SCORE_NS] = 0
        return
    last = o[O.LAST_BID]
    level = C.bid_level(last)
    strain = C.bid_strain(last)
    declarer = first[o[O.LAST_BIDDER] % 2, strain]
    board_out[m, B_LEVEL] = level
    board_out[m, B_STRAIN] = strain
    board_out[m, B_DOUBLED] = o[O.DOUBLED]
    board_out[m, B_DECLARER] = declarer
    if not scoring:
        board_out[m, B_TRICKS] = -1
        board_out[m, B_SCORE_NS] = 0
        return
    tricks = dd[m, declarer, strain]
    if tricks < 0:
        fail(err, m, NO_DD, declarer, 0, k, strain, 0, 0)
        return
    declarer_vul = (vul >> (declarer % 2)) & 1                            # NS bit 0, EW bit 1
    sc = C.score(level, strain, o[O.DOUBLED], declarer_vul, tricks)        # B10
    board_out[m, B_TRICKS] = tricks
    board_out[m, B_SCORE_NS] = sc if declarer % 2 == 0 else -sc           # B11


@jit(nrt=True)
def new_scratch():
    """Per-thread scratch for ``play_board``: (o, rng, orc, first, memo)."""
    return (np.zeros(O.SIZE, dtype=np.int64), np.zeros((4, 4), dtype=np.uint64),
            np.zeros(4, dtype=np.int64), np.zeros((2, 5), dtype=np.int64),
            np.zeros((4, SB.MEMO_SIZE), dtype=np.int64))


@jit(parallel=True)
def auction_chunk(seed, start, count, n_blocks, R, hands, facts, dd, par_ns, oracle, pids,
                  params, board_out, err):
    """Boards ``start .. start + count - 1`` into rows ``0 .. count - 1``."""
    no_log = np.empty((0, 1), dtype=np.int8)
    no_forced = np.empty(0, dtype=np.int64)
    for b in prange(n_blocks):
        o, rng, orc, first, memo = new_scratch()
        play_boards(seed, start, 1, b * count // n_blocks, (b + 1) * count // n_blocks, R,
                    hands, facts, dd, par_ns, oracle, pids, params, o, rng, orc, first, memo,
                    board_out, err, no_log, no_forced)


@jit(nrt=True)
def auction_serial(seed, start, count, R, hands, facts, dd, par_ns, oracle, pids, params,
                   board_out, err, log_calls):
    """Like ``auction_chunk`` on one thread; a non-empty ``log_calls`` (count x
    MAX_AUCTION, int8) records every call."""
    o, rng, orc, first, memo = new_scratch()
    play_boards(seed, start, 1, 0, count, R, hands, facts, dd, par_ns, oracle, pids, params,
                o, rng, orc, first, memo, board_out, err, log_calls, np.empty(0, dtype=np.int64))
