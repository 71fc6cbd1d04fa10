"""A policy sees only public information and its own hand (``rules/auktsion.md``,
"Public information"; DESIGN.md, Policies).

With the reference engine: the observation built for a seat (public vector and own
hand vector) is the same, question for question, when other seats' hidden cards change
but the public history does not. For the kernel: a seat is asked with the public vector
and its own row of ``hands``; no other row reaches it, and the public vector holds no
hand at all.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from sim.cards import parse_cards
from sim.games import get_game
from sim.games.auktsion import kernel as K
from sim.games.auktsion import obs as O
from sim.games.auktsion import reference

GAME = get_game("auktsion")
RULES = GAME.make_rules({"start_money": 200, "deals_per_match": 2})


def observer(seen: list):
    """Seat 0: records what it is shown; bids up to 3 coins on ranks where its own cards
    are worth at least 4 points (so its calls depend on its own hand)."""
    def policy(o, hand, params, rng):
        seen.append((o, hand))  # the engine hands a Python policy copies
        lo = reference.smallest_bid(o)
        top = 3 if hand[O.HAND_POINTS + int(o[O.LOT])] >= 4 else 0
        return lo if lo <= top and lo <= o[O.MONEY] else reference.PASS
    return policy


def rival(o, hand, params, rng):
    """Seats 1-3 decide from public information only and never buy: they push seat 0's
    price up to 2, and seat 0 then bids 3."""
    lo = reference.smallest_bid(o)
    return lo if o[O.HIGH_BIDDER] == 0 and o[O.PRICE] < 2 else reference.PASS


def play(hands):
    seen: list = []
    seats = [observer(seen), rival, rival, rival]
    t = reference.Match(RULES, seats, seed=1, index=0).play(hands=hands).trace()
    return t, seen


def shuffled_hidden(hands, rng: random.Random):
    """Hands with the cards of seats 1-3 moved between them within each suit: every
    seat keeps its number of cards of each suit, hence its hand points and its money
    (A3), while the cards themselves change."""
    out = [list(hands[0]), [], [], []]
    for suit in range(4):
        pool = [c for s in (1, 2, 3) for c in hands[s] if c // 13 == suit]
        rng.shuffle(pool)
        for s in (1, 2, 3):
            k = sum(1 for c in hands[s] if c // 13 == suit)
            out[s] += pool[:k]
            pool = pool[k:]
    return out


def deal_hands(seed: int):
    """The hands the reference engine deals in match (seed, 0), as card codes."""
    seats = ["passive"] * 4
    t = reference.Match(RULES, seats, seed=seed, index=0).play().trace()
    return [[parse_cards(h) for h in deal["hands"]] for deal in t["deals"]]


def public(t):
    """Everything in a trace but the hidden hands."""
    return [{k: v for k, v in deal.items() if k != "hands"} for deal in t["deals"]]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_observation_ignores_other_seats_hidden_cards(deal_seed, shuffle_seed):
    """Public information: other seats' hidden cards change, the public history does
    not; seat 0 is shown exactly the same vectors at every question."""
    hands = deal_hands(deal_seed)
    other = [shuffled_hidden(h, random.Random(shuffle_seed + d)) for d, h in enumerate(hands)]
    t1, seen1 = play(hands)
    t2, seen2 = play(other)
    assert public(t1) == public(t2)  # the same public history
    assert all(d["lots"][r]["buyer"] in (0, None) for d in t1["deals"] for r in range(13))
    assert seen1 and seen1 == seen2
    if other != hands:
        assert [d["hands"] for d in t1["deals"]] != [d["hands"] for d in t2["deals"]]


def test_observation_builder_mid_deal():
    """The reference engine's observation builder, between lots: seat 0's observation
    does not move when seats 1-3 swap hidden cards; every seat's hand vector is its own
    hand, so the other seats' observations do move."""
    hands = deal_hands(7)[0]
    other = shuffled_hidden(hands, random.Random(3))
    assert other != hands
    matches = []
    for h in (hands, other):
        seats = [observer([]), rival, rival, rival]
        m = reference.Match(RULES, seats, seed=1, index=0)
        m.start_deal(0, hands=h)
        for rank in range(6):
            m.play_lot(rank)
        matches.append(m)
    a, b = matches
    assert a.observation(0) == b.observation(0)
    for s in (1, 2, 3):
        own = [0.0] * 13
        for c in other[s]:
            own[c % 13] += (1, 3, 4, 2)[c // 13]  # suit points in card suit order C D H S
        hand = b.observation(s)[1]
        assert hand[O.HAND_POINTS:O.HAND_POINTS + 13] == own
        assert hand[O.HAND_REST:O.HAND_REST + 13] == [sum(own[r:]) for r in range(13)]
    assert any(a.observation(s) != b.observation(s) for s in (1, 2, 3))
    # The public vectors of two seats differ only in the seat number.
    v0, v1 = a.observation(0)[0], a.observation(1)[0]
    assert [i for i in range(O.SIZE) if v0[i] != v1[i]] == [O.SEAT]


def test_observation_changes_with_the_own_hand():
    """The own hand is visible: changing seat 0's cards (keeping its points) changes
    its observation (so the test above is not vacuous)."""
    hands = deal_hands(7)[0]
    swapped = [list(h) for h in hands]
    # Swap one card of seat 0 with a card of the same suit and another rank from seat 1.
    a = next(c for c in swapped[0] if any(d // 13 == c // 13 and d % 13 != c % 13 for d in swapped[1]))
    b = next(d for d in swapped[1] if d // 13 == a // 13 and d % 13 != a % 13)
    swapped[0][swapped[0].index(a)] = b
    swapped[1][swapped[1].index(b)] = a
    views = []
    for h in (hands, swapped):
        seats = [rival] * 4
        m = reference.Match(RULES, seats, seed=1, index=0)
        m.start_deal(0, hands=h)
        views.append(m.observation(0))
    assert views[0][0] == views[1][0]  # the same public vector (money included)
    assert views[0][1] != views[1][1]


# -- the kernel's questions -------------------------------------------------------------

@pytest.mark.parametrize("compiled", [False, True], ids=["py_func", "njit"])
def test_kernel_asks_each_seat_with_the_public_vector_and_its_own_hand(compiled):
    """Kernel ``_ceilings`` (open form) and ``_call`` (a sealed bid): seat s's answer is
    the same whatever the other seats' rows of ``hands`` hold (they are replaced by
    junk), and asking changes nothing in the public vector but the seat number.
    (Policies also get their own rows of the parameter and random-state matrices,
    ``params[s]`` and ``rngs[1 + s]``.)"""
    ceilings = K._ceilings if compiled else K._ceilings.py_func
    call = K._call if compiled else K._call.py_func
    m = reference.Match(RULES, ["budget"] * 4, seed=1, index=0)
    m.start_deal(0)
    for rank in range(4):
        m.play_lot(rank)
    o = np.array(m.observation(0)[0])
    o[O.LOT], o[O.LOT_STATUS + 4] = 4, O.LOT_OPEN
    hands = np.array(m.hand_vectors)
    money = np.array(m.money + [0] * 48, dtype=np.int64)
    seats = strategies.assign_seats(strategies.for_game("auktsion"), 4, ["all=budget"])
    pids, params = seats.ids("bid"), seats.params("bid")
    rngs = np.zeros((5, 4), dtype=np.uint64)
    table = np.zeros(1)   # no seat plays solved: the placeholder (sim.harness.solution_table)

    def answers(hands):
        caps, eff, before = np.zeros(52, np.int64), np.zeros(52, np.int64), o.copy()
        ceilings(pids, params, table, rngs, o, hands, money, caps, eff, 4)
        o[O.SEALED] = 1
        sealed = [call(pids, params, table, rngs, o, hands, s) for s in range(4)]
        o[O.SEALED] = 0
        assert [i for i in range(O.SIZE) if o[i] != before[i]] in ([], [O.SEAT])
        return list(zip(caps[:4], sealed))

    truth = answers(hands)
    assert any(c > 0 and b > 0 for c, b in truth)  # someone bids: the check is not vacuous
    for seat in range(4):
        junk = np.random.default_rng(seat).integers(1, 10**6, hands.shape).astype(float)
        junk[seat] = hands[seat]
        assert answers(junk)[seat] == truth[seat]


def test_given_decks_play_the_dealt_match_and_bad_decks_are_refused():
    """``deals=`` (the decks behind the conformance suite's hidden-card check): the decks
    as dealt play the very match dealt from (seed, i); a deck with a card twice is
    refused with the row and deal."""
    from sim.errors import BidlabError
    from sim.games.auktsion.engine import dealt, hidden_deals

    rules = GAME.make_rules({"players": 3, "deals_per_match": 2})
    sa = strategies.assign_seats(strategies.for_game("auktsion"), 3, ["0=random", "1=value"])
    pol = {"bid": (sa.ids("bid"), sa.params("bid"))}
    decks = dealt(rules, 4, 20, 25)
    a = GAME.run_chunk(rules, pol, sa.labels, 4, 20, 25, detail=True)
    b = GAME.run_chunk(rules, pol, sa.labels, 4, 20, 25, detail=True, deals=decks)
    for name in a:
        for col in a[name]:
            assert np.array_equal(np.ma.getdata(a[name][col]), np.ma.getdata(b[name][col]))
    assert GAME.trace(rules, pol, sa.labels, 4, 21) == GAME.trace(rules, pol, sa.labels, 4, 21,
                                                                 deals=decks[1:2])
    same, other = hidden_deals(rules, 4, 21, seat=0)
    t1 = GAME.trace(rules, pol, sa.labels, 4, 21, deals=same)
    t2 = GAME.trace(rules, pol, sa.labels, 4, 21, deals=other)
    for d1, d2 in zip(t1["deals"], t2["deals"]):
        assert d1["hands"][0] == d2["hands"][0] and d1["hand_points"] == d2["hand_points"]
        assert d1["hands"][1] != d2["hands"][1]        # hidden cards did change
    bad = decks.copy()
    bad[2, 50] = bad[2, 51]
    with pytest.raises(BidlabError, match="row 2, deal 1"):
        GAME.run_chunk(rules, pol, sa.labels, 4, 20, 25, deals=bad)
