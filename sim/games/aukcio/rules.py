"""aukcio rule keys (``rules/aukcio.md``) and their packing for the kernel."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sim.errors import RuleError
from sim.rules import RuleKey, Rules, make_rules

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
    RuleKey("first_dealer", 0, "int", "dealer; the seat after him turns the first card",
            rule="K4, K5", lo=0, hi=lambda v: v["players"] - 1),
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
    r = np.zeros(R_SIZE, dtype=np.int64)
    r[R_PLAYERS] = rules.players
    r[R_FIRST_DEALER] = rules.first_dealer
    r[R_DECKS] = rules.decks
    r[R_HAND_SIZE] = rules.hand_size
    r[R_BUYER_DRAW] = rules.buyer_draw
    r[R_ACE_DRAW] = rules.ace_draw
    r[R_JOKERS] = rules.jokers_per_payment
    r[R_SINGLE] = int(rules.bidding == "single")
    r[R_BOTTOM] = int(rules.unsold == "bottom")
    return r
