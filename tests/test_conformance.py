"""The checks every game passes, parametrised over every registered game: a game added
to ``sim/games/`` is covered here without a test file of its own.

- a trace replays through the game's plain-Python referee, under random house rules and
  random strategy mixes, and agrees with the seats table of the same match;
- results are bitwise the same in any chunking, on 1 and 2 threads, and on a local
  Dask cluster;
- the seats table has its documented columns, and a run's provenance every rule key;
- an illegal action from a policy is an error naming match, seat, policy and the legal
  actions (policy id ``ILLEGAL_PID`` answers only illegal actions);
- unknown rule keys and out-of-range values are errors naming them;
- the compiled kernel equals the plain-Python reference engine where a game has one;
- a policy's calls do not change when the cards hidden from it change, where a game
  offers such a pair of deals (``Game.hidden_deals``), and the deals as dealt, given
  back, play the same matches.

Bridge plays the 48 boards of ``tests/data/bridge_dd.json`` (seed 1) from a temporary
double-dummy cache and never solves a board.
"""

from __future__ import annotations

import importlib
import inspect
import json
import random
from pathlib import Path

import numpy as np
import pytest

import strategies
from analysis.runs import policy_arrays
from analysis.runs import trace as run_trace
from analysis.spec import make_rules, seat_strategies
from sim import runner
from sim.errors import BidlabError, IllegalActionError, RuleError
from sim.game import ReplayFn, RunChunk, TraceFn
from sim.games import all_games, get_game
from sim.games.bridge import dd as DD
from sim.sinks import MemorySink
from strategies.base import ILLEGAL_PID, VIEW_PID

GAMES = sorted(all_games())
FIXTURE = Path(__file__).parent / "data" / "bridge_dd.json"
SEED = 1
"""The seed of the fixture's bridge boards; every game uses it."""
BRIDGE_BOARDS = 48


@pytest.fixture(autouse=True)
def _boards(solved_boards):
    yield


def _n(game: str, n: int) -> int:
    """``n`` matches, or no more boards than the fixture has."""
    return min(n, BRIDGE_BOARDS) if game == "bridge" else n


def _random_rules(game: str, rng: random.Random) -> dict:
    """House rules drawn at random among the allowed values (each key kept at its
    default half the time); combinations the game refuses are drawn again."""
    g = get_game(game)
    for _ in range(100):
        chosen: dict = {}
        known: dict = {}  # every key so far: chosen or default (later bounds read them)
        for key in g.rule_keys:
            known[key.name] = key.default_for(known)
            if rng.random() < 0.5:
                continue
            if key.kind == "bool":
                chosen[key.name] = rng.choice(["true", "false"])
            elif key.kind == "choice":
                chosen[key.name] = rng.choice(key.choices)
            elif key.allowed:
                chosen[key.name] = rng.choice(key.allowed)
            else:
                lo, hi = (b(known) if callable(b) else b for b in (key.lo, key.hi))
                if key.kind == "float":
                    chosen[key.name] = round(rng.uniform(lo, hi), 3)
                elif key.kind == "int":
                    # long games stay affordable: a game's length grows with these keys
                    chosen[key.name] = rng.randint(lo, min(hi, lo + 20))
                else:
                    chosen[key.name] = ",".join(str(rng.randint(lo, min(hi, 20)))
                                                for _ in range(key.length))
            try:
                known[key.name] = make_rules(game, chosen)[key.name]
            except RuleError:
                chosen.pop(key.name)
        try:
            make_rules(game, chosen)
        except RuleError:
            continue
        return chosen
    raise AssertionError(f"no valid random rules for {game}")


def _random_strategy(game: str, rng: random.Random) -> str:
    """One policy per decision, at random, each parameter at its default or (half the
    time) a value drawn in its bounds (integers capped, so that search stays cheap).
    ``solved`` plays data made for given rules, so it has a test of its own
    (:func:`test_solved_plays_traces_and_replays_under_the_default_rules`)."""
    gs = strategies.for_game(game)
    names, params = [], []
    for decision in gs.decisions:
        policy = rng.choice([p for p in gs.policies if p.decision == decision
                             and p.name != "solved"])
        names.append(policy.name)
        for prm in policy.params:
            if rng.random() < 0.5:
                continue
            if prm.integer:
                value = rng.randint(int(prm.lo), int(min(prm.hi, prm.lo + 16)))
            else:
                value = round(rng.uniform(prm.lo, prm.hi), 3)
            params.append(f"{policy.name}.{prm.name}={value}")
    return "+".join(names) + (":" + ",".join(params) if params else "")


