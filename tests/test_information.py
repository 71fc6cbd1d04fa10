"""A policy sees only public information and its own hand (``rules/auktsion.md``,
"Public information"; DESIGN.md, Policies).

With the reference engine: the observation built for a seat is the same, question for
question, when other seats' hidden cards change but the public history does not. For
the kernel: ``_show`` copies only the asking seat's row of ``value`` (its own hand) into
the observation vector.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    def policy(o, params, rng):
        seen.append(o)  # the engine hands a Python policy a copy
        lo = reference.smallest_bid(o)
        top = 3 if o[O.OWN_VALUE + int(o[O.LOT])] >= 4 else 0
        return lo if lo <= top and lo <= o[O.MONEY] else reference.PASS
    return policy


def rival(o, params, rng):
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
    does not move when seats 1-3 swap hidden cards; every seat's own block is its own
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
        assert b.observation(s)[O.OWN_VALUE:O.OWN_VALUE + 13] == own
    assert any(a.observation(s) != b.observation(s) for s in (1, 2, 3))
    # Only the seat number and the own-hand block differ between two seats' views.
    v0, v1 = a.observation(0), a.observation(1)
    differ = [i for i in range(O.SIZE) if v0[i] != v1[i]]
    assert set(differ) <= {O.SEAT, O.OWN_REST} | set(range(O.OWN_VALUE, O.OWN_VALUE + 13))


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
    assert views[0][O.MONEY] == views[1][O.MONEY]
    assert views[0] != views[1]


# -- the kernel's _show --------------------------------------------------------------------

@pytest.mark.parametrize("compiled", [False, True], ids=["py_func", "njit"])
@pytest.mark.parametrize("seat", [0, 2, 3])
def test_kernel_show_copies_only_the_asking_seats_hand(compiled, seat):
    """Kernel ``_show``: the observation gets the asking seat's number, its own row of
    ``value`` and its points in the lots to come; nothing else in it changes (policies
    get their own rows of the parameter and random-state matrices, ``params[s]`` and
    ``rngs[1 + s]``)."""
    show = K._show if compiled else K._show.py_func
    lot = 5
    o = np.full(O.SIZE, -7.5)
    o[O.LOT] = lot
    value = np.zeros((2 * O.MAX_PLAYERS, 13))
    value[:4] = np.random.default_rng(0).integers(1, 10**9, (4, 13))  # no sum matches another
    K.points_above.py_func(value, 4)
    show(o, value, seat)
    own = slice(O.OWN_VALUE, O.OWN_VALUE + 13)
    assert o[O.SEAT] == seat
    assert np.array_equal(o[own], value[seat])
    assert o[O.OWN_REST] == value[seat, lot:].sum()
    rest = np.ones(O.SIZE, bool)
    rest[own] = False
    rest[[O.SEAT, O.OWN_REST, O.LOT]] = False
    assert np.all(o[rest] == -7.5)
    for other in set(range(4)) - {seat}:  # no trace of other seats' rows anywhere in it
        assert not np.isin(value[[other, O.MAX_PLAYERS + other]], o).any()
