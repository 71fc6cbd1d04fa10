"""Streaming per-strategy and per-seat summary with 95% intervals.

Chunks arrive in match order; each metric is reduced over fixed blocks of
``sim.runner.BLOCK`` matches and the block sums are added with ``math.fsum`` (exactly
rounded), so the summary is bitwise identical in any chunking or thread count.
A strategy that holds several seats is measured per match as the mean over its seats:
matches are the independent units, so its interval accounts for the seats sharing deals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.runner import BLOCK

DEFAULT_METRICS = ("score", "win")


def mean_interval(total: float, total_sq: float, n: int, level: float = 0.95
                  ) -> tuple[float, float, float]:
    """(mean, low, high): Student-t interval from a sum and a sum of squares."""
    from scipy import stats  # here, not at import: it costs the CLI ~0.4 s of start-up

    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n == 1:
        return mean, math.nan, math.nan
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = stats.t.ppf(0.5 + level / 2, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass
class _Sums:
    blocks: list[float] = field(default_factory=list)
    blocks_sq: list[float] = field(default_factory=list)

    def add(self, x: np.ndarray) -> None:
        cuts = np.arange(0, len(x), BLOCK)
        self.blocks.extend(np.add.reduceat(x, cuts).tolist())
        self.blocks_sq.extend(np.add.reduceat(x * x, cuts).tolist())


class SeatSummary:
    """Per strategy and per seat: matches and, for each metric, mean and 95% interval."""

    def __init__(self, labels: tuple[str, ...], metrics: tuple[str, ...] = DEFAULT_METRICS):
        self.labels = labels
        self.metrics = metrics
        self.groups: dict[tuple[str, str], np.ndarray] = {}
        for label in dict.fromkeys(labels):
            seats = np.array([s for s, l in enumerate(labels) if l == label])
            self.groups[("strategy", label)] = seats
        for s, label in enumerate(labels):
            self.groups[("seat", f"{s} {label}")] = np.array([s])
        self.sums = {(g, m): _Sums() for g in self.groups for m in metrics}
        self.matches = 0

    def add(self, start: int, tables: dict[str, dict[str, np.ndarray]]) -> None:
        if start % BLOCK:
            raise ValueError(f"chunks must start at multiples of {BLOCK} matches")
        seats = tables["seats"]
        n_seats = len(self.labels)
        for metric in self.metrics:
            values = np.asarray(seats[metric], dtype=np.float64).reshape(-1, n_seats)
            for group, cols in self.groups.items():
                x = values[:, cols[0]] if len(cols) == 1 else values[:, cols].mean(axis=1)
                self.sums[(group, metric)].add(np.ascontiguousarray(x))
        self.matches += len(seats["match"]) // n_seats

    def frame(self) -> pd.DataFrame:
        """One row per group: ``by`` (strategy or seat), ``name``, ``seats``, ``matches``,
        then ``<metric>``, ``<metric>_lo``, ``<metric>_hi`` for each metric."""
        rows = []
        for (by, name), cols in self.groups.items():
            row = {"by": by, "name": name, "seats": ",".join(map(str, cols)),
                   "matches": self.matches}
            for metric in self.metrics:
                s = self.sums[((by, name), metric)]
                mean, lo, hi = mean_interval(math.fsum(s.blocks), math.fsum(s.blocks_sq),
                                             self.matches)
                row.update({metric: mean, f"{metric}_lo": lo, f"{metric}_hi": hi})
            rows.append(row)
        return pd.DataFrame(rows)
