"""pitch rules P1-P17 and every rule key (``rules/pitch.md``).

Most checks read hand histories from the numba kernel (``GAME.trace``); each of them is
also replayed by the independent referee. Hand-built deals (chosen hands, scripted calls
and cards) use the plain-Python reference engine, whose traces equal the kernel's
(``test_pitch_engine.py``); the scoring and end-of-game rules are also checked on the
compiled functions themselves with small arrays.
"""

from __future__ import annotations

import numpy as np
import pytest

import strategies
from sim.cards import JOKER, parse_card, parse_cards
from sim.errors import IllegalActionError, RuleError
from sim.games import get_game
from sim.games.pitch import core as C
from sim.games.pitch import obs as O
from sim.games.pitch import reference as ref
from sim.games.pitch.referee import replay

GAME = get_game("pitch")
H, S = 2, 3  # hearts, spades
STRATEGIES = strategies.for_game("pitch")


def kernel_trace(overrides=None, specs=("all=basic",), seed=1, index=0, fixed=None) -> dict:
    """The kernel's trace of one game; the referee must accept it."""
    rules = GAME.make_rules(overrides or {})
    sa = strategies.assign_seats(STRATEGIES, rules.players, list(specs))
    pol = {d: (sa.ids(d), sa.params(d)) for d in STRATEGIES.decisions}
    t = GAME.trace(rules, pol, sa.labels, seed, index, deals=fixed)
    replay(t)
    return t


def mask(text: str) -> int:
    out = 0
    for c in parse_cards(text):
        out |= 1 << c
    return out


def bids(*answers):
    """A bid policy that gives ``answers`` in turn (then passes)."""
    queue = list(answers)

    def policy(o, params, rng):
        return queue.pop(0) if queue else O.PASS
    return ref.PythonPolicy(policy, decision="bid", name="python:scripted-bids")


def cards_in_order(text: str):
    """A play policy that plays the first card of ``text`` that is legal now, else its
    lowest legal card."""
    prefs = parse_cards(text)

    def policy(o, params, rng):
        for c in prefs:
            if o[O.LEGAL] >> c & 1:
                return c
        return ref.lowest(o[O.LEGAL])
    return ref.PythonPolicy(policy, decision="play", name="python:scripted-cards")


def lowest_card():
    return ref.PythonPolicy(lambda o, p, r: ref.lowest(o[O.LEGAL]), decision="play",
                            name="python:lowest")


def hand_built(rules, hands, seats, index=0):
    """Play one game from chosen hands (deal 0) in the reference engine; the referee
    replays it."""
    fixed = [[mask(h) for h in hands]]
    t = ref.play(rules, seats, seed=3, index=index, fixed=fixed)
    replay(t)
    return t


# -- P1: the deal --------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
@pytest.mark.parametrize("joker", [False, True])
def test_P1_six_cards_each_from_52_or_53(players, joker):
    """P1 (rule keys players, joker): six distinct cards each, from the 52 cards, or 53
    with the joker."""
    seen_joker = False
    for index in range(4):
        t = kernel_trace({"players": players, "joker": joker}, specs=["all=novice"], index=index)
        for deal in t["deals"]:
            hands = deal["hands"]
            assert len(hands) == players and all(len(h) == 6 for h in hands)
            flat = [c for h in hands for c in h]
            assert len(set(flat)) == 6 * players
            seen_joker |= "JK" in flat
    assert seen_joker == joker or (joker and players <= 3)


@pytest.mark.parametrize("players, first", [(4, 0), (3, 2), (7, 5)])
def test_P1_P5_dealer_rotates_and_a_redeal_counts_as_a_deal(players, first):
    """P1, P5 (rule keys first_dealer, max_deals): everyone passes, every deal is thrown
    in, the next seat deals; the game is a draw after max_deals deals."""
    t = kernel_trace({"players": players, "first_dealer": first, "max_deals": 9},
                     specs=["all=passive+greedy"])
    assert [d["dealer"] for d in t["deals"]] == [(first + d) % players for d in range(9)]
    assert all(d["pitcher"] is None and d["tricks"] == [] and d["trump"] is None
               for d in t["deals"])
    assert t["deals_played"] == 9 and t["winner"] is None
    rules = GAME.make_rules({"players": players, "max_deals": 9})
    seats = GAME.run_chunk(rules, _policies(["all=sheep"], players), ("sheep",) * players,
                           1, 0, 5)["seats"]
    assert np.allclose(seats["win"], 1 / players) and (seats["deals"] == 9).all()


