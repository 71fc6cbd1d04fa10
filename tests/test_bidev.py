"""Bid-EV: rollouts from a described situation, on common random numbers."""

import re

import numpy as np
import pytest

from analysis.bidev import bid_ev, summarize
from sim.errors import BidlabError

HAND = "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H"
# Deal 0, lots 2-6 unsold: every seat still holds its starting coins, 70 minus its hand
# points (A3): yours 34, the others 32, 33 and 31 (130 in all).
BASE = {"hand": HAND, "money": "36,38,37,39", "lot": "7", "price": "3", "high_bidder": "3"}


def test_result_shape_and_reproducibility(threads):
    threads(1)
    a = bid_ev("auktsion", BASE, rollouts=600, seed=3)
    threads(2)
    b = bid_ev("auktsion", BASE, rollouts=600, seed=3)
    assert a.frame.equals(b.frame) and a.best == b.best
    assert list(a.frame["action"]) == ["pass"] + [f"bid {v}" for v in range(4, 12)]
    f = a.frame
    assert ((f["ci_low"] <= f["mean"]) & (f["mean"] <= f["ci_high"])).all()
    assert f["p_best"].sum() == pytest.approx(1.0)
    assert a.best == f.loc[f["mean"].idxmax(), "action"]


def test_a_dominated_bid_is_never_best():
    """Last deal, last lot, no card of that rank in hand, coins worth a point each at the
    end (A14): a bid can only cost points, so pass is best and no bid beats it."""
    hand = "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H".replace("AH", "6H")
    situation = {"hand": hand, "money": "10,10,10,10", "lot": "A", "deal": "3"}
    r = bid_ev("auktsion", situation, rollouts=400, seed=1, rules={"leftover_value": 1},
               strategies=["all=value"])
    assert r.best == "pass"
    bids = r.frame[r.frame["action"] != "pass"]
    assert (bids["diff_vs_best"] <= 0).all() and (bids["diff_ci_high"] <= 0).all()
    assert (bids["diff_vs_best"] < 0).any()  # the bids that win the ace pay for nothing


def test_common_random_numbers_make_differences_sharp():
    r = bid_ev("auktsion", BASE, rollouts=800, seed=2, candidates=["pass", "9"])
    f = r.frame.set_index("action")
    width_mean = f.loc["bid 9", "ci_high"] - f.loc["bid 9", "ci_low"]
    width_diff = abs(f.loc["bid 9", "diff_ci_high"] - f.loc["bid 9", "diff_ci_low"]) + \
        abs(f.loc["pass", "diff_ci_high"] - f.loc["pass", "diff_ci_low"])
    assert width_diff < width_mean


def test_sold_lots_constrain_the_hidden_cards():
    """Seat 2 bought the twos and laid 2D 2S face up, so the unseen 2H never goes to it;
    seat 0 bought the threes holding none. The rollouts run and echo the situation."""
    s = dict(BASE, sold="2:2:5:2D 2S;3:0:4", price="0", passes="0", seat="1", lot="7",
             infer="no")
    s.pop("high_bidder")
    r = bid_ev("auktsion", s, rollouts=200, seed=1)
    assert r.situation["sold"]["2"] == {"buyer": 2, "price": 5, "cards": ["2D", "2S"]}
    assert r.situation["sold"]["3"] == {"buyer": 0, "price": 4, "cards": []}


@pytest.mark.parametrize("change,message", [
    ({"hand": "AH KH"}, "expected 13 different cards"),
    ({"hand": HAND.replace("8H", "AH")}, "expected 13 different cards"),
    ({"money": "1,2,3"}, "one per seat"),
    ({"lot": "Z"}, "expected a rank"),
    ({"high_bidder": "2"}, "it is not seat 0's turn"),
    ({"price": "50"}, "has only 39 coins"),
    ({"colour": "red"}, "unknown auktsion situation key 'colour'"),
])
def test_bad_situations_say_what_is_wrong(change, message):
    with pytest.raises(BidlabError, match=message):
        bid_ev("auktsion", {**BASE, **change}, rollouts=10)


