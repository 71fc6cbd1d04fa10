"""vybory bid-EV (``sim/games/vybory/situation.py``, ``rollout.py``): the situation's
keys and their errors, the candidate types (V2), common random numbers, and the hidden
hands conditioned on the announcements so far."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.bidev import bid_ev
from analysis.spec import make_rules
from sim.errors import BidlabError
from sim.games.vybory.rules import pack
from sim.games.vybory.situation import candidates, parse

HAND = "AS KS QS 7S 2S AH 9H 4H KD 8D 3D 6C 2C"
RULES = make_rules("vybory")


def test_the_seat_after_the_calls_speaks():
    s = parse(RULES, {"hand": HAND, "seat": 2, "calls": "no_tricks,club_tricks"})
    assert s.dealer == 3 and s.calls == [2, 3]
    with pytest.raises(BidlabError, match="not seat 2's turn"):
        parse(RULES, {"hand": HAND, "seat": 2, "dealer": 1, "calls": "no_tricks"})


@pytest.mark.parametrize("calls, why", [
    ("no_tricks,most_tricks,club_tricks,lowest_wins,no_tricks", "second time"),   # V2
    ("no_tricks,no_tricks", "election ended there"),                             # V3
    ("no_trick", "not a type"),
    ("1,2,3,4,5,6,7,8,1", "at most 8"),                                          # V4
])
def test_impossible_elections_are_refused(calls, why):
    with pytest.raises(BidlabError, match=why):
        parse(RULES, {"hand": HAND, "calls": calls})


def test_bad_keys_and_hands_are_named():
    with pytest.raises(BidlabError, match="'cals' \\(did you mean calls"):
        parse(RULES, {"hand": HAND, "cals": "1"})
    with pytest.raises(BidlabError, match="13 different cards"):
        parse(RULES, {"hand": "AS KS"})


def test_candidates_are_the_types_not_named_yet():
    """V2: a seat never names a type twice; names, codes and ranges read alike."""
    s = parse(RULES, {"hand": HAND, "seat": 0, "dealer": 3,
                      "calls": "no_tricks,club_tricks,lowest_wins,red_black"})
    assert candidates(RULES, s, None) == [1, 3, 4, 5, 6, 7, 8]
    assert candidates(RULES, s, ["club_tricks,1..1"]) == [3, 1]
    with pytest.raises(BidlabError, match="named no_tricks already"):
        candidates(RULES, s, ["no_tricks"])


def test_rollouts_share_their_deals_and_repeat():
    """Common random numbers: the same seed gives the same outcomes; two candidates that
    end the election the same way (none here) differ only by the call."""
    a = bid_ev("vybory", {"hand": HAND, "calls": "club_tricks"}, rollouts=300, seed=4)
    b = bid_ev("vybory", {"hand": HAND, "calls": "club_tricks"}, rollouts=300, seed=4)
    assert a.frame.equals(b.frame)
    best = a.frame.sort_values("mean").iloc[-1]["action"]
    assert best == "club_tricks"        # matching with a club-trick hand: attack at once


def test_the_calls_so_far_condition_the_hidden_hands():
    """infer=yes: an ``expected`` seat that named spades_in_hearts first holds a hand on
    which expected names it; infer=no deals the same seat any hand, so the rollouts
    differ. Calls its policy never makes are an error that says what to do."""
    state = {"hand": HAND, "seat": 1, "calls": "spades_in_hearts"}
    told = bid_ev("vybory", state, rollouts=400, seed=2)
    blind = bid_ev("vybory", {**state, "infer": "no"}, rollouts=400, seed=2)
    assert told.situation["conditioned"] > 0.99
    assert told.situation["conditioned_seats"] == [0]
    assert blind.situation["conditioned"] is None
    assert not np.allclose(told.frame["mean"], blind.frame["mean"])
    with pytest.raises(BidlabError, match="infer=no"):
        bid_ev("vybory", {**state, "calls": "most_tricks"}, rollouts=50, seed=2)


def test_the_walk_from_a_consistent_deal_samples_what_rejection_samples():
    """V2, V3: where rejection finds no deal in ``MAX_TRIES``, a rollout walks from a
    consistent deal by swaps that keep every announcement. On a moment where rejection
    works, both give the same distribution of a hidden hand (the clubs held by the first
    caller: a chi-square test of the two samples)."""
    from scipy.stats import chi2_contingency

    import bidlab
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    from sim.cards import parse_cards
    from sim.games.vybory import kernel as K
    from sim.games.vybory import rollout as RO
    from sim.rng import seed_stream

    rules = make_rules("vybory", {})
    seats = seat_strategies("vybory", rules, ["all=expected+greedy"])
    ids, params, table, _, _ = RO.policy_arrays(policy_arrays("vybory", seats))
    t = bidlab.trace("vybory", seed=3, index=0, strategies=["all=expected+greedy"])
    deal = t["deals"][0]
    dealer, seat = deal["dealer"], (deal["dealer"] + 3) % 4
    names = RO.type_names(rules)
    forced = np.array([names.index(n) + 1 for _, n in deal["announcements"][:2]], np.int64)
    own = int(sum(1 << c for c in parse_cards(" ".join(deal["hands"][seat]))))
    infer = (1 << (dealer + 1) % 4) | (1 << (dealer + 2) % 4)
    first = (dealer + 1) % 4
    o, p, rng, rngs, work, si = K.new_scratch(params.shape[1])
    fixed = np.full((1, 4), -1, np.int64)
    fixed[0, seat] = own
    draw = np.zeros(4, np.uint64)
    seed_stream(draw, 5, 0, 0)
    clubs = (1 << 13) - 1
    by_rejection = []
    while len(by_rejection) < 1500:
        K.deal(draw, si, fixed, 0)
        if RO._calls_agree(o, p, rng, si, ids, params, table, rngs, 0, dealer, forced, 2,
                           infer):
            by_rejection.append(bin(si[K.I_DEALT + first] & clubs).count("1"))
    start = np.zeros(4, np.int64)
    assert RO._find_start(np.uint64(5), pack(rules), ids, params, table, own, seat, 0, dealer,
                          forced, 2, infer, start)
    by_walk = []
    chain = np.zeros(4, np.uint64)
    for i in range(1500):
        seed_stream(chain, 5, i, RO.CHAIN_STREAM)
        RO._walk(o, p, rng, si, ids, params, table, rngs, 0, dealer, forced, 2, infer, seat,
                 start, chain)
        assert RO._calls_agree(o, p, rng, si, ids, params, table, rngs, 0, dealer, forced, 2,
                               infer)
        by_walk.append(bin(si[K.I_DEALT + first] & clubs).count("1"))
    values = sorted(set(by_rejection) | set(by_walk))
    counts = np.array([[by_rejection.count(v) for v in values],
                       [by_walk.count(v) for v in values]])
    counts = counts[:, counts.sum(axis=0) >= 10]
    assert chi2_contingency(counts).pvalue > 0.001


# -- solved callers: their calls' probabilities weigh the hidden hands ----------------

SOLVED_MOMENTS = {
    # traced (seed 3, tour 4, deal 0, all=solved+greedy): seat 1 named club_tricks first
    "shipped": {"hand": "2D 4D 6D 8D TD KD 2H 4H 6H 9H 2S JS KS", "seat": 2,
                "calls": "club_tricks"},
    "random": {"hand": "AS KS 7S 2S AH 9H 4H KD 8D 3D QC 6C 2C", "seat": 2,
               "calls": "most_tricks,club_tricks"},
}
"""Seat 2's turn after one or two announcements (dealer 0 or 3), with the shipped
solution or a random one (``_random_table``)."""


def _random_table(seed):
    """A stacked solution table (every seat the same) whose rows are random over all six
    actions, the illegal ones included (they fall back to the first type allowed), the
    better ranked new types more likely: calls far from certain, and dependent on the
    hand."""
    from sim.cfr import pack_table, stack_tables
    from sim.games.vybory import abstraction as A

    probs = np.random.default_rng(seed).dirichlet([8, 4, 2, 1, 1, 1], A.INFOSETS)
    return stack_tables([pack_table(probs, A.VERSION)] * 4)


def _solved_setup(which):
    """(policies, situation, (ids, params, table), own hand mask) with every seat
    playing ``solved``: the shipped solution, or ``_random_table``'s."""
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    from sim.games.vybory import rollout as RO

    rules = make_rules("vybory", {})
    seats = seat_strategies("vybory", rules, ["all=solved+greedy"])
    policies = policy_arrays("vybory", seats)
    ids, params, table, _, _ = RO.policy_arrays(policies)
    if which == "random":
        table = _random_table(1)
    s = parse(rules, SOLVED_MOMENTS[which])
    return policies, s, (ids, params, table), sum(1 << c for c in s.hand)


