"""Where numba keeps each compiled function on disk: one folder per defining module,
keyed on the sources that module's code can reach.

numba's disk cache checks only the source of the file that defines a function (numba
issue 1833), but a kernel's compiled code holds its callees too (functions it calls are
linked into it, ``inline=True`` ones are merged into its own code), and the values of
the globals it reads (rule indices, tables) are frozen into it. All of them come from
the defining module's globals, so from the modules it imports, and theirs. The folder
of a function defined in ``M`` is therefore keyed on a hash of the source files of
``M``'s import closure within bidlab (:func:`closure`): an edit to any of them
gives ``M``'s functions a new, empty folder; an edit anywhere else leaves it alone. So
an edit to pitch's files recompiles pitch's kernels (and whatever imports them), not
auktsion's, while an edit to ``sim/tricks.py`` recompiles every module that imports it.

The closure is found statically (``ast``): every ``import`` and ``from ... import``
anywhere in a file, relative ones included, resolved to files of bidlab's packages
(:data:`PACKAGES`), plus the packages Python runs to import a module
(``sim.games.pitch`` for ``sim.games.pitch.core``), and every module of a game package,
which loads its parts by name (:data:`DYNAMIC_PARENT`). It over-approximates (an
import inside a function counts) but misses no static import; ``tests/test_kernelcache.py``
checks it against what importing the modules loads and against the globals every
compiled function reads, and that the repository registers numba overloads only for its
own functions (a global ``@overload`` of a NumPy function would change code compiled in
modules that never import it). The imports found in a file are kept on disk, keyed on
its path and source, so that a warm start parses nothing.

What stays outside the key: files that are not Python source (a data file read at
import time into a global that a kernel reads; none does today); functions defined
outside bidlab's packages (tests, benchmark scripts), which keep numba's folder for the
process, keyed on all of ``sim/`` and ``strategies/`` (``sim/__init__.py``); and numba,
NumPy and Python themselves (numba's own index checks those). Old folders are not
removed.
"""

from __future__ import annotations

import ast
import hashlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

__all__ = ["DYNAMIC_PARENT", "PACKAGES", "ROOT", "base_dir", "cache_dir", "closure",
           "closure_digest", "module_file", "module_name", "numba_cache_dir"]

ROOT = Path(__file__).resolve().parent.parent
"""The repository (the folder that holds ``sim/``)."""

PACKAGES = ("analysis", "bidlab", "reports", "sim", "strategies")
"""bidlab's top-level packages (``pyproject.toml``): the modules the key follows. Only
these, so that an install into ``site-packages`` does not follow NumPy's imports."""

DYNAMIC_PARENT = "sim.games"
"""A game package imports its parts by name (``importlib``, in ``sim.game.game_package``),
which no ``import`` statement shows: the closure of a package directly inside this one
holds every module of the package."""


