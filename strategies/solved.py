"""Solutions: the tables that the ``solved`` policies play, as files with provenance.

A solution is the average strategy of a regret-minimizing solver (``bidlab solve``) on
one game's abstraction, for one set of rules. The kernels get its ``table`` (float64,
laid out by the game's abstraction, ``sim/games/<game>/abstraction.py``) as an array
argument, so a new solution never recompiles anything.

Where ``solved`` finds the solution for the rules in force, first match wins:

1. the folder ``$BIDLAB_SOLUTIONS``, else ``~/.local/share/bidlab/solutions`` (where
   ``bidlab solve`` writes by default);
2. the solutions shipped with bidlab (``strategies/solutions/``).

A file is found by its name, ``<game>-<key>.sol``, where ``key`` is a digest of the
rules (every key, defaults filled in), the abstraction's name and version, and its
settings where they are not the default's (``solved:strength_steps=24``), and is then
checked against them. Each seat that plays ``solved`` gets its own table.

File layout (bit for bit the same for the same solve): the line ``bidlab-solution 2``,
one line of JSON (the provenance: game, rules, abstraction, iterations, exploitability,
seed, method, version; the table's length and SHA-256), then the table as little-endian
float64, zlib-compressed (cumulative rows are long runs of 0 and 1). Files of layout 1
(a table header with one setting, ``sim/cfr.py``) are read and widened to layout 2.
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from sim.cfr import T_HEADER, T_SETTING, Abstraction, stack_tables
from sim.errors import BidlabError
from sim.rules import Rules
from strategies.base import SeatAssignment

MAGIC = b"bidlab-solution 2\n"
OLD_MAGIC = b"bidlab-solution 1\n"
"""Layout 1: the table's header held one abstraction setting (``T_SETTING``) instead of
``sim.cfr.T_SETTINGS``."""
SHIPPED = Path(__file__).resolve().parent / "solutions"


class SolutionError(BidlabError):
    """No solution for the rules in force, or a file that is not a usable solution."""


@dataclass(frozen=True)
class Solution:
    game: str
    rules: dict[str, Any]
    abstraction: dict[str, Any]
    table: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance: method, iterations, seed, exploitability curve, bidlab version."""

    def header(self) -> dict[str, Any]:
        table = np.ascontiguousarray(self.table, dtype="<f8")
        return {"game": self.game, "rules": self.rules, "abstraction": self.abstraction,
                **self.meta, "table_length": int(table.size),
                "table_sha256": hashlib.sha256(table.tobytes()).hexdigest()}

    def save(self, path: str | Path) -> Path:
        """Write the file atomically (a crash leaves the old file or the new one)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        table = np.ascontiguousarray(self.table, dtype="<f8")
        text = json.dumps(self.header(), sort_keys=True, separators=(",", ":")).encode()
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(MAGIC + text + b"\n" + zlib.compress(table.tobytes(), 9))
        os.replace(tmp, path)
        return path


def load(path: str | Path) -> Solution:
    """Read a solution file, checking its form and its table's digest."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise SolutionError(f"solution file {str(path)!r}: {e.strerror or e}") from None
    bad = f"solution file {str(path)!r} is not a bidlab solution"
    old = data.startswith(OLD_MAGIC)
    if not (old or data.startswith(MAGIC)):
        raise SolutionError(f"{bad} (it does not start with {MAGIC.decode().strip()!r}); "
                            f"make one with `bidlab solve GAME --out {path}`")
    line_end = data.find(b"\n", len(MAGIC))
    try:
        header = json.loads(data[len(MAGIC):line_end])
        length = int(header["table_length"])
        game, rules, abstraction = header["game"], header["rules"], header["abstraction"]
    except (ValueError, KeyError, TypeError):
        raise SolutionError(f"{bad}: its header is damaged; solve again with "
                            f"`bidlab solve GAME --out {path}`") from None
    try:
        raw = zlib.decompress(data[line_end + 1:])
    except zlib.error:
        raw = b""
    if line_end < 0 or len(raw) != 8 * length:
        raise SolutionError(f"{bad}: the table holds {len(raw)} bytes, the header says "
                            f"{8 * length} (a truncated or damaged file); solve again with "
                            f"`bidlab solve {game} --out {path}`")
    if hashlib.sha256(raw).hexdigest() != header.get("table_sha256"):
        raise SolutionError(f"{bad}: its table does not match its checksum (a damaged file); "
                            f"solve again with `bidlab solve {game} --out {path}`")
    table = np.frombuffer(raw, dtype="<f8").astype(np.float64)
    if old:
        table = np.insert(table, T_SETTING + 1, np.zeros(T_HEADER - T_SETTING - 1))
    meta = {k: v for k, v in header.items()
            if k not in ("game", "rules", "abstraction", "table_length", "table_sha256")}
    return Solution(game, rules, abstraction, table, meta)


