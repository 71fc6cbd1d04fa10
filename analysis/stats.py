"""Estimators with intervals: per-match metric series and paired differences."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd


def per_match(seats: pd.DataFrame, metric: str) -> dict[tuple[str, str], np.ndarray]:
    """Per group, the metric per match (sorted by match): ``("strategy", label)`` is the
    mean over the seats that strategy holds, ``("seat", "S label")`` one seat."""
    n_seats = int(seats["seat"].max()) + 1
    ordered = seats.sort_values(["match", "seat"], kind="stable")
    values = ordered[metric].to_numpy(np.float64).reshape(-1, n_seats)
    labels = ordered["strategy"].astype(str).to_numpy()[:n_seats]
    out: dict[tuple[str, str], np.ndarray] = {}
    for label in dict.fromkeys(labels):
        out[("strategy", label)] = values[:, labels == label].mean(axis=1)
    for s, label in enumerate(labels):
        out[("seat", f"{s} {label}")] = values[:, s]
    return out


def paired_difference(x: np.ndarray, y: np.ndarray, level: float = 0.95) -> dict[str, float]:
    """Mean of ``y - x`` over common matches with a Student-t interval and the two-sided
    p-value of the paired t-test (1.0 when every difference is zero)."""
    from scipy.special import stdtr, stdtrit

    d = np.asarray(y, np.float64) - np.asarray(x, np.float64)
    n = len(d)
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else math.nan
    if n < 2 or sd == 0.0:
        return {"diff": mean, "ci_low": mean, "ci_high": mean,
                "p_value": 1.0 if mean == 0.0 else 0.0, "n": n}
    se = sd / math.sqrt(n)
    half = float(stdtrit(n - 1, 0.5 + level / 2)) * se
    p = float(2 * stdtr(n - 1, -abs(mean / se)))
    return {"diff": mean, "ci_low": mean - half, "ci_high": mean + half, "p_value": p, "n": n}


def mean_ci(x: np.ndarray, level: float = 0.95, *, share_of: int = 0
            ) -> tuple[float, float, float]:
    """(mean, low, high) with a Student-t interval (``share_of`` k: each value is the
    mean of k seats' shares in [0, 1]; ``analysis.summary.mean_interval``)."""
    from analysis.summary import mean_interval

    x = np.asarray(x, np.float64)
    return mean_interval(float(x.sum()), float((x * x).sum()), len(x), level,
                         share_of=share_of)


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p`` (family-wise error over all of them)."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def bootstrap_best(x: np.ndarray, replicates: int, seed: int) -> np.ndarray:
    """Per column of ``x`` (matches x strategies): the share of bootstrap resamples of
    the matches in which its mean is the highest (ties split)."""
    n, k = x.shape
    wins = np.zeros(k, dtype=np.float64)
    if replicates < 1 or n == 0:
        return wins
    rng = np.random.default_rng([seed, 0x7A11])
    batch = max(1, min(replicates, 4_000_000 // max(1, n * k)))
    done = 0
    while done < replicates:
        b = min(batch, replicates - done)
        idx = rng.integers(0, n, size=(b, n))
        means = x[idx].mean(axis=1)                         # (b, k)
        best = means == means.max(axis=1, keepdims=True)
        wins += (best / best.sum(axis=1, keepdims=True)).sum(axis=0)
        done += b
    return wins / replicates
