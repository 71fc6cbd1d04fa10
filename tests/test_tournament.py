"""``bidlab tournament``: the balanced design, the statistics paired by match, the
command line (text, JSON, Parquet, errors), and bridge on the fixture's boards."""

from __future__ import annotations

import json

import numba
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import bidlab
from analysis.design import design
from analysis.stats import holm
from analysis.tournament import summarize, tournament
from bidlab.cli import main
from sim.sinks import read_provenance


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- the design ------------------------------------------------------------------------

@pytest.mark.parametrize("k,n", [(k, n) for n in range(1, 8) for k in range(2, 9)]
                         + [(2, 10), (4, 10), (10, 10), (3, 10), (7, 10)])
def test_every_strategy_sits_in_every_seat_equally_often(k, n):
    d = design(k, n)
    counts = d.seat_counts
    assert counts.shape == (k, n)
    assert (counts == counts[0, 0]).all() and counts[0, 0] >= 1
    assert len(d.lineups) in (k, 2 * k)
    for row in d.lineups:
        per = np.bincount(row, minlength=k)
        if k <= n:                       # the table is full: every strategy, fairly often
            assert per.min() >= n // k and per.max() <= -(-n // k)
        else:
            assert per.max() == 1        # n different strategies
        assert all(a != b for a, b in zip(row, row[1:]))   # never next to itself


@pytest.mark.parametrize("k,n,lineups", [
    (2, 2, 2), (2, 4, 2), (2, 7, 2), (3, 3, 6), (4, 4, 4), (5, 5, 10), (6, 6, 6), (7, 7, 14),
    (3, 4, 6), (3, 5, 3), (4, 7, 4), (5, 7, 10), (3, 2, 6), (7, 4, 14)])
def test_after_balance_where_the_seat_count_allows(k, n, lineups):
    """Williams's designs for k = n (k lineups when k is even, 2k when odd), and the same
    balance with fewer strategies than seats where at most 2k lineups give it."""
    d = design(k, n)
    assert len(d.lineups) == lineups
    assert d.after_balanced
    f = d.follows
    off = f[~np.eye(k, dtype=bool)]
    assert (off == off[0]).all() and np.trace(f) == 0


def test_williams_square_of_four():
    rows = np.array(design(4, 4).lineups)
    assert rows.tolist() == [[0, 1, 3, 2], [1, 2, 0, 3], [2, 3, 1, 0], [3, 0, 2, 1]]
    # a Latin square: every row and every column holds each strategy once
    assert (np.sort(rows, axis=0) == np.arange(4)[:, None]).all()
    assert (np.sort(rows, axis=1) == np.arange(4)).all()
    # and every ordered pair sits side by side exactly once
    pairs = [(a, b) for row in rows.tolist() for a, b in zip(row, row[1:])]
    assert sorted(pairs) == [(a, b) for a in range(4) for b in range(4) if a != b]


def test_no_after_balance_where_k_lineups_cannot_give_it_is_said():
    d = design(5, 4)                     # 5 strategies at a 4-seat table
    assert len(d.lineups) == 5 and d.seats_balanced and not d.after_balanced
    assert "needs more lineups" in d.describe()
    seats_only = design(3, 4, balance="seats")
    assert len(seats_only.lineups) == 3 and seats_only.seats_balanced


def test_fewer_strategies_than_seats_fill_the_table(capsys):
    code, out, _ = run(capsys, "tournament", "auktsion", "budget", "random", "-n", "1024",
                       "--seed", "3", "--no-progress")
    assert code == 0, out
    assert "2 lineups" in out and "every strategy in every seat 1 time" in out
    assert "1       A       B       A       B" in out and "2       B       A       B       A" in out


def test_seats_only_balance_on_the_command_line(capsys):
    code, out, _ = run(capsys, "tournament", "auktsion", "budget", "value", "random", "-n",
                       "1024", "--balance", "seats", "--no-progress")
    assert code == 0, out
    assert "3 lineups; every strategy in every seat 1 time" in out
    assert "needs more lineups" in out


def test_holm():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5]
    assert holm([0.02, 0.3]) == pytest.approx([0.04, 0.3])
    assert holm([0.9, 0.8]) == [1.0, 1.0]


# -- the statistics --------------------------------------------------------------------

def test_the_same_strategy_twice_differs_by_noise_only():
    t = tournament("auktsion", ["random", "random", "budget"], 2048, seed=5)
    assert t.names == ["random", "random #2", "budget"]
    d = t.differences
    same = d[d["first"].isin(["random", "random #2"]) & d["second"].isin(["random", "random #2"])]
    assert len(same) == len(t.per_match)      # one row per metric
    for row in same.itertuples():
        assert row.ci_low <= 0 <= row.ci_high, row
    assert t.leader == "budget"
    # no row of a strategy against itself
    assert not (d["first"] == d["second"]).any()
    assert len(d[d["metric"] == "score"]) == 3


