"""The per-module numba cache key (``sim/kernelcache.py``): an edit to one game's files
leaves the other games' keys alone, an edit to a shared module changes every key that
depends on it, and the key covers every repository module a kernel's code can reach."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from sim import kernelcache as KC

GAMES = ("auktsion", "aukcio", "pitch", "bridge", "vybory", "fpsb")
SOLVERS = ("fpsb", "pitch", "vybory")


def _clear_memos() -> None:
    for f in (KC.module_file, KC._imports, KC.closure, KC._file_hash, KC.closure_digest):
        f.cache_clear()


@pytest.fixture
def repo_copy(tmp_path, monkeypatch):
    """A copy of the repository's Python packages for the key to read, so that a test
    can edit files; its import memos go to a fresh cache folder."""
    root = tmp_path / "repo"
    for package in KC.PACKAGES:
        shutil.copytree(KC.ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.npz", "*.sol"))
    monkeypatch.setattr(KC, "ROOT", root)
    monkeypatch.setenv("BIDLAB_CACHE_DIR", str(tmp_path / "cache"))
    _clear_memos()
    yield root
    _clear_memos()


def _keys() -> dict[str, str]:
    _clear_memos()
    mods = [f"sim.games.{g}.kernel" for g in GAMES] + [f"strategies.{g}" for g in GAMES]
    mods += [f"analysis.solvers.{g}" for g in SOLVERS] + ["sim.tricks", "sim.rng", "sim.cfr"]
    return {m: KC.closure_digest(m) for m in mods}


def _edit(root: Path, rel: str) -> None:
    path = root / rel
    path.write_text(path.read_text() + "\n# an edit\n")


def _changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {m for m in before if before[m] != after[m]}


@pytest.mark.parametrize("game", GAMES)
def test_editing_one_games_files_leaves_the_other_games_keys(repo_copy, game):
    before = _keys()
    _edit(repo_copy, f"sim/games/{game}/kernel.py")
    _edit(repo_copy, f"strategies/{game}.py")
    changed = _changed(before, _keys())
    assert f"sim.games.{game}.kernel" in changed and f"strategies.{game}" in changed
    others = {m for m in changed if not m.endswith(f".{game}") and f".{game}." not in m}
    assert not others, f"an edit to {game}'s files changed {sorted(others)}"
    assert not {"sim.tricks", "sim.rng", "sim.cfr"} & changed


def test_a_shared_modules_edit_changes_every_key_that_depends_on_it(repo_copy):
    before = _keys()
    _edit(repo_copy, "sim/rng.py")
    changed = _changed(before, _keys())
    assert changed == {m for m in before if "sim.rng" in KC.closure(m)}
    assert {m for m in before if m.startswith("sim.games.")} <= changed  # every game draws
    assert "sim.cfr" not in changed

    before = _keys()
    _edit(repo_copy, "sim/tricks.py")
    changed = _changed(before, _keys())
    users = {m for m in before if "sim.tricks" in KC.closure(m)}
    assert changed == users
    assert {"sim.games.pitch.kernel", "sim.games.vybory.kernel", "sim.tricks"} <= changed
    assert "sim.games.auktsion.kernel" not in changed and "sim.rng" not in changed


def test_an_edit_the_imports_do_not_see_changes_nothing(repo_copy):
    before = _keys()
    (repo_copy / "sim" / "games" / "pitch" / "notes.txt").write_text("not Python")
    _edit(repo_copy, "analysis/solvers/vybory.py")
    changed = _changed(before, _keys())
    assert changed == {"analysis.solvers.vybory"}


def test_a_new_import_joins_the_closure(repo_copy):
    """Relative imports too, and one inside a function."""
    assert "sim.games.vybory.core" not in KC.closure("sim.tricks")
    path = repo_copy / "sim" / "tricks.py"
    path.write_text(path.read_text() + "\n\ndef f():\n    from .games.vybory import core\n")
    _clear_memos()
    assert "sim.games.vybory.core" in KC.closure("sim.tricks")
    assert "sim.games.vybory" in KC.closure("sim.tricks")  # the package runs first

    assert "sim.games.aukcio.obs" not in KC.closure("sim.games.fpsb.kernel")
    path = repo_copy / "sim" / "games" / "fpsb" / "kernel.py"
    path.write_text("from ..aukcio import obs\n" + path.read_text())
    _clear_memos()
    assert "sim.games.aukcio.obs" in KC.closure("sim.games.fpsb.kernel")


_IMPORTED = """
import json, sys
from sim import kernelcache as KC
for name in sys.argv[1:]:
    __import__(name)
