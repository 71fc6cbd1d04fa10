"""The command line: output, exit codes and error messages."""

import json

import pytest

from bidlab.cli import main
from sim.games.auktsion import engine


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_and_rule_keys(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0 and "auktsion" in out
    code, out, _ = run(capsys, "games", "auktsion")
    assert code == 0 and "leftover_value" in out and "A14" in out


def test_policies_lists_parameters_with_bounds(capsys):
    code, out, _ = run(capsys, "policies", "auktsion")
    assert code == 0
    for name in ("passive", "random", "value", "budget", "aggression = 2.5  (0..5)"):
        assert name in out


def test_simulate_prints_summary_and_writes_parquet(capsys, tmp_path):
    out_file = tmp_path / "r.parquet"
    code, out, _ = run(capsys, "simulate", "auktsion", "-n", "2000", "--seed", "4",
                       "--strategy", "all=value", "--strategy", "1=budget",
                       "--out", str(out_file), "--no-progress")
    assert code == 0, out
    assert "match score" in out and "win share" in out and "money spent" in out
    assert out_file.exists()


def test_simulate_json(capsys):
    code, out, _ = run(capsys, "simulate", "auktsion", "-n", "1500", "--json", "--no-progress",
                       "--rule", "players=3", "--rule", "auction_form=sealed")
    data = json.loads(out)
    assert data["provenance"]["rules"]["auction_form"] == "sealed"
    assert {r["name"] for r in data["summary"]} >= {"budget"}


def test_trace_is_json_with_rule_fields_and_passes_the_referee(capsys):
    code, out, err = run(capsys, "trace", "auktsion", "--seed", "2", "--index", "9", "--check",
                         "--strategy", "0=random")
    assert code == 0
    t = json.loads(out)
    assert {"game", "rules", "seed", "index", "deals", "totals", "winners"} <= set(t)
    deal = t["deals"][0]
    assert {"dealer", "hands", "money_start", "lots", "scores", "money_end"} <= set(deal)
    assert {"rank", "starter", "calls", "buyer", "price"} <= set(deal["lots"][0])
    assert "referee" in err


@pytest.mark.parametrize("argv,message", [
    (["--rule", "players=5"], "players=5 is out of range: allowed 3, 4"),
    (["--rule", "carry_money=maybe"], "carry_money='maybe': expected true or false"),
    (["--rule", "colour=red"], "unknown auktsion rule key 'colour'"),
    (["--rule", "min_bid=80"], "min_bid=80 is out of range: allowed 1..70"),
    (["--rule", "players"], "write key=value"),
    (["--strategy", "0=bidder"], "unknown auktsion policy 'bidder'"),
    (["--strategy", "4=value"], "seat '4' does not exist; seats are 0..3 or 'all'"),
    (["--strategy", "0=value:multiple=99"], "multiple='99' is out of range: allowed 0..20"),
    (["--strategy", "0=value:mult=2"], "no policy in it has a parameter 'mult'"),
    (["--strategy", "0=random:max_jump=1.5"], "expected a whole number"),
    (["--strategy", "value"], "write SEAT=NAME"),
    (["--chunk-size", "1000"], "multiple of 1024"),
])
def test_bad_input_exits_2_with_a_clear_message(capsys, argv, message):
    code, out, err = run(capsys, "simulate", "auktsion", "-n", "10", "--no-progress", *argv)
    assert code == 2
    assert message in err, err


def test_unknown_game_exits_2(capsys):
    code, _, err = run(capsys, "policies", "chess")
    assert code == 2 and "unknown game 'chess'; known games: aukcio, auktsion" in err


def test_illegal_bid_names_match_seat_policy_and_legal_range():
    """A kernel error record becomes an IllegalActionError that says what was legal (A8)."""
    from sim import harness as H
    err = H.new_errors(3)
    err[1] = [H.ILLEGAL, 2, 1, 4, 50, 7, 31]  # code, seat, deal, step (lot), bid, lo, hi
    with pytest.raises(Exception) as info:
        H.check(err, 1000, engine.explain, ("budget", "value", "mine", "budget"))
    msg = str(info.value)
    assert "match 1001" in msg and "seat 2" in msg and "'mine'" in msg
    assert "bid 50" in msg and "a bid of 7..31 or a pass" in msg and "lot 6" in msg


def test_output_cut_short_by_the_reader_is_not_an_error():
    """``bidlab ... | head -1``: the pipe closes early; no traceback, exit status 0."""
    import subprocess
    import sys
    proc = subprocess.run(f"{sys.executable} -m bidlab bridge deal -n 20000 --seed 1 | head -1",
                          shell=True, capture_output=True, text=True, timeout=120,
                          executable="/bin/bash")
    assert proc.stdout.count("\n") == 1
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
