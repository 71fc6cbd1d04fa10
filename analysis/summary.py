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
SHARES = ("win",)
"""The metrics that are a seat's share in [0, 1] in every game
(``sim.game.Game.share_metrics``)."""


def mean_interval(total: float, total_sq: float, n: int, level: float = 0.95, *,
                  share_of: int = 0) -> tuple[float, float, float]:
    """(mean, low, high): Student-t interval from a sum and a sum of squares.

    ``share_of`` k >= 1: each value is the mean of k seats' shares (of the win, ties
    split), so the interval stays within 0..1, and is widened where the t interval is
    not honest. One seat's share (k = 1) varies at most as a 0/1 value, p (1 - p), so it
    gets at least the Wilson interval of its mean, which covers rare wins. A mean over
    several seats may vary far less (one of them wins, the others lose) and keeps its t
    interval, unless every match gave 0 (or every one 1): without spread it has no
    width, and the exact binomial bound holds instead (a value in [0, 1] with mean p is
    0 with probability at most 1 - p, so n zeros come with probability at most
    (1 - p)^n)."""
    from scipy.special import stdtrit  # not scipy.stats: that import alone costs ~0.4 s

    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n == 1:
        return mean, math.nan, math.nan
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = stdtrit(n - 1, 0.5 + level / 2) * math.sqrt(var / n)
    low, high = mean - half, mean + half
    if share_of == 1:
        w_low, w_high = wilson_interval(total, n, level)
        low, high = min(low, w_low), max(high, w_high)
    elif share_of > 1 and mean in (0.0, 1.0):
        exact = ((1 - level) / 2) ** (1 / n)          # Clopper-Pearson at 0 of n, n of n
        low, high = (0.0, 1 - exact) if mean == 0.0 else (exact, 1.0)
    if share_of:
        low, high = max(0.0, low), min(1.0, high)
    return mean, low, high


def wilson_interval(successes: float, trials: float, level: float = 0.95
                    ) -> tuple[float, float]:
    """Wilson score interval of a proportion (sensible at 0 and 1, unlike the normal one)."""
    from scipy.special import ndtri

    if trials <= 0:
        return math.nan, math.nan
    z = ndtri(0.5 + level / 2)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class _Sums:
    blocks: list[float] = field(default_factory=list)
    blocks_sq: list[float] = field(default_factory=list)

    def add(self, x: np.ndarray) -> None:
        cuts = np.arange(0, len(x), BLOCK)
        self.blocks.extend(np.add.reduceat(x, cuts).tolist())
        self.blocks_sq.extend(np.add.reduceat(x * x, cuts).tolist())


