"""Two implementations of the auktsion rules agree; the referee catches what is wrong.

- The plain-Python reference engine (``sim/games/auktsion/reference.py``) plays the
  same matches as the numba kernel: traces equal call for call (rules A1-A15, all four
  policies, rule variants, many (seed, index) pairs), and its random streams equal
  ``sim/rng.py`` number for number.
- The referee (``sim/games/auktsion/referee.py``) rejects tampered traces with a
  message that names deal, lot, call and seat.
- A plain-Python policy runs in the reference engine (the prototyping slow path), and
  an illegal bid from one is an ``IllegalActionError`` naming match, seat, policy and
  the legal range.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

import strategies
from sim import rng as numba_rng
from sim.errors import IllegalActionError, RefereeError, StrategyError
from sim.games import get_game
from sim.games.auktsion import obs as O
from sim.games.auktsion import reference
from sim.games.auktsion.referee import replay
from sim.pyrng import Stream

GAME = get_game("auktsion")
STRATEGIES = strategies.for_game("auktsion")

VARIANTS = [
    {},
    {"players": 3},
    {"auction_form": "sealed"},
    {"players": 3, "auction_form": "sealed", "first_dealer": 2},
    {"carry_money": False, "leftover_value": 0.5},
    {"min_bid": 4, "min_raise": 3, "start_money": 90, "deals_per_match": 2},
    {"suit_points": "5,0,7,1", "leftover_value": 1.25, "first_dealer": 3},
    {"start_money": 25, "deals_per_match": 6, "players": 3, "min_raise": 2},
]
MIXES = [
    ["all=budget"],
    ["all=random"],
    ["0=random", "1=value", "2=passive"],
    ["0=value:multiple=2.5", "1=budget:aggression=1.7,future_weight=0.3,shade=0.55",
     "2=random:p_bid=0.8,max_jump=12", "3=budget"],
    ["0=budget:aggression=0.9", "1=random:p_bid=1,max_jump=0", "2=value:multiple=0.7",
     "3=random:p_bid=0.05,max_jump=40"],
]
KEYS = [(0, 0), (1, 5), (987654321, 1234), (2**64 - 1, 2**40 + 3)]


def setup(overrides, specs):
    rules = GAME.make_rules(overrides)
    specs = [x for x in specs if not x[0].isdigit() or int(x[0]) < rules.players]
    sa = strategies.assign_seats(STRATEGIES, rules.players, specs)
    return rules, sa, {"bid": (sa.ids("bid"), sa.params("bid"))}


def kernel_trace(overrides=None, specs=("all=random",), seed=1, index=0):
    rules, sa, pol = setup(overrides or {}, list(specs))
    return GAME.trace(rules, pol, sa.labels, seed, index)


# -- the random streams ------------------------------------------------------------------

@pytest.mark.parametrize("seed, index, stream", [(0, 0, 0), (1, 5, 3), (2**64 - 1, 99, 1),
                                                 (123456789, 2**50, 4)])
def test_streams_equal_sim_rng(seed, index, stream):
    """The Python port of SplitMix64/xoshiro256**, Lemire and Fisher-Yates gives the
    numbers of sim/rng.py (so both engines deal the same cards, A1)."""
    state = np.empty(4, np.uint64)
    numba_rng.seed_stream(state, np.uint64(seed), index, stream)
    py = Stream(seed, index, stream)
    assert [int(x) for x in state] == [py.s0, py.s1, py.s2, py.s3]
    for _ in range(50):
        assert int(numba_rng.next_u64(state)) == py.next_u64()
    for n in (1, 2, 3, 13, 52, 1000, 2**31 + 11, 2**32 - 1):
        for _ in range(20):
            assert int(numba_rng.below(state, n)) == py.below(n)
    for _ in range(50):
        assert float(numba_rng.uniform(state)) == py.uniform()
    deck = np.arange(52, dtype=np.int64)
    numba_rng.shuffle(state, deck)
    cards = list(range(52))
    py.shuffle(cards)
    assert deck.tolist() == cards


# -- kernel == reference -----------------------------------------------------------------

@pytest.mark.parametrize("overrides", VARIANTS,
                         ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default")
@pytest.mark.parametrize("specs", MIXES, ids=lambda m: " ".join(m))
def test_kernel_trace_equals_reference_trace(overrides, specs):
    """A1-A15: the kernel and the plain-Python reference produce identical traces (every
    card, call, price, score and total), and the referee accepts them."""
    rules, sa, pol = setup(overrides, specs)
    for seed, index in KEYS:
        kernel = GAME.trace(rules, pol, sa.labels, seed, index)
        assert reference.play(rules, sa, seed, index) == kernel, (seed, index)
        replay(kernel)


def test_reference_accepts_strategy_texts_and_rule_dicts():
    """Per-seat strategy texts and a plain dict of rule overrides work as well."""
    kernel = kernel_trace({"players": 3}, ["0=value", "1=budget:shade=0.5", "2=random"], 4, 2)
    ref = reference.play({"players": 3}, ["value", "budget:shade=0.5", "random"], 4, 2)
    assert ref == kernel


def test_play_many_equals_the_kernels_seats_table():
    """The plain-Python baseline plays the same matches as ``run_chunk`` (A14, A15)."""
    for overrides, specs in [({}, MIXES[3]), ({"players": 3, "leftover_value": 0.5}, MIXES[2])]:
        rules, sa, pol = setup(overrides, specs)
        n = rules.players
        seats = GAME.run_chunk(rules, pol, sa.labels, 11, 40, 25)["seats"]
        ref = reference.play_many(rules, sa, 11, 40, 25)
        for column in ("score", "win", "points", "money_spent", "money_end", "lots_bought"):
            assert np.array_equal(np.asarray(ref[column]).ravel(), seats[column]), column
        assert np.allclose(np.asarray(ref["win"]).sum(axis=1), 1.0)
        assert len(ref["score"]) == 25 and len(ref["score"][0]) == n


# -- the referee on good and tampered traces ---------------------------------------------

@pytest.fixture(scope="module")
def good():
    """An open-form match with plenty of bids and raises."""
    return kernel_trace({}, ["0=random:p_bid=0.6,max_jump=6", "1=budget:aggression=1", "2=value",
                         "3=random"], 5, 8)


def test_referee_rederives_the_result(good):
    """A13-A15: replay returns the totals, winners and the number of calls checked."""
    out = replay(good)
    assert out.scores == good["totals"] and out.winners == good["winners"]
    assert out.details["deals"] == 4 and out.details["lots"] == 52
    assert out.actions == sum(len(lot["calls"]) for deal in good["deals"] for lot in deal["lots"])
    assert out.details["points"] == [sum(d["scores"][s] for d in good["deals"]) for s in range(4)]


def _first(trace, pred):
    """(deal index, lot, call index) of the first call with ``pred(call, lot)``."""
    for d, deal in enumerate(trace["deals"]):
        for lot in deal["lots"]:
            for k, call in enumerate(lot["calls"]):
                if pred(call, lot):
                    return d, lot, k
    raise AssertionError("no such call")


def _rejects(trace, *fragments):
    with pytest.raises(RefereeError) as e:
        replay(trace)
    for f in fragments:
        assert f in str(e.value), str(e.value)
    return str(e.value)


def test_referee_rejects_a_bid_above_the_bidders_money(good):
    """A8: a bid above the bidder's money."""
    t = copy.deepcopy(good)
    d, lot, k = _first(t, lambda c, lot: c["bid"] is not None)
    call = lot["calls"][k]
    call["bid"] = 10_000
    _rejects(t, f"deal {d}, lot {lot['rank']}, call {k}, seat {call['seat']}", "bid 10000 is illegal",
             "coins (A8)")


