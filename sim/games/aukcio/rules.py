"""aukcio rule keys (``rules/aukcio.md``) and their packing for the kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.errors import RuleError
from sim.rules import RuleKey, Rules, first_dealer_key, make_rules

GAME = "aukcio"
MAX_PLAYERS = 6
NUMBER_CARDS = 36
"""Number cards 2..10 of one deck (K2)."""
JOKERS_PER_DECK = 3
MONEY_PER_DECK = NUMBER_CARDS + JOKERS_PER_DECK
FACE_PER_DECK = 16
"""J, Q, K, A of four suits (K2)."""

KEYS = (
    RuleKey("players", 3, "int", "number of players, each for himself", rule="K1", lo=3,
            hi=MAX_PLAYERS),
    first_dealer_key("K4, K5", "dealer; the seat after him turns the first card"),
    RuleKey("decks", lambda v: 1 if v["players"] == 3 else 2, "int",
            "52-card decks (3 jokers each): default 1 with 3 players, else 2", rule="K1",
            allowed=(1, 2)),
    RuleKey("hand_size", 5, "int", "money cards dealt to each player", rule="K4", lo=1, hi=15),
    RuleKey("buyer_draw", 2, "int", "money cards the buyer draws after a purchase", rule="K9",
            lo=0, hi=5),
    RuleKey("ace_draw", 1, "int", "when an ace is turned, cards every player but the turner "
            "draws", rule="K10", lo=0, hi=5),
    RuleKey("jokers_per_payment", 1, "int", "most jokers in one payment (each doubles a "
            "different number card)", rule="K3, K8", lo=0, hi=3),
    RuleKey("bidding", "open", "choice", "open: in turn until all others pass; single: each "
            "eligible player speaks once", rule="K7", choices=("open", "single")),
    RuleKey("unsold", "discard", "choice", "an unsold card is set aside, or put under the "
            "auction deck (discarded when unsold twice with no sale between)", rule="K11",
            choices=("discard", "bottom")),
)


def _check(rules: Rules) -> None:
    """K4: the deal must fit in the money deck."""
    dealt = rules.players * rules.hand_size
    held = rules.decks * MONEY_PER_DECK
    if dealt > held:
        raise RuleError(
            f"aukcio rules players={rules.players}, hand_size={rules.hand_size}, "
            f"decks={rules.decks}: the deal needs {dealt} money cards but the money deck "
            f"holds {held}; lower hand_size to at most {held // rules.players} or use "
            f"decks=2 (K4)")


def make(overrides: Mapping[str, Any] | None = None) -> Rules:
    return make_rules(GAME, KEYS, overrides, check=_check)


# Layout of the int64 rule vector the kernel reads (``pack``).
(R_PLAYERS, R_FIRST_DEALER, R_DECKS, R_HAND_SIZE, R_BUYER_DRAW, R_ACE_DRAW, R_JOKERS,
 R_SINGLE, R_BOTTOM) = range(9)
R_SIZE = 9


def pack(rules: Rules) -> np.ndarray:
    """The rule vector the kernel reads, in the order of the ``R_`` indices."""
    return np.array([rules.players, rules.first_dealer, rules.decks, rules.hand_size,
                     rules.buyer_draw, rules.ace_draw, rules.jokers_per_payment,
                     rules.bidding == "single", rules.unsold == "bottom"], dtype=np.int64)
