"""auktsion rule keys (``rules/auktsion.md``) and their packing for the kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.rules import RuleKey, Rules, first_dealer_key, make_rules

GAME = "auktsion"

KEYS = (
    RuleKey("players", 4, "int", "number of players: 4 with 52 cards, 3 with 48 (no twos)",
            rule="A1", allowed=(3, 4)),
    RuleKey("start_money", 70, "int", "coins per deal are start_money minus hand points",
            rule="A3", lo=1, hi=1000),
    RuleKey("min_bid", 1, "int", "smallest bid", rule="A8", lo=1, hi=lambda v: v["start_money"]),
    RuleKey("min_raise", 1, "int", "a bid beats the price by at least this", rule="A8", lo=1, hi=50),
    RuleKey("deals_per_match", lambda v: v["players"], "int",
            "deals in a match (default: one per player)", rule="A4", lo=1, hi=64),
    RuleKey("carry_money", True, "bool", "unspent money carries to the next deal", rule="A14"),
    RuleKey("leftover_value", 0.0, "float", "points per coin left after the last deal",
            rule="A14", lo=0.0, hi=10.0),
    RuleKey("auction_form", "open", "choice", "open ascending calls, or one sealed bid each",
            rule="A7-A11", choices=("open", "sealed")),
    first_dealer_key("A4"),
    RuleKey("suit_points", (4, 3, 2, 1), "ints", "points of a heart, diamond, spade, club",
            rule="A2", lo=0, hi=100, length=4),
)


def make(overrides: Mapping[str, Any] | None = None) -> Rules:
    return make_rules(GAME, KEYS, overrides)


# Layout of the int64 rule vector the kernel reads (``pack``).
R_PLAYERS, R_START_MONEY, R_MIN_BID, R_MIN_RAISE, R_DEALS, R_CARRY, R_SEALED, \
    R_FIRST_DEALER, R_FIRST_RANK, R_SUIT_POINTS = range(10)
R_SIZE = R_SUIT_POINTS + 4


def pack(rules: Rules) -> tuple[np.ndarray, float]:
    """(int64 rule vector, leftover value) for the kernel; suit points come in card
    suit order C, D, H, S (the rule key lists them H, D, S, C)."""
    h, d, s, c = rules.suit_points
    r = np.zeros(R_SIZE, dtype=np.int64)
    r[R_PLAYERS] = rules.players
    r[R_START_MONEY] = rules.start_money
    r[R_MIN_BID] = rules.min_bid
    r[R_MIN_RAISE] = rules.min_raise
    r[R_DEALS] = rules.deals_per_match
    r[R_CARRY] = int(rules.carry_money)
    r[R_SEALED] = int(rules.auction_form == "sealed")
    r[R_FIRST_DEALER] = rules.first_dealer
    r[R_FIRST_RANK] = 1 if rules.players == 3 else 0  # no twos with 3 players (A1, A5)
    r[R_SUIT_POINTS:R_SUIT_POINTS + 4] = (c, d, h, s)
    return r, float(rules.leftover_value)
