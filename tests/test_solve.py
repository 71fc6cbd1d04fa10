"""``bidlab solve`` and the ``solved`` policy: fpsb's known answer (F1-F3: the symmetric
equilibrium bids (n - 1) / n of the value), files that are a pure function of the
settings, and clear errors for what cannot be played."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import analysis.solve as S
import bidlab
from analysis.solvers.fpsb import FpsbSolver
from bidlab.cli import main
from sim import cfr
from sim.errors import BidlabError
from sim.games.fpsb import kernel as K
from strategies import solved


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A user folder of solutions of its own (``solved`` looks there first)."""
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path / "solutions"))
    return tmp_path / "solutions"


def test_schedule_measures_at_doublings_and_at_the_end():
    assert S.schedule(250) == [250]
    assert S.schedule(1200) == [250, 500, 1000, 1200]


def test_short_fpsb_solve_approaches_the_known_answer(folder):
    """F3: after 1,000 iterations the bid function is already within 0.01 of (n-1)/n v,
    and the held-out exploitability falls at every measurement."""
    result = S.solve("fpsb", {"players": 2}, iterations=1000, progress=False)
    curve = result.curve
    assert [c["iteration"] for c in curve] == [250, 500, 1000]
    assert all(a["value"] > b["value"] for a, b in zip(curve, curve[1:]))
    assert all(c["ci_low"] <= c["value"] <= c["ci_high"] for c in curve)
    assert curve[-1]["bid_rmse"] < 0.01
    assert result.path.parent == folder and result.path.exists()


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fpsb_solved_from_nothing_is_the_equilibrium(players, folder):
    """F1-F3, the known answer: the solution's bid function is within 0.01 (root mean
    square over fresh values) of (n-1)/n v and its relative utility loss against a grid
    best response is at most 1e-3, from nothing at the default iterations."""
    last = S.solve("fpsb", {"players": players}, progress=False).curve[-1]
    assert last["bid_rmse"] <= 0.01
    assert last["relative_loss"] <= 1e-3


def test_solution_file_is_the_same_on_one_and_two_threads_and_after_a_resume(
        tmp_path, monkeypatch):
    one = S.solve("fpsb", {"players": 3}, iterations=700, threads=1, out=tmp_path / "a.sol",
                  progress=False).path.read_bytes()
    two = S.solve("fpsb", {"players": 3}, iterations=700, threads=2, out=tmp_path / "b.sol",
                  progress=False).path.read_bytes()
    assert one == two
    # an interrupt after 500 iterations keeps a checkpoint; the same command resumes
    monkeypatch.setattr(S, "CHECKPOINT_SECONDS", 0.0)
    run = FpsbSolver.run

    def interrupted(self, iterations):
        if self.iteration >= 500:
            raise KeyboardInterrupt
        run(self, iterations)

    monkeypatch.setattr(FpsbSolver, "run", interrupted)
    with pytest.raises(KeyboardInterrupt):
        S.solve("fpsb", {"players": 3}, iterations=700, out=tmp_path / "c.sol", progress=False)
    assert (tmp_path / "c.sol.checkpoint.npz").exists() and not (tmp_path / "c.sol").exists()
    monkeypatch.setattr(FpsbSolver, "run", run)
    resumed = S.solve("fpsb", {"players": 3}, iterations=700, out=tmp_path / "c.sol",
                      progress=False)
    assert resumed.resumed_from == 500
    assert resumed.path.read_bytes() == one
    assert not (tmp_path / "c.sol.checkpoint.npz").exists()


def test_a_checkpoint_of_another_solve_is_refused_by_name(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "CHECKPOINT_SECONDS", 0.0)
    monkeypatch.setattr(FpsbSolver, "run", lambda self, k: (_ for _ in ()).throw(
        KeyboardInterrupt) if self.iteration >= 250 else setattr(self, "iteration", 250))
    with pytest.raises(KeyboardInterrupt):
        S.solve("fpsb", {"players": 3}, iterations=700, out=tmp_path / "x.sol", progress=False)
    with pytest.raises(BidlabError, match=r"x.sol.checkpoint.npz.*another solve.*seed"):
        S.solve("fpsb", {"players": 3}, iterations=700, seed=5, out=tmp_path / "x.sol",
                progress=False)


@pytest.fixture(scope="module")
def short_solution(tmp_path_factory):
    """A short fpsb solution for 2 bidders, in a folder of its own."""
    folder = tmp_path_factory.mktemp("solutions")
    mp = pytest.MonkeyPatch()
    mp.setenv("BIDLAB_SOLUTIONS", str(folder))
    result = S.solve("fpsb", {"players": 2}, iterations=500, progress=False)
    yield result
    mp.undo()


