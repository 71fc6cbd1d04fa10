"""auktsion rules A1-A15 and every rule key (``rules/auktsion.md``).

Most checks read hand histories from the numba kernel (``GAME.trace``); each of those
traces is also passed through the independent referee. Hand-made situations (chosen
hands, scripted calls) use the plain-Python reference engine.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from sim.cards import RANKS, parse_cards
from sim.errors import RuleError
from sim.games import get_game
from sim.games.auktsion import kernel as K
from sim.games.auktsion import obs as O
from sim.games.auktsion import reference
from sim.games.auktsion.referee import replay

GAME = get_game("auktsion")
STRATEGIES = strategies.for_game("auktsion")
SUIT_OF = {"H": 0, "D": 1, "S": 2, "C": 3}  # index into the suit_points key (H, D, S, C)


def kernel_trace(overrides=None, specs=("all=random",), seed=1, index=0) -> dict:
    """The kernel's trace of one match; the referee must accept it."""
    rules = GAME.make_rules(overrides or {})
    sa = strategies.assign_seats(STRATEGIES, rules.players, list(specs))
    t = GAME.trace(rules, {"bid": (sa.ids("bid"), sa.params("bid"))}, sa.labels, seed, index)
    replay(t)
    return t


def kernel_seats(overrides=None, specs=("all=random",), seed=1, count=50) -> dict:
    rules = GAME.make_rules(overrides or {})
    sa = strategies.assign_seats(STRATEGIES, rules.players, list(specs))
    return GAME.run_chunk(rules, {"bid": (sa.ids("bid"), sa.params("bid"))}, sa.labels,
                          seed, 0, count)["seats"]


def points_of(cards, suit_points=(4, 3, 2, 1)) -> int:
    return sum(suit_points[SUIT_OF[c[1]]] for c in cards)


def lots(t):
    for d, deal in enumerate(t["deals"]):
        for lot in deal["lots"]:
            yield d, deal, lot


def scripted(rule):
    """A Python policy that bids the smallest legal bid when ``rule(obs)`` says so."""
    def policy(o, hand, params, rng):
        lo = reference.smallest_bid(o)
        return lo if rule(o) and lo <= o[O.MONEY + int(o[O.SEAT])] else reference.PASS
    return policy


# -- A1, A2: the deal --------------------------------------------------------------------

@pytest.mark.parametrize("players, per, deck", [(4, 13, 52), (3, 16, 48)])
def test_A1_players_deck_and_hand_size(players, per, deck):
    """A1 (rule key players): 52 cards, 13 each with 4; 48 (no twos), 16 each with 3."""
    t = kernel_trace({"players": players}, index=3)
    assert len(t["deals"]) == players  # deals_per_match defaults to players
    for deal in t["deals"]:
        hands = deal["hands"]
        assert len(hands) == players and all(len(h) == per for h in hands)
        cards = [c for h in hands for c in h]
        assert len(set(cards)) == len(cards) == deck
        assert any(c[0] == "2" for c in cards) == (players == 4)


@pytest.mark.parametrize("players, total", [(4, 130), (3, 120)])
def test_A2_hand_points_and_deck_total(players, total):
    """A2: hearts 4, diamonds 3, spades 2, clubs 1; all cards worth 130 (120 with 3)."""
    t = kernel_trace({"players": players}, index=4)
    for deal in t["deals"]:
        assert deal["hand_points"] == [points_of(h) for h in deal["hands"]]
        assert sum(deal["hand_points"]) == total


def test_A2_rule_key_suit_points():
    """A2 (rule key suit_points, listed H, D, S, C): same cards, new values."""
    base = kernel_trace(index=9)
    t = kernel_trace({"suit_points": "1,10,0,100"}, index=9)
    for d0, d1 in zip(base["deals"], t["deals"]):
        assert d0["hands"] == d1["hands"]  # the deal does not depend on the rules' values
        assert d1["hand_points"] == [points_of(h, (1, 10, 0, 100)) for h in d1["hands"]]
    flat = kernel_trace({"suit_points": "1,1,1,1"}, index=9)
    assert all(deal["hand_points"] == [13] * 4 for deal in flat["deals"])


