"""Game engines: cards, counter-based RNG, one package per game, the chunked runner.

numba's disk cache only checks the source of the file that defines a kernel (numba
issue 1833), while our kernels inline policies and helpers from other modules; without
a key on those sources an edit there could run stale machine code. Every function
compiled with :func:`sim.jit.jit` is cached in a folder keyed on its own module's
import closure (``sim/kernelcache.py``), so an edit to one game's files leaves the
other games' kernels cached. Importing ``sim`` points numba's default folder, for any
other cached function of the process, at one keyed on a hash of all the ``sim/`` and
``strategies/`` sources (``source_digest``).
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
    from sim.kernelcache import base_dir

    path = os.path.join(base_dir(), "numba", source_digest())
    os.environ["NUMBA_CACHE_DIR"] = path
    import numba  # after the environment is set, for processes that import it first here
    numba.config.CACHE_DIR = path


_configure_numba_cache()
