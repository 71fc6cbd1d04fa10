"""Tidy result frames -> statistics with 95% intervals.

Matches are the independent units: where a match contributes several rows to a group
(several deals, several lots of one rank), the rows are first averaged within the
match, and the interval is taken across matches. Functions take the tables that
``simulate`` produces (``seats``; ``deals`` and ``lots`` with detail) and work for any
game whose tables have the columns they use.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from analysis.stats import mean_ci, paired_difference, per_match
from analysis.summary import SHARES


def _require(frame: pd.DataFrame, columns: list[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what} needs columns {missing}; this table has {list(frame.columns)}")


def clustered_means(frame: pd.DataFrame, by: str | list[str], value: str) -> pd.DataFrame:
    """Mean of ``value`` per group with a 95% interval across matches: ``by..., matches,
    mean, ci_low, ci_high``."""
    by = [by] if isinstance(by, str) else list(by)
    _require(frame, ["match", *by, value], "clustered_means")
    per = frame.groupby(["match", *by], observed=True)[value].mean().reset_index()
    rows = []
    for key, group in per.groupby(by, observed=True):
        mean, lo, hi = mean_ci(group[value].to_numpy())
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(by, key)), "matches": len(group), "mean": mean,
                     "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def equity(seats: pd.DataFrame, metrics: tuple[str, ...] = ("score", "win"),
           shares: tuple[str, ...] = SHARES) -> pd.DataFrame:
    """Per strategy and per seat: mean of each metric with a 95% interval (a strategy in
    several seats is averaged over them within each match; ``shares``: the metrics that
    are a seat's share in [0, 1], the game's ``share_metrics``)."""
    first = seats[seats["match"] == seats["match"].iloc[0]]
    held = first["strategy"].astype(str).value_counts()          # seats per strategy
    rows = []
    for metric in metrics:
        for (by, name), series in per_match(seats, metric).items():
            share_of = 0 if metric not in shares else 1 if by == "seat" else int(held[name])
            mean, lo, hi = mean_ci(series, share_of=share_of)
            rows.append({"metric": metric, "by": by, "name": name, "matches": len(series),
                         "mean": mean, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)


def seat_effect(seats: pd.DataFrame, metric: str = "score") -> pd.DataFrame:
    """Each seat's advantage: its metric minus the table mean in the same match, with a
    paired interval and t-test (all seats playing the same strategy isolates the effect
    of position: who deals first, who starts the first lot)."""
    n_seats = int(seats["seat"].max()) + 1
    ordered = seats.sort_values(["match", "seat"], kind="stable")
    values = ordered[metric].to_numpy(np.float64).reshape(-1, n_seats)
    table_mean = values.mean(axis=1)
    rows = []
    for s in range(n_seats):
        d = paired_difference(table_mean, values[:, s])
        rows.append({"seat": s, "metric": metric, "mean": float(values[:, s].mean()), **d})
    return pd.DataFrame(rows)


def strategy_differences(seats: pd.DataFrame, metric: str = "score") -> pd.DataFrame:
    """For every pair of strategies in the same matches: mean of (first - second) per
    match with a paired interval and t-test (differences are first minus second
    everywhere in bidlab)."""
    groups = {name: s for (by, name), s in per_match(seats, metric).items() if by == "strategy"}
    rows = []
    for a, b in itertools.combinations(groups, 2):
        rows.append({"metric": metric, "first": a, "second": b,
                     **paired_difference(groups[b], groups[a])})
    return pd.DataFrame(rows)


def money_flow(deals: pd.DataFrame) -> pd.DataFrame:
    """By deal of the match: coins at the start, spent and left, each with an interval
    (one row per deal and quantity; seats pooled within a match)."""
    _require(deals, ["match", "deal", "money_start", "spent"], "money_flow")
    frame = deals.assign(money_end=deals["money_start"] - deals["spent"])
    parts = [clustered_means(frame, "deal", q).assign(quantity=q)
             for q in ("money_start", "spent", "money_end")]
    return pd.concat(parts, ignore_index=True)[["deal", "quantity", "matches", "mean", "ci_low",
                                               "ci_high"]]


def lot_prices(lots: pd.DataFrame, rank_labels: str | None = None) -> pd.DataFrame:
    """Per lot rank: share sold, mean price of sold lots [interval], its quartiles, mean
    value to the buyer, mean number of calls."""
    _require(lots, ["match", "rank", "price", "buyer_value", "calls"], "lot_prices")
    sold = lots.dropna(subset=["price"])
    prices = clustered_means(sold, "rank", "price").rename(
        columns={"mean": "price", "ci_low": "price_ci_low", "ci_high": "price_ci_high"})
    q = sold.groupby("rank")["price"].quantile([0.25, 0.5, 0.75]).unstack()
    q.columns = ["price_q1", "price_median", "price_q3"]
    extra = lots.groupby("rank").agg(sold_share=("price", lambda p: p.notna().mean()),
                                     calls=("calls", "mean"))
    extra["buyer_value"] = sold.groupby("rank")["buyer_value"].mean()
    out = prices.drop(columns="matches").merge(q, on="rank").merge(extra, on="rank")
    if rank_labels:
        out.insert(1, "label", [rank_labels[int(r)] for r in out["rank"]])
    return out


def price_vs_value(lots: pd.DataFrame) -> pd.DataFrame:
    """Mean price paid by the value of the lot to its buyer, with intervals."""
    sold = lots.dropna(subset=["price"])
    return clustered_means(sold, "buyer_value", "price")


def matchpoints(results: pd.DataFrame, board: str = "board", score: str = "score_ns"
                ) -> pd.DataFrame:
    """Matchpoints (bridge, B11): on each board, every North-South result scores 2 for
    each other result of the board it beats and 1 for each it ties; ``pct`` is that over
    the top (2 x (results on the board - 1)), as a percentage; East-West gets 100 - pct.
    :func:`field_percentages` averages them per field (a strategy, a table) with a 95%
    interval across boards."""
    _require(results, [board, score], "matchpoints")
    out = results.copy()
    ranked = out.groupby(board)[score]
    # rank(method="average") counts each beaten result once and each tie half: x2 -> MPs
    out["mp"] = 2 * (ranked.rank(method="average") - 1)
    top = 2 * (ranked.transform("size") - 1)
    out["pct"] = np.where(top > 0, 100 * out["mp"] / top.where(top > 0, 1), 50.0)
    return out


def field_percentages(scored: pd.DataFrame, board: str = "board", field: str = "field"
                      ) -> pd.DataFrame:
    """Mean matchpoint percentage per field with a 95% interval across boards."""
    rows = []
    for name, group in scored.groupby(field, observed=True):
        mean, lo, hi = mean_ci(group.groupby(board)["pct"].mean().to_numpy())
        rows.append({field: name, "boards": group[board].nunique(), "pct": mean,
                     "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows)
