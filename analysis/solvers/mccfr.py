"""Monte Carlo CFR over deals, the part every deal-sampled solver shares (pitch, vybory).

One iteration is a batch of ``BATCH`` deals (chance sampling), dealt from the seed and
the iteration, in ``BLOCKS`` fixed blocks of ``BATCH / BLOCKS`` deals. A game's solver
computes, for a run of whole blocks, each block's regret and average increments
(``increments``, the game's numba batch); here they are added in block order, so the
solver's state after t iterations is the same on any number of threads, and on a Dask
cluster, whose workers each compute some of the blocks. Regrets and the average follow
Linear CFR (iteration t weighted t, as Pluribus did): both are scaled by (t - 1) / t
before iteration t's increments are added.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import numpy as np

from sim.errors import BidlabError
from sim.jit import jit, prange

BATCH = 4096
"""Deals per iteration."""
BLOCKS = 16
"""Fixed blocks of a batch: their sums are added in this order."""


class DealSampledCFR:
    """The regret and average tables of a deal-sampled solver and its iterations; a
    game's solver sets ``legal`` (information sets x actions, 1 where legal), ``seed``,
    ``game`` and ``rules`` and defines ``increments``."""

    game: str
    rules: Any
    seed: int
    legal: np.ndarray
    iteration: int = 0
    settings: dict[str, Any] = {}
    """The settings the solver was made with (``make_solver``'s ``settings``)."""

    def start(self, legal: np.ndarray) -> None:
        self.legal = legal
        self.regret = np.zeros(legal.shape)
        self.average = np.zeros(legal.shape)
        self.iteration = 0
        self._buffers: tuple[np.ndarray, np.ndarray] | None = None

    def increments(self, first: int, count: int, blocks: int, sigma: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Deals ``first .. first + count - 1`` in ``blocks`` equal blocks: per block,
        the regret and average increments against the current strategy ``sigma``."""
        raise NotImplementedError

    def block_buffers(self, blocks: int) -> tuple[np.ndarray, np.ndarray]:
        """The per-block regret and average increments, kept from iteration to iteration
        (a game's batch kernel zeroes its blocks first): fresh arrays would be paged in
        by the kernel on every iteration, a serial cost that took a third of an iteration
        of pitch's 96,000 information sets and most of what a second thread gains."""
        shape = (blocks, *self.legal.shape)
        kept = self._buffers
        if kept is None or kept[0].shape != shape:
            kept = self._buffers = (np.empty(shape), np.empty(shape))
        return kept

    def current(self) -> np.ndarray:
        """Regret matching on the cumulative regrets (uniform over the legal actions
        where no regret is positive)."""
        positive = np.where(self.legal > 0, np.maximum(self.regret, 0.0), 0.0)
        return _rows(positive, self.legal)

    def run(self, iterations: int, client=None, threads: int | None = None) -> None:
        """``iterations`` more iterations: here (numba threads), or with ``client`` (a
        Dask client) on its workers (``threads`` numba threads each), block runs spread
        over them; the same sums."""
        for _ in range(iterations):
            t = self.iteration + 1
            sigma = self.current()
            first = self.iteration * BATCH
            if client is None:
                d_regret, d_average = self.increments(first, BATCH, BLOCKS, sigma)
            else:
                d_regret, d_average = self._on_cluster(client, first, sigma, threads)
            discount = (t - 1) / t
            _accumulate(self.regret, d_regret, discount)
            _accumulate(self.average, d_average, discount)
            self.iteration = t

    def _on_cluster(self, client, first: int, sigma: np.ndarray, threads: int | None):
        from sim.runner import version
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        cuts = np.linspace(0, BLOCKS, min(workers, BLOCKS) + 1).astype(int)
        rules = json.dumps([self.rules.to_json(), self.settings], sort_keys=True)
        per_block = BATCH // BLOCKS
        futures = [client.submit(block_task, self.game, rules, self.seed, first + lo * per_block,
                                 (hi - lo) * per_block, hi - lo, sigma, threads, pure=False)
                   for lo, hi in zip(cuts[:-1], cuts[1:])]
        parts = client.gather(futures)
        for worker_version, _, _ in parts:
            if worker_version != version():
                raise BidlabError(f"a worker runs bidlab {worker_version} but this process "
                                  f"runs {version()}: the solve would not be reproducible; "
                                  f"install the same version everywhere")
        return (np.concatenate([p[1] for p in parts]), np.concatenate([p[2] for p in parts]))

    def probabilities(self) -> np.ndarray:
        return _rows(self.average, self.legal)

    def state(self) -> dict[str, np.ndarray]:
        return {"regret": self.regret, "average": self.average,
                "iteration": np.array(self.iteration)}

    def restore(self, state: dict[str, np.ndarray]) -> None:
        self.regret = np.array(state["regret"])
        self.average = np.array(state["average"])
        self.iteration = int(state["iteration"])


@jit(inline=True)
def _expected(sigma, q, row, s):
    """Seat ``s``'s action values ``q[s]`` weighted by ``sigma``'s row ``row``."""
    mean = 0.0
    for a in range(q.shape[1]):
        mean += sigma[row, a] * q[s, a]
    return mean


@jit
def add_point(sigma, q, rows, regret, average):
    """One sampled decision point of a rollout solver (auktsion, aukcio) into a block's
    increments: for each seat that decided there (``rows[s]`` its information set, -1
    none), the regrets of its action values ``q[s]`` against ``sigma`` into ``regret``
    and ``sigma``'s row into ``average`` (the point is sampled on the strategies' own
    path, so the reach is in the sampling)."""
    for s in range(rows.shape[0]):
        row = rows[s]
        if row < 0:
            continue
        mean = _expected(sigma, q, row, s)
        for a in range(q.shape[1]):
            regret[row, a] += q[s, a] - mean
            average[row, a] += sigma[row, a]


@jit
def add_values(sigma, q, rows, q_sum, g_sq, visits):
    """One held-out decision point into a block's sums for :func:`cautious_response`:
    each deciding seat's action values into ``q_sum``, the squares of their gains over
    ``sigma`` into ``g_sq``, a visit into ``visits`` (every seat pooled)."""
    for s in range(rows.shape[0]):
        row = rows[s]
        if row < 0:
            continue
        mean = _expected(sigma, q, row, s)
        visits[row] += 1
        for a in range(q.shape[1]):
            q_sum[row, a] += q[s, a]
            g_sq[row, a] += (q[s, a] - mean) ** 2


def cautious_response(q_sum: np.ndarray, g_sq: np.ndarray, probabilities: np.ndarray,
                      legal: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    """The cautious best response of a solver's held-out action values: ``q_sum`` (blocks
    x information sets x actions, the blocks summed here) holds each action's summed
    value, ``g_sq`` the summed squares of its gains over the solution
    ``probabilities``. Returns the best action per information set where its summed gain
    clears ``z`` standard errors, else -1 (keep the solution's mix there), and the best
    action's summed gain per information set, floored at 0 (what the exact best response
    of those points gains on them: an optimistic, in-sample figure)."""
    q, spread = q_sum.sum(axis=0), g_sq.sum(axis=0)
    gain = np.where(legal > 0, q - (q * probabilities).sum(axis=1, keepdims=True), -np.inf)
    rows = np.arange(gain.shape[0])
    top = gain.argmax(axis=1)
    top_gain = gain[rows, top]
    sure = top_gain > z * np.sqrt(spread[rows, top])
    return np.where(sure, top, -1).astype(np.int64), np.maximum(top_gain, 0)


def deviating(probabilities: np.ndarray, best: np.ndarray) -> np.ndarray:
    """``probabilities`` with the rows where ``best`` names an action replaced by that
    action (a cautious best response as a strategy table)."""
    out = probabilities.copy()
    out[best >= 0] = 0.0
    out[best >= 0, best[best >= 0]] = 1.0
    return out


def bracket(gains: np.ndarray, unit: str, **extra: Any) -> dict[str, Any]:
    """A held-out exploitability from ``gains`` (held-out units x seats: each seat's gain
    from deviating to the best response): the mean over seats with its 95% interval over
    the units, each seat's mean, and ``extra``."""
    per_unit = gains.mean(axis=1)
    half = 1.96 * per_unit.std(ddof=1) / np.sqrt(per_unit.size)
    return {"value": float(per_unit.mean()), "ci_low": float(per_unit.mean() - half),
            "ci_high": float(per_unit.mean() + half), "unit": unit,
            "per_seat": [float(x) for x in gains.mean(axis=0)], **extra}


@jit(parallel=True)
def _accumulate(table, increments, discount):
    """``table`` scaled by ``discount``, then each block's increments added in block
    order: every entry the same float operations in the same order on any number of
    threads (the threads split the rows)."""
    for i in prange(table.shape[0]):
        for a in range(table.shape[1]):
            x = table[i, a] * discount
            for b in range(increments.shape[0]):
                x += increments[b, i, a]
            table[i, a] = x


def _rows(weights: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """``weights`` normalized per row; uniform over the legal actions where a row has
    none."""
    total = weights.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    return np.where(total > 0, weights / np.where(total > 0, total, 1.0), uniform)


@lru_cache(maxsize=4)
def _solver(game: str, rules: str, seed: int):
    from analysis.solvers import make_solver
    from sim.games import get_game
    rules, settings = json.loads(rules)
    return make_solver(game, get_game(game).make_rules(rules), seed, settings)


def block_task(game: str, rules: str, seed: int, first: int, count: int, blocks: int,
               sigma: np.ndarray, threads: int | None) -> tuple[str, np.ndarray, np.ndarray]:
    """A Dask worker's share of an iteration: (its bidlab version, the increments of
    ``blocks`` blocks of deals from ``first``)."""
    import numba

    from sim.runner import version
    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    return (version(), *_solver(game, rules, seed).increments(first, count, blocks, sigma))


def raise_on(err: np.ndarray, game: str) -> None:
    """A kernel error from a solver's playouts (a bug: the play policies are bidlab's)."""
    from sim.harness import first_error
    e = first_error(err, 0)
    if e is not None:
        raise BidlabError(f"{game} solver: a play policy made an illegal card (a bug in "
                          f"bidlab: please report it): {e}")
