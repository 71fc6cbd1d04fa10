"""Invariants over many auktsion matches from the kernel (``rules/auktsion.md``).

The detail tables of ``GAME.run_chunk`` must add up: money is conserved per deal and
per match (A3, A12, A14), scores come from the lots bought (A13) and stay within the
deck's points, win shares sum to one (A15). Hypothesis draws rule variants and
strategies and checks that the independent referee accepts the kernel's traces (and
that the plain-Python reference engine plays the very same match).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import strategies
from sim.games import get_game
from sim.games.auktsion import reference
from sim.games.auktsion.referee import replay

GAME = get_game("auktsion")
STRATEGIES = strategies.for_game("auktsion")
COUNT = 300

CASES = {
    "default": ({}, ["0=budget", "1=value", "2=random", "3=passive"]),
    "three": ({"players": 3}, ["0=random:p_bid=0.6,max_jump=8", "1=budget", "2=value:multiple=1.5"]),
    "sealed": ({"auction_form": "sealed", "min_bid": 2},
               ["0=budget", "1=value", "2=random", "3=budget:shade=0.4"]),
    "no-carry": ({"carry_money": False, "first_dealer": 2, "deals_per_match": 5},
                 ["0=random:p_bid=0.9,max_jump=30", "1=budget", "2=budget:aggression=2", "3=value"]),
    "raises": ({"min_bid": 3, "min_raise": 4, "start_money": 120, "suit_points": "2,2,2,2"},
               ["all=random:p_bid=0.5,max_jump=10"]),
    "poor": ({"start_money": 35, "players": 3, "deals_per_match": 6},
             ["0=budget:future_weight=0", "1=random", "2=value:multiple=4"]),
}


def packed(overrides, specs):
    rules = GAME.make_rules(overrides)
    sa = strategies.assign_seats(STRATEGIES, rules.players, specs)
    return rules, sa, {"bid": (sa.ids("bid"), sa.params("bid"))}


def deck_points(rules) -> int:
    return (13 - (rules.players == 3)) * sum(rules.suit_points)


@pytest.fixture(scope="module", params=list(CASES))
def chunk(request):
    """(rules, tables) of COUNT matches with detail, reshaped per match/deal/seat."""
    rules, sa, pol = packed(*CASES[request.param])
    tables = GAME.run_chunk(rules, pol, sa.labels, 2024, 1000, COUNT, detail=True)
    n, deals = rules.players, rules.deals_per_match
    lots = 13 - (n == 3)
    seats = {k: np.asarray(v).reshape(COUNT, n) for k, v in tables["seats"].items()}
    per_deal = {k: np.asarray(v).reshape(COUNT, deals, n) for k, v in tables["deals"].items()}
    per_lot = {k: np.ma.asarray(v).reshape(COUNT, deals, lots) for k, v in tables["lots"].items()}
    return rules, sa, pol, seats, per_deal, per_lot


def test_A3_A12_A14_money_is_conserved_per_deal_and_per_match(chunk):
    """A3, A12, A14: start - spent = end in every deal; the next deal starts with what is
    carried (or nothing) plus start_money - hand points; over the match, income - spent
    = money at the end; money is never negative."""
    rules, _, _, seats, deal, _ = chunk
    income = np.maximum(0, rules.start_money - deal["hand_points"].astype(np.int64))
    end = deal["money_start"] - deal["spent"]
    assert end.min() >= 0 and deal["money_start"].min() >= 0
    carried = end[:, :-1] if rules.carry_money else 0
    assert np.array_equal(deal["money_start"][:, 1:], carried + income[:, 1:])
    assert np.array_equal(deal["money_start"][:, 0], income[:, 0])
    assert np.array_equal(seats["money_end"], end[:, -1])
    assert np.array_equal(seats["money_spent"], deal["spent"].sum(axis=1))
    if rules.carry_money:
        assert np.array_equal(seats["money_end"], income.sum(axis=1) - deal["spent"].sum(axis=1))


def test_A12_A13_lots_add_up_to_spent_and_points(chunk):
    """A12, A13: a seat's spending and points in a deal are the prices and the face-up
    points of the lots it bought; every price is at least min_bid (A8)."""
    rules, _, _, seats, deal, lot = chunk
    n = rules.players
    buyer = lot["buyer"].filled(-1)
    price = lot["price"].filled(0)
    value = lot["buyer_value"].filled(0)
    for s in range(n):
        mine = buyer == s
        assert np.array_equal((price * mine).sum(axis=2), deal["spent"][:, :, s])
        assert np.array_equal((value * mine).sum(axis=2), deal["points"][:, :, s])
        assert np.array_equal(mine.sum(axis=(1, 2)), seats["lots_bought"][:, s])
    assert np.array_equal(seats["points"], deal["points"].sum(axis=1))
    sold = buyer >= 0
    assert price[sold].min() >= rules.min_bid
    assert np.all(lot["price"].mask == ~sold) and np.all(lot["buyer_value"].mask == ~sold)


def test_A2_A13_scores_within_the_decks_points(chunk):
    """A2, A13: the hands hold the deck's points (130, or 120 with 3 players, by default);
    a deal's scores are non-negative and together at most that; with leftover_value 0
    the match score is the points, 0 <= score <= deals x deck points."""
    rules, _, _, seats, deal, _ = chunk
    total = deck_points(rules)
    if tuple(rules.suit_points) == (4, 3, 2, 1):
        assert total == (130 if rules.players == 4 else 120)
    assert np.all(deal["hand_points"].sum(axis=2) == total)
    assert deal["points"].min() >= 0
    assert deal["points"].sum(axis=2).max() <= total
    assert rules.leftover_value == 0
    assert np.array_equal(seats["score"], seats["points"])
    assert seats["score"].min() >= 0 and seats["score"].max() <= rules.deals_per_match * total


def test_A15_win_shares_sum_to_one(chunk):
    """A15: the highest scores share one win per match."""
    _, _, _, seats, _, _ = chunk
    assert np.allclose(seats["win"].sum(axis=1), 1.0)
    best = seats["score"] == seats["score"].max(axis=1, keepdims=True)
    assert np.allclose(seats["win"], best / best.sum(axis=1, keepdims=True))


def test_A7_A10_A11_number_of_calls(chunk):
    """A10, A11: an open lot takes at least `players` calls (all pass, or a bid and
    players-1 passes); a sealed lot exactly one per seat."""
    rules, _, _, _, _, lot = chunk
    n = rules.players
    if rules.auction_form == "sealed":
        assert np.all(lot["calls"] == n)
    else:
        assert lot["calls"].min() >= n
        assert np.all(lot["calls"][lot["buyer"].filled(-1) < 0] == n)


def test_traces_describe_the_same_matches_and_partition_the_cards(chunk):
    """A1, A4, A6: traces of matches in the chunk repeat its tables exactly (whatever
    the chunking); each deal's hands partition the deck; the referee accepts them."""
    rules, sa, pol, seats, deal, lot = chunk
    n = rules.players
    for m in range(0, COUNT, 37):
        t = GAME.trace(rules, pol, sa.labels, 2024, 1000 + m)
        assert t["totals"] == seats["score"][m].tolist()
        for d, td in enumerate(t["deals"]):
            cards = [c for h in td["hands"] for c in h]
            assert len(cards) == len(set(cards)) == 52 - 4 * (n == 3)
            assert td["money_start"] == deal["money_start"][m, d].tolist()
            assert td["scores"] == deal["points"][m, d].tolist()
            assert [x["starter"] for x in td["lots"]] == lot["starter"][m, d].tolist()
            assert [-1 if x["buyer"] is None else x["buyer"] for x in td["lots"]] == \
                lot["buyer"][m, d].filled(-1).tolist()
            assert [len(x["calls"]) for x in td["lots"]] == lot["calls"][m, d].tolist()
        assert replay(t).winners == [s for s in range(n) if seats["win"][m, s] > 0]


