"""fpsb rule keys: a single-lot first-price sealed-bid auction (the validation game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sim.rules import RuleKey, Rules, make_rules

GAME = "fpsb"

KEYS = (
    RuleKey("players", 2, "int", "number of bidders, each with a private value uniform on [0, 1]",
            rule="F1", lo=2, hi=10),
)


def make(overrides: Mapping[str, Any] | None = None) -> Rules:
    return make_rules(GAME, KEYS, overrides)