def _policies(specs, n):
    sa = strategies.assign_seats(STRATEGIES, n, list(specs))
    return {d: (sa.ids(d), sa.params(d)) for d in STRATEGIES.decisions}


def test_P1_deals_do_not_depend_on_policies():
    """The cards of deal d of game i are the same whatever the strategies (common random
    numbers)."""
    a = kernel_trace(specs=["all=novice"], seed=4, index=2)
    b = kernel_trace(specs=["all=basic"], seed=4, index=2)
    k = min(len(a["deals"]), len(b["deals"]))
    assert [d["hands"] for d in a["deals"][:k]] == [d["hands"] for d in b["deals"][:k]]


# -- P2-P5: bidding --------------------------------------------------------------------------

@pytest.mark.parametrize("min_bid", [1, 2, 3, 4])
def test_P2_one_call_each_from_the_dealers_left_bids_rise(min_bid):
    """P2 (rule key min_bid): each speaks once from the seat after the dealer; a bid is
    min_bid..4 and exceeds the highest bid so far."""
    for index in range(5):
        t = kernel_trace({"min_bid": min_bid}, specs=["all=random+greedy:p_bid=0.6"],
                         index=index)
        for deal in t["deals"]:
            seats = [c["seat"] for c in deal["bids"]]
            assert seats == [(deal["dealer"] + 1 + k) % 4 for k in range(4)]
            high = 0
            for call in deal["bids"]:
                if call["bid"] is not None and not call.get("hold"):
                    assert min_bid <= call["bid"] <= 4 and call["bid"] > high
                    high = call["bid"]


def test_P3_P4_dealer_hold_takes_the_highest_bid():
    """P3, P4: a dealer who may hold (a bid below 4) and holds becomes the pitcher at the
    highest bid."""
    holds = 0
    for index in range(8):
        t = kernel_trace(specs=["all=random+greedy:p_bid=0.5,p_hold=1"], index=index)
        for deal in t["deals"]:
            dealer_call = deal["bids"][-1]
            assert dealer_call["seat"] == deal["dealer"]
            high = max((c["bid"] for c in deal["bids"][:-1] if c["bid"] is not None), default=0)
            if 0 < high < 4:
                assert dealer_call.get("hold") and dealer_call["bid"] == high
                assert deal["pitcher"] == deal["dealer"] and deal["contract"] == high
                holds += 1
            else:
                assert not dealer_call.get("hold")
    assert holds > 5


def test_P3_rule_key_dealer_hold_off():
    """P3 (dealer_hold=false): no hold; a policy that holds anyway is stopped with the
    legal calls named."""
    for index in range(4):
        t = kernel_trace({"dealer_hold": False}, specs=["all=random+greedy:p_bid=0.5,p_hold=1"],
                         index=index)
        assert not any(c.get("hold") for d in t["deals"] for c in d["bids"])
    seats = [(bids(2), lowest_card()), "basic", "basic", (bids(O.HOLD), lowest_card())]
    rules = GAME.make_rules({"dealer_hold": False, "first_dealer": 3})
    with pytest.raises(IllegalActionError, match=r"seat 3: bid policy .* answered -1, which is "
                                                 r"illegal; legal: a pass \(0\), a bid of 3..4"):
        ref.play(rules, seats, 1, 0)


def test_P2_an_illegal_bid_is_named():
    """P2: a bid that does not exceed the highest bid, or is out of 1..4, is stopped
    with the seat, the policy and the legal calls named."""
    rules = GAME.make_rules({"first_dealer": 3})
    seats = [(bids(3), lowest_card()), (bids(2), lowest_card()), "basic", "basic"]
    with pytest.raises(IllegalActionError, match=r"deal 0, seat 1: bid policy .* answered 2, "
                                                 r"which is illegal; legal: a pass \(0\), "
                                                 r"a bid of 4..4 \(rules P2, P3\)"):
        ref.play(rules, seats, 1, 0)
    with pytest.raises(IllegalActionError, match="answered 5"):
        ref.play(rules, [(bids(5), lowest_card())] + ["basic"] * 3, 1, 0)