@pytest.mark.parametrize("game,better,worse,rules", [
    ("pitch", "strength+greedy", "random+random", {}),
    ("auktsion", "budget", "random", {}),
    ("fpsb", "linear:a=0.6", "linear:a=0.05", {"players": 3}),
])
def test_a_better_strategy_is_found_better(game, better, worse, rules):
    t = tournament(game, [worse, better], 1024, seed=2, rules=rules, bootstrap=200)
    assert t.leader == better
    row = t.differences[t.differences["metric"] == t.metric].iloc[0]
    assert (row["first"], row["second"]) == (better, worse)
    assert row["diff"] > 0 and row["p_holm"] < 0.05
    assert t.p_best > 0.95
    assert list(t.frame["name"]) == [better, worse] and list(t.frame["rank"]) == [1, 2]


def test_vybory_ranks_by_win_share():
    t = tournament("vybory", ["random+random", "expected+greedy"], 64, seed=1, bootstrap=100)
    assert t.metric == "win" and t.provenance["objective"] == "win"
    assert t.differences["metric"].iloc[0] == "win"
    assert {"score", "win", "score_ci_low", "win_ci_high"} <= set(t.frame.columns)


def test_bitwise_the_same_in_any_chunking_and_thread_count(threads):
    args = ("pitch", ["strength+greedy", "strength+random", "random+random"], 3000)
    threads(1)
    a = tournament(*args, seed=7, chunk_size=1024, threads=1)
    b = tournament(*args, seed=7, chunk_size=2048, threads=min(2, numba.config.NUMBA_NUM_THREADS))
    for m in a.per_match:
        assert a.per_match[m].tobytes() == b.per_match[m].tobytes()
    assert a.frame.equals(b.frame) and a.differences.equals(b.differences)


def test_summarize_on_known_values():
    """Per-match values in, clustered means and paired differences out."""
    rng = np.random.default_rng(0)
    n = 400
    luck = rng.normal(0, 10, n)                      # the deal's luck, shared by both
    x = np.stack([luck + 1 + rng.normal(0, 1, n), luck + rng.normal(0, 1, n)], axis=1)
    t = summarize("auktsion", ["a", "b"], ["a", "b"], design(2, 4),
                  {"score": x, "win": (x > 0).astype(float)}, "score", {}, 200, 0)
    row = t.differences.iloc[0]
    assert (row["first"], row["second"]) == ("a", "b")
    assert row["diff"] == pytest.approx((x[:, 0] - x[:, 1]).mean())
    assert row["ci_high"] - row["ci_low"] < 0.5    # the shared luck cancels
    assert t.frame.iloc[0]["score_ci_high"] - t.frame.iloc[0]["score_ci_low"] > 1.5


# -- the command line ------------------------------------------------------------------

def test_text_output_shows_design_table_and_differences(capsys):
    code, out, _ = run(capsys, "tournament", "pitch", "strength+greedy", "strength+random",
                       "random+random", "-n", "1024", "--seed", "1", "--no-progress")
    assert code == 0, out
    assert "6 lineups" in out and "directly after every other strategy 3 times" in out
    assert "A = strength+greedy, B = strength+random, C = random+random" in out
    assert "match score [95% CI]" in out and "win share, % [95% CI]" in out and "P(best)" in out
    assert "Holm" in out and "leader: A strength+greedy" in out


def test_json_output_parses(capsys):
    code, out, _ = run(capsys, "tournament", "auktsion", "budget", "value", "random", "-n",
                       "1024", "--json", "--no-progress", "--rule", "players=3")
    assert code == 0
    data = json.loads(out)
    assert data["metric"] == "score" and data["leader"] in ("budget", "value", "random")
    assert data["provenance"]["rules"]["players"] == 3
    assert data["provenance"]["design"]["after_balanced"] is True
    assert len(data["provenance"]["lineups"]) == 6
    assert {r["name"] for r in data["strategies"]} == {"budget", "value", "random"}
    assert {"first", "second", "metric", "diff", "ci_low", "ci_high", "p_value",
            "p_holm"} <= set(data["differences"][0])


def test_out_writes_every_lineup_with_provenance(capsys, tmp_path):
    path = tmp_path / "t.parquet"
    code, out, _ = run(capsys, "tournament", "auktsion", "budget", "random", "-n", "1500",
                       "--seed", "4", "--out", str(path), "--no-progress")
    assert code == 0 and str(path) in out
    table = pq.read_table(path).to_pandas()
    assert list(table.columns[:5]) == ["match", "lineup", "seat", "strategy", "score"]
    assert len(table) == 1500 * 2 * 4
    assert set(table["lineup"]) == {0, 1}
    first = table[(table["lineup"] == 1) & (table["match"] == 0)]
    assert list(first["strategy"].astype(str)) == ["random", "budget", "random", "budget"]
    p = read_provenance(path)
    assert p["command"] == "tournament" and p["seed"] == 4 and p["n"] == 1500
    assert p["lineups"] == [["budget", "random"] * 2, ["random", "budget"] * 2]
    assert p["strategies"][0]["bid"]["policy"] == "budget"
    # the per-match table gives the summary's numbers back
    t = tournament("auktsion", ["budget", "random"], 1500, seed=4)
    budget = table[table["strategy"] == "budget"].groupby("match")["score"].mean()
    assert budget.mean() == pytest.approx(t.frame.set_index("name").loc["budget", "score"])


