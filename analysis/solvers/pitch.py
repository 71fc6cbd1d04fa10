"""pitch's bidding solved by Monte Carlo CFR over deals (``sim/games/pitch/abstraction.py``).

One iteration is a batch of deals (``analysis/solvers/mccfr.py``). Each deal is dealt at
a match score drawn from the score states of self-play games (below); every seat's
points for every possible pitcher are played out once with the play policy (``greedy``:
the card play does not depend on the contract, so a deal needs ``players`` playouts);
then, for each seat in turn, the bidding around it is evaluated exactly against the
others' current strategies by dynamic programming over the bidding's states (highest
bid, its holder's place, held): forward for the reach of each state at the seat's turn,
backward for the value of each call. The seat's regrets grow by its counterfactual
regrets (Linear CFR: iteration t weighted t, as Pluribus did), its average strategy by
its current strategy times the reach.

A seat's payoff is its chance of winning the game after the deal. Where the deal ends
the game (P15-P17) that is 1 or 0, by the rules; otherwise it is the value of the new
match score, ``W[my distance to the target, the nearest rival's]``, the share of
games won from such a score in ``VALUE_GAMES`` self-play games of ``strength+greedy``
(distances of ``target`` and more in one cell). The same games give the score states
the training and held-out deals are dealt at, as often as those games reach them. So a
bid that takes the bidder out is worth the game, and a bid that stops a rival one point
from the target is worth what stopping him is worth. (Version 1 solved one deal: the
deal's score less the others' mean, blind to the score.)

With two players the game is zero-sum (``W`` is made antisymmetric), and CFR's average
converges to an equilibrium of the abstraction; with more there is no guarantee: the
exploitability measured on held-out deals is the check.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analysis.solvers.mccfr import DealSampledCFR, bracket, cautious_response, raise_on
from sim.cfr import Abstraction
from sim.errors import BidlabError
from sim.games.pitch import abstraction as A
from sim.games.pitch import core as C
from sim.games.pitch import kernel as K
from sim.games.pitch.rules import (
    R_DEALER_HOLD,
    R_JOKER,
    R_LOW_CAPTURED,
    R_MIN_BID,
    R_PLAYERS,
    R_SMUDGE,
    R_STUCK,
    R_TARGET,
    pack,
)
from sim.harness import new_errors
from sim.jit import jit, prange
from sim.rng import below, seed_stream
from sim.rules import Rules
from strategies import pitch as SP
from strategies.base import assign_seats

TYPICAL_TIME = "2 to 13 minutes on two cores (2 to 4 players)"
"""How long a solve at the default iterations takes on two cores: measured 100, 305 and
745 s at 2, 3 and 4 players on a machine busy with other work."""

VALUE_GAMES = 20_000
"""Self-play games that give the value of a match score and the score states dealt at."""
PRIOR = 5
"""Pseudo-games at an even share that every cell of the value table starts with."""
Z = 2.0
"""How many standard errors a deviation's gain must clear for the cautious best response
of the held-out exploitability to take it."""
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
def _payoffs(R, scores, points, owners, outlook, win, pay, after):
    """``pay[pitcher, contract, seat]``: each seat's payoff after the deal where
    ``pitcher`` pitches ``contract`` (P14-P17, then ``outlook``); ``pay[n, 0, seat]``
    after a redeal (P5: the score does not move). ``win``: the payoff is the chance of
    winning the game (1 or 0 where the deal ends it, else ``outlook``); otherwise the
    final margin, the seat's final score less the mean of the others' (the margin after
    the deal, plus ``outlook``'s expected gain in margin where the game goes on)."""
    n = R[R_PLAYERS]
    for s in range(n):
        pay[n, 0, s] = _outcome(scores, n, s, R[R_TARGET], outlook, win, -1)
    for pitcher in range(n):
        for contract in range(1, 5):
            made = points[pitcher, pitcher] >= contract
            for s in range(n):
                after[s] = points[pitcher, s]                               # P14
            if not made:
                after[pitcher] = -contract
            winner = C.game_winner(scores, 0, after, 0, owners[pitcher], 0, n, pitcher,
                                   contract, made, R[R_TARGET], R[R_SMUDGE])  # P15-P17
            for s in range(n):
                after[s] += scores[s]
            for s in range(n):
                pay[pitcher, contract, s] = _outcome(after, n, s, R[R_TARGET], outlook, win,
                                                     winner)


@jit
def _outcome(scores, n, seat, target, outlook, win, winner):
    """``seat``'s payoff at the match score ``scores``: the game's end if ``winner`` is
    a seat, else ``outlook`` by its and the nearest rival's distance to the target."""
    if win and winner >= 0:
        return 1.0 if seat == winner else 0.0
    margin = 0.0
    for s in range(n):
        if s != seat:
            margin -= scores[s] / (n - 1)
    margin += scores[seat]
    if winner >= 0:
        return margin
    cap = outlook.shape[0]
    rival = A.rival_distance(scores, seat, n, target)
    value = outlook[min(target - scores[seat], cap) - 1, min(rival, cap) - 1]
    return value if win else margin + value


@jit
def _terminal(pay, n, dealer, high, place, held, min_bid, stuck, seat):
    """Seat ``seat``'s payoff when the bidding ends in this state (P4, P5)."""
    if held:
        return pay[dealer, high, seat]
    if high > 0:
        return pay[(dealer + 1 + place) % n, high, seat]
    if stuck:
        return pay[dealer, min_bid, seat]
    return pay[n, 0, seat]                           # P5: a redeal


@jit
def _legal(a, q, high, n, R):
    return A.legal(a, q, high, n, R[R_MIN_BID], R[R_DEALER_HOLD])


@jit
def _values(seat, qi, pay, cls, sigma, R, dealer, value, work):
    """``value[state]``: seat ``seat``'s chance of winning from the bidding state just
    after its own call at place ``qi``, the later places playing ``sigma``."""
    n = R[R_PLAYERS]
    for high in range(5):
        for place in range(-1, n):
            for held in range(2):
                value[_state(high, place, held, n)] = _terminal(
                    pay, n, dealer, high, place, held, R[R_MIN_BID], R[R_STUCK], seat)
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
def _deal(R, seed, index, stream, play_pids, play_params, scratch_o, p, rng, rngs, work, si,
          err, states, outlook, win, points, owners, scores, after, pay, cls, empty, steps,
          buckets):
    """Deal ``index`` of ``stream`` at a score state drawn from ``states`` (scores, then
    the dealer): each seat's private class into ``cls`` and every outcome's payoffs into
    ``pay`` (``_payoffs``); returns the dealer, or -1 after an illegal card."""
    n = R[R_PLAYERS]
    seed_stream(rng, seed, index, stream)
    K.deal_for_solver(R, rng, si, scratch_o, empty)
    state = states[below(rng, states.shape[0])]
    for s in range(n):
        scores[s] = state[s]
    dealer = state[n]
    deck = 52 + R[R_JOKER]
    for s in range(n):
        hand = A.hand_class(si[K.I_DEALT + s], n, deck, R[R_JOKER], R[R_LOW_CAPTURED], steps)
        score = A.score_class(scores, s, n, R[R_TARGET], buckets)
        cls[s] = A.private_class(hand, score, buckets)
    for pitcher in range(n):
        if not K.points_if_pitching(R, scratch_o, p, rng, work, si, play_pids, play_params,
                                    rngs, err, dealer, pitcher, points[pitcher],
                                    owners[pitcher], empty):
            return -1
    _payoffs(R, scores, points, owners, outlook, win, pay, after)
    return dealer


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
def _seat_regrets(seat, pay, cls, sigma, R, dealer, regret, average, weight, reach, value,
                  work, q):
    """Add seat ``seat``'s counterfactual regrets of one deal to ``regret`` and its
    reach-weighted strategy to ``average``; returns nothing."""
    n = R[R_PLAYERS]
    qi = (seat - dealer - 1 + n) % n
    _reach(qi, cls, sigma, R, dealer, reach, work)
    _values(seat, qi, pay, cls, sigma, R, dealer, value, work)
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
    return (o, p, rng, rngs, work, si, np.zeros((n, n), np.int64),
            np.zeros((n, C.N_POINTS), np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64),
            np.zeros((n + 1, 5, n)), np.zeros(n, np.int64), np.zeros(size), np.zeros(size),
            np.zeros(size), np.zeros(A.ACTIONS), np.empty((0, 1), np.int64))


@jit(parallel=True)
def train_batch(seed, first, count, R, play_pids, play_params, states, outlook, win, sigma,
                weight, d_regret, d_average, err, steps, buckets):
    """Deals ``first .. first + count - 1``: block b's regret and average increments
    into ``d_regret[b]``, ``d_average[b]``."""
    n = R[R_PLAYERS]
    blocks = d_regret.shape[0]
    for b in prange(blocks):
        (o, p, rng, rngs, work, si, points, owners, scores, after, pay, cls, reach, value, tmp,
         q, empty) = _scratch(play_params.shape[1], n)
        for i in range(d_regret.shape[1]):
            for a in range(d_regret.shape[2]):
                d_regret[b, i, a] = 0.0
                d_average[b, i, a] = 0.0
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            dealer = _deal(R, seed, first + k, TRAIN_STREAM, play_pids, play_params, o, p, rng,
                           rngs, work, si, err, states, outlook, win, points, owners, scores,
                           after, pay, cls, empty, steps, buckets)
            if dealer < 0:
                break
            for seat in range(n):
                _seat_regrets(seat, pay, cls, sigma, R, dealer, d_regret[b], d_average[b],
                              weight, reach, value, tmp, q)


@jit(parallel=True)
def evaluate(seed, first, count, R, play_pids, play_params, states, outlook, win, sigma, best,
             q_sum, g_sq, gains, err, steps, buckets):
    """Held-out deals ``first .. first + count - 1``: with ``best`` empty, the reach-
    weighted action values summed per information set into ``q_sum[block]`` (every seat
    pooled: a place's best response is every seat's) and the squares of their gains over
    ``sigma`` into ``g_sq[block]``; with ``best`` (the best response's action per
    information set), each deal's gain of the best response over ``sigma`` per seat into
    ``gains[deal, seat]``."""
    n = R[R_PLAYERS]
    blocks = 16
    for b in prange(blocks):
        (o, p, rng, rngs, work, si, points, owners, scores, after, pay, cls, reach, value, tmp,
         q, empty) = _scratch(play_params.shape[1], n)
        for k in range(b * count // blocks, (b + 1) * count // blocks):
            dealer = _deal(R, seed, first + k, EVAL_STREAM, play_pids, play_params, o, p, rng,
                           rngs, work, si, err, states, outlook, win, points, owners, scores,
                           after, pay, cls, empty, steps, buckets)
            if dealer < 0:
                break
            for seat in range(n):
                qi = (seat - dealer - 1 + n) % n
                _reach(qi, cls, sigma, R, dealer, reach, tmp)
                _values(seat, qi, pay, cls, sigma, R, dealer, value, tmp)
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
                                q_sum[b, row, a] += w * q[a]
                                g_sq[b, row, a] += (w * (q[a] - mean)) ** 2
                        else:
                            if best[row] >= 0:
                                gain += w * (q[best[row]] - mean)
                if best.shape[0] > 0:
                    gains[k, seat] = gain


def _legal_mask(rules: Rules, n: int, classes: int) -> np.ndarray:
    R = pack(rules)
    mask = np.zeros((classes * n * A.HIGHS, A.ACTIONS), np.int64)
    for cls in range(classes):
        for place in range(n):
            for high in range(A.HIGHS):
                row = int(A.infoset(cls, place, high, n))
                for a in range(A.ACTIONS):
                    mask[row, a] = A.legal(a, place, high, n, R[R_MIN_BID], R[R_DEALER_HOLD])
    return mask


def score_model(rules: Rules, seed: int, win: bool, games: int | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """From ``games`` (default ``VALUE_GAMES``) self-play games of ``strength+greedy``:
    the outlook of a match score by a seat's distance ``d`` to the target and its nearest
    rival's ``r`` (both cut at ``target``), ``table[d - 1, r - 1]``: the share of games a
    seat won from there (``win``), or else what its margin gained from there to the end,
    with ``PRIOR`` pseudo-games at 1/n (at 0) per cell; and every deal's score state
    (scores, then the dealer; int64 rows)."""
    from analysis.runs import simulate
    n, target = rules.players, rules.target
    sim = simulate("pitch", games or VALUE_GAMES, seed=seed, rules=rules.to_json(), detail=True,
                   strategies=["all=strength+greedy"])
    deals = sim.table("deals").sort_values(["match", "deal", "seat"])
    before = (deals["score_after"] - deals["deal_score"]).to_numpy(np.int64).reshape(-1, n)
    dealer = deals["dealer"].to_numpy(np.int64)[::n]
    match = deals["match"].to_numpy(np.int64)[::n]
    seats = sim.table("seats").sort_values(["match", "seat"])
    if win:
        outcome = seats["win"].to_numpy(np.float64).reshape(-1, n)[match]
    else:
        outcome = _margins(seats["score"].to_numpy(np.float64).reshape(-1, n)[match]
                           - before)
    distance = np.clip(target - before, 1, target)
    total, count = np.zeros((target, target)), np.zeros((target, target))
    for s in range(n):
        rival = np.delete(distance, s, axis=1).min(axis=1)
        np.add.at(total, (distance[:, s] - 1, rival - 1), outcome[:, s])
        np.add.at(count, (distance[:, s] - 1, rival - 1), 1)
    table = (total + PRIOR * (1 / n if win else 0.0)) / (count + PRIOR)
    if n == 2:                # zero-sum: one seat's outlook is the other's complement
        table = (table + (1 if win else 0) - table.T) / 2
    return table, np.column_stack([before, dealer])


def _margins(scores: np.ndarray) -> np.ndarray:
    """Each seat's score less the mean of the others' (rows of seats)."""
    n = scores.shape[1]
    return scores - (scores.sum(axis=1, keepdims=True) - scores) / (n - 1)


class PitchSolver(DealSampledCFR):
    game = "pitch"
    method = ("Monte Carlo CFR over deals (chance sampling, 4,096 deals an iteration) at "
              "match scores from self-play, the bidding around each seat evaluated exactly "
              "against the others' current strategies; Linear CFR weights; payoff: {}, by "
              "the rules where the deal ends the game, else by an outlook table of "
              "self-play games; the card play by greedy")
    units = {False: "final margin (own score less the others' mean)",
             True: "chance of winning the game"}
    default_iterations = 2000

    def __init__(self, rules: Rules, seed: int, strength_steps: int = A.STRENGTH,
                 score_buckets: int = A.SCORE_BUCKETS, win: int = 0):
        for name, v, lo, hi, default in (
                ("strength_steps", strength_steps, 1, 100, A.STRENGTH),
                ("score_buckets", score_buckets, 1, 30, A.SCORE_BUCKETS), ("win", win, 0, 1, 0)):
            if not (isinstance(v, int) and lo <= v <= hi):
                raise BidlabError(f"pitch {name}={v!r}: give a whole number in {lo}..{hi} "
                                  f"(default {default})")
        self.rules = rules
        self.n = rules.players
        self.seed = seed
        self.steps, self.buckets = strength_steps, score_buckets
        self.table_settings = (strength_steps, score_buckets)
        self.settings = {"strength_steps": strength_steps, "score_buckets": score_buckets,
                         "win": win}
        self.win = bool(win)
        self.method = self.method.format(self.units[self.win])
        self.unit = self.units[self.win] + ", per seat and deal"
        self.R = pack(rules)
        self.abstraction: Abstraction = A.abstraction(rules, strength_steps, score_buckets, win)
        self.start(_legal_mask(rules, self.n, A.hands(strength_steps, score_buckets)))
        seats = assign_seats(SP.STRATEGIES, self.n, ["all=passive+greedy"])
        self.play_ids, self.play_params = seats.ids("play"), seats.params("play")
        self.outlook, self.states = score_model(rules, seed, self.win)

    def _args(self) -> tuple:
        return (self.R, self.play_ids, self.play_params, self.states, self.outlook, self.win)

    def increments(self, first: int, count: int, blocks: int, sigma: np.ndarray):
        d_regret, d_average = self.block_buffers(blocks)
        err = new_errors(1)
        train_batch(np.uint64(self.seed), first, count, *self._args(), sigma, 1.0, d_regret,
                    d_average, err, self.steps, self.buckets)
        raise_on(err, self.game)
        return d_regret, d_average

    def exploitability(self, probabilities: np.ndarray) -> dict[str, Any]:
        """Per seat, the gain of a best response in the abstract game over the solution,
        per deal, bracketed on held-out deals (never the training deals).

        The best response is chosen on ``HELD_OUT`` held-out deals (every seat's visits
        pooled: the game looks the same from every seat at a place), where the action
        values of every information set are known exactly. ``in_sample`` is its gain on
        those deals: the exact best response of that sample, which is optimistic (it
        also exploits the sample's luck, and more so the more information sets there
        are), so an upper estimate. The figure ``value`` is the gain of a cautious best
        response, which leaves the solution only where its best action's gain on the
        first deals is ``Z`` standard errors above 0, played at every information set at
        once on ``HELD_OUT`` other held-out deals: any fixed deviation's gain is at most
        the best response's, so this is a lower estimate, with its 95% interval over
        deals. The figure is the mean over seats; each seat's is reported too."""
        n, rows = self.n, self.legal.shape[0]
        err = new_errors(1)
        q_sum = np.zeros((16, rows, A.ACTIONS))
        g_sq = np.zeros_like(q_sum)
        no_best = np.zeros(0, np.int64)
        gains = np.zeros((HELD_OUT, n))
        evaluate(np.uint64(self.seed), 0, HELD_OUT, *self._args(), probabilities, no_best,
                 q_sum, g_sq, gains, err, self.steps, self.buckets)
        raise_on(err, self.game)
        best, top_gain = cautious_response(q_sum, g_sq, probabilities, self.legal, Z)
        in_sample = float(top_gain.sum() / HELD_OUT / n)
        evaluate(np.uint64(self.seed), HELD_OUT, HELD_OUT, *self._args(), probabilities, best,
                 q_sum, g_sq, gains, err, self.steps, self.buckets)
        raise_on(err, self.game)
        return bracket(gains, self.unit, deals=HELD_OUT, in_sample=in_sample,
                       best_response_chosen_on=HELD_OUT, deviations=int((best >= 0).sum()))


def make_solver(rules: Rules, seed: int, **settings) -> PitchSolver:
    """``settings``: ``strength_steps`` (hand-strength steps of the abstraction),
    ``score_buckets`` (its distance-to-target buckets) and ``win`` (1: maximize the
    chance of winning the game instead of the final margin)."""
    return PitchSolver(rules, seed, **settings)
