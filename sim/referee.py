"""What every game's plain-Python referee shares: reading a JSON trace and saying where
it is wrong. Deliberately plain Python (no NumPy, no numba), like the referees."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sim.errors import RefereeError
from sim.rules import RuleKey


@dataclass(frozen=True)
class Replayed:
    """What a referee re-derived from a trace it accepted (every game's ``replay``)."""

    scores: list[float]
    """Per seat, the match score the rules give (bridge: the seat's side's score)."""
    winners: list[int]
    """The seats that share the win (pitch: none on a draw; bridge: the seats whose
    side beat par)."""
    actions: int
    """Calls, bids and cards checked."""
    details: dict[str, Any] = field(default_factory=dict)
    """Further figures of the game, by name (auktsion: points, money_end, deals, lots;
    pitch: deals, redeals, calls, cards)."""


def is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class TraceReferee:
    """Base of a game's referee: ``game`` names it in every message."""

    game = ""

    def __init__(self, trace: dict):
        if not isinstance(trace, dict):
            raise RefereeError(f"a trace is a JSON object (dict), not {type(trace).__name__}")
        self.trace = trace
        self.name = f"{self.game} trace seed {trace.get('seed')!r} index {trace.get('index')!r}"
        self.checked: Counter[str] = Counter()
        """How many of each thing (calls, cards, lots) the referee has checked."""

    def fail(self, where: str, why: str) -> RefereeError:
        return RefereeError(f"{self.name}, {where}: {why}" if where else f"{self.name}: {why}")

    def field(self, obj: Any, key: str, where: str) -> Any:
        if not isinstance(obj, dict) or key not in obj:
            raise self.fail(where, f"field {key!r} is missing")
        return obj[key]

    def dealer_of(self, deal: Any, d: int, where: str, first_dealer: int, n: int,
                  rule: str) -> int:
        """Deal ``d`` must be a JSON object dealt by ``first_dealer + d`` (mod ``n``): the
        deal passes to the next seat (``rule``). Returns that dealer."""
        if not isinstance(deal, dict):
            raise self.fail(where, "a deal is a JSON object")
        dealer = (first_dealer + d) % n
        if self.field(deal, "dealer", where) != dealer:
            raise self.fail(where, f"dealer is {deal['dealer']!r}, expected seat {dealer} "
                                   f"(first_dealer {first_dealer} + {d}) ({rule})")
        return dealer

    def rules_with(self, keys: tuple[str, ...]) -> dict:
        """The trace's ``rules``: an object holding exactly ``keys``, in a trace of this
        game."""
        if self.trace.get("game", self.game) != self.game:
            raise self.fail("", f"game is {self.trace.get('game')!r}, not {self.game!r}")
        rules = self.field(self.trace, "rules", "")
        if not isinstance(rules, dict):
            raise self.fail("rules", "must be an object of rule keys")
        missing = [k for k in keys if k not in rules]
        unknown = sorted(set(rules) - set(keys))
        if missing or unknown:
            raise self.fail("rules", f"missing keys {missing}, unknown keys {unknown}")
        return rules

    def rules_allowed(self, keys: tuple[RuleKey, ...]) -> dict:
        """The trace's ``rules`` (:meth:`rules_with` the names of ``keys``), every value
        one that its key allows, as JSON writes it: ``true`` is not 1, ``"4"`` is not 4."""
        rules = self.rules_with(tuple(k.name for k in keys))
        for key in keys:          # in order: a bound may name an earlier, checked key
            if not _allows(key, rules[key.name], rules):
                raise self.fail("rules", f"{key.name}={rules[key.name]!r} is not allowed: "
                                         f"{key.describe_range(rules)} ({key.rule})")
        return rules


def _allows(key: RuleKey, value: Any, known: dict) -> bool:
    if key.kind == "bool":
        return isinstance(value, bool)
    if key.kind == "choice":
        return isinstance(value, str) and value in key.choices
    if key.allowed:
        return is_int(value) and value in key.allowed
    lo, hi = key.bounds(known)
    if key.kind == "ints":
        return (isinstance(value, (list, tuple)) and len(value) == key.length
                and all(is_int(v) and lo <= v <= hi for v in value))
    number = is_int(value) or (key.kind == "float" and isinstance(value, float))
    return number and lo <= value <= hi