def test_P4_the_highest_bidder_is_the_pitcher():
    for index in range(6):
        t = kernel_trace(specs=["all=random+greedy:p_bid=0.7,p_hold=0"], index=index)
        for deal in t["deals"]:
            made = [c for c in deal["bids"] if c["bid"] is not None]
            if made:
                top = max(made, key=lambda c: c["bid"])
                assert deal["pitcher"] == top["seat"] and deal["contract"] == top["bid"]


@pytest.mark.parametrize("min_bid", [1, 3])
def test_P5_rule_key_all_pass_stuck_dealer(min_bid):
    """P5 (all_pass=stuck_dealer): when all pass, the dealer plays min_bid."""
    t = kernel_trace({"all_pass": "stuck_dealer", "min_bid": min_bid, "max_deals": 6},
                     specs=["all=passive+greedy"])
    for deal in t["deals"]:
        assert deal["pitcher"] == deal["dealer"] and deal["contract"] == min_bid
        assert deal.get("stuck") and len(deal["tricks"]) == 6


# -- P6-P8: play ----------------------------------------------------------------------------

def test_P6_the_first_card_led_names_trump():
    for index in range(6):
        t = kernel_trace(specs=["all=novice"], index=index)
        for deal in t["deals"]:
            if deal["pitcher"] is None:
                continue
            first = deal["tricks"][0]
            assert first["leader"] == deal["pitcher"]
            card = first["cards"][0][1]
            assert deal["trump"] == ("S" if card == "JK" else card[1])


def test_P6_P7_joker_led_first_makes_spades_trump():
    """Hand-built: the pitcher leads the joker to the first trick: spades are trump, the
    joker is their lowest, and everyone with a spade must play one."""
    rules = GAME.make_rules({"joker": True, "first_dealer": 3})
    hands = ["JK 2C 3C 4C 5C 6C", "AS 2D 3D 4D 5D 6D", "7D 8D 9D TD JD QD", "2S 3S 2H 3H 4H 5H"]
    seats = [(bids(2), cards_in_order("JK")), (bids(), cards_in_order("2D AS")),
             (bids(), lowest_card()), (bids(), cards_in_order("2H 2S"))]
    t = hand_built(rules, hands, seats)
    deal = t["deals"][0]
    assert deal["pitcher"] == 0 and deal["trump"] == "S"
    assert deal["tricks"][0]["cards"] == [[0, "JK"], [1, "AS"], [2, "7D"], [3, "2S"]]
    assert deal["tricks"][0]["winner"] == 1          # the ace of spades beats the joker
    assert deal["points"]["joker"] == 1 and deal["points"]["high"] == 1
    assert deal["points"]["low"] == 3                 # 2S: the joker is never low
    assert C.trump_of_lead(JOKER) == 3


def test_P7_trumping_in_while_able_to_follow_is_legal():
    """Hand-built: hearts are trump; clubs led; seat 1 holds a club but trumps in
    (legal, P7); the referee accepts the deal."""
    rules = GAME.make_rules({"first_dealer": 3})
    hands = ["AH 2C 9D 3S 4S 5S", "KC 3H 4H 6S 7S 8S", "2H 5D 6D 9S TS JS", "QS 7D 8D KS AS 2D"]
    seats = [(bids(1), cards_in_order("AH 2C")), (bids(), cards_in_order("4H 3H")),
             (bids(), cards_in_order("2H")), (bids(), lowest_card())]
    t = hand_built(rules, hands, seats)
    first, second = t["deals"][0]["tricks"][:2]
    assert t["deals"][0]["trump"] == "H" and first["winner"] == 0
    assert first["cards"][:3] == [[0, "AH"], [1, "4H"], [2, "2H"]]   # trump led: trumps
    assert second["cards"][:2] == [[0, "2C"], [1, "3H"]]             # trumps in holding KC
    assert ref.legal(mask("KC 3H 6S"), 0, H) == mask("KC 3H")
    assert ref.legal(mask("2H 5D 6D"), 0, H) == mask("2H")           # no clubs: must trump
    assert ref.legal(mask("5D 6D"), 0, H) == mask("5D 6D")           # neither: anything
    assert ref.legal(mask("KC 3H 6S"), H, H) == mask("3H")           # trump led: trump
    assert C.legal(mask("KC 3H 6S"), 0, H) == mask("KC 3H")          # the kernel agrees


