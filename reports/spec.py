"""What a game's report holds: a small per-game section spec.

A game plugs into the report by adding ``reports/games/<game>.py`` that defines
``SPEC = GameSpec(...)``; a game without one gets :func:`generic_spec`: the generic
sections, at a modest default size. Sizes other than ``n`` are shares of ``n``, so
``bidlab report -n N`` scales every run of a game together.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

from reports.text import value

GENERIC_SECTIONS = ("rules", "strategies", "equity", "scores", "seats", "tuning", "bidev",
                    "variants")
"""The sections every game gets (:mod:`reports.sections`), in report order; ``tuning``
leaves itself out without a ``Tuning``, ``bidev`` and ``variants`` say what is missing.
A game's own sections (auktsion's money flow and prices, pitch's contracts and house
rules, fpsb's equilibrium) live in its spec: ``extra``, placed by ``sections``."""


def insert_sections(after: str, ids: tuple[str, ...],
                    base: tuple[str, ...] = GENERIC_SECTIONS) -> tuple[str, ...]:
    """``base`` with a game's own section ``ids`` right after ``after``."""
    i = base.index(after) + 1
    return (*base[:i], *ids, *base[i:])


@dataclass(frozen=True)
class Variant:
    """A house variant worth comparing: rule overrides and why players argue about it."""

    rules: Mapping[str, Any]
    why: str = ""

    @property
    def label(self) -> str:
        return ",".join(f"{k}={value(v)}" for k, v in self.rules.items()) or "default"


@dataclass(frozen=True)
class Situation:
    """A bid-EV situation: a title for the reader and the game's situation keys."""

    title: str
    state: Mapping[str, Any]
    question: str = ""
    candidates: tuple[str, ...] | None = None
    alternatives: tuple[Situation, ...] = ()
    """Other moments of the same kind (other lots, other matches): the section screens
    this one and each of these with a few rollouts and shows the one where the call
    matters most, so that a reader sees a decision rather than a tie."""


@dataclass(frozen=True)
class Tuning:
    """A best-response curve: one player plays ``strategy`` with ``param`` set to each
    value of ``grid``, every other seat the default strategy, sitting in every seat in
    turn on the same deals."""

    strategy: str
    param: str
    grid: tuple[float, ...]
    share: float = 0.1
    """Matches per grid point (over every seat), as a share of ``n``."""
    question: str = ""


@dataclass(frozen=True)
class GameSpec:
    game: str
    n: int = 20_000
    """Matches of the main runs (the strategy field, the variants) by default."""
    intro: str = ""
    """One paragraph on the game for a reader who does not know it."""
    rules: Mapping[str, Any] = _field(default_factory=dict)
    """Rule overrides for the whole game section (default: the game's defaults)."""
    field: tuple[str, ...] | None = None
    """``SEAT=STRATEGY`` items naming the strategy field (None: the default strategy in
    every seat). Its distinct strategies meet in a duplicate tournament (the equity,
    score and house-variant sections), whatever seats the items name."""
    field_note: str = ""
    tournament_share: float | None = None
    """Matches per lineup of the field's tournament (the equity and score sections), as a
    share of ``n`` (None: ``n`` over the number of lineups, so that the tournament plays
    about ``n`` games in all, as many as a fixed-seat run of the field)."""
    detail_share: float = 0.25
    """Size of the all-default run with detail tables (seats, money, prices), as a share
    of ``n``."""
    variants: tuple[Variant, ...] | None = None
    """House variants compared against the defaults (None: up to three flips of the
    game's true/false and choice rule keys)."""
    variant_share: float = 0.5
    situations: Callable[..., list[Situation]] | None = None
    """``situations(ctx)`` -> bid-EV situations (None: the section says there are none)."""
    rollout_share: float = 0.05
    tuning: Tuning | None = None
    """A best-response curve for the ``tuning`` section (None: the section is left out)."""
    sections: tuple[str, ...] = GENERIC_SECTIONS
    extra: Mapping[str, Callable[..., Any]] = _field(default_factory=dict)
    """Game-specific section builders by id (``build(ctx) -> Section | None``), placed
    where ``sections`` names them; an id here also overrides a generic builder."""
    score_unit: str = "points"


def generic_variants(game: str, limit: int = 3) -> tuple[Variant, ...]:
    """Flip each true/false rule key and try the first other choice of each choice key
    (never ``players`` or ``first_dealer``): a default comparison for games without a spec."""
    from sim.games import get_game

    g = get_game(game)
    defaults = g.make_rules({})
    out = []
    for key in g.rule_keys:
        if key.name in ("players", "first_dealer"):
            continue
        value = defaults[key.name]
        if key.kind == "bool":
            out.append(Variant({key.name: not value}, f"{key.rule}: {key.doc}".strip(": ")))
        elif key.kind == "choice":
            other = [c for c in key.choices if c != value]
            if other:
                out.append(Variant({key.name: other[0]}, f"{key.rule}: {key.doc}".strip(": ")))
        if len(out) == limit:
            break
    return tuple(out)


def generic_spec(game: str) -> GameSpec:
    return GameSpec(game=game)
