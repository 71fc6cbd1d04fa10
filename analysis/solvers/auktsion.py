"""auktsion's bidding solved by regret matching on rollout action values inside Monte
Carlo CFR over sampled matches (``sim/games/auktsion/abstraction.py``).

A match is long (``deals_per_match`` deals of 13 lots, money carried), so the exact tree
walk of pitch does not fit. Training "deal" k of an iteration's batch is one match,
dealt from (seed, k, ``TRAIN_STREAM``): far from any match a tournament plays. It is
played under the current strategy sigma (each seat's ceiling drawn from its row, with
probability ``EXPLORE`` uniformly, so that money states off sigma's path are visited
too) up to a decision point drawn uniformly: a deal and a lot. There, for each seat that
holds the rank, each action is tried: the seat bids up to that action's ceiling in this
lot, and the rest of the match is played with every seat on sigma, every action on the
same future hands and the same policy streams (common random numbers). An action's
value is the seat's final margin, its match score (A15, leftover value included) less
the mean of the others': the zero-sum quantity a duplicate tournament's match-score
difference measures. Regret += value(a) - sum sigma(a') value(a'); average += sigma.
The lots are sold by the kernel's own ``_new_deal``/``_play_lots``/``_final_scores``
(the ceiling path ``_ceilings``/``_ceiling_calls`` in the open form, ``_sealed_lot`` in
the sealed), with the trying seat's ceiling given as a ``value`` policy for that lot, so
the playouts follow the rules exactly (A5-A15), carry_money and leftover_value included.

With more than two players there is no convergence guarantee: the held-out
exploitability is the check.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analysis.solvers.mccfr import (
    DealSampledCFR,
    add_point,
    add_values,
    bracket,
    cautious_response,
    deviating,
    raise_on,
)
from sim import cfr
from sim.cfr import Abstraction, stack_tables
from sim.games.auktsion import abstraction as A
from sim.games.auktsion import kernel as K
from sim.games.auktsion import obs as O
from sim.games.auktsion.rules import R_DEALS, R_FIRST_RANK, R_PLAYERS, pack
from sim.harness import ERR_CODE, OK, new_errors
from sim.jit import jit, prange
from sim.rng import below, seed_stream
from sim.rules import Rules
from strategies import auktsion as SA

TYPICAL_TIME = "about 5 minutes on one thread (default rules: 262 s on a busy two-core machine)"
"""Measured: see README ("Solved bidding")."""

EXPLORE = 0.1
"""Probability that a seat's ceiling before the decision point is drawn uniformly."""
Z = 2.0
"""Standard errors a deviation's gain must clear for the cautious best response."""
HELD_OUT = 16_384
"""Held-out decision points the cautious best response is chosen on."""
HELD_OUT_MATCHES = 20_000
"""Held-out matches it is then played on, against sigma and paired with sigma."""
TRAIN_STREAM = 1 << 41
EVAL_STREAM = 1 << 42
"""Streams of the training and held-out decision points: far from any match's."""
EVAL_MATCH = 1 << 40
"""The held-out matches' first index (a tournament plays matches 0, 1, ..)."""


@jit(nrt=True)
def _scratch(n):
    scratch_i, hands, o, rngs = K.new_scratch()
    return (scratch_i, hands, o, rngs, scratch_i.copy(), hands.copy(), o.copy(), rngs.copy(),
            np.zeros(4, np.uint64), np.zeros((1, O.MAX_PLAYERS), np.int64),
            np.zeros((1, O.MAX_PLAYERS), np.int64), np.zeros((1, 1, 1), np.int64),
            np.empty((0, 2), np.int64), np.empty((0, 52), np.int64), np.zeros(A.ACTIONS),
            np.full(n, SA.SOLVED, np.int64), np.zeros((n, 1)))