print(json.dumps(sorted(n for n, m in list(sys.modules.items())
                        if KC.module_name(getattr(m, "__file__", None) or "") == n)))
"""


@pytest.mark.parametrize("modules", [
    *[(f"sim.games.{g}.kernel", f"strategies.{g}") for g in GAMES],
    *[(f"analysis.solvers.{g}",) for g in SOLVERS],
], ids=lambda m: m[0])
def test_the_closure_holds_every_repository_module_the_import_loads(modules):
    """What a fresh interpreter loads from the repository to import a game's kernel
    and policies (or a solver) is within the static closure the key hashes."""
    out = subprocess.run([sys.executable, "-c", _IMPORTED, *modules], cwd=KC.ROOT,
                         capture_output=True, text=True, check=True).stdout
    loaded = set(json.loads(out))
    assert set(modules) <= loaded
    static = set().union(*(KC.closure(m) for m in modules))
    assert loaded - static == set(), "imported but not in the key"
    assert KC.closure(modules[0]) == tuple(sorted(KC.closure(modules[0])))


def _dispatchers():
    import numba

    from analysis.solvers import fpsb, pitch, vybory  # noqa: F401
    from sim.games import all_games
    for name in all_games():
        __import__(f"sim.games.{name}.kernel")
        __import__(f"strategies.{name}")
    for module in list(sys.modules.values()):
        name = KC.module_name(getattr(module, "__file__", None) or "")
        if name is None or name != module.__name__:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, numba.core.registry.CPUDispatcher) \
                    and value.py_func.__module__ == name:
                yield name, value


def test_every_global_a_kernel_reads_comes_from_its_modules_closure():
    """numba resolves a function's callees and constants through its module's globals:
    each module, function or dispatcher a compiled function names must come from a
    module inside the closure its cache folder is keyed on."""
    checked = 0
    for name, dispatcher in _dispatchers():
        closure = set(KC.closure(name))
        fn = dispatcher.py_func
        for ref in fn.__code__.co_names:
            value = fn.__globals__.get(ref)
            if isinstance(value, types.ModuleType):
                origin = value.__name__
            elif callable(value):
                origin = getattr(getattr(value, "py_func", value), "__module__", None)
            else:
                continue
            origin_file = KC.module_file(origin) if origin else None
            if origin_file is not None:
                assert origin in closure, f"{name}.{fn.__name__} reads {ref} from {origin}"
        checked += 1
    assert checked > 300


def test_every_function_is_cached_in_its_modules_folder():
    seen = 0
    for name, dispatcher in _dispatchers():
        assert Path(dispatcher._cache._cache_path).parent == Path(KC.cache_dir(name))
        seen += 1
    assert seen > 300


def test_the_key_follows_every_package_bidlab_installs():
    import tomllib
    config = tomllib.loads((KC.ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    assert sorted(p.rstrip("*") for p in include) == sorted(KC.PACKAGES)
    assert KC.module_file("numpy") is None and KC.module_name(KC.ROOT / "tests" / "x.py") is None


def test_numba_extensions_are_local():
    """An ``@overload`` of a function defined elsewhere (a NumPy function, a builtin)
    or a new type would change code compiled in modules that never import the module
    that registers it, which the key would miss."""
    allowed = {"intrinsic", "overload"}
    for package in KC.PACKAGES:
        for path in sorted((KC.ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_bytes())
            local = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and \
                        node.module.startswith("numba") and "extending" in node.module:
                    names = {a.name for a in node.names}
                    assert names <= allowed, f"{path}: {names - allowed}"
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "overload":
                    target = node.args[0]
                    assert isinstance(target, ast.Name) and target.id in local, \
                        f"{path}:{node.lineno}: @overload of a function from elsewhere"