class SeatSummary:
    """Per strategy and per seat: matches and, for each metric, mean and 95% interval
    (``shares``: the metrics that are a seat's share in [0, 1], ``mean_interval``)."""

    def __init__(self, labels: tuple[str, ...], metrics: tuple[str, ...] = DEFAULT_METRICS,
                 shares: tuple[str, ...] = SHARES):
        self.labels = labels
        self.metrics = metrics
        self.shares = shares
        self.groups: dict[tuple[str, str], np.ndarray] = {}
        for label in dict.fromkeys(labels):
            seats = np.array([s for s, lab in enumerate(labels) if lab == label])
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
        then ``<metric>``, ``<metric>_ci_low``, ``<metric>_ci_high`` for each metric."""
        rows = []
        for (by, name), cols in self.groups.items():
            row = {"by": by, "name": name, "seats": [int(c) for c in cols],
                   "matches": self.matches}
            for metric in self.metrics:
                s = self.sums[((by, name), metric)]
                mean, lo, hi = mean_interval(math.fsum(s.blocks), math.fsum(s.blocks_sq),
                                             self.matches, share_of=len(cols)
                                             if metric in self.shares else 0)
                row.update({metric: mean, f"{metric}_ci_low": lo, f"{metric}_ci_high": hi})
            rows.append(row)
        return pd.DataFrame(rows)


class GameSummary:
    """Game-level figures a game declares (``Game.match_metrics`` and
    ``Game.ratio_metrics``), streamed like :class:`SeatSummary` and as reproducible:

    - a match metric (a ``seats`` column equal on every seat of a match, e.g. pitch's
      deals per game): its mean per match with a Student-t 95% interval;
    - a ratio metric (numerator and denominator columns, e.g. contracts made over
      contracts pitched): sum over sum, overall and per strategy (summed over its
      seats), with a 95% interval from the ratio estimator's variance clustered by
      match (matches are the independent units); for a proportion it is widened to at
      least the Wilson interval, which stays honest near 0 and 1;
    - a table ratio (columns equal on every seat of a match, e.g. bridge's contract
      level): the same, counted once per match, for the table as a whole.
    """

    def __init__(self, labels: tuple[str, ...], match_metrics: tuple[tuple[str, str], ...] = (),
                 ratio_metrics: tuple[tuple[str, str, str], ...] = (),
                 table_ratios: tuple[tuple[str, str, str], ...] = ()):
        self.labels = labels
        self.match_metrics = match_metrics
        self.groups: dict[str, np.ndarray] = {"all": np.arange(len(labels))}
        for label in dict.fromkeys(labels):
            self.groups[label] = np.array([s for s, lab in enumerate(labels) if lab == label])
        self.means = {col: _Sums() for col, _ in match_metrics}
        # (title, numerator, denominator, group, seats summed; None: one value per match)
        self.ratio_parts = [(title, num, den, g, cols) for title, num, den in ratio_metrics
                            for g, cols in self.groups.items()]
        self.ratio_parts += [(title, num, den, "all", None) for title, num, den in table_ratios]
        # per ratio part: block sums of x, y, x*x, y*y, x*y
        self.ratios = [[[] for _ in range(5)] for _ in self.ratio_parts]
        self.matches = 0

    def add(self, start: int, tables: dict[str, dict[str, np.ndarray]]) -> None:
        if start % BLOCK:
            raise ValueError(f"chunks must start at multiples of {BLOCK} matches")
        seats = tables["seats"]
        n_seats = len(self.labels)
        for col, _ in self.match_metrics:
            values = np.asarray(seats[col], dtype=np.float64).reshape(-1, n_seats)[:, 0]
            self.means[col].add(np.ascontiguousarray(values))
        for (_, num, den, _, cols), sums in zip(self.ratio_parts, self.ratios):
            x_all = np.asarray(seats[num], dtype=np.float64).reshape(-1, n_seats)
            y_all = np.asarray(seats[den], dtype=np.float64).reshape(-1, n_seats)
            if cols is None:
                x, y = x_all[:, 0], y_all[:, 0]
            else:
                x, y = x_all[:, cols].sum(axis=1), y_all[:, cols].sum(axis=1)
            cuts = np.arange(0, len(x), BLOCK)
            for store, v in zip(sums, (x, y, x * x, y * y, x * y)):
                store.extend(np.add.reduceat(v, cuts).tolist())
        self.matches += len(seats["match"]) // n_seats

    def frame(self) -> pd.DataFrame:
        """One row per figure: ``metric`` (its title), ``by`` (``match`` for a match
        metric; ``all`` or ``strategy`` for a ratio), ``name``, ``matches``, ``count``
        (the ratio's denominator total), ``value``, ``ci_low``, ``ci_high``."""
        from scipy.special import stdtrit

        rows = []
        n = self.matches
        for col, title in self.match_metrics:
            s = self.means[col]
            mean, lo, hi = mean_interval(math.fsum(s.blocks), math.fsum(s.blocks_sq), n)
            rows.append({"metric": title, "by": "match", "name": "", "matches": n,
                         "count": n, "value": mean, "ci_low": lo,
                         "ci_high": hi})
        t = stdtrit(n - 1, 0.975) if n > 1 else math.nan
        for (title, _, _, g, _), sums in zip(self.ratio_parts, self.ratios):
            sx, sy, sxx, syy, sxy = (math.fsum(v) for v in sums)
            r = sx / sy if sy > 0 else math.nan
            lo = hi = math.nan
            if sy > 0 and n > 1:
                resid = max(0.0, sxx - 2 * r * sxy + r * r * syy)
                half = t * math.sqrt(resid * n / (n - 1)) / sy
                lo, hi = r - half, r + half
                if 0 <= sx <= sy:  # a proportion: never narrower than Wilson's
                    wlo, whi = wilson_interval(sx, sy)   # interval, and within 0..1
                    lo, hi = max(0.0, min(lo, wlo)), min(1.0, max(hi, whi))
            rows.append({"metric": title, "by": "all" if g == "all" else "strategy",
                         "name": g, "matches": n, "count": int(sy), "value": r,
                         "ci_low": lo, "ci_high": hi})
        return pd.DataFrame(rows, columns=["metric", "by", "name", "matches", "count", "value",
                                           "ci_low", "ci_high"])