# -- A3, A4: money and dealer ------------------------------------------------------------

def test_A3_money_is_start_money_minus_hand_points():
    """A3: the first deal pays start_money - hand points to each seat."""
    t = kernel_trace(index=2)
    deal = t["deals"][0]
    assert deal["money_start"] == [70 - p for p in deal["hand_points"]]


def test_A3_rule_key_start_money_and_no_negative_money():
    """A3 (rule key start_money): the same deal pays start_money - points, or nothing
    when that is negative; money is never negative."""
    rich = kernel_trace({"start_money": 100}, index=2)["deals"][0]
    poor = kernel_trace({"start_money": 30}, index=2)["deals"][0]
    assert rich["hands"] == poor["hands"]
    assert rich["money_start"] == [100 - p for p in rich["hand_points"]]
    assert poor["money_start"] == [max(0, 30 - p) for p in poor["hand_points"]]
    assert 0 in poor["money_start"]  # this deal has a hand worth more than 30
    for t in (kernel_trace({"start_money": 30}, seed=s) for s in range(5)):
        for deal in t["deals"]:
            assert min(deal["money_start"] + deal["money_end"]) >= 0


def test_A3_A8_without_money_everyone_passes():
    """A3, A8: with start_money 1 no hand gets a coin (every hand has > 1 point), so
    nobody can bid and every lot is unsold (A11)."""
    t = kernel_trace({"start_money": 1}, specs=["all=random:p_bid=1"])
    for _, deal, lot in lots(t):
        assert deal["money_start"] == [0, 0, 0, 0]
        assert lot["buyer"] is None and all(c["bid"] is None for c in lot["calls"])


@pytest.mark.parametrize("players, first", [(4, 0), (4, 3), (3, 2)])
def test_A4_dealer_rotates_from_first_dealer(players, first):
    """A4 (rule key first_dealer): deal d is dealt by first_dealer + d."""
    t = kernel_trace({"players": players, "first_dealer": first, "deals_per_match": 7})
    assert [deal["dealer"] for deal in t["deals"]] == [(first + d) % players for d in range(7)]
    assert t["deals"][0]["lots"][0]["starter"] == (first + 1) % players  # A6


# -- A5, A6: lots and starters -----------------------------------------------------------

@pytest.mark.parametrize("players, ranks", [(4, "23456789TJQKA"), (3, "3456789TJQKA")])
def test_A5_ranks_offered_in_ascending_order(players, ranks):
    """A5: 2, 3, ..., A (3 .. A with 3 players), one lot per rank."""
    t = kernel_trace({"players": players})
    for deal in t["deals"]:
        assert "".join(lot["rank"] for lot in deal["lots"]) == ranks


def test_A6_starter_follows_last_buyer_and_unsold_lots_do_not_move_it():
    """A6: the starter is the seat after the last buyer (the dealer before any sale);
    an unsold lot leaves the last buyer as it was."""
    seen_unsold_then_lot = False
    for index in range(6):
        t = kernel_trace(specs=["all=random:p_bid=0.15"], index=index)
        for deal in t["deals"]:
            last = deal["dealer"]
            previous_unsold = False
            for lot in deal["lots"]:
                assert lot["starter"] == (last + 1) % 4
                seen_unsold_then_lot |= previous_unsold
                previous_unsold = lot["buyer"] is None
                if lot["buyer"] is not None:
                    last = lot["buyer"]
    assert seen_unsold_then_lot


def test_A6_A11_all_pass_keeps_the_first_starter():
    """A6, A11: when nobody ever bids, every lot is unsold and started by the dealer's
    left-hand neighbour."""
    t = kernel_trace(specs=["all=passive"])
    for _, deal, lot in lots(t):
        assert lot["starter"] == (deal["dealer"] + 1) % 4
        assert lot["buyer"] is None and lot["price"] is None
        assert [c["seat"] for c in lot["calls"]] == [(lot["starter"] + k) % 4 for k in range(4)]


# -- A7-A11: the open auction ------------------------------------------------------------