def test_solved_plays_the_solution_as_data_wherever_a_policy_plays(short_solution, monkeypatch):
    """F2: the solution's bids are legal and near value / 2 against itself; playing two
    different tables compiles the kernel once (the table is an argument)."""
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(short_solution.path.parent))
    run = bidlab.simulate("fpsb", 20_000, seed=3, strategies={"all": "solved"})
    seats = run.seats
    assert ((seats["bid"] >= 0) & (seats["bid"] < 1)).all()
    assert abs((seats["bid"] / seats["value"]).median() - 0.5) < 0.02
    before = len(K.play_chunk.signatures)
    other = solved.load(short_solution.path)
    uniform = cfr.pack_table(np.full((200, 1000), 1e-3), 1)
    elsewhere = short_solution.path.parent.parent / "uniform" / short_solution.path.name
    solved.Solution(other.game, other.rules, other.abstraction, uniform, other.meta).save(elsewhere)
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(elsewhere.parent))
    spread = bidlab.simulate("fpsb", 20_000, seed=3, strategies={"all": "solved"}).seats
    assert (spread["bid"] / spread["value"]).median() > 0.3   # uniform bids below 1: higher
    assert len(K.play_chunk.signatures) == before
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(short_solution.path.parent))
    # and in a tournament against the linear family
    t = bidlab.tournament("fpsb", ["solved", "linear:a=0.5"], 4096, progress=False)
    assert set(t.frame["name"]) == {"solved", "linear"}


def test_table_round_trip_never_plays_an_action_of_probability_zero():
    p = np.array([[0.0, 0.5, 0.5, 0.0], [1.0, 0.0, 0.0, 0.0], [0.2, 0.0, 0.3, 0.5]])
    table = cfr.pack_table(p, 1)
    assert np.allclose(cfr.unpack_table(table), p)
    for row in range(3):
        played = {cfr.table_action(table, 0, row, u) for u in np.linspace(0, 1, 1001)[:-1]}
        assert played == set(np.flatnonzero(p[row]))


def test_no_solution_for_the_rules_names_the_command(folder):
    with pytest.raises(solved.SolutionError, match=r"bidlab solve fpsb --rule players=7`"):
        bidlab.simulate("fpsb", 1024, rules={"players": 7}, strategies={"all": "solved"})


def test_a_damaged_or_foreign_file_is_refused_with_its_name_and_what_differs(
        short_solution, folder):
    abstraction = solved.abstraction_of("fpsb", {"players": 2})
    made = short_solution.path.read_bytes()
    folder.mkdir(parents=True, exist_ok=True)
    target = solved.default_path("fpsb", {"players": 3}, abstraction)
    target.write_bytes(made)     # a solution for 2 bidders under the name for 3
    with pytest.raises(solved.SolutionError, match=r"players=2 there, 3 here.*bidlab solve "
                                                   r"fpsb --rule players=3"):
        bidlab.simulate("fpsb", 1024, rules={"players": 3}, strategies={"all": "solved"})
    target.write_bytes(made[:-40])
    with pytest.raises(solved.SolutionError, match=str(target.name) + r".*damaged"):
        solved.load(target)
    target.write_bytes(b"hello")
    with pytest.raises(solved.SolutionError, match=r"not a bidlab solution"):
        solved.load(target)
    header = json.loads(made.split(b"\n")[1])
    header["abstraction"]["version"] = 0
    target.write_bytes(solved.MAGIC + json.dumps(header).encode() + b"\n"
                       + made.split(b"\n", 2)[2])
    with pytest.raises(solved.SolutionError, match=r"abstraction fpsb-value-grid version 0"):
        solved.check(solved.load(target), "fpsb", header["rules"], abstraction, target)


