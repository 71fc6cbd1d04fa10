"""aukcio's bidding solved by regret matching on rollout action values
(``sim/games/aukcio/abstraction.py``; ``analysis/solvers/mccfr.py`` for the batches).

A match is a race over up to 16 lots (32 with two decks): there is no per-deal tree to
walk exactly, as pitch's solver does. Instead each training "deal" k of an iteration is
one match, dealt from (seed, k) on ``TRAIN_STREAM`` (far from any match's stream):

1. the match is played under the current strategy sigma, every seat on it, each seat
   leaving it for a uniform action with probability ``EXPLORE`` at a lot (so that the
   states sigma never reaches are visited too), up to a lot drawn uniformly from the
   deck; a match that ends before it gives nothing;
2. at that lot (its card turned, the ace draws made, K10) each seat that may bid tries
   every action in turn: the state is restored, the seat's ceiling is the action's, the
   others play sigma, and the rest of the lot and of the match is played out by the
   kernel's own lot play (``sim/games/aukcio/kernel.py``: sitting out, ace draws,
   payment without change, reshuffles, unsold cards all by the rules), every action on
   common random numbers (the same deck, draw pile and policy draws);
3. an action's value is the seat's match score less the mean of the others' (a win
   scores 1, a draw 0 for all: what the tournament ranks), and the seat's regret of
   each action grows by its value less the value of sigma's mix there, its average
   strategy by sigma's row (Linear CFR weights, ``mccfr``).

This is regret matching on sampled one-lot deviations, with every seat's later lots on
sigma: with three or more players there is no guarantee of convergence, and the
held-out exploitability is the check.
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
from sim import harness as H
from sim.cfr import Abstraction, pack_table, stack_tables
from sim.errors import BidlabError
from sim.games.aukcio import abstraction as A
from sim.games.aukcio import kernel as K
from sim.games.aukcio import obs as O
from sim.games.aukcio.rules import FACE_PER_DECK, R_DECKS, R_FIRST_DEALER, R_PLAYERS, pack
from sim.jit import jit, prange
from sim.rng import below, seed_stream, uniform
from sim.rules import Rules
from strategies import aukcio as SA

TYPICAL_TIME = ("9 to 18 minutes on one thread of a two-core machine busy with other work "
                "(3 or 4 players, either bidding form)")
"""Measured at the default iterations (2,000), 1 thread: 512 s (3 players, beside a test
run); with four other solver and tournament processes on the two cores 1,064 s (3
players), 1,104 s (4 players), 1,112 s (``bidding=single``); the README has the curves."""

TRAIN_STREAM = 1 << 41
EVAL_STREAM = 1 << 42
"""Streams of the training and held-out matches: far from any match's."""
EXPLORE = 0.05
"""The chance that a seat plays a uniform action at a lot before the decision lot."""
Z = 2.0
"""How many standard errors a deviation's gain must clear for the cautious best response
of the held-out exploitability to take it."""
HELD_OUT = 200_000
"""Held-out decision points the best response is chosen on."""
SCORED = 200_000
"""Other held-out matches it is scored on."""
SIGMA, EXPLORING, FORCED = 0, 1, 2
"""Tables of the stacked array the playouts read (``_tables``): sigma, sigma with
exploration, then one table per action that plays it everywhere (the seat on trial)."""


def _tables(sigma: np.ndarray, n: int, explore: float) -> np.ndarray:
    """Stacked tables (``sim.cfr.stack_tables``) of ``n`` seats, then the entries
    ``n + SIGMA``, ``n + EXPLORING``, ``n + FORCED + a``; every seat starts on sigma. A
    playout points a seat at another entry by rewriting its start."""
    rows, actions = sigma.shape
    tables = [pack_table(sigma, A.VERSION)] * n
    tables += [pack_table(sigma, A.VERSION),
               pack_table((1 - explore) * sigma + explore / actions, A.VERSION)]
    for a in range(actions):
        pure = np.zeros_like(sigma)
        pure[:, a] = 1.0
        tables.append(pack_table(pure, A.VERSION))
    return stack_tables(tables)