def test_A14_A15_leftover_value_scores():
    """A14, A15: with leftover_value, the score is points + leftover_value x money left,
    also when carry_money is false."""
    for carry in (True, False):
        rules, sa, pol = packed({"leftover_value": 0.75, "carry_money": carry},
                                ["0=budget", "1=value", "2=random", "3=passive"])
        seats = GAME.run_chunk(rules, pol, sa.labels, 9, 0, 200)["seats"]
        assert np.array_equal(seats["score"], seats["points"] + 0.75 * seats["money_end"])
        assert seats["money_end"].max() > 0


# -- property tests: the referee accepts whatever the kernel plays --------------------------

POLICY_TEXTS = st.one_of(
    st.just("passive"),
    st.builds(lambda p, j: f"random:p_bid={p!r},max_jump={j}",
              st.floats(0, 1), st.integers(0, 1000)),
    st.builds(lambda m: f"value:multiple={m!r}", st.floats(0, 20)),
    st.builds(lambda a, f, s: f"budget:aggression={a!r},future_weight={f!r},shade={s!r}",
              st.floats(0, 5), st.floats(0, 2), st.floats(0, 1)),
)


@st.composite
def matches(draw):
    players = draw(st.sampled_from([3, 4]))
    start_money = draw(st.one_of(st.integers(1, 1000), st.integers(20, 90)))
    rules = {
        "players": players,
        "start_money": start_money,
        "min_bid": draw(st.integers(1, min(start_money, 12))),
        "min_raise": draw(st.integers(1, 50)),
        "deals_per_match": draw(st.integers(1, 6)),
        "carry_money": draw(st.booleans()),
        "leftover_value": draw(st.one_of(st.just(0.0), st.floats(0, 10))),
        "auction_form": draw(st.sampled_from(["open", "sealed"])),
        "first_dealer": draw(st.integers(0, players - 1)),
        "suit_points": draw(st.lists(st.integers(0, 100), min_size=4, max_size=4)),
    }
    specs = [f"{s}={draw(POLICY_TEXTS)}" for s in range(players)]
    return rules, specs, draw(st.integers(0, 2**64 - 1)), draw(st.integers(0, 2**40))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_referee_accepts_kernel_traces_of_any_variant(match):
    """A1-A15 and every rule key: for drawn rules, strategies, seed and index, the
    referee accepts the kernel's trace, and the reference engine plays the same match."""
    overrides, specs, seed, index = match
    rules, sa, pol = packed(overrides, specs)
    t = GAME.trace(rules, pol, sa.labels, seed, index)
    out = replay(t)
    assert out.scores == t["totals"] and out.winners == t["winners"]
    if rules.leftover_value == 0:
        assert 0 <= min(out.scores) and max(out.scores) <= rules.deals_per_match * deck_points(rules)
    assert reference.play(rules, sa, seed, index) == t


def test_kernel_suit_of_a_card_without_division():
    """The kernel's deal finds a card's suit as (c * 5042) >> 16; that is c // 13 for
    every card code 0..51 (rules/README.md: code = suit * 13 + rank)."""
    assert all((c * 5042) >> 16 == c // 13 for c in range(52))
