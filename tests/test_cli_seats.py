"""The command line a player expects (issue 16): seat lists (``--strategy 0,2=value``),
parameters next to their policy (``strength:aggression=1.4+pimc:samples=8``), compare
over strategies, one ``--help`` per bridge tool, the team scorecard, bridge ``best`` in
N E S W and NT, and help texts without markup."""

from __future__ import annotations

import json
import re

import pytest

import bidlab
import strategies
from bidlab.cli import build_parser, main
from sim.errors import StrategyError


def _labels(run) -> list[str]:
    return [s["label"] for s in run.provenance["strategies"]]


# -- A: seat lists -------------------------------------------------------------------

def test_a_seat_list_sets_every_seat_in_it():
    seats = strategies.assign_seats(strategies.for_game("auktsion"), 4,
                                    ["all=budget", "0,2=value:multiple=1.5"])
    assert seats.labels == ("value:multiple=1.5", "budget", "value:multiple=1.5", "budget")
    later = strategies.assign_seats(strategies.for_game("auktsion"), 4, ["0,2=value", "2=random"])
    assert later.labels == ("value", "budget", "random", "budget")


@pytest.mark.parametrize("item,needle", [
    ("5=value", "seat '5' does not exist; seats are 0..3 or 'all'"),
    ("0,5=value", "seat '5' does not exist; seats are 0..3 or 'all'"),
    ("0,0=value", "seat 0 is named twice"),
    ("1,2,1=value", "seat 1 is named twice"),
    ("0,=value", "an empty seat in '0,'"),
    ("all,1=value", "'all' already names every seat"),
])
def test_a_bad_seat_list_names_the_seat_and_what_is_allowed(item, needle):
    with pytest.raises(StrategyError) as e:
        strategies.assign_seats(strategies.for_game("auktsion"), 4, [item])
    assert needle in str(e.value) and repr(item) in str(e.value)


def test_python_accepts_a_string_and_seat_list_keys():
    one = bidlab.simulate("fpsb", 1024, strategies="0=random")
    assert _labels(one) == ["random", "linear"]
    for spec in ({"0,2": "random"}, {(0, 2): "random"}, ["0,2=random"], "0,2=random"):
        run = bidlab.simulate("fpsb", 1024, rules={"players": 3}, strategies=spec)
        assert _labels(run) == ["random", "linear", "random"], spec
    trace = bidlab.trace("fpsb", strategies={(1,): "random"})
    assert trace["strategies"] == ["linear", "random"]