def test_referee_rejects_a_raise_below_min_raise(good):
    """A8: a bid that does not beat the price by min_raise."""
    t = copy.deepcopy(good)
    d, lot, k = _first(t, lambda c, lot: c["bid"] is not None and
                       sum(x["bid"] is not None for x in lot["calls"]) >= 2 and
                       lot["calls"].index(c) > 0 and
                       any(x["bid"] is not None for x in lot["calls"][:lot["calls"].index(c)]))
    previous = [x["bid"] for x in lot["calls"][:k] if x["bid"] is not None][-1]
    lot["calls"][k]["bid"] = previous
    _rejects(t, f"deal {d}, lot {lot['rank']}, call {k}", f"smallest legal bid is {previous + 1}",
             "min_raise 1) (A8)")


def test_referee_rejects_a_bid_below_min_bid():
    """A8 (rule key min_bid): a first bid below min_bid."""
    t = kernel_trace({"min_bid": 5}, ["all=random:p_bid=0.6"], 2, 3)
    d, lot, k = _first(t, lambda c, lot: c["bid"] is not None)
    lot["calls"][k]["bid"] = 4
    _rejects(t, f"call {k}", "smallest legal bid is 5 (min_bid 5) (A8)")


def test_referee_rejects_a_wrong_price(good):
    """A10, A12: the price must be the last bid."""
    t = copy.deepcopy(good)
    d, lot, _ = _first(t, lambda c, lot: lot["buyer"] is not None)
    lot["price"] += 1
    _rejects(t, f"deal {d}, lot {lot['rank']}", f"at price {lot['price']}",
             f"the calls give buyer {lot['buyer']} at price {lot['price'] - 1} (A10-A12)")


