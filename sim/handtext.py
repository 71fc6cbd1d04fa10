"""Pieces of a hand history for people (``bidlab trace GAME --text``), shared by every
game's ``trace.text``: the header, hands by suit, calls and tricks in order, tables of
scores. Pure formatting of a JSON trace: nothing here plays or looks anything up.

Seats are ``P0``, ``P1``, ... (bridge: ``N E S W``); cards are as in the trace (rank
then suit, ``TH``, ``JK`` for the joker); lines stay within :data:`WIDTH` characters.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sim.cards import RANKS
from sim.rules import RuleKey

WIDTH = 100
"""The longest line a hand history writes."""

SUIT_ORDER = "SHDC"
"""Suits as a hand is shown: spades, hearts, diamonds, clubs."""

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def seat(s: int | None) -> str:
    """``P2`` for seat 2; ``-`` for none."""
    return "-" if s is None else f"P{s}"


def num(x: Any) -> str:
    """A score as a person writes it: ``79`` for 79.0, ``0.424`` for a fraction."""
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else f"{x:.3f}"
    return str(x)


def signed(x: Any) -> str:
    """A change of score: ``+3``, ``-2``, ``0``."""
    text = num(x)
    return text if text.startswith("-") or text == "0" else "+" + text


def by_rank(cards: Iterable[str]) -> list[str]:
    """Cards high to low by rank (suits in :data:`SUIT_ORDER` within a rank), the joker
    last."""
    def key(c: str):
        if c == "JK":
            return (1, 0, 0)
        return (0, -RANKS.index(c[0]), SUIT_ORDER.index(c[1]))
    return sorted(cards, key=key)


def suit_groups(cards: Iterable[str]) -> dict[str, list[str]]:
    """Ranks per suit in :data:`SUIT_ORDER`, high to low; the joker under ``JK``."""
    groups: dict[str, list[str]] = {s: [] for s in SUIT_ORDER}
    jokers = []
    for c in by_rank(cards):
        if c == "JK":
            jokers.append(c)
        else:
            groups[c[1]].append(c[0])
    if jokers:
        groups["JK"] = jokers
    return groups


def by_suit(cards: Iterable[str]) -> str:
    """``S: A K 7  H: Q 9 2  D: -  C: 5 3`` (and ``JK`` at the end where held)."""
    parts = []
    for suit, ranks in suit_groups(cards).items():
        parts.append("JK" * len(ranks) if suit == "JK" else f"{suit}: {' '.join(ranks) or '-'}")
    return "  ".join(parts)


def hand_lines(hands: Sequence[Iterable[str]], names: Callable[[int], str] = seat,
               notes: Sequence[str] | None = None, indent: str = "  ") -> list[str]:
    """One line per seat: its name, its cards by suit and an optional note."""
    out = []
    for s, cards in enumerate(hands):
        note = f"  ({notes[s]})" if notes and notes[s] else ""
        out.append(f"{indent}{names(s):<4}{by_suit(cards)}{note}")
    return out


_KEEP = "\xa0"
"""Joins the words of one item (``P1 pass``) so that :func:`wrap` never splits it."""


def keep(text: str) -> str:
    """``text`` as one unbreakable item for :func:`wrap`."""
    return text.replace(" ", _KEEP)


def wrap(text: str, indent: str = "  ", more: str | None = None) -> list[str]:
    """``text`` in lines of at most :data:`WIDTH`, never splitting an item of
    :func:`keep`; continuation lines indented ``more`` (default: two spaces deeper than
    ``indent``)."""
    lines = textwrap.wrap(text, WIDTH, initial_indent=indent,
                          subsequent_indent=indent + "  " if more is None else more,
                          break_on_hyphens=False, break_long_words=False)
    return [line.replace(_KEEP, " ") for line in lines] or [indent.rstrip()]


def changed_rules(rules: Mapping[str, Any], keys: Sequence[RuleKey]) -> list[str]:
    """``key=value`` of every rule that differs from its default (a default that
    depends on earlier keys is taken given their values in ``rules``)."""
    out, known = [], {}
    for key in keys:
        if key.name not in rules:
            continue
        value = rules[key.name]
        default = key.default_for(known)
        known[key.name] = value
        as_list = list(default) if isinstance(default, tuple) else default
        if value != as_list:
            shown = ",".join(map(str, value)) if isinstance(value, list) else value
            shown = str(shown).lower() if isinstance(shown, bool) else shown
            out.append(f"{key.name}={shown}")
    return out


def header(trace: Mapping[str, Any], keys: Sequence[RuleKey], what: str = "match",
           names: Callable[[int], str] = seat) -> list[str]:
    """The opening lines: game, seed and match, the rules that are not the defaults
    and each seat's strategy."""
    changed = changed_rules(trace.get("rules", {}), keys)
    lines = [f"{trace['game']}: seed {trace['seed']}, {what} {trace['index']}"]
    lines += wrap("rules: " + (", ".join(changed) if changed else "the defaults"), "")
    lines += wrap("strategies: " + ", ".join(f"{names(s)} {label}" for s, label
                                               in enumerate(trace.get("strategies", []))), "")
    return lines


