"""pitch's bidding solved by Monte Carlo CFR over deals (``sim/games/pitch/abstraction.py``).

One iteration is a batch of deals (``analysis/solvers/mccfr.py``). On each deal every seat's
payoff for every possible pitcher is played out once with the play policy (``greedy``:
the card play does not depend on the contract, so a deal needs ``players`` playouts);
then, for each seat in turn, the bidding around it is evaluated exactly against the
others' current strategies by dynamic programming over the bidding's states (highest
bid, its holder's place, held): forward for the reach of each state at the seat's turn,
backward for the value of each call. The seat's regrets grow by its counterfactual
regrets (Linear CFR: iteration t weighted t, as Pluribus did), its average strategy by
its current strategy times the reach.

A seat's payoff is its score for the deal (P14: its points, or minus the contract where
it pitched and was set back) less the mean of the others': a one-deal solution of a race
to the target, where what a rival scores brings the end nearer. (Own score alone lost to
``strength`` at two players, -0.36 match score a game over 100,000 games: it let the
rival pitch cheaply.) With two players this game is zero-sum, and CFR's average
converges to an equilibrium of the abstraction; with more there is no guarantee: the
exploitability measured on held-out deals is the check.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analysis.solvers.mccfr import DealSampledCFR, raise_on
from sim.cfr import Abstraction
from sim.errors import BidlabError
from sim.games.pitch import abstraction as A
from sim.games.pitch import kernel as K
from sim.games.pitch.rules import R_DEALER_HOLD, R_JOKER, R_LOW_CAPTURED, R_MIN_BID, R_PLAYERS, R_STUCK, pack
from sim.harness import new_errors
from sim.jit import jit, prange
from sim.rng import seed_stream
from sim.rules import Rules
from strategies import pitch as SP
from strategies.base import assign_seats

HELD_OUT = 100_000
"""Held-out deals the best response is chosen on, and as many it is scored on."""
TRAIN_STREAM = 1 << 41
EVAL_STREAM = 1 << 42
"""Streams of the training and held-out deals: far from any match's."""


@jit
def _state(high, place, held, n):
    return (high * (n + 1) + place + 1) * 2 + held


@jit
def _next(high, place, held, a, q):
    """The bidding state after the seat at place ``q`` takes action ``a``."""
    if a == A.HOLD_A:
        return high, place, 1
    if a == A.PASS_A:
        return high, place, held
    return a, q, 0


@jit
def _deal_score(points, pitcher, contract, seat):
    """P14: what the deal adds to ``seat``'s score."""
    mine = points[pitcher, seat]
    if seat != pitcher or mine >= contract:
        return float(mine)
    return -float(contract)


@jit
def _terminal(points, n, dealer, high, place, held, min_bid, stuck, seat):
    """Seat ``seat``'s payoff when the bidding ends in this state (P4, P5, P14): its deal
    score less the mean of the others' (a race to the target: what a rival scores
    brings the end nearer); 0 on a redeal."""
    if held:
        pitcher, contract = dealer, high
    elif high > 0:
        pitcher, contract = (dealer + 1 + place) % n, high
    elif stuck:
        pitcher, contract = dealer, min_bid
    else:
        return 0.0                                   # P5: a redeal
    others = 0.0
    for o in range(n):
        if o != seat:
            others += _deal_score(points, pitcher, contract, o)
    return _deal_score(points, pitcher, contract, seat) - others / (n - 1)


@jit
def _legal(a, q, high, n, R):
    return A.legal(a, q, high, n, R[R_MIN_BID], R[R_DEALER_HOLD])


