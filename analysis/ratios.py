"""Ratio estimates clustered by match: a per-unit figure (per deal, per lot) is the sum
over matches of the quantity over the sum over matches of the units it counts (the
denominator counts units, never seat rows), with a 95% interval from the ratio's
linearisation ``z_i = y_i - r n_i``, one value per match (Student t on the matches'
contributions; a match without a unit of the group contributes 0 and still counts).
Matches are the independent units: a match's deals share its players and scores."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.summary import wilson_interval


def ratio_ci(y: np.ndarray, n: np.ndarray, level: float = 0.95,
             proportion: bool = False) -> tuple[float, float, float]:
    """``sum(y) / sum(n)`` over clusters (tours) with a Student-t interval from the
    linearisation ``z_i = y_i - r n_i`` (one value per cluster, zeros included). A
    ``proportion`` seen at 0 (or 1) everywhere gets a Wilson interval over the clusters
    that hold a unit, not the empty interval of a zero spread."""
    from scipy.special import stdtrit

    y, n = np.asarray(y, np.float64), np.asarray(n, np.float64)
    total = n.sum()
    g = len(n)
    if total == 0:
        return math.nan, math.nan, math.nan
    r = y.sum() / total
    if g < 2:
        return r, math.nan, math.nan
    z = y - r * n
    se = math.sqrt(g / (g - 1) * float((z * z).sum())) / total
    if not se > 1e-12 * max(1.0, abs(r)):
        if proportion:
            lo, hi = wilson_interval(r * int((n > 0).sum()), int((n > 0).sum()), level)
            return r, 0.0 if r == 0 else lo, 1.0 if r == 1 else hi
        return r, r, r
    half = float(stdtrit(g - 1, 0.5 + level / 2)) * se
    return r, r - half, r + half


def cluster_sums(frame: pd.DataFrame, value: str | None, clusters: np.ndarray,
                  cluster: str) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster of ``clusters`` (sorted, every tour): the sum of ``value`` (1 per row
    when None) and the number of rows."""
    idx = np.searchsorted(clusters, frame[cluster].to_numpy())
    ones = np.ones(len(frame))
    y = ones if value is None else frame[value].to_numpy(np.float64)
    g = len(clusters)
    return (np.bincount(idx, weights=y, minlength=g), np.bincount(idx, weights=ones, minlength=g))


