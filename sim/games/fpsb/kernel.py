"""fpsb: each bidder draws a value uniform on [0, 1] and submits one sealed bid; the
highest bid wins and pays itself (F1-F3). A validation game with a known answer: with
n bidders the symmetric equilibrium bid is (n - 1) / n times the value.

Imports its policy dispatcher from ``strategies.fpsb`` (see the auktsion kernel).
"""

from __future__ import annotations

import numpy as np

from sim.games.fpsb import obs as O
from sim.harness import ILLEGAL, fail
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, seed_stream, uniform
from strategies.fpsb import decide

MAX_PLAYERS = 10
# Error records (``sim/harness.py``): ILLEGAL is a bid below 0 or not a number.


@jit
def play_match(seed, index, n, pids, params, table, m, o, p, rngs, value, bid, score, win, err,
               given):
    for k in range(n + 1):
        seed_stream(rngs[k], seed, index, DEAL_STREAM + k)
    for s in range(n):                                   # F1: private values
        value[m, s] = uniform(rngs[DEAL_STREAM])
        if given.shape[0] > 0:                           # given values (the stream moves on)
            value[m, s] = given[m, s]
    best = -1.0
    for s in range(n):                                   # F2: one sealed bid each
        o[O.SEAT] = s
        o[O.PLAYERS] = n
        o[O.VALUE] = value[m, s]
        for j in range(params.shape[1]):
            p[j] = params[s, j]
        b = decide(pids[s], o, p, rngs[1 + s], table)
        if not (b >= 0.0):  # also catches NaN
            fail(err, m, ILLEGAL, s, 0, 0, 0, 0, 0)
            return
        bid[m, s] = b
        best = max(best, b)
    tied = 0
    for s in range(n):
        if bid[m, s] == best:
            tied += 1
    for s in range(n):                                   # F3: highest bid pays itself
        if bid[m, s] == best:
            win[m, s] = 1.0 / tied
            score[m, s] = (value[m, s] - bid[m, s]) / tied  # a tie is split at random
        else:
            win[m, s] = 0.0
            score[m, s] = 0.0


@jit(parallel=True)
def play_chunk(seed, start, count, n_blocks, n, pids, params, table, value, bid, score, win,
               err, given):
    for b in prange(n_blocks):
        o = np.empty(O.SIZE, dtype=np.float64)
        p = np.empty(max(1, params.shape[1]), dtype=np.float64)
        rngs = np.empty((MAX_PLAYERS + 1, 4), dtype=np.uint64)
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            play_match(seed, start + m, n, pids, params, table, m, o, p, rngs, value, bid,
                       score, win, err, given)


@jit(parallel=True)
def dealt_values(seed, start, count, n, out):
    """Row m of ``out``: the values of match ``start + m`` as dealt (F1)."""
    for m in prange(count):
        rng = np.empty(4, np.uint64)
        seed_stream(rng, seed, start + m, DEAL_STREAM)
        for s in range(n):
            out[m, s] = uniform(rng)
