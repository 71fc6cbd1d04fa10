"""Estimators on cases with known answers: paired differences, house-variant comparison,
best response and self-play on the first-price auction (equilibrium a = (n-1)/n)."""

import json

import numpy as np
import pytest

from analysis.compare import compare
from analysis.optimize import optimize
from analysis.stats import mean_ci, paired_difference
from bidlab.cli import main
from sim.errors import BidlabError


def test_paired_difference_known_answer():
    rng = np.random.default_rng(1)
    x = rng.normal(size=20_000)
    d = paired_difference(x, x + 0.1 + rng.normal(scale=0.5, size=x.size))
    assert d["ci_low"] < 0.1 < d["ci_high"] and d["p_value"] < 1e-10
    same = paired_difference(x, x)
    assert same["diff"] == 0 and same["p_value"] == 1.0


def test_mean_ci_matches_textbook():
    x = np.array([1.0, 2.0, 3.0, 4.0])
    mean, lo, hi = mean_ci(x)
    assert mean == 2.5 and hi - mean == pytest.approx(3.182446 * np.std(x, ddof=1) / 2, rel=1e-6)


def test_variant_compared_with_itself_shows_no_difference():
    """Same rules written two ways: identical matches, every difference exactly zero."""
    c = compare("auktsion", ["default", "min_raise=1"], 3000, seed=2,
                strategies=["0=value", "1=random"])
    assert (c.frame["diff"] == 0).all() and (c.frame["p_value"] == 1.0).all()


def test_compare_detects_a_real_effect_and_pairs_by_match():
    c = compare("auktsion", ["leftover_value=1"], 4000, seed=3)
    f = c.frame[(c.frame.metric == "score") & (c.frame.by == "strategy")]
    changed = f[f.variant == "leftover_value=1"].iloc[0]
    assert changed["ci_low"] > 0 and changed["p_value"] < 1e-6  # leftover coins now count
    assert set(c.variants) == {"default", "leftover_value=1"}


def test_a_variant_with_another_seat_count_pairs_only_what_is_comparable():
    """issue 16: seat 0 of a three-player table is not seat 0 of a two-player one, so a
    variant that changes the table pairs only its per-strategy rows, and says why."""
    c = compare("fpsb", ["default", "players=3"], 2048, seed=1)
    rows = c.frame[c.frame.variant == "players=3"]
    assert set(rows["by"]) == {"strategy"}
    assert "3 seats against the baseline's 2" in c.left_out["players=3"]
    assert c.provenance["left_out"] == c.left_out
    same = compare("fpsb", ["default", "players=2"], 2048, seed=1)
    assert not same.left_out and "seat" in set(same.frame["by"])


def test_compare_errors_name_the_problem():
    with pytest.raises(BidlabError, match="unknown auktsion rule key 'nope'"):
        compare("auktsion", ["nope=1"], 100)
    with pytest.raises(BidlabError, match="at least two different variants"):
        compare("auktsion", ["default"], 100)


@pytest.mark.parametrize("players,start", [(2, "linear:a=0.2"), (4, "linear")])
def test_self_play_recovers_the_fpsb_equilibrium(players, start):
    """The symmetric equilibrium of a first-price auction with n uniform bidders bids
    (n-1)/n of the value; self-play must land within 2% of it."""
    result = optimize("fpsb", start, rules={"players": players}, n=200_000, seed=1,
                      self_play=6, seat=0)
    target = (players - 1) / players
    assert result.params["a"] == pytest.approx(target, rel=0.02)
    expl = result.history["exploitability"].to_numpy()
    assert expl[-1] < expl[0] / 20 and (expl >= 0).all()


def test_best_response_to_a_fixed_opponent():
    """Against an opponent bidding a*v with a >= 1/2, the best linear reply is b = 1/2."""
    result = optimize("fpsb", "linear", opponents="linear:a=0.8", n=30_000, seed=4, seat=0)
    assert result.params["a"] == pytest.approx(0.5, abs=0.02)


def test_optimize_errors():
    with pytest.raises(BidlabError, match="no parameter 'x' to tune"):
        optimize("fpsb", "linear", params=["x"], n=100)
    with pytest.raises(BidlabError, match="no continuous parameter"):
        optimize("fpsb", "random", n=100)
    with pytest.raises(BidlabError, match="seats are 0..1"):
        optimize("fpsb", "linear", seat=5, n=100)


