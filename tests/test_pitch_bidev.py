"""Bid-EV for pitch: situations, candidates, rollouts of the rest of the game on common
random numbers, hidden hands consistent with what is public, the CLI."""

import json
import re
from collections import Counter

import numpy as np
import pytest

from analysis.bidev import bid_ev
from analysis.runs import policy_arrays
from analysis.spec import make_rules, seat_strategies
from analysis.summary import wilson_interval
from sim.cards import parse_cards
from sim.errors import BidlabError
from sim.games.pitch import rollout as RO

HAND = "AH KH 7H 2H 9C 3D"
BASE = {"seat": "2", "hand": HAND, "dealer": "3", "bids": "pass,2", "scores": "3,5,0,6"}


def policies(rules, strategies=None):
    seats = seat_strategies("pitch", rules, strategies)
    return policy_arrays("pitch", seats), seats.labels


def test_result_shape_metric_and_reproducibility(threads):
    threads(1)
    a = bid_ev("pitch", BASE, rollouts=500, seed=3)
    threads(2)
    b = bid_ev("pitch", BASE, rollouts=500, seed=3)
    assert a.frame.equals(b.frame) and a.best == b.best and a.p_best == b.p_best
    f = a.frame
    assert list(f["action"]) == ["pass", "bid 3", "bid 4"]  # must beat the 2 (P2)
    assert a.metric == "win" and (f["mean"] == f["win"]).all()  # ranked by win share
    assert {"score", "score_ci_low", "score_ci_high"} <= set(f.columns)
    assert ((f["ci_low"] <= f["mean"]) & (f["mean"] <= f["ci_high"])).all()
    assert ((0 <= f["mean"]) & (f["mean"] <= 1)).all()
    assert f["p_best"].sum() == pytest.approx(1.0)
    assert a.best == f.loc[f["mean"].idxmax(), "action"]
    assert a.situation == {"seat": 2, "hand": ["AH", "KH", "7H", "2H", "9C", "3D"],
                           "dealer": 3, "bids": [{"seat": 0, "bid": None},
                                                 {"seat": 1, "bid": 2}],
                           "scores": [3, 5, 0, 6], "deal": 0}
    c = bid_ev("pitch", BASE, rollouts=500, seed=4)
    assert not c.frame.equals(a.frame)


def test_auktsion_keeps_its_frame():
    """The metric is the game's choice: auktsion still ranks by match score, with the
    columns it always had."""
    r = bid_ev("auktsion", {"hand": "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H",
                            "money": "38,36,37,39", "lot": "7", "seat": "1"}, rollouts=50,
               seed=1,
               candidates=["pass", "3"])
    assert r.metric == "score"
    assert list(r.frame.columns) == ["action", "mean", "ci_low", "ci_high", "win", "win_ci_low",
                                     "win_ci_high", "diff_vs_best", "diff_ci_low", "diff_ci_high", "p_best",
                                     "group"]


def test_the_dealer_may_hold_and_candidates_restrict():
    r = bid_ev("pitch", {"seat": "3", "hand": HAND, "bids": "pass,2,pass"}, rollouts=200,
               seed=1)
    assert r.situation["dealer"] == 3  # inferred: the dealer speaks last
    assert list(r.frame["action"]) == ["pass", "bid 3", "bid 4", "hold"]
    r = bid_ev("pitch", {"seat": "3", "hand": HAND, "bids": "pass,2,pass"}, rollouts=200,
               seed=1, candidates=["hold,pass", "4"])
    assert list(r.frame["action"]) == ["hold", "pass", "bid 4"]
    r = bid_ev("pitch", {"seat": "3", "hand": HAND, "bids": "pass,2,pass"}, rollouts=200,
               seed=1, rules={"dealer_hold": False})
    assert "hold" not in set(r.frame["action"])


