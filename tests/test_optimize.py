"""The optimiser's held-out scoring, its family of responders, the parameters it leaves
alone under rules where they cannot act, and a known answer: the best response to
linear bidders in the first-price auction and its exact gain."""

from __future__ import annotations

import json

import numpy as np
import pytest

import strategies
from analysis.optimize import _tunable, optimize
from analysis.runs import simulate
from analysis.spec import make_rules
from bidlab.cli import main
from sim.errors import BidlabError
from sim.games import get_game


def fpsb_gain(a: float, n: int) -> float:
    """Expected gain of one bidder's best response over bidding a*v when the n - 1 others
    bid a*v (values uniform on [0, 1)): bidding b <= a wins with probability (b/a)^(n-1),
    so the best bid is min((n-1)/n * v, a); bidding a*v earns (1-a) v^n."""
    from scipy.integrate import quad

    def best(v):
        b = min((n - 1) / n * v, a)
        return (v - b) * min(b / a, 1.0) ** (n - 1)

    kink = min(1.0, n * a / (n - 1))  # where the cap starts to bind
    total = quad(best, 0, kink)[0] + (quad(best, kink, 1)[0] if kink < 1 else 0.0)
    return total - quad(lambda v: (1 - a) * v ** n, 0, 1)[0]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("a", [0.2, 0.5, 0.9])
def test_known_answer_best_response_gain_in_fpsb(a, players):
    """The family (linear; capped: min(c v, cap)) holds the best response; tuned on one
    set of matches, its gain on fresh ones must have a 95% interval that covers the
    closed form (0 for a = 1/2 with two bidders: the equilibrium)."""
    result = optimize("fpsb", f"linear:a={a}", rules={"players": players}, responders=["capped"],
                      n=40_000, seed=2, seat=0)
    e = result.exploitability
    exact = fpsb_gain(a, players)
    assert e["gain_ci_low"] <= exact <= e["gain_ci_high"], (e, exact)
    assert e["gain_ci_high"] - e["gain_ci_low"] < 0.01  # an interval that means something
    assert e["family"] == "linear (a); capped (c, cap)"
    if exact > 0.005 and result.best.startswith("capped"):  # close to min((n-1)/n v, a)
        top = (players - 1) / players
        assert result.params["c"] == pytest.approx(top, abs=0.05)
        if a < top:
            assert result.params["cap"] == pytest.approx(a, abs=0.02)
        else:
            assert result.params["cap"] > top - 0.05

def test_fpsb_gain_closed_forms():
    # two bidders, cap not binding (a >= 1/2): E[(v - v/2)(v/(2a))] - (1-a)/3
    assert fpsb_gain(0.9, 2) == pytest.approx(1 / (12 * 0.9) - 0.1 / 3)
    assert fpsb_gain(0.5, 2) == pytest.approx(0.0, abs=1e-12)


def test_held_out_matches_are_the_next_ones_of_the_same_seed():
    """Tuning plays matches 0..n-1, scoring n..n+m-1: the profile's held-out score is its
    mean over exactly those matches of a plain simulation."""
    n, m = 2048, 3072
    result = optimize("fpsb", "linear:a=0.3", n=n, holdout=m, seed=5, seat=1)
    pv = result.provenance
    assert pv["tuning_matches"] == [0, n - 1] and pv["holdout_matches"] == [n, n + m - 1]
    seats = simulate("fpsb", n + m, seed=5, strategies=["all=linear:a=0.3"]).seats
    fresh = seats[(seats["match"] >= n) & (seats["seat"] == 1)]["score"]
    assert result.history["holdout_score"].iloc[0] == pytest.approx(fresh.mean(), rel=1e-12)
    tuned = seats[(seats["match"] < n) & (seats["seat"] == 1)]["score"]
    assert result.history["score"].iloc[0] == pytest.approx(tuned.mean(), rel=1e-12)


def test_self_play_returns_the_least_exploitable_profile_and_says_how_each_was_made():
    result = optimize("fpsb", "linear:a=0.2", rules={"players": 2}, n=20_000, seed=3,
                      self_play=5, seat=0)
    h = result.history
    assert h["step"].iloc[0] == "start"
    assert set(h["step"].iloc[1:]) <= {"best response", "extrapolation"}
    assert "extrapolation" in set(h["step"])  # one parameter: Steffensen every other step
    pick = result.exploitability["iteration"]
    assert h["exploitability"].iloc[pick] == h["exploitability"].min()
    assert result.params == h["params"].iloc[pick]
    tuned = strategies.for_game("fpsb").parse(result.best).policy("bid")
    assert tuned[0].name == "linear" and tuned[1][0] == pytest.approx(result.params["a"])
    assert (h["exploitability"] >= 0).all()
    assert (h["gain_ci_low"] <= h["gain"]).all() and (h["gain"] <= h["gain_ci_high"]).all()
    assert result.params["a"] == pytest.approx(0.5, abs=0.03)


