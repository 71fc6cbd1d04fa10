"""The double-dummy tables shipped with the code (boards 0..1023 of seed 0,
``sim/games/bridge/solved_seed0.npz``): they are what the solver gives, and runs on
those boards read them instead of solving."""

import numpy as np
import pytest

from sim.games.bridge import dd as DD
from sim.games.bridge import engine as E


def test_the_shipped_tables_are_boards_0_to_1023_of_seed_0():
    with np.load(DD.SOLVED) as f:
        seed, keys, tables = int(f["seed"]), f["keys"], f["tables"]
    assert seed == 0 and keys.shape == (1024, 13) and tables.shape == (1024, 4, 5)
    hands = E.deal(0, 0, 1024)
    assert [bytes(k) for k in keys] == DD.deal_keys(hands)
    assert ((tables >= 0) & (tables <= 13)).all()  # every strain of every declarer solved


@pytest.mark.parametrize("board", [0, 517, 1023])
def test_a_shipped_table_is_what_the_solver_gives(board):
    hands = E.deal(0, board, 1)
    assert (DD.solve_direct(hands)[0] == DD.shipped()[DD.deal_keys(hands)[0]]).all()


def test_runs_on_the_shipped_boards_solve_nothing(tmp_path, monkeypatch):
    from analysis.runs import simulate

    monkeypatch.setenv("BIDLAB_DD_CACHE", str(tmp_path / "dd.sqlite"))
    DD.set_solve_limit(0)  # solving any board is an error
    try:
        run = simulate("bridge", 64, seed=0, strategies=["all=natural"], detail=True)
    finally:
        DD.set_solve_limit(None)
    assert run.completed == 64 and len(DD.cache()) >= 64
    boards = run.table("boards")
    assert (boards["tricks"] >= 0).all()