def test_P7_an_illegal_card_is_named():
    rules = GAME.make_rules({"first_dealer": 3})
    hands = ["AH 2C 9D 3S 4S 5S", "KC 3H 4H 6S 7S 4D", "2H 5D 6D 9S TS JS", "QS 7D 8D KS AS 2D"]

    def bad(o, p, r):
        return parse_card("4D")  # not legal on a heart lead while holding hearts
    seats = [(bids(1), cards_in_order("AH")), (bids(), ref.PythonPolicy(bad, decision="play")),
             (bids(), lowest_card()), (bids(), lowest_card())]
    with pytest.raises(IllegalActionError, match=r"seat 1, trick 0: play policy .* played 4D, "
                                                 r"which is illegal; legal: 3H 4H \(rule P7\)"):
        ref.play(rules, seats, 3, 0, fixed=[[mask(h) for h in hands]])


def test_P8_highest_trump_wins_and_the_winner_leads():
    for index in range(5):
        t = kernel_trace({"joker": True}, specs=["all=novice"], index=index)
        for deal in t["deals"]:
            for a, b in zip(deal["tricks"], deal["tricks"][1:]):
                assert b["leader"] == a["winner"]


# -- P9-P14: scoring -------------------------------------------------------------------------

def score(hands, won, trump, pitcher, low_captured=False, tie_pitcher=False):
    """The compiled P9-P13 on chosen cards; the reference port must agree."""
    dealt = np.array([mask(h) for h in hands], np.int64)
    wonm = np.array([mask(w) for w in won], np.int64)
    owners = np.zeros(5, np.int64)
    C.score_deal(dealt, 0, wonm, 0, len(hands), trump, low_captured, tie_pitcher, pitcher,
                 owners, 0)
    expect = ref.score_deal(list(map(int, dealt)), list(map(int, wonm)), trump, low_captured,
                            tie_pitcher, pitcher)
    assert owners.tolist() == expect
    return dict(zip(C.POINT_NAMES, owners.tolist()))




def test_P9_to_P13_points_of_a_deal():
    hands = ["AH 2C", "JH TC", "3H KD", "JK 5S"]
    won = ["JH 3H KD 2C", "AH TC", "", "JK 5S"]
    got = score(hands, won, H, pitcher=0)
    assert got["high"] == 0                 # P9: dealt the ace of trumps
    assert got["low"] == 2                  # P10: dealt the 3H (the joker is never low)
    assert got["jack"] == 0                 # P11: won the jack
    assert got["joker"] == 3                # P12: won the joker
    assert got["game"] == 1                 # P13: 4 + 10 = 14 beats 1 + 3 + 0 = 4
    got = score(hands, won, H, pitcher=0, low_captured=True)
    assert got["low"] == 0                  # P10 (low_to=captured): whoever won the 3H


def test_P10_P11_no_low_without_a_real_trump_no_jack_if_not_dealt():
    got = score(["JK 2C", "3C 4C"], ["JK 2C 3C 4C", ""], S, pitcher=0)
    assert got["high"] == 0 and got["low"] == -1 and got["jack"] == -1 and got["joker"] == 0


@pytest.mark.parametrize("tie_pitcher, pitcher, expect", [
    (False, 0, -1), (True, 0, 0), (True, 2, -1)])
def test_P13_game_tie_rule_key(tie_pitcher, pitcher, expect):
    """P13 (game_tie): a tie for most card points scores nobody, or the pitcher if he
    is among the tied."""
    hands = ["AH TC", "KH TD", "2H 3C"]
    tie = ["AH TC", "KH TD JC", "2H 3C"]    # 4 + 10 = 14 and 3 + 10 + 1 = 14
    got = score(hands, tie, H, pitcher=pitcher, tie_pitcher=tie_pitcher)
    assert got["game"] == expect
    assert score(hands, hands, H, pitcher=0)["game"] == 0      # 14 against 13: no tie


