"""Runner: reproducibility in any chunking, thread count and on Dask; streaming to
Parquet with provenance; a crash keeps completed chunks."""

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import bidlab
from sim.errors import BidlabError
from sim.games import get_game
from sim.sinks import read_provenance

MIXED = ["0=random", "1=value:multiple=1.5", "2=budget:aggression=1.3"]


def run(n=3 * 1024 + 100, **kw):
    kw.setdefault("strategies", MIXED)
    return bidlab.simulate("auktsion", n, seed=11, detail=True, **kw)


def assert_same(a, b):
    for name in ("seats", "deals", "lots"):
        pd.testing.assert_frame_equal(a.table(name), b.table(name), check_exact=True)
    pd.testing.assert_frame_equal(a.summary, b.summary, check_exact=True)


def test_chunk_size_does_not_change_results():
    assert_same(run(chunk_size=1024), run(chunk_size=4096))


def test_thread_count_does_not_change_results(threads):
    threads(1)
    one = run()
    threads(2)
    assert_same(one, run())


def test_match_is_a_function_of_seed_and_index():
    """Match i of a long run equals match i played alone (trace) and in a late chunk."""
    long = run().table("seats")
    t = bidlab.trace("auktsion", seed=11, index=3000, strategies=MIXED)
    row = long[long["match"] == 3000]
    assert row["score"].tolist() == t["totals"]
    game = get_game("auktsion")
    rules = game.make_rules({})
    seats = bidlab.api.seat_strategies("auktsion", rules, MIXED)
    alone = game.run_chunk(rules, {"bid": (seats.ids("bid"), seats.params("bid"))},
                           seats.labels, 11, 3000, 1)
    assert alone["seats"]["score"].tolist() == t["totals"]


def test_cards_do_not_depend_on_policies():
    """Common random numbers: the same deals whatever the strategies."""
    a = bidlab.trace("auktsion", seed=5, index=2, strategies=["all=passive"])
    b = bidlab.trace("auktsion", seed=5, index=2, strategies=["all=random"])
    assert [d["hands"] for d in a["deals"]] == [d["hands"] for d in b["deals"]]


def test_dask_local_cluster_gives_identical_results():
    local = run(n=2 * 1024 + 7, chunk_size=1024)
    dask = run(n=2 * 1024 + 7, chunk_size=1024, workers=2)
    assert_same(local, dask)


def test_parquet_stream_has_all_rows_and_provenance(tmp_path):
    out = tmp_path / "r.parquet"
    res = bidlab.simulate("auktsion", 2500, seed=3, rules={"players": 3}, out=out,
                          detail=True, chunk_size=1024)
    seats = pq.read_table(out).to_pandas()
    assert len(seats) == 2500 * 3
    assert {"match", "seat", "strategy", "score", "win"} <= set(seats.columns)
    assert pq.ParquetFile(out).num_row_groups == 3
    prov = read_provenance(out)
    assert prov["seed"] == 3 and prov["n"] == 2500 and prov["rules"]["players"] == 3
    assert prov["rules"]["deals_per_match"] == 3  # defaults filled in
    assert prov["strategies"][0]["bid"]["params"] == {"aggression": 2.5, "future_weight": 1.0,
                                                      "shade": 0.8}
    assert prov["version"] == bidlab.__version__
    lots = pq.read_table(tmp_path / "r.lots.parquet").to_pandas()
    assert len(lots) == 2500 * 3 * 12  # 3 deals of 12 lots (no twos with 3 players)
    unsold = lots["buyer"].isna()
    assert (lots["price"].isna() == unsold).all()
    pd.testing.assert_frame_equal(res.seats, seats)


def test_crash_keeps_completed_chunks(tmp_path, monkeypatch):
    game = get_game("auktsion")
    calls = {"n": 0}
    real = game.run_chunk

    def failing(*args, **kw):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("worker died")
        return real(*args, **kw)

    monkeypatch.setattr(type(game), "run_chunk", property(lambda self: failing), raising=False)
    out = tmp_path / "r.parquet"
    with pytest.raises(RuntimeError, match="worker died"):
        bidlab.simulate("auktsion", 5 * 1024, seed=1, out=out, chunk_size=1024)
    seats = pq.read_table(out).to_pandas()
    assert seats["match"].max() == 2 * 1024 - 1 and len(seats) == 2 * 1024 * 4


def test_bad_chunk_size_and_n():
    with pytest.raises(BidlabError, match="multiple of 1024"):
        bidlab.simulate("auktsion", 10, chunk_size=1000)
    with pytest.raises(BidlabError, match="at least 1 match"):
        bidlab.simulate("auktsion", 0)
    with pytest.raises(BidlabError, match="unknown game"):
        bidlab.simulate("pokerr", 10)


def test_summary_interval_covers_mean_and_strategies_are_grouped():
    res = run()
    s = res.summary
    assert set(s["by"]) == {"strategy", "seat"}
    strat = s[s["by"] == "strategy"].set_index("name")
    assert list(strat.index) == ["random", "value:multiple=1.5", "budget:aggression=1.3",
                                 "budget"]
    assert (strat["score_ci_low"] < strat["score"]).all() and (strat["score"] < strat["score_ci_high"]).all()
    seats = res.seats
    by_seat = seats.groupby("seat")["score"].mean().to_numpy()
    assert np.allclose(s[s["by"] == "seat"]["score"].to_numpy(), by_seat)
    assert s[s["by"] == "seat"]["win"].sum() == pytest.approx(1.0)