@jit
def _values(seat, qi, points, cls, sigma, R, dealer, value, work):
    """``value[state]``: seat ``seat``'s expected deal score from the bidding state just
    after its own call at place ``qi``, the later places playing ``sigma``."""
    n = R[R_PLAYERS]
    for high in range(5):
        for place in range(-1, n):
            for held in range(2):
                value[_state(high, place, held, n)] = _terminal(
                    points, n, dealer, high, place, held, R[R_MIN_BID], R[R_STUCK], seat)
    for q in range(n - 1, qi, -1):
        s = (dealer + 1 + q) % n
        for high in range(5):
            row = A.infoset(cls[s], q, high, n)
            for place in range(-1, q):
                for held in range(2):
                    v = 0.0
                    for a in range(A.ACTIONS):
                        if sigma[row, a] > 0.0:
                            h2, p2, held2 = _next(high, place, held, a, q)
                            v += sigma[row, a] * value[_state(h2, p2, held2, n)]
                    work[_state(high, place, held, n)] = v
        for i in range(work.shape[0]):
            value[i] = work[i]


@jit
def _reach(qi, cls, sigma, R, dealer, reach, work):
    """``reach[state]``: the probability of each bidding state at place ``qi``'s turn,
    the earlier places playing ``sigma``."""
    n = R[R_PLAYERS]
    for i in range(reach.shape[0]):
        reach[i] = 0.0
    reach[_state(0, -1, 0, n)] = 1.0
    for q in range(qi):
        s = (dealer + 1 + q) % n
        for i in range(work.shape[0]):
            work[i] = 0.0
        for high in range(5):
            row = A.infoset(cls[s], q, high, n)
            for place in range(-1, q):
                w = reach[_state(high, place, 0, n)]
                if w == 0.0:
                    continue
                for a in range(A.ACTIONS):
                    if sigma[row, a] > 0.0:
                        h2, p2, held2 = _next(high, place, 0, a, q)
                        work[_state(h2, p2, held2, n)] += w * sigma[row, a]
        for i in range(work.shape[0]):
            reach[i] = work[i]


@jit
def _deal_points(R, seed, index, stream, play_pids, play_params, scratch_o, p, rng, rngs, work,
                 si, err, dealer, points, cls, empty, steps):
    """Deal ``index`` of ``stream``; each seat's hand class; ``points[pitcher, seat]``."""
    n = R[R_PLAYERS]
    seed_stream(rng, seed, index, stream)
    K.deal_for_solver(R, rng, si, scratch_o, empty)
    deck = 52 + R[R_JOKER]
    for s in range(n):
        cls[s] = A.hand_class(si[K.I_DEALT + s], n, deck, R[R_JOKER], R[R_LOW_CAPTURED], steps)
    for pitcher in range(n):
        if not K.points_if_pitching(R, scratch_o, p, rng, work, si, play_pids, play_params,
                                    rngs, err, dealer, pitcher, points[pitcher], empty):
            return False
    return True


@jit
def _action_values(qi, high, place, n, R, value, sigma_row, q):
    """The value ``q[a]`` of each action at place ``qi`` in the state (``high``,
    ``place``), from the values after it (0 for an illegal action); returns the value
    of playing ``sigma_row`` there."""
    mean = 0.0
    for a in range(A.ACTIONS):
        q[a] = 0.0
        if _legal(a, qi, high, n, R):
            h2, p2, held2 = _next(high, place, 0, a, qi)
            q[a] = value[_state(h2, p2, held2, n)]
            mean += sigma_row[a] * q[a]
    return mean


@jit(nrt=True)
def _seat_regrets(seat, points, cls, sigma, R, dealer, regret, average, weight, reach, value,
                  work, q):
    """Add seat ``seat``'s counterfactual regrets of one deal to ``regret`` and its
    reach-weighted strategy to ``average``; returns nothing."""
    n = R[R_PLAYERS]
    qi = (seat - dealer - 1 + n) % n
    _reach(qi, cls, sigma, R, dealer, reach, work)
    _values(seat, qi, points, cls, sigma, R, dealer, value, work)
    for high in range(5):
        row = A.infoset(cls[seat], qi, high, n)
        for place in range(-1, qi):
            w = reach[_state(high, place, 0, n)]
            if w == 0.0:
                continue
            mean = _action_values(qi, high, place, n, R, value, sigma[row], q)
            for a in range(A.ACTIONS):
                if _legal(a, qi, high, n, R):
                    regret[row, a] += w * (q[a] - mean)
                    average[row, a] += weight * w * sigma[row, a]


