"""The pitch kernel against the plain-Python reference engine and the referee; table
invariants; reproducibility; errors.

- The kernel and the reference engine (independent code: Python ints and lists) play
  the same games card for card, for every policy and a spread of house rules.
- The referee re-checks every card's legality and every point of kernel traces, and
  rejects traces that were tampered with.
- Invariants over many games: at most 4 points per deal (5 with the joker), every card
  dealt played exactly once, six tricks.
"""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

import bidlab
import strategies
from sim import harness as H
from sim.errors import IllegalActionError, RefereeError, StrategyError
from sim.games import get_game
from sim.games.pitch import engine
from sim.games.pitch import kernel as K
from sim.games.pitch import obs as O
from sim.games.pitch import reference as ref
from sim.games.pitch.referee import replay

GAME = get_game("pitch")
STRATEGIES = strategies.for_game("pitch")


def assignment(rules, specs):
    sa = strategies.assign_seats(STRATEGIES, rules.players, list(specs))
    return sa, {d: (sa.ids(d), sa.params(d)) for d in STRATEGIES.decisions}


VARIANTS = [{}, {"joker": True}, {"players": 2}, {"players": 7, "joker": True},
            {"all_pass": "stuck_dealer", "dealer_hold": False, "min_bid": 2},
            {"low_to": "captured", "game_tie": "pitcher", "smudge": True, "target": 11},
            {"players": 3, "max_deals": 3, "first_dealer": 2}]
SPECS = [["all=basic"], ["all=novice"], ["all=random+greedy:p_hold=0.9", "0=passive"],
         ["0=strength+pimc:samples=3", "all=strength+random"],
         ["all=strength+greedy:aggression=1.4,slack=0,risk=0,pull=1"]]


@pytest.mark.parametrize("overrides", VARIANTS)
def test_kernel_and_reference_play_the_same_games(overrides):
    """Two implementations of P1-P17 and of the policies agree call for call and card
    for card (same streams, same deal, same float arithmetic)."""
    rules = GAME.make_rules(overrides)
    for specs in SPECS:
        sa, pol = assignment(rules, specs)
        for index in range(3):
            kernel = GAME.trace(rules, pol, sa.labels, 5, index)
            assert kernel == ref.play(rules, sa, 5, index), (specs, index)


@pytest.mark.parametrize("players, spec", [(3, "strength+pimc:samples=4"),
                                           (2, "strength+pimc:samples=24"),
                                           (4, "strength+pimc:samples=17,race=1")])
def test_pimc_in_the_kernel_and_the_reference_agree(players, spec):
    """Sampling, playouts and (with 16 samples or more) racing agree to the card."""
    rules = GAME.make_rules({"players": players, "joker": True, "max_deals": 3})
    sa, pol = assignment(rules, [f"all={spec}"])
    for index in range(2):
        assert GAME.trace(rules, pol, sa.labels, 8, index) == ref.play(rules, sa, 8, index)


def test_seats_table_matches_the_reference():
    rules = GAME.make_rules({})
    sa, pol = assignment(rules, ["all=basic", "1=novice"])
    seats = GAME.run_chunk(rules, pol, sa.labels, 2, 100, 40)["seats"]
    py = ref.play_many(rules, sa, 2, 100, 40)
    assert seats["score"].reshape(40, 4).tolist() == py["score"]
    assert seats["win"].reshape(40, 4).tolist() == py["win"]
    assert seats["points"].reshape(40, 4).tolist() == py["points"]
    assert seats["deals"][::4].tolist() == py["deals"]


def test_reference_seats_mix_a_strategy_and_a_python_policy():
    """A tuple is one seat's parts: a strategy, and Python policies that replace its
    policies for their decision kinds. A Python port of greedy in the play half plays
    the kernel's games; the label keeps the strategy's non-default parameters."""
    rules = GAME.make_rules({"players": 3})
    sa, pol = assignment(rules, ["all=strength+greedy:aggression=1.4"])
    greedy = ref.PythonPolicy(ref._greedy, (10, 0), decision="play")
    seats = ref.seats_from(("strength:aggression=1.4", greedy), 3)
    assert [s.label for s in seats] == ["strength+python:_greedy:aggression=1.4"] * 3
    assert seats[0]["play"].python and not seats[0]["bid"].python
    for index in range(2):
        t = ref.play(rules, (greedy, "strength:aggression=1.4"), 4, index, labels=sa.labels)
        assert t == GAME.trace(rules, pol, sa.labels, 4, index)