@pytest.mark.parametrize("given,message", [
    (["2"], r"candidate bid 2 is illegal here: the smallest legal bid is 4 \(min_bid 1, "
            r"price 3 \+ min_raise 1\) \(A8\); legal calls: pass, bid 4\.\.36"),
    (["pass,30..40"], r"candidate bid 37 \(of 30\.\.40\) is illegal here: seat 0 has only "
                      r"36 coins \(A8\)"),
    (["11..4"], r"candidate '11\.\.4' runs downward: .* 4\.\.11"),
    (["foo"], r"candidate 'foo': write pass, a bid \(coins\) or a range of bids like 4\.\.11"),
    (["pass..5"], r"candidate 'pass\.\.5': a range joins two bids"),
])
def test_illegal_candidates_name_the_legal_calls(given, message):
    """Candidates are read by sim.situation.parse_candidates, as in pitch and bridge."""
    with pytest.raises(BidlabError, match=message):
        bid_ev("auktsion", BASE, rollouts=10, candidates=given)


def test_missing_keys_are_all_named():
    with pytest.raises(BidlabError, match=r"the auktsion situation needs money=, lot= "):
        bid_ev("auktsion", {"hand": HAND}, rollouts=10)


def test_candidates_read_ranges_words_and_action_names():
    from analysis.spec import make_rules
    from sim.games.auktsion.situation import candidates, parse
    rules = make_rules("auktsion")
    s = parse(rules, BASE)
    assert candidates(rules, s, ["P, bid 5", "4..6", "pass"]) == [-1, 5, 4, 6]
    assert candidates(rules, s, None) == [-1] + list(range(4, 12))


