"""The distributed engine, for real: a Dask scheduler and two workers started with
Dask's own command line, a ``bidlab simulate --scheduler`` run, one worker killed with
SIGKILL in the middle of it; the run must still finish, and its table must be bitwise
equal to a local run of the same job."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numba
import pandas as pd
import pytest

distributed = pytest.importorskip("distributed")

BIN = Path(sys.executable).parent
CHUNK = 1024
CHUNKS = 128
"""Chunks in the run. With every seat random and 16 deals a match a chunk is ~50 ms of
work on one core, so the run lasts several seconds; the kill comes after KILL_AFTER."""
KILL_AFTER = 2
"""Completed chunks before the kill (a worker's first chunk compiles or loads the kernel)."""
JOB = ["auktsion", "-n", str(CHUNKS * CHUNK), "--seed", "3", "--chunk-size", str(CHUNK),
       "--strategy", "all=random", "--rule", "deals_per_match=16", "--no-progress"]
TIMEOUT = 180
"""Bound on each wait that may include compiling the kernel (another edit of sim/ or
strategies/ makes a fresh cache)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args: list[str], log: Path) -> subprocess.Popen:
    """A process leading its own process group (so killpg takes its children too), its
    output in ``log``, Dask's scratch files next to it."""
    env = dict(os.environ, DASK_TEMPORARY_DIRECTORY=str(log.parent))
    with open(log, "wb") as f:
        return subprocess.Popen(args, stdout=f, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, env=env, start_new_session=True)


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - unkillable
        pass


def _logs(tmp: Path) -> str:
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
                     for p in sorted(tmp.glob("*.log")))


def _wait(what: str, cond, timeout: float, tmp: Path, interval: float = 0.05):
    """Poll ``cond`` until it returns something true (returned), failing after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}\n{_logs(tmp)}")
        time.sleep(interval)


def _bidlab_simulate(args: list[str], tmp: Path, name: str) -> subprocess.Popen:
    return _start([str(BIN / "bidlab"), "simulate", *args], tmp / f"{name}.log")


@pytest.fixture
def dask_cluster(tmp_path):
    """A scheduler and two one-thread workers on 127.0.0.1, each a separate process
    group. Yields (address, {pid of a `dask worker` process: its Popen}, a client);
    every process it started is killed afterwards, whatever happened."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = str(BIN / "dask")
    procs: list[subprocess.Popen] = []
    client = None
    try:
        # --idle-timeout and --death-timeout: a safety net should this process die hard
        procs.append(_start([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                             "--no-dashboard", "--idle-timeout", "600s"],
                            tmp_path / "scheduler.log"))
        workers = {}
        for i in range(2):
            w = _start([dask, "worker", address, "--nthreads", "1", "--nworkers", "1",
                        "--no-dashboard", "--host", "127.0.0.1", "--name", f"w{i}",
                        "--death-timeout", "60s"], tmp_path / f"worker{i}.log")
            procs.append(w)
            workers[w.pid] = w

        def connect():
            nonlocal client
            if procs[0].poll() is not None:
                pytest.fail(f"the scheduler exited ({procs[0].returncode})\n{_logs(tmp_path)}")
            try:
                client = distributed.Client(address, timeout="2s")
            except OSError:
                return None
            return client

        _wait("the scheduler", connect, 60, tmp_path, interval=0.2)
        _wait("two workers", lambda: len(client.scheduler_info(n_workers=-1)["workers"]) == 2,
              60, tmp_path, interval=0.1)
        yield address, workers, client
    finally:
        if client is not None:
            client.close(timeout=5)
        for p in reversed(procs):
            _kill(p)


def _progress(client) -> dict:
    """Chunks completed so far (cumulative), chunks the scheduler counted as lost with a
    dead worker, and chunks assigned to each live worker (by the worker's pid)."""
    def on_scheduler(dask_scheduler):
        tp = dask_scheduler.task_prefixes.get("play_chunk")
        return {"done": tp.state_counts["memory"] if tp else 0,
                "suspicious": tp.suspicious if tp else 0,
                "processing": {ws.pid: len(ws.processing)
                               for ws in dask_scheduler.workers.values()}}
    return client.run_on_scheduler(on_scheduler)


def test_run_survives_a_killed_worker_and_equals_a_local_run(dask_cluster, tmp_path):
    address, workers, client = dask_cluster

    # The local run first: it also leaves the compiled kernel in the disk cache.
    t = time.monotonic()
    two = str(min(2, numba.config.NUMBA_NUM_THREADS))  # --threads above the machine's is refused
    local = _bidlab_simulate(JOB + ["--threads", two, "--out", str(tmp_path / "local.parquet")],
                             tmp_path, "local")
    try:
        assert local.wait(timeout=TIMEOUT) == 0, _logs(tmp_path)
    finally:
        _kill(local)
    t_local = time.monotonic() - t

    run = _bidlab_simulate(JOB + ["--threads", "1", "--scheduler", address,
                                  "--out", str(tmp_path / "dask.parquet")], tmp_path, "dask")
    try:
        t0 = time.monotonic()

        def busy_worker():
            if run.poll() is not None:
                pytest.fail(f"the Dask run ended ({run.returncode}) before the kill: make the "
                            f"job longer\n{_logs(tmp_path)}")
            p = _progress(client)
            if p["done"] < KILL_AFTER:
                return None
            # a worker with chunks in hand, so the kill loses work in flight
            victims = [pid for pid, n in p["processing"].items() if n]
            return (p, victims[0]) if victims else None

        seen, victim_pid = _wait(f"{KILL_AFTER} completed chunks", busy_worker, TIMEOUT,
                                 tmp_path, interval=0.02)
        victim = workers[os.getpgid(victim_pid)]  # its `dask worker` process leads the group
        _kill(victim)
        t_kill = time.monotonic() - t0
        assert run.poll() is None, f"the run finished before the kill\n{_logs(tmp_path)}"
        assert seen["done"] < CHUNKS // 2, f"the kill came late ({seen}): make the job longer"

        # the scheduler noticed; the chunks the dead worker had went back in the queue
        # ("suspicious"; almost always 1 or 2, but 0 if it had just finished its last one)
        def dropped():
            p = _progress(client)
            return p if victim_pid not in p["processing"] else None

        after = _wait("the scheduler to drop the killed worker", dropped, 30, tmp_path)
        assert len(after["processing"]) == 1, after

        assert run.wait(timeout=TIMEOUT) == 0, _logs(tmp_path)
        t_run = time.monotonic() - t0
    finally:
        _kill(run)
    print(f"\nlocal run {t_local:.1f} s; Dask run {t_run:.1f} s, worker killed at {t_kill:.1f} s "
          f"after {seen['done']} chunks, {after['suspicious']} chunks rescheduled")

    expected = pd.read_parquet(tmp_path / "local.parquet")
    got = pd.read_parquet(tmp_path / "dask.parquet")
    assert len(expected) == CHUNKS * CHUNK * 4  # a row per match and seat
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    for column in expected.columns:  # bitwise, not just equal values (-0.0, NaN payloads)
        a, b = got[column], expected[column]
        if isinstance(b.dtype, pd.CategoricalDtype):
            assert list(a.cat.categories) == list(b.cat.categories), column
            a, b = a.cat.codes, b.cat.codes
        assert a.to_numpy().tobytes() == b.to_numpy().tobytes(), column
