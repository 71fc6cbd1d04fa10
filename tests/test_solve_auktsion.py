"""``bidlab solve auktsion`` and auktsion's ``solved`` policy: the information set and the
ceiling of a hand-built situation (A2, A3, A8, A14), only the pass where the lot is
worth nothing, a solve that is a pure function of its settings (one thread or two, an
interrupt and a resume), an exploitability that falls from the uniform strategy's, and
``solved`` playing tables as data (legal calls, no recompile), open and sealed."""

from __future__ import annotations

import numpy as np
import pytest

import analysis.solve as S
import bidlab
from analysis.solvers import auktsion as SA
from analysis.solvers import mccfr as M
from sim import cfr
from sim.errors import BidlabError
from sim.games.auktsion import abstraction as A
from sim.games.auktsion import kernel as K
from sim.games.auktsion import obs as O
from strategies import solved

SMALL = {"deals_per_match": 2}
"""Short matches: a test solve takes seconds."""


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setattr(M, "BATCH", 256)
    monkeypatch.setattr(SA, "HELD_OUT", 1024)
    monkeypatch.setattr(SA, "HELD_OUT_MATCHES", 2000)


def _situation():
    """Default rules (4 players, 4 deals, 70 coins, points 4,3,2,1), deal 0, the twos on
    offer; seat 0 holds the two of hearts and of spades (4 + 2 = 6 points, A2) and 30
    points in all; money 40, 30, 50, 20."""
    o = np.zeros(O.SIZE)
    o[O.PLAYERS], o[O.DEALS], o[O.DEAL], o[O.LOT], o[O.FIRST_RANK] = 4, 4, 0, 0, 0
    o[O.START_MONEY], o[O.CARRY_MONEY], o[O.MIN_RAISE], o[O.MIN_BID] = 70, 1, 1, 1
    o[O.DECK_POINTS], o[O.MEAN_HAND] = 130, 32.5
    o[O.MONEY:O.MONEY + 4] = 40, 30, 50, 20
    hand = np.zeros(O.HAND_SIZE)
    hand[O.HAND_POINTS + 0] = 6
    hand[O.HAND_POINTS + 5] = 24
    hand[O.HAND_REST:O.HAND_REST + 6] = 30
    hand[O.HAND_REST + 1:O.HAND_REST + 6] = 24
    return o, hand


def test_the_information_set_and_ceiling_of_a_hand_built_situation():
    """By hand: the lot is worth 6 of a rank's most 10 points (step 6); the price of a
    point is (40 + 3 x (70 - 32.5)) / (30 + 3 x 32.5) = 152.5 / 127.5 = 1.196 coins
    (A3, A14: three deals to come), log2(1.196 / (37.5 / 32.5)) = 0.05: the middle
    bucket (1); the richest rival has 50 / 40 = 1.25 x its money: bucket 3; 13 lots
    left: bucket 3; 3 deals left: bucket 3. Action 4 (2.5 x) bids up to
    floor(2.5 x 6 x 1.196) = 17 coins; 10 x would be 71, cut to its money, 40 (A8)."""
    o, hand = _situation()
    assert A.observed_infoset(o, hand) == (((6 * 3 + 1) * 5 + 3) * 4 + 3) * 4 + 3
    assert A.action_ceiling(o, hand, 0) == 0
    assert A.action_ceiling(o, hand, 4) == 17
    assert A.action_ceiling(o, hand, A.ACTIONS - 1) == 40
    o[O.CARRY_MONEY] = 0      # A14 off: only this deal's money and points count
    row = A.observed_infoset(o, hand)
    assert row % A.DEALS == 0                 # the later deals do not matter
    assert A.action_ceiling(o, hand, 4) == int(np.floor(2.5 * 6 * (40 / 30)))


def test_a_lot_worth_nothing_allows_only_the_pass():
    o, hand = _situation()
    hand[O.HAND_POINTS + 0] = 0
    row = A.observed_infoset(o, hand)
    legal = A.legal_mask()
    assert row // (A.INFOSETS // A.VALUES) == 0
    assert list(legal[row]) == [1] + [0] * (A.ACTIONS - 1)
    assert legal.sum() == A.INFOSETS // A.VALUES + (A.INFOSETS - A.INFOSETS // A.VALUES) * A.ACTIONS


