"""Game engines: cards, counter-based RNG, one package per game, the chunked runner.

Importing ``sim`` points numba's disk cache at a directory keyed on a hash of the
``sim/`` and ``strategies/`` sources. numba's cache only checks the timestamp of the
file that defines a kernel (numba issue 1833), while our kernels inline policies and
helpers from other modules; without the key an edit there could run stale machine code.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["source_digest"]

_ROOT = Path(__file__).resolve().parent.parent


def source_digest() -> str:
    """Hash of every ``.py`` file under ``sim/`` and ``strategies/`` (16 hex digits)."""
    h = hashlib.sha256()
    for package in ("sim", "strategies"):
        for path in sorted((_ROOT / package).rglob("*.py")):
            h.update(str(path.relative_to(_ROOT)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _configure_numba_cache() -> None:
    base = os.environ.get("BIDLAB_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "bidlab")
    path = os.path.join(base, "numba", source_digest())
    os.environ["NUMBA_CACHE_DIR"] = path
    import numba  # after the environment is set, for processes that import it first here
    numba.config.CACHE_DIR = path


_configure_numba_cache()
