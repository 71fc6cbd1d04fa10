"""Figures: each one draws a tidy frame from :mod:`analysis` (or :mod:`reports.data`)
onto an optional ``ax`` and returns the ``ax``.

Every function draws inside :func:`reports.style.style`, colours strategies through
:data:`reports.style.COLORS` and shows 95% intervals where the frame has them
(``ci_low``/``ci_high`` columns, or ``<metric>_ci_low``/``<metric>_ci_high``). With ``ax=None`` a
standalone :class:`~matplotlib.figure.Figure` is created (no pyplot: nothing global, no
display needed; ``ax.figure.savefig(...)`` writes it). In Jupyter, pass an ``ax`` from
``plt.subplots()`` to see it inline.

>>> from analysis import tables
>>> from reports import figures
>>> ax = figures.equity_bars(tables.equity(run.seats))
>>> ax.figure.savefig("equity.png")
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from reports.style import BAND_ALPHA, COLORS, NEUTRAL, VARIANT_COLORS, new_axes, style

__all__ = ["equity_bars", "win_share_bars", "seat_effect_bars", "money_flow_lines",
           "money_by_lot_lines", "lot_price_bars", "price_value_line", "bid_ev_curve",
           "variant_differences", "score_distribution", "self_play_path", "interval_bars",
           "lines_by"]

QUANTITY_LABELS = {"money_start": "coins at the start of the deal", "spent": "coins spent in the deal",
                   "money_end": "coins left at the end of the deal"}
QUANTITY_COLORS = {"money_start": "#0072B2", "spent": "#D55E00", "money_end": "#009E73"}
DEAL_COLORS = ("#56B4E9", "#0072B2", "#E69F00", "#D55E00", "#CC79A7", "#009E73")


def _need(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{what} needs columns {missing}; the frame has {list(frame.columns)}")


def _axes(ax):
    return new_axes() if ax is None else ax


def _finish(ax, title: str | None, xlabel: str | None = None, ylabel: str | None = None):
    with style():
        if title:
            ax.set_title(title)
        if xlabel is not None:
            ax.set_xlabel(xlabel)
        if ylabel is not None:
            ax.set_ylabel(ylabel)
    return ax


def interval_bars(labels: Sequence[str], mean: Sequence[float], low: Sequence[float],
                  high: Sequence[float], *, colors: Sequence[str] | None = None, ax=None,
                  reference: float | None = None, reference_label: str | None = None,
                  title: str | None = None, xlabel: str | None = None,
                  value_format: str = "{:.3g}"):
    """Horizontal bars (first label on top) with 95% interval whiskers; the building
    block of the equity, win-share and seat figures. Missing intervals (NaN) draw no
    whisker."""
    ax = _axes(ax)
    mean = np.asarray(mean, float)
    low = np.asarray(low, float)
    high = np.asarray(high, float)
    y = np.arange(len(labels))
    colors = list(colors) if colors is not None else [COLORS(lab) for lab in labels]
    with style():
        ax.barh(y, mean, color=colors, height=0.62, zorder=2)
        err = np.vstack([np.where(np.isnan(low), 0, mean - low),
                         np.where(np.isnan(high), 0, high - mean)])
        ax.errorbar(mean, y, xerr=err, fmt="none", ecolor="#222222", elinewidth=1.2,
                    capsize=3, zorder=3)
        ax.set_yticks(y, [str(lab) for lab in labels])
        ax.invert_yaxis()
        ax.grid(axis="y", visible=False)
        if reference is not None:
            ax.axvline(reference, color=NEUTRAL, linestyle="--", linewidth=1.2, zorder=1,
                       label=reference_label)
            if reference_label:
                ax.legend(loc="best")
        ax.axvline(0, color="#444444", linewidth=0.8, zorder=1)
        span = np.nanmax(np.abs(np.concatenate([mean, high, low])))
        for yi, m, lo_, hi_ in zip(y, mean, low, high):
            edge = hi_ if m >= 0 else lo_
            edge = m if np.isnan(edge) else edge
            ax.annotate(value_format.format(m), (edge, yi), xytext=(4 if m >= 0 else -4, 0),
                        textcoords="offset points", va="center",
                        ha="left" if m >= 0 else "right", fontsize=8, color="#333333")
        if np.isfinite(span) and span > 0:
            lo_lim, hi_lim = ax.get_xlim()
            pad = 0.15 * span
            ax.set_xlim(min(lo_lim, 0) - (pad if (mean < 0).any() else 0),
                        max(hi_lim, 0) + (pad if (mean >= 0).any() else 0))
    return _finish(ax, title, xlabel)


def _select(frame: pd.DataFrame, metric: str, by: str) -> pd.DataFrame:
    _need(frame, ["metric", "by", "name", "mean", "ci_low", "ci_high"], "this figure")
    sel = frame[(frame["metric"] == metric) & (frame["by"] == by)]
    if sel.empty:
        raise ValueError(f"no rows with metric={metric!r} and by={by!r} in the frame")
    return sel


def _strategy_of(name: str, by: str) -> str:
    """Seat rows are named ``"S label"``: colour them by their strategy."""
    return name.split(" ", 1)[1] if by == "seat" and " " in name else name


def equity_bars(frame: pd.DataFrame, metric: str = "score", by: str = "strategy", ax=None,
                title: str | None = None, xlabel: str | None = None):
    """Mean ``metric`` per strategy (or seat) with 95% intervals, from
    :func:`analysis.tables.equity` (columns ``metric, by, name, mean, ci_low, ci_high``)."""
    sel = _select(frame, metric, by)
    colors = [COLORS(_strategy_of(n, by)) for n in sel["name"]]
    return interval_bars(list(sel["name"]), sel["mean"], sel["ci_low"], sel["ci_high"],
                         colors=colors, ax=ax,
                         title=title if title is not None else f"Mean match {metric} by {by}",
                         xlabel=xlabel if xlabel is not None else f"mean match {metric} (95% CI)",
                         value_format="{:.3g}")


def _fair_share(frame: pd.DataFrame, by: str) -> float | None:
    """Share of the wins a strategy (or seat) would get if everyone were equal."""
    seats = frame[(frame["by"] == "seat") & (frame["metric"] == "win")]
    if seats.empty:
        return None
    if by == "seat":
        return 1.0 / len(seats)
    held = [_strategy_of(n, "seat") for n in seats["name"]]
    counts = {lab: held.count(lab) for lab in held}
    shares = {c / len(held) for c in counts.values()}
    return shares.pop() if len(shares) == 1 else None


def win_share_bars(frame: pd.DataFrame, by: str = "strategy", ax=None, title: str | None = None,
                   fair: float | None | str = "auto"):
    """Win share (ties split) per strategy (or seat) in percent with 95% intervals, from
    :func:`analysis.tables.equity`; a dashed line marks the fair share when every
    group holds the same number of seats (``fair="auto"``) or at ``fair``."""
    sel = _select(frame, "win", by)
    if fair == "auto":
        fair = _fair_share(frame, by)
    colors = [COLORS(_strategy_of(n, by)) for n in sel["name"]]
    return interval_bars(list(sel["name"]), 100 * sel["mean"], 100 * sel["ci_low"],
                         100 * sel["ci_high"], colors=colors, ax=ax,
                         reference=None if fair is None else 100 * float(fair),
                         reference_label=None if fair is None else f"fair share {100 * fair:.3g}%",
                         title=title if title is not None else f"Win share by {by}",
                         xlabel="share of matches won, % (ties split; 95% CI)",
                         value_format="{:.1f}%")


def seat_effect_bars(frame: pd.DataFrame, ax=None, title: str | None = None,
                     unit: str = "points"):
    """Each seat's advantage over the table mean in the same match, with 95% intervals,
    from :func:`analysis.tables.seat_effect` (columns ``seat, diff, ci_low, ci_high``)."""
    _need(frame, ["seat", "diff", "ci_low", "ci_high"], "seat_effect_bars")
    labels = [f"seat {s}" for s in frame["seat"]]
    return interval_bars(labels, frame["diff"], frame["ci_low"], frame["ci_high"],
                         colors=[NEUTRAL] * len(frame), ax=ax,
                         title=title if title is not None else "Seat advantage (same strategy everywhere)",
                         xlabel=f"{unit} above the table mean in the same match (95% CI)",
                         value_format="{:+.2f}")


def _band(ax, x, mean, low, high, color, label, marker="o", linestyle="-"):
    ax.plot(x, mean, color=color, marker=marker, linestyle=linestyle, label=label, zorder=3)
    low, high = np.asarray(low, float), np.asarray(high, float)
    if np.isfinite(low).any():
        ax.fill_between(x, low, high, color=color, alpha=BAND_ALPHA, linewidth=0, zorder=2)


def money_flow_lines(frame: pd.DataFrame, ax=None, title: str | None = None):
    """Coins per player at the start of each deal of a match, spent in it and left at
    its end, with 95% bands, from :func:`analysis.tables.money_flow` (columns ``deal,
    quantity, mean, ci_low, ci_high``). Deals are numbered from 1 on the axis."""
    _need(frame, ["deal", "quantity", "mean", "ci_low", "ci_high"], "money_flow_lines")
    ax = _axes(ax)
    with style():
        for q, part in frame.groupby("quantity", sort=False):
            part = part.sort_values("deal")
            _band(ax, part["deal"].to_numpy() + 1, part["mean"], part["ci_low"], part["ci_high"],
                  QUANTITY_COLORS.get(q, NEUTRAL), QUANTITY_LABELS.get(q, str(q)))
        deals = np.sort(frame["deal"].unique()) + 1
        ax.set_xticks(deals, [str(d) for d in deals])
        # the legend in a band of its own above the lines, so it covers none of them
        top = float(np.nanmax(frame[["mean", "ci_high"]].to_numpy(float)))
        ax.set_ylim(0, 1.3 * top if np.isfinite(top) and top > 0 else None)
        ax.legend(loc="upper center", ncols=3)
    return _finish(ax, title if title is not None else "Money over the deals of a match",
                   "deal of the match", "coins per player (mean, 95% band)")


def money_by_lot_lines(frame: pd.DataFrame, ax=None, title: str | None = None):
    """Coins paid for each lot (unsold lots count 0), one line per deal of the match,
    with 95% bands, from :func:`reports.data.money_by_lot` (columns ``deal, rank,
    label, mean, ci_low, ci_high``)."""
    _need(frame, ["deal", "rank", "mean", "ci_low", "ci_high"], "money_by_lot_lines")
    ax = _axes(ax)
    ranks = np.sort(frame["rank"].unique())
    pos = {r: i for i, r in enumerate(ranks)}
    with style():
        for k, (deal, part) in enumerate(frame.groupby("deal", sort=True)):
            part = part.sort_values("rank")
            x = np.array([pos[r] for r in part["rank"]])
            _band(ax, x, part["mean"], part["ci_low"], part["ci_high"],
                  DEAL_COLORS[k % len(DEAL_COLORS)], f"deal {int(deal) + 1}")
        if "label" in frame.columns:
            labels = frame.drop_duplicates("rank").set_index("rank")["label"]
            ax.set_xticks(range(len(ranks)), [str(labels[r]) for r in ranks])
        else:
            ax.set_xticks(range(len(ranks)), [str(r) for r in ranks])
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper left", ncols=2)
    return _finish(ax, title if title is not None else "Money paid per lot, by deal",
                   "lot (rank, in auction order)", "coins paid (mean, 95% band)")


def lot_price_bars(frame: pd.DataFrame, ax=None, title: str | None = None):
    """Price of sold lots by rank: mean with 95% interval (bar and whisker), median and
    quartiles (dot and thin line), from :func:`analysis.tables.lot_prices`."""
    _need(frame, ["rank", "price", "price_ci_low", "price_ci_high"], "lot_price_bars")
    ax = _axes(ax)
    f = frame.sort_values("rank")
    x = np.arange(len(f))
    labels = f["label"] if "label" in f.columns else f["rank"]
    with style():
        ax.bar(x, f["price"], color="#0072B2", width=0.62,
               alpha=0.85, label="mean price", zorder=2)
        ax.errorbar(x, f["price"], yerr=np.vstack([f["price"] - f["price_ci_low"],
                                                    f["price_ci_high"] - f["price"]]),
                    fmt="none", ecolor="#222222", capsize=3, zorder=3)
        if {"price_q1", "price_median", "price_q3"} <= set(f.columns):
            ax.vlines(x + 0.36, f["price_q1"], f["price_q3"], color="#D55E00", linewidth=1.4,
                      zorder=3, label="quartiles")
            ax.plot(x + 0.36, f["price_median"], "o", color="#D55E00", markersize=4, zorder=4,
                    label="median")
        ax.set_xticks(x, [str(v) for v in labels])
        ax.legend(loc="upper left")
    return _finish(ax, title if title is not None else "Price of a lot by rank",
                   "lot (rank)", "coins (sold lots)")


def price_value_line(frame: pd.DataFrame, ax=None, title: str | None = None,
                     xlabel: str = "points the buyer lays face up",
                     ylabel: str = "price paid, coins (mean, 95% CI)"):
    """Mean price by the lot's value to its buyer, with 95% intervals, from
    :func:`analysis.tables.price_vs_value` (columns ``buyer_value, mean, ci_low,
    ci_high``); the marker area grows with the number of matches behind the point."""
    _need(frame, ["buyer_value", "mean", "ci_low", "ci_high"], "price_value_line")
    ax = _axes(ax)
    f = frame.sort_values("buyer_value")
    with style():
        x = f["buyer_value"].to_numpy(float)
        _band(ax, x, f["mean"], f["ci_low"], f["ci_high"], "#0072B2", "mean price", marker="")
        if "matches" in f.columns:
            m = f["matches"].to_numpy(float)
            sizes = 12 + 60 * m / m.max() if m.max() > 0 else 20
            ax.scatter(x, f["mean"], s=sizes, color="#0072B2", zorder=4, label="_nolegend_")
        ax.set_ylim(bottom=0)
    return _finish(ax, title if title is not None else "Price against value", xlabel, ylabel)


def bid_ev_curve(frame: pd.DataFrame, ax=None, title: str | None = None,
                 best: str | None = None, ylabel: str = "expected match score (95% band)",
                 xlabel: str = "action (pass or bid in coins)"):
    """Expected outcome of each candidate action with a 95% band, from a bid-EV frame
    (columns ``action, mean, ci_low, ci_high``), actions in the frame's order; the best
    action (``best``, or the highest mean) is ringed."""
    _need(frame, ["action", "mean", "ci_low", "ci_high"], "bid_ev_curve")
    ax = _axes(ax)
    x = np.arange(len(frame))
    actions = [str(a) for a in frame["action"]]
    best = str(best) if best is not None else actions[int(np.argmax(frame["mean"].to_numpy()))]
    with style():
        _band(ax, x, frame["mean"], frame["ci_low"], frame["ci_high"], "#0072B2",
              "expected score")
        if best in actions:
            i = actions.index(best)
            ax.plot([x[i]], [frame["mean"].iloc[i]], "o", markersize=12, markerfacecolor="none",
                    markeredgecolor="#D55E00", markeredgewidth=2, zorder=5, label=f"best: {best}")
        ax.set_xticks(x, actions)
        ax.legend(loc="best")
    return _finish(ax, title if title is not None else "Expected outcome of each bid",
                   xlabel, ylabel)


def variant_differences(frame: pd.DataFrame, metric: str = "win", by: str = "strategy", ax=None,
                        title: str | None = None, baseline: str | None = None):
    """Paired differences (variant - baseline) of ``metric`` per group with 95%
    intervals, one colour per variant, from :class:`analysis.compare.Comparison`'s
    ``frame`` (columns ``metric, by, name, variant, diff, ci_low, ci_high``). Win shares
    are shown in percentage points."""
    _need(frame, ["metric", "by", "name", "variant", "diff", "ci_low", "ci_high"],
          "variant_differences")
    sel = frame[(frame["metric"] == metric) & (frame["by"] == by)]
    if sel.empty:
        raise ValueError(f"no rows with metric={metric!r} and by={by!r} in the frame")
    baseline = baseline if baseline is not None else sel["variant"].iloc[0]
    sel = sel[sel["variant"] != baseline]
    scale = 100.0 if metric == "win" else 1.0
    names = list(dict.fromkeys(sel["name"]))
    variants = list(dict.fromkeys(sel["variant"]))
    ax = _axes(ax)
    step = 0.8 / max(1, len(variants))
    with style():
        for k, v in enumerate(variants):
            part = sel[sel["variant"] == v].set_index("name").reindex(names)
            y = np.arange(len(names)) - 0.4 + step * (k + 0.5)
            d = scale * part["diff"].to_numpy(float)
            err = np.vstack([d - scale * part["ci_low"].to_numpy(float),
                             scale * part["ci_high"].to_numpy(float) - d])
            ax.errorbar(d, y, xerr=err, fmt="o", color=VARIANT_COLORS(v), capsize=3,
                        label=v, zorder=3)
        ax.axvline(0, color="#444444", linewidth=0.9, zorder=1)
        ax.set_yticks(range(len(names)), names)
        ax.set_ylim(len(names) - 0.5, -0.5)
        ax.grid(axis="y", visible=False)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=min(3, len(variants)),
                  title=f"variant, against {baseline}")
    unit = "percentage points of win share" if metric == "win" else f"change in mean {metric}"
    what = {"win": "win share", "score": "match score"}.get(metric, metric)
    return _finish(ax, title if title is not None else f"House variants: change in {what}",
                   f"{unit} (paired by match, 95% CI)")


def score_distribution(frame: pd.DataFrame, ax=None, title: str | None = None,
                       xlabel: str = "match score"):
    """Distribution of match scores per strategy as step lines, from
    :func:`reports.data.score_histogram` (columns ``name, bin_lo, bin_hi, share``):
    the y axis is the share of that strategy's seats per unit of score."""
    _need(frame, ["name", "bin_lo", "bin_hi", "share"], "score_distribution")
    ax = _axes(ax)
    with style():
        for name, part in frame.groupby("name", sort=False):
            part = part.sort_values("bin_lo")
            edges = np.append(part["bin_lo"].to_numpy(float), part["bin_hi"].iloc[-1])
            width = np.diff(edges)
            density = part["share"].to_numpy(float) / np.where(width > 0, width, 1)
            ax.stairs(density, edges, label=str(name), color=COLORS(str(name)), linewidth=1.8)
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper right")
    return _finish(ax, title if title is not None else "Distribution of match scores", xlabel,
                   "share of seats per point")


