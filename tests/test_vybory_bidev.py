"""vybory bid-EV (``sim/games/vybory/situation.py``, ``rollout.py``): the situation's
keys and their errors, the candidate types (V2), common random numbers, and the hidden
hands conditioned on the announcements so far."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.bidev import bid_ev
from analysis.runs import make_rules
from sim.errors import BidlabError
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
    from analysis.runs import policy_arrays, seat_strategies
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
    assert RO._find_start(np.uint64(5), ids, params, table, own, seat, 0, dealer, forced, 2,
                          infer, start)
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