def test_A7_speaking_order_goes_around_from_the_starter():
    """A7: seats speak in increasing order from the starter, around and around."""
    t = kernel_trace(specs=["all=random:p_bid=0.6"], index=1)
    long_lots = 0
    for _, _, lot in lots(t):
        seats = [c["seat"] for c in lot["calls"]]
        assert seats == [(lot["starter"] + k) % 4 for k in range(len(seats))]
        long_lots += len(seats) > 4
    assert long_lots > 0


@pytest.mark.parametrize("min_bid, min_raise", [(1, 1), (5, 1), (3, 4)])
def test_A8_rule_keys_min_bid_and_min_raise(min_bid, min_raise):
    """A8 (rule keys min_bid, min_raise): the first bid is at least min_bid, each later
    bid at least the price plus min_raise, never above the bidder's money. Value
    bidders always make the smallest legal bid, so the bounds are met exactly."""
    rules = {"min_bid": min_bid, "min_raise": min_raise}
    t = kernel_trace(rules, specs=["all=value:multiple=3"], index=5)
    raises = 0
    for _, _, lot in lots(t):
        bids = [c["bid"] for c in lot["calls"] if c["bid"] is not None]
        if bids:
            assert bids[0] == min_bid
            assert all(b - a == min_raise for a, b in zip(bids, bids[1:]))
            raises += len(bids) - 1
    assert raises > 0
    for seed in range(4):  # random bidders jump; the bounds still hold
        t = kernel_trace(rules, specs=["all=random:p_bid=0.7,max_jump=9"], seed=seed)
        for _, _, lot in lots(t):
            price = None
            for c in lot["calls"]:
                if c["bid"] is not None:
                    assert c["bid"] >= (min_bid if price is None else max(min_bid, price + min_raise))
                    price = c["bid"]


def test_A8_a_bid_never_exceeds_the_bidders_money():
    """A8: at most the bidder's money (random bidders with big jumps test the bound)."""
    hit_the_bound = 0
    for seed in range(6):
        t = kernel_trace({"start_money": 40}, specs=["all=random:p_bid=0.9,max_jump=60"], seed=seed)
        for _, deal, lot in lots(t):
            money = deal["money_start"][:]
            for earlier in deal["lots"][:deal["lots"].index(lot)]:
                if earlier["buyer"] is not None:
                    money[earlier["buyer"]] -= earlier["price"]
            for c in lot["calls"]:
                if c["bid"] is not None:
                    assert c["bid"] <= money[c["seat"]]
                    hit_the_bound += c["bid"] == money[c["seat"]]
    assert hit_the_bound > 0


def test_A9_a_pass_does_not_drop_the_player_out():
    """A9: a seat that passed may bid later in the same lot."""
    found = False
    for index in range(5):
        t = kernel_trace(specs=["all=random:p_bid=0.4"], index=index)
        for _, _, lot in lots(t):
            passed = set()
            for c in lot["calls"]:
                if c["bid"] is None:
                    passed.add(c["seat"])
                elif c["seat"] in passed:
                    found = True
    assert found


@pytest.mark.parametrize("players", [4, 3])
def test_A10_sold_after_players_minus_one_passes(players):
    """A10: the lot is sold as soon as players-1 passes follow the last bid (three with
    4 players, two with 3); the last bidder buys at his bid."""
    t = kernel_trace({"players": players}, specs=["all=random:p_bid=0.5"], index=7)
    sold = 0
    for _, _, lot in lots(t):
        calls = lot["calls"]
        if lot["buyer"] is None:
            continue
        sold += 1
        tail = calls[-(players - 1):]
        assert all(c["bid"] is None for c in tail)
        last_bid = calls[-players]
        assert last_bid["bid"] is not None
        assert (lot["buyer"], lot["price"]) == (last_bid["seat"], last_bid["bid"])
        # Never players-1 passes in a row after a bid before the end.
        run = 0
        for c in calls[:-(players - 1)]:
            run = run + 1 if c["bid"] is None else 0
            assert run < players
    assert sold > 0


