from pathlib import Path

import numba
import pytest


@pytest.fixture
def threads():
    """Set numba's thread count for one test and restore it afterwards."""
    before = numba.get_num_threads()
    yield numba.set_num_threads
    numba.set_num_threads(before)


BRIDGE_FIXTURE = Path(__file__).parent / "data" / "bridge_dd.json"
"""Boards 0..47 of seed 1, solved once by DDS (``tests/data/bridge_make_fixture.py``)."""


@pytest.fixture
def solved_boards(tmp_path, monkeypatch):
    """A fresh double-dummy cache holding the fixture's boards; solving any other board
    is an error (CI never runs the solver here)."""
    from sim.games.bridge import dd as DD
    monkeypatch.setenv("BIDLAB_DD_CACHE", str(tmp_path / "dd.sqlite"))
    DD.import_json(BRIDGE_FIXTURE)
    DD.set_solve_limit(0)
    yield BRIDGE_FIXTURE
    DD.set_solve_limit(None)
