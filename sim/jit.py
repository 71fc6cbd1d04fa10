"""The numba options of every compiled function in ``sim/`` and ``strategies/``, set in
one place. Each module then holds only its mathematics::

    from sim.jit import jit

    @jit                      # a plain kernel function
    @jit(inline=True)         # inlined into its callers at the numba IR level
    @jit(nrt=True)            # allocates arrays (needs numba's reference counting)
    @jit(parallel=True)       # a chunk loop over ``prange``

Why these options:

- ``cache=True``: compiled code is kept on disk, because compile time is the user's
  start-up time and part of CI's. numba's cache does not notice edits in imported
  modules, so each function's folder is keyed on a hash of the sources its module
  imports, transitively (``sim/kernelcache.py``).
- ``error_model="numpy"``: a division follows IEEE rules instead of testing its divisor
  for zero and raising ``ZeroDivisionError``. The test costs time in the hot loops
  (benchmarks/README.md has the measurements), and no divisor here is zero where its
  result is used. It is set on every function on purpose: a function that does not
  set it takes its model from whichever caller compiles it first, and the disk cache
  keeps that choice, so speed would depend on what ran first.
- ``_nrt=False`` unless asked: a function that allocates nothing needs no reference
  counting, and numba then emits none of its calls. Functions that allocate and
  ``parallel`` chunk loops need it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit, prange

from sim.kernelcache import numba_cache_dir

__all__ = ["jit", "prange"]


def jit(fn: Callable | None = None, *, inline: bool = False, nrt: bool = False,
        parallel: bool = False) -> Any:
    """Compile ``fn`` with bidlab's options (see the module docstring); usable bare
    (``@jit``) or with arguments (``@jit(inline=True)``)."""
    options: dict[str, Any] = {"cache": True, "error_model": "numpy"}
    if parallel:
        options["parallel"] = True
    elif not nrt:
        options["_nrt"] = False
    if inline:
        options["inline"] = "always"
    decorate = njit(**options)

    def compiled(f: Callable) -> Any:
        with numba_cache_dir(f):  # numba picks the folder here, when caching is enabled
            return decorate(f)

    return compiled if fn is None else compiled(fn)