def _mix(game: str, rng: random.Random, rules: dict) -> list[str]:
    n = get_game(game).n_seats(make_rules(game, rules))
    return [f"{s}={_random_strategy(game, rng)}" for s in range(n) if rng.random() < 0.7]


def _setup(game: str, rules: dict | None = None, specs: list[str] | None = None):
    r = make_rules(game, rules or {})
    seats = seat_strategies(game, r, specs)
    return get_game(game), r, seats, policy_arrays(game, seats)


def _same_tables(a: dict, b: dict) -> None:
    assert sorted(a) == sorted(b)
    for name in a:
        assert sorted(a[name]) == sorted(b[name]), name
        for col in a[name]:
            x, y = a[name][col], b[name][col]
            assert np.array_equal(np.ma.getmaskarray(x), np.ma.getmaskarray(y)), (name, col)
            x, y = np.ma.getdata(x), np.ma.getdata(y)
            assert x.dtype == y.dtype and np.array_equal(x, y), (name, col)


def _concat(parts: list[dict]) -> dict:
    out = {}
    for name in parts[0]:
        out[name] = {}
        for col in parts[0][name]:
            values = [p[name][col] for p in parts]
            if any(isinstance(v, np.ma.MaskedArray) for v in values):
                out[name][col] = np.ma.concatenate(values)
            else:
                out[name][col] = np.concatenate(values)
    return out


# -- the interface ------------------------------------------------------------------------

def _parameters(fn) -> list[str]:
    return [p for p in inspect.signature(fn).parameters if p != "self"]


@pytest.mark.parametrize("game", GAMES)
def test_entry_points_have_the_signatures_of_the_game_interface(game):
    g = get_game(game)
    assert _parameters(g.run_chunk) == _parameters(RunChunk.__call__)
    assert _parameters(g.trace) == _parameters(TraceFn.__call__)
    assert _parameters(g.replay) == _parameters(ReplayFn.__call__)
    if g.hidden_deals is not None:  # given deals of the wrong shape are refused, named
        _, r, seats, pol = _setup(game)
        with pytest.raises(BidlabError, match=f"{game} deals: expected 2 rows"):
            g.run_chunk(r, pol, seats.labels, SEED, 0, 2, deals=np.zeros((1, 4), np.int64))


# -- traces and the referee -------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_traces_replay_under_random_rules_and_strategy_mixes(game):
    rng = random.Random(f"conformance {game}")
    g = get_game(game)
    for _ in range(6):
        rules = _random_rules(game, rng)
        specs = _mix(game, rng, rules)
        index = rng.randrange(_n(game, 40))
        t = run_trace(game, seed=SEED, index=index, rules=rules, strategies=specs)
        assert t["game"] == game and t["seed"] == SEED and t["index"] == index
        assert json.loads(json.dumps(t)) == t, "a trace is plain JSON"
        replayed = g.replay(json.loads(json.dumps(t)))
        # the trace, the referee and the seats table tell the same match
        g_, r, seats, pol = _setup(game, rules, specs)
        row = g.run_chunk(r, pol, seats.labels, SEED, index, 1)["seats"]
        assert t["strategies"] == list(seats.labels)
        assert np.allclose(replayed.scores, row["score"]), (rules, specs)
        assert replayed.actions > 0


SOLVED = [g for g in GAMES if get_game(g).abstraction is not None]


@pytest.mark.parametrize("game", SOLVED)
def test_solved_plays_traces_and_replays_under_the_default_rules(game):
    """Every solved game ships a solution for its default rules; ``solved`` plays it in
    every seat, and its traces replay under the referee like any policy's."""
    spec = ["all=solved"]
    t = run_trace(game, seed=SEED, index=3, strategies=spec)
    replayed = get_game(game).replay(json.loads(json.dumps(t)))
    g, r, seats, pol = _setup(game, None, spec)
    row = g.run_chunk(r, pol, seats.labels, SEED, 3, 1)["seats"]
    assert np.allclose(replayed.scores, row["score"])