@jit(nrt=True)
def _scratch(n_params, n):
    o, p, rng, rngs, work, si = K.new_scratch(n_params)
    size = 5 * (n + 1) * 2
    return (o, p, rng, rngs, work, si, np.zeros((n, n), np.int64), np.zeros(n, np.int64),
            np.zeros(size), np.zeros(size), np.zeros(size), np.zeros(A.ACTIONS),
            np.empty((0, 1), np.int64))


@jit(parallel=True)
def train_batch(seed, first, count, R, play_pids, play_params, sigma, weight, d_regret,
                d_average, err, steps):
    """Deals ``first .. first + count - 1``: block b's regret and average increments
    into ``d_regret[b]``, ``d_average[b]``."""
    n = R[R_PLAYERS]
    blocks = d_regret.shape[0]
    for b in prange(blocks):
        o, p, rng, rngs, work, si, points, cls, reach, value, tmp, q, empty = _scratch(
            play_params.shape[1], n)
        for i in range(d_regret.shape[1]):
            for a in range(d_regret.shape[2]):
                d_regret[b, i, a] = 0.0
                d_average[b, i, a] = 0.0
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            index = first + k
            dealer = index % n
            if not _deal_points(R, seed, index, TRAIN_STREAM, play_pids, play_params, o, p,
                                rng, rngs, work, si, err, dealer, points, cls, empty, steps):
                break
            for seat in range(n):
                _seat_regrets(seat, points, cls, sigma, R, dealer, d_regret[b], d_average[b],
                              weight, reach, value, tmp, q)


@jit(parallel=True)
def evaluate(seed, first, count, R, play_pids, play_params, sigma, best, q_sum, gains, err,
             steps):
    """Held-out deals ``first .. first + count - 1``: with ``best`` empty, each seat's action values
    summed per information set into ``q_sum[seat]``; with ``best`` (the best response's
    action per seat and information set), each deal's gain of the best response over
    ``sigma`` per seat into ``gains[deal, seat]``."""
    n = R[R_PLAYERS]
    blocks = 16
    for b in prange(blocks):
        o, p, rng, rngs, work, si, points, cls, reach, value, tmp, q, empty = _scratch(
            play_params.shape[1], n)
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            dealer = k % n
            if not _deal_points(R, seed, first + k, EVAL_STREAM, play_pids, play_params, o, p, rng,
                                rngs, work, si, err, dealer, points, cls, empty, steps):
                break
            for seat in range(n):
                qi = (seat - dealer - 1 + n) % n
                _reach(qi, cls, sigma, R, dealer, reach, tmp)
                _values(seat, qi, points, cls, sigma, R, dealer, value, tmp)
                gain = 0.0
                for high in range(5):
                    row = A.infoset(cls[seat], qi, high, n)
                    for place in range(-1, qi):
                        w = reach[_state(high, place, 0, n)]
                        if w == 0.0:
                            continue
                        mean = _action_values(qi, high, place, n, R, value, sigma[row], q)
                        if best.shape[0] == 0:
                            for a in range(A.ACTIONS):
                                q_sum[b, seat, row, a] += w * q[a]
                        else:
                            gain += w * (q[best[seat, row]] - mean)
                if best.shape[0] > 0:
                    gains[k, seat] = gain


def _legal_mask(rules: Rules, n: int, steps: int) -> np.ndarray:
    R = pack(rules)
    mask = np.zeros((A.hands(steps) * n * A.HIGHS, A.ACTIONS), np.int64)
    for cls in range(A.hands(steps)):
        for place in range(n):
            for high in range(A.HIGHS):
                row = int(A.infoset(cls, place, high, n))
                for a in range(A.ACTIONS):
                    mask[row, a] = A.legal(a, place, high, n, R[R_MIN_BID], R[R_DEALER_HOLD])
    return mask