@jit
def _deal_on(R, policy, rngs, o, hands, scratch_i, d, first_lot, last_lot, last_buyer, err,
             spent, bought, detail3, no_calls):
    """Lots ``first_lot .. last_lot - 1`` of deal ``d`` by the kernel (``_play_lots``)."""
    K._play_lots(R, policy, rngs, o, hands, scratch_i, d, first_lot, last_lot, last_buyer, -1,
                 0, -1, 0, K.NO_CALL, 0, err, spent, bought, False, detail3, detail3, detail3,
                 detail3, detail3, detail3, detail3, no_calls, 0)


@jit
def _last_buyer(o, dealer, first, lot):
    """The last buyer before ``lot`` in this deal (the dealer before any, A6)."""
    last = dealer
    for r in range(first, lot):
        if o[O.LOT_BUYER + r] >= 0:
            last = np.int64(o[O.LOT_BUYER + r])
    return last


@jit
def _margin(R, leftover, scratch_i, seat):
    """``seat``'s match score (A15) less the mean of the others'."""
    n = R[R_PLAYERS]
    total = 0.0
    mine = 0.0
    for t in range(n):
        x = scratch_i[K.ROW_MATCH_POINTS, t] + leftover * scratch_i[K.ROW_MONEY, t]
        total += x
        if t == seat:
            mine = x
    return mine - (total - mine) / (n - 1)


@jit(nrt=True)
def _point(R, leftover, seed, index, stream, explore, table, scr, err, rows, q):
    """Decision point ``index`` of ``stream``: the match played to a lot under
    ``explore`` (stacked tables), then per seat its information set into ``rows[s]``
    (-1: the lot is worth nothing to it) and each action's final margin into ``q[s]``
    (the rest played under ``table``)."""
    (scratch_i, hands, o, rngs, si0, hands0, o0, rngs0, pick, spent, bought, detail3,
     no_calls, no_decks, xs, pids, params) = scr
    n, deals, first = R[R_PLAYERS], R[R_DEALS], R[R_FIRST_RANK]
    seed_stream(pick, seed, index, stream)
    d = below(pick, deals)
    lot = first + below(pick, 13 - first)
    for k in range(n + 1):
        seed_stream(rngs[k], seed, index, stream + 1 + k)
    K._start_match(R, leftover, o)
    for t in range(n):
        scratch_i[K.ROW_MONEY, t] = 0
        scratch_i[K.ROW_MATCH_POINTS, t] = 0
    for t in range(n):
        pids[t] = SA.SOLVED
    for dd in range(d + 1):
        dealer = K._new_deal(R, rngs, o, hands, dd, scratch_i, 0, False, detail3, detail3,
                             detail3, no_decks, no_decks)
        _deal_on(R, (pids, params, explore), rngs, o, hands, scratch_i, dd, first,
                 13 if dd < d else lot, dealer, err, spent, bought, detail3, no_calls)
    last = _last_buyer(o, dealer, first, lot)
    o[O.LOT] = lot
    for t in range(n):
        o[O.MONEY + t] = scratch_i[K.ROW_MONEY, t]
    si0[:, :] = scratch_i
    hands0[:, :] = hands
    o0[:] = o
    rngs0[:, :] = rngs
    for s in range(n):
        # The point as saved: each action's playout leaves ``o`` and ``hands`` at the
        # match's end.
        o[:] = o0
        o[O.SEAT] = s
        rows[s] = A.observed_infoset(o, hands0[s])
        value = hands0[s, O.HAND_POINTS + lot]
        if value <= 0:
            rows[s] = -1
            continue
        for a in range(A.ACTIONS):
            xs[a] = A.action_ceiling(o, hands0[s], a)
        for a in range(A.ACTIONS):
            same = -1
            for b in range(a):      # a ceiling tried already (cut at money): its value
                if xs[b] == xs[a]:
                    same = b
            if same >= 0:
                q[s, a] = q[s, same]
                continue
            scratch_i[:, :] = si0
            hands[:, :] = hands0
            o[:] = o0
            rngs[:, :] = rngs0
            # The seat's ceiling for this lot is the action's: a ``value`` policy whose
            # multiple gives exactly that many coins (its floor, A8's whole coins).
            pids[s] = SA.VALUE
            params[s, 0] = (xs[a] + 0.5) / value
            _deal_on(R, (pids, params, table), rngs, o, hands, scratch_i, d, lot, lot + 1,
                     last, err, spent, bought, detail3, no_calls)
            pids[s] = SA.SOLVED
            params[s, 0] = 0.0
            if lot + 1 < 13:
                after = np.int64(o[O.LOT_BUYER + lot])
                _deal_on(R, (pids, params, table), rngs, o, hands, scratch_i, d, lot + 1, 13,
                         after if after >= 0 else last, err, spent, bought, detail3, no_calls)
            for dd in range(d + 1, deals):
                dealer2 = K._new_deal(R, rngs, o, hands, dd, scratch_i, 0, False, detail3,
                                      detail3, detail3, no_decks, no_decks)
                _deal_on(R, (pids, params, table), rngs, o, hands, scratch_i, dd, first, 13,
                         dealer2, err, spent, bought, detail3, no_calls)
            q[s, a] = _margin(R, leftover, scratch_i, s)
    return err[0, ERR_CODE] == OK


