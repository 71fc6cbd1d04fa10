"""vybory rule keys (``rules/vybory.md``) and their packing for the kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.rules import RuleKey, Rules, first_dealer_key, make_rules

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
    first_dealer_key("V1", players=PLAYERS),
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
    """The rule vector the kernel reads, in the order of the ``R_`` indices."""
    return np.array([rules.type_set == "alt", rules.first_dealer, rules.scoring == "result",
                     rules.deals_per_match], dtype=np.int64)