def self_play_path(frame: pd.DataFrame, ax=None, title: str | None = None,
                   param: str | None = None, target: float | None = None):
    """Self-play toward an equilibrium: the profile's parameter at each iteration (line,
    left axis; dashed: ``target``) and its exploitability (bars, right axis), from
    :class:`analysis.optimize.Optimization`'s ``history`` (``iteration, params`` as a
    dict or ``param_<name>`` columns, ``exploitability``)."""
    _need(frame, ["iteration", "exploitability"], "self_play_path")
    if param is None:
        flat = [c for c in frame.columns if c.startswith("param_")]
        param = flat[0][len("param_"):] if flat else next(iter(frame["params"].iloc[0]))
    values = (frame[f"param_{param}"] if f"param_{param}" in frame.columns
              else frame["params"].map(lambda p: p[param])).to_numpy(float)
    ax = _axes(ax)
    it = frame["iteration"].to_numpy()
    with style():
        twin = ax.twinx()
        twin.bar(it, frame["exploitability"], width=0.5, color="#E69F00", alpha=0.55,
                 label="exploitability", zorder=1)
        twin.set_ylabel("exploitability (score a best responder gains)")
        twin.grid(False)
        twin.spines["right"].set_visible(True)
        ax.set_zorder(twin.get_zorder() + 1)
        ax.patch.set_visible(False)
        ax.plot(it, values, "o-", color="#0072B2", label=f"profile {param}", zorder=3)
        if target is not None:
            ax.axhline(target, color=NEUTRAL, linestyle="--", linewidth=1.2,
                       label=f"equilibrium {param} = {target:.4g}")
        ax.set_xticks(it)
        handles = ax.get_legend_handles_labels()
        more = twin.get_legend_handles_labels()
        ax.legend(handles[0] + more[0], handles[1] + more[1], loc="center right")
    return _finish(ax, title if title is not None else "Self-play toward the equilibrium",
                   "iteration", f"parameter {param}")


