"""Run many matches: chunking, seeding, threads, Dask, progress, streaming.

Matches are played in chunks ``[start, start + count)``. A chunk is played by the
game's kernel, with numba threads inside this process, or on a Dask cluster
(``workers`` starts a local one, ``scheduler`` joins an existing one). Completed chunks
reach the sinks strictly in match order, whatever order they finish in, with a bounded
number in flight, so memory stays flat as ``n`` grows. Match ``i`` depends only on
``(seed, i)``, the rules and the policies: results are bitwise identical for any
chunk size, thread count, worker count or machine.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

import numba

from sim.errors import BidlabError
from sim.game import Columns, Policies
from sim.games import get_game

DEFAULT_CHUNK = 1 << 15
BLOCK = 1024
"""Chunk sizes are multiples of this, so reductions over fixed blocks of matches are
the same in any chunking (see ``analysis.summary``)."""


@cache
def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _v
    try:
        return _v("bidlab")
    except PackageNotFoundError:  # running from a source tree
        return "0+unknown"


@dataclass(frozen=True)
class Job:
    """Everything that determines the results of a run, and nothing else."""

    game: str
    rules: dict[str, Any]
    policies: Policies
    labels: tuple[str, ...]
    seed: int
    n: int
    detail: bool = False
    deals: Any = None
    """Imported boards (``Game.boards.read``), one row per match, or None to deal."""

    def chunks(self, chunk_size: int) -> Iterator[tuple[int, int]]:
        for start in range(0, self.n, chunk_size):
            yield start, min(chunk_size, self.n - start)


class Sink(Protocol):
    def add(self, start: int, tables: dict[str, Columns]) -> None: ...


def play_chunk(job: Job, start: int, count: int, threads: int | None = None
               ) -> tuple[str, dict[str, Columns]]:
    """Play one chunk here; returns (package version, tables). Runs on Dask workers too."""
    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    game = get_game(job.game)
    rules = game.make_rules(job.rules)
    extra = {} if job.deals is None else {"deals": job.deals[start:start + count]}
    return version(), game.run_chunk(rules, job.policies, job.labels, job.seed, start, count,
                                     job.detail, **extra)


def check_chunk_size(chunk_size: int) -> int:
    if chunk_size <= 0 or chunk_size % BLOCK:
        raise BidlabError(f"--chunk-size {chunk_size} is not allowed: use a positive multiple of "
                          f"{BLOCK}, e.g. {DEFAULT_CHUNK} (so summaries are identical in every "
                          f"chunking)")
    return chunk_size


def check_threads(threads: int | None, local: bool = True) -> int | None:
    """``threads`` is at least 1 and, where they run on this machine (``local``), at most
    numba's limit here (``NUMBA_NUM_THREADS``, by default the number of cores)."""
    limit = numba.config.NUMBA_NUM_THREADS
    if threads is not None and (threads < 1 or (local and threads > limit)):
        raise BidlabError(f"--threads {threads}: allowed 1..{limit} (at least 1; numba runs at "
                          f"most NUMBA_NUM_THREADS={limit} threads on this machine)")
    return threads


_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")


def check_scheduler(address: str) -> str:
    """A Dask scheduler address of the form ``tcp://host:port`` or ``host:port``, checked
    before any connection is tried."""
    text = str(address).strip()
    scheme, sep, rest = text.rpartition("://")
    if scheme == "inproc" and rest:
        return text
    host, colon, port = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host  # [::1]
    ok = (not sep or scheme in _SCHEMES) and colon and host and not any(c in host for c in "/ ") \
        and port.isdigit() and 1 <= int(port) <= 65535
    if not ok:
        raise BidlabError(f"--scheduler {address!r} is not a Dask scheduler address: write "
                          f"tcp://host:port or host:port, e.g. tcp://10.0.0.5:8786 (port 1..65535)")
    return text


def check_options(chunk_size: int = DEFAULT_CHUNK, threads: int | None = None,
                  workers: int | None = None, scheduler: str | None = None) -> None:
    """Every option of :func:`run`, checked before anything is played or written."""
    check_chunk_size(chunk_size)
    if workers is not None and scheduler is not None:
        raise BidlabError("give either --workers (a local Dask cluster) or --scheduler "
                          "(an existing one), not both")
    if workers is not None and workers < 1:
        raise BidlabError(f"--workers {workers}: give at least 1 worker process")
    if scheduler is not None:
        check_scheduler(scheduler)
    check_threads(threads, local=scheduler is None)


