"""``bidlab compare --solved``: house variants with players who adapt. Every seat of each
variant plays that variant's own solution, on the same matches; a missing solution
stops the comparison with the command that makes it (or is solved first with
``--solve-missing``); contradictions and games without a solver are refused."""

from __future__ import annotations

import json
import math

import pytest

import analysis.compare as C
import analysis.solve as S
import bidlab
from bidlab.cli import main
from sim.errors import BidlabError


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A user folder with tiny fpsb solutions (3 iterations) for 2 and 3 bidders: they
    come before the shipped ones, so a comparison that plays them plays these."""
    folder = tmp_path_factory.mktemp("solutions")
    mp = pytest.MonkeyPatch()
    mp.setenv("BIDLAB_SOLUTIONS", str(folder))
    paths = {p: S.solve("fpsb", {"players": p}, iterations=3, progress=False).path
             for p in (2, 3)}
    yield folder, paths
    mp.undo()


@pytest.fixture
def folder(tiny, monkeypatch):
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tiny[0]))
    return tiny[0]


def test_each_variant_plays_its_own_solution_with_every_metric_interval(tiny, folder):
    _, paths = tiny
    c = bidlab.compare("fpsb", ["default", "players=3"], 2048, seed=4, solved=True)
    assert set(c.solutions) == {"default", "players=3"}
    assert c.solutions["default"]["path"] == str(paths[2])
    assert c.solutions["players=3"]["path"] == str(paths[3])
    for sol in c.solutions.values():
        assert sol["source"] == "bidlab solve" and sol["iterations"] == 3
        assert {"value", "ci_low", "ci_high"} <= set(sol["exploitability"])
    assert c.provenance["solutions"] == c.solutions and c.provenance["solved"]
    assert {s["label"] for s in c.provenance["strategies"]} == {"solved"}
    # every metric, every row: the value and the paired difference with their intervals
    f = c.frame
    assert set(f["metric"]) == {"score", "win", "bid"}
    for col in ("value", "value_ci_low", "value_ci_high", "diff", "ci_low", "ci_high",
                "p_value"):
        assert f[col].map(lambda v: isinstance(v, float) and math.isfinite(v)).all(), col
    assert (f["value_ci_low"] <= f["value"]).all() and (f["value"] <= f["value_ci_high"]).all()
    assert (f["ci_low"] <= f["diff"]).all() and (f["diff"] <= f["ci_high"]).all()
    # three bidders against two: only the strategy rows pair, and they move
    three = f[f["variant"] == "players=3"]
    assert set(three["by"]) == {"strategy"}
    score = three[three["metric"] == "score"].iloc[0]
    assert score["ci_high"] < 0 and score["n"] == 2048


def test_paired_by_match_the_same_rules_twice_change_nothing(folder):
    """The same rules written two ways: the same deals and the same solution, so every
    difference is exactly 0 in every match."""
    c = bidlab.compare("fpsb", ["default", "players=2"], 1024, seed=9, solved=True)
    assert c.solutions["default"] == c.solutions["players=2"]
    assert (c.frame["diff"] == 0).all() and (c.frame["p_value"] == 1.0).all()
    assert "seat" in set(c.frame["by"])
    # and the matches are the ones simulate plays with the solution in every seat
    run = bidlab.simulate("fpsb", 1024, seed=9, strategies={"all": "solved"})
    row = c.frame[(c.frame.metric == "score") & (c.frame.by == "seat")
                  & (c.frame.name == "0 solved") & (c.frame.variant == "default")].iloc[0]
    assert row["value"] == pytest.approx(run.seats.loc[run.seats.seat == 0, "score"].mean())


def test_a_missing_solution_names_the_command_of_every_missing_variant(folder):
    with pytest.raises(C.MissingSolutions) as e:
        bidlab.compare("fpsb", ["default", "players=5", "players=6"], 256, solved=True)
    text = str(e.value)
    assert "2 of the 3 variants" in text
    assert "bidlab solve fpsb --rule players=5" in text
    assert "bidlab solve fpsb --rule players=6" in text and "--solve-missing" in text
    assert e.value.commands == {"players=5": "bidlab solve fpsb --rule players=5",
                                "players=6": "bidlab solve fpsb --rule players=6"}
    assert not list(folder.glob("fpsb-*.checkpoint.npz"))


def test_solve_missing_solves_first_and_says_so(folder, monkeypatch):
    solves = []

    def short(game, rules, progress):
        solves.append(dict(rules))
        S.solve(game, rules, iterations=3, progress=False)

    monkeypatch.setattr(C, "_solve_variant", short)
    said: list[str] = []
    c = bidlab.compare("fpsb", ["default", "players=5", "players=05"], 256, solved=True,
                       solve_missing=True, log=said.append)
    assert solves == [{"players": "5"}]                 # one solve for the same rules
    assert said == ["solving fpsb for variant players=5: bidlab solve fpsb --rule players=5; "
                    "this takes about 10 s on two cores"]
    assert c.solutions["players=5"]["path"].startswith(str(folder))
    assert c.solutions["players=05"] == c.solutions["players=5"]
    again = bidlab.compare("fpsb", ["default", "players=5"], 256, solved=True)  # now found
    assert again.solutions["players=5"] == c.solutions["players=5"]


def test_contradictions_and_games_without_a_solver_are_refused(folder):
    with pytest.raises(BidlabError, match="--strategy contradicts it"):
        bidlab.compare("fpsb", ["default", "players=3"], 64, solved=True,
                       strategies="all=linear")
    with pytest.raises(BidlabError, match="cannot set strategies"):
        bidlab.compare("fpsb", ["default", "strategy 0=linear"], 64, solved=True)
    with pytest.raises(BidlabError, match=r"does not solve bridge.*games it solves: "
                                          r"aukcio, auktsion, fpsb, pitch, vybory"):
        bidlab.compare("bridge", ["default", "vulnerability=none"], 64, solved=True)
    with pytest.raises(BidlabError, match="add --solved"):
        bidlab.compare("fpsb", ["default", "players=3"], 64, solve_missing=True)


def test_cli_json_text_and_errors(folder, capsys):
    argv = ["compare", "fpsb", "--variant", "default", "--variant", "players=3", "--solved",
            "-n", "512"]
    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["solutions"]) == {"default", "players=3"}
    assert all({"path", "iterations", "exploitability"} <= set(s)
               for s in out["solutions"].values())
    assert all(all(isinstance(m[k], float) for k in ("value", "value_ci_low", "value_ci_high",
                                                     "diff", "ci_low", "ci_high"))
               for m in out["metrics"])
    assert main(argv + ["--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "every seat plays solved, each variant its own solution" in text
    assert str(folder) in text and "3 iterations" in text
    assert main(argv + ["--strategy", "all=linear"]) == 2
    assert "--strategy contradicts it" in capsys.readouterr().err
    assert main(["compare", "fpsb", "--variant", "players=7", "--solved", "-n", "64"]) == 2
    assert "bidlab solve fpsb --rule players=7" in capsys.readouterr().err
    assert main(["compare", "bridge", "--variant", "vulnerability=none", "--solved", "-n",
                 "64"]) == 2
    assert "aukcio, auktsion, fpsb, pitch, vybory" in capsys.readouterr().err
    assert main(["compare", "aukcio", "--variant", "hand_size=7", "--solved", "-n", "64"]) == 2
    assert "bidlab solve aukcio --rule hand_size=7" in capsys.readouterr().err
