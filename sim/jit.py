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
- One signature per argument types, not per constant: a call from compiled code with a
  constant argument (``bid_code(1, strain)``, ``fail(err, m, ILLEGAL, ...)``) types that
  argument as ``Literal[int](1)``, and numba's dispatcher compiles, and caches, one
  copy of the callee per distinct constant (bridge's ``bid_code``: 23 copies; issue 34's
  profile in benchmarks/README.md). ``_Dispatcher`` types such a call with the plain
  types (``int64``) instead, so the callee compiles once; the constant still folds
  where LLVM inlines the callee. A callee that cannot compile without the literal (a
  heterogeneous tuple indexed by a constant) falls back to numba's literal typing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import config, prange, types
from numba.core import errors
from numba.core.registry import CPUDispatcher

from sim.kernelcache import numba_cache_dir

__all__ = ["jit", "prange"]


class _Dispatcher(CPUDispatcher):
    """numba's CPU dispatcher, typing calls from compiled code with the arguments'
    plain types: one signature per argument types, not one per constant."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
        if plain == tuple(args) and plain_kws == kws:
            return super().get_call_template(args, kws)
        try:
            return super().get_call_template(plain, plain_kws)
        except errors.TypingError:  # the callee needs the constant's literal type
            return super().get_call_template(args, kws)


def jit(fn: Callable | None = None, *, inline: bool = False, nrt: bool = False,
        parallel: bool = False) -> Any:
    """Compile ``fn`` with bidlab's options (see the module docstring); usable bare
    (``@jit``) or with arguments (``@jit(inline=True)``)."""
    # what ``numba.njit(cache=True, error_model="numpy", ...)`` passes its dispatcher
    options: dict[str, Any] = {"nopython": True, "boundscheck": None, "error_model": "numpy"}
    if parallel:
        options["parallel"] = True
    elif not nrt:
        options["_nrt"] = False
    if inline:
        options["inline"] = "always"

    def compiled(f: Callable) -> Any:
        if config.DISABLE_JIT:
            return f
        disp = _Dispatcher(py_func=f, locals={}, targetoptions=dict(options))
        with numba_cache_dir(f):  # numba picks the folder here, when caching is enabled
            disp.enable_caching()
        return disp

    return compiled if fn is None else compiled(fn)
