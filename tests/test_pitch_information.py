"""A pitch policy sees only public information and its own hand (``rules/pitch.md``,
"Public information"; DESIGN.md, Policies).

With the reference engine (whose games equal the kernel's): the observation shown to a
seat is the same, question for question, when other seats' unplayed cards (and the
undealt cards) change but the public history does not. For the kernel: ``_show`` puts
only the asking seat's own hand into the observation, the vector is cleared of it after
each question, and the public state the kernel keeps equals the reference engine's.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import harness as H
from sim.games import get_game
from sim.games.pitch import kernel as K
from sim.games.pitch import obs as O
from sim.games.pitch import reference as ref
from sim.games.pitch.rules import pack

GAME = get_game("pitch")
RULES = GAME.make_rules({"first_dealer": 3, "max_deals": 1, "joker": True})
SPADES = [39 + r for r in range(13)]


def observer(seen: list):
    """Seat 0: records every observation; bids 1 if its own hand is worth it; plays
    pimc (which samples the unseen cards from what it is shown)."""
    def bid(o, params, rng):
        seen.append(("bid", o))
        return 1 if ref.best_suit(o[O.HAND], 4, 53, 1, 0)[1] > 2.0 else O.PASS

    def play(o, params, rng):
        seen.append(("play", o))
        return ref._pimc(o, (4.0, 2.0), rng)
    return (ref.PythonPolicy(bid, decision="bid"), ref.PythonPolicy(play, decision="play"))


def rival(script: list[int]):
    """Seats 1-3: pass, and play the scripted card while it is legal (else their lowest
    legal card); seat 1 bids 2 so that it is the pitcher."""
    def bid(o, params, rng):
        return 2 if o[O.SEAT] == 1 else O.PASS

    def play(o, params, rng):
        for c in script:
            if o[O.LEGAL] >> c & 1:
                return c
        return ref.lowest(o[O.LEGAL])
    return (ref.PythonPolicy(bid, decision="bid"), ref.PythonPolicy(play, decision="play"))


def world(own: list[int], firsts: list[int], rest_seed: int):
    """Seat 0 holds ``own``; seats 1, 2, 3 hold the spades ``firsts`` (their first
    cards: spades are led and trumps, so these plays are legal in every world) and five
    random cards each from the rest, drawn with ``rest_seed``."""
    pool = [c for c in range(53) if c not in own and c not in firsts]
    random.Random(rest_seed).shuffle(pool)
    hands = [own] + [[firsts[s]] + pool[5 * s:5 * s + 5] for s in range(3)]
    return [[sum(1 << c for c in h) for h in hands]]


def play(fixed, firsts):
    seen: list = []
    seats = [observer(seen)] + [rival([firsts[s]]) for s in range(3)]
    t = ref.play(RULES, seats, seed=1, index=0, fixed=fixed)
    return t, seen


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.integers(0, 2**32))
def test_observation_ignores_other_seats_unplayed_cards(own_seed, seed_a, seed_b):
    """Two worlds with the same public history until seat 0's first card: seat 0 is
    shown exactly the same vectors at every question up to then, and its pimc policy
    (which reads only that vector and its random stream) plays the same card."""
    rng = random.Random(own_seed)
    firsts = rng.sample(SPADES, 3)
    own = rng.sample(range(39), 6)      # no spade, no joker: asked in trick 0
    ta, seen_a = play(world(own, firsts, seed_a), firsts)
    tb, seen_b = play(world(own, firsts, seed_b), firsts)
    k = [kind for kind, _ in seen_a].index("play") + 1
    assert seen_a[k - 1][1][O.TRICK] == 0
    assert seen_a[:k] == seen_b[:k]
    # the public history of trick 0 up to seat 0 is identical, the hidden hands are not
    trick_a, trick_b = ta["deals"][0]["tricks"][0], tb["deals"][0]["tricks"][0]
    assert trick_a["cards"][:3] == trick_b["cards"][:3] and trick_a["cards"][0][0] == 1
    assert trick_a["cards"][3] == trick_b["cards"][3]       # seat 0's card
    if seed_a != seed_b:
        assert ta["deals"][0]["hands"][1:] != tb["deals"][0]["hands"][1:]


def test_observation_holds_only_the_own_hand():
    """Two seats' views of the same moment differ only in the seat number, the own hand
    and the legal cards."""
    m = ref.Match(GAME.make_rules({}), "basic", seed=2, index=0)
    m.play_deal(0)
    a, b = m.observation(0), m.observation(2)
    differ = {i for i in range(O.SIZE) if a[i] != b[i]}
    assert differ <= {O.SEAT, O.HAND, O.LEGAL}
    assert a[O.HAND] == m.hands[0] and b[O.HAND] == m.hands[2]


def test_kernel_show_copies_only_the_asking_seats_hand():
    """``harness.show_seat`` writes the asking seat's number and own hand; other seats'
    hands in the kernel's scratch never reach the vector; ``keep_seat_rng`` clears the
    hand again."""
    n_params = 2
    o, p, rng, rngs, work, si = K.new_scratch(n_params)
    K._start_game(pack(GAME.make_rules({})), o)
    params = np.zeros((4, n_params))
    views = []
    for others in (0, 1):
        hands = np.random.default_rng(others).permutation(52)[:24]
        si[:] = 0
        si[K.I_HANDS] = sum(1 << int(c) for c in range(6))          # seat 0: 2C..7C
        for s in (1, 2, 3):
            si[K.I_HANDS + s] = sum(1 << int(c) for c in hands[6 * s:6 * s + 6])
        K._start_deal(o, 4, 0, 3, si)
        H.show_seat(o, p, rng, params, rngs, 0, si[K.I_HANDS], O.SEAT, O.HAND)
        views.append(o.copy())
        H.keep_seat_rng(o, rng, rngs, 0, O.HAND, O.LEGAL)
        assert o[O.HAND] == 0 and o[O.LEGAL] == 0
    assert (views[0] == views[1]).all()
    assert views[0][O.HAND] == (1 << 6) - 1 and views[0][O.SEAT] == 0


def test_kernel_public_state_equals_the_reference():
    """After a whole game the kernel's observation vector (public state; no hand left in
    it) equals the reference engine's, entry for entry."""
    rules = GAME.make_rules({"joker": True, "players": 5})
    import strategies
    gs = strategies.for_game("pitch")
    sa = strategies.assign_seats(gs, 5, ["all=basic", "1=expert:samples=2"])
    pol = {d: (sa.ids(d), sa.params(d)) for d in gs.decisions}
    scratch = K.new_scratch(4)
    from sim.games.pitch.engine import NO_FIXED
    a = dict(seat_out=np.zeros((1, 5, K.SEAT_COLS), np.int32), win=np.zeros((1, 5)),
             game_out=np.zeros((1, K.GAME_COLS), np.int32),
             deal_out=np.zeros((0, K.DEAL_COLS), np.int32), deal_seat=np.zeros((0, 5, 2), np.int32),
             err=H.new_errors(1))
    no_log = np.empty((0, 1), np.int64)
    K.play_match(np.uint64(6), 3, pack(rules), pol["bid"][0], pol["bid"][1], np.zeros(1),
                 pol["play"][0],
                 pol["play"][1], 0, NO_FIXED, *scratch, a["seat_out"], a["win"], a["game_out"],
                 False, np.zeros(2, np.int64), a["deal_out"], a["deal_seat"], a["err"],
                 no_log, no_log, no_log, no_log)
    m = ref.Match(rules, sa, 6, 3, record=False).play()
    o = scratch[0]
    assert o[O.HAND] == 0 and o[O.LEGAL] == 0
    expect = list(m.o)
    expect[O.SEAT] = int(o[O.SEAT])  # the last seat asked is not part of the state
    assert o.tolist() == expect