@pytest.mark.parametrize("argv,message", [
    (["auktsion", "budget", "bidder"], "unknown auktsion policy 'bidder'"),
    (["auktsion", "budget"], "at least two strategies"),
    (["auktsion", "budget", "random", "-n", "0"], "-n 0: give at least 1 match"),
    (["auktsion", "budget", "random", "--rule", "players=5"], "players=5 is out of range"),
    (["auktsion", "budget", "value:multiple=99"], "multiple='99' is out of range"),
    (["chess", "a", "b"], "unknown game 'chess'"),
    (["auktsion", "budget", "random", "--chunk-size", "1000"], "multiple of 1024"),
    (["auktsion", "budget", "random", "--boards", "x.pbn"], "deals its own boards"),
])
def test_bad_input_exits_2_with_a_clear_message(capsys, argv, message):
    code, _, err = run(capsys, "tournament", *argv, "--no-progress")
    assert code == 2
    assert message in err, err


def test_no_strategy_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["tournament", "auktsion"])
    assert e.value.code == 2
    assert "STRATEGY" in capsys.readouterr().err


def test_api_is_exported():
    assert bidlab.tournament is tournament
    assert "tournament" in bidlab.__all__ and "Tournament" in bidlab.__all__


# -- bridge: one strategy per side, on the fixture's boards ------------------------------

def test_bridge_tournament_is_the_team_match_in_points(solved_boards):
    """Two strategies: A North-South at one table and East-West at the other, as
    ``bridge team`` seats them; the paired difference is the team match's mean
    difference of the two tables' North-South scores (in points, not IMPs)."""
    from analysis.bridge import team_match

    t = tournament("bridge", ["natural", "random"], 48, seed=1, bootstrap=200)
    assert t.design.lineups == ((0, 1), (1, 0))
    assert t.provenance["lineups"] == [["natural", "random"] * 2, ["random", "natural"] * 2]
    team = team_match("natural", "random", 48, seed=1, progress=False)
    row = t.differences[t.differences["metric"] == "score"].iloc[0]
    assert row["first"] == "natural"
    assert row["diff"] == pytest.approx((team.score_ns_1 - team.score_ns_2).mean())
    assert "imps_vs_par" in t.per_match


def test_bridge_three_strategies_on_the_command_line(solved_boards, capsys):
    code, out, _ = run(capsys, "tournament", "bridge", "natural", "random", "par", "-n", "48",
                       "--seed", "1", "--no-progress")
    assert code == 0, out
    assert "lineup  NS  EW" in out and "6 lineups; every strategy in every side 2 times" in out


@pytest.mark.parametrize("game, search, playout, rules, n", [
    ("pitch", "strength+pimc", "strength+greedy", {"players": 2}, 2000),
    ("pitch", "strength+pimc", "strength+greedy", {"players": 4}, 2000),
    ("vybory", "expected+pimc", "expected+greedy", {"deals_per_match": 1}, 1000),
])
def test_a_search_policy_beats_its_own_playout_policy(game, search, playout, rules, n):
    """issue 15: pimc at its defaults against greedy, the policy its playouts use, every
    seat in turn on the same deals: ahead on the game's objective with significance."""
    from sim.games import get_game
    t = tournament(game, [search, playout], n, seed=5, rules=rules)
    d = t.differences
    row = d[(d["first"] == search) & (d["metric"] == get_game(game).objective)].iloc[0]
    assert row["ci_low"] > 0 and row["p_holm"] < 0.01, row.to_dict()


def test_a_tournament_on_a_local_dask_cluster_equals_the_local_one():
    """One local cluster serves every lineup, and the results are the same bit for bit."""
    a = tournament("fpsb", ["linear", "random"], 2048, seed=3, chunk_size=1024)
    b = tournament("fpsb", ["linear", "random"], 2048, seed=3, chunk_size=1024, workers=2)
    for m in a.per_match:
        assert np.array_equal(a.per_match[m], b.per_match[m])
    pd.testing.assert_frame_equal(a.frame, b.frame)
    pd.testing.assert_frame_equal(a.differences, b.differences)


def test_a_strategy_given_twice_plays_the_same_moves_issue_35():
    """README: the two copies of a strategy (even a random one) draw the streams of the
    seats they sit in and sit in every seat equally often, so they play the same moves
    in every match: the difference is exactly 0, a check of the design, not noise."""
    from analysis.tournament import tournament
    r = tournament("auktsion", ["random", "random"], 300, seed=4)
    d = r.differences
    assert (d["diff"] == 0).all() and (d["ci_low"] == 0).all() and (d["ci_high"] == 0).all()