@jit(parallel=True)
def train_batch(seed, first, count, R, leftover, sigma, table, explore, d_regret, d_average,
                err):
    """Decision points ``first .. first + count - 1``: block b's regret and average
    increments into ``d_regret[b]``, ``d_average[b]``."""
    n = R[R_PLAYERS]
    blocks = d_regret.shape[0]
    for b in prange(blocks):
        scr = _scratch(n)
        rows = np.zeros(n, np.int64)
        q = np.zeros((n, A.ACTIONS))
        err1 = np.zeros((1, err.shape[1]), np.int64)
        d_regret[b, :, :] = 0.0
        d_average[b, :, :] = 0.0
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            if not _point(R, leftover, seed, first + k, TRAIN_STREAM, explore, table, scr, err1,
                          rows, q):
                err[0, :] = err1[0, :]
                break
            add_point(sigma, q, rows, d_regret[b], d_average[b])


@jit(parallel=True)
def evaluate(seed, first, count, R, leftover, sigma, table, q_sum, g_sq, visits, err):
    """Held-out decision points: per block, each information set's action values summed
    into ``q_sum[b]``, the squares of their gains over ``sigma`` into ``g_sq[b]``, its
    visits into ``visits[b]`` (every seat pooled)."""
    n = R[R_PLAYERS]
    blocks = q_sum.shape[0]
    for b in prange(blocks):
        scr = _scratch(n)
        rows = np.zeros(n, np.int64)
        q = np.zeros((n, A.ACTIONS))
        err1 = np.zeros((1, err.shape[1]), np.int64)
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            if not _point(R, leftover, seed, first + k, EVAL_STREAM, table, table, scr, err1,
                          rows, q):
                err[0, :] = err1[0, :]
                break
            add_values(sigma, q, rows, q_sum[b], g_sq[b], visits[b])


def _explore(probabilities: np.ndarray, legal: np.ndarray) -> np.ndarray:
    uniform_legal = legal / legal.sum(axis=1, keepdims=True)
    return (1 - EXPLORE) * probabilities + EXPLORE * uniform_legal


