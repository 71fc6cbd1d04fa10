"""``bidlab solve vybory`` and vybory's ``solved`` policy: the abstraction's information
set from an observation, a short solve whose held-out exploitability falls from the
uniform strategy's, the same file on one and two threads, and ``solved`` playing the
shipped solution (the conformance tests trace and replay it)."""

from __future__ import annotations

import numpy as np
import pytest

import analysis.solve as S
import bidlab
from analysis.solvers import mccfr as M
from analysis.solvers import vybory as V
from sim.games.vybory import abstraction as A
from sim.games.vybory import obs as O
from sim.games.vybory.rules import PLAYERS, make
from strategies import vybory as SV


@pytest.fixture
def small(monkeypatch):
    """Small batches and held-out sets, so that a solve takes seconds."""
    monkeypatch.setattr(M, "BATCH", 256)
    monkeypatch.setattr(V, "HELD_OUT", 4000)


def test_key_from_an_observation_names_the_types_of_its_actions():
    hand = (1 << 13) - 1                                   # every club
    o = np.zeros(O.SIZE, np.int64)
    o[O.HAND], o[O.SEAT], o[O.DEALER], o[O.N_CALLS] = hand, 2, 0, 1
    o[O.CALLS] = 3
    o[O.NAMED + 1] = 1 << 3                                # seat 1 named club_tricks
    w = np.zeros(A.N_TYPES + 1)
    A.worths(hand, 0, w)
    row, types = A.key(A.NO_WORTHS, hand, 0, o[O.NAMED:O.NAMED + PLAYERS], 2, 1)
    assert (row, types) == A.key(w, 0, 0, o[O.NAMED:O.NAMED + PLAYERS], 2, 1)
    ranked = [t for t in sorted(range(1, 9), key=lambda t: (-w[t], t)) if t != 3]
    assert list(types[:A.TOP]) == ranked[:A.TOP]
    assert types[A.TOP + 2] == 3 and types[A.TOP] == types[A.TOP + 1] == 0  # seat 1: 3 after 2
    assert row // (A.INFOSETS // A.CALLS) == 1
    legal = [A.legal(a, 1) for a in range(A.ACTIONS)]
    assert legal == [t != 0 for t in types]


def test_short_solve_exploitability_falls_from_uniform(small, tmp_path):
    solver = V.make_solver(make({}), 0)
    uniform = solver.exploitability(solver.probabilities())
    result = S.solve("vybory", iterations=60, out=tmp_path / "v.sol", progress=False)
    last = result.curve[-1]
    assert [c["iteration"] for c in result.curve] == [60]
    assert last["ci_low"] <= last["value"] <= last["ci_high"]
    assert uniform["value"] > 1.0                 # naming at random is far from optimal
    assert last["value"] < uniform["value"] / 4
    assert last["in_sample"] < uniform["in_sample"] / 4


def test_solution_file_is_the_same_on_one_and_two_threads(small, tmp_path):
    one = S.solve("vybory", iterations=20, threads=1, out=tmp_path / "a.sol",
                  progress=False).path.read_bytes()
    two = S.solve("vybory", iterations=20, threads=2, out=tmp_path / "b.sol",
                  progress=False).path.read_bytes()
    assert one == two


def test_solved_plays_the_shipped_solution_legally(monkeypatch, tmp_path):
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path))      # only the shipped ones
    run = bidlab.simulate("vybory", 400, seed=2, strategies={"all": "solved+greedy"})
    seats = run.seats
    named = sum(seats[f"named_{t}"] for t in range(1, 9))
    assert (named > 0).all() and (run.seats["attacks"] >= 0).all()
    assert any(p.name == "solved" and p.decision == "elect" for p in SV.POLICIES)


def test_solver_settings_name_the_training_mix_and_the_payoff(small, tmp_path):
    """``models`` names the fixed policies of a training deal with their parameters (only
    expected and matcher can be seated), ``pairs`` seats them as across pairs, ``team``
    adds the across seat's margin; the settings and the method are in the file, and the
    defaults are the shipped solution's."""
    from sim.errors import BidlabError
    pids, params, specs = V.parse_models("expected;matcher:match=52,trust=2")
    assert list(pids) == [0, V.MODEL_EXPECTED, V.MODEL_MATCHER]
    assert params[2, 5] == 52 and params[2, 6] == 2 and params[1, 5] == 0
    assert specs == ["expected", "matcher:match=52,trust=2"]
    with pytest.raises(BidlabError, match="not expected or matcher"):
        V.parse_models("random")
    assert V.make_solver(make({}), 0).settings == {"top": 3, "model": 0.5,
                                                   "models": "expected;matcher",
                                                   "pairs": 0, "team": 0.0}
    result = S.solve("vybory", iterations=3, out=tmp_path / "t.sol", progress=False,
                     settings={"team": "1", "pairs": 1, "models": "matcher:match=52"})
    meta = result.solution.meta
    assert meta["settings"]["team"] == "1" and meta["settings"]["pairs"] == 1
    assert "plus 1 times its across seat's" in meta["method"]
    assert "an across pair plays matcher:match=52" in meta["method"]