def test_parameters_that_cannot_act_are_not_tuned():
    gs = strategies.for_game("auktsion")
    budget = gs.parse("budget")
    policy, names, idle = _tunable(budget, None, make_rules("auktsion", {}))
    assert names == ["aggression", "future_weight"]
    assert idle == [{"policy": "budget", "param": "shade",
                     "why": "acts only with auction_form=sealed (here auction_form=open)"}]
    _, names, idle = _tunable(budget, None, make_rules("auktsion", {"auction_form": "sealed"}))
    assert names == ["aggression", "future_weight", "shade"] and idle == []
    _, names, idle = _tunable(budget, None, make_rules("auktsion", {"carry_money": False}))
    assert names == ["aggression"]
    assert {i["param"] for i in idle} == {"future_weight", "shade"}
    with pytest.raises(BidlabError, match="acts only with auction_form=sealed"):
        _tunable(budget, ["shade"], make_rules("auktsion", {}))
    setvalue = strategies.for_game("aukcio").parse("setvalue")
    _, names, idle = _tunable(setvalue, None, make_rules("aukcio", {}))
    assert "shade" not in names and [i["param"] for i in idle] == ["shade"]
    _, names, _ = _tunable(setvalue, None, make_rules("aukcio", {"bidding": "single"}))
    assert "shade" in names


def _violating(game: str, cond) -> dict:
    """Rules under which ``cond`` fails (the other rules at their defaults)."""
    if cond.above is not None:
        return {cond.key: cond.above}
    key = next(k for k in get_game(game).rule_keys if k.name == cond.key)
    if key.kind == "bool":
        return {cond.key: not cond.values[0]}
    return {cond.key: next(c for c in key.choices if c not in cond.values)}


def _declared():
    for game in ("auktsion", "aukcio", "pitch", "vybory", "fpsb"):
        gs = strategies.for_game(game)
        for p in gs.policies:
            for q in p.params:
                for cond in q.acts_when:
                    yield game, p, q, cond


@pytest.mark.parametrize("game,policy,param,cond", list(_declared()),
                         ids=lambda x: getattr(x, "name", None) or str(x))
def test_acts_when_declarations_are_true(game, policy, param, cond):
    """Where a declared condition fails, the parameter at its two bounds plays the same
    matches; where the conditions hold, it changes them (the declaration is not empty)."""
    def tables(rules, value):
        spec = f"{policy.name}:{policy.name}.{param.name}={value:g}"
        run = simulate(game, 1024, seed=1, rules=rules, strategies=[f"all={spec}"])
        return run.seats.drop(columns=["strategy"])

    off = _violating(game, cond)
    assert tables(off, param.lo).equals(tables(off, param.hi))
    on = {c.key: c.values[0] for c in param.acts_when if c.above is None}
    assert not tables(on, param.lo).equals(tables(on, param.hi))


def test_family_errors():
    with pytest.raises(BidlabError, match="unknown fpsb policy 'nope'"):
        optimize("fpsb", "linear", responders=["nope"], n=100)
    with pytest.raises(BidlabError, match="already in the family"):
        optimize("fpsb", "linear", responders=["linear"], n=100)
    with pytest.raises(BidlabError, match="at least 2 held-out"):
        optimize("fpsb", "linear", holdout=1, n=100)


def test_a_responder_without_parameters_is_played_as_given():
    result = optimize("fpsb", "linear:a=0.99", responders="random", n=4096, seed=1, seat=0)
    assert result.family == ["linear (a)", "random (as given)"]
    assert result.history["responder"].iloc[0] in {"linear", "random"}


def test_cli_text_and_json(capsys):
    assert main(["optimize", "fpsb", "--strategy", "linear:a=0.2", "--rule", "players=4",
                 "--responders", "capped", "--seat", "0", "-n", "8192"]) == 0
    out = capsys.readouterr().out
    assert "family F of responders: linear (a); capped (c, cap)" in out
    assert "exploitability of 'linear:a=0.2' in every seat: at least" in out
    assert "fresh matches 8,192..16,383" in out
    assert main(["optimize", "fpsb", "--strategy", "linear:a=0.2", "--self-play", "2",
                 "-n", "4096", "--holdout", "2048", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"params", "best", "exploitability", "family", "not_tuned", "history",
            "provenance"} <= set(data)
    row = data["history"][0]
    assert {"iteration", "step", "params", "score", "responder", "best_response",
            "best_response_score", "tuning_gain", "gain", "gain_ci_low", "gain_ci_high",
            "exploitability", "exploitability_ci_low", "exploitability_ci_high", "holdout_score",
            "holdout_best_response_score"} <= set(row)
    assert [r["step"] for r in data["history"]][0] == "start"
    e = data["exploitability"]
    assert {"estimate", "ci_low", "ci_high", "iteration", "family", "holdout"} <= set(e)
    assert e["holdout"] == {"seed": 0, "start": 4096, "count": 2048}
    assert np.isfinite([e["estimate"], e["ci_low"], e["ci_high"]]).all()


def test_cli_help_explains_held_out_scoring_and_the_family(capsys):
    with pytest.raises(SystemExit):
        main(["optimize", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "held-out matches" in text and "family F" in text and "--responders" in text
    assert "least exploitable profile" in text and "Aitken" in text
