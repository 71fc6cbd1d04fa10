"""Where chunks go: Parquet files (streamed, one row group per chunk) or memory.

Provenance (game, every rule value, strategies with parameters, seed, n, version) is
stored in each Parquet file's metadata under the key ``bidlab``; read it back with
:func:`read_provenance`, which adds ``complete`` and ``matches`` (what the file holds).
A run that stops early (an error, Ctrl-C, SIGTERM) closes its files properly, so every
chunk completed before the stop is readable, and marks them incomplete.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.errors import BidlabError
from sim.game import Columns

PROVENANCE_KEY = b"bidlab"
STATUS_KEY = b"bidlab_status"
"""``{"complete": bool, "matches": int}``, written when a results file is closed."""


def to_arrow(columns: Columns, labels: tuple[str, ...] | None = None) -> pa.Table:
    """Columns to an Arrow table; masked arrays become nulls; with ``labels`` a
    dictionary-encoded ``strategy`` column follows ``seat``."""
    arrays, names = [], []
    for name, values in columns.items():
        if isinstance(values, np.ma.MaskedArray):
            arrays.append(pa.array(values.data, mask=np.ma.getmaskarray(values)))
        else:
            arrays.append(pa.array(values))
        names.append(name)
        if name == "seat" and labels is not None:
            names.append("strategy")
            arrays.append(strategy_column(values, labels))
    return pa.Table.from_arrays(arrays, names=names)


def strategy_column(seat: np.ndarray, labels: tuple[str, ...]) -> pa.DictionaryArray:
    unique = list(dict.fromkeys(labels))
    index = np.array([unique.index(label) for label in labels], dtype=np.int32)
    return pa.DictionaryArray.from_arrays(index[seat.astype(np.int64)], unique)


def _probe(folder: Path, what: str) -> None:
    """Make ``folder`` (and its parents) and check that a file can be created in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".bidlab-write-test-{os.getpid()}"
        probe.touch()
        probe.unlink()
    except FileExistsError:
        raise BidlabError(f"{what}: {folder} is a file, not a folder") from None
    except OSError as e:
        raise BidlabError(f"{what}: cannot write in {folder} ({e.strerror or e}); choose a "
                          f"folder you can write to") from None


def output_file(path: str | Path, what: str, suffix: str | None = ".parquet") -> Path:
    """Check, before any work, that results can be written to the file ``path``: named
    ``*suffix`` (None: any name), not a folder, in a folder that exists or can be made
    and is writable. ``what`` names the option in the error (``--out``)."""
    path = Path(path)
    if path.is_dir():
        raise BidlabError(f"{what} {str(path)!r} is a folder; give a file name in it, e.g. "
                          f"{path / ('results' + (suffix or ''))}")
    if suffix and (not path.name.endswith(suffix) or path.name == suffix):
        raise BidlabError(f"{what} {str(path)!r}: give a file name ending in {suffix}, e.g. "
                          f"results{suffix}")
    _probe(path.parent, f"{what} {str(path)!r}")
    return path


def output_folder(path: str | Path, what: str) -> Path:
    """Check, before any work, that ``path`` is (or can be made) a writable folder."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise BidlabError(f"{what} {str(path)!r} is a file; give a folder (it is made if "
                          f"missing)")
    _probe(path, f"{what} {str(path)!r}")
    return path


def table_paths(out: str | Path, tables: list[str]) -> dict[str, Path]:
    """``results.parquet`` holds the ``seats`` table; others go next to it as
    ``results.<table>.parquet``."""
    out = Path(out)
    stem = out.name[: -len(".parquet")] if out.name.endswith(".parquet") else out.name
    return {t: out if t == "seats" else out.with_name(f"{stem}.{t}.parquet") for t in tables}


class ParquetSink:
    """Streams each table to its own Parquet file, one row group per chunk. ``close``
    adds how many matches the files hold and whether the run completed (``STATUS_KEY``,
    merged into :func:`read_provenance`): a file cut short by an interruption says so."""

    def __init__(self, paths: dict[str, Path], labels: tuple[str, ...], provenance: dict[str, Any]):
        self.paths = paths
        self.labels = labels
        self.metadata = {PROVENANCE_KEY: json.dumps(provenance).encode()}
        self._writers: dict[str, pq.ParquetWriter] = {}
        self.matches = 0

    def add(self, start: int, tables: dict[str, Columns]) -> None:
        for name, path in self.paths.items():
            table = to_arrow(tables[name], self.labels if name == "seats" else None)
            writer = self._writers.get(name)
            if writer is None:
                path.parent.mkdir(parents=True, exist_ok=True)
                schema = table.schema.with_metadata(self.metadata)
                writer = self._writers[name] = pq.ParquetWriter(path, schema, compression="zstd")
            writer.write_table(table.cast(writer.schema))
        match = tables["seats"]["match"]
        self.matches += int(match[-1]) - start + 1 if len(match) else 0

    def close(self, complete: bool = True) -> None:
        status = {STATUS_KEY: json.dumps({"complete": complete, "matches": self.matches}).encode()}
        for writer in self._writers.values():
            writer.add_key_value_metadata(status)
            writer.close()
        self._writers.clear()

    def __enter__(self) -> ParquetSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MemorySink:
    """Keeps every chunk; ``table(name)`` concatenates them into one Arrow table."""

    def __init__(self, labels: tuple[str, ...], keep: list[str] | None = None):
        self.labels = labels
        self.keep = keep
        """Table names to keep (None: every table a chunk has)."""
        self._parts: dict[str, list[pa.Table]] = {}

    def add(self, start: int, tables: dict[str, Columns]) -> None:
        for name, columns in tables.items():
            if self.keep is not None and name not in self.keep:
                continue
            self._parts.setdefault(name, []).append(
                to_arrow(columns, self.labels if name == "seats" else None))

    def names(self) -> list[str]:
        return list(self._parts)

    def table(self, name: str) -> pa.Table:
        return pa.concat_tables(self._parts[name])


def read_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance stored in a results file by :class:`ParquetSink`."""
    meta = pq.read_schema(path).metadata or {}
    if PROVENANCE_KEY not in meta:
        raise ValueError(f"{path} holds no bidlab provenance")
    provenance = json.loads(meta[PROVENANCE_KEY])
    extra = pq.ParquetFile(path).metadata.metadata or {}
    if STATUS_KEY in extra:
        provenance.update(json.loads(extra[STATUS_KEY]))
    return provenance
