"""Reading the situation keys of bid-EV (``bidlab bid-ev --state KEY=VALUE``): errors
that name the key, the value and what is allowed, shared by every game."""

from __future__ import annotations

from typing import Any

from sim.cards import parse_cards
from sim.errors import BidlabError


def bad(key: str, value: Any, why: str) -> BidlabError:
    return BidlabError(f"situation {key}={value!r}: {why}")


def whole(key: str, value: Any, lo: int, hi: int) -> int:
    """A whole number in ``lo..hi``."""
    try:
        v = int(str(value).strip())
    except ValueError:
        raise bad(key, value, f"expected a whole number in {lo}..{hi}") from None
    if not lo <= v <= hi:
        raise bad(key, value, f"out of range: allowed {lo}..{hi}")
    return v


def yes_no(key: str, value: Any) -> bool:
    text = str(value).strip().lower()
    if text in ("yes", "y", "true", "1", "on"):
        return True
    if text in ("no", "n", "false", "0", "off"):
        return False
    raise bad(key, value, "expected yes or no")


def per_seat(key: str, value: Any, n: int, lo: int, hi: int) -> list[int]:
    """``n`` comma-separated whole numbers in ``lo..hi``, one per seat."""
    parts = value.split(",") if isinstance(value, str) else list(value)
    if len(parts) != n:
        raise bad(key, value, f"expected {n} comma-separated whole numbers, one per seat")
    return [whole(key, p, lo, hi) for p in parts]


def own_hand(values: dict[str, Any], size: int, dealt: str) -> list[int]:
    """The ``hand`` key as card codes: ``size`` different cards (``dealt`` says which, for
    the error)."""
    try:
        cards = parse_cards(values["hand"])
    except BidlabError as e:
        raise bad("hand", values["hand"], str(e)) from None
    if len(cards) != size or len(set(cards)) != size:
        raise bad("hand", values["hand"], f"expected {size} different cards ({dealt})")
    return cards