def lines_by(frame: pd.DataFrame, x: str, ax=None, title: str | None = None,
             xlabel: str | None = None, ylabel: str | None = None):
    """One line with a 95% band per ``quantity`` of ``frame`` (columns ``x, quantity,
    mean, ci_low, ci_high``, e.g. :func:`analysis.tables.clustered_means` frames tagged
    with a quantity), against ``x`` numbered from 1."""
    _need(frame, [x, "quantity", "mean", "ci_low", "ci_high"], "lines_by")
    ax = _axes(ax)
    with style():
        for k, (q, part) in enumerate(frame.groupby("quantity", sort=False)):
            part = part.sort_values(x)
            _band(ax, part[x].to_numpy() + 1, part["mean"], part["ci_low"], part["ci_high"],
                  DEAL_COLORS[k % len(DEAL_COLORS)], str(q))
        ax.set_ylim(bottom=0)
        ax.legend(loc="upper right")
    return _finish(ax, title, xlabel if xlabel is not None else x, ylabel)


def exploitability_curve(frame: pd.DataFrame, ax=None, title: str | None = None,
                         unit: str = ""):
    """A solve's held-out exploitability (``iteration, value, ci_low, ci_high``, as
    :func:`analysis.solved.curve` gives it) against its iterations, with a 95% band."""
    _need(frame, ["iteration", "value", "ci_low", "ci_high"], "exploitability_curve")
    ax = _axes(ax)
    with style():
        _band(ax, frame["iteration"], frame["value"], frame["ci_low"], frame["ci_high"],
              "#0072B2", "exploitability")
        ax.axhline(0, color=NEUTRAL, linewidth=1)
        ax.set_xscale("log")
    return _finish(ax, title if title is not None else "Exploitability on held-out deals",
                   "iterations", f"best response's gain{' (' + unit + ')' if unit else ''}")


