"""Reading the situation keys of bid-EV (``bidlab bid-ev --state KEY=VALUE``) and its
candidate calls (``--candidates``): errors that name the key, the value and what is
allowed, shared by every game (each game's ``situation.py`` says what its keys and calls
are)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
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


def dealer_of(values: dict[str, Any], seat: int, n_calls: int, n: int, calls_key: str) -> int:
    """The dealer of a situation in which ``seat`` speaks after ``n_calls`` calls of the
    deal (``calls_key=``) at a table of ``n``: ``dealer=`` where given, checked against
    that, else the seat that makes it so."""
    if "dealer" not in values:
        return (seat - 1 - n_calls) % n
    dealer = whole("dealer", values["dealer"], 0, n - 1)
    turn = (dealer + 1 + n_calls) % n
    if turn != seat:
        raise BidlabError(
            f"it is not seat {seat}'s turn: with dealer {dealer} and {n_calls} call(s) "
            f"before it ({calls_key}=) it is seat {turn}'s turn; seat {seat} speaks after "
            f"{(seat - dealer - 1) % n} call(s) when seat {dealer} deals. Fix seat=, "
            f"dealer= or {calls_key}=")
    return dealer


def check_keys(game: str, values: dict[str, Any], keys: Sequence[str], *,
               required: Sequence[str] = (), also: Sequence[str] = (), also_means: str = ""
               ) -> None:
    """Every key of ``values`` is one of ``keys`` (or of ``also``: keys that stand for
    something, listed as ``(or N/E/S/W=HAND)`` with ``also_means="HAND"``), and every key
    of ``required`` is there. An unknown key is named, with the nearest known key where
    one is close (a typo), and the game's keys are listed; every missing key is named."""
    known = list(keys) + list(also)
    unknown = sorted(set(values) - set(known))
    if unknown:
        names = []
        for key in unknown:
            near = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            names.append(f"{key!r}" + (f" (did you mean {near[0]}?)" if near else ""))
        listed = ", ".join(keys) + (f" (or {'/'.join(also)}={also_means})" if also else "")
        raise BidlabError(f"unknown {game} situation key{'s' if len(names) > 1 else ''} "
                          f"{', '.join(names)}; known keys: {listed}")
    missing = [key for key in required if key not in values]
    if missing:
        raise BidlabError(f"the {game} situation needs {', '.join(k + '=' for k in missing)} "
                          f"(see `bidlab bid-ev --help`)")


def parse_candidates(given: Iterable[Any] | None, default: Sequence[int], *,
                     illegal: Callable[[int], str | None], legal_text: str,
                     name: Callable[[int], str], syntax: str,
                     words: dict[str, int] | None = None,
                     read: Callable[[str], int] | None = None,
                     is_bid: Callable[[int], bool] | None = None) -> list[int]:
    """The candidate calls of a bid-EV situation (``--candidates``), each once, in the
    order given; ``default`` where none is given.

    Each item of ``given`` holds calls separated by commas or spaces: a word of ``words``
    (lower case, e.g. ``pass``), a bid that ``read`` reads (default: a whole number;
    ``read`` raises ValueError on anything else), or ``A..B``, every bid from bid ``A`` up
    to bid ``B`` (call codes in between: a higher code is a higher bid). The word ``bid``
    is skipped, so the action names of the results (``bid 3``) read back. ``is_bid``
    tells bids from the words (default: a code that no word has).

    Errors (:class:`BidlabError`): an item that is not a call, or a range that is not
    two bids upward, names the item and says what is allowed (``syntax``, e.g. ``pass, a
    bid or a range of bids like 4..11``); a call ``illegal`` here (it answers why, with
    the rule, or None for a legal call) names the call (``name``), why, and the legal
    calls (``legal_text``)."""
    given = [] if given is None else list(given)
    if not given:
        return list(default)
    words = words or {}
    is_bid = is_bid or (lambda code: code not in words.values())

    def call(text: str, item: str) -> int:
        if text.lower() in words:
            return words[text.lower()]
        try:
            if read is not None:
                return read(text)
            if text.isdigit() and is_bid(int(text)):  # not the code of a word (pitch's pass 0)
                return int(text)
        except ValueError:
            pass
        raise BidlabError(f"candidate {item!r}: write {syntax}")

    out: list[int] = []
    for item in given:
        for part in str(item).replace(",", " ").split():
            if part.lower() == "bid":
                continue
            a, sep, b = part.partition("..")
            if not sep:
                codes = [call(part, part)]
            else:
                lo, hi = call(a, part), call(b, part)
                if not (is_bid(lo) and is_bid(hi)):
                    raise BidlabError(f"candidate {part!r}: a range joins two bids; write "
                                      f"{syntax}")
                if lo > hi:
                    raise BidlabError(f"candidate {part!r} runs downward: a range goes from "
                                      f"the lower bid up, {b}..{a}")
                codes = range(lo, hi + 1)
            for code in codes:
                why = illegal(code)
                if why is not None:
                    of = f" (of {part})" if sep else ""
                    raise BidlabError(f"candidate {name(code)}{of} is illegal here: {why}; "
                                      f"legal calls: {legal_text}")
                out.append(code)
    if not out:
        raise BidlabError(f"no candidate in {list(given)!r}: write {syntax}")
    return list(dict.fromkeys(out))


def span(texts: Sequence[str]) -> str:
    """Consecutive calls as one range for a message: ``3..4``, ``1S..7N``, ``4`` (one)."""
    return "" if not texts else texts[0] if len(texts) == 1 else f"{texts[0]}..{texts[-1]}"