def calls(seq: Iterable[tuple[int, str]], names: Callable[[int], str] = seat) -> str:
    """``P1 5, P2 pass, P3 6``: calls in order, each after its seat (for :func:`wrap`,
    which keeps every call on one line)."""
    return ", ".join(keep(f"{names(s)} {call}") for s, call in seq)


def bid(b: int | None, none: str = "pass") -> str:
    """A bid of a call list (``{"seat", "bid"}``): the amount, or ``none`` for null."""
    return none if b is None else num(b)


def trick_lines(tricks: Sequence[Mapping[str, Any]], names: Callable[[int], str] = seat,
                indent: str = "  ") -> list[str]:
    """One line per trick: number, leader, every card after its seat, the winner."""
    out = []
    for k, t in enumerate(tricks):
        (s0, c0), *rest = t["cards"]
        played = [f"{names(s0)} leads {c0}"] + [f"{names(s)} {c}" for s, c in rest]
        out.append(f"{indent}{k + 1:2d}. " + "  ".join(played) + f"   won by {names(t['winner'])}")
    return out


def table(head: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "  ") -> list[str]:
    """An aligned table: the first column left, the others right-aligned."""
    cells = [[str(c) for c in head]] + [[c if isinstance(c, str) else num(c) for c in r]
                                        for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(head))]
    return [indent + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))).rstrip()
            for r in cells]


def seat_table(columns: Mapping[str, Sequence[Any]], names: Callable[[int], str] = seat,
               indent: str = "  ", first: str = "") -> list[str]:
    """A table with one column per seat and one row per entry of ``columns`` (title ->
    one value per seat), e.g. a deal's points and the scores after it."""
    n = len(next(iter(columns.values())))
    return table([first] + [names(s) for s in range(n)],
                 [[title, *values] for title, values in columns.items()], indent)


def winners(seats: Sequence[int], names: Callable[[int], str] = seat,
            draw: str = "no winner") -> str:
    """``winner: P2``, ``winners (shared): P0, P3`` or ``draw``."""
    if not seats:
        return draw
    if len(seats) == 1:
        return f"winner: {names(seats[0])}"
    return "winners (shared): " + ", ".join(names(s) for s in seats)


def final(scores: Sequence[Any], won: Sequence[int], title: str = "final scores",
          names: Callable[[int], str] = seat, draw: str = "no winner") -> list[str]:
    """The closing lines: every seat's score, then the winner(s)."""
    return ["", *wrap(f"{title}: " + ", ".join(f"{names(s)} {num(x)}"
                                               for s, x in enumerate(scores)), ""),
            winners(won, names, draw)]