def test_P14_pitcher_set_back_goes_negative():
    """Hand-built: the pitcher bids 4 with nothing and is set back 4: his score goes
    below zero, the others add their points."""
    rules = GAME.make_rules({"first_dealer": 3, "max_deals": 1})
    hands = ["2C 3C 4C 5C 6C 7C", "AC KC QC JC TC 9C", "2D 3D 4D 5D 6D 7D", "AD KD QD JD TD 9D"]
    seats = [(bids(4), lowest_card()), (bids(), lowest_card()), (bids(), lowest_card()),
             (bids(), lowest_card())]
    t = hand_built(rules, hands, seats)
    deal = t["deals"][0]
    assert deal["pitcher"] == 0 and deal["contract"] == 4 and deal["trump"] == "C"
    assert deal["made"] is False
    assert deal["points"] == {"high": 1, "low": 0, "jack": 1, "joker": None, "game": 1}
    assert deal["deal_scores"] == [-4, 3, 0, 0] and deal["scores_after"] == [-4, 3, 0, 0]
    assert t["winner"] is None and t["deals_played"] == 1     # max_deals=1: a draw


def test_P14_settle_and_P15_smudge():
    owners = np.array([0, 0, 0, -1, 0], np.int64)
    out = np.zeros(8, np.int64)
    assert C.settle(owners, 0, 2, 0, 4, out, 0, 4)
    assert out[:2].tolist() == [4, 0] and out[4:6].tolist() == [4, 0]
    before = np.array([0, 5], np.int64)
    # P15: a made bid of 4 wins at once with smudge, not without
    assert C.game_winner(before, 0, out, 4, owners, 0, 2, 0, 4, True, 7, True) == 0
    assert C.game_winner(before, 0, out, 4, owners, 0, 2, 0, 4, True, 7, False) == -1


def test_P15_rule_key_smudge_hand_built():
    rules = GAME.make_rules({"first_dealer": 3, "smudge": True})
    hands = ["AH KH QH JH TH 2H", "2C 3C 4C 5C 6C 7C", "2D 3D 4D 5D 6D 7D", "2S 3S 4S 5S 6S 7S"]
    seats = [(bids(4), cards_in_order("AH KH QH JH TH 2H"))] + [(bids(), lowest_card())] * 3
    t = hand_built(rules, hands, seats)
    assert t["deals"][0]["made"] and t["deals"][0]["scores_after"] == [4, 0, 0, 0]
    assert t["winner"] == 0 and t["deals_played"] == 1


# -- P16, P17: the end of the game -----------------------------------------------------------

def winner(before, delta, owners, pitcher, contract, made, target=7):
    b = np.array(before, np.int64)
    d = np.array(delta, np.int64)
    o = np.array(owners, np.int64)
    w = C.game_winner(b, 0, d, 0, o, 0, len(before), pitcher, contract, made, target, False)
    assert w == ref.game_winner(before, delta, owners, pitcher, contract, made, target, False)
    return w


def test_P16_game_ends_when_someone_reaches_the_target():
    assert winner([5, 5, 0], [1, 1, 0], [0, 1, -1, -1, -1], 2, 2, False) == -1
    assert winner([6, 5, 0], [1, 1, -2], [0, 1, -1, -1, -1], 2, 2, False) == 0


def test_P17_the_pitcher_wins_whoever_else_reached_the_target():
    # seat 1 (pitcher, bid 2) and seat 0 both reach 7: the pitcher wins
    assert winner([6, 5, 0], [1, 2, 0], [1, 0, 1, -1, -1], 1, 2, True) == 1


def test_P17_others_count_high_low_jack_joker_game_in_order():
    # seats 0 and 1 both reach 7; seat 0 gets there by game, seat 1 by low: low counts first
    assert winner([6, 6, 0], [1, 1, -2], [2, 1, -1, -1, 0], 2, 2, False) == 1
    # seat 0 needs two points (jack, game), seat 1 one (joker): the joker comes before game
    assert winner([5, 6, 0], [2, 1, -1], [-1, 2, 0, 1, 0], 2, 1, False) == 1
    # seat 0 reaches with high first
    assert winner([6, 6, 0], [1, 1, -1], [0, -1, 1, -1, -1], 2, 1, False) == 0