def test_reference_seat_errors_name_the_seat_and_what_is_allowed():
    def f(o, p, r):
        return ref.lowest(o[O.LEGAL])
    with pytest.raises(StrategyError, match=r"seat 1: Python policy 'python:f' does not say which "
                                            r"decision it answers \(pitch has bid, play\): write "
                                            r"PythonPolicy\(func, decision='bid' or 'play'\)"):
        ref.play({}, ["basic", f, "basic", "basic"], 1, 0)
    with pytest.raises(StrategyError, match=r"seat 0: cannot use 42 as a pitch strategy; allowed: "
                                            r"a strategy text such as 'basic'"):
        ref.play({}, [42] * 4, 1, 0)
    with pytest.raises(StrategyError, match=r"seat 2: two Python policies \('python:f', 'python:g'\) "
                                            r"answer the play decision"):
        two = (ref.PythonPolicy(f, decision="play"), ref.PythonPolicy(f, name="g", decision="play"))
        ref.play({}, ["basic", "basic", two, "basic"], 1, 0)
    with pytest.raises(StrategyError, match=r"seat 3: unknown pitch policy 'budget'"):
        ref.play({}, ["basic"] * 3 + ["budget"], 1, 0)


@pytest.mark.parametrize("overrides", [{}, {"joker": True, "players": 5}, {"players": 2}])
def test_invariants_over_many_games(overrides):
    """Points per deal <= 4 (5 with the joker); a redeal scores nothing; the pitcher's
    deal score is his points or minus his contract; scores add up; one winner or a
    shared draw."""
    rules = GAME.make_rules(overrides)
    n = rules.players
    sa, pol = assignment(rules, ["all=novice", "0=basic", "1=strength+random"])
    t = GAME.run_chunk(rules, pol, sa.labels, 9, 0, 2000, detail=True)
    deals = pd.DataFrame({k: np.ma.filled(v, -1) if np.ma.isMaskedArray(v) else v
                          for k, v in t["deals"].items()})
    seats = pd.DataFrame(t["seats"])
    names = ["high", "low", "jack", "joker", "game"]
    per_deal = deals.groupby(["match", "deal"])
    won = per_deal[names].sum().sum(axis=1)
    assert won.max() <= (5 if rules.joker else 4)
    assert (per_deal["high"].sum() <= 1).all()
    assert (deals.loc[deals["pitcher"] < 0, names].sum().sum()) == 0
    pitcher_rows = deals[deals["seat"] == deals["pitcher"]]
    points = pitcher_rows[names].sum(axis=1)
    made = points >= pitcher_rows["contract"]
    assert (made == (pitcher_rows["made"] == 1)).all()
    assert (pitcher_rows["deal_score"][~made] == -pitcher_rows["contract"][~made]).all()
    final = deals.groupby(["match", "seat"])["score_after"].last().values
    assert (final == seats["score"].values).all()
    total = deals.groupby(["match", "seat"])["deal_score"].sum().values
    assert (total == seats["score"].values).all()
    wins = seats["win"].values.reshape(-1, n)
    assert np.allclose(wins.sum(axis=1), 1.0)
    assert (seats.groupby("match")["deals"].first().values
            == deals.groupby("match")["deal"].max().values + 1).all()


def test_trace_is_the_game_simulate_played():
    """``bidlab trace --seed S --index I`` shows game I of ``simulate --seed S``."""
    specs = ["all=basic", "2=expert:samples=4"]
    run = bidlab.simulate("pitch", 1100, seed=12, strategies=specs)
    for index in (0, 1030):
        t = bidlab.trace("pitch", seed=12, index=index, strategies=specs)
        rows = run.seats[run.seats["match"] == index]
        assert rows["score"].tolist() == t["scores"]
        assert rows["deals"].iloc[0] == t["deals_played"]
        assert rows["win"].tolist() == [1.0 if s == t["winner"] else 0.0 for s in range(4)]


def test_every_card_dealt_is_played_once_in_six_tricks():
    rules = GAME.make_rules({"joker": True})
    sa, pol = assignment(rules, ["all=novice", "2=expert:samples=2"])
    for index in range(10):
        t = GAME.trace(rules, pol, sa.labels, 1, index)
        replay(t)
        for deal in t["deals"]:
            if deal["pitcher"] is None:
                continue
            assert len(deal["tricks"]) == 6
            for seat, hand in enumerate(deal["hands"]):
                played = [c for tr in deal["tricks"] for s, c in tr["cards"] if s == seat]
                assert sorted(played) == sorted(hand)