def test_cli_json_shapes(capsys):
    assert main(["optimize", "fpsb", "--strategy", "linear", "--self-play", "1", "-n", "4096",
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["params"]) == {"a"}
    assert {"iteration", "params", "exploitability"} <= set(data["history"][0])
    assert main(["compare", "fpsb", "--variant", "players=3", "-n", "2048", "--json",
                 "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    row = data["metrics"][0]
    assert {"metric", "variant", "value", "diff", "ci_low", "ci_high", "p_value"} <= set(row)


def test_a_seat_share_interval_is_at_least_wilson_and_never_without_width():
    """One seat's share never (or always) won has no spread, so its t interval has no
    width; as a share it gets the Wilson interval: 0 wins in n, up to z^2 / (n + z^2)."""
    from analysis.summary import wilson_interval

    n, z2 = 20_000, 1.959964 ** 2
    assert mean_ci(np.zeros(n)) == (0.0, 0.0, 0.0)
    assert mean_ci(np.zeros(n), share_of=1) == pytest.approx((0.0, 0.0, z2 / (n + z2)))
    assert mean_ci(np.ones(n), share_of=1) == pytest.approx((1.0, n / (n + z2), 1.0))
    rng = np.random.default_rng(2)
    for p in (0.001, 0.3, 0.5):                  # ties split: values 0, 1/2 and 1
        x = (rng.random(400) < p) * rng.choice([0.5, 1.0], 400)
        _, lo, hi = mean_ci(x)
        _, slo, shi = mean_ci(x, share_of=1)
        wlo, whi = wilson_interval(x.sum(), len(x))
        assert slo == max(0.0, min(lo, wlo)) and shi == min(1.0, max(hi, whi))
        assert 0.0 <= slo < shi <= 1.0


def test_a_share_over_several_seats_keeps_its_t_interval_but_at_0_the_exact_bound():
    """A strategy in two seats of which one wins each match has a share of 1/2 in every
    match: its t interval (no width) is right, the Wilson one of a 0/1 share would be
    far too wide. Never winning in n matches: the exact bound 1 - 0.025^(1/n)."""
    n = 5000
    assert mean_ci(np.full(n, 0.5), share_of=2) == (0.5, 0.5, 0.5)
    x = np.where(np.arange(n) % 100 == 0, 0.0, 0.5)      # a draw in 1% of the matches
    assert mean_ci(x, share_of=2) == mean_ci(x)
    assert mean_ci(np.zeros(n), share_of=2) == pytest.approx((0.0, 0.0, 1 - 0.025 ** (1 / n)))
    assert mean_ci(np.ones(n), share_of=3) == pytest.approx((1.0, 0.025 ** (1 / n), 1.0))


def test_a_seat_that_never_wins_gets_an_upper_bound_on_its_win_share():
    """passive never buys a face card, so never wins an aukcio match (K14): its win share
    and its score (the win) are 0, with an interval above 0, not 0 to 0; the same in the
    summary of a run and in ``tables.equity``."""
    import bidlab
    from analysis import tables

    run = bidlab.simulate("aukcio", 2048, seed=1, strategies=["0,1=passive"], progress=False)
    z2 = 1.959964 ** 2
    eq = tables.equity(run.seats, ("score", "win"), ("score", "win")).set_index(
        ["metric", "by", "name"])
    row = run.summary.set_index(["by", "name"])
    for metric in ("score", "win"):
        seat = row.loc[("seat", "0 passive")]
        assert seat[metric] == seat[f"{metric}_ci_low"] == 0.0
        assert seat[f"{metric}_ci_high"] == pytest.approx(z2 / (2048 + z2))
        both = row.loc[("strategy", "passive")]                   # seats 0 and 1
        assert both[f"{metric}_ci_high"] == pytest.approx(1 - 0.025 ** (1 / 2048))
        assert eq.loc[(metric, "seat", "0 passive"), "ci_high"] == seat[f"{metric}_ci_high"]
        assert eq.loc[(metric, "strategy", "passive"), "ci_high"] == both[f"{metric}_ci_high"]


@pytest.mark.slow
def test_interval_coverage_of_a_known_mean_is_close_to_95_percent():
    """fpsb with a = 1/2 and two bidders: each bidder's expected payoff is exactly
    2a(1-a)/3 = 1/6. Over 200 seeds the 95% interval must cover it about 95% of the time."""
    import bidlab

    covered = 0
    seeds = 200
    for seed in range(seeds):
        s = bidlab.simulate("fpsb", 2048, seed=seed, strategies=["all=linear:a=0.5"]).summary
        row = s[(s["by"] == "seat") & (s["name"] == "0 linear")].iloc[0]
        covered += row["score_ci_low"] <= 1 / 6 <= row["score_ci_high"]
    assert 0.91 <= covered / seeds <= 0.99


def test_python_api_mirrors_the_cli():
    import bidlab

    assert callable(bidlab.bid_ev) and callable(bidlab.optimize) and callable(bidlab.compare)
    result = bidlab.compare("fpsb", ["players=3"], 2048)
    assert isinstance(result, bidlab.Comparison) and {"diff", "p_value"} <= set(result.frame)
