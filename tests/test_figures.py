"""reports.figures on fixed frames: the drawn data (bar lengths, whisker ends, line
points, bands) equal the frame's numbers; one style; no global side effects."""

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.patches import StepPatch

from reports import data as D
from reports import figures as F
from reports.document import png_bytes
from reports.style import COLORS, RC, new_axes

EQUITY = pd.DataFrame({
    "metric": ["score"] * 4 + ["win"] * 4,
    "by": ["strategy", "strategy", "seat", "seat"] * 2,
    "name": ["budget", "value", "0 budget", "1 value"] * 2,
    "matches": [100] * 8,
    "mean": [71.5, 30.0, 71.5, 30.0, 0.9, 0.1, 0.9, 0.1],
    "ci_low": [70.5, 29.0, 70.0, 28.5, 0.85, 0.05, 0.84, 0.06],
    "ci_high": [72.5, 31.0, 73.0, 31.5, 0.95, 0.15, 0.96, 0.14],
})


def bars(ax):
    return next(c for c in ax.containers if isinstance(c, BarContainer))


def whiskers(ax):
    """(start, end) of each error bar along its axis."""
    err = next(c for c in ax.containers if isinstance(c, ErrorbarContainer))
    segs = err.lines[2][0].get_segments()
    return np.array([[s[0][0], s[1][0]] if s[0][1] == s[1][1] else [s[0][1], s[1][1]]
                     for s in segs])


def test_equity_bars_draw_means_and_intervals():
    ax = F.equity_bars(EQUITY, "score", by="strategy")
    assert [p.get_width() for p in bars(ax)] == [71.5, 30.0]
    np.testing.assert_allclose(whiskers(ax), [[70.5, 72.5], [29.0, 31.0]])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["budget", "value"]
    assert "95% CI" in ax.get_xlabel()


def test_equity_bars_by_seat_colour_by_strategy():
    ax = F.equity_bars(EQUITY, "score", by="seat")
    colors = [matplotlib.colors.to_hex(p.get_facecolor()) for p in bars(ax)]
    assert colors == [COLORS("budget").lower(), COLORS("value").lower()]


def test_the_same_strategy_has_the_same_colour_everywhere():
    a = F.equity_bars(EQUITY, "score")
    b = F.win_share_bars(EQUITY)
    ca = [matplotlib.colors.to_hex(p.get_facecolor()) for p in bars(a)]
    cb = [matplotlib.colors.to_hex(p.get_facecolor()) for p in bars(b)]
    assert ca == cb and len(set(ca)) == 2


def test_win_share_bars_in_percent_with_fair_share():
    ax = F.win_share_bars(EQUITY, by="seat")
    np.testing.assert_allclose([p.get_width() for p in bars(ax)], [90.0, 10.0])
    np.testing.assert_allclose(whiskers(ax), [[84.0, 96.0], [6.0, 14.0]])
    fair = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
    assert len(fair) == 1 and fair[0].get_xdata()[0] == pytest.approx(50.0)


def test_drawing_on_a_given_ax_returns_it():
    ax = new_axes()
    assert F.equity_bars(EQUITY, ax=ax) is ax


def test_missing_columns_and_rows_are_clear_errors():
    with pytest.raises(ValueError, match="needs columns"):
        F.equity_bars(EQUITY.drop(columns="ci_low"))
    with pytest.raises(ValueError, match="metric='bid'"):
        F.equity_bars(EQUITY, "bid")
    with pytest.raises(ValueError, match="needs columns"):
        F.bid_ev_curve(pd.DataFrame({"action": ["pass"], "mean": [1.0]}))


def test_seat_effect_bars():
    eff = pd.DataFrame({"seat": [0, 1, 2], "diff": [-0.2, 0.05, 0.15],
                        "ci_low": [-0.3, -0.05, 0.05], "ci_high": [-0.1, 0.15, 0.25]})
    ax = F.seat_effect_bars(eff)
    np.testing.assert_allclose([p.get_width() for p in bars(ax)], [-0.2, 0.05, 0.15])
    np.testing.assert_allclose(whiskers(ax), [[-0.3, -0.1], [-0.05, 0.15], [0.05, 0.25]])


def test_money_flow_lines_and_bands():
    rows = []
    for q, base in (("money_start", 40), ("spent", 10), ("money_end", 30)):
        for d in range(3):
            rows.append({"deal": d, "quantity": q, "matches": 50, "mean": base + d,
                         "ci_low": base + d - 0.5, "ci_high": base + d + 0.5})
    mf = pd.DataFrame(rows)
    ax = F.money_flow_lines(mf)
    lines = {ln.get_label(): ln for ln in ax.get_lines()}
    start = lines[F.QUANTITY_LABELS["money_start"]]
    np.testing.assert_array_equal(start.get_xdata(), [1, 2, 3])  # deals numbered from 1
    np.testing.assert_allclose(start.get_ydata(), [40, 41, 42])
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 3
    ys = bands[0].get_paths()[0].vertices[:, 1]
    assert ys.min() == pytest.approx(39.5) and ys.max() == pytest.approx(42.5)


def test_money_by_lot_lines_one_line_per_deal():
    lots = pd.DataFrame({"match": np.repeat(np.arange(4), 6), "deal": np.tile([0, 0, 0, 1, 1, 1], 4),
                         "rank": np.tile([0, 1, 2], 8),
                         "price": np.tile([1.0, np.nan, 3.0, 2.0, 4.0, 6.0], 4)})
    mbl = D.money_by_lot(lots, "234")
    assert list(mbl["label"]) == list("234234")
    assert mbl.loc[(mbl.deal == 0) & (mbl["rank"] == 1), "mean"].item() == 0.0  # unsold pays 0
    ax = F.money_by_lot_lines(mbl)
    lines = [ln for ln in ax.get_lines() if ln.get_label().startswith("deal")]
    assert [ln.get_label() for ln in lines] == ["deal 1", "deal 2"]
    np.testing.assert_allclose(lines[1].get_ydata(), [2, 4, 6])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2", "3", "4"]