def test_referee_rejects_a_wrong_buyer(good):
    """A10: the buyer must be the last bidder."""
    t = copy.deepcopy(good)
    d, lot, _ = _first(t, lambda c, lot: lot["buyer"] is not None)
    lot["buyer"] = (lot["buyer"] + 1) % 4
    _rejects(t, f"deal {d}, lot {lot['rank']}", "(A10-A12)")


def test_referee_rejects_a_wrong_score(good):
    """A13: deal scores are re-derived from the hands and the purchases."""
    t = copy.deepcopy(good)
    t["deals"][2]["scores"][1] += 1
    _rejects(t, "deal 2", "scores", "(A13)")


def test_referee_rejects_wrong_totals_and_winners(good):
    """A15: totals and winners are re-derived."""
    t = copy.deepcopy(good)
    t["totals"][3] += 0.5
    _rejects(t, "match, seat 3", "(A15)")
    t = copy.deepcopy(good)
    t["winners"] = [s for s in range(4) if s not in good["winners"]][:1]
    _rejects(t, "winners", "(A15)")


def test_referee_rejects_a_duplicated_card(good):
    """A1: each card exactly once across the hands."""
    t = copy.deepcopy(good)
    t["deals"][1]["hands"][2][0] = t["deals"][1]["hands"][0][0]
    _rejects(t, "deal 1, seat 2", f"card {t['deals'][1]['hands'][0][0]} is dealt twice (also to seat 0)")


def test_referee_rejects_a_two_with_three_players():
    """A1: the 3-player deck has no twos."""
    t = kernel_trace({"players": 3})
    t["deals"][0]["hands"][1][0] = "2H"
    _rejects(t, "deal 0, seat 1", "'2H' is not a card of the 48-card deck (A1)")


def test_referee_rejects_a_short_hand(good):
    """A1: 13 cards each with 4 players."""
    t = copy.deepcopy(good)
    t["deals"][0]["hands"][3].pop()
    _rejects(t, "deal 0, seat 3", "a hand holds 13 cards")


def test_referee_rejects_wrong_money(good):
    """A3, A14: money at the start of a deal is the carried money plus start_money -
    hand points; money at the end is what is left after paying."""
    t = copy.deepcopy(good)
    t["deals"][1]["money_start"][0] += 1
    _rejects(t, "deal 1", "money_start", "(A3, A14)")
    t = copy.deepcopy(good)
    t["deals"][3]["money_end"][2] -= 1
    _rejects(t, "deal 3", "money_end")