def test_a_bid_that_can_never_be_made_is_never_best():
    """The dealer, everyone passed: passing throws the deal in (P5), nobody scores.
    With no card above a seven, a bid of 4 is always set: whatever suit he names, the
    jack of trumps beats every trump he holds, so he never wins it, and without the
    jack in play there are only 3 points (P9-P14). He falls 4 points behind while the
    others score what he cannot: that never wins more often than the redeal."""
    situation = {"seat": "3", "hand": "2C 5C 3D 6D 4H 7S", "bids": "pass,pass,pass"}
    r = bid_ev("pitch", situation, rollouts=1500, seed=2)
    f = r.frame.set_index("action")
    assert r.best != "bid 4"
    assert f.loc["bid 4", "diff_ci_high"] < 0 and f.loc["bid 4", "p_best"] == 0
    assert f.loc["bid 4", "score"] < f.loc["pass", "score"] - 2
    rules = make_rules("pitch", None)
    pol, labels = policies(rules)
    for index in range(20):  # the earlier passes replayed, then the candidate
        assert RO.play_rollout(rules, pol, labels, situation, "4", 2, index)["bids"][0] == \
            [0, 0, 0, 4]


def test_the_bid_4_deal_is_always_set():
    """The same claim on the deal itself: a one-deal game (max_deals=1) ends with the
    bidder at -4 in every rollout."""
    situation = {"seat": "3", "hand": "2C 5C 3D 6D 4H 7S", "bids": "pass,pass,pass"}
    r = bid_ev("pitch", situation, rollouts=400, seed=5, rules={"max_deals": 1},
               candidates=["4"])
    assert r.frame.loc[0, "score"] == -4 and r.frame.loc[0, "score_ci_low"] == -4


def test_hidden_hands_are_dealt_from_the_unseen_cards_uniformly():
    rules = make_rules("pitch", None)
    pol, labels = policies(rules)
    mine = set(HAND.split())
    deck = {c for c in range(52)}
    where = Counter()
    for index in range(300):
        g = RO.play_rollout(rules, pol, labels, BASE, "pass", 7, index)
        hands = g["hands"][0]
        assert set(hands[2]) == mine  # the asking seat's hand as given
        cards = [c for h in hands for c in parse_cards(h)]
        assert len(cards) == 24 and len(set(cards)) == 24 and set(cards) <= deck
        for s in (0, 1, 3):
            assert not set(hands[s]) & mine and len(hands[s]) == 6
            where.update((s, c) for c in hands[s])
        assert g["bids"][0][:3] == [0, 2, 0]  # the bids replayed, then the candidate
    # each unseen card goes to each other seat with probability 6/46
    counts = np.array([where[(s, c)] for s in (0, 1, 3) for c in
                       ("AS", "2S", "TD", "JC", "QH", "8H")])
    assert counts.min() > 300 * 6 / 46 * 0.4 and counts.max() < 300 * 6 / 46 * 1.8


def test_candidates_share_the_hidden_cards_and_later_deals():
    """Common random numbers: whatever the candidate, rollout r deals the same hidden
    cards now and the same hands in every later deal."""
    rules = make_rules("pitch", None)
    pol, labels = policies(rules)
    early = {**BASE, "scores": "0,0,0,0"}
    seen = 0
    for index in range(30):
        a = RO.play_rollout(rules, pol, labels, early, "pass", 11, index)
        b = RO.play_rollout(rules, pol, labels, early, "bid 4", 11, index)
        k = min(len(a["hands"]), len(b["hands"]))
        assert a["hands"][:k] == b["hands"][:k]
        seen += k > 1
    assert seen > 10


def test_the_joker_game_deals_53_cards():
    rules = make_rules("pitch", {"joker": True, "players": 3})
    pol, labels = policies(rules)
    situation = {"hand": "JK AS KS 4S 2D 9H", "scores": "0,0,0"}
    for index in range(40):
        hands = RO.play_rollout(rules, pol, labels, situation, "pass", 1, index)["hands"][0]
        assert "JK" in hands[0] and sum(len(h) for h in hands) == 18
    r = bid_ev("pitch", situation, rollouts=200, seed=1, rules={"joker": True, "players": 3})
    assert list(r.frame["action"]) == ["pass", "bid 1", "bid 2", "bid 3", "bid 4"]