def test_detail_table_rows_and_a_long_game_played_again_with_room():
    """A game longer than the rows reserved per game (32) is recorded in full."""
    rules = GAME.make_rules({"max_deals": 40})
    sa, pol = assignment(rules, ["all=passive+greedy"])
    t = GAME.run_chunk(rules, pol, sa.labels, 1, 0, 3, detail=True)
    assert len(t["deals"]["match"]) == 3 * 40 * 4
    assert t["deals"]["deal"].max() == 39 and t["deals"]["pitcher"].mask.all()
    rules = GAME.make_rules({})
    sa, pol = assignment(rules, ["all=basic"])
    t = GAME.run_chunk(rules, pol, sa.labels, 1, 0, 50, detail=True)
    assert len(t["deals"]["match"]) == t["seats"]["deals"][::4].sum() * 4


def test_runs_are_identical_in_any_chunking_and_thread_count(threads):
    def run(**kw):
        return bidlab.simulate("pitch", 2 * 1024 + 50, seed=4, detail=True,
                               strategies=["all=basic", "3=novice"], **kw)
    threads(1)
    a = run(chunk_size=1024)
    threads(2)
    b = run(chunk_size=2048)
    for name in ("seats", "deals"):
        pd.testing.assert_frame_equal(a.table(name), b.table(name), check_exact=True)
    pd.testing.assert_frame_equal(a.summary, b.summary, check_exact=True)
    pd.testing.assert_frame_equal(a.game_summary, b.game_summary, check_exact=True)


def test_game_summary_deals_per_game_and_made_rates():
    run = bidlab.simulate("pitch", 3000, seed=2, strategies=["all=basic", "0=novice"])
    gs = run.game_summary
    deals = gs[gs["by"] == "match"].iloc[0]
    mean = run.seats.groupby("match")["deals"].first().mean()
    assert deals["value"] == pytest.approx(mean) and deals["ci_low"] < mean < deals["ci_high"]
    rates = gs[gs["by"] != "match"]
    assert set(rates["name"]) == {"all", "random+random", "strength+greedy"}
    row = rates[(rates["name"] == "all") & rates["metric"].str.endswith(": all")].iloc[0]
    seats = run.seats
    assert row["value"] == pytest.approx(seats["made"].sum() / seats["pitched"].sum())
    assert row["ci_low"] < row["value"] < row["ci_high"] and row["count"] == seats["pitched"].sum()
    assert ((rates["ci_low"] <= rates["value"]) | rates["value"].isna()).all()
    assert ((rates["ci_low"] >= 0) & (rates["ci_high"] <= 1) | rates["value"].isna()).all()


def test_fixed_hands_are_dealt_and_the_rest_at_random():
    rules = GAME.make_rules({})
    sa, pol = assignment(rules, ["all=basic"])
    hand = sum(1 << c for c in (51, 50, 49, 48, 47, 46))    # AS KS QS JS TS 9S
    fixed = np.array([[hand, -1, -1, -1]], np.int64)
    for index in range(3):
        t = GAME.trace(rules, pol, sa.labels, 1, index, deals=fixed)
        replay(t)
        assert t["deals"][0]["hands"][0] == ["9S", "TS", "JS", "QS", "KS", "AS"]
        assert t["deals"][0]["pitcher"] == 0 and t["deals"][0]["trump"] == "S"
        assert t == ref.play(rules, sa, 1, index, fixed=fixed.tolist())
    seats = GAME.run_chunk(rules, pol, sa.labels, 1, 0, 200,            # a row per game
                           deals=np.repeat(fixed, 200, axis=0))["seats"]
    assert (seats["pitched"][::4] >= 1).all()


# -- the referee ----------------------------------------------------------------------------

def a_trace():
    rules = GAME.make_rules({"joker": True})
    sa, pol = assignment(rules, ["all=basic"])
    for index in range(20):
        t = GAME.trace(rules, pol, sa.labels, 3, index)
        if t["deals"][0]["pitcher"] is not None and len(t["deals"]) > 1:
            return t
    raise AssertionError("no suitable game")


def tamper(fn):
    t = copy.deepcopy(a_trace())
    fn(t)
    return t