def test_referee_rejects_a_wrong_dealer_and_lot_order(good):
    """A4, A5: dealer rotation and ascending ranks."""
    t = copy.deepcopy(good)
    t["deals"][2]["dealer"] = 0
    _rejects(t, "deal 2", "expected seat 2", "(A4)")
    t = copy.deepcopy(good)
    lots = t["deals"][0]["lots"]
    lots[3], lots[4] = lots[4], lots[3]
    _rejects(t, "deal 0", "in this order (A5)")


def test_referee_rejects_a_wrong_starter(good):
    """A6: the starter is the seat after the last buyer."""
    t = copy.deepcopy(good)
    lot = t["deals"][0]["lots"][5]
    lot["starter"] = (lot["starter"] + 1) % 4
    _rejects(t, "deal 0, lot 7", "(A6)")


def test_referee_rejects_speaking_out_of_turn(good):
    """A7: seats speak in order from the starter."""
    t = copy.deepcopy(good)
    lot = t["deals"][1]["lots"][0]
    lot["calls"][1]["seat"] = (lot["calls"][1]["seat"] + 1) % 4
    _rejects(t, "deal 1, lot 2, call 1", "(A7)")


def test_referee_rejects_calls_after_the_sale_and_lots_left_open(good):
    """A10, A11: a lot closes exactly after players-1 passes following a bid, or
    players passes without one."""
    t = copy.deepcopy(good)
    d, lot, _ = _first(t, lambda c, lot: lot["buyer"] is not None)
    last = lot["calls"][-1]
    lot["calls"].append({"seat": (last["seat"] + 1) % 4, "bid": None})
    _rejects(t, f"deal {d}, lot {lot['rank']}, call {len(lot['calls']) - 1}", "already sold", "(A10)")
    t = copy.deepcopy(good)
    d, lot, _ = _first(t, lambda c, lot: lot["buyer"] is not None)
    lot["calls"].pop()
    _rejects(t, f"deal {d}, lot {lot['rank']}", "still open")
    t = copy.deepcopy(good)
    d, lot, _ = _first(t, lambda c, lot: lot["buyer"] is None)
    lot["calls"].pop()
    _rejects(t, f"deal {d}, lot {lot['rank']}", "still open", "(A11)")


def test_referee_rejects_bad_sealed_lots():
    """Sealed form: one entry per seat, the highest bid wins, a tie to the earliest seat
    from the starter."""
    t = kernel_trace({"auction_form": "sealed"}, ["all=random:p_bid=1,max_jump=0"], 1, 1)
    replay(t)
    lot = t["deals"][0]["lots"][0]
    bad = copy.deepcopy(t)
    bad["deals"][0]["lots"][0]["buyer"] = lot["calls"][1]["seat"]  # a tie: the starter wins
    _rejects(bad, "deal 0, lot 2", "the calls give buyer", "(A10-A12)")
    bad = copy.deepcopy(t)
    bad["deals"][0]["lots"][0]["calls"].pop()
    _rejects(bad, "deal 0, lot 2", "exactly one entry per seat")
    bad = copy.deepcopy(t)
    bad["deals"][0]["lots"][0]["calls"][2]["bid"] = 0
    _rejects(bad, "deal 0, lot 2, call 2", "sealed bid 0 is illegal")


def test_referee_rejects_bad_rules(good):
    """Rule keys in the trace are checked against their ranges."""
    for key, value, fragment in [("players", 5, "players=5"), ("min_bid", 0, "min_bid=0"),
                                 ("first_dealer", 4, "first_dealer=4"),
                                 ("auction_form", "dutch", "auction_form")]:
        t = copy.deepcopy(good)
        t["rules"][key] = value
        _rejects(t, "rules", fragment)
    t = copy.deepcopy(good)
    del t["rules"]["min_raise"]
    _rejects(t, "missing keys ['min_raise']")


def test_referee_accepts_the_json_round_trip(good):
    """A trace written to JSON and read back is still accepted (null bids, lists)."""
    import json
    assert replay(json.loads(json.dumps(good))).scores == good["totals"]


# -- plain-Python policies (the prototyping slow path) -----------------------------------

