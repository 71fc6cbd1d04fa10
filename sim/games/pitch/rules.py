"""pitch rule keys (``rules/pitch.md``) and their packing for the kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.rules import RuleKey, Rules, first_dealer_key, make_rules

GAME = "pitch"
HAND = 6
"""Cards dealt to each player (P1)."""
MAX_PLAYERS = 7
TOP_BID = 4

KEYS = (
    RuleKey("players", 4, "int", "number of players, each for himself", rule="P1", lo=2,
            hi=MAX_PLAYERS),
    first_dealer_key("P1"),
    RuleKey("joker", False, "bool", "53 cards: the joker is the lowest trump and scores a "
            "point to whoever wins it", rule="P1, P6, P12"),
    RuleKey("min_bid", 1, "int", "smallest bid", rule="P2", lo=1, hi=TOP_BID),
    RuleKey("dealer_hold", True, "bool", "the dealer may take the contract at the highest "
            "bid (below 4)", rule="P3"),
    RuleKey("all_pass", "redeal", "choice", "when everyone passes: the next dealer deals "
            "again, or the dealer must take min_bid", rule="P5",
            choices=("redeal", "stuck_dealer")),
    RuleKey("low_to", "dealt", "choice", "the low point goes to whoever was dealt the lowest "
            "trump, or to whoever wins it in a trick", rule="P10", choices=("dealt", "captured")),
    RuleKey("game_tie", "none", "choice", "a tie for game: nobody scores it, or the pitcher "
            "if he is among the tied", rule="P13", choices=("none", "pitcher")),
    RuleKey("smudge", False, "bool", "a pitcher who bids 4 and makes it wins at once",
            rule="P15"),
    RuleKey("target", lambda v: 10 if v["joker"] else 7, "int",
            "score that ends the game (default 7, 10 with the joker)", rule="P16", lo=1, hi=52),
    RuleKey("max_deals", 200, "int", "deals (redeals included) after which an open game is "
            "a draw", rule="P16", lo=1, hi=10000),
)


def make(overrides: Mapping[str, Any] | None = None) -> Rules:
    return make_rules(GAME, KEYS, overrides)


# Layout of the int64 rule vector the kernel reads (``pack``).
(R_PLAYERS, R_FIRST_DEALER, R_JOKER, R_MIN_BID, R_DEALER_HOLD, R_STUCK, R_LOW_CAPTURED,
 R_TIE_PITCHER, R_SMUDGE, R_TARGET, R_MAX_DEALS) = range(11)
R_SIZE = 11


def pack(rules: Rules) -> np.ndarray:
    """The rule vector the kernel reads, in the order of the ``R_`` indices."""
    return np.array([rules.players, rules.first_dealer, rules.joker, rules.min_bid,
                     rules.dealer_hold, rules.all_pass == "stuck_dealer",
                     rules.low_to == "captured", rules.game_tie == "pitcher", rules.smudge,
                     rules.target, rules.max_deals], dtype=np.int64)