def _reference_likelihood(table, s, hands):
    """The product over the callers of ``s`` of the solution's probability of the call
    each made, read off the table's probabilities (``unpack_table``) at the row of the
    abstraction's key, not through ``call_probability``."""
    from sim.cfr import T_ACTIONS, T_HEADER, seat_start
    from sim.games.vybory import abstraction as A

    named, like = np.zeros(4, np.int64), 1.0
    for k, t in enumerate(s.calls):
        q = (s.dealer + 1 + k) % 4
        base = int(seat_start(table, q))
        actions = int(table[base + T_ACTIONS])
        row, types = A.key(A.NO_WORTHS, np.int64(hands[q]), 0, named.copy(), q, k)
        at = base + T_HEADER + row * actions
        probs = np.diff(table[at:at + actions], prepend=0.0)       # as unpack_table
        fallback = min(c for c in range(1, 9) if not named[q] >> c & 1)
        like *= sum(probs[a] for a in range(actions) if (types[a] or fallback) == t)
        named[q] |= 1 << t
    return like


def _clubs(mask):
    return bin(int(mask) & ((1 << 13) - 1)).count("1")


def _chi2_pvalue(a, b):
    """The p-value of a chi-square test that samples ``a`` and ``b`` come from one
    distribution (values seen fewer than 10 times dropped)."""
    from scipy.stats import chi2_contingency

    values = sorted(set(a) | set(b))
    counts = np.array([[a.count(v) for v in values], [b.count(v) for v in values]])
    return chi2_contingency(counts[:, counts.sum(axis=0) >= 10]).pvalue