@pytest.mark.parametrize("players", [4, 3])
def test_A11_unsold_after_every_player_passes(players):
    """A11: with no bid, the lot closes after `players` passes: nobody scores the rank."""
    t = kernel_trace({"players": players}, specs=["all=random:p_bid=0.1"], index=2)
    unsold = [lot for _, _, lot in lots(t) if lot["buyer"] is None]
    assert unsold
    for lot in unsold:
        assert [c["bid"] for c in lot["calls"]] == [None] * players
        assert lot["price"] is None


def calls_by_ceilings(eff, starter, min_bid, min_raise):
    """A7-A11 played call by call when seat s bids the smallest legal bid while it is at
    most eff[s]: (buyer or -1, price, calls)."""
    n = len(eff)
    lo, high, price, passes, calls, s = min_bid, -1, 0, 0, 0, starter
    while True:
        calls += 1
        if eff[s] >= lo:
            high, price, passes, lo = s, lo, 0, lo + min_raise
        else:
            passes += 1
            if passes == (n if high < 0 else n - 1):
                return (high, price if high >= 0 else 0, calls)
        s = (s + 1) % n


def settled(eff, starter, min_bid, min_raise):
    padded = np.zeros(52, dtype=np.int64)
    padded[:len(eff)] = eff
    return tuple(int(x) for x in K._ceiling_calls(padded, len(eff), starter, min_bid, min_raise))


@pytest.mark.parametrize("players", [3, 4])
def test_A7_A11_lots_between_ceilings_settle_as_if_called(players):
    """A7-A11: the kernel settles a lot between ceiling policies in phases, without
    playing the calls; buyer, price and number of calls equal the call-by-call auction
    for every ceiling of 0..7 coins (below, at and above min_bid), every starter, and
    min_bid, min_raise in 1..2."""
    for eff in itertools.product(range(8), repeat=players):
        for starter in range(players):
            for min_bid, min_raise in itertools.product((1, 2), repeat=2):
                want = calls_by_ceilings(eff, starter, min_bid, min_raise)
                assert settled(eff, starter, min_bid, min_raise) == want, (eff, starter)


@given(eff=st.lists(st.integers(0, 64_000), min_size=3, max_size=4), data=st.data(),
       min_bid=st.integers(1, 1000), min_raise=st.integers(1, 50))
@settings(max_examples=300, deadline=None)
def test_A7_A11_lots_between_ceilings_settle_as_if_called_at_any_size(eff, data, min_bid,
                                                                     min_raise):
    """The same as above for ceilings up to the most money a seat can hold (64 deals of
    1000 coins) and every min_bid, min_raise the rules allow; ceilings are drawn near
    one another too, where the order of the seats decides."""
    eff = [e if data.draw(st.booleans()) else eff[0] + data.draw(st.integers(-3, 3)) * min_raise
           for e in eff]
    eff = [max(0, e) for e in eff]
    starter = data.draw(st.integers(0, len(eff) - 1))
    assert settled(eff, starter, min_bid, min_raise) == calls_by_ceilings(eff, starter, min_bid,
                                                                          min_raise)


# -- A12, A13: paying and scoring --------------------------------------------------------

def test_A12_buyer_pays_the_price_even_without_cards_of_the_rank():
    """A12: the buyer pays the price to the bank; a buyer with no card of the rank still
    pays (and scores nothing for it, A13)."""
    found = False
    for index in range(10):
        t = kernel_trace(specs=["all=random:p_bid=0.5"], index=index)
        for deal in t["deals"]:
            spent = [0] * 4
            for lot in deal["lots"]:
                if lot["buyer"] is not None:
                    spent[lot["buyer"]] += lot["price"]
                    held = [c for c in deal["hands"][lot["buyer"]] if c[0] == lot["rank"]]
                    found |= not held and lot["price"] > 0
            assert deal["spent"] == spent
            assert deal["money_end"] == [m - s for m, s in zip(deal["money_start"], spent)]
    assert found


