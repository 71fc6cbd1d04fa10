"""vybory's engine against its rules (``rules/vybory.md``): the contract types' points
worked out by hand, trick winners under V8 and V9, the election (V2-V5), the tour
(V1, V12, V13), invariants of every deal, the deals it takes, and bid-EV."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.runs import policy_arrays
from analysis.spec import make_rules, seat_strategies
from sim import tricks as T
from sim.cards import parse_cards
from sim.errors import BidlabError
from sim.games import get_game
from sim.games.vybory import core as C
from sim.games.vybory.engine import dealt, hidden_deals
from strategies.base import VIEW_PID

GAME = get_game("vybory")
STANDARD, ALT = 0, 1


def mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


def run(n=400, specs=None, rules=None, detail=True, seed=3, deals=None):
    r = make_rules("vybory", rules or {})
    seats = seat_strategies("vybory", r, specs)
    return GAME.run_chunk(r, policy_arrays("vybory", seats), seats.labels, seed, 0, n, detail,
                          deals=deals)


# -- points (V10, V11), worked out by hand -------------------------------------------

@pytest.mark.parametrize("type_set, name, won, tricks, points", [
    (STANDARD, "most_tricks", "", 7, 12),             # V10: the majority takes 12
    (STANDARD, "most_tricks", "AS KS", 6, 0),         # ... the minority 0
    (STANDARD, "no_tricks", "", 3, -6),
    (STANDARD, "club_tricks", "", 5, 10),
    (STANDARD, "lowest_wins", "2D 3H 4C AS", 1, 2),   # +1 per red card
    (STANDARD, "spades_in_hearts", "2S AS AH", 1, 4),
    (STANDARD, "red_black", "2D AS KC", 1, -1),       # +1 red, -1 black
    (STANDARD, "tens_jacks", "TS JC TH 9S", 1, 5),    # +5 +5 -5
    (STANDARD, "no_clubs", "2C AC 5H", 1, -4),
    (ALT, "red_cards", "2D AS KH", 1, 2),
    (ALT, "black_cards", "2D AS KC", 1, -2),
    (ALT, "tens_jacks_no_clubs", "TC", 1, 3),         # a club ten counts both ways: +3
    (ALT, "tens_jacks_no_clubs", "JD 2C TS", 1, -2),  # -5 -2 +5
])
def test_contract_points_by_hand(type_set, name, won, tricks, points):
    """V10 and the type table: each type's points of a pair's won cards and tricks."""
    code = C.type_code(name, C.TYPE_SETS[type_set])
    assert C.pair_points(np.int64(mask(won)), tricks, type_set, code) == points


@pytest.mark.parametrize("a, d, result", [(5, 3, 1), (-4, -2, -1), (0, 0, 0)])
def test_the_deal_result_compares_the_totals(a, d, result):
    """V11: win, loss or draw by the pairs' total points."""
    assert C.result(a, d) == result


def test_every_type_splits_a_fixed_total_between_the_pairs():
    """V10: the pairs' points add up to what the whole deck is worth under the type."""
    for alt, type_set in enumerate(C.TYPE_SETS):
        for code in range(1, 9):
            whole = C.pair_points(np.int64(T.DECK52), 13, alt, code)
            if code == C.MOST_TRICKS:
                whole = 12
            for tricks, won in ((4, "AS KS 2D"), (9, "2C TC JD")):
                a = C.pair_points(np.int64(mask(won)), tricks, alt, code)
                d = C.pair_points(np.int64(T.DECK52 & ~mask(won)), 13 - tricks, alt, code)
                assert a + d == whole, (type_set, code)


# -- trick winners (V8, V9) ----------------------------------------------------------

