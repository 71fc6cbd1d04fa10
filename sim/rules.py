"""Rule keys (house variants): declaration, parsing and validation shared by all games.

A game declares a tuple of :class:`RuleKey`; :func:`make_rules` turns user overrides
(strings from the command line or TOML, or Python values) into a validated, frozen
:class:`Rules` mapping with every default filled in. Defaults and bounds may depend on
keys declared earlier (``deals_per_match`` defaults to ``players``), so keys are
resolved in declaration order. Nothing is clamped: a bad value is an error that names
the key and what is allowed.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sim.errors import RuleError

Bound = float | int | Callable[[Mapping[str, Any]], float | int] | None


@dataclass(frozen=True)
class RuleKey:
    """One house-variant key. ``kind`` is ``int``, ``float``, ``bool``, ``choice`` or ``ints``."""

    name: str
    default: Any
    kind: str
    doc: str
    rule: str = ""
    lo: Bound = None
    hi: Bound = None
    choices: tuple[Any, ...] = ()
    length: int = 0  # for kind "ints": the number of integers
    allowed: tuple[Any, ...] = ()  # for kind "int": an explicit set instead of lo..hi

    def describe_range(self, known: Mapping[str, Any]) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return " or ".join(map(str, self.choices))
        if self.allowed:
            return ", ".join(map(str, self.allowed))
        lo, hi = self.bounds(known)
        span = f"{lo}..{hi}"
        if self.kind == "ints":
            return f"{self.length} comma-separated integers, each {span}"
        return span

    def bounds(self, known: Mapping[str, Any]) -> tuple[Any, Any]:
        """(lo, hi) given the values of the keys before it (``known``)."""
        return tuple(b(known) if callable(b) else b for b in (self.lo, self.hi))

    def default_for(self, known: Mapping[str, Any]) -> Any:
        return self.default(known) if callable(self.default) else self.default


def first_dealer_key(rule: str, doc: str = "dealer of the first deal; then the next seat deals",
                     players: int = 0) -> RuleKey:
    """The ``first_dealer`` key of every game with a dealer: a seat, 0 unless set; with a
    fixed number of ``players``, else of the ``players`` key."""
    hi: Bound = players - 1 if players else (lambda v: v["players"] - 1)
    return RuleKey("first_dealer", 0, "int", doc, rule=rule, lo=0, hi=hi)


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _convert(key: RuleKey, value: Any, game: str, known: Mapping[str, Any]) -> Any:
    def bad(why: str) -> RuleError:
        return RuleError(f"{game} rule {key.name}={value!r}: {why}; allowed "
                         f"{key.describe_range(known)} ({key.doc})")

    if key.kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
            return value.strip().lower() in _TRUE
        raise bad(f"expected true or false, written {', '.join(_TRUE)} (true) or "
                  f"{', '.join(_FALSE)} (false)")
    if key.kind == "choice":
        text = str(value).strip().lower()
        if text not in key.choices:
            raise bad(f"expected one of {', '.join(key.choices)}")
        return text
    if key.kind == "int":
        return _to_int(value, bad)
    if key.kind == "float":
        if isinstance(value, bool):
            raise bad("expected a number")
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad("expected a number") from None
    if key.kind == "ints":
        parts = value.split(",") if isinstance(value, str) else list(value)
        if len(parts) != key.length:
            raise bad(f"expected {key.length} comma-separated integers")
        return tuple(_to_int(p, bad) for p in parts)
    raise AssertionError(key.kind)


def _to_int(value: Any, bad: Callable[[str], RuleError]) -> int:
    if isinstance(value, bool):
        raise bad("expected a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise bad("expected a whole number") from None


def _check_range(key: RuleKey, value: Any, known: Mapping[str, Any], game: str) -> None:
    if key.kind in ("bool", "choice"):
        return
    if key.allowed:
        ok = value in key.allowed
    else:
        lo, hi = key.bounds(known)
        items = value if key.kind == "ints" else (value,)
        ok = all((lo is None or v >= lo) and (hi is None or v <= hi) for v in items)
    if not ok:
        shown = ",".join(map(str, value)) if key.kind == "ints" else value
        raise RuleError(f"{game} rule {key.name}={shown} is out of range: allowed "
                        f"{key.describe_range(known)} ({key.doc})")


class Rules(Mapping[str, Any]):
    """Validated rule values of one game, every key present; read as ``rules["players"]``
    or ``rules.players``."""

    def __init__(self, game: str, values: dict[str, Any]):
        self._game = game
        self._values = dict(values)

    @property
    def game(self) -> str:
        return self._game

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # keeps copy and pickle away from the rule values
            raise AttributeError(name)
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"Rules({self._game}: {inner})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rules) and (self._game, self._values) == (other._game, other._values)

    def __hash__(self) -> int:
        return hash((self._game, tuple(self._values.items())))

    def to_json(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self._values.items()}


def make_rules(game: str, keys: tuple[RuleKey, ...], overrides: Mapping[str, Any] | None = None,
               check: Callable[[Rules], None] | None = None) -> Rules:
    """Validate ``overrides`` against ``keys`` and fill in every default."""
    overrides = dict(overrides or {})
    by_name = {k.name: k for k in keys}
    unknown = sorted(set(overrides) - set(by_name))
    if unknown:
        raise RuleError(f"unknown {game} rule key {unknown[0]!r}; known keys: "
                        f"{', '.join(by_name)} (see `bidlab games`)")
    values: dict[str, Any] = {}
    for key in keys:
        if key.name in overrides:
            value = _convert(key, overrides[key.name], game, values)
        else:
            value = key.default_for(values)
        _check_range(key, value, values, game)
        values[key.name] = value
    rules = Rules(game, values)
    if check is not None:
        check(rules)
    return rules


def parse_assignments(items: list[str] | None, what: str = "--rule") -> dict[str, str]:
    """``["players=3", "carry_money=false"]`` -> dict; a bad item names itself."""
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RuleError(f"{what} {item!r}: write key=value, e.g. {what} players=3")
        out[name.strip()] = value.strip()
    return out


def load_rules_file(path: str) -> dict[str, Any]:
    """Rule overrides from a TOML file of ``key = value`` lines (or a ``[rules]`` table);
    a missing, unreadable or malformed file is one :class:`RuleError` naming it."""
    what = "give a TOML file of key = value lines, e.g. players = 3"
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise RuleError(f"--rules {str(path)!r}: no such file; {what}") from None
    except IsADirectoryError:
        raise RuleError(f"--rules {str(path)!r} is a folder; {what}") from None
    except PermissionError:
        raise RuleError(f"--rules {str(path)!r}: permission denied (cannot read it); "
                        f"{what}") from None
    except OSError as e:
        raise RuleError(f"--rules {str(path)!r}: cannot read it ({e.strerror or e}); "
                        f"{what}") from None
    except UnicodeDecodeError:
        raise RuleError(f"--rules {str(path)!r} is not a text file; {what}") from None
    except tomllib.TOMLDecodeError as e:
        raise RuleError(f"--rules {str(path)!r} is not valid TOML ({e}); {what}") from None
    rules = data.get("rules", data)
    if not isinstance(rules, dict):
        raise RuleError(f"--rules {str(path)!r}: 'rules' must be a table of key = value "
                        f"lines, not {rules!r}")
    return dict(rules)