def test_A13_deal_score_is_the_buyers_own_cards_of_bought_ranks():
    """A13: a deal score is the suit points of the buyer's own cards of the ranks he
    bought; unbought cards score nothing."""
    for t in (kernel_trace(specs=["all=random:p_bid=0.5"], index=i) for i in range(3)):
        for deal in t["deals"]:
            scores = [0] * 4
            for lot in deal["lots"]:
                if lot["buyer"] is not None:
                    scores[lot["buyer"]] += points_of(
                        c for c in deal["hands"][lot["buyer"]] if c[0] == lot["rank"])
            assert deal["scores"] == scores
            assert sum(scores) <= 130


def test_A13_seed_example_scores_21():
    """A13, the seed's worked example: bought 3, 7 and A holding 3H 3S 7H 7D AH AD AC
    scores (4+2)+(4+3)+(4+3+1) = 21. Played by the reference engine with chosen hands
    and checked by the referee."""
    mine = parse_cards("3H 3S 7H 7D AH AD AC 2C 4C 5C 6C 8C 9C")
    rest = [c for c in range(52) if c not in mine]
    hands = [mine, rest[0:13], rest[13:26], rest[26:39]]
    buy_3_7_a = scripted(lambda o: RANKS[int(o[O.LOT])] in "37A")
    rules = GAME.make_rules({"deals_per_match": 1})
    seats = [buy_3_7_a, "passive", "passive", "passive"]
    t = reference.Match(rules, seats, seed=0, index=0).play(hands=[hands]).trace()
    deal = t["deals"][0]
    assert [lot["buyer"] for lot in deal["lots"]] == [0 if r in "37A" else None for r in RANKS]
    assert deal["scores"] == [21, 0, 0, 0]
    result = replay(t)
    assert result.details["points"] == [21, 0, 0, 0]
    assert result.details["money_end"][0] == 70 - 27 - 3  # 27 hand points, three lots at 1 coin


# -- A14, A15: carrying money and the match result ----------------------------------------

@pytest.mark.parametrize("carry", [True, False])
def test_A14_rule_key_carry_money(carry):
    """A14 (rule key carry_money): unspent money carries into the next deal, or is lost."""
    t = kernel_trace({"carry_money": carry}, specs=["all=value"], index=3)
    deals = t["deals"]
    for prev, deal in zip(deals, deals[1:]):
        income = [max(0, 70 - p) for p in deal["hand_points"]]
        carried = prev["money_end"] if carry else [0] * 4
        assert deal["money_start"] == [c + i for c, i in zip(carried, income)]
    if carry:
        assert any(m > 0 for m in deals[0]["money_end"])  # something was carried


@pytest.mark.parametrize("carry", [True, False])
@pytest.mark.parametrize("leftover", [0.0, 0.25, 3.0])
def test_A14_A15_rule_key_leftover_value(carry, leftover):
    """A14, A15 (rule key leftover_value): the match score is the sum of deal scores plus
    leftover_value per coin left after the last deal (also when carry_money is false)."""
    t = kernel_trace({"leftover_value": leftover, "carry_money": carry}, specs=["all=value"])
    points = [sum(deal["scores"][s] for deal in t["deals"]) for s in range(4)]
    money = t["deals"][-1]["money_end"]
    assert t["totals"] == [p + leftover * m for p, m in zip(points, money)]
    assert any(money)


def test_A15_winner_is_the_highest_total():
    """A15: the match winner has the highest match score."""
    t = kernel_trace(specs=["0=budget", "1=value", "2=random", "3=passive"])
    best = max(t["totals"])
    assert t["winners"] == [s for s, x in enumerate(t["totals"]) if x == best]
    seats = kernel_seats(specs=["0=budget", "1=value", "2=random", "3=passive"], count=40)
    score = seats["score"].reshape(40, 4)
    win = seats["win"].reshape(40, 4)
    assert np.array_equal(win > 0, score == score.max(axis=1, keepdims=True))