def _winner(cards: str, trump: int, low: bool) -> str:
    cs = np.array(parse_cards(cards), np.int64)
    return cards.split()[T.trick_winner(cs, len(cs), cs[0] // 13, trump, low)]


@pytest.mark.parametrize("cards, trump, low, winner", [
    ("5H KH 2H 9D", -1, False, "KH"),       # V8: no trump, the highest of the suit led
    ("5H KH 2C 9D", 0, False, "2C"),        # V8: the only trump
    ("5H KH 2C 9C", 0, False, "9C"),        # V8: the highest trump
    ("5C 2C 9C 3D", 0, True, "2C"),         # V9: the lowest trump
    ("9H 2H 5D KH", 0, True, "2H"),         # V9: no trump: the lowest of the suit led
    ("9H 2H 5C 3C", 0, True, "3C"),         # V9: a trump beats the suit led; the lowest
    ("9H AH 2D 3S", 0, True, "9H"),         # V9: off-suit cards win nothing
])
def test_trick_winners(cards, trump, low, winner):
    assert _winner(cards, trump, low) == winner


def test_low_order_masks_agree_with_power():
    """``beating_order`` (the masks greedy uses) says what ``power`` says, both orders."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        hand = int(rng.choice(2**52 - 1)) & T.DECK52
        best, led, trump = int(rng.integers(52)), int(rng.integers(4)), int(rng.integers(-1, 4))
        for low in (False, True):
            want = sum(1 << c for c in range(52) if hand >> c & 1
                       and T.power(c, led, trump, low) > T.power(best, led, trump, low))
            if best // 13 != led and not (trump >= 0 and best // 13 == trump):
                continue  # ``best`` is a card winning the trick: led suit or trump
            assert T.beating_order(np.int64(hand), best, led, trump, low) == want


# -- the election and the tour (V1-V6, V12, V13) --------------------------------------

def test_elections_end_at_the_first_match_and_by_round_three():
    """V3, V4: at least 2 and at most 9 announcements; the attackers are the two who
    named the contract (V5), the first of them the first announcer."""
    t = run(600, ["all=random+random"])
    deals, per_seat = t["deals"], t["deal_seats"]
    calls = deals["calls"]
    assert calls.min() == 2 and calls.max() <= 9
    assert (calls == 9).any()                     # random elections reach round 3
    assert (deals["first_announcer"] != deals["partner"]).all()
    named = np.stack([np.ma.filled(per_seat[f"named_{r}"], 0) for r in (1, 2, 3)], axis=1)
    named = named.reshape(-1, 4, 3)
    for k in range(len(calls)):
        code = deals["contract_code"][k]
        holders = {s for s in range(4) if code in named[k, s]}
        assert holders == {deals["first_announcer"][k], deals["partner"][k]}
        for s in range(4):                        # V2: no type twice by one seat
            mine = [x for x in named[k, s] if x]
            assert len(mine) == len(set(mine))


def test_the_dealer_rotates_and_every_deal_has_thirteen_tricks():
    """V1: deal d is dealt by first_dealer + d; 13 tricks per deal, split by seat."""
    t = run(200, rules={"first_dealer": 2, "deals_per_match": 5})
    deals, per_seat = t["deals"], t["deal_seats"]
    assert (deals["dealer"] == (2 + deals["deal"]) % 4).all()
    tricks = per_seat["tricks"].reshape(-1, 4).sum(axis=1)
    assert (tricks == 13).all()
    att = per_seat["attacker"].reshape(-1, 4)
    assert (att.sum(axis=1) == 2).all()
    assert (np.where(att, per_seat["tricks"].reshape(-1, 4), 0).sum(axis=1)
            == deals["attack_tricks"]).all()


@pytest.mark.parametrize("scoring", ["points", "result"])
def test_scores_and_tour_winners(scoring):
    """V12: each player adds his pair's points (or +1/-1/0 for the pair's result); V13:
    the top score wins the tour, ties shared."""
    t = run(300, rules={"scoring": scoring, "deals_per_match": 4})
    deals, ps, seats = t["deals"], t["deal_seats"], t["seats"]
    res = np.repeat(deals["result"], 4)
    att = ps["attacker"]
    if scoring == "points":
        want = ps["points"]
    else:
        want = np.where(att, res, -res)
    assert (ps["deal_score"] == want).all()
    total = ps["deal_score"].reshape(300, 4, 4).sum(axis=1).ravel()
    assert (seats["score"] == total).all()
    score = seats["score"].reshape(-1, 4)
    top = score == score.max(axis=1, keepdims=True)
    assert np.allclose(seats["win"].reshape(-1, 4), top / top.sum(axis=1, keepdims=True))


def test_the_cards_dealt_do_not_depend_on_the_policies():
    """Common random numbers: tour i deals the same hands whatever the strategies."""
    a = run(50, ["all=random+random"])["deal_seats"]["hand"]
    b = run(50, ["all=matcher+greedy"])["deal_seats"]["hand"]
    assert (a == b).all()
    hands = a.reshape(-1, 4)
    assert all(bin(h).count("1") == 13 for h in hands.ravel())
    assert (np.bitwise_or.reduce(hands, axis=1) == T.DECK52).all()


def test_given_deals_are_played_and_checked():
    """``deals=``: four hands of 13 cards per deal, as ``engine.dealt`` lays them out."""
    r = make_rules("vybory", {"deals_per_match": 2})
    given = dealt(r, 9, 0, 20)
    a = run(20, rules={"deals_per_match": 2}, seed=1, deals=given)
    b = run(20, rules={"deals_per_match": 2}, seed=9)
    assert (a["deal_seats"]["hand"] == b["deal_seats"]["hand"]).all()
    bad = given.copy()
    bad[3, 1] = bad[3, 0]                          # two seats hold the same cards
    with pytest.raises(BidlabError, match="row 3, deal 0"):
        run(20, rules={"deals_per_match": 2}, deals=bad)
    with pytest.raises(BidlabError, match="8 hand masks"):
        run(20, rules={"deals_per_match": 2}, deals=given[:, :3])


def test_a_suit_each_plays_itself_out_without_trumps():
    """V6-V8 by hand: each seat holds one whole suit. Without trumps nobody can follow,
    so the seat after the first announcer leads and wins all 13 tricks."""
    hands = [mask(" ".join(r + s for r in "23456789TJQKA")) for s in "CDHS"]
    r = make_rules("vybory", {"deals_per_match": 1})
    seats = seat_strategies("vybory", r, ["all=random+random"])
    pol = policy_arrays("vybory", seats)
    for index in range(40):
        tr = GAME.trace(r, pol, seats.labels, 2, index, deals=np.array([hands], np.int64))
        deal = tr["deals"][0]
        if C.TRUMP[0, C.type_code(deal["contract"], "standard")] >= 0:
            continue
        leader = (deal["first_announcer"] + 1) % 4
        assert {t["winner"] for t in deal["tricks"]} == {leader}


# -- information -----------------------------------------------------------------------

def test_a_card_player_sees_nothing_of_the_hands_hidden_from_it():
    """The play probe (``VIEW_PID``: its card is a hash of everything it is shown) plays
    its first card of a deal the same when the other seats' hands are moved round among
    them, wherever the cards played before it are the same (the elections are random,
    so the contract is too); moving its own hand moves its card."""
    r = make_rules("vybory", {"deals_per_match": 1})
    seats = seat_strategies("vybory", r, ["all=random+random"])
    pol = policy_arrays("vybory", seats)
    ids, params = pol["play"]
    probe = {**pol, "play": (np.where(np.arange(4) == 0, VIEW_PID, ids), params)}

    def first_card(deals, index):
        deal = GAME.trace(r, probe, seats.labels, 5, index, deals=deals)["deals"][0]
        cards = [c for t in deal["tricks"] for c in t["cards"]]
        k = next(i for i, (s, _) in enumerate(cards) if s == 0)
        return cards[:k], cards[k][1]

    compared = moved = 0
    for index in range(120):
        same, hidden = hidden_deals(r, 5, index, 0)
        _, own = hidden_deals(r, 5, index, 1)
        before, card = first_card(same, index)
        before_h, card_h = first_card(hidden, index)
        if before == before_h:
            compared += 1
            assert card == card_h, index
        moved += first_card(own, index)[1] != card
    assert compared >= 15 and moved > 60


# -- policies ------------------------------------------------------------------------

def test_greedy_and_expected_beat_random():
    """greedy's card play and expected's election each beat random, seats alternating."""
    t = run(3000, ["0=expected+greedy", "2=expected+greedy", "1=expected+random",
                   "3=expected+random"], detail=False)["seats"]
    assert t["win"][t["seat"] % 2 == 0].sum() / 3000 > 0.6
    t = run(3000, ["0=expected+greedy", "2=expected+greedy", "1=random+greedy",
                   "3=random+greedy"], detail=False)["seats"]
    assert t["win"][t["seat"] % 2 == 0].sum() / 3000 > 0.55


def test_pimc_beats_greedy_in_every_seat():
    """pimc (32 samples) against its own playout policy, greedy: two pimc players in
    seats (0, 2), then (1, 3), on the same deals; their pair margin per deal over the
    greedy pair is positive with significance (a paired test by deal)."""
    r = make_rules("vybory", {"deals_per_match": 1})
    margins = []
    for pimc_seats in ((0, 2), (1, 3)):
        specs = ["all=expected+greedy"] + [f"{s}=expected+pimc" for s in pimc_seats]
        seats = seat_strategies("vybory", r, specs)
        t = GAME.run_chunk(r, policy_arrays("vybory", seats), seats.labels, 11, 0, 400)
        score = t["seats"]["score"].reshape(-1, 4)
        mine = score[:, list(pimc_seats)].mean(axis=1)
        theirs = np.delete(score, list(pimc_seats), axis=1).mean(axis=1)
        margins.append(mine - theirs)
    d = np.concatenate(margins)
    assert d.mean() - 2.58 * d.std(ddof=1) / np.sqrt(len(d)) > 0, d.mean()
