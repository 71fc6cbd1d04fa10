"""analysis.tables on hand-made frames with known answers, and on a real run."""

import numpy as np
import pandas as pd
import pytest

import bidlab
from analysis import tables as T


def seats_frame(scores, labels):
    """scores: matches x seats."""
    scores = np.asarray(scores, float)
    m, n = scores.shape
    return pd.DataFrame({"match": np.repeat(np.arange(m), n), "seat": np.tile(np.arange(n), m),
                         "strategy": np.tile(labels, m), "score": scores.ravel(),
                         "win": (scores == scores.max(axis=1, keepdims=True)).ravel() * 1.0})


def test_clustered_means_average_within_match_first():
    f = pd.DataFrame({"match": [0, 0, 0, 1], "rank": [5, 5, 6, 5], "price": [2.0, 4.0, 9.0, 7.0]})
    out = T.clustered_means(f, "rank", "price").set_index("rank")
    assert out.loc[5, "mean"] == pytest.approx((3.0 + 7.0) / 2) and out.loc[5, "matches"] == 2
    assert out.loc[6, "mean"] == 9.0 and np.isnan(out.loc[6, "ci_low"])


def test_seat_effect_known_answer_and_sums_to_zero():
    f = seats_frame([[10, 0], [12, 2], [11, 1]], ["a", "a"])
    eff = T.seat_effect(f).set_index("seat")
    assert eff.loc[0, "diff"] == pytest.approx(5.0) and eff.loc[1, "diff"] == pytest.approx(-5.0)
    assert eff["diff"].sum() == pytest.approx(0.0)


def test_strategy_differences_pairs_by_match():
    f = seats_frame([[10, 7, 7], [20, 15, 17], [30, 26, 28]], ["a", "b", "b"])
    d = T.strategy_differences(f).iloc[0]
    assert (d["first"], d["second"]) == ("a", "b")
    assert d["diff"] == pytest.approx(np.mean([3, 4, 3]))  # first minus second


def test_equity_and_money_flow_on_a_run():
    run = bidlab.simulate("auktsion", 3000, seed=5, detail=True, strategies=["0=value"])
    eq = T.equity(run.seats)
    win = eq[(eq.metric == "win") & (eq.by == "seat")]
    assert win["mean"].sum() == pytest.approx(1.0)
    flow = T.money_flow(run.table("deals"))
    first = flow[(flow.deal == 0) & (flow.quantity == "money_start")].iloc[0]
    assert first["mean"] == pytest.approx((4 * 70 - 130) / 4)  # A3: the hands hold 130 points
    prices = T.lot_prices(run.table("lots"), "23456789TJQKA")
    assert list(prices["label"]) == list("23456789TJQKA")
    assert ((prices["price_ci_low"] <= prices["price"]) & (prices["price"] <= prices["price_ci_high"])).all()
    assert (prices["sold_share"] <= 1).all()
    assert len(T.price_vs_value(run.table("lots"))) > 5


def test_matchpoints_known_answers_b11():
    """B11 "or matchpoints": 2 per result beaten, 1 per tie, over a top of 2 x (n - 1)."""
    f = pd.DataFrame({"board": [1, 1, 1, 1, 2, 2],
                      "field": ["a", "b", "c", "d", "a", "b"],
                      "score_ns": [420, 450, 420, -50, 100, 100]})
    s = T.matchpoints(f).set_index(["board", "field"])
    assert s.loc[(1, "b"), "mp"] == 6 and s.loc[(1, "b"), "pct"] == 100
    assert s.loc[(1, "a"), "mp"] == 3 and s.loc[(1, "c"), "mp"] == 3  # beat -50, tie 420
    assert s.loc[(1, "d"), "pct"] == 0
    assert s.loc[(2, "a"), "pct"] == 50 and s.loc[(2, "b"), "pct"] == 50
    per = T.field_percentages(T.matchpoints(f)).set_index("field")
    assert per.loc["b", "pct"] == pytest.approx((100 + 50) / 2)
    assert per.loc["a", "boards"] == 2