def bid_function(frame: pd.DataFrame, ax=None, title: str | None = None):
    """A solved bid function (``value, mean_bid, bid_p10, bid_p90, equilibrium``)
    against the known equilibrium line."""
    _need(frame, ["value", "mean_bid", "bid_p10", "bid_p90", "equilibrium"], "bid_function")
    ax = _axes(ax)
    with style():
        _band(ax, frame["value"], frame["mean_bid"], frame["bid_p10"], frame["bid_p90"],
              "#0072B2", "solution: mean bid (band: 10% to 90%)", marker="")
        ax.plot(frame["value"], frame["equilibrium"], "--", color=NEUTRAL,
                label="equilibrium (n-1)/n x value")
        ax.legend(loc="upper left")
    return _finish(ax, title if title is not None else "Solved bid function", "value", "bid")


def call_heatmap(frame: pd.DataFrame, calls, ax=None, title: str | None = None,
                 ylabel: str = "expected points of the hand's best suit"):
    """The probability of each call (columns ``calls``) by hand strength (``strength``,
    rows) for one decision, as a heat map: darker is likelier."""
    _need(frame, ["strength", *calls], "call_heatmap")
    ax = _axes(ax)
    data = frame.sort_values("strength")
    with style():
        image = ax.imshow(data[list(calls)].to_numpy(), aspect="auto", cmap="Blues", vmin=0,
                          vmax=1, origin="lower")
        ax.set_xticks(range(len(calls)), list(calls), rotation=30 if len(calls) > 5 else 0)
        ax.set_yticks(range(len(data)), [f"{s:.2f}" for s in data["strength"]])
        ax.grid(False)
        ax.figure.colorbar(image, ax=ax, label="probability")
    return _finish(ax, title, "call", ylabel)