@pytest.mark.parametrize("change,message", [
    ({"hand": "AH KH"}, "expected 6 different cards"),
    ({"hand": HAND.replace("3D", "AH")}, "expected 6 different cards"),
    ({"hand": HAND.replace("3D", "JK")}, "there is no joker in this game"),
    ({"hand": HAND.replace("3D", "XX")}, "cannot read card 'XX'"),
    ({"dealer": "1"}, "it is not seat 2's turn: with dealer 1 and 2 call"),
    ({"seat": "9"}, r"situation seat='9': out of range: allowed 0..3"),
    ({"bids": "2,1"}, "must exceed the highest bid so far, 2"),
    ({"bids": "pass,4"}, None),
    ({"bids": "pass,5"}, r"the bids are 1..4"),
    ({"bids": "pass,hold"}, "only the dealer holds"),
    ({"bids": "pass,two"}, "write pass or a bid"),
    ({"bids": "pass,2,pass,pass"}, "at most 3 calls come before yours"),
    ({"scores": "1,2,3"}, "expected 4 comma-separated whole numbers, one per seat"),
    ({"scores": "3,5,0,7"}, "seat 3 has reached the target"),
    ({"deal": "200"}, "out of range: allowed 0..199"),
    ({"colour": "red"}, "unknown pitch situation key 'colour'"),
])
def test_bad_situations_say_what_is_wrong(change, message):
    if message is None:  # a bid of 4 leaves nothing to bid: pass is the only call
        r = bid_ev("pitch", {**BASE, **change}, rollouts=20)
        assert list(r.frame["action"]) == ["pass"]
        return
    with pytest.raises(BidlabError, match=message):
        bid_ev("pitch", {**BASE, **change}, rollouts=10)


def test_a_missing_hand_is_named():
    with pytest.raises(BidlabError, match="the pitch situation needs hand="):
        bid_ev("pitch", {"seat": "0"}, rollouts=10)


@pytest.mark.parametrize("given,message", [
    (["1"], r"candidate bid 1 is illegal here: a bid must exceed the highest bid so far, 2: "
            r"3\.\.4 \(P2\); legal calls: pass, bid 3\.\.4$"),
    (["9"], r"candidate bid 9 is illegal here: the bids are 1\.\.4 \(P2\)"),
    (["0"], r"candidate '0': write pass"),  # 0 is the code of pass, not a bid
    (["hold"], r"candidate hold is illegal here: only the dealer may hold, .* \(P3\); "
               r"legal calls: pass, bid 3\.\.4"),
    (["3..5"], r"candidate bid 5 \(of 3\.\.5\) is illegal"),
    (["4..3"], r"candidate '4\.\.3' runs downward: .* 3\.\.4"),
    (["x"], r"candidate 'x': write pass, hold, a bid or a range of bids like 2\.\.4"),
    (["3..x"], r"candidate '3\.\.x': write pass, hold"),
    ([","], r"no candidate in \[','\]: write pass"),
])
def test_illegal_candidates_name_the_legal_calls(given, message):
    """Candidates are read by sim.situation.parse_candidates, as in auktsion and bridge."""
    with pytest.raises(BidlabError, match=message):
        bid_ev("pitch", BASE, rollouts=10, candidates=given)


def test_candidates_read_ranges_words_and_action_names():
    from sim.games.pitch.obs import HOLD, PASS
    from sim.games.pitch.situation import candidates, parse
    rules = make_rules("pitch")
    s = parse(rules, BASE)
    assert candidates(rules, s, ["bid 4, p", "3..4"]) == [4, PASS, 3]
    dealer = parse(rules, {**BASE, "seat": "3", "dealer": "3", "bids": "pass,2,pass"})
    assert candidates(rules, dealer, ["HOLD", "pass"]) == [HOLD, PASS]