@jit
def _point_to(mine, seat, entry):
    """Seat ``seat`` plays the stacked table's entry ``entry`` (``_tables``)."""
    seats = np.int64(mine[0]) - FORCED - A.ACTIONS      # the first ``seats`` entries
    mine[1 + seat] = mine[1 + seats + entry]


@jit
def _seed(rngs, seed, index, stream, n):
    seed_stream(rngs[0], seed, index, stream)
    for s in range(n):
        seed_stream(rngs[1 + s], seed, index, stream + 1 + s)


@jit
def _score(winner, seat, n):
    """The seat's match score less the mean of the others' (a win 1, a draw 0)."""
    if winner < 0:
        return 0.0
    return 1.0 if winner == seat else -1.0 / (n - 1)


@jit
def _lead_in(R, pids, params, mine, sc, stop, explore, pick):
    """Deal the match seeded in ``sc``'s streams and play it to lot ``stop``, its card
    turned (``_open_lot``); seats explore (``EXPLORE``) by the ``pick`` stream. Returns
    (reached, turner, sitting_out, card, mark, first speaker)."""
    (rngs, g, piles, suits, counts, h, o, bidders, pay, room, levels, best, seat_out,
     lot_out, offsets, err, log, no_deals) = sc
    n = R[R_PLAYERS]
    K._deal(R, rngs, g, piles, suits, counts, h, o, log, no_deals, 0)
    turner, sitting_out, lot = K._next_seat(R[R_FIRST_DEALER], n), -1, 0
    while g[K.G_ASIZE] > 0:
        head = g[K.G_AHEAD]
        card, mark = piles[K.P_AUCTION, head], piles[K.P_MARK, head]
        g[K.G_AHEAD] = (head + 1) % K.RING
        g[K.G_ASIZE] -= 1
        first = K._open_lot(R, rngs, g, piles, suits, counts, h, o, card, turner,
                            sitting_out, lot, log, seat_out, 0)
        if lot == stop:
            return True, turner, sitting_out, card, mark, first
        for s in range(n):
            _point_to(mine, s, EXPLORING if uniform(pick) < explore else SIGMA)
        buyer, done = K._lot(R, pids, params, mine, rngs, g, piles, suits, counts, h, o,
                             bidders, pay, room, levels, best, card, mark, lot, first, 0, -1,
                             0, K.NO_CALL, 0, seat_out, lot_out, offsets, err, log)
        if err[0, 0] != 0 or done >= 0:
            break
        sitting_out = buyer
        turner = K._next_seat(turner, n)
        lot += 1
    return False, turner, sitting_out, 0, 0, 0


@jit
def _copy(dst, src):
    """The first seven arrays of ``src`` (the match state: streams, scalars, piles,
    money cards, hands, the public view) into ``dst``'s."""
    _copy2(dst[0], src[0])
    _copy1(dst[1], src[1])
    _copy2(dst[2], src[2])
    _copy2(dst[3], src[3])
    _copy2(dst[4], src[4])
    _copy2(dst[5], src[5])
    _copy1(dst[6], src[6])


@jit(inline=True)
def _copy1(dst, src):
    for i in range(dst.shape[0]):
        dst[i] = src[i]


@jit(inline=True)
def _copy2(dst, src):
    for i in range(dst.shape[0]):
        for j in range(dst.shape[1]):
            dst[i, j] = src[i, j]