def test_cli_seat_list_in_simulate_and_trace(capsys):
    assert main(["simulate", "fpsb", "-n", "1024", "--rule", "players=3", "--strategy",
                 "0,2=random", "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["label"] for s in out["provenance"]["strategies"]] == ["random", "linear", "random"]
    assert main(["trace", "fpsb", "--strategy", "1,0=random", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["strategies"] == ["random", "random"]


# -- B: parameters next to their policy ----------------------------------------------

def test_parameters_next_to_the_policy_parse_as_the_trailing_form():
    g = strategies.for_game("pitch")
    new = g.parse("strength:aggression=1.4+pimc:samples=8")
    assert new == g.parse("strength+pimc:strength.aggression=1.4,pimc.samples=8")
    assert new == g.parse("strength+pimc:aggression=1.4,samples=8")
    assert new.label == "strength+pimc:aggression=1.4,samples=8"
    # mixed: a policy's own, then the trailing list (any policy)
    assert g.parse("strength:aggression=1.4+pimc:samples=8") == \
        g.parse("strength:aggression=1.4+pimc:strength.aggression=1.4,samples=8")
    assert g.parse("strength:aggression=+1.4+greedy") == \
        g.parse("strength+greedy:aggression=1.4")           # a '+' sign is not a '+' of names
    # labels of the strings in use stay as they were
    assert g.parse("strength+pimc:samples=4").label == "strength+pimc:samples=4"
    assert g.parse("basic").label == "strength+greedy"
    assert g.parse("expert:samples=8").label == "strength+pimc:samples=8"
    v = strategies.for_game("vybory")
    assert v.parse("expected+pimc:samples=4,belief=0.7") == \
        v.parse("expected+pimc:pimc.samples=4,pimc.belief=0.7")


@pytest.mark.parametrize("text,needle", [
    ("strength:samples=8+pimc", "policy 'strength' has no parameter 'samples'; its parameters: "
                                "aggression"),
    ("strength:aggression+pimc", "parameter 'aggression' has no value"),
    ("strength:pimc.samples=8+pimc", "policy 'strength' has no parameter 'pimc.samples'"),
    ("strength:aggression=9+pimc", "aggression='9' is out of range"),
])
def test_a_wrong_parameter_next_to_a_policy_names_the_policy(text, needle):
    with pytest.raises(StrategyError) as e:
        strategies.for_game("pitch").parse(text)
    assert needle in str(e.value), str(e.value)


def test_cli_takes_the_new_form(capsys):
    assert main(["trace", "pitch", "--strategy", "0=strength:aggression=1.4+greedy",
                 "--index", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["strategies"][0] == "strength+greedy:aggression=1.4"


# -- C: compare over strategies ------------------------------------------------------

def test_compare_variants_of_strategies_pair_seat_by_seat():
    from analysis.compare import compare, parse_variant_parts
    assert parse_variant_parts("strategy 0=value 2=budget; players=3") == \
        ({"players": "3"}, ["0=value", "2=budget"])
    assert parse_variant_parts("default") == ({}, [])
    c = compare("fpsb", ["strategy 0=random"], 1024, seed=1, strategies=["all=linear"])
    f = c.frame
    assert list(c.variants) == ["default", "strategy 0=random"]
    assert c.strategies == {"default": [], "strategy 0=random": ["0=random"]}
    seat0 = f[(f["metric"] == "score") & (f["by"] == "seat")
              & (f["variant"] == "strategy 0=random")].iloc[0]
    assert seat0["name"] == "0 random"
    base0 = f[(f["metric"] == "score") & (f["by"] == "seat") & (f["variant"] == "default")
              & (f["name"] == "0 linear")].iloc[0]
    assert seat0["diff"] == pytest.approx(seat0["value"] - base0["value"])
    assert seat0["ci_low"] < seat0["diff"] < seat0["ci_high"] and seat0["p_value"] < 1
    # the same strategy as the baseline, written as a variant: every difference is 0
    same = compare("fpsb", ["default", "strategy 0=linear"], 1024, seed=1)
    assert (same.frame["diff"] == 0).all()
    # a mapping variant with strategies
    m = compare("fpsb", [{}, {"strategy": "1=random"}], 1024, seed=1)
    assert list(m.variants) == ["default", "strategy 1=random"]


def test_cli_compare_strategy_variant(capsys):
    assert main(["compare", "fpsb", "--variant", "strategy 0=random", "-n", "1024",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "strategy 0=random: seat 0 random, seat 1 linear" in out
    assert "seat 0 random" in out and "(baseline)" in out
    assert main(["compare", "fpsb", "--variant", "strategy 0=random; players=3",
                 "--variant", "default", "-n", "1024", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variants"]["strategy 0=random; players=3"] == {"players": "3"}
    assert data["variant_strategies"]["strategy 0=random; players=3"] == ["0=random"]


def test_compare_help_documents_strategy_variants(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = capsys.readouterr().out
    assert "strategy SEAT=SPEC" in out and "--variant 'strategy 0=value'" in out


# -- D: one --help per bridge tool ---------------------------------------------------

def _help(capsys, *argv) -> str:
    with pytest.raises(SystemExit) as e:
        main([*argv, "--help"])
    assert e.value.code == 0
    return capsys.readouterr().out


def test_each_bridge_tool_has_its_own_help(capsys):
    top = _help(capsys, "bridge")
    assert all(t in top for t in ("team", "pairs", "best", "deal"))
    assert "--opponents NAME" not in top and "--hcp SEAT" not in top
    team = _help(capsys, "bridge", "team")
    assert "--a STRATEGY" in team and "--boards" in team and "--rules" in team
    assert "--opponents" not in team and "--hcp" not in team and "--vulnerable" not in team
    pairs = _help(capsys, "bridge", "pairs")
    assert "STRATEGY" in pairs and "--opponents" in pairs and "--a STRATEGY" not in pairs
    best = _help(capsys, "bridge", "best")
    assert "--seat SEAT" in best and "--vulnerable" in best and "--boards" not in best
    assert "--a STRATEGY" not in best
    deal = _help(capsys, "bridge", "deal")
    assert "--pbn FILE" in deal and "--json" not in deal and "--seat" not in deal


def test_old_bridge_command_lines_still_parse():
    for line in ["bridge team --a natural --b natural:nt_min=14,nt_max=16 -n 2000",
                 "bridge pairs natural random par -n 500 --opponents natural",
                 "bridge best --hand N=AKQ52.K3.742.Q87 --hcp S=10-12 --seat 0 -n 200",
                 "bridge deal --hcp N=20- -n 100 --pbn strong.pbn --no-progress"]:
        args = build_parser().parse_args(line.split())
        assert args.command == "bridge" and args.tool == line.split()[1]


def test_an_option_of_another_tool_is_one_error(capsys):
    assert main(["bridge", "deal", "-n", "1", "--a", "natural"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["bidlab bridge: error: --a: bridge deal takes no --a (it is an option of "
                   "bridge team); see `bidlab bridge deal --help`"]
    assert main(["bridge"]) == 2
    assert "give a tool" in capsys.readouterr().err


# -- E: the team scorecard, best in N E S W and NT -----------------------------------

def test_team_prints_a_scorecard_and_the_total(solved_boards, capsys):
    assert main(["bridge", "team", "--a", "natural", "--b", "random", "-n", "6", "--seed", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("board"))
    assert lines[head].split()[:4] == ["board", "dealer", "vul", "table"]
    rows = [line.split() for line in lines[head + 1:head + 7]]
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    assert [r[1] for r in rows] == ["N", "E", "S", "W", "N", "E"]          # B1
    assert [r[2] for r in rows] == ["None", "NS", "EW", "Both", "NS", "EW"]
    assert "total: A " in out and "IMPs per board for A:" in out
    assert main(["bridge", "team", "--a", "natural", "--b", "random", "-n", "6", "--seed", "1",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    card = data["scorecard"]
    assert len(card) == 6 and card[0]["board"] == 1 and card[0]["dealer"] == "N"
    assert sum(r["imps"] for r in card) == data["imps_total"]
    assert data["imps_per_board"] == pytest.approx(data["imps_total"] / 6)
    for r in card:
        for t in ("t1", "t2"):
            if r[f"{t}_contract"] is not None:
                assert r[f"{t}_declarer"] in "NESW" and r[f"{t}_result"][0] in "=+-"
                assert "N" not in r[f"{t}_contract"] or "NT" in r[f"{t}_contract"]
    # the text shows the same numbers as the JSON
    assert f"{card[0]['t1_score_ns']:+d}" in lines[head + 1]


def test_best_names_seats_strains_and_vulnerability(solved_boards, capsys):
    board = json.loads(solved_boards.read_text())["boards"][0]
    hands = board["deal"].split(":", 1)[1].split()
    fixed = [f"--hand={s}={h}" for s, h in zip("NESW", hands)]
    assert main(["bridge", "best", *fixed, "--seat", "N", "-n", "2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "N as declarer, not vulnerable" in out
    assert re.search(r"^  NT\s+\d+\.\d\d$", out, re.M) and "  N:" not in out
    assert main(["bridge", "best", *fixed, "--seat", "0", "-n", "2", "--vulnerable",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["declarer"] == "N" and data["vulnerable"] is True
    assert set(data["tricks"]) == {"C", "D", "H", "S", "NT"}
    assert {r["contract"] for r in data["contracts"]} >= {"1NT", "7NT", "3S"}
    assert main(["bridge", "best", *fixed, "--seat", "s", "-n", "1", "--no-progress"]) == 0
    assert "S as declarer" in capsys.readouterr().out


# -- F: help -------------------------------------------------------------------------

def _positionals(parser):
    import argparse
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from ((f"{name} {n}", a) for n, a in _positionals(sub))
        elif not action.option_strings:
            yield action.dest, action


def test_every_positional_argument_has_a_help_text():
    found = list(_positionals(build_parser()))
    assert len(found) >= 10
    import argparse
    missing = [name for name, a in found if not a.help]
    assert not missing, missing
    assert not [name for name, a in found if a.help is argparse.SUPPRESS
                and not name.startswith("bridge ")]


def test_bid_ev_help_of_one_game_lists_its_keys_without_markup(capsys):
    pitch = _help(capsys, "bid-ev", "pitch")
    assert "situation keys for pitch" in pitch and "situation keys for bridge" not in pitch
    assert "``" not in pitch
    assert "\nbids    the calls before yours" in pitch       # the key column stays aligned
    every = _help(capsys, "bid-ev")
    assert "situation keys for bridge" in every and "situation keys for pitch" in every
    assert "``" not in every


@pytest.mark.parametrize("command", ["games", "policies"])
def test_an_unknown_game_is_only_the_error_line(command, capsys):
    assert main([command, "nosuch"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "'nosuch'" in err


def test_commands_that_play_take_seed_rules_and_no_progress():
    for argv in (["simulate", "fpsb"], ["compare", "fpsb", "--variant", "default"],
                 ["trace", "fpsb"], ["optimize", "fpsb", "--strategy", "linear"],
                 ["bid-ev", "pitch", "--hand", "AH"], ["tournament", "fpsb", "a", "b"],
                 ["bridge", "team"], ["bridge", "pairs", "a", "b"]):
        args = build_parser().parse_args([*argv, "--seed", "3", "--rules", "x.toml",
                                          "--no-progress"])
        assert (args.seed, args.rules, args.no_progress) == (3, "x.toml", True), argv