def test_lot_price_bars():
    lp = pd.DataFrame({"rank": [0, 1], "label": ["2", "3"], "price": [4.0, 6.0],
                       "price_ci_low": [3.5, 5.0], "price_ci_high": [4.5, 7.0], "price_q1": [3, 4],
                       "price_median": [4, 5], "price_q3": [5, 8]})
    ax = F.lot_price_bars(lp)
    assert [p.get_height() for p in bars(ax)] == [4.0, 6.0]
    np.testing.assert_allclose(whiskers(ax), [[3.5, 4.5], [5.0, 7.0]])


def test_price_value_line():
    pv = pd.DataFrame({"buyer_value": [3, 1, 2], "matches": [10, 30, 20], "mean": [9.0, 3.0, 6.0],
                       "ci_low": [8.0, 2.0, 5.0], "ci_high": [10.0, 4.0, 7.0]})
    ax = F.price_value_line(pv)
    line = ax.get_lines()[0]
    np.testing.assert_array_equal(line.get_xdata(), [1, 2, 3])  # sorted by value
    np.testing.assert_allclose(line.get_ydata(), [3.0, 6.0, 9.0])


BIDEV = pd.DataFrame({"action": ["pass", "bid 1", "bid 2", "bid 3"],
                      "mean": [10.0, 12.5, 13.0, 11.0], "ci_low": [9.0, 11.5, 12.0, 10.0],
                      "ci_high": [11.0, 13.5, 14.0, 12.0]})


def test_bid_ev_curve_line_band_and_best():
    ax = F.bid_ev_curve(BIDEV)
    line = ax.get_lines()[0]
    np.testing.assert_allclose(line.get_ydata(), BIDEV["mean"])
    assert [t.get_text() for t in ax.get_xticklabels()] == list(BIDEV["action"])
    band = [c for c in ax.collections if isinstance(c, PolyCollection)][0]
    ys = band.get_paths()[0].vertices[:, 1]
    assert ys.min() == pytest.approx(9.0) and ys.max() == pytest.approx(14.0)
    ring = [ln for ln in ax.get_lines() if ln.get_label().startswith("best")]
    assert ring[0].get_label() == "best: bid 2" and ring[0].get_xdata()[0] == 2


def test_variant_differences_leave_out_the_baseline():
    frame = pd.DataFrame({
        "metric": ["win"] * 6, "by": ["strategy"] * 6, "name": ["a", "b"] * 3,
        "variant": ["default", "default", "x=1", "x=1", "y=2", "y=2"],
        "value": [0.5] * 6, "diff": [0, 0, 0.02, -0.02, -0.01, 0.01],
        "ci_low": [0, 0, 0.01, -0.03, -0.02, 0.0], "ci_high": [0, 0, 0.03, -0.01, 0.0, 0.02],
        "p_value": [1, 1, 0.001, 0.001, 0.05, 0.05]})
    ax = F.variant_differences(frame, "win")
    errs = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(errs) == 2  # x=1 and y=2, not the baseline
    np.testing.assert_allclose(errs[0].lines[0].get_xdata(), [2.0, -2.0])  # percentage points
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["x=1", "y=2"]


def test_score_distribution_shares_sum_to_one():
    seats = pd.DataFrame({"strategy": ["a"] * 50 + ["b"] * 50,
                          "score": np.r_[np.arange(50) % 7, 10 + np.arange(50) % 5].astype(float)})
    hist = D.score_histogram(seats)
    assert hist.groupby("name")["share"].sum().tolist() == pytest.approx([1.0, 1.0])
    ax = F.score_distribution(hist)
    steps = [p for p in ax.patches if isinstance(p, StepPatch)]
    assert len(steps) == 2
    for st in steps:
        values, edges = st.get_data().values, st.get_data().edges
        assert float(np.sum(values * np.diff(edges))) == pytest.approx(1.0)


def test_self_play_path():
    hist = pd.DataFrame({"iteration": [0, 1, 2], "params": [{"a": 0.2}, {"a": 0.5}, {"a": 0.74}],
                         "exploitability": [0.1, 0.02, 0.001]})
    ax = F.self_play_path(hist, target=0.75)
    line = [ln for ln in ax.get_lines() if ln.get_label() == "profile a"][0]
    np.testing.assert_allclose(line.get_ydata(), [0.2, 0.5, 0.74])
    target = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"][0]
    assert target.get_ydata()[0] == pytest.approx(0.75)
    flat = D.flat_history(hist)
    assert list(flat["param_a"]) == [0.2, 0.5, 0.74]
    ax2 = F.self_play_path(flat, param="a")
    assert [ln for ln in ax2.get_lines() if ln.get_label() == "profile a"]


def test_png_is_deterministic_and_style_leaves_no_trace():
    before = dict(matplotlib.rcParams)
    a = png_bytes(F.equity_bars(EQUITY))
    b = png_bytes(F.equity_bars(EQUITY))
    assert a[:8] == b"\x89PNG\r\n\x1a\n" and a == b
    assert dict(matplotlib.rcParams) == before
    assert RC["font.sans-serif"] == ["DejaVu Sans"]
