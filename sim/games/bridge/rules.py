"""bridge rule keys (``rules/bridge.md``), board facts (B1) and their packing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.rules import RuleKey, Rules, make_rules

GAME = "bridge"
SEATS = 4
SEAT_NAMES = "NESW"
"""Seat 0 is North, 1 East, 2 South, 3 West; NS = seats 0 and 2 (B1)."""


def seat_number(text) -> int | None:
    """A seat from its letter (N, E, S, W, any case) or its number (0..3); None where
    ``text`` is neither."""
    t = str(text).strip().upper()
    if t in ("0", "1", "2", "3"):
        return int(t)
    return SEAT_NAMES.index(t) if len(t) == 1 and t in SEAT_NAMES else None


VULNERABILITY = ("board", "none", "ns", "ew", "both")
KEYS = (
    RuleKey("vulnerability", "board", "choice", "vulnerability: by board number (i mod 16 + 1), "
            "or fixed for every board", rule="B1", choices=VULNERABILITY),
    RuleKey("play", "double_dummy", "choice", "how many tricks the declarer takes: the "
            "double-dummy number from an exact solver (DDS)", rule="B9",
            choices=("double_dummy",)),
    RuleKey("scoring", "duplicate", "choice", "duplicate score (Law 77)", rule="B10",
            choices=("duplicate",)),
)


def make(overrides: Mapping[str, Any] | None = None) -> Rules:
    return make_rules(GAME, KEYS, overrides)


# Vulnerability codes: bit 0 = NS vulnerable, bit 1 = EW vulnerable.
VUL_NONE, VUL_NS, VUL_EW, VUL_BOTH = 0, 1, 2, 3
VUL_NAMES = ("None", "NS", "EW", "Both")
BOARD_VUL = np.array([VUL_NONE, VUL_NS, VUL_EW, VUL_BOTH, VUL_NS, VUL_EW, VUL_BOTH, VUL_NONE,
                      VUL_EW, VUL_BOTH, VUL_NONE, VUL_NS, VUL_BOTH, VUL_NONE, VUL_NS, VUL_EW],
                     dtype=np.int64)
"""Vulnerability of boards 1..16 (index board - 1), B1."""

# Layout of the int64 rule vector the kernel reads (``pack``).
R_VUL = 0          # -1: by board; else a fixed vulnerability code
R_SIZE = 1


def pack(rules: Rules) -> np.ndarray:
    r = np.zeros(R_SIZE, dtype=np.int64)
    v = rules.vulnerability
    r[R_VUL] = -1 if v == "board" else ("none", "ns", "ew", "both").index(v)
    return r


def board_number(index: int) -> int:
    """Board number of match ``index``: ``index + 1``, one number per board of a run."""
    return index + 1


def board_cycle(index: int) -> int:
    """B1: the board of the 16-board cycle (1..16) whose dealer and vulnerability match
    ``index`` has (board 17 is dealt like board 1)."""
    return index % 16 + 1


def board_dealer(index: int) -> int:
    return (board_cycle(index) - 1) % 4


def board_vul(rules: Rules, index: int) -> int:
    """Vulnerability code of match ``index`` under ``rules`` (B1)."""
    v = rules.vulnerability
    if v == "board":
        return int(BOARD_VUL[board_cycle(index) - 1])
    return ("none", "ns", "ew", "both").index(v)