@pytest.mark.parametrize("which", ["shipped", "random"])
def test_solved_callers_weigh_the_hidden_hands_by_their_calls_probabilities(which):
    """V2, V3: with every seat playing ``solved``, the rollouts' hidden hands are the
    uniform deals weighted by the product ``L`` of the solution's probabilities of the
    calls made (each deal accepted with probability ``L``, so the rollouts stay equally
    weighted). Against an independent reference (numpy deals, each kept with the
    probability read off the table by ``_reference_likelihood``), the clubs of seat 1 (a
    caller: club_tricks) have the same distribution (a chi-square of the two samples).
    Dealt unconditioned, or (random table) accepted wherever ``L > 0``, they differ."""
    from sim.games.vybory import kernel as K
    from sim.games.vybory import rollout as RO

    policies, s, (ids, params, table), own = _solved_setup(which)
    infer = RO._infer_seats(policies, s)
    callers = {(s.dealer + 1 + k) % 4 for k in range(len(s.calls))}
    assert infer == sum(1 << q for q in callers)
    n = 1500
    gen = np.random.default_rng(11)
    rest = np.array([c for c in range(52) if not own >> c & 1])
    reference, possible = [], []
    for _ in range(200_000):
        cards = gen.permutation(rest)
        hands = [own] * 4
        for i, q in enumerate(q for q in range(4) if q != s.seat):
            hands[q] = sum(1 << int(c) for c in cards[13 * i:13 * i + 13])
        like = _reference_likelihood(table, s, hands)
        if like > 0 and len(possible) < n:
            possible.append(_clubs(hands[1]))
        if gen.random() < like:
            reference.append(_clubs(hands[1]))
            if len(reference) == n:
                break
    assert len(reference) == n

    forced = np.array(s.calls, np.int64)
    o, p, rng, rngs, work, si = K.new_scratch(params.shape[1])
    fixed = np.full((1, 4), -1, np.int64)
    fixed[0, s.seat] = own
    deal_rng, chain_rng = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    no_start = np.zeros(0, np.int64)
    rollouts, blind = [], []
    for r in range(n):
        for bits, out in ((infer, rollouts), (0, blind)):
            assert RO._hidden_hands(np.uint64(3), r, ids, params, table, s.seat, 0, s.dealer,
                                    forced, len(s.calls), bits, no_start, o, p, rng, rngs, si,
                                    fixed, deal_rng, chain_rng) == 1
            out.append(_clubs(si[K.I_DEALT + 1]))
        if r < 50:                          # call_probability reads the table alike
            hands = [int(si[K.I_DEALT + q]) for q in range(4)]
            assert np.isclose(RO._likelihood(o, p, rng, si, ids, params, table, rngs, 0,
                                             s.dealer, forced, len(s.calls), infer),
                              _reference_likelihood(table, s, hands))

    assert _chi2_pvalue(rollouts, reference) > 0.001
    assert _chi2_pvalue(blind, reference) < 1e-6
    if which == "random":
        assert _chi2_pvalue(possible, reference) < 1e-6