@jit
def _trial(R, pids, params, mine, sc, seat, entry, turner, card, mark, lot, first):
    """The rest of the match from the lot just turned, ``seat`` on the stacked entry
    ``entry`` for this lot and on sigma after it, the others on sigma. Returns the
    winner (-1: a draw)."""
    (rngs, g, piles, suits, counts, h, o, bidders, pay, room, levels, best, seat_out,
     lot_out, offsets, err, log, no_deals) = sc
    n = R[R_PLAYERS]
    _point_to(mine, seat, entry)
    buyer, done = K._lot(R, pids, params, mine, rngs, g, piles, suits, counts, h, o, bidders,
                         pay, room, levels, best, card, mark, lot, first, 0, -1, 0, K.NO_CALL,
                         0, seat_out, lot_out, offsets, err, log)
    _point_to(mine, seat, SIGMA)
    if err[0, 0] != 0 or done >= 0:
        return buyer if done >= 0 else -1
    winner, _, _, _ = K._play_lots(R, pids, params, mine, rngs, g, piles, suits, counts, h,
                                   o, bidders, pay, room, levels, best, K._next_seat(turner, n),
                                   buyer, lot + 1, 0, 0, seat_out, lot_out, offsets, err, log)
    return winner


@jit
def decision_point(R, pids, params, mine, sc, snap, gains, seed, index, stream, explore, q,
                   rows):
    """Training or held-out deal ``index`` of ``stream``: the match to a uniform lot (its
    lead-in exploring with probability ``explore``), then every action of every seat
    that may bid there played out (module docstring). ``q[s, a]``: the values, ``rows[s]``
    the seat's information set (-1: it sits out, or the match ended before the lot)."""
    n = R[R_PLAYERS]
    rngs = sc[0]
    _seed(rngs, seed, index, stream, n)
    pick = snap[7]
    seed_stream(pick[0], seed, index, stream + 8)
    stop = below(pick[0], FACE_PER_DECK * R[R_DECKS])
    for s in range(n):
        rows[s] = -1
    reached, turner, sitting_out, card, mark, first = _lead_in(R, pids, params, mine, sc, stop,
                                                               explore, pick[0])
    for s in range(n):
        _point_to(mine, s, SIGMA)
    if not reached:
        return
    g, h, o = sc[1], sc[5], sc[6]
    SA.lot_gains(np.int64(o[O.CARD]), n, g[K.G_IN_DECK], g[K.G_OWNED:K.G_OWNED + n], gains)
    _copy(snap, sc)
    for s in range(n):
        _copy(sc, snap)                      # the lot as turned, before any trial
        if o[O.IN_LOT + s] == 0:
            continue
        o[O.SEAT] = s
        rows[s] = A.observed_infoset(o, h[s], gains)
        for a in range(q.shape[1]):
            _copy(sc, snap)
            winner = _trial(R, pids, params, mine, sc, s, FORCED + a, turner, card, mark,
                            stop, first)
            q[s, a] = _score(winner, s, n)
    _copy(sc, snap)


@jit
def full_match(R, pids, params, mine, sc, seed, index, stream):
    """Held-out match ``index`` of ``stream`` from its deal, every seat on its stacked
    table; returns the winner (-1: a draw)."""
    (rngs, g, piles, suits, counts, h, o, bidders, pay, room, levels, best, seat_out,
     lot_out, offsets, err, log, no_deals) = sc
    n = R[R_PLAYERS]
    _seed(rngs, seed, index, stream, n)
    K._deal(R, rngs, g, piles, suits, counts, h, o, log, no_deals, 0)
    winner, _, _, _ = K._play_lots(R, pids, params, mine, rngs, g, piles, suits, counts, h, o,
                                   bidders, pay, room, levels, best,
                                   K._next_seat(R[R_FIRST_DEALER], n), -1, 0, 0, 0, seat_out,
                                   lot_out, offsets, err, log)
    return winner


@jit(nrt=True)
def scratch(n, tables):
    """One thread's playout state: ``kernel.new_scratch`` and one match's outputs
    (``sc``), the saved state of a decision lot and the lot pick's stream (``snap``),
    its own copy of the stacked tables, and the gains, values and rows of a point."""
    parts = K.new_scratch()
    sc = (parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], parts[6], parts[7],
          parts[8], parts[9], parts[10], parts[11], np.zeros((K.S_COLS, 1, n), np.int64),
          np.zeros((0, K.L_COLS), np.int64), np.zeros(2, np.int64),
          np.zeros((1, H.ERR_SIZE), np.int64), np.zeros((0, 3), np.int64),
          np.zeros((0, 1), np.int64))
    snap = (parts[0].copy(), parts[1].copy(), parts[2].copy(), parts[3].copy(),
            parts[4].copy(), parts[5].copy(), parts[6].copy(),
            np.zeros((1, 4), np.uint64))
    return (sc, snap, tables.copy(), np.zeros((K.MAX_PLAYERS, SA.GAIN_COLS), np.int64),
            np.zeros((n, A.ACTIONS)), np.zeros(n, np.int64))


