import numba
import pytest


@pytest.fixture
def threads():
    """Set numba's thread count for one test and restore it afterwards."""
    before = numba.get_num_threads()
    yield numba.set_num_threads
    numba.set_num_threads(before)