def test_the_walk_with_solved_callers_samples_what_rejection_samples():
    """V2, V3: where rejection fails, the walk keeps a swap with probability min(1,
    L(new) / L(old)), ``L`` the product of the solved callers' call probabilities
    (Metropolis). On a moment where rejection works, with a solution whose calls are far
    from certain, both give the same distribution of seat 1's clubs (a chi-square of
    the two samples)."""
    from sim.games.vybory import kernel as K
    from sim.games.vybory import rollout as RO
    from sim.rng import seed_stream

    policies, s, (ids, params, table), own = _solved_setup("random")
    infer = RO._infer_seats(policies, s)
    forced = np.array(s.calls, np.int64)
    o, p, rng, rngs, work, si = K.new_scratch(params.shape[1])
    fixed = np.full((1, 4), -1, np.int64)
    fixed[0, s.seat] = own
    deal_rng, chain_rng = np.zeros(4, np.uint64), np.zeros(4, np.uint64)
    no_start = np.zeros(0, np.int64)
    by_rejection = []
    for r in range(1500):
        RO._hidden_hands(np.uint64(5), r, ids, params, table, s.seat, 0, s.dealer, forced, 2,
                         infer, no_start, o, p, rng, rngs, si, fixed, deal_rng, chain_rng)
        by_rejection.append(_clubs(si[K.I_DEALT + 1]))
    start = np.zeros(4, np.int64)
    assert RO._find_start(np.uint64(5), pack(make_rules("vybory", {})), ids, params, table,
                          own, s.seat, 0, s.dealer, forced, 2, infer, start)
    by_walk = []
    for i in range(1500):
        seed_stream(chain_rng, 5, i, RO.CHAIN_STREAM)
        RO._walk(o, p, rng, si, ids, params, table, rngs, 0, s.dealer, forced, 2, infer,
                 s.seat, start, chain_rng)
        assert RO._likelihood(o, p, rng, si, ids, params, table, rngs, 0, s.dealer, forced,
                              2, infer) > 0
        by_walk.append(_clubs(si[K.I_DEALT + 1]))
    assert _chi2_pvalue(by_rejection, by_walk) > 0.001


def test_bid_ev_conditions_on_solved_callers(capsys):
    """V2: ``bid-ev --strategy all=solved+greedy`` after an announcement by a ``solved``
    seat deals its hand conditioned on that call, and says so."""
    import json

    from bidlab.cli import main

    state = SOLVED_MOMENTS["shipped"]
    argv = ["bid-ev", "vybory", "--hand", state["hand"], "--seat", "2",
            "--state", f"calls={state['calls']}", "--strategy", "all=solved+greedy",
            "--rollouts", "200", "--seed", "1"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["situation"]["conditioned_seats"] == [1]
    assert out["situation"]["conditioned"] == 1.0
    assert main(argv) == 0
    assert "seat(s) 1 dealt" in capsys.readouterr().out


def test_callers_are_judged_under_the_type_set_in_force():
    """V2 (type_set=alt): the deals the hidden hands start from are ones on which the
    ``expected`` callers make their announcements under the alt types
    (tens_jacks_no_clubs is not no_clubs): the observation the callers are asked in shows
    the rules in force."""
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    from sim import harness as H
    from sim.games.vybory import kernel as K
    from sim.games.vybory import rollout as RO

    rules = make_rules("vybory", {"type_set": "alt"})
    policies = policy_arrays("vybory", seat_strategies("vybory", rules, ["all=expected+greedy"]))
    ids, params, table, _, _ = RO.policy_arrays(policies)
    s = parse(rules, {"hand": "AS KS 7S 2S AH 9H 4H KD 8D 3D QC 6C 2C", "seat": 2,
                      "calls": "tens_jacks_no_clubs"})
    infer = RO._infer_seats(policies, s)
    forced = np.array(s.calls, np.int64)
    own = sum(1 << c for c in s.hand)
    o, p, rng, rngs, work, si = K.new_scratch(params.shape[1])
    H.show_rules(o, pack(rules), K.RULES_SHOWN)
    for seed in range(10):
        start = np.zeros(4, np.int64)
        assert RO._find_start(np.uint64(seed), pack(rules), ids, params, table, own, s.seat, 0,
                              s.dealer, forced, 1, infer, start)
        for q in range(4):
            si[K.I_DEALT + q] = si[K.I_HANDS + q] = start[q]
        assert RO._likelihood(o, p, rng, si, ids, params, table, rngs, 0, s.dealer, forced, 1,
                              infer) == 1.0