def ratio_by(frame: pd.DataFrame, by: str | list[str] | None, value: str,
             cluster: str = "match", clusters: np.ndarray | None = None,
             unit: str = "deals") -> pd.DataFrame:
    """Per group of ``by`` (None: one row, ``all``): the mean of ``value`` over the
    group's rows (``unit``, e.g. deals), with a 95% interval clustered by ``cluster``
    over ``clusters`` (default: every cluster in ``frame``). Columns: ``by..., <unit>,
    tours, mean, ci_low, ci_high``."""
    clusters = np.unique(frame[cluster].to_numpy()) if clusters is None else np.sort(clusters)
    if by is None:
        groups = [((), frame)]
        by = []
    else:
        by = [by] if isinstance(by, str) else list(by)
        groups = frame.groupby(by, observed=True, sort=True)
    rows = []
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        y, n = cluster_sums(part, value, clusters, cluster)
        mean, lo, hi = ratio_ci(y, n)
        rows.append({**dict(zip(by, key)), unit: int(n.sum()), "tours": int((n > 0).sum()),
                     "mean": mean, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def shares(frame: pd.DataFrame, column: str, cluster: str = "match",
           unit: str = "deals") -> pd.DataFrame:
    """Share of the rows (``unit``) in each value of ``column``, with 95% intervals
    clustered by ``cluster``: ``column, <unit>, share, ci_low, ci_high`` (<unit>: rows
    with that value; the denominator is every row)."""
    clusters = np.unique(frame[cluster].to_numpy())
    _, n = cluster_sums(frame, None, clusters, cluster)
    rows = []
    for v in sorted(frame[column].dropna().unique()):
        y, _ = cluster_sums(frame[frame[column] == v], None, clusters, cluster)
        mean, lo, hi = ratio_ci(y, n)
        rows.append({column: v, unit: int(y.sum()), "share": mean, "ci_low": lo,
                     "ci_high": hi})
    return pd.DataFrame(rows)


def clustered_slope(frame: pd.DataFrame, x: str, y: str, cluster: str = "match",
                    level: float = 0.95) -> dict[str, float]:
    """Least-squares slope of ``y`` on ``x`` (rows with both) with a cluster-robust
    (by ``cluster``) Student-t interval: ``slope, ci_low, ci_high, rows, tours``."""
    from scipy.special import stdtrit

    f = frame.dropna(subset=[x, y])
    xs, ys = f[x].to_numpy(np.float64), f[y].to_numpy(np.float64)
    n = len(xs)
    out = {"slope": math.nan, "ci_low": math.nan, "ci_high": math.nan, "rows": n, "tours": 0}
    if n < 2:
        return out
    dx = xs - xs.mean()
    sxx = float((dx * dx).sum())
    if sxx == 0:
        return out
    b = float((dx * (ys - ys.mean())).sum()) / sxx
    resid = ys - ys.mean() - b * dx
    _, idx = np.unique(f[cluster].to_numpy(), return_inverse=True)
    g = int(idx.max()) + 1
    score = np.bincount(idx, weights=dx * resid, minlength=g)
    out.update(slope=b, tours=g)
    if g < 2:
        return out
    se = math.sqrt(g / (g - 1) * float((score * score).sum())) / sxx
    half = float(stdtrit(g - 1, 0.5 + level / 2)) * se
    out.update(ci_low=b - half, ci_high=b + half)
    return out


def per_cluster(frame: pd.DataFrame, value: str | None, clusters: np.ndarray,
                where: pd.Series | None = None, cluster: str = "match"
                ) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster of ``clusters``: (sum of ``value`` over the rows ``where`` holds,
    number of those rows); ``value`` None counts them."""
    d = frame if where is None else frame[where]
    return cluster_sums(d, value, np.sort(clusters), cluster)


def paired_ratio(base: tuple[np.ndarray, np.ndarray], other: tuple[np.ndarray, np.ndarray],
                 level: float = 0.95) -> dict[str, float]:
    """Two ratios over the same tours (``(y, n)`` per tour each) and their difference
    ``other - base`` with a paired Student-t interval on the tours' linearised
    contributions: ``base, value, diff, ci_low, ci_high, p_value``."""
    from scipy.special import stdtr, stdtrit

    (y0, n0), (y1, n1) = [(np.asarray(a, np.float64), np.asarray(b, np.float64))
                          for a, b in (base, other)]
    r0 = y0.sum() / n0.sum() if n0.sum() else math.nan
    r1 = y1.sum() / n1.sum() if n1.sum() else math.nan
    diff = r1 - r0
    g = len(n0)
    z0 = (y0 - r0 * n0) / n0.mean() if n0.sum() else np.zeros(g)
    z1 = (y1 - r1 * n1) / n1.mean() if n1.sum() else np.zeros(g)
    d = z1 - z0
    sd = float(d.std(ddof=1)) if g > 1 else math.nan
    out = {"base": r0, "value": r1, "diff": diff}
    if not (g > 1 and sd > 1e-12):
        same = not math.isfinite(diff) or abs(diff) < 1e-12
        return {**out, "ci_low": diff, "ci_high": diff, "p_value": 1.0 if same else 0.0}
    se = sd / math.sqrt(g)
    half = float(stdtrit(g - 1, 0.5 + level / 2)) * se
    return {**out, "ci_low": diff - half, "ci_high": diff + half,
            "p_value": float(2 * stdtr(g - 1, -abs(diff / se)))}