def test_A15_a_tie_is_shared():
    """A15: k tied players each get 1/k of a win (passive players all score 0)."""
    t = kernel_trace(specs=["all=passive"])
    assert t["totals"] == [0.0] * 4 and t["winners"] == [0, 1, 2, 3]
    seats = kernel_seats(specs=["all=passive"], count=5)
    assert np.all(seats["win"] == 0.25)
    seats = kernel_seats({"players": 3}, specs=["0=passive", "1=passive", "2=passive"], count=5)
    assert np.allclose(seats["win"], 1 / 3)


# -- the remaining rule keys -------------------------------------------------------------

@pytest.mark.parametrize("players, deals", [(4, None), (3, None), (4, 1), (3, 9)])
def test_rule_key_deals_per_match(players, deals):
    """Rule key deals_per_match: the match has that many deals (default: players)."""
    rules = {"players": players} if deals is None else {"players": players, "deals_per_match": deals}
    t = kernel_trace(rules)
    assert len(t["deals"]) == (players if deals is None else deals)


def test_sealed_form_one_bid_each_from_the_starter():
    """Rule key auction_form=sealed: one entry per seat from the starter, bids within
    min_bid..money (A8 with price 0), the highest bid wins and pays its bid."""
    for index in range(3):
        t = kernel_trace({"auction_form": "sealed", "min_bid": 2},
                         specs=["0=budget", "1=value", "2=random:max_jump=20", "3=passive"],
                         index=index)
        for _, _, lot in lots(t):
            assert [c["seat"] for c in lot["calls"]] == [(lot["starter"] + k) % 4 for k in range(4)]
            bids = [c["bid"] for c in lot["calls"] if c["bid"] is not None]
            assert all(b >= 2 for b in bids)
            if bids:
                assert lot["price"] == max(bids)
            else:
                assert lot["buyer"] is None


def test_sealed_form_tie_goes_to_the_earliest_seat_from_the_starter():
    """Sealed form: everyone bids min_bid, so each lot is a 4-way tie won by the starter,
    and the next lot starts at the seat after him (A6)."""
    t = kernel_trace({"auction_form": "sealed"}, specs=["all=random:p_bid=1,max_jump=0"])
    deal = t["deals"][0]
    for lot in deal["lots"]:
        assert [c["bid"] for c in lot["calls"]] == [1, 1, 1, 1]
        assert (lot["buyer"], lot["price"]) == (lot["starter"], 1)
    assert [lot["starter"] for lot in deal["lots"]] == [(1 + k) % 4 for k in range(13)]


def test_sealed_form_tie_in_the_reference_engine():
    """Sealed form, tie rule on a chosen situation: seats 2 and 0 bid 5 and seat 1 bids
    3 with seat 2 starting: seat 2 wins (earliest from the starter)."""
    bids = {0: 5, 1: 3, 2: 5, 3: -1}
    rules = GAME.make_rules({"auction_form": "sealed", "first_dealer": 1, "deals_per_match": 1})
    seats = [lambda o, h, p, r, s=s: bids[s] if o[O.LOT] == 0 else -1 for s in range(4)]
    t = reference.Match(rules, seats, seed=3, index=0).play().trace()
    lot = t["deals"][0]["lots"][0]
    assert [c["seat"] for c in lot["calls"]] == [2, 3, 0, 1]
    assert (lot["buyer"], lot["price"]) == (2, 5)
    assert replay(t).details["money_end"][2] == t["deals"][0]["money_start"][2] - 5


def test_sealed_form_with_no_bid_is_unsold():
    """Sealed form: no bid at all leaves the lot unsold."""
    t = kernel_trace({"auction_form": "sealed"}, specs=["all=passive"])
    for _, _, lot in lots(t):
        assert lot["buyer"] is None and [c["bid"] for c in lot["calls"]] == [None] * 4


def test_every_rule_key_is_declared_with_its_rule():
    """The rule keys of rules/auktsion.md, with their defaults."""
    rules = GAME.make_rules({})
    assert dict(rules) == {
        "players": 4, "start_money": 70, "min_bid": 1, "min_raise": 1, "deals_per_match": 4,
        "carry_money": True, "leftover_value": 0.0, "auction_form": "open", "first_dealer": 0,
        "suit_points": (4, 3, 2, 1)}
    assert GAME.make_rules({"players": 3}).deals_per_match == 3
    assert GAME.make_rules({"players": "3", "carry_money": "no", "auction_form": "Sealed",
                            "suit_points": "1, 2, 3, 4"}).to_json() == {
        "players": 3, "start_money": 70, "min_bid": 1, "min_raise": 1, "deals_per_match": 3,
        "carry_money": False, "leftover_value": 0.0, "auction_form": "sealed",
        "first_dealer": 0, "suit_points": [1, 2, 3, 4]}


