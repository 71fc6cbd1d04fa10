"""pitch's solver and its abstraction (version 2): the match score in the information
set, the payoffs of a deal's outcomes by the rules (P5, P14-P17) and the outlook of the
match score, worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

import analysis.solve as S
import bidlab
from analysis.solvers import pitch as SP
from sim import cfr
from sim.games.pitch import abstraction as A
from sim.games.pitch import obs as O
from sim.games.pitch.rules import R_SMUDGE, pack
from strategies import solved

RULES = bidlab.api.make_rules("pitch", {"players": 3})          # target 7
OUTLOOK = np.full((7, 7), 0.25)
"""The outlook of every open score: a chance of 0.25, or a margin still to gain of 0.25."""


def pays(scores, points, owners, win, smudge=False):
    R = pack(RULES)
    R[R_SMUDGE] = int(smudge)
    pay = np.zeros((4, 5, 3))
    SP._payoffs(R, np.array(scores, np.int64), np.array(points, np.int64),
                np.array(owners, np.int64), OUTLOOK, win, pay, np.zeros(3, np.int64))
    return pay


# points[pitcher, seat] and owners[pitcher] (high, low, jack, joker, game) of one deal in
# which seat 0 wins high and low, seat 1 the jack and game, whoever pitches
POINTS = [[2, 2, 0]] * 3
OWNERS = [[0, 0, 1, -1, 1]] * 3


def test_a_deal_that_ends_the_game_pays_the_winner_by_p17():
    """P14, P17: at 5, 5, 0, seat 0 pitching 2 makes it and reaches 7 first (it wins
    whoever else reached 7); pitching 3 it is set back to 2 and seat 1 wins alone;
    seat 1 pitching wins; seat 2 pitching 1 leaves both at 7, and the count of the
    deal's points in order (high, low to seat 0) gives seat 0 the game first."""
    pay = pays([5, 5, 0], POINTS, OWNERS, win=True)
    assert list(pay[0, 2]) == [1, 0, 0]
    assert list(pay[0, 3]) == [0, 1, 0]
    assert list(pay[1, 1]) == [0, 1, 0]
    assert list(pay[2, 1]) == [1, 0, 0]
    margin = pays([5, 5, 0], POINTS, OWNERS, win=False)
    assert margin[0, 3, 0] == pytest.approx(2 - (7 + 0) / 2)   # the final margins
    assert margin[0, 3, 2] == pytest.approx(0 - (2 + 7) / 2)


def test_a_deal_that_leaves_the_game_open_pays_the_outlook_and_a_redeal_keeps_the_score():
    """P5: a redeal moves no score; a deal after which no one is at the target pays the
    outlook of the new score (plus the margin so far, when the margin is maximized)."""
    pay = pays([0, 0, 0], POINTS, OWNERS, win=True)
    assert np.all(pay[:3, 1:] == 0.25) and np.all(pay[3, 0] == 0.25)
    margin = pays([0, 3, 0], POINTS, OWNERS, win=False)
    assert margin[3, 0, 1] == pytest.approx(3 - 0 + 0.25)                 # redeal
    assert margin[2, 1, 2] == pytest.approx(-1 - (2 + 5) / 2 + 0.25)       # seat 2 set back


def test_smudge_wins_the_game_at_once():
    """P15 (smudge): a pitcher who bids 4 and makes it wins at once, short of the target."""
    four = [[4, 0, 0], [0, 4, 0], [0, 0, 4]]
    owners = [[0, 0, 0, -1, 0], [1, 1, 1, -1, 1], [2, 2, 2, -1, 2]]
    assert list(pays([0, 0, 0], four, owners, True, smudge=True)[1, 4]) == [0, 1, 0]
    assert list(pays([0, 0, 0], four, owners, True)[1, 4]) == [0.25] * 3


def observation(scores, seat=0):
    o = np.zeros(O.SIZE, np.int64)
    o[O.PLAYERS], o[O.TARGET], o[O.SEAT], o[O.DEALER] = 3, 7, seat, 2
    o[O.DECK] = (1 << 52) - 1
    o[O.HAND] = 0b111111 << 7                  # 9-A of clubs
    o[O.SCORES:O.SCORES + 3] = scores
    return o


