"""The command line for pitch: policies, simulate (win share, deals per game, bid made
rate by contract), trace with the rules file's fields, and errors with exit code 2."""

from __future__ import annotations

import json

import pytest

from bidlab.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_pitch_and_its_rule_keys(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0 and "pitch" in out
    code, out, _ = run(capsys, "games", "pitch")
    for key in ("players", "joker", "dealer_hold", "all_pass", "low_to", "game_tie", "smudge",
                "target", "max_deals", "P15"):
        assert key in out


def test_policies_lists_both_decisions(capsys):
    code, out, _ = run(capsys, "policies", "pitch")
    assert code == 0
    for text in ("bid: passive", "bid: random", "bid: strength", "play: random", "play: greedy",
                 "play: pimc", "samples = 32  (1..4096 int)", "aggression = 1  (0..3)",
                 "bundle: expert", "= strength+pimc", "= strength+greedy [default]",
                 "one policy per decision"):
        assert text in out, text


def test_simulate_prints_win_share_deals_per_game_and_made_rates(capsys, tmp_path):
    out_file = tmp_path / "r.parquet"
    code, out, _ = run(capsys, "simulate", "pitch", "-n", "1500", "--seed", "3", "--no-progress",
                       "--strategy", "all=basic", "--strategy", "0=strength+pimc:samples=2",
                       "--out", str(out_file), "--detail")
    assert code == 0, out
    assert "win share" in out and "strength+pimc:samples=2" in out
    assert "mean deals per game" in out and "bid made rate by contract" in out
    assert out_file.exists() and (tmp_path / "r.deals.parquet").exists()


def test_simulate_json_has_the_game_summary(capsys):
    code, out, _ = run(capsys, "simulate", "pitch", "-n", "1200", "--json", "--no-progress",
                       "--rule", "players=3", "--rule", "joker=true")
    data = json.loads(out)
    assert data["provenance"]["rules"]["target"] == 10
    metrics = {r["metric"] for r in data["game_summary"]}
    assert "bid made rate by contract: 2" in metrics


def test_trace_has_the_rules_file_fields_and_passes_the_referee(capsys):
    code, out, err = run(capsys, "trace", "pitch", "--seed", "2", "--index", "5", "--check",
                         "--rule", "joker=true")
    assert code == 0, err
    t = json.loads(out)
    assert {"game", "rules", "seed", "index", "deals", "winner", "deals_played"} <= set(t)
    deal = next(d for d in t["deals"] if d["pitcher"] is not None)
    assert {"dealer", "hands", "bids", "pitcher", "contract", "trump", "tricks", "points",
            "deal_scores", "scores_after"} <= set(deal)
    assert {"leader", "cards", "winner"} == set(deal["tricks"][0])
    assert set(deal["points"]) == {"high", "low", "jack", "game", "joker"}
    assert {"seat", "bid"} <= set(deal["bids"][0])
    assert "referee" in err


@pytest.mark.parametrize("argv, message", [
    (["--rule", "players=8"], "players=8 is out of range: allowed 2..7"),
    (["--rule", "all_pass=never"], "all_pass='never': expected one of redeal, stuck_dealer"),
    (["--strategy", "0=strength+pimc:samples=0"], "samples='0' is out of range: allowed 1..4096"),
    (["--strategy", "0=strength+clever"], "unknown pitch policy 'clever'"),
    (["--strategy", "5=basic"], "seat '5' does not exist; seats are 0..3 or 'all'"),
    (["--strategy", "0=greedy:aggression=9"], "aggression='9' is out of range: allowed 0..3"),
    (["--strategy", "0=basic:depth=2"], "no policy in it has a parameter 'depth'"),
])
def test_bad_input_exits_2_with_a_clear_message(capsys, argv, message):
    code, out, err = run(capsys, "simulate", "pitch", "-n", "10", "--no-progress", *argv)
    assert code == 2
    assert message in err, err