def base_dir() -> str:
    """``$BIDLAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/bidlab``, else ``~/.cache/bidlab``."""
    return os.environ.get("BIDLAB_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "bidlab")


@cache
def module_file(name: str) -> Path | None:
    """The repository file of module ``name`` (``a/b.py`` or ``a/b/__init__.py``), or
    ``None`` for a module outside bidlab's packages."""
    parts = name.split(".")
    if parts[0] not in PACKAGES or not all(p.isidentifier() for p in parts):
        return None
    base = ROOT.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@cache
def module_name(path: str | Path) -> str | None:
    """The dotted name of a repository file (``sim/tricks.py`` -> ``sim.tricks``), or
    ``None`` outside bidlab's packages (a test or a benchmark script: its functions keep
    the folder ``sim`` sets for the process, keyed on every source)."""
    try:
        rel = Path(path).resolve().relative_to(ROOT)
    except ValueError:
        return None
    if rel.suffix != ".py":
        return None
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    name = ".".join(parts)
    return name if parts and module_file(name) is not None else None


def _parents(name: str) -> Iterator[str]:
    """The packages Python imports before ``name``: ``a``, ``a.b`` for ``a.b.c``."""
    parts = name.split(".")
    for i in range(1, len(parts)):
        yield ".".join(parts[:i])


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of ``body``, nested ones included (imports are statements, so
    this finds them without visiting any expression)."""
    for node in body:
        yield node
        for block in (getattr(node, "body", None), getattr(node, "orelse", None),
                      getattr(node, "finalbody", None)):
            if isinstance(block, list):
                yield from _statements(block)
        for handler in getattr(node, "handlers", ()):
            yield from _statements(handler.body)
        for case in getattr(node, "cases", ()):
            yield from _statements(case.body)


def _import_targets(name: str, source: bytes, is_package: bool) -> list[str]:
    """The dotted names an import in ``source`` (module ``name``) may load: each module
    imported, with its packages, and ``base.x`` for every ``from base import x`` (a
    submodule where such a file exists)."""
    targets: list[str] = []
    for node in _statements(ast.parse(source).body):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[:len(package) - (node.level - 1)]
                base = ".".join(package + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets.append(base)
            targets += [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]
    return sorted({p for t in targets for p in (*_parents(t), t) if p})


def _memo_path(path: Path) -> Path:
    rel = str(path.relative_to(ROOT))  # the name, and whether it is a package
    key = hashlib.sha256(rel.encode() + b"\0" + _file_hash(path)).hexdigest()[:24]
    return Path(base_dir(), "numba", "imports", f"{key}.txt")


@cache
def _imports(name: str) -> frozenset[str]:
    """Repository modules that module ``name``'s source imports directly (anywhere in
    the file), with the packages Python runs on the way. Parsing every file costs about
    10 ms a file on a busy two-core machine, so the names found are kept on disk,
    keyed on the module's path and source (a changed file is parsed again)."""
    path = module_file(name)
    assert path is not None, name
    memo = _memo_path(path)
    try:
        targets = memo.read_text().split()
    except OSError:
        targets = _import_targets(name, path.read_bytes(), path.name == "__init__.py")
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            tmp = memo.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text("\n".join(targets) + "\n")
            os.replace(tmp, memo)
        except OSError:
            pass
    found = {t for t in targets if module_file(t) is not None}
    found.update(p for p in _parents(name) if module_file(p) is not None)
    if path.name == "__init__.py" and name.rpartition(".")[0] == DYNAMIC_PARENT:
        found.update(f"{name}.{p.stem}" for p in path.parent.glob("*.py")
                     if p.name != "__init__.py")
    found.discard(name)
    return frozenset(found)


@cache
def closure(name: str) -> tuple[str, ...]:
    """Module ``name`` and every repository module it imports, transitively (sorted)."""
    seen = {name}
    todo = [name]
    while todo:
        for dep in _imports(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen))


@cache
def _file_hash(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


@cache
def closure_digest(name: str) -> str:
    """Hash of the paths and sources of :func:`closure` (16 hex digits)."""
    h = hashlib.sha256()
    for dep in closure(name):
        path = module_file(dep)
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(_file_hash(path))
    return h.hexdigest()[:16]


def cache_dir(name: str) -> str:
    """The numba cache folder of the functions defined in module ``name``:
    ``BASE/numba/NAME-DIGEST``."""
    return os.path.join(base_dir(), "numba", f"{name}-{closure_digest(name)}")


_lock = threading.RLock()


@contextmanager
def numba_cache_dir(fn) -> Iterator[None]:
    """Point numba at ``fn``'s folder while its dispatcher is made (numba picks a
    function's cache folder, from ``numba.config.CACHE_DIR``, when caching is enabled
    on it, in the decorator); functions outside the repository keep the folder
    ``sim`` set for the process."""
    from numba import config

    name = module_name(fn.__code__.co_filename)
    if name is None:
        yield
        return
    path = cache_dir(name)
    with _lock:
        saved = config.CACHE_DIR
        config.CACHE_DIR = path
        try:
            yield
        finally:
            config.CACHE_DIR = saved