@jit(parallel=True)
def train_batch(R, pids, params, tables, seed, first, count, sigma, explore, d_regret,
                d_average, err):
    """Deals ``first .. first + count - 1``: block b's regret and average increments into
    ``d_regret[b]``, ``d_average[b]``."""
    n = R[R_PLAYERS]
    blocks = d_regret.shape[0]
    for b in prange(blocks):
        sc, snap, mine, gains, q, rows = scratch(n, tables)
        for i in range(d_regret.shape[1]):
            for a in range(d_regret.shape[2]):
                d_regret[b, i, a] = 0.0
                d_average[b, i, a] = 0.0
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            decision_point(R, pids, params, mine, sc, snap, gains, seed, first + k,
                           TRAIN_STREAM, explore, q, rows)
            if sc[15][0, 0] != 0:
                for j in range(err.shape[1]):
                    err[0, j] = sc[15][0, j]
                break
            add_point(sigma, q, rows, d_regret[b], d_average[b])


@jit(parallel=True)
def action_values(R, pids, params, tables, seed, first, count, sigma, q_sum, g_sq, visits,
                  err):
    """Held-out decision points ``first ..``: per block, each information set's action
    values summed (every seat pooled) and the squares of their gains over sigma."""
    n = R[R_PLAYERS]
    blocks = q_sum.shape[0]
    for b in prange(blocks):
        sc, snap, mine, gains, q, rows = scratch(n, tables)
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            decision_point(R, pids, params, mine, sc, snap, gains, seed, first + k,
                           EVAL_STREAM, 0.0, q, rows)
            if sc[15][0, 0] != 0:
                for j in range(err.shape[1]):
                    err[0, j] = sc[15][0, j]
                break
            add_values(sigma, q, rows, q_sum[b], g_sq[b], visits[b])


@jit(parallel=True)
def paired_matches(R, pids, params, tables, seed, first, count, gains_out, err):
    """Held-out matches ``first ..`` on ``EVAL_STREAM`` (after the decision points):
    each seat's score with every seat on sigma, and with that seat alone on the stacked
    entry ``FORCED`` (the best response), the others on sigma, on the same streams;
    ``gains_out[match, seat]``: the difference."""
    n = R[R_PLAYERS]
    blocks = 16
    for b in prange(blocks):
        sc, snap, mine, gains, q, rows = scratch(n, tables)
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            base = full_match(R, pids, params, mine, sc, seed, first + k, EVAL_STREAM)
            for s in range(n):
                _point_to(mine, s, FORCED)
                winner = full_match(R, pids, params, mine, sc, seed, first + k, EVAL_STREAM)
                _point_to(mine, s, SIGMA)
                gains_out[k, s] = _score(winner, s, n) - _score(base, s, n)
            if sc[15][0, 0] != 0:
                for j in range(err.shape[1]):
                    err[0, j] = sc[15][0, j]
                break