class AuktsionSolver(DealSampledCFR):
    game = "auktsion"
    method = ("regret matching on rollout action values inside Monte Carlo CFR over sampled "
              "matches (4,096 decision points an iteration: a match played under the current "
              "strategy, {:.0%} exploration, to a uniform deal and lot; every action of every "
              "seat holding the rank played out to the match's end by the kernel, on common "
              "random numbers); Linear CFR weights; payoff: final margin (own match score "
              "less the others' mean)")
    unit = "final margin (own match score less the others' mean), per seat and match"
    default_iterations = 300

    def __init__(self, rules: Rules, seed: int):
        self.rules = rules
        self.n = rules.players
        self.seed = seed
        self.settings = {}
        self.method = self.method.format(EXPLORE)
        self.R, self.leftover = pack(rules)
        self.abstraction: Abstraction = A.abstraction(rules)
        self.start(A.legal_mask())

    def _stacked(self, probabilities: np.ndarray) -> np.ndarray:
        t = cfr.pack_table(probabilities, A.VERSION)
        return stack_tables([t] * self.n)

    def increments(self, first: int, count: int, blocks: int, sigma: np.ndarray):
        d_regret, d_average = self.block_buffers(blocks)
        err = new_errors(1)
        train_batch(np.uint64(self.seed), first, count, self.R, self.leftover, sigma,
                    self._stacked(sigma), self._stacked(_explore(sigma, self.legal)),
                    d_regret, d_average, err)
        raise_on(err, self.game)
        return d_regret, d_average

    def exploitability(self, probabilities: np.ndarray) -> dict[str, Any]:
        """Per seat, the gain of a best response in the abstraction over the solution,
        per match, bracketed on held-out decision points and matches (never trained on).

        The cautious best response is chosen on ``HELD_OUT`` held-out decision points:
        at an information set it leaves the solution for its best action only where that
        action's mean gain there is ``Z`` standard errors above 0. ``in_sample`` is the
        exact best response's gain on those points, scaled to a match (the mean gain per
        point times the lots of a match): optimistic. ``value`` is the cautious best
        response played by one seat at every information set at once, against the
        solution, on ``HELD_OUT_MATCHES`` other held-out matches, less the solution's
        own margin on the same matches (common random numbers): a lower estimate, with
        its 95% interval over matches; the mean over seats, each seat's reported too."""
        from sim.games.auktsion.engine import run_chunk
        n, rows = self.n, self.legal.shape[0]
        table = self._stacked(probabilities)
        q_sum = np.zeros((16, rows, A.ACTIONS))
        g_sq = np.zeros_like(q_sum)
        visits = np.zeros((16, rows))
        err = new_errors(1)
        evaluate(np.uint64(self.seed), 0, HELD_OUT, self.R, self.leftover, probabilities,
                 table, q_sum, g_sq, visits, err)
        raise_on(err, self.game)
        best, top_gain = cautious_response(q_sum, g_sq, probabilities, self.legal, Z)
        lots = self.rules.deals_per_match * (12 if n == 3 else 13)
        in_sample = float(top_gain.sum() / HELD_OUT / n * lots)
        response = deviating(probabilities, best)
        br = cfr.pack_table(response, A.VERSION)
        sig = cfr.pack_table(probabilities, A.VERSION)
        pids = np.full(n, SA.SOLVED, np.int64)
        params = np.zeros((n, 1))
        labels = tuple(["solved"] * n)

        def margins(tables):
            policies = {"bid": (pids, params), "solution": stack_tables(tables)}
            score = run_chunk(self.rules, policies, labels, self.seed, EVAL_MATCH,
                              HELD_OUT_MATCHES)["seats"]["score"].reshape(-1, n)
            return score - (score.sum(axis=1, keepdims=True) - score) / (n - 1)

        base = margins([sig] * n)
        gains = np.column_stack([margins([br if t == s else sig for t in range(n)])[:, s]
                                 - base[:, s] for s in range(n)])
        return bracket(gains, self.unit, matches=HELD_OUT_MATCHES, in_sample=in_sample,
                       best_response_chosen_on=HELD_OUT, deviations=int((best >= 0).sum()),
                       infosets_visited=int((visits.sum(axis=0) > 0).sum()))


def make_solver(rules: Rules, seed: int, **settings) -> AuktsionSolver:
    """auktsion's solver takes no settings (the abstraction's are fixed: its module)."""
    if settings:
        from sim.errors import BidlabError
        raise BidlabError(f"auktsion solver settings {sorted(settings)}: it takes none")
    return AuktsionSolver(rules, seed)