def run(job: Job, sinks: Sequence[Sink], *, chunk_size: int = DEFAULT_CHUNK,
        threads: int | None = None, workers: int | None = None, scheduler: str | None = None,
        progress: bool | None = None) -> int:
    """Play ``job`` and feed every chunk to every sink, in match order.

    Returns the number of matches completed (``job.n`` unless interrupted: then the
    exception propagates after the sinks have received every chunk completed before it).
    ``progress=None`` shows a bar only on a terminal.
    """
    from tqdm.auto import tqdm

    check_options(chunk_size, threads, workers, scheduler)
    bar = tqdm(total=job.n, unit="match", unit_scale=True, disable=None if progress is None
               else not progress, desc=f"{job.game}", leave=False, dynamic_ncols=True)
    done = 0
    try:
        if workers is None and scheduler is None:
            if threads:
                numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
            chunks = (play_chunk(job, s, c) + (s, c) for s, c in job.chunks(chunk_size))
        else:
            chunks = _dask_chunks(job, chunk_size, workers, scheduler, threads)
        for worker_version, tables, start, count in chunks:
            if worker_version != version():
                raise BidlabError(f"a worker runs bidlab {worker_version} but this process runs "
                                  f"{version()}: results would not be reproducible; install the "
                                  f"same version everywhere")
            with signals_held():  # every sink takes the chunk whole, or none of it does
                for sink in sinks:
                    sink.add(start, tables)
                done += count
            bar.update(count)
    finally:
        bar.close()
    return done


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) and SIGTERM until the block ends, then let them act as they
    would have: a stop never falls between writing a chunk and counting it. (Only the
    main thread may set handlers; elsewhere the block runs as it is.)"""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    before = {s: h for s in (signal.SIGINT, signal.SIGTERM)
              if (h := signal.getsignal(s)) is not None}   # None: not set from Python
    for s in before:
        signal.signal(s, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        for s in caught[:1]:
            if callable(before[s]):
                before[s](s, None)
            elif before[s] == signal.SIG_DFL:
                signal.raise_signal(s)


def _distributed():
    try:
        import distributed
    except ImportError:  # pragma: no cover - a dependency
        raise BidlabError("--workers/--scheduler need dask.distributed: pip install "
                          "'dask[distributed]'") from None
    return distributed


@contextmanager
def local_cluster(workers: int, threads: int | None = None) -> Iterator[tuple[str, int]]:
    """A Dask cluster of ``workers`` processes on this machine for the ``with`` block:
    yields its scheduler's address and the numba threads each worker should use
    (``threads``, or this machine's cores shared out, so they do not oversubscribe)."""
    LocalCluster = _distributed().LocalCluster
    if workers < 1:
        raise BidlabError(f"--workers {workers}: give at least 1 worker process")
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    try:
        yield cluster.scheduler_address, threads or max(1, (os.cpu_count() or 1) // workers)
    finally:
        cluster.close()


@contextmanager
def dask_client(workers: int | None, scheduler: str | None,
                threads: int | None = None) -> Iterator[tuple[Any, int | None]]:
    """A Dask client of a local cluster of ``workers`` processes, or of the cluster at
    ``scheduler``, for the ``with`` block; yields it with the numba threads each worker
    should use."""
    if workers is not None:
        with local_cluster(workers, threads) as (address, threads):
            with dask_client(None, address, threads) as pair:
                yield pair
        return
    try:
        client = _distributed().Client(scheduler, timeout="20s")
    except (OSError, ValueError, TypeError) as e:  # refused, timed out, unresolvable
        why = " ".join(str(e).split()) or type(e).__name__
        raise BidlabError(f"--scheduler {scheduler!r}: cannot reach the Dask scheduler "
                          f"({why}); is it running at that address?") from None
    try:
        yield client, threads
    finally:
        client.close()


def _dask_chunks(job: Job, chunk_size: int, workers: int | None, scheduler: str | None,
                 threads: int | None) -> Iterator[tuple[str, dict[str, Columns], int, int]]:
    """Chunks played on a Dask cluster (``workers`` processes of a local one, or the
    cluster at ``scheduler``), yielded in match order with a bounded number of chunks in
    flight."""
    with dask_client(workers, scheduler, threads) as (client, threads):
        yield from _chunks_on(client, job, chunk_size, threads)


def _chunks_on(client, job: Job, chunk_size: int, threads: int | None
               ) -> Iterator[tuple[str, dict[str, Columns], int, int]]:
    """The chunks of ``job`` played by ``client``'s workers, in match order, with at most
    two chunks per worker in flight."""
    as_completed = _distributed().as_completed
    n_workers = max(1, len(client.scheduler_info().get("workers", {})))
    window = 2 * n_workers
    pending = list(job.chunks(chunk_size))
    futures = as_completed()
    chunk_of: dict[str, int] = {}  # future key -> index into pending
    ready: dict[int, tuple[str, dict[str, Columns]]] = {}
    next_chunk = submitted = 0
    while next_chunk < len(pending):
        while submitted < len(pending) and futures.count() + len(ready) < window:
            s, c = pending[submitted]
            f = client.submit(play_chunk, job, s, c, threads, pure=False)
            chunk_of[f.key] = submitted
            futures.add(f)
            submitted += 1
        if next_chunk in ready:
            v, tables = ready.pop(next_chunk)
            yield (v, tables) + pending[next_chunk]
            next_chunk += 1
            continue
        f = next(futures)
        ready[chunk_of.pop(f.key)] = f.result()  # re-raises a worker's exception here
        f.release()