def py_value(o, hand, params, rng):
    """The 'value' policy written against the observation layouts of obs.py."""
    lo = reference.smallest_bid(o)
    money = o[O.MONEY + int(o[O.SEAT])]
    top = math.floor(params[0] * hand[O.HAND_POINTS + int(o[O.LOT])])
    if o[O.SEALED]:
        top = min(top, money)
        return int(top) if top >= lo else reference.PASS
    return lo if lo <= top and lo <= money else reference.PASS


def py_random(o, hand, params, rng):
    """The 'random' policy, drawing from the seat's stream through rng.uniform/below."""
    lo = reference.smallest_bid(o)
    money = int(o[O.MONEY + int(o[O.SEAT])])
    if lo > money or rng.uniform() >= params[0]:
        return reference.PASS
    hi = min(money, lo + int(params[1]))
    return lo + rng.below(hi - lo + 1)


@pytest.mark.parametrize("overrides", [{}, {"auction_form": "sealed"}, {"players": 3}])
def test_python_policies_play_like_the_kernel_policies(overrides):
    """A Python policy plugged into the reference engine sees the same observations and
    random stream as a kernel policy: ports of 'value' and 'random' replay the kernel's
    matches exactly."""
    rules, sa, pol = setup(overrides, ["0=value:multiple=2", "1=random:p_bid=0.5,max_jump=4",
                                       "2=budget"])
    py = [reference.PythonPolicy(py_value, (2.0,)), reference.PythonPolicy(py_random, (0.5, 4)),
          "budget", "budget"][:rules.players]
    for seed, index in KEYS[:3]:
        kernel = GAME.trace(rules, pol, sa.labels, seed, index)
        ref = reference.play(rules, py, seed, index)
        assert ref["strategies"][:2] == ["python:py_value", "python:py_random"]
        assert reference.play(rules, py, seed, index, labels=sa.labels) == kernel
        replay(ref)


def test_python_policy_forms():
    """A bare function, a (function, params) pair and a named PythonPolicy all work; the
    policy gets copies of the observation (changing them changes nothing)."""
    def vandal(o, hand, params, rng):
        o[O.MONEY:O.MONEY + 4] = [1e9] * 4
        hand[:] = [1e9] * O.HAND_SIZE
        return reference.PASS
    t = reference.play({"deals_per_match": 1},
                       [vandal, (py_value, (1.0,)), reference.PythonPolicy(py_random, (0.3, 3), "mine"),
                        "value"], 3, 3)
    assert t["strategies"] == ["python:vandal", "python:py_value", "python:mine", "value"]
    replay(t)


def test_reference_rejects_unknown_strategies():
    """Bad seats are StrategyErrors that name the seat and what is allowed (the same
    messages as pitch's reference engine: both come from sim/reference.py)."""
    with pytest.raises(StrategyError, match="seat 0: unknown auktsion policy 'greedy'"):
        reference.play({}, ["greedy"] * 4, 1, 1)
    with pytest.raises(StrategyError, match="3 strategies for 4 seats"):
        reference.play({}, ["value"] * 3, 1, 1)
    with pytest.raises(StrategyError, match=r"seat 1: cannot use 42 as an auktsion strategy; "
                                            r"allowed: a strategy text such as 'budget', a Strategy"):
        reference.play({}, ["value", 42, "value", "value"], 1, 1)
    with pytest.raises(StrategyError, match=r"seat 2: Python policy 'python:py_value' answers the "
                                            r"decision 'play', which auktsion does not have; its "
                                            r"decisions: bid"):
        reference.play({}, ["value", "value", reference.PythonPolicy(py_value, decision="play"),
                            "value"], 1, 1)
    with pytest.raises(StrategyError, match=r"seat 0: .* names two strategies \('value', 'budget'\) "
                                            r"for one seat; a tuple is one seat's parts"):
        reference.play({}, ("value", "budget", "random", "passive"), 1, 1)
    with pytest.raises(StrategyError, match=r"params 'bid' is text.*decision='bid'"):
        reference.PythonPolicy(py_value, "bid")


