"""Per-game report specs: ``reports/games/<game>.py`` defines ``SPEC`` (a
:class:`reports.spec.GameSpec`); games without one get :func:`reports.spec.generic_spec`.
Adding a game's spec needs no edit anywhere else."""

from __future__ import annotations

import importlib
import importlib.util

from reports.spec import GameSpec, generic_spec


def spec_for(game: str) -> GameSpec:
    """The game's report spec, or the generic one."""
    name = f"{__name__}.{game}"
    if importlib.util.find_spec(name) is None:
        return generic_spec(game)
    spec = getattr(importlib.import_module(name), "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise TypeError(f"{name} must define SPEC = GameSpec(...)")
    return spec
