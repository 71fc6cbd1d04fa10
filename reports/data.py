"""Small tidy frames the figures need beyond :mod:`analysis.tables`: they are computed
from the same result tables, with intervals across matches where they are means."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.tables import clustered_means


def money_by_lot(lots: pd.DataFrame, rank_labels: str | None = None) -> pd.DataFrame:
    """Coins paid for each lot per deal of the match (an unsold lot counts 0), with a
    95% interval across matches: ``deal, rank, label, matches, mean, ci_low, ci_high``."""
    missing = [c for c in ("match", "deal", "rank", "price") if c not in lots.columns]
    if missing:
        raise ValueError(f"money_by_lot needs columns {missing}; the table has {list(lots.columns)}")
    paid = lots[["match", "deal", "rank"]].assign(paid=lots["price"].fillna(0).astype(float))
    out = clustered_means(paid, ["deal", "rank"], "paid").sort_values(["deal", "rank"])
    if rank_labels:
        out.insert(2, "label", [rank_labels[int(r)] for r in out["rank"]])
    return out.reset_index(drop=True)


def score_histogram(seats: pd.DataFrame, by: str = "strategy", metric: str = "score",
                    bins: int = 48) -> pd.DataFrame:
    """Histogram of ``metric`` per strategy over all its seat rows, on bins shared by
    every strategy: ``name, bin_lo, bin_hi, count, share`` (shares sum to 1 per name).
    Whole-number scores get bins of whole numbers (centred on them)."""
    values = seats[metric].to_numpy(np.float64)
    lo, hi = float(np.nanmin(values)), float(np.nanmax(values))
    if np.all(np.mod(values, 1) == 0):
        width = max(1, math.ceil((hi - lo + 1) / bins))
        edges = np.arange(lo - 0.5, hi + 0.5 + width, width)
    else:
        edges = np.histogram_bin_edges(values, bins=bins, range=(lo, hi if hi > lo else lo + 1))
    rows = []
    groups = seats[by].astype(str) if by in seats.columns else pd.Series("all", index=seats.index)
    for name in dict.fromkeys(groups):
        x = values[(groups == name).to_numpy()]
        counts, _ = np.histogram(x, bins=edges)
        for a, b, c in zip(edges[:-1], edges[1:], counts):
            rows.append({"name": name, "bin_lo": float(a), "bin_hi": float(b), "count": int(c),
                         "share": c / len(x)})
    return pd.DataFrame(rows)


def quantiles(seats: pd.DataFrame, by: str = "strategy", metric: str = "score",
              qs: tuple[float, ...] = (0.1, 0.25, 0.5, 0.75, 0.9)) -> pd.DataFrame:
    """Quantiles of ``metric`` per strategy (all its seat rows): ``name, q10, q25, ...``."""
    out = seats.groupby(seats[by].astype(str), sort=False)[metric].quantile(list(qs)).unstack()
    out.columns = [f"q{round(q * 100)}" for q in qs]
    return out.rename_axis("name").reset_index()


def flat_history(history: pd.DataFrame) -> pd.DataFrame:
    """An optimiser history with its ``params``/``best_response`` dicts spread into
    ``param_<name>``/``best_<name>`` columns (Parquet-friendly)."""
    out = history.drop(columns=[c for c in ("params", "best_response") if c in history.columns])
    for col, prefix in (("params", "param_"), ("best_response", "best_")):
        if col in history.columns:
            spread = pd.DataFrame(list(history[col]), index=history.index).add_prefix(prefix)
            out = pd.concat([out, spread], axis=1)
    return out
