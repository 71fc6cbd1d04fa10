"""aukcio bid-EV: situations are checked against the rules (K5-K9, K13, K14) with errors
that name the key, and the rollouts answer what a player would expect."""

from __future__ import annotations

import numpy as np
import pytest

import bidlab
from sim.errors import BidlabError
from sim.games import get_game
from sim.games.aukcio.situation import candidates, parse

GAME = get_game("aukcio")
RULES = GAME.make_rules({})
HAND = "TH 7C 7D 3S JK"


def test_a_card_that_completes_your_set_is_worth_bidding_for():
    state = {"hand": HAND, "card": "QH", "owned": "JH KH;QS QD;"}
    res = bidlab.bid_ev("aukcio", state, rollouts=2000, candidates=["pass", "1", "20"], seed=3)
    win = res.frame.set_index("action")["mean"]
    # K14: buying the queen of hearts wins at once; passing leaves it to seat 1, who
    # would block (and seat 2 after him)
    assert win["bid 20"] > 0.8 > 0.4 > win["pass"]
    again = bidlab.bid_ev("aukcio", state, rollouts=2000, candidates=["pass", "1", "20"], seed=3)
    assert res.frame.equals(again.frame)                  # same seed, same rollouts


def test_k6_k7_the_calls_so_far_set_the_smallest_bid_and_whose_turn_it_is():
    s = parse(RULES, {"hand": HAND, "card": "AC", "turner": 1, "calls": "3,pass"})
    assert s.seat == 0 and s.high == 3 and s.bidder == 1 and s.in_lot == [True, True, False]
    assert candidates(RULES, s, ["4", "37"]) == [4, 37]
    with pytest.raises(BidlabError, match="exceed the high bid 3"):
        candidates(RULES, s, ["3"])
    with pytest.raises(BidlabError, match="at most 37"):
        candidates(RULES, s, ["38"])
    with pytest.raises(BidlabError, match="not seat 0's turn"):
        parse(RULES, {"hand": HAND, "card": "AC", "turner": 1, "calls": "3"})


def test_k9_the_seat_that_sits_out_does_not_speak():
    s = parse(RULES, {"hand": HAND, "card": "AC", "turner": 2, "sitting_out": 2,
                      "owned": ";;KD"})
    assert s.first == 0 and not s.in_lot[2]
    with pytest.raises(BidlabError, match="sit out"):
        parse(RULES, {"hand": HAND, "card": "AC", "sitting_out": 0})


@pytest.mark.parametrize("state, message", [
    ({"card": "QH"}, "needs hand="),
    ({"hand": HAND, "card": "7H"}, "not a face card"),
    ({"hand": "TH QH", "card": "QS"}, "not a money card"),
    ({"hand": HAND, "card": "QH", "owned": "AH AC AD;;"}, "already owns a set"),
    ({"hand": HAND, "card": "QH", "owned": "QH;QH;"}, "QH 3 times"),
    ({"hand": HAND, "card": "QH", "cards": "4,5,5"}, "holds the 5 cards"),
    ({"hand": HAND, "card": "QH", "colour": "red"}, "unknown aukcio situation key"),
])
def test_bad_situations_name_the_key(state, message):
    with pytest.raises(BidlabError, match=message):
        parse(RULES, state)


def test_rollouts_deal_the_unseen_money_consistently():
    from sim.games.aukcio.rollout import _hidden

    s = parse(RULES, {"hand": HAND, "card": "QH", "paid": "5H 5D", "owned": "JH;KC;"})
    pool, deck = _hidden(RULES, s)
    assert len(pool) == 39 - 5 - 2 and len(deck) == 16 - 3
    assert not set(deck.tolist()) & {9 + 13 * 2, 11, 10 + 13 * 2}   # JH, KC, QH are seen
    assert np.bincount(pool, minlength=53)[52] == 2                  # one of 3 jokers is yours
