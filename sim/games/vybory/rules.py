"""vybory rule keys (``rules/vybory.md``) and their packing for the kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.rules import RuleKey, Rules, make_rules

GAME = "vybory"
PLAYERS = 4
HAND = 13
"""Cards dealt to each player (V1)."""
TRICKS = 13
N_TYPES = 8
"""Contract types, numbered 1..8 (rules file, "Contract types")."""
MAX_CALLS = 9
"""Announcements in the longest election: two rounds of distinct types, then the first
call of the third round (V4)."""

KEYS = (
    RuleKey("type_set", "standard", "choice", "how the seed's ten point lines group into "
            "eight types: standard (diamonds' two lines one type, spades' first two one type) "
            "or alt (red_cards, black_cards, tens_jacks_no_clubs)", rule="Contract types",
            choices=("standard", "alt")),
    RuleKey("first_dealer", 0, "int", "dealer of the first deal; then the next seat deals",
            rule="V1", lo=0, hi=PLAYERS - 1),
    RuleKey("scoring", "points", "choice", "points: each player adds his pair's contract "
            "points; result: +1 to each player of the pair that won the deal, -1 to the "
            "losers, 0 on a draw", rule="V12", choices=("points", "result")),
    RuleKey("deals_per_match", 8, "int", "deals in a tour (the match); the dealer rotates",
            rule="V1, V13", lo=1, hi=64),
)


def make(overrides: Mapping[str, Any] | None = None) -> Rules:
    return make_rules(GAME, KEYS, overrides)


# Layout of the int64 rule vector the kernel reads (``pack``).
R_ALT, R_FIRST_DEALER, R_RESULT, R_DEALS = range(4)
R_SIZE = 4


def pack(rules: Rules) -> np.ndarray:
    r = np.zeros(R_SIZE, dtype=np.int64)
    r[R_ALT] = int(rules.type_set == "alt")
    r[R_FIRST_DEALER] = rules.first_dealer
    r[R_RESULT] = int(rules.scoring == "result")
    r[R_DEALS] = rules.deals_per_match
    return r
