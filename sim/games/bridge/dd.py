"""Double-dummy results: an exact solver behind a persistent on-disk cache.

The solver is Bo Haglund's DDS through the maintained ``endplay`` binding
(``endplay.dds.calc_all_tables``: DDS's ``CalcAllTables``, which runs boards on all
cores; at most 200 strain-tables per call, so 40 full boards or more boards when only
some strains are wanted). Solving dominates everything else by orders of magnitude
(about 0.3 s of CPU per full table, with a heavy tail), so:

- every result is cached on disk in one SQLite file shared by every run on the machine
  (``$BIDLAB_DD_CACHE``, default ``<bidlab cache dir>/bridge/dd.sqlite``), keyed by the
  deal (13 bytes: the owner of each card, 2 bits each) with one value per declarer and
  strain, so any number of strategies and house variants on the same boards cost one
  solve per board and a rerun costs none;
- the boards of the default seed most runs use (boards 0..1023 of seed 0) ship solved
  (``solved_seed0.npz``, made by ``make_solved.py``) and are read before solving;
- only missing (deal, strain) pairs are solved, in full batches, with a progress bar
  and an ETA on a terminal;
- par (B12) comes from DDS's par function on the cached table, itself cached per
  (deal, dealer, vulnerability).

On a Dask cluster (``--workers``/``--scheduler``) each worker solves the boards of the
chunks it plays, into the same cache file when the workers share a machine.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path

import numpy as np

from sim.errors import BidlabError

BATCH_STRAINS = 200
"""DDS's limit of strain-tables per CalcAllTables call."""
_ENDPLAY_DENOM = (3, 2, 1, 0, 4)
"""endplay's Denom code of our strain C D H S N (endplay orders S H D C N)."""
_VUL_ENDPLAY = {0: "none", 1: "ns", 2: "ew", 3: "both"}

SOLVED = Path(__file__).with_name("solved_seed0.npz")
"""Full tables of boards 0..1023 of seed 0, shipped with the code (see ``make_solved.py``)."""

_lock = threading.Lock()
_solve_limit: int | None = None
_shipped: dict[bytes, np.ndarray] | None = None


def set_solve_limit(limit: int | None) -> None:
    """Refuse to solve more than ``limit`` boards in one call (tests: CI must solve only
    a handful); None lifts the limit."""
    global _solve_limit
    _solve_limit = limit


def check_solve_limit(count: int) -> None:
    """Raise when ``count`` boards to solve exceed the limit of ``set_solve_limit``
    (callers that solve in several batches check their total first)."""
    if _solve_limit is not None and count > _solve_limit:
        raise BidlabError(f"{count} boards need solving but the solve limit is "
                          f"{_solve_limit} (tests solve only a handful of boards)")


def cache_path() -> Path:
    explicit = os.environ.get("BIDLAB_DD_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("BIDLAB_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "bidlab")
    return Path(base) / "bridge" / "dd.sqlite"


def shipped() -> dict[bytes, np.ndarray]:
    """The tables of :data:`SOLVED` by deal key (empty if the file is missing)."""
    global _shipped
    if _shipped is None:
        _shipped = {}
        if SOLVED.exists():
            with np.load(SOLVED) as f:
                _shipped = {bytes(k): t for k, t in zip(f["keys"], f["tables"])}
    return _shipped


def deal_keys(hands: np.ndarray) -> list[bytes]:
    """13-byte keys of deals given as ``(boards, 4)`` 52-bit masks: card ``c``'s owner in
    bits ``2 * (c % 4)`` of byte ``c // 4``."""
    hands = np.asarray(hands, dtype=np.int64)
    cards = np.arange(52, dtype=np.int64)
    owner = np.zeros((hands.shape[0], 52), dtype=np.uint8)
    for s in range(4):
        owner += (((hands[:, s:s + 1] >> cards) & 1) * s).astype(np.uint8)
    packed = (owner.reshape(-1, 13, 4) << np.array([0, 2, 4, 6], dtype=np.uint8)).sum(
        axis=2, dtype=np.uint8)
    return [bytes(row) for row in packed]


def pbn(hands_row) -> str:
    """PBN deal string ``N:S.H.D.C E... S... W...`` of one board."""
    from sim.games.bridge.pbn import format_deal
    return format_deal(hands_row)