# -- rule validation ---------------------------------------------------------------------

def test_unknown_rule_key_is_named():
    with pytest.raises(RuleError, match=r"unknown auktsion rule key 'colour'.*known keys: players"):
        GAME.make_rules({"colour": "red"})


@pytest.mark.parametrize("overrides, key, allowed", [
    ({"players": 5}, "players", "3, 4"),
    ({"players": 2}, "players", "3, 4"),
    ({"start_money": 0}, "start_money", "1..1000"),
    ({"start_money": 1001}, "start_money", "1..1000"),
    ({"min_bid": 0}, "min_bid", "1..70"),
    ({"min_bid": 71}, "min_bid", "1..70"),
    ({"start_money": 20, "min_bid": 21}, "min_bid", "1..20"),
    ({"min_raise": 0}, "min_raise", "1..50"),
    ({"min_raise": 51}, "min_raise", "1..50"),
    ({"deals_per_match": 0}, "deals_per_match", "1..64"),
    ({"deals_per_match": 65}, "deals_per_match", "1..64"),
    ({"leftover_value": -0.5}, "leftover_value", "0.0..10.0"),
    ({"leftover_value": 10.5}, "leftover_value", "0.0..10.0"),
    ({"leftover_value": float("nan")}, "leftover_value", "0.0..10.0"),
    ({"first_dealer": 4}, "first_dealer", "0..3"),
    ({"players": 3, "first_dealer": 3}, "first_dealer", "0..2"),
    ({"first_dealer": -1}, "first_dealer", "0..3"),
    ({"suit_points": "4,3,2,101"}, "suit_points", "each 0..100"),
    ({"suit_points": "4,-3,2,1"}, "suit_points", "each 0..100"),
])
def test_out_of_range_rule_values_name_key_and_range(overrides, key, allowed):
    """Out-of-range values raise RuleError naming the key and the allowed range."""
    with pytest.raises(RuleError) as e:
        GAME.make_rules(overrides)
    assert f"rule {key}=" in str(e.value) and allowed in str(e.value)


@pytest.mark.parametrize("overrides, key, expected", [
    ({"players": "four"}, "players", "whole number"),
    ({"players": True}, "players", "whole number"),
    ({"start_money": 2.5}, "start_money", "whole number"),
    ({"min_raise": "x"}, "min_raise", "whole number"),
    ({"carry_money": "maybe"}, "carry_money", "true or false"),
    ({"carry_money": 2}, "carry_money", "true or false"),
    ({"leftover_value": "lots"}, "leftover_value", "a number"),
    ({"auction_form": "dutch"}, "auction_form", "open, sealed"),
    ({"suit_points": "4,3,2"}, "suit_points", "4 comma-separated integers"),
    ({"suit_points": "a,b,c,d"}, "suit_points", "whole number"),
])
def test_bad_rule_types_name_key_and_what_is_expected(overrides, key, expected):
    """Values of the wrong type raise RuleError naming the key and the kind expected."""
    with pytest.raises(RuleError) as e:
        GAME.make_rules(overrides)
    assert f"rule {key}=" in str(e.value) and expected in str(e.value)


@pytest.mark.parametrize("overrides, allowed", [
    ({"players": "four"}, "3, 4"),
    ({"start_money": "lots"}, "1..1000"),
    ({"leftover_value": "lots"}, "0.0..10.0"),
])
def test_bad_rule_types_also_name_the_allowed_range(overrides, allowed):
    """rules/README.md "Bad input": the error names the key and the legal range."""
    with pytest.raises(RuleError) as e:
        GAME.make_rules(overrides)
    assert allowed in str(e.value)