class PitchSolver(DealSampledCFR):
    game = "pitch"
    method = ("Monte Carlo CFR over deals (chance sampling, 4,096 deals an iteration), the "
              "bidding around each seat evaluated exactly against the others' current "
              "strategies; Linear CFR weights; payoff: the deal's score less the others' "
              "mean, the card play by greedy")
    default_iterations = 500

    def __init__(self, rules: Rules, seed: int, strength_steps: int = A.STRENGTH):
        if not (isinstance(strength_steps, int) and 1 <= strength_steps <= 100):
            raise BidlabError(f"pitch strength_steps={strength_steps!r}: give a whole number "
                              f"in 1..100 (default {A.STRENGTH})")
        self.rules = rules
        self.n = rules.players
        self.seed = seed
        self.steps = self.table_setting = strength_steps
        self.settings = {"strength_steps": strength_steps}
        self.R = pack(rules)
        self.abstraction: Abstraction = A.abstraction(rules, strength_steps)
        self.start(_legal_mask(rules, self.n, strength_steps))
        seats = assign_seats(SP.STRATEGIES, self.n, ["all=passive+greedy"])
        self.play_ids, self.play_params = seats.ids("play"), seats.params("play")

    def increments(self, first: int, count: int, blocks: int, sigma: np.ndarray):
        d_regret = np.zeros((blocks, *self.legal.shape))
        d_average = np.zeros_like(d_regret)
        err = new_errors(1)
        train_batch(np.uint64(self.seed), first, count, self.R, self.play_ids,
                    self.play_params, sigma, 1.0, d_regret, d_average, err, self.steps)
        raise_on(err, self.game)
        return d_regret, d_average

    def exploitability(self, probabilities: np.ndarray) -> dict[str, Any]:
        """Per seat, the gain of a best response in the abstract game over the
        solution, per deal: the best response is chosen on ``HELD_OUT`` held-out deals
        (the best call per information set, given them exactly), and its gain measured
        on ``HELD_OUT`` other held-out deals, so that the noise of the choice does not
        count as gain (it can then fall below 0, where no deviation the first deals
        suggest pays on the others). ``in_sample``: the same best response's gain on
        the deals it was chosen on, an optimistic figure. The figure is the mean over
        seats; each seat's is reported too."""
        n, rows = self.n, self.legal.shape[0]
        err = new_errors(1)
        q_sum = np.zeros((16, n, rows, A.ACTIONS))
        no_best = np.zeros((0, rows), np.int64)
        gains = np.zeros((HELD_OUT, n))
        evaluate(np.uint64(self.seed), 0, HELD_OUT, self.R, self.play_ids, self.play_params,
                 probabilities, no_best, q_sum, gains, err, self.steps)
        raise_on(err, self.game)
        q = q_sum.sum(axis=0)
        own = (q * probabilities[None]).sum(axis=2)
        q = np.where(self.legal[None] > 0, q, -np.inf)
        best = q.argmax(axis=2).astype(np.int64)
        in_sample = float((q.max(axis=2) - own).sum() / HELD_OUT / n)
        evaluate(np.uint64(self.seed), HELD_OUT, HELD_OUT, self.R, self.play_ids,
                 self.play_params, probabilities, best, q_sum, gains, err, self.steps)
        raise_on(err, self.game)
        per_deal = gains.mean(axis=1)
        half = 1.96 * per_deal.std(ddof=1) / np.sqrt(per_deal.size)
        seats = gains.mean(axis=0)
        return {"value": float(per_deal.mean()), "ci_low": float(per_deal.mean() - half),
                "ci_high": float(per_deal.mean() + half), "unit": "deal points per seat",
                "per_seat": [float(x) for x in seats], "deals": HELD_OUT,
                "in_sample": in_sample, "best_response_chosen_on": HELD_OUT}


def make_solver(rules: Rules, seed: int, **settings) -> PitchSolver:
    """``settings``: ``strength_steps`` (hand-strength steps of the abstraction)."""
    return PitchSolver(rules, seed, **settings)
