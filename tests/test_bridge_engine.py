"""bridge engine: dealing, double-dummy results against the solver, auctions against the
plain-Python referee (B2-B10), par (B12), the run pipeline and the CLI.

Double-dummy results come from ``tests/data/bridge_dd.json`` (boards of seed 1 solved
once by DDS, ``tests/data/bridge_make_fixture.py``) loaded into a temporary cache; the
solver runs live on two boards only.
"""

import json
from pathlib import Path

import numpy as np
import pytest

from sim.games.bridge import dd as DD
from sim.games.bridge import engine as E
from sim.games.bridge import kernel as K
from sim.games.bridge import referee as REF
from sim.games.bridge.pbn import format_deal, parse_deal

FIXTURE = Path(__file__).parent / "data" / "bridge_dd.json"
BOARDS = json.loads(FIXTURE.read_text())["boards"]
SEED, N = 1, len(BOARDS)


@pytest.fixture(autouse=True)
def dd_cache(tmp_path, monkeypatch):
    """A fresh on-disk cache holding the fixture's boards; solving more than two boards
    in a test is an error (CI stays fast)."""
    monkeypatch.setenv("BIDLAB_DD_CACHE", str(tmp_path / "dd.sqlite"))
    DD.import_json(FIXTURE)
    DD.set_solve_limit(2)
    yield
    DD.set_solve_limit(None)


def _policies(spec):
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    from sim.games.bridge.rules import make
    seats = seat_strategies("bridge", make(), spec)
    return policy_arrays("bridge", seats), seats.labels


def test_fixture_deals_are_bidlabs_deals_b1():
    hands = E.deal(SEED, 0, N)
    assert [format_deal(h) for h in hands] == [b["deal"] for b in BOARDS]
    for h in hands:
        assert np.bitwise_or.reduce(h) == (1 << 52) - 1
        assert [bin(int(x)).count("1") for x in h] == [13] * 4
    # chunking does not change a board
    assert (E.deal(SEED, 5, 7) == hands[5:12]).all()


def test_dd_tricks_equal_the_solver_on_known_deals_b9():
    hands = np.array([parse_deal(BOARDS[i]["deal"]) for i in (0, 7)])
    solved = DD.solve_direct(hands)
    assert solved.tolist() == [BOARDS[0]["dd_table"], BOARDS[7]["dd_table"]]
    one_strain = DD.solve_direct(hands[:1], strains=(4,))
    assert (one_strain[0, :, 4] == solved[0, :, 4]).all() and (one_strain[0, :, :4] == -1).all()


def test_cache_serves_fixture_and_refuses_mass_solving():
    hands = E.deal(SEED, 0, N)
    t = DD.solve(hands)
    assert t.tolist() == [b["dd_table"] for b in BOARDS]
    with pytest.raises(Exception, match="solve limit"):
        DD.solve(E.deal(SEED + 1, 0, 3))
    keys = DD.deal_keys(hands)
    assert len(set(keys)) == N and all(len(k) == 13 for k in keys)


def test_par_from_cache_b12():
    hands = E.deal(SEED, 0, N)
    from sim.games.bridge.rules import make
    tables, par_ns, oracle = E.solve_boards(make(), hands, 0)
    assert par_ns.tolist() == [b["par_ns"] for b in BOARDS]


def _traces(spec, indices=range(N), rules=None):
    from bidlab import api
    return [api.trace("bridge", seed=SEED, index=i, strategies=spec, rules=rules)
            for i in indices]


@pytest.mark.parametrize("spec", [["all=random"], ["all=random:p_bid=0.6,p_double=0.3"],
                                  ["all=random:p_bid=0.9,span=1,p_double=0.5"],
                                  ["all=pass"], ["0=par", "1=random", "2=natural"]])
def test_kernel_agrees_with_referee_b2_b10(spec):
    for t in _traces(spec):
        REF.replay(t)
        assert t["dd_table"] == BOARDS[t["index"]]["dd_table"]
        assert t["par_ns"] == BOARDS[t["index"]]["par_ns"]


def test_referee_catches_tampering():
    t = _traces(["all=random:p_bid=0.6"], [3])[0]
    assert t["contract"] is not None
    bad = dict(t, score_ns=t["score_ns"] + 10)
    with pytest.raises(REF.RefereeError, match="B10"):
        REF.replay(bad)
    bad = dict(t, declarer=(t["declarer"] + 2) % 4)
    with pytest.raises(REF.RefereeError, match="B7"):
        REF.replay(bad)
    bad = dict(t, auction=t["auction"] + ["P"])
    with pytest.raises(REF.RefereeError, match="B5/B6"):
        REF.replay(bad)


def test_passed_out_board_scores_zero_b5():
    t = _traces(["all=pass"], [0])[0]
    assert t["auction"] == ["P"] * 4 and t["contract"] is None and t["score_ns"] == 0


def test_par_oracle_reaches_par_b12():
    policies, labels = _policies(["all=par"])
    hands = E.deal(SEED, 0, N)
    from sim.games.bridge.rules import make
    r = make()
    tables, par_ns, oracle = E.solve_boards(r, hands, 0)
    out, _ = E.auctions(r, policies, labels, SEED, 0, hands, tables, par_ns, oracle)
    assert (out[:, K.B_SCORE_NS] == par_ns).all()