def test_P17_winner_order_in_a_played_game():
    """Hand-built: two non-pitchers reach the target in the same deal; the one whose
    point comes first in the order high, low, jack, game wins."""
    rules = GAME.make_rules({"first_dealer": 2, "target": 1, "players": 3})
    hands = ["2C 3C 4C 5C 6C 7C", "AC 8D 9D TD JD QD", "2H 3H 4H 5H 6H 7H"]
    # seat 0 pitches 4 with low clubs; seat 1 is dealt high (AC); seat 2 only hearts
    seats = [(bids(4), lowest_card()), (bids(), lowest_card()), (bids(), lowest_card())]
    t = hand_built(rules, hands, seats)
    deal = t["deals"][0]
    assert deal["points"]["high"] == 1 and deal["points"]["low"] == 0
    reached = [s for s in range(3) if deal["scores_after"][s] >= 1]
    assert t["winner"] == 1 and 1 in reached


@pytest.mark.parametrize("joker, target", [(False, 7), (True, 10)])
def test_P16_rule_key_target_default_and_value(joker, target):
    rules = GAME.make_rules({"joker": joker})
    assert rules.target == target
    for index in range(3):
        t = kernel_trace({"joker": joker, "target": 11}, index=index)
        assert t["winner"] is not None
        assert t["deals"][-1]["scores_after"][t["winner"]] >= 11
        for deal in t["deals"][:-1]:
            assert max(deal["scores_after"]) < 11


# -- rule keys ----------------------------------------------------------------------------------

def test_every_rule_key_is_declared_with_its_rule():
    keys = {k.name: k for k in GAME.rule_keys}
    assert set(keys) == {"players", "first_dealer", "joker", "min_bid", "dealer_hold",
                         "all_pass", "low_to", "game_tie", "smudge", "target", "max_deals"}
    assert all(k.rule for k in GAME.rule_keys)
    defaults = GAME.make_rules({})
    assert dict(defaults) == {"players": 4, "first_dealer": 0, "joker": False, "min_bid": 1,
                              "dealer_hold": True, "all_pass": "redeal", "low_to": "dealt",
                              "game_tie": "none", "smudge": False, "target": 7,
                              "max_deals": 200}


@pytest.mark.parametrize("overrides, message", [
    ({"players": 8}, "players=8 is out of range: allowed 2..7"),
    ({"players": 1}, "players=1 is out of range: allowed 2..7"),
    ({"first_dealer": 3, "players": 3}, "first_dealer=3 is out of range: allowed 0..2"),
    ({"min_bid": 5}, "min_bid=5 is out of range: allowed 1..4"),
    ({"target": 0}, "target=0 is out of range: allowed 1..52"),
    ({"max_deals": 0}, "max_deals=0 is out of range: allowed 1..10000"),
    ({"all_pass": "shuffle"}, "expected one of redeal, stuck_dealer"),
    ({"low_to": "won"}, "expected one of dealt, captured"),
    ({"game_tie": "split"}, "expected one of none, pitcher"),
    ({"joker": "maybe"}, "joker='maybe': expected true or false"),
    ({"colour": "red"}, "unknown pitch rule key 'colour'"),
])
def test_bad_rule_values_name_key_and_range(overrides, message):
    with pytest.raises(RuleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GAME.make_rules(overrides)


@pytest.mark.parametrize("overrides", [
    {"players": 2}, {"players": 7, "joker": True}, {"low_to": "captured", "game_tie": "pitcher"},
    {"smudge": True, "target": 21}, {"all_pass": "stuck_dealer", "dealer_hold": False},
])
def test_rule_key_variants_pass_the_referee(overrides):
    for index in range(3):
        for specs in (["all=basic"], ["all=novice"], ["0=expert:samples=2", "all=basic"]):
            kernel_trace(overrides, specs=specs, index=index)