@pytest.mark.parametrize("extra,message", [
    (["--state", "nope=1"], "unknown auktsion situation key 'nope'; known keys: seat, hand, "),
    (["--state", "hig_bidder=3"], r"'hig_bidder' \(did you mean high_bidder\?\)"),
    (["--candidates", "11..4"], "candidate '11..4' runs downward"),
    (["--candidates", "foo"], "candidate 'foo': write pass"),
    (["--candidates", "99"], "candidate bid 99 is illegal here"),
])
def test_cli_bad_situation_or_candidates_exit_2_with_one_line(capsys, extra, message):
    from bidlab.cli import main
    code = main(["bid-ev", "auktsion", "--hand", HAND, "--state", "money=36,38,37,39",
                 "--state", "lot=7", "--state", "price=3", "--state", "high_bidder=3",
                 "--rollouts", "10", *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert re.search(message, err)


def test_summarize_probability_of_best():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(2000, 1))
    score = np.hstack([base, base + 1.0, base + 0.999])  # paired: 2nd and 3rd nearly tied
    frame, best, p = summarize(["a", "b", "c"], score, np.zeros_like(score))
    assert best == "b" and p == 1.0  # the 0.001 gap is exact on common random numbers
    frame, best, p = summarize(["a", "b"], np.hstack([base, base + rng.normal(size=(2000, 1))]),
                               np.zeros((2000, 2)))
    assert 0.0 < frame["p_best"].min() and frame["p_best"].sum() == pytest.approx(1.0)


def sampled_hands(situation: dict, rollouts: int, rules: dict | None = None,
                  sampler: str = "exact", seed: int = 9):
    """The situation, and per rollout the points of each seat's cards of each rank
    (seat x rank), as the bid-EV sampler deals them (``sampler="rejection"``: as the
    rejection sampler, the reference, deals them)."""
    from sim import exactdeal
    from sim.games.auktsion.rollout import _deal_exact, _sample_hands, deal_plan, sampler_arrays
    from sim.games.auktsion.rules import make, pack
    from sim.games.auktsion.situation import parse
    from sim.rng import seed_stream

    rules = make(rules or {})
    s = parse(rules, situation)
    R, _ = pack(rules)
    hand, up_seat, buyer, _, points_lo, points_hi = sampler_arrays(s, rules.players)
    plan = deal_plan(R, s, rules.players)
    assert plan.feasible
    binom = exactdeal.binomials(plan)
    rng, value = np.empty(4, np.uint64), np.zeros((4, 13), np.int64)
    work, owner = np.empty(52, np.int64), np.full(52, -1, np.int64)
    out = []
    for r in range(rollouts):
        seed_stream(rng, seed, r, 0)
        if sampler == "exact":
            _deal_exact(R, rng, s.seat, hand, up_seat, *plan.arrays(), binom, work, owner,
                        value)
        else:
            assert _sample_hands(R, rng, s.seat, hand, up_seat, buyer, points_lo, points_hi,
                                 value, np.empty(52, np.int64), np.empty(4, np.int64))
        out.append(value.copy())
    return s, np.array(out)


def sampled_points(situation: dict, rollouts: int = 300, rules: dict | None = None
                   ) -> np.ndarray:
    """Hand points per rollout and seat."""
    return sampled_hands(situation, rollouts, rules)[1].sum(axis=2)


def test_sampled_hands_respect_face_up_cards_and_hand_sizes():
    """A12: a buyer laid every card of the rank face up, so the sampler never gives it
    another; the asking seat's hand is fixed; every other seat gets a full hand."""
    s, dealt = sampled_hands(dict(BASE, sold="2:2:5:2D 2S;3:0:4", price="0", passes="0",
                                  seat="1", infer="no"), 200)
    mine = np.zeros(13, np.int64)
    for c in s.hand:
        mine[c % 13] += (1, 3, 4, 2)[c // 13]
    heart_two_holders = set()
    for value in dealt:
        assert value.sum() == 130 and value[2, 0] == 5 and value[0, 1] == 0
        assert (value[1] == mine).all()
        heart_two_holders |= {t for t in (0, 3) if value[t, 0] == 4}
    assert heart_two_holders == {0, 3}  # the unseen 2H goes to either eligible seat


def test_A3_coins_tell_the_hidden_hands_points():
    """A3: in the first deal a seat's coins plus what it spent are 70 minus its hand
    points, so the rollouts deal the other seats only hands of those points; with
    infer=no they are dealt at random."""
    told = sampled_points(BASE)
    assert (told == [34, 32, 33, 31]).all()
    free = sampled_points(dict(BASE, infer="no"))
    assert (free[:, 0] == 34).all() and (free.sum(axis=1) == 130).all()
    assert len(set(free[:, 1])) > 5
    # Purchases this deal count: seat 2 spent 5 on the twos (2D 2S face up), so its 33
    # coins say 70 - 38 = 32 points, the twos' 5 among them.
    sold = dict(BASE, money="36,38,33,38", sold="2:2:5:2D 2S", price="0", passes="1")
    sold.pop("high_bidder")
    assert (sampled_points(sold) == [34, 32, 32, 32]).all()


# A moment of a real match that rejection sampling gave up on (issue 35: `bidlab report
# auktsion --seed 7`): deal 0, lot Q after ten lots sold; the coins tell every hand's
# points exactly (A3) and three seats may hold no more of the ranks they bought (A12).
LATE = {"seat": 0, "hand": "3C 8C 9D TD JD QD 7H TH QH AH 3S 7S JS", "money": "6,17,12,20",
        "lot": "Q", "passes": 3,
        "sold": "2:1:11:2C 2D;3:2:9:3H;4:3:10:4D 4S;5:2:8:5H;6:2:14:6C 6H;7:0:10;8:1:7:8D 8H;"
                "9:3:8:9H 9S;T:0:6;J:0:12"}


def test_A3_A12_a_late_moment_rejection_gave_up_on_is_dealt_exactly():
    """Every rollout deals each seat the hand points its coins tell (A3: 70 minus coins
    plus spent), no card of a rank it bought beyond those it laid face up (A12), and
    the asking seat its own hand; bid-EV answers."""
    s, dealt = sampled_hands(LATE, 300)
    spent = [6 + 12 + 10, 11 + 7, 9 + 8 + 14, 10 + 8]
    told = [70 - (m + x) for m, x in zip(s.money, spent)]
    assert (dealt.sum(axis=2) == told).all()
    face_up = {1: {0: 1 + 3, 6: 3 + 4}, 2: {1: 4, 3: 4, 4: 1 + 4}, 3: {2: 3 + 2, 7: 4 + 2}}
    for t, ranks in face_up.items():
        for r, points in ranks.items():
            assert (dealt[:, t, r] == points).all()
    assert len({tuple(d[1]) for d in dealt}) > 20  # many deals, not one
    r = bid_ev("auktsion", LATE, rollouts=200, seed=7)
    assert r.situation["hand_points"] == told and len(r.frame) > 1


@pytest.mark.parametrize("situation", [
    # deal 0, the twos sold: every seat's points told (A3), seat 2 holds no more twos
    dict(BASE, money="36,38,33,38", sold="2:2:5:2D 2S", price="0", passes="1",
         high_bidder=None),
    # a later deal: nothing told, two ranks bought (A12)
    dict(BASE, deal="1", money="30,20,25,41", sold="2:1:4:2H;3:2:6;4:3:3:4S 4D", lot="5",
         price="0", passes="0", high_bidder=None),
])
def test_the_exact_dealer_deals_as_rejection_does(situation):
    """Where rejection sampling works, the exact dealer has its distribution: per
    hidden seat, the points of its cards of ranks T..A, compared by a chi-square test
    of the two samples (4,000 draws each, fixed seeds; every test must pass p > 0.001)."""
    situation = {k: v for k, v in situation.items() if v is not None}
    s, exact = sampled_hands(situation, 4000, seed=11)
    _, reject = sampled_hands(situation, 4000, sampler="rejection", seed=12)
    from scipy.stats import chi2_contingency
    for t in range(4):
        if t == s.seat:
            continue
        a, b = exact[:, t, 8:].sum(axis=1), reject[:, t, 8:].sum(axis=1)
        values = sorted(set(a) | set(b))
        table = np.array([[np.sum(a == v) for v in values], [np.sum(b == v) for v in values]])
        table = table[:, table.sum(axis=0) >= 10]  # pool the rare outcomes away
        assert chi2_contingency(table)[1] > 1e-3, (t, table)
        assert abs(a.mean() - b.mean()) < 4 * np.sqrt((a.var() + b.var()) / len(a))


def test_A3_a_seat_without_coins_holds_at_least_start_money_points():
    """start_money 30: no coins means 30 points or more (A3), and the JSON says the
    points are not told; the deck's 130 points then leave seat 1 exactly 40."""
    s = dict(BASE, money="0,0,3,1", price="0", passes="3")
    s.pop("high_bidder")
    points = sampled_points(s, 100, {"start_money": 30})
    assert (points == [34, 40, 27, 29]).all()
    r = bid_ev("auktsion", s, rollouts=20, rules={"start_money": 30})
    assert r.situation["hand_points"] == [None, None, 27, 29]


def test_the_told_hand_points_are_in_the_result():
    r = bid_ev("auktsion", BASE, rollouts=50, seed=1)
    assert r.situation["hand_points"] == [34, 32, 33, 31]
    r = bid_ev("auktsion", dict(BASE, infer="no"), rollouts=50, seed=1)
    assert r.situation["hand_points"] is None
    # After the first deal the coins carried over hide the points (A14): nothing told.
    assert bid_ev("auktsion", dict(BASE, deal="1", money="1,2,3,4"), rollouts=20,
                  seed=1).situation["hand_points"] is None


@pytest.mark.parametrize("money,message", [
    ("38,40,35,41", r"your hand has 34 points, but seat 0's coins say 32 \(A3"),
    ("36,38,37,40", r"the coins say the hands hold 129 points in all, but the deck holds 130"),
    ("36,71,37,39", r"seat 1 has 71 coins .* more than start_money 70"),
])
def test_A3_coins_no_deal_explains_are_an_error(money, message):
    with pytest.raises(BidlabError, match=message + ".*infer=no"):
        bid_ev("auktsion", dict(BASE, money=money), rollouts=10)
    bid_ev("auktsion", dict(BASE, money=money, infer="no"), rollouts=10)  # taken as given


def test_tied_candidates_share_the_probability_of_being_best():
    base = np.random.default_rng(0).normal(size=(500, 1))
    frame, best, p = summarize(["pass", "bid 1", "bid 9"], np.hstack([base, base, base - 1]),
                               np.zeros((500, 3)))
    assert best == "pass" and p == pytest.approx(0.5)
    assert frame["p_best"].tolist() == pytest.approx([0.5, 0.5, 0.0])


def test_candidates_with_the_same_outcome_in_every_rollout_form_one_group():
    """Issue 15 item 5: bids that change nothing read as one answer, not a split tie."""
    from analysis.bidev import BidEV

    rng = np.random.default_rng(0)
    score = rng.normal(size=(300, 5))
    win = (score > 0).astype(float)
    for c in (2, 3):                     # bid 2 and bid 3 do exactly what bid 1 does
        score[:, c], win[:, c] = score[:, 1], win[:, 1]
    score[:, 4], win[:, 4] = score[:, 0], win[:, 0]   # bid 4 = pass, though not next to it
    actions = ["pass", "bid 1", "bid 2", "bid 3", "bid 4"]
    frame, best, p_best = summarize(actions, score, win)
    assert list(frame["group"]) == [0, 1, 1, 1, 0]
    r = BidEV("auktsion", {}, frame, best, p_best, {"rollouts": 300})
    g = r.grouped()
    assert list(g["action"]) == ["pass, bid 4", "bid 1..3"]
    assert list(g["size"]) == [2, 3] and g["actions"][1] == ["bid 1", "bid 2", "bid 3"]
    assert g["p_best"].sum() == pytest.approx(1.0)
    assert g.loc[1, "p_best"] == pytest.approx(frame.loc[1:3, "p_best"].sum())
    assert g.loc[0, "p_best"] == pytest.approx(frame.loc[[0, 4], "p_best"].sum())
    assert g.loc[1, "mean"] == frame.loc[1, "mean"] == frame.loc[3, "mean"]
    assert r.best_group == (["bid 1", "bid 2", "bid 3"] if best in g["actions"][1] else [best])


def test_a_real_situation_groups_nothing_that_differs():
    """Every group of a real bid-EV holds candidates whose rows are identical."""
    r = bid_ev("auktsion", BASE, rollouts=300, seed=3)
    for _, part in r.frame.groupby("group"):
        cols = ["mean", "ci_low", "ci_high", "win", "diff_vs_best"]
        assert (part[cols].to_numpy() == part[cols].iloc[0].to_numpy()).all()
    assert r.grouped()["size"].sum() == len(r.frame)


@pytest.mark.parametrize("actions, label", [
    (["bid 4"], "bid 4"), (["pass", "bid 4"], "pass, bid 4"), (["bid 4", "bid 5", "bid 6"], "bid 4..6"),
    (["bid 5", "bid 7", "bid 9", "bid 11"], "bid 5, 7, 9, 11"),
    ([f"bid {v}" for v in (1, 5, 9, 13, 17, 21, 25, 29)], "bid 1..29 (8 candidates)"),
    (["2C", "3C", "3NT"], "2C, 3C, 3NT"), (["2C", "2D", "3C", "3NT"], "2C..3NT (4 candidates)")])
def test_group_labels(actions, label):
    from analysis.bidev import group_label
    assert group_label(actions) == label