# -- invariance ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_results_do_not_depend_on_chunks_or_threads(game, threads):
    g, r, seats, pol = _setup(game, specs=None)
    n = _n(game, 300)
    threads(1)
    whole = g.run_chunk(r, pol, seats.labels, SEED, 0, n, True)
    cut = [7, n // 3, n - 7 - n // 3]  # uneven chunks, one of them tiny
    starts = np.concatenate([[0], np.cumsum(cut)[:-1]])
    parts = [g.run_chunk(r, pol, seats.labels, SEED, int(s), int(c), True)
             for s, c in zip(starts, cut)]
    _same_tables(whole, _concat(parts))
    threads(2)
    _same_tables(whole, g.run_chunk(r, pol, seats.labels, SEED, 0, n, True))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A local Dask cluster of two worker processes, shared by the games; the workers
    read the bridge boards from their own copy of the fixture's cache."""
    distributed = pytest.importorskip("distributed")
    import os
    cache = tmp_path_factory.mktemp("dd") / "dd.sqlite"
    before = os.environ.get("BIDLAB_DD_CACHE")
    os.environ["BIDLAB_DD_CACHE"] = str(cache)
    DD.import_json(FIXTURE)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
        yield c.scheduler_address
    if before is None:
        del os.environ["BIDLAB_DD_CACHE"]
    else:
        os.environ["BIDLAB_DD_CACHE"] = before


@pytest.mark.parametrize("game", GAMES)
def test_a_dask_cluster_plays_the_same_matches(game, cluster):
    g, r, seats, pol = _setup(game)
    n = _n(game, 3 * runner.BLOCK)
    job = runner.Job(game, r.to_json(), pol, seats.labels, SEED, n, detail=True)
    local, remote = MemorySink(seats.labels), MemorySink(seats.labels)
    runner.run(job, [local], chunk_size=runner.BLOCK, progress=False)
    runner.run(job, [remote], chunk_size=runner.BLOCK, scheduler=cluster, progress=False)
    assert local.names() == remote.names()
    for name in local.names():
        assert local.table(name).equals(remote.table(name)), name


# -- tables and provenance ----------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_seats_table_and_provenance(game):
    import bidlab
    g = get_game(game)
    n = _n(game, 40)
    run = bidlab.simulate(game, n, seed=SEED)
    seats = run.seats
    assert list(seats.columns[:5]) == ["match", "seat", "strategy", "score", "win"]
    n_seats = g.n_seats(make_rules(game))
    assert len(seats) == n * n_seats
    assert (seats.groupby("match").size() == n_seats).all()
    assert sorted(seats["match"].unique()) == list(range(n))
    assert seats["win"].between(0, 1).all()
    p = run.provenance
    assert p["game"] == game and p["seed"] == SEED and p["n"] == n and p["version"]
    assert sorted(p["rules"]) == sorted(k.name for k in g.rule_keys)
    assert [s["seat"] for s in p["strategies"]] == list(range(n_seats))
    assert set(g.tables) >= {"seats"}


# -- errors -------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_action_names_match_seat_policy_and_the_legal_actions(game):
    g, r, seats, pol = _setup(game)
    decision = strategies.for_game(game).decisions[0]
    ids, params = pol[decision]
    cheat = {**pol, decision: (np.where(np.arange(len(ids)) == 1, ILLEGAL_PID, ids), params)}
    labels = tuple("cheat" if s == 1 else label for s, label in enumerate(seats.labels))
    with pytest.raises(IllegalActionError) as e:
        g.run_chunk(r, cheat, labels, SEED, 5, 3)
    msg = str(e.value)
    assert any(f"{unit} 5" in msg for unit in ("match", "game", "board")), msg
    assert "seat 1" in msg and "'cheat'" in msg and "legal" in msg, msg


@pytest.mark.parametrize("game", GAMES)
def test_bad_rule_keys_and_values_name_them(game):
    g = get_game(game)
    with pytest.raises(RuleError) as e:
        make_rules(game, {"no_such_key": 1})
    assert "no_such_key" in str(e.value)
    assert all(k.name in str(e.value) for k in g.rule_keys)
    defaults = make_rules(game)
    for key in g.rule_keys:
        if key.kind == "bool":
            bad = "maybe"
        elif key.kind == "choice":
            bad = "no_such_choice"
        elif key.kind in ("int", "float") and not key.allowed:
            hi = key.hi(defaults) if callable(key.hi) else key.hi
            bad = hi + 1
        elif key.allowed:
            bad = max(key.allowed) + 1
        else:
            bad = "x"
        with pytest.raises(RuleError) as e:
            make_rules(game, {key.name: bad})
        assert key.name in str(e.value) and str(bad) in str(e.value), str(e.value)


# -- the kernel against the plain-Python reference ---------------------------------------

def _reference(game: str):
    try:
        return importlib.import_module(f"sim.games.{game}.reference")
    except ModuleNotFoundError:
        return None


@pytest.mark.parametrize("game", [g for g in GAMES if _reference(g) is not None])
def test_the_kernel_equals_the_reference_engine(game):
    ref = _reference(game)
    rng = random.Random(f"reference {game}")
    g = get_game(game)
    for _ in range(3):
        rules = _random_rules(game, rng)
        specs = _mix(game, rng, rules)
        _, r, seats, pol = _setup(game, rules, specs)
        for index in rng.sample(range(50), 2):
            assert ref.play(r, seats, SEED, index) == g.trace(r, pol, seats.labels, SEED, index)


# -- information ---------------------------------------------------------------------------

VIEW_BOARDS = 8
"""Bridge boards of the hidden-card check: each changed board costs a double-dummy solve
(about 0.15 s of a core), two per board (its hidden cards changed, and its own)."""


def _view_check(game: str, first_policy: str | None = None, own: bool = True):
    """The hidden-card check's matches: (seat 0's compared columns as dealt, with the
    cards hidden from seat 0 changed, with seat 0's own cards changed (``own``; else
    None)). Seat 0 plays
    the view probe (``first_policy``: that policy of the first decision instead), the
    others ``Game.blind``, under ``Game.view_rules``."""
    g = get_game(game)
    _, r, seats, pol = _setup(game, dict(g.view_rules), specs=[f"all={g.blind}"])
    decision = strategies.for_game(game).decisions[0]
    ids, params = pol[decision]
    pid = VIEW_PID
    if first_policy is not None:
        pid = next(p.pid for p in strategies.for_game(game).policies
                   if p.decision == decision and p.name == first_policy)
    probe = {**pol, decision: (np.where(np.arange(len(ids)) == 0, pid, ids), params)}
    count = VIEW_BOARDS if game == "bridge" else 40
    pairs = [g.hidden_deals(r, SEED, i, 0) for i in range(count)]
    same, hidden_changed = (np.concatenate([p[k] for p in pairs]) for k in (0, 1))
    assert not np.array_equal(same, hidden_changed)
    DD.set_solve_limit(count)  # bridge: the changed boards, one run_chunk at a time

    def seat0(deals):
        t = g.run_chunk(r, probe, seats.labels, SEED, 0, count, deals=deals)["seats"]
        at0 = np.asarray(t["seat"]) == 0
        return {k: np.ma.getdata(v)[at0] for k, v in t.items()
                if k not in ("match", "seat") and (not g.view_columns or k in g.view_columns)}

    if not own:
        return seat0(same), seat0(hidden_changed), None
    own_changed = np.concatenate([g.hidden_deals(r, SEED, i, 1)[1] for i in range(count)])
    return seat0(same), seat0(hidden_changed), seat0(own_changed)


def _moved(a: dict, b: dict) -> np.ndarray:
    """Per match, whether any compared column differs."""
    moved = np.zeros(len(next(iter(a.values()))), bool)
    for col, values in b.items():
        moved |= values != a[col]
    return moved


PEEKERS = {"bridge": "par"}
"""A policy of the first decision that sees hidden cards by design (bridge's cheating
oracle, which bids from the double-dummy result of all four hands): in the probe's seat
it fails the check, which shows that the check can fail."""


@pytest.mark.parametrize("game", GAMES)
def test_a_policy_sees_nothing_of_the_cards_hidden_from_it(game):
    """Seat 0 plays the view probe (``VIEW_PID``: its calls hash everything it is shown),
    the others ``Game.blind`` (so that their calls tell nothing of their cards). Dealt the
    same match twice, with the cards hidden from seat 0 changed, it plays the same:
    every figure of its row is equal (``Game.view_columns`` where play shows cards).
    Dealt one in which its own cards change, it does not: the probe does see its view.
    A policy that peeks (``PEEKERS``) plays otherwise on the same pairs."""
    g = get_game(game)
    if g.hidden_deals is None:
        pytest.skip(f"{game} offers no pair of deals that differ only in hidden cards yet")
    base, hidden, own = _view_check(game)
    _same_tables({"t": base}, {"t": hidden})
    assert _moved(base, own).mean() > 0.5, "the probe's calls do not follow its own cards"
    if game in PEEKERS:  # the same boards: bridge solves none again
        base, hidden, _ = _view_check(game, first_policy=PEEKERS[game], own=False)
        assert _moved(base, hidden).any(), f"{PEEKERS[game]} peeks, yet passes the check"


@pytest.mark.parametrize("game", GAMES)
def test_the_deals_as_dealt_play_the_matches_dealt_from_the_seed(game):
    """``hidden_deals``'s first deal is the match as dealt: given back as ``deals=``, it
    plays the very match that ``(seed, i)`` deals, every table and column equal."""
    g = get_game(game)
    if g.hidden_deals is None:
        pytest.skip(f"{game} offers no pair of deals that differ only in hidden cards yet")
    _, r, seats, pol = _setup(game)
    count = 30
    dealt = np.concatenate([g.hidden_deals(r, SEED, i, 0)[0] for i in range(count)])
    _same_tables(g.run_chunk(r, pol, seats.labels, SEED, 0, count, True),
                 g.run_chunk(r, pol, seats.labels, SEED, 0, count, True, deals=dealt))