class AukcioSolver(DealSampledCFR):
    game = "aukcio"
    method = ("regret matching on rollout action values over sampled matches (4,096 an "
              "iteration): each match played under the current strategy (5% exploration) "
              "to a uniform lot, where each bidding seat's every ceiling is played out to "
              "the match's end by the kernel, the others on the current strategy, on "
              "common random numbers; Linear CFR weights; payoff: the seat's match score "
              "less the others' mean")
    unit = "match score less the others' mean, per seat and match"
    default_iterations = 2000

    def __init__(self, rules: Rules, seed: int):
        self.rules = rules
        self.n = rules.players
        self.seed = seed
        self.settings = {}
        self.R = pack(rules)
        self.abstraction: Abstraction = A.abstraction(rules)
        self.start(np.ones((A.INFOSETS, A.ACTIONS), np.int64))
        self.pids = np.full(self.n, SA.SOLVED, np.int64)
        self.params = np.zeros((self.n, 1))

    def increments(self, first: int, count: int, blocks: int, sigma: np.ndarray):
        d_regret, d_average = self.block_buffers(blocks)
        err = H.new_errors(1)
        train_batch(self.R, self.pids, self.params, _tables(sigma, self.n, EXPLORE),
                    np.uint64(self.seed), first, count, sigma, EXPLORE, d_regret, d_average,
                    err)
        raise_on(err, self.game)
        return d_regret, d_average

    def best_response(self, probabilities: np.ndarray, points: int = HELD_OUT
                      ) -> tuple[np.ndarray, float, np.ndarray]:
        """The cautious best response chosen on ``points`` held-out decision points:
        (its action per information set, -1 where it keeps the solution's mix; the
        in-sample gain per seat and match; the visits per information set)."""
        rows = self.legal.shape[0]
        q_sum = np.zeros((16, rows, A.ACTIONS))
        g_sq = np.zeros_like(q_sum)
        visits = np.zeros((16, rows), np.int64)
        err = H.new_errors(1)
        action_values(self.R, self.pids, self.params, _tables(probabilities, self.n, 0.0),
                      np.uint64(self.seed), 0, points, probabilities, q_sum, g_sq, visits, err)
        raise_on(err, self.game)
        best, top_gain = cautious_response(q_sum, g_sq, probabilities, self.legal, Z)
        lots = FACE_PER_DECK * self.rules.decks     # one lot in ``lots`` is sampled
        return best, float(top_gain.sum() * lots / points / self.n), visits.sum(axis=0)

    def exploitability(self, probabilities: np.ndarray) -> dict[str, Any]:
        """Per seat, the gain of a cautious best response over the solution, per match,
        on held-out matches (never the training ones).

        The best response is chosen on ``HELD_OUT`` held-out decision points (every
        seat pooled), from each information set's action values there: it leaves the
        solution only where its best action's summed gain is ``Z`` standard errors above
        0. ``in_sample`` is the gain of the best action everywhere on those points (an
        optimistic figure: it exploits the sample's luck too). ``value``: one seat
        plays the cautious best response in every information set at once for whole
        matches against the solution on ``SCORED`` other held-out matches, paired with
        the solution itself on the same streams; the mean over seats of the difference
        in match score less the others' mean, with its 95% interval over matches."""
        best, in_sample, _ = self.best_response(probabilities)
        response = deviating(probabilities, best)
        # the stacked entry FORCED becomes the best response (the others stay as they are)
        sigma = pack_table(probabilities, A.VERSION)
        br = stack_tables([sigma] * (self.n + FORCED) + [pack_table(response, A.VERSION)]
                          + [sigma] * (A.ACTIONS - 1))
        gains = np.zeros((SCORED, self.n))
        err = H.new_errors(1)
        paired_matches(self.R, self.pids, self.params, br, np.uint64(self.seed), 1 << 30,
                       SCORED, gains, err)
        raise_on(err, self.game)
        seat_half = 1.96 * gains.std(axis=0, ddof=1) / np.sqrt(SCORED)
        return bracket(gains, self.unit, per_seat_half_width=[float(x) for x in seat_half],
                       matches=SCORED, in_sample=in_sample, best_response_chosen_on=HELD_OUT,
                       deviations=int((best >= 0).sum()))


def make_solver(rules: Rules, seed: int, **settings) -> AukcioSolver:
    """No settings: the abstraction is fixed (``sim/games/aukcio/abstraction.py``)."""
    if settings:
        raise BidlabError(f"aukcio solver: no setting {sorted(settings)[0]!r}; its "
                          f"abstraction has no settings to change (drop --setting)")
    return AukcioSolver(rules, seed)
