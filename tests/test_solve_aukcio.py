"""``bidlab solve aukcio`` and aukcio's ``solved`` policy: the information set of
hand-built situations (K6, K9, K13), ``solved`` playing only legal calls in both
bidding forms (K6, K7) with no recompile for a new table, the solver the same on one
and two threads and across a resume, and its held-out exploitability falling from the
uniform strategy's."""

from __future__ import annotations

import numpy as np
import pytest

import analysis.solve as S
import bidlab
from analysis.solvers import aukcio as V
from analysis.solvers import mccfr as M
from sim import cfr
from sim.games import get_game
from sim.games.aukcio import abstraction as A
from sim.games.aukcio import kernel as K
from sim.games.aukcio import obs as O
from sim.games.aukcio.core import kind_bits
from sim.games.aukcio.rules import pack
from strategies import aukcio as SA
from strategies import solved


@pytest.fixture
def small(monkeypatch):
    """Small batches and held-out sets, so that a solve takes seconds."""
    monkeypatch.setattr(M, "BATCH", 256)
    monkeypatch.setattr(V, "HELD_OUT", 2000)
    monkeypatch.setattr(V, "SCORED", 4000)


def _view(players=3, seat=0, sitting_out=-1, most=20, held=5, cards=(5, 5, 5), left=10,
          decks=1, bottom=0):
    o = np.zeros(O.SIZE)
    o[O.PLAYERS], o[O.SEAT], o[O.SITTING_OUT], o[O.DECKS] = players, seat, sitting_out, decks
    o[O.AUCTION_LEFT], o[O.BOTTOM] = left, bottom
    for s, c in enumerate(cards):
        o[O.MONEY_CARDS + s] = c
    hand = np.zeros(O.HAND_LEN)
    hand[O.HAND_MOST], hand[O.HAND_HELD] = most, held
    return o, hand


def _gains(card, owned, in_deck):
    """``lot_gains`` of the card of kind ``card`` for seats owning ``owned`` (kinds)."""
    gains = np.zeros((O.MAX_PLAYERS, SA.GAIN_COLS), np.int64)
    SA.lot_gains(card, len(owned), kind_bits(in_deck),
                 np.array([kind_bits(k) for k in owned], np.int64), gains)
    return gains


def test_gain_columns_agree_with_the_policies():
    assert (A.GAIN_DONE, A.GAIN_TWO, A.GAIN_ONE) == (SA.GAIN_DONE, SA.GAIN_TWO, SA.GAIN_ONE)


def test_infoset_of_hand_built_situations():
    everything = range(16)
    # K13: seat 0 owns JC, JD (kinds 0, 4): the JH (kind 8) completes three jacks
    gains = _gains(8, [[0, 4], [], [1]], everything)
    o, hand = _view(most=20, held=5, cards=(5, 8, 2), left=10)
    row = A.observed_infoset(o, hand, gains)
    # own: completes; threat: none (seat 2's QC is no set with JH); money 20 -> bucket 3
    # (18..24); richest rival 8 cards against 5: +3 -> 2; 10 of 16 left -> bucket 1
    assert row == A.infoset(A.OWN_DONE, A.THREAT_NONE, 3, 2, 1)
    # seat 1 owns QH, KH (kinds 9, 10): JH completes his run J-Q-K (K13), a threat ...
    gains = _gains(8, [[], [9, 10], []], everything)
    o, hand = _view(most=5, held=4, cards=(4, 3, 4), left=12)
    assert A.observed_infoset(o, hand, gains) == A.infoset(A.OWN_START, A.THREAT_DONE, 0,
                                                           1, 0)
    # ... unless he sits out this lot (K9): he cannot buy it now
    o, hand = _view(most=5, held=4, cards=(4, 3, 4), left=12, sitting_out=1)
    assert A.observed_infoset(o, hand, gains) == A.infoset(A.OWN_START, A.THREAT_NONE, 0,
                                                           1, 0)
    # ... but with unsold=bottom he may meet it again, as setvalue reads it
    o, hand = _view(most=5, held=4, cards=(4, 3, 4), left=12, sitting_out=1, bottom=1)
    assert A.observed_infoset(o, hand, gains) == A.infoset(A.OWN_START, A.THREAT_DONE, 0,
                                                           1, 0)
    # nothing left in the deck that could join the card: it helps nothing; 45+ money
    gains = _gains(8, [[], [], []], [8])
    o, hand = _view(most=50, held=9, cards=(9, 3, 4), left=2)
    assert A.observed_infoset(o, hand, gains) == A.infoset(A.OWN_NONE, A.THREAT_NONE, 6,
                                                           0, 2)


def test_action_ceilings():
    assert A.action_ceiling(0, 30) == 0
    assert A.action_ceiling(1, 4) == 1            # a bid at least: share 0.05 of 4 rounds to 0
    assert A.action_ceiling(A.ACTIONS - 1, 30) == 30
    assert A.action_ceiling(4, 30) == 9


def _with_solution(tmp_path, monkeypatch, rules, probabilities):
    r = get_game("aukcio").make_rules(rules)
    ab = solved.abstraction_of("aukcio", r.to_json())
    path = tmp_path / f"aukcio-{solved.key('aukcio', r.to_json(), ab)}.sol"
    solved.Solution("aukcio", r.to_json(), ab.to_json(),
                    cfr.pack_table(probabilities, A.VERSION), {}).save(path)
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path))