def test_seat_forms():
    """One spec for every seat, a list per seat, a SeatAssignment, or a tuple of one
    strategy and a Python policy that replaces its decision; a Python policy's label
    always says python:."""
    seats = reference.seats_from((py_value, (2.0,)), 3)
    assert [s.label for s in seats] == ["python:py_value"] * 3
    assert seats[0]["bid"].params == (2.0,) and seats[0]["bid"].python
    mixed = reference.seats_from([("budget:aggression=2", reference.PythonPolicy(py_value))]
                                 + ["value:multiple=1.5"] * 3, 4)
    assert [s.label for s in mixed] == ["python:py_value"] + ["value:multiple=1.5"] * 3
    assert mixed[1]["bid"].params == (1.5,) and not mixed[1]["bid"].python
    sa = strategies.assign_seats(STRATEGIES, 4, ["0=random"])
    assert [s.label for s in reference.seats_from(sa, 4)] == list(sa.labels)
    assert reference.PythonPolicy(py_value, name="python:mine").label == "python:mine"


def greedy(o, hand, params, rng):
    """Bids one coin more than it has."""
    return int(o[O.MONEY + int(o[O.SEAT])]) + 1


@pytest.mark.parametrize("form", ["open", "sealed"])
def test_illegal_bid_from_a_python_policy_is_reported(form):
    """A8: a bid above the bidder's money is an IllegalActionError naming the match,
    deal, lot, seat, policy and the legal range."""
    t = reference.play({"auction_form": form}, ["passive"] * 4, 3, 7)
    money = t["deals"][0]["money_start"][2]
    with pytest.raises(IllegalActionError) as e:
        reference.play({"auction_form": form}, ["passive", "passive", greedy, "passive"], 3, 7)
    msg = str(e.value)
    assert "match 7, deal 0, lot 2, seat 2: policy 'python:greedy'" in msg
    assert f"bid {money + 1}, which is illegal; legal: a bid of 1..{money} or a pass" in msg


def test_policy_bid_below_the_smallest_legal_bid_is_reported():
    """A8: a raise below price + min_raise is illegal (here a repeat of the price)."""
    def copycat(o, hand, params, rng):
        return int(o[O.PRICE]) if o[O.HIGH_BIDDER] >= 0 else 1
    with pytest.raises(IllegalActionError, match=r"lot 2, seat 2: policy 'python:copycat' bid 1, "
                                                 r"which is illegal; legal: a bid of 4\.\.\d+"):
        reference.play({"min_raise": 3}, ["passive", copycat, copycat, "passive"], 1, 0)


@pytest.mark.parametrize("answer", [2.5, None, "3", True])
def test_policy_answer_that_is_not_a_whole_number_is_reported(answer):
    """A7: a call is a whole number of coins or a pass."""
    with pytest.raises(IllegalActionError, match=r"seat 1: policy 'python:<lambda>' returned .*"
                                                 r"not a whole number of coins; legal: a bid of 1\.\."):
        reference.play({}, ["passive", lambda o, h, p, r: answer, "passive", "passive"], 1, 0)


@pytest.mark.parametrize("overrides", [{}, {"players": 3}, {"min_raise": 2, "leftover_value": 0.5}])
def test_budget_asked_at_every_call_plays_like_its_ceiling(overrides):
    """The kernel settles a lot between ceiling policies from one ceiling per seat (A7-A11
    without asking at each turn). The same 'budget', asked at every call through the
    plain-Python path, makes the same calls: nothing its ceiling depends on changes
    before the lot is sold."""
    rules, sa, pol = setup(overrides, ["all=budget:aggression=2,future_weight=0.7"])
    params = tuple(float(x) for x in sa.params("bid")[0])
    every_call = [reference.PythonPolicy(reference._budget, params)] * rules.players
    for seed, index in KEYS[:4]:
        kernel = GAME.trace(rules, pol, sa.labels, seed, index)
        assert reference.play(rules, every_call, seed, index, labels=sa.labels) == kernel
