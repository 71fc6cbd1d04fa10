"""One validated run specification (``analysis.spec.RunSpec``): every entry point that
plays matches refuses the same bad seed, count or thread number with the same message,
before anything is compiled, played or written."""

from __future__ import annotations

import dataclasses

import numba
import pytest

import bidlab
from analysis import spec as S
from analysis.bidev import bid_ev
from analysis.solve import solve
from sim.errors import BidlabError

SITUATION = {"hand": "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H", "money": "36,38,37,39",
             "lot": "7", "price": 3, "high_bidder": 3}

# entry point -> (a call with seed, n and threads where it takes them, what its n counts)
ENTRY_POINTS = {
    "simulate": (lambda seed=0, n=1024, threads=None:
                 bidlab.simulate("fpsb", n, seed=seed, threads=threads), S.MATCHES),
    "trace": (lambda seed=0, n=None, threads=None: bidlab.trace("fpsb", seed=seed), None),
    "tournament": (lambda seed=0, n=1024, threads=None:
                   bidlab.tournament("fpsb", ["linear", "random"], n, seed=seed,
                                     threads=threads), S.MATCHES_PER_LINEUP),
    "compare": (lambda seed=0, n=1024, threads=None:
                bidlab.compare("fpsb", ["players=3"], n, seed=seed), S.MATCHES_PER_VARIANT),
    "bid-EV": (lambda seed=0, n=100, threads=None:
               bid_ev("auktsion", SITUATION, rollouts=n, seed=seed), S.ROLLOUTS),
    "optimize": (lambda seed=0, n=1024, threads=None:
                 bidlab.optimize("fpsb", "linear", n=n, seed=seed), S.TUNING_MATCHES),
    "solve": (lambda seed=0, n=None, threads=None:
              solve("fpsb", seed=seed, threads=threads, iterations=10), None),
}
TAKES_THREADS = ("simulate", "tournament", "solve")


@pytest.fixture(autouse=True)
def nothing_runs(monkeypatch, tmp_path):
    """Any match played or solver made fails the test: the checks come first."""
    def refuse(*a, **k):
        raise AssertionError("played before the check")
    monkeypatch.setattr("sim.runner.run", refuse)
    monkeypatch.setattr("sim.runner.play_chunk", refuse)
    monkeypatch.setattr("analysis.solve.make_solver", refuse)
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path))


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("seed", [-1, 2 ** 64, "7"])
def test_every_entry_point_refuses_a_bad_seed_alike(entry, seed):
    call, _ = ENTRY_POINTS[entry]
    with pytest.raises(BidlabError) as e:
        call(seed=seed)
    assert str(e.value) == f"--seed {seed}: give a whole number in 0..2**64-1"


COUNTED = [name for name, (_, count) in ENTRY_POINTS.items() if count is not None]


@pytest.mark.parametrize("entry", COUNTED)
@pytest.mark.parametrize("n", [0, -3])
def test_every_entry_point_refuses_a_bad_count_in_one_form(entry, n):
    call, count = ENTRY_POINTS[entry]
    with pytest.raises(BidlabError) as e:
        call(n=n)
    plural = count.one if count.least == 1 else count.many
    assert str(e.value) == f"{count.option} {n}: give at least {count.least} {plural}"


def test_the_counts_keep_their_words():
    """The messages the entry points gave before the spec, word for word."""
    assert [str(_refusal(c, 0)) for c in (S.MATCHES, S.MATCHES_PER_LINEUP,
                                          S.MATCHES_PER_VARIANT, S.TUNING_MATCHES,
                                          S.HOLDOUT_MATCHES, S.ROLLOUTS)] == [
        "-n 0: give at least 1 match", "-n 0: give at least 1 match per lineup",
        "-n 0: give at least 1 match per variant", "-n 0: give at least 2 matches",
        "--holdout 0: give at least 2 held-out matches", "--rollouts 0: give at least 2 rollouts"]


def _refusal(count: S.Count, n: int) -> BidlabError:
    with pytest.raises(BidlabError) as e:
        count.check(n)
    return e.value


@pytest.mark.parametrize("entry", TAKES_THREADS)
@pytest.mark.parametrize("threads", [0, 10 ** 6])
def test_every_entry_point_refuses_bad_threads_alike(entry, threads):
    call, _ = ENTRY_POINTS[entry]
    limit = numba.config.NUMBA_NUM_THREADS
    with pytest.raises(BidlabError) as e:
        call(threads=threads)
    assert str(e.value) == (f"--threads {threads}: allowed 1..{limit} (at least 1; numba runs "
                            f"at most NUMBA_NUM_THREADS={limit} threads on this machine)")


def test_the_spec_holds_validated_values_and_defaults():
    spec = S.RunSpec.make("auktsion", 2048, seed=3, rules={"players": 3},
                          strategies=["0=value"], chunk_size=1024, progress=None)
    assert (spec.n, spec.seed, spec.rules["players"], spec.chunk_size) == (2048, 3, 3, 1024)
    assert len(spec.strategies.strategies) == 3 and spec.progress is None
    assert spec.execution() == {"chunk_size": 1024, "threads": None, "workers": None,
                                "scheduler": None, "progress": None}
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.n = 1
    default = S.RunSpec.make("fpsb")
    assert default.n == bidlab.api.get_game("fpsb").default_n
    assert spec.with_strategies(["1=budget"]).strategies != spec.strategies
    with pytest.raises(BidlabError, match="seat '5' does not exist"):
        spec.with_strategies(["5=budget"])
    with pytest.raises(BidlabError, match="--chunk-size 1000"):
        S.RunSpec.make("fpsb", chunk_size=1000)
    with pytest.raises(BidlabError, match="not both"):
        S.RunSpec.make("fpsb", workers=1, scheduler="h:1")