def key(game: str, rules: Mapping[str, Any], abstraction: Abstraction,
        solver_settings: Mapping[str, Any] | None = None) -> str:
    """The digest that names the file of a solution of ``game`` under ``rules`` (and,
    for a solve with them, the solver's own settings, which ``solved`` never looks for:
    such a file is played from another folder or under its default name)."""
    text = json.dumps({"game": game, "rules": dict(rules), "abstraction": abstraction.name,
                       "version": abstraction.version,
                       **_settings_of(game, rules, abstraction),
                       **({"solver": dict(solver_settings)} if solver_settings else {})},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _settings_of(game: str, rules: Mapping[str, Any], abstraction: Abstraction
                 ) -> dict[str, Any]:
    """The abstraction's settings where they are not the game's default abstraction's
    (a coarser or finer solve): they join the digest, so the default solutions keep
    their names."""
    if dict(abstraction.settings) == dict(abstraction_of(game, rules).settings):
        return {}
    return {"settings": dict(abstraction.settings)}


def user_folder() -> Path:
    """Where ``bidlab solve`` writes by default and ``solved`` looks first."""
    env = os.environ.get("BIDLAB_SOLUTIONS")
    if env:
        return Path(env)
    data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return Path(data) / "bidlab" / "solutions"


def default_path(game: str, rules: Mapping[str, Any], abstraction: Abstraction,
                 solver_settings: Mapping[str, Any] | None = None) -> Path:
    return user_folder() / f"{game}-{key(game, rules, abstraction, solver_settings)}.sol"


def check(solution: Solution, game: str, rules: Mapping[str, Any], abstraction: Abstraction,
          path: str | Path) -> Solution:
    """``solution`` unless it was made for another game, other rules or another
    abstraction; the error names the file and what differs."""
    where = f"solution file {str(path)!r}"
    if solution.game != game:
        raise SolutionError(f"{where} is a solution of {solution.game}, not {game}")
    differ = [f"{k}={_show(solution.rules.get(k))} there, {_show(v)} here"
              for k, v in rules.items() if solution.rules.get(k) != v]
    if differ:
        raise SolutionError(f"{where} was solved under other rules ({'; '.join(differ)}); "
                            f"make one for these rules with `{solve_command(game, rules)}`")
    mine = abstraction.to_json()
    if solution.abstraction != mine:
        raise SolutionError(f"{where} was made for abstraction {solution.abstraction.get('name')} "
                            f"version {solution.abstraction.get('version')} "
                            f"({solution.abstraction.get('settings')}), this bidlab plays "
                            f"{mine['name']} version {mine['version']} ({mine['settings']}); "
                            f"solve again with `{solve_command(game, rules)}`")
    if solution.table.size == 0:
        raise SolutionError(f"{where} holds an empty table")
    return solution


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    return ",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v)


def solve_command(game: str, rules: Mapping[str, Any],
                  abstraction: Abstraction | None = None) -> str:
    """The ``bidlab solve`` command that makes the solution of ``game`` under ``rules``
    (every rule that differs from the game's defaults as ``--rule``, and the
    abstraction's settings where they are not the default's as ``--setting``)."""
    from sim.games import get_game
    defaults = get_game(game).make_rules({})
    flags = "".join(f" --rule {k}={_show(v)}" for k, v in rules.items()
                    if defaults[k] != v and not (isinstance(v, list) and list(defaults[k]) == v))
    if abstraction is not None:
        import inspect
        settable = inspect.signature(get_game(game).abstraction).parameters
        default = abstraction_of(game, rules).settings
        flags += "".join(f" --setting {k}={_show(v)}" for k, v in abstraction.settings.items()
                         if k in settable and default.get(k) != v)
    return f"bidlab solve {game}{flags}"


def where(game: str, rules: Mapping[str, Any], abstraction: Abstraction) -> Path | None:
    """The file ``solved`` plays for ``game`` under ``rules`` (the first of the folders
    in the module docstring's order that holds one of its name), unchecked; None where
    there is none."""
    name = f"{game}-{key(game, rules, abstraction)}.sol"
    return next((folder / name for folder in (user_folder(), SHIPPED)
                 if (folder / name).exists()), None)


def find(game: str, rules: Mapping[str, Any], abstraction: Abstraction) -> tuple[Solution, Path]:
    """The solution ``solved`` plays for ``game`` under ``rules`` and where it was found
    (see the module docstring for the order); an error that gives the command that makes
    one where there is none."""
    path = where(game, rules, abstraction)
    if path is not None:
        return check(load(path), game, rules, abstraction, path), path
    name = f"{game}-{key(game, rules, abstraction)}.sol"
    raise SolutionError(f"no solution of {game} for these rules (looked for {name} in "
                        f"{user_folder()} and among the shipped ones); make one with "
                        f"`{solve_command(game, rules, abstraction)}`, which writes it where "
                        f"`solved` finds it")


def abstraction_of(game: str, rules: Mapping[str, Any], **settings: Any) -> Abstraction:
    """The abstraction ``game``'s solutions use under ``rules`` (``settings``: a coarser
    or finer one, as ``bidlab solve --setting`` made it)."""
    from sim.games import get_game
    g = get_game(game)
    if g.abstraction is None:
        raise SolutionError(f"{game} has no solver, so no `solved` policy")
    return g.abstraction(g.make_rules(dict(rules)), **settings)


def attach(game: str, rules: Rules, seats: SeatAssignment) -> SeatAssignment:
    """``seats`` with the solution tables for ``rules`` where some seat plays ``solved``
    (each seat its own: the ``solved`` policy's parameters name the abstraction's
    settings, so a coarse solution can meet a fine one); an error that says how to make
    one where there is none."""
    if seats.solution is not None or not seats.plays("solved"):
        return seats
    tables: dict[tuple, np.ndarray] = {}
    per_seat: list[np.ndarray | None] = []
    for strategy in seats.strategies:
        chosen = [(p, v) for p, v in strategy.choices if p.name == "solved"]
        if not chosen:
            per_seat.append(None)
            continue
        policy, values = chosen[0]
        settings = {q.name: int(x) if q.integer else x for q, x in zip(policy.params, values)}
        key = tuple(sorted(settings.items()))
        if key not in tables:
            tables[key] = find(game, rules.to_json(),
                               abstraction_of(game, rules, **settings))[0].table
        per_seat.append(tables[key])
    return replace(seats, solution=stack_tables(per_seat))