@pytest.mark.parametrize("extra,message", [
    (["--state", "nope=1"], "unknown pitch situation key 'nope'; known keys: seat, hand, "),
    (["--state", "dealr=3"], r"'dealr' \(did you mean dealer\?\)"),
    (["--candidates", "11..4"], "candidate '11..4' runs downward"),
    (["--candidates", "foo"], "candidate 'foo': write pass, hold"),
])
def test_cli_bad_situation_or_candidates_exit_2_with_one_line(capsys, extra, message):
    from bidlab.cli import main
    code = main(["bid-ev", "pitch", "--hand", HAND, "--seat", "2", "--state", "dealer=3",
                 "--state", "bids=pass,2", "--rollouts", "10", *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert re.search(message, err)


def test_cli_json_and_table(capsys):
    from bidlab.cli import main

    argv = ["bid-ev", "pitch", "--hand", HAND, "--seat", "2", "--state", "dealer=3",
            "--state", "bids=pass,2", "--state", "scores=3,5,0,6", "--rollouts", "300"]
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"candidates", "best", "p_best", "metric", "situation", "provenance"} <= set(data)
    assert data["metric"] == "win"
    assert [c["action"] for c in data["candidates"]] == ["pass", "bid 3", "bid 4"]
    for c in data["candidates"]:
        assert {"action", "mean", "ci_low", "ci_high", "win", "score", "diff_vs_best",
                "p_best"} <= set(c)
    assert data["best"] in {c["action"] for c in data["candidates"]}
    assert 0 <= data["p_best"] <= 1
    assert main(argv + ["--candidates", "pass,4"]) == 0
    out = capsys.readouterr().out
    assert "ranked by win share" in out and "best: " in out and "match score" in out
    assert main(["bid-ev", "pitch", "--hand", HAND, "--state", "bids=3,2"]) == 2
    assert "must exceed the highest bid so far, 3" in capsys.readouterr().err


def test_help_lists_the_situation_keys_of_every_game(capsys):
    from bidlab.cli import main

    with pytest.raises(SystemExit):
        main(["bid-ev", "--help"])
    out = capsys.readouterr().out
    assert "situation keys for auktsion" in out and "situation keys for pitch" in out
    assert "bids=pass,2" in out and "high_bidder" in out


def test_the_dealers_pass_after_three_passes_follows_all_pass():
    """A one-deal game (max_deals=1): with all_pass=redeal the dealer's pass throws the
    deal in and the game is a draw (P5, P16): score 0 and a quarter of the win in every
    rollout (the win, a share, with the Wilson interval of 300 rollouts: they cannot tell
    a sure quarter from a share that varies); with all_pass=stuck_dealer the same pass
    makes him play min_bid."""
    situation = {"seat": "3", "hand": "2C 5C 3D 6D 4H 7S", "bids": "pass,pass,pass"}
    r = bid_ev("pitch", situation, rollouts=300, seed=1, rules={"max_deals": 1},
               candidates=["pass"])
    row = r.frame.iloc[0]
    assert (row["score"], row["score_ci_low"], row["score_ci_high"]) == (0, 0, 0)
    assert (row["win"], row["win_ci_low"], row["win_ci_high"]) == pytest.approx(
        (0.25, *wilson_interval(75, 300)))
    r = bid_ev("pitch", situation, rollouts=300, seed=1,
               rules={"max_deals": 1, "all_pass": "stuck_dealer"}, candidates=["pass", "1"])
    f = r.frame.set_index("action")
    assert f.loc["pass", "score_ci_high"] > f.loc["pass", "score_ci_low"]  # he plays: scores vary
    assert f.loc["pass", "mean"] == f.loc["bid 1", "mean"]  # the same contract as bidding 1
    assert f.loc["pass", "score"] == f.loc["bid 1", "score"]