class Cache:
    """The SQLite store (WAL mode: many readers, one writer at a time, safe across the
    processes of a local Dask cluster)."""

    def __init__(self, path: Path | str | None = None):
        self.path = Path(path) if path is not None else cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=60, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS dd (deal BLOB PRIMARY KEY, tricks BLOB)")
        self.db.execute("CREATE TABLE IF NOT EXISTS par (deal BLOB, kind INTEGER, score "
                        "INTEGER, level INTEGER, strain INTEGER, declarer INTEGER, doubled "
                        "INTEGER, PRIMARY KEY (deal, kind))")
        self.db.commit()

    def get(self, keys: list[bytes]) -> dict[bytes, np.ndarray]:
        """Cached tricks (int8[4, 5], -1 where a strain is not solved) of ``keys``."""
        out: dict[bytes, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        for i in range(0, len(unique), 900):
            part = unique[i:i + 900]
            q = f"SELECT deal, tricks FROM dd WHERE deal IN ({','.join('?' * len(part))})"
            for deal, tricks in self.db.execute(q, part):
                out[deal] = np.frombuffer(tricks, dtype=np.int8).reshape(4, 5)
        return out

    def put(self, items: dict[bytes, np.ndarray]) -> None:
        with _lock:
            old = self.get(list(items))
            rows = []
            for k, t in items.items():
                t = np.asarray(t, dtype=np.int8).copy()
                if k in old:
                    t = np.where(t >= 0, t, old[k])
                rows.append((k, t.tobytes()))
            self.db.executemany("INSERT OR REPLACE INTO dd VALUES (?, ?)", rows)
            self.db.commit()

    def get_par(self, keys: list[bytes], kinds: list[int]) -> dict[tuple[bytes, int], tuple]:
        out = {}
        pairs = list(dict.fromkeys(zip(keys, kinds)))
        for i in range(0, len(pairs), 400):
            part = pairs[i:i + 400]
            q = ("SELECT deal, kind, score, level, strain, declarer, doubled FROM par WHERE "
                 + " OR ".join(["(deal = ? AND kind = ?)"] * len(part)))
            for row in self.db.execute(q, [x for pair in part for x in pair]):
                out[(row[0], row[1])] = tuple(row[2:])
        return out

    def put_par(self, rows: list[tuple]) -> None:
        with _lock:
            self.db.executemany("INSERT OR REPLACE INTO par VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            self.db.commit()

    def __len__(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM dd").fetchone()[0]


_caches: dict[Path, Cache] = {}


def cache() -> Cache:
    path = cache_path()
    if path not in _caches:
        _caches[path] = Cache(path)
    return _caches[path]


def _endplay():
    try:
        from endplay import dds, types
    except ImportError:  # pragma: no cover - a dependency
        raise BidlabError("double-dummy play needs the endplay package (DDS): "
                          "pip install endplay") from None
    return dds, types


def solve_direct(hands: np.ndarray, strains: tuple[int, ...] = (0, 1, 2, 3, 4),
                 progress: bool | None = False, batch: int | None = None,
                 times: list | None = None) -> np.ndarray:
    """Solve every board of ``hands`` (no cache): int8 ``(boards, 4, 5)``, -1 for
    strains not asked. Batches fill DDS's 200 strain-tables per call (``batch``: boards
    per call). ``times`` receives ``(boards, seconds)`` per solver call (benchmarks:
    with ``batch=1``, the time of each board)."""
    dds, types = _endplay()
    from tqdm.auto import tqdm
    hands = np.asarray(hands, dtype=np.int64)
    n = hands.shape[0]
    out = np.full((n, 4, 5), -1, dtype=np.int8)
    if n == 0:
        return out
    strains = tuple(sorted(set(strains)))
    exclude = [types.Denom(_ENDPLAY_DENOM[s]) for s in range(5) if s not in strains]
    size = batch or max(1, BATCH_STRAINS // len(strains))
    deals = [types.Deal.from_pbn(pbn(hands[i])) for i in range(n)]
    bar = tqdm(total=n, unit="board", desc="double-dummy", leave=False, dynamic_ncols=True,
               disable=None if progress is None else not progress)
    try:
        for i in range(0, n, size):
            t0 = time.perf_counter()
            tables = dds.calc_all_tables(deals[i:i + size], exclude=exclude)
            if times is not None:
                times.append((len(tables), time.perf_counter() - t0))
            for j, table in enumerate(tables):
                for seat in range(4):
                    for s in strains:
                        out[i + j, seat, s] = table[types.Player(seat),
                                                    types.Denom(_ENDPLAY_DENOM[s])]
            bar.update(len(tables))
    finally:
        bar.close()
    return out


def solve(hands: np.ndarray, strains: tuple[int, ...] = (0, 1, 2, 3, 4),
          progress: bool | None = False, store: Cache | None = None,
          times: list | None = None) -> np.ndarray:
    """Double-dummy tricks ``(boards, 4, 5)`` int8 (declarer seat, strain C D H S N) of
    ``hands`` for ``strains`` (others -1 unless cached): from the cache, solving only the
    missing boards and strains, which are then cached (``times``: see
    :func:`solve_direct`)."""
    store = store if store is not None else cache()
    hands = np.asarray(hands, dtype=np.int64)
    keys = deal_keys(hands)
    found = store.get(keys)
    known = {k: shipped()[k] for k in keys if k not in found and k in shipped()}
    if known:
        store.put(known)
        found.update(known)
    out = np.full((len(keys), 4, 5), -1, dtype=np.int8)
    want = list(strains)
    missing: dict[bytes, int] = {}
    for i, k in enumerate(keys):
        t = found.get(k)
        if t is not None:
            out[i] = t
        if t is None or (t[:, want] < 0).any():
            missing.setdefault(k, i)
    if missing:
        check_solve_limit(len(missing))
        rows = list(missing.values())
        solved = solve_direct(hands[rows], strains, progress=progress, times=times)
        store.put({keys[r]: solved[j] for j, r in enumerate(rows)})
        index = {keys[r]: j for j, r in enumerate(rows)}
        for i, k in enumerate(keys):
            if k in index:
                new = solved[index[k]]
                out[i] = np.where(new >= 0, new, out[i])
    return out


def par(hands: np.ndarray, tables: np.ndarray, dealers: np.ndarray, vuls: np.ndarray,
        store: Cache | None = None) -> tuple[np.ndarray, np.ndarray]:
    """B12: par score for North-South (int32) and a par contract per board (int64
    ``(boards, 4)``: level (0 passed out), strain, declarer, doubled), by DDS's par
    function for the board's dealer and vulnerability, cached."""
    store = store if store is not None else cache()
    keys = deal_keys(hands)
    kinds = [int(d) * 4 + int(v) for d, v in zip(dealers, vuls)]
    found = store.get_par(keys, kinds)
    score = np.zeros(len(keys), dtype=np.int32)
    contract = np.zeros((len(keys), 4), dtype=np.int64)
    new = []
    dds = types = None
    for i, (k, kind) in enumerate(zip(keys, kinds)):
        row = found.get((k, kind))
        if row is None:
            if dds is None:
                dds, types = _endplay()
            row = _par_one(dds, types, tables[i], kind // 4, kind % 4)
            found[(k, kind)] = row
            new.append((k, kind) + row)
        score[i] = row[0]
        contract[i] = row[1:]
    if new:
        store.put_par(new)
    return score, contract


def _par_one(dds, types, table: np.ndarray, dealer: int, vul: int) -> tuple:
    if (table < 0).any():
        raise BidlabError("par needs the full double-dummy table (all five strains)")
    from endplay import _dds
    from endplay.dds.ddtable import DDTable
    data = _dds.ddTableResults()
    for s in range(5):
        for seat in range(4):
            data.resTable[_ENDPLAY_DENOM[s]][seat] = int(table[seat, s])
    t = DDTable(data)
    result = dds.par(t, getattr(types.Vul, _VUL_ENDPLAY[vul]), types.Player(dealer))
    contracts = list(result)
    if not contracts or result.score == 0:
        return (0, 0, 0, -1, 0)
    c = contracts[0]
    strain = _ENDPLAY_DENOM.index(int(c.denom))
    doubled = {1: 0, 2: 1, 4: 2}[int(c.penalty)]
    return (int(result.score), int(c.level), strain, int(c.declarer), doubled)


def import_json(path, store: Cache | None = None) -> int:
    """Load solved boards from a JSON file (``{"boards": [{"deal": PBN, "dd_table":
    4x5, "dealer", "vul", "par_ns", "par_contract"}, ...]}``, as
    ``tests/data/bridge_make_fixture.py`` writes) into the cache; returns the count."""
    import json

    from sim.games.bridge.pbn import parse_deal
    store = store if store is not None else cache()
    boards = json.loads(Path(path).read_text())["boards"]
    hands = np.array([parse_deal(b["deal"]) for b in boards], dtype=np.int64).reshape(-1, 4)
    keys = deal_keys(hands)
    store.put({k: np.array(b["dd_table"], dtype=np.int8) for k, b in zip(keys, boards)})
    rows = [(k, b["dealer"] * 4 + b["vul"], b["par_ns"], *b["par_contract"])
            for k, b in zip(keys, boards) if "par_ns" in b]
    store.put_par(rows)
    return len(boards)