@pytest.mark.parametrize("rules", [{}, {"bidding": "single"}, {"players": 4, "unsold": "bottom"}])
def test_solved_plays_only_legal_calls_and_a_new_table_does_not_recompile(
        rules, tmp_path, monkeypatch):
    """K6, K7: the kernel checks every call; a random table plays every action."""
    rng = np.random.default_rng(1)
    p = rng.random((A.INFOSETS, A.ACTIONS))
    _with_solution(tmp_path, monkeypatch, rules, p / p.sum(axis=1, keepdims=True))
    run = bidlab.simulate("aukcio", 3000, seed=2, rules=rules,
                          strategies={"0": "solved", "1": "setvalue"})
    assert run.seats["face_cards"].sum() > 0
    before = len(K.play_chunk.signatures)
    _with_solution(tmp_path, monkeypatch, rules, np.full((A.INFOSETS, A.ACTIONS), 1 / A.ACTIONS))
    again = bidlab.simulate("aukcio", 3000, seed=2, rules=rules, strategies={"all": "solved"})
    assert len(again.seats) == 3000 * get_game("aukcio").make_rules(rules).players
    assert len(K.play_chunk.signatures) == before


def test_solved_without_a_solution_names_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path))
    with pytest.raises(Exception, match="bidlab solve aukcio --rule hand_size=7"):
        bidlab.simulate("aukcio", 10, rules={"hand_size": 7}, strategies={"all": "solved"})


def test_a_setting_is_refused_by_name():
    from sim.errors import BidlabError
    with pytest.raises(BidlabError, match="no setting 'foo'"):
        S.solve("aukcio", iterations=1, settings={"foo": 1}, progress=False)


def test_solver_is_the_same_on_one_and_two_threads_and_across_a_resume(small, tmp_path):
    one = S.solve("aukcio", iterations=6, threads=1, out=tmp_path / "a.sol", progress=False)
    two = S.solve("aukcio", iterations=6, threads=2, out=tmp_path / "b.sol", progress=False)
    assert one.path.read_bytes() == two.path.read_bytes()
    rules = get_game("aukcio").make_rules({})
    whole = V.make_solver(rules, 0)
    whole.run(5)
    first = V.make_solver(rules, 0)
    first.run(2)
    state = {k: np.array(v) for k, v in first.state().items()}
    resumed = V.make_solver(rules, 0)
    resumed.restore(state)
    resumed.run(3)
    assert np.array_equal(whole.regret, resumed.regret)
    assert np.array_equal(whole.average, resumed.average)


def test_exploitability_falls_from_the_uniform_strategy(small):
    rules = get_game("aukcio").make_rules({})
    solver = V.make_solver(rules, 0)
    uniform = solver.exploitability(solver.probabilities())
    solver.run(40)
    trained = solver.exploitability(cfr.purified(solver.probabilities()))
    assert trained["value"] < uniform["value"]
    assert uniform["ci_low"] > 0


def test_decision_points_follow_the_rules():
    """The solver's playouts are the kernel's lots: no illegal call, every seat that may
    bid (not the one sitting out, K9) gets a row."""
    rules = get_game("aukcio").make_rules({})
    solver = V.make_solver(rules, 0)
    tables = V._tables(solver.probabilities(), 3, 0.05)
    sc, snap, mine, gains, q, rows = V.scratch(3, tables)
    seen = 0
    for k in range(200):
        V.decision_point(pack(rules), solver.pids, solver.params, mine, sc, snap, gains,
                         np.uint64(0), k, V.TRAIN_STREAM, 0.05, q, rows)
        assert sc[15][0, 0] == 0
        if rows.max() >= 0:
            seen += 1
            assert (rows >= 0).sum() >= 2
            assert np.isin(q[rows >= 0], [1.0, 0.0, -0.5]).all()
    assert seen > 50


def test_bid_ev_and_trace_against_the_shipped_solution(monkeypatch, tmp_path):
    """The shipped solution plays in bid-EV rollouts (resumed mid-lot, K6, K7) and in a
    trace the referee replays call by call."""
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path))        # the shipped ones only
    state = {"hand": "TH 7C 7D 3S JK", "card": "QH", "owned": "JH KH;QS QD;"}
    res = bidlab.bid_ev("aukcio", state, rollouts=1000, candidates=["pass", "20", "37"],
                        seed=3, strategies=["all=solved"])
    win = res.frame.set_index("action")["mean"]
    # K14: the queen of hearts wins at once, for seat 0 and for seat 1 (three queens):
    # against solved rivals, who block and bid all for a winning card, only all it can
    # pay (37) buys it nearly always
    assert win["bid 37"] > 0.8 > 0.6 > win["bid 20"] > win["pass"]
    from analysis.runs import trace
    for rules in ({}, {"players": 4}):
        t = trace("aukcio", seed=1, index=7, rules=rules, strategies=["all=solved"], check=True)
        assert t["lots"]


def test_report_shows_what_a_card_is_worth_to_the_solution(tmp_path, monkeypatch):
    """The report's "Solved bidding" section for aukcio (4 players, the report's rules):
    the exploitability curve, the chart of ceilings by what the card does to the sets,
    the tournament against setvalue and a bid-EV situation against solved."""
    from analysis import solved as AS
    from reports.report import build_report
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path / "none"))
    solution, _ = AS.load("aukcio", {"players": 4})
    chart = AS.chart(solution)
    assert len(chart) == A.OWN * A.THREAT
    assert chart["mean_share"].between(0, 1).all() and chart["p_pass"].between(0, 1).all()
    done = chart[chart["own"] == "completes a set"]["mean_share"].mean()
    nothing = chart[(chart["own"] == "helps nothing") & (chart["rivals"] == "nobody")]
    assert done > nothing["mean_share"].iloc[0]        # K14: a winning card is worth more
    build_report(["aukcio"], n=2048, seed=1, out=tmp_path / "r", sections=["solved"],
                 progress=False, strict=True)
    text = (tmp_path / "r" / "report.md").read_text()
    assert "Solved bidding" in text and "a best response gains" in text
    assert "What a face card is worth to the solution" in text
