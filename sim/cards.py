"""Cards as small integers, and their text form (``rules/README.md``).

A card is ``suit * 13 + rank``: suits in bridge order clubs < diamonds < hearts <
spades, ranks ``2..A`` as ``0..12``; the joker is ``JOKER`` (52). Text form is rank
then suit (``TH``, ``AS``, ``JK``); the parser also takes ``10H``, lower case and the
Unicode suit symbols.
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.errors import BidlabError

RANKS = "23456789TJQKA"
SUITS = "CDHS"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
JOKER = 52
N_CARDS = 52

_SUIT_SYMBOLS = {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S"}


def card(rank: int, suit: int) -> int:
    """Card code of ``rank`` (0 = two .. 12 = ace) in ``suit`` (0 = clubs .. 3 = spades)."""
    return suit * 13 + rank


def rank_of(code: int) -> int:
    return code % 13


def suit_of(code: int) -> int:
    return code // 13


def format_card(code: int) -> str:
    """``TH`` for the ten of hearts, ``JK`` for the joker."""
    if code == JOKER:
        return "JK"
    if not 0 <= code < N_CARDS:
        raise BidlabError(f"card code {code} is not a card (allowed: 0..52)")
    return RANKS[code % 13] + SUITS[code // 13]


def parse_card(text: str) -> int:
    """Card code of ``text``: ``TH``, ``10h``, ``A♠``, ``JK``."""
    t = text.strip().upper()
    for symbol, letter in _SUIT_SYMBOLS.items():
        t = t.replace(symbol, letter)
    if t in ("JK", "JOKER"):
        return JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise BidlabError(
            f"cannot read card {text!r}: write rank then suit, ranks {' '.join(RANKS)} "
            f"(or 10), suits C D H S, e.g. 'TH' or 'AS'; the joker is 'JK'")
    return card(RANKS.index(t[0]), SUITS.index(t[1]))


def format_cards(codes: Iterable[int]) -> list[str]:
    return [format_card(int(c)) for c in codes]


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Cards from ``"TH AS 2c"`` (spaces or commas) or from a list of strings."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]