def _other_winner(t):
    trick = t["deals"][0]["tricks"][0]
    trick["winner"] = (trick["winner"] + 1) % 4


def _other_game_point(t):
    points = t["deals"][0]["points"]
    points["game"] = None if points["game"] is not None else 0


@pytest.mark.parametrize("change, message", [
    (_other_winner, "takes the trick (P8)"),
    (lambda t: t["deals"][0]["deal_scores"].__setitem__(0, 9), "deal_scores"),
    (_other_game_point, "game point"),
    (lambda t: t["deals"][0].update(trump="C" if t["deals"][0]["trump"] != "C" else "D"), "(P6)"),
    (lambda t: t["deals"][0]["hands"][1].__setitem__(0, t["deals"][0]["hands"][0][0]),
     "dealt twice"),
    (lambda t: t.update(winner=None), "winner is None"),
    (lambda t: t["deals"][0]["bids"].reverse(), "(P2)"),
    (lambda t: t.update(deals_played=99), "deals_played"),
])
def test_referee_rejects_tampered_traces(change, message):
    t = tamper(change)
    with pytest.raises(RefereeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        replay(t)


def test_referee_rejects_a_card_that_breaks_P7():
    t = copy.deepcopy(a_trace())
    deal = t["deals"][0]
    trump = deal["trump"]
    # find a follower of trick 0 (trump led) who held a trump and swap in a side card
    for k in range(1, 4):
        seat, card = deal["tricks"][0]["cards"][k]
        side = [c for c in deal["hands"][seat] if c[1] != trump and c != "JK"]
        if (card[1] == trump or card == "JK") and side:
            deal["tricks"][0]["cards"][k][1] = side[0]
            break
    else:
        pytest.skip("no suitable follower")
    with pytest.raises(RefereeError, match=r"\(P7\)|not in seat"):
        replay(t)


def test_referee_accepts_the_reference_and_kernel_traces():
    t = a_trace()
    assert replay(t).details["cards"] == sum(24 for d in t["deals"] if d["pitcher"] is not None)


# -- errors ---------------------------------------------------------------------------------

def test_kernel_errors_name_game_deal_seat_policy_and_the_legal_actions():
    err = H.new_errors(2)
    # code, seat, deal, step (trick), card, legal mask, trump
    err[1] = [K.ILLEGAL_CARD, 2, 3, 4, 13, (1 << 0) | (1 << 52), 0]
    with pytest.raises(IllegalActionError, match=r"game 11, deal 3, seat 2, trick 4: play "
                                                 r"policy of 'c' played 2D, which is illegal; "
                                                 r"legal: 2C JK \(rule P7\)"):
        H.check(err, 10, engine.explain, ("a", "b", "c", "d"))
    err[1] = [H.ILLEGAL, 1, 0, 1, 2, 3, 2]  # ..., turn, bid, lowest legal bid, hold at
    with pytest.raises(IllegalActionError, match=r"bid policy of 'b' answered 2, which is "
                                                 r"illegal; legal: a pass \(0\), a bid of 3..4, "
                                                 r"a hold \(-1\) at 2"):
        H.check(err, 10, engine.explain, ("a", "b", "c", "d"))


def test_strategies_name_both_halves_and_bundles():
    sa = strategies.assign_seats(STRATEGIES, 4, ["all=expert", "0=strength+pimc:samples=32",
                                                 "1=random+random", "2=novice:p_bid=0.5"])
    assert sa.labels[0] == "strength+pimc" and sa.labels[3] == "strength+pimc"
    assert sa.labels[1] == "random+random" and sa.labels[2] == "random+random:p_bid=0.5"
    assert sa.ids("play").tolist() == [2, 0, 0, 2] and sa.ids("bid").tolist() == [2, 1, 1, 2]
    s = STRATEGIES.parse("greedy")
    assert s.label == "strength+greedy"
    with pytest.raises(StrategyError, match="samples='0' is out of range: allowed 1..4096"):
        STRATEGIES.parse("strength+pimc:samples=0")
    with pytest.raises(StrategyError, match="unknown pitch policy 'smart'; known: passive, "
                                            "random, strength, solved, greedy, pimc, basic"):
        STRATEGIES.parse("strength+smart")
    with pytest.raises(StrategyError, match="names two policies for the same decision"):
        STRATEGIES.parse("strength+passive")
    with pytest.raises(StrategyError, match="names two policies for the same decision"):
        STRATEGIES.parse("greedy+pimc")
