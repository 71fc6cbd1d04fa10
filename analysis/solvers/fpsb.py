"""fpsb solved by CFR+ on its value and bid grids (``sim/games/fpsb/abstraction.py``).

The game is one simultaneous decision, so an iteration is one full-width regret-matching
step: every value cell's counterfactual value of every bid cell is computed exactly
against the current strategy (the rivals' bid distribution is piecewise uniform, so
its CDF is piecewise linear and the expected payoff of a bid cell is a polynomial
integral, done by Gauss-Legendre quadrature exactly), then CFR+ updates the regrets
and the linear average. The seats are symmetric and share one strategy. No sampling:
the held-out exploitability draws fresh values from the seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim import cfr
from sim.games.fpsb import abstraction as A
from sim.jit import jit, prange
from sim.rng import seed_stream, uniform
from sim.rules import Rules

TYPICAL_TIME = "about 10 s on two cores"
"""How long a solve at the default iterations takes on two cores (said before a solve
that ``bidlab compare --solved --solve-missing`` starts)."""

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(6)   # exact for degree <= 11 >= n
NODES, WEIGHTS = (_NODES + 1) / 2, _WEIGHTS / 2
HELD_OUT = 200_000
"""Fresh values the exploitability is measured on."""
BR_GRID = 4000
"""Bids of the grid best response (evenly spaced on [0, 1))."""
EVAL_STREAM = 1 << 40
"""The random streams of the held-out values: far from any match's streams."""


@jit
def bid_cdf(sigma, out):
    """``out[k]``: probability that a rival bids below cell edge ``k / B``."""
    values, bids = sigma.shape
    out[0] = 0.0
    for j in range(bids):
        mass = 0.0
        for i in range(values):
            mass += sigma[i, j]
        out[j + 1] = out[j] + mass / values


@jit
def cell_moments(cdf, n, nodes, weights, a, c):
    """Per bid cell j, for a bid uniform in it against ``n - 1`` rivals: ``a[j]`` the
    probability of winning, ``c[j]`` the expected payment when winning; the expected
    payoff of value ``v`` is ``v a[j] - c[j]``."""
    bids = a.shape[0]
    for j in range(bids):
        aj = 0.0
        cj = 0.0
        for q in range(nodes.shape[0]):
            t = nodes[q]
            win = (cdf[j] + t * (cdf[j + 1] - cdf[j])) ** (n - 1)
            aj += weights[q] * win
            cj += weights[q] * win * (j + t) / bids
        a[j] = aj
        c[j] = cj


@jit(nrt=True)
def iterate(regret, average, sigma, legal, n, first, count, nodes, weights):
    """CFR+ iterations ``first .. first + count - 1`` (1-based), all seats at once."""
    values, bids = regret.shape
    cdf = np.zeros(bids + 1)
    a = np.zeros(bids)
    c = np.zeros(bids)
    value = np.zeros(bids)
    total = np.zeros(values)
    for t in range(first, first + count):
        bid_cdf(sigma, cdf)
        cell_moments(cdf, n, nodes, weights, a, c)
        for i in range(values):
            v = (i + 0.5) / values          # the payoff is linear in v: the cell's mean
            for j in range(bids):
                value[j] = v * a[j] - c[j]
            cfr.cfr_plus_update(regret, total, i, sigma[i], value, 1.0)
            cfr.current_strategy(regret, legal, i, sigma[i])
            cfr.average_into(average, i, sigma[i], float(t) * t)


@jit(parallel=True)
def held_out(sigma, n, seed, count, nodes, weights, grid, out):
    """Per fresh value k (``out[k]``): value, the solution's expected payoff, the grid
    best response's, and the solution's mean bid."""
    values, bids = sigma.shape
    cdf = np.zeros(bids + 1)
    bid_cdf(sigma, cdf)
    a = np.zeros(bids)
    c = np.zeros(bids)
    cell_moments(cdf, n, nodes, weights, a, c)
    best_win = np.zeros(grid)
    for g in range(grid):
        x = g / grid * bids
        j = min(np.int64(x), bids - 1)
        best_win[g] = (cdf[j] + (x - j) * (cdf[j + 1] - cdf[j])) ** (n - 1)
    for k in prange(count):
        rng = np.empty(4, np.uint64)
        seed_stream(rng, seed, k, EVAL_STREAM)
        v = uniform(rng)
        i = A.value_cell(v, values)
        mine = 0.0
        mean_bid = 0.0
        for j in range(bids):
            mine += sigma[i, j] * (v * a[j] - c[j])
            mean_bid += sigma[i, j] * (j + 0.5) / bids
        best = 0.0
        for g in range(grid):
            best = max(best, (v - g / grid) * best_win[g])
        out[k, 0] = v
        out[k, 1] = mine
        out[k, 2] = best
        out[k, 3] = mean_bid


class FpsbSolver:
    method = ("CFR+ (regret matching+, quadratic averaging), full width: exact counterfactual "
              "values of every bid cell for every value cell, one strategy for every seat")
    default_iterations = 10_000

    def __init__(self, rules: Rules, seed: int):
        self.n = rules.players
        self.seed = seed
        self.abstraction = A.abstraction(rules)
        shape = (A.VALUES, A.BIDS)
        self.legal = np.ones(shape, np.int64)
        self.regret = np.zeros(shape)
        self.average = np.zeros(shape)
        self.sigma = np.full(shape, 1.0 / A.BIDS)
        self.iteration = 0

    def run(self, iterations: int) -> None:
        iterate(self.regret, self.average, self.sigma, self.legal, self.n, self.iteration + 1,
                iterations, NODES, WEIGHTS)
        self.iteration += iterations

    def probabilities(self) -> np.ndarray:
        return cfr.normalized(self.average, self.legal)

    def exploitability(self, probabilities: np.ndarray) -> dict[str, Any]:
        """The grid best response's gain per fresh value, its mean with a 95% interval,
        relative to the solution's own payoff; and the bid function's distance from the
        known equilibrium (n - 1) / n v."""
        out = np.zeros((HELD_OUT, 4))
        held_out(probabilities, self.n, np.uint64(self.seed), HELD_OUT, NODES, WEIGHTS,
                 BR_GRID, out)
        v, mine, best, bid = out.T
        gain = best - mine
        half = 1.96 * gain.std(ddof=1) / np.sqrt(gain.size)
        eq = (self.n - 1) / self.n * v
        return {"value": float(gain.mean()), "ci_low": float(gain.mean() - half),
                "ci_high": float(gain.mean() + half), "unit": "payoff per bidder",
                "relative_loss": float(gain.mean() / mine.mean()),
                "bid_rmse": float(np.sqrt(((bid - eq) ** 2).mean())),
                "deals": HELD_OUT}

    def state(self) -> dict[str, np.ndarray]:
        return {"regret": self.regret, "average": self.average, "sigma": self.sigma,
                "iteration": np.array(self.iteration)}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        self.regret, self.average, self.sigma = (np.array(state[k]) for k in
                                                 ("regret", "average", "sigma"))
        self.iteration = int(state["iteration"])


def make_solver(rules: Rules, seed: int) -> FpsbSolver:
    return FpsbSolver(rules, seed)