def test_the_information_set_keeps_the_distance_to_the_target_of_bidder_and_nearest_rival():
    """P16: the bidder's and the nearest rival's distance to the target, cut at the
    buckets; a score-blind abstraction (1 bucket) cannot tell them apart."""
    far, rival_near, me_near = observation([0, 0, 0]), observation([0, 6, 2]), observation([6, 0, 2])
    rows = {tuple(o[O.SCORES:O.SCORES + 3]): A.observed_infoset(o, 12, 5)
            for o in (far, rival_near, me_near)}
    assert len(set(rows.values())) == 3
    assert A.score_class(np.array([0, 6, 2]), 0, 3, 7, 5) == 4 * 5 + 0
    assert A.score_class(np.array([6, 0, 2]), 0, 3, 7, 5) == 0 * 5 + 4
    assert A.score_class(np.array([-3, 4, 5]), 0, 3, 7, 5) == 4 * 5 + 1
    assert len({A.observed_infoset(o, 12, 1) for o in (far, rival_near, me_near)}) == 1


def test_the_outlook_is_read_from_self_play_and_is_zero_sum_at_two_players():
    """The outlook tables: chances in [0, 1], higher nearer the target and lower with
    the rival nearer; at two players a seat's chance is the other's complement (and
    margins cancel); the score states are real ones (no one at the target)."""
    two = bidlab.api.make_rules("pitch", {"players": 2})
    win, states = SP.score_model(two, 0, True, games=2000)
    assert np.allclose(win + win.T, 1) and ((win >= 0) & (win <= 1)).all()
    assert win[0, 6] > 0.8 > 0.2 > win[6, 0]
    margin, _ = SP.score_model(two, 0, False, games=2000)
    assert np.allclose(margin + margin.T, 0)
    assert (states[:, :2] < 7).all() and set(states[:, 2]) == {0, 1}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path / "solutions"))
    return tmp_path / "solutions"


def test_a_win_solution_is_another_file_played_by_solved_win_1(folder):
    """``--setting win=1`` solves for the chance of winning: its own file, its unit,
    played by ``solved:win=1`` next to the margin solution."""
    result = S.solve("pitch", {"players": 2}, iterations=3, settings={"win": 1}, progress=False)
    assert result.solution.abstraction["settings"]["win"] == 1
    assert result.curve[-1]["unit"].startswith("chance of winning")
    assert result.solution.table[cfr.T_SETTING + 1] == A.SCORE_BUCKETS
    t = bidlab.tournament("pitch", ["solved:win=1+greedy", "strength+greedy"], 512,
                          rules={"players": 2}, progress=False)
    assert len(t.frame) == 2


def test_a_layout_1_file_is_read_with_its_header_widened(tmp_path):
    """Solution files of layout 1 (one setting in the table's header) still load."""
    import hashlib
    import json
    import zlib
    p = np.array([[0.25, 0.75], [1.0, 0.0]])
    new = cfr.pack_table(p, 3, (7,))
    old = np.delete(new, range(cfr.T_SETTING + 1, cfr.T_HEADER))
    header = {"game": "fpsb", "rules": {}, "abstraction": {}, "table_length": old.size,
              "table_sha256": hashlib.sha256(old.tobytes()).hexdigest()}
    path = tmp_path / "old.sol"
    path.write_bytes(solved.OLD_MAGIC + json.dumps(header).encode() + b"\n"
                     + zlib.compress(old.tobytes()))
    assert np.array_equal(solved.load(path).table, new)


def test_the_same_file_on_one_and_two_threads_and_after_an_interrupt(tmp_path, monkeypatch):
    """A pitch solve (its self-play outlook included) is a pure function of its settings:
    the same file bit for bit on one thread and two, and after an interrupt and a rerun
    of the same command, which resumes from the checkpoint."""
    monkeypatch.setattr(SP, "VALUE_GAMES", 500)
    monkeypatch.setattr(SP, "HELD_OUT", 2000)

    def solve(name, **kw):
        return S.solve("pitch", {"players": 3}, iterations=4, out=tmp_path / name,
                       progress=False, **kw)

    one = solve("a.sol", threads=1).path.read_bytes()
    assert solve("b.sol", threads=2).path.read_bytes() == one
    monkeypatch.setattr(S, "CHECKPOINT_SECONDS", 0.0)
    run = SP.PitchSolver.run

    def interrupted(self, iterations, *args, **kw):
        if self.iteration >= 2:
            raise KeyboardInterrupt
        run(self, 1, *args, **kw)

    monkeypatch.setattr(SP.PitchSolver, "run", interrupted)
    with pytest.raises(KeyboardInterrupt):
        solve("c.sol")
    assert (tmp_path / "c.sol.checkpoint.npz").exists()
    monkeypatch.setattr(SP.PitchSolver, "run", run)
    resumed = solve("c.sol")
    assert resumed.resumed_from == 2 and resumed.path.read_bytes() == one