def test_many_random_auctions_are_legal_and_declarer_right_b2_b7():
    """20,000 auctions without scoring, every one replayed by the referee."""
    from sim.games.bridge import core as C
    from sim.games.bridge.rules import make
    policies, labels = _policies(["all=random:p_bid=0.5,span=6,p_double=0.2"])
    hands = E.deal(7, 0, 20000)
    out, calls = E.auctions(make(), policies, labels, 7, 0, hands, log=True)
    texts = [C.call_text(c) for c in range(C.N_CALLS)]
    for m in range(20000):
        auction = [texts[c] for c in calls[m, :out[m, K.B_NCALLS]]]
        r = REF.auction_result(m % 4, auction)
        if r is None:
            assert out[m, K.B_LEVEL] == 0
        else:
            (level, strain, _), doubled, declarer = r
            assert (out[m, K.B_LEVEL], out[m, K.B_STRAIN], out[m, K.B_DOUBLED],
                    out[m, K.B_DECLARER]) == (level, strain, doubled, declarer)


def test_run_is_reproducible_across_threads_and_chunks(threads):
    from bidlab import api
    a = api.simulate("bridge", N, seed=SEED, strategies=["all=random"])
    threads(1)
    b = api.simulate("bridge", N, seed=SEED, strategies=["all=random"])
    pd_a, pd_b = a.seats, b.seats
    assert pd_a.equals(pd_b)
    assert set(pd_a["score_ns"]) and (pd_a["score"].values.reshape(-1, 4)[:, 0]
                                      == pd_a["score_ns"].values.reshape(-1, 4)[:, 0]).all()
    assert not a.game_summary.empty


def test_illegal_call_is_a_clear_error():
    from sim import harness as H
    from sim.errors import IllegalActionError
    from sim.games.bridge import core as C
    err = H.new_errors(3)
    legal = C.legal_mask(C.bid_code(4, 3), 0, 0, 1)
    err[2] = [H.ILLEGAL, 1, 0, 5, C.bid_code(2, 2), legal, 0]  # code, seat, -, call no, call, legal
    with pytest.raises(IllegalActionError, match=r"board 12, call 6: .*'nat'.*2H.*legal: P X 4N"):
        H.check(err, 10, E.explain, ("a", "nat", "c", "d"))


def test_cli_simulate_and_trace(capsys):
    from bidlab.cli import main
    assert main(["simulate", "bridge", "-n", str(N), "--seed", str(SEED), "--strategy",
                 "all=random", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "score_ns" in out and "IMPs" in out and "contract level mix" in out
    assert main(["trace", "bridge", "--seed", str(SEED), "--index", "3", "--check"]) == 0
    t = json.loads(capsys.readouterr().out)
    for key in ("game", "rules", "seed", "index", "board", "dealer", "vulnerability", "hands",
                "auction", "contract", "declarer", "tricks", "score_ns", "dd_table", "par_ns"):
        assert key in t


def test_contract_mix_counts_boards_not_seat_rows():
    """The contract mix is a fact of the table: its denominator is the boards played,
    once each, and the shares of the levels add up to 1 (B5, B6)."""
    import bidlab
    run = bidlab.simulate("bridge", 20, seed=SEED, strategies=["all=natural"])
    mix = run.game_summary[run.game_summary["metric"].str.startswith("contract level mix")]
    assert len(mix) == 5 and (mix["count"] == 20).all() and set(mix["name"]) == {"all"}
    assert abs(mix["value"].sum() - 1) < 1e-12
    seats = run.seats[run.seats["seat"] == 0]
    assert mix.set_index("metric").loc["contract level mix: game", "value"] == \
        pytest.approx(seats["game"].mean())


def test_team_match_is_antisymmetric_and_zero_against_itself():
    from analysis.bridge import team_match
    same = team_match("natural", "natural", N, seed=SEED)
    assert (same.imps == 0).all() and same.imps_per_board == 0
    ab = team_match("natural", "pass", N, seed=SEED)
    ba = team_match("pass", "natural", N, seed=SEED)
    assert (ab.imps == -ba.imps).all()
    assert ab.ci_low <= ab.imps_per_board <= ab.ci_high
    par = team_match("par", "pass", N, seed=SEED)
    assert par.imps_per_board >= 0     # the oracle never loses IMPs to passing out... on average


def test_best_contract_on_cached_boards():
    from analysis.bridge import best_contract
    from sim.games.bridge.deal import Constraints
    hands = parse_deal(BOARDS[0]["deal"])       # every hand fixed: the fixture's board 0
    c = Constraints(fixed=[int(h) for h in hands])
    r = best_contract(c, 0, 4, seed=SEED)
    assert r.tricks.shape == (4, 5) and (r.tricks == np.array(BOARDS[0]["dd_table"][0])).all()
    assert len(r.contracts) == 35 and r.contracts[0]["mean"] >= r.contracts[-1]["mean"]
    made = [x for x in r.contracts if x["p_make"] == 1.0]
    assert all(x["mean"] > 0 for x in made)


def test_cli_bridge_team(capsys):
    from bidlab.cli import main
    assert main(["bridge", "team", "--a", "natural", "--b", "pass", "-n", str(N), "--seed",
                 str(SEED), "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["boards"] == N and r["ci_low"] <= r["imps_per_board"] <= r["ci_high"]


def test_team_match_of_a_strategy_with_itself_is_exactly_even_b11():
    """The same boards at both tables with the same strategy: every board 0 IMPs."""
    from analysis.bridge import team_match
    r = team_match("natural", "natural", N, seed=SEED)
    assert r.boards == N and (r.imps == 0).all() and r.imps_per_board == 0


def test_natural_beats_random_as_a_team_b11():
    """natural against random, each sitting NS at one table and EW at the other on the
    fixture's boards: natural wins IMPs, and the 95% interval excludes 0."""
    from analysis.bridge import team_match
    r = team_match("natural", "random", N, seed=SEED)
    assert r.ci_low > 0, (r.imps_per_board, r.ci_low, r.ci_high)
    assert (r.score_ns_1 - r.score_ns_2 != 0).any()