def test_short_solve_exploitability_falls_from_uniform(small, tmp_path):
    rules = bidlab_rules(SMALL)
    uniform = SA.make_solver(rules, 0)
    before = uniform.exploitability(cfr.purified(uniform.probabilities()))
    result = S.solve("auktsion", SMALL, iterations=12, out=tmp_path / "a.sol", progress=False)
    last = result.curve[-1]
    assert last["ci_low"] <= last["value"] <= last["ci_high"]
    assert before["ci_low"] > 0               # bidding at random is exploitable
    assert last["value"] < before["value"]


def bidlab_rules(overrides):
    from sim.games.auktsion.rules import make
    return make(overrides)


def test_the_same_file_on_one_and_two_threads_and_after_an_interrupt(small, tmp_path,
                                                                      monkeypatch):
    def solve(name, **kw):
        return S.solve("auktsion", SMALL, iterations=4, out=tmp_path / name, progress=False,
                       **kw)

    one = solve("a.sol", threads=1).path.read_bytes()
    assert solve("b.sol", threads=2).path.read_bytes() == one
    monkeypatch.setattr(S, "CHECKPOINT_SECONDS", 0.0)
    run = SA.AuktsionSolver.run

    def interrupted(self, iterations, *args, **kw):
        if self.iteration >= 2:
            raise KeyboardInterrupt
        run(self, 1, *args, **kw)

    monkeypatch.setattr(SA.AuktsionSolver, "run", interrupted)
    with pytest.raises(KeyboardInterrupt):
        solve("c.sol")
    assert (tmp_path / "c.sol.checkpoint.npz").exists()
    monkeypatch.setattr(SA.AuktsionSolver, "run", run)
    resumed = solve("c.sol")
    assert resumed.resumed_from == 2 and resumed.path.read_bytes() == one


@pytest.mark.parametrize("form", ["open", "sealed"])
def test_solved_plays_tables_as_data_and_only_legal_calls(form, tmp_path, monkeypatch):
    """A8: the kernel refuses an illegal call, so matches that finish are legal; two
    different tables (the uniform one, then one that always bids 10 x) compile the
    kernel once, and they play differently."""
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path))
    rules = {**SMALL, "auction_form": form}
    abstraction = solved.abstraction_of("auktsion", bidlab_rules(rules))
    legal = A.legal_mask()

    def save(probabilities):
        table = cfr.pack_table(probabilities, A.VERSION)
        full = bidlab_rules(rules).to_json()
        solved.Solution("auktsion", full, abstraction.to_json(), table).save(
            solved.default_path("auktsion", full, abstraction))

    save(legal / legal.sum(axis=1, keepdims=True))
    first = bidlab.simulate("auktsion", 2000, seed=1, rules=rules,
                            strategies={"all": "solved"}).seats["score"].to_numpy()
    before = len(K.play_chunk.signatures)
    top = np.zeros(legal.shape)
    top[:, 0] = 1.0
    top[legal[:, -1] > 0] = 0.0
    top[legal[:, -1] > 0, -1] = 1.0
    save(top)
    run = bidlab.simulate("auktsion", 2000, seed=1, rules=rules, strategies={"all": "solved"})
    assert len(K.play_chunk.signatures) == before
    assert not np.array_equal(run.seats["score"].to_numpy(), first)


def test_solver_refuses_settings_and_solved_names_the_command(tmp_path, monkeypatch):
    with pytest.raises(BidlabError, match="takes none"):
        SA.make_solver(bidlab_rules({}), 0, steps=3)
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path))
    with pytest.raises(BidlabError, match="bidlab solve auktsion --rule start_money=71"):
        bidlab.simulate("auktsion", 10, rules={"start_money": 71},
                        strategies={"all": "solved"})


def test_bid_ev_against_solved_opponents_is_reproducible(threads, monkeypatch):
    """Bid-EV's rollouts resume the match mid-lot with the shipped default solution in
    every other seat (its table reaches the rollouts): the same result on one thread and
    two."""
    from analysis.bidev import bid_ev
    monkeypatch.delenv("BIDLAB_SOLUTIONS", raising=False)
    situation = {"hand": "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H", "money": "36,38,37,39",
                 "lot": "7", "price": "3", "high_bidder": "3"}
    threads(1)
    a = bid_ev("auktsion", situation, rollouts=300, seed=3, strategies=["all=solved"])
    threads(2)
    b = bid_ev("auktsion", situation, rollouts=300, seed=3, strategies=["all=solved"])
    assert a.frame.equals(b.frame)
    assert a.frame["mean"].nunique() > 1        # the candidates' outcomes differ