def test_cli_solve_json_and_refusals(tmp_path, capsys, folder):
    out = tmp_path / "f.sol"
    assert main(["solve", "fpsb", "--iterations", "300", "--out", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert {"game", "rules", "abstraction", "infosets", "iterations", "seconds",
            "exploitability", "file"} <= set(printed)
    assert printed["iterations"] == 300 and printed["file"] == str(out)
    assert {"iteration", "seconds", "value", "ci_low", "ci_high"} <= set(
        printed["exploitability"][0])
    assert main(["solve", "bridge"]) == 2
    assert "does not solve bridge bidding" in capsys.readouterr().err
    assert main(["solve", "fpsb", "--iterations", "0"]) == 2
    assert "--iterations 0" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["fpsb", "pitch", "vybory", "auktsion"])
def test_report_shows_the_shipped_solution(game, tmp_path, folder):
    """The report's "Solved bidding" section: the shipped solution's exploitability curve,
    its strategy chart and its tournament against the default hand-written bidder."""
    from analysis import solved as AS
    from reports.report import build_report
    solution, path = AS.load(game, {})
    assert Path(path).parent.name == "solutions"
    chart = AS.chart(solution)
    if game == "fpsb":
        assert {"value", "mean_bid", "equilibrium"} <= set(chart.columns)
        assert np.sqrt(((chart["mean_bid"] - chart["equilibrium"]) ** 2).mean()) < 0.01
    elif game == "vybory":
        assert np.allclose(chart[AS.KINDS].sum(axis=1), 1.0)
        assert chart["speaker"].nunique() == 2 and (chart["weight"] > 0).all()
    elif game == "auktsion":
        assert np.allclose(chart[AS.auktsion_actions()].sum(axis=1), 1.0)
        assert set(chart["money"]) == set(AS.AUKTSION_VIEWS)
    else:
        calls = ["pass", "bid 1", "bid 2", "bid 3", "bid 4", "hold"]
        assert np.allclose(chart[calls].sum(axis=1), 1.0)
    build_report([game], n=2048, seed=1, out=tmp_path / "r", sections=["solved"],
                 progress=False, strict=True)
    text = (tmp_path / "r" / "report.md").read_text()
    assert "Solved bidding" in text and "a best response gains" in text
    assert f"{game}_solved_curve.png" in text


def test_optimize_measures_how_far_responders_gain_against_a_solution(short_solution,
                                                                       monkeypatch):
    """``solved`` has no parameter: with --responders it is held as given, the first
    member of the family, and the responders' held-out gain against it is its
    exploitability in the full game; without responders the error says so."""
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(short_solution.path.parent))
    res = bidlab.optimize("fpsb", "solved", n=2048, responders="linear")
    assert res.history["responder"].iloc[0] in ("solved", "linear")
    assert res.exploitability["family"].startswith("solved (as given); linear (a)")
    assert res.exploitability["estimate"] >= 0
    with pytest.raises(BidlabError, match="name them with --responders"):
        bidlab.optimize("fpsb", "solved", n=2048)


def test_a_solve_on_a_dask_cluster_writes_the_same_file(tmp_path):
    """pitch's deals shared out over two worker processes: the same file bit for bit
    as a local solve; fpsb (full width, no deals) says --workers does not apply."""
    here = S.solve("pitch", {"players": 2}, iterations=3, out=tmp_path / "here.sol",
                   progress=False)
    there = S.solve("pitch", {"players": 2}, iterations=3, out=tmp_path / "there.sol",
                    workers=2, progress=False)
    assert here.path.read_bytes() == there.path.read_bytes()
    with pytest.raises(BidlabError, match="full width.*--workers and --scheduler do not apply"):
        S.solve("fpsb", iterations=3, out=tmp_path / "f.sol", workers=2, progress=False)


def test_seats_can_play_different_solutions_coarse_against_fine(folder):
    """A coarser pitch abstraction (``--setting strength_steps=3``) solved into the user
    folder, then played by one strategy against the shipped solution in another: each
    seat reads its own table; the setting is in the file's name and abstraction."""
    coarse = S.solve("pitch", {"players": 2}, iterations=3, settings={"strength_steps": 3},
                     progress=False)
    assert coarse.solution.abstraction["settings"]["strength_steps"] == 3
    assert coarse.path.name != solved.default_path(
        "pitch", bidlab.api.make_rules("pitch", {"players": 2}).to_json(),
        solved.abstraction_of("pitch", {"players": 2})).name
    t = bidlab.tournament("pitch", ["solved+greedy", "solved:strength_steps=3+greedy"], 1024,
                          rules={"players": 2}, progress=False)
    assert len(t.frame) == 2
    with pytest.raises(solved.SolutionError, match=r"bidlab solve pitch --rule players=2 "
                                                   r"--setting strength_steps=5`"):
        bidlab.simulate("pitch", 64, rules={"players": 2},
                        strategies={0: "solved:strength_steps=5+greedy"})
    with pytest.raises(BidlabError, match="strength_steps"):
        S.solve("pitch", {"players": 2}, iterations=3, settings={"strength_steps": 0},
                progress=False)
