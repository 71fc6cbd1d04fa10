"""Regret minimization on tables of information sets (rows) by actions (columns): the
pieces every solver shares (``analysis/solvers/``).

Regrets and the average strategy are float64 tables ``infosets x actions``; ``legal``
masks the actions an information set allows (an information set's legal actions never
change). The update is CFR+'s: regrets are floored at zero after each iteration, and
iteration ``t`` (1-based) adds its strategy to the average with weight ``t`` (linear
averaging), which converges far faster than uniform averaging in practice (Tammelin et
al. 2015, "Solving large imperfect information games using CFR+").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.jit import jit


@dataclass(frozen=True)
class Abstraction:
    """What a game's solution is indexed by: a name, a version (bumped whenever the
    layout or the meaning of an information set changes), and its sizes."""

    name: str
    version: int
    infosets: int
    actions: int
    settings: Mapping[str, Any] = field(default_factory=dict)
    """What else fixes the layout (grid sizes, bucket counts)."""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "infosets": self.infosets,
                "actions": self.actions, "settings": dict(self.settings)}


@jit
def current_strategy(regret, legal, row, out):
    """Regret matching: row ``row`` of the current strategy into ``out`` (positive
    regrets normalized; uniform over the legal actions when none is positive)."""
    total = 0.0
    for a in range(regret.shape[1]):
        r = regret[row, a] if legal[row, a] else 0.0
        out[a] = r if r > 0.0 else 0.0
        total += out[a]
    if total > 0.0:
        for a in range(regret.shape[1]):
            out[a] /= total
        return
    count = 0
    for a in range(regret.shape[1]):
        count += legal[row, a]
    for a in range(regret.shape[1]):
        out[a] = legal[row, a] / count


@jit
def cfr_plus_update(regret, total_value, row, sigma, value, weight):
    """Add one visit of information set ``row`` to its regrets: ``value[a]`` is the
    counterfactual value of action ``a``, ``sigma`` the strategy played there, ``weight``
    the visit's weight (its reach); regrets floored at zero (CFR+)."""
    mean = 0.0
    for a in range(regret.shape[1]):
        mean += sigma[a] * value[a]
    for a in range(regret.shape[1]):
        r = regret[row, a] + weight * (value[a] - mean)
        regret[row, a] = r if r > 0.0 else 0.0
    total_value[row] += weight * mean


@jit
def average_into(average, row, sigma, weight):
    """Add ``weight`` x the strategy ``sigma`` played at ``row`` to the average."""
    for a in range(average.shape[1]):
        average[row, a] += weight * sigma[a]


def normalized(average: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """The average strategy as probabilities per row (uniform over the legal actions
    for a row never reached)."""
    total = average.sum(axis=1, keepdims=True)
    uniform = legal / np.maximum(legal.sum(axis=1, keepdims=True), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(total > 0, average / np.where(total > 0, total, 1), uniform)
    return out


# A solution's table as the ``solved`` policies read it: a header, then per information
# set the cumulative probabilities of its actions, the last action played with positive
# probability at exactly 1 (so a uniform draw below 1 never lands on an action the
# solution never plays).
T_ROWS, T_ACTIONS, T_VERSION, T_SETTING = range(4)
"""Header entries: information sets, actions, the abstraction's version, then
``T_SETTINGS`` entries from ``T_SETTING`` on: the settings of the abstraction its policy
needs to compute an information set (pitch: the hand-strength steps and the score
buckets; 0 where there are none)."""
T_SETTINGS = 3
T_HEADER = T_SETTING + T_SETTINGS


def purified(probabilities: np.ndarray, floor: float = 1e-3) -> np.ndarray:
    """The average strategy as played: probabilities below ``floor`` (what is left of
    early iterations, mostly) set to 0 and the rest renormalized, as practical CFR
    agents do; every row keeps at least its most likely action."""
    keep = (probabilities >= floor) | (probabilities == probabilities.max(axis=1, keepdims=True))
    out = np.where(keep, probabilities, 0.0)
    return out / out.sum(axis=1, keepdims=True)


def pack_table(probabilities: np.ndarray, version: int, settings: tuple[float, ...] = ()
               ) -> np.ndarray:
    """``probabilities`` (information sets x actions, rows summing to 1) as a table, with
    up to ``T_SETTINGS`` abstraction settings in its header."""
    if len(settings) > T_SETTINGS:
        raise ValueError(f"a table's header holds {T_SETTINGS} settings, not {len(settings)}")
    rows, actions = probabilities.shape
    cum = np.cumsum(probabilities, axis=1)
    for r in range(rows):
        last = np.flatnonzero(probabilities[r] > 0)[-1]
        cum[r, last:] = 1.0
    head = np.zeros(T_HEADER)
    head[[T_ROWS, T_ACTIONS, T_VERSION]] = rows, actions, version
    head[T_SETTING:T_SETTING + len(settings)] = settings
    return np.concatenate([head, cum.ravel()])


def unpack_table(table: np.ndarray) -> np.ndarray:
    """The probabilities (information sets x actions) of a packed table."""
    rows, actions = int(table[T_ROWS]), int(table[T_ACTIONS])
    cum = table[T_HEADER:T_HEADER + rows * actions].reshape(rows, actions)
    return np.diff(cum, axis=1, prepend=0.0)


@jit
def table_action(table, base, row, u):
    """The action of information set ``row`` for the uniform draw ``u`` in [0, 1), from
    the table that starts at ``table[base]``."""
    actions = np.int64(table[base + T_ACTIONS])
    start = base + T_HEADER + row * actions
    for a in range(actions - 1):
        if u < table[start + a]:
            return a
    return actions - 1


def stack_tables(tables: list[np.ndarray | None]) -> np.ndarray:
    """One array of per-seat tables (None: a seat that plays no solution), as the kernels
    take it: the seat count, each seat's start and the end, then the tables one after
    the other. Seats may play different solutions (a coarse against a fine one)."""
    k = len(tables)
    starts = [k + 2]
    for t in tables:
        starts.append(starts[-1] + (0 if t is None else t.size))
    parts = [np.array([k, *starts], np.float64)] + [t for t in tables if t is not None]
    return np.concatenate(parts)


@jit
def seat_start(stacked, seat):
    """Where seat ``seat``'s table starts in :func:`stack_tables`' array."""
    return np.int64(stacked[1 + seat])
