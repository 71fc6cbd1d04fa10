"""A bid-EV situation for bridge: your hand, the board and the calls so far.

Keys (values as strings from the command line, or Python values):

``hand``     your 13 cards, PBN order S.H.D.C, ranks high to low, ``-`` for a void:
             ``AKQ52.K3.742.Q87``; ``S=AKQ52.K3.742.Q87`` also names your seat
             (``--hand S=AKQ52.K3.742.Q87`` on the command line)
``seat``     your seat, N E S W (or 0..3); default: the seat in ``hand``, else the seat
             whose turn it is after ``calls`` on the board, else N
``board``    the board number 1..16, which sets the dealer and vulnerability (B1)
``dealer``   instead of ``board``: the dealer, N E S W (default: the seat that makes it
             your turn after ``calls``)
``vul``      with ``dealer``: none, ns, ew or both (default none, or the fixed
             ``--rule vulnerability``)
``calls``    the calls so far, from the dealer: ``1H,P`` or ``'1H P'`` (P, X, XX, 1C..7N;
             ``NT`` for N, ``pass``/``dbl``/``rdbl`` also); ``auction`` is the same key.
             Default: none, you open the bidding
``hcp``      what the auction says about the hidden hands' high-card points (A4 K3 Q2
             J1), seats separated by ``;``: ``E=11-21;W=0-7`` (``E=12`` means 12 or more)
``shape``    their suit lengths: ``E=H5-;W=S0-3,H2-4`` (suit letter S H D C, then a range)
``known``    hands you know besides yours (a post-mortem): ``N=KQ3.A52.KJ6.8642``
``infer``    yes (default) or no: whether the calls so far condition the hidden hands

The hidden hands are dealt at random from the cards you do not hold, subject to
``hcp``/``shape``/``known``, and, with ``infer=yes``, to the calls: a seat playing
natural is dealt only hands on which natural makes exactly the calls it made
(rejection sampling; the ``calls_tell`` field of the JSON output names these seats).
So after ``1H,P`` the opener holds what natural opens 1H with, and the pass is a hand
that does not overcall. Seats playing random, pass or par, and ``known`` hands, are
not conditioned. ``infer=no`` deals the hidden hands from
``hcp``/``shape`` alone (a 1H opener: ``--state 'hcp=N=11-21' --state shape=N=H5-``).

Candidates: ``--candidates 2S,3S,4S`` (any legal calls; ``2H..4H`` is every bid from 2H
up to 4H), or by default pass, double or redouble where legal, and the cheapest bid in
each strain. Each candidate is made now; then every seat's strategy (``--strategy``,
default natural; yours too) bids the rest.

Each rollout deals the hidden hands once and plays every candidate on that deal (common
random numbers), solves it double dummy once (only the strains the final contracts
need) and scores each final contract for your side: the duplicate score (B10) ranks
the candidates; IMPs against the best candidate (teams) and the matchpoint share among
the candidates (pairs: 1 per candidate outscored, 1/2 per tie, over the others) come
with it. Solving a new deal takes ~0.05-0.25 s on two cores, so rollouts default to
200, with a progress bar; solved deals are cached on disk, so a rerun with the same
seed and situation, or with other candidates or strategies, solves nothing new.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sim.errors import BidlabError
from sim.games.bridge import core as C
from sim.games.bridge.deal import SUIT_LETTERS, Constraints, _range
from sim.games.bridge.pbn import format_hand, parse_hand
from sim.games.bridge.rules import BOARD_VUL, SEAT_NAMES, VUL_NAMES, seat_number
from sim.rules import Rules
from sim.situation import bad, check_keys, parse_candidates, span, whole, yes_no

KEYS = ("hand", "seat", "board", "dealer", "vul", "calls", "auction", "hcp", "shape", "known",
        "infer")
HAND_KEYS = tuple(SEAT_NAMES)
"""``N=AKQ52.K3.742.Q87`` as a key of its own (Python callers): your seat and hand."""
HELP = __doc__.split("\n\n", 1)[1]
METRIC = "score"
OUTCOMES = (("score", "score (your side)"), ("win", "matchpoints"), ("imps", "IMPs vs best"))
"""What bridge's bid-EV reports (``Game.bidev_outcomes``); the score ranks."""
ROLLOUTS = 200
VUL_WORDS = {"none": 0, "-": 0, "love": 0, "o": 0, "ns": 1, "ew": 2, "both": 3, "all": 3, "b": 3}
SEAT_WORDS = {"north": 0, "east": 1, "south": 2, "west": 3}


@dataclass
class Situation:
    seat: int
    hand: int
    """Card mask (bit ``suit * 13 + rank``)."""
    dealer: int
    vul: int
    """0 none, 1 NS, 2 EW, 3 both (bit 0 NS, bit 1 EW)."""
    calls: list[int]
    constraints: Constraints
    """Your hand and the ``known`` hands fixed; ``hcp``/``shape`` of the hidden hands."""
    infer: bool = True
    """Whether the calls so far condition the hidden hands (see the module's help)."""

    @property
    def board(self) -> int:
        """The board number 1..16 with this dealer and vulnerability (every pair occurs
        once, B1)."""
        return next(b + 1 for b in range(16) if b % 4 == self.dealer and BOARD_VUL[b] == self.vul)

    def to_json(self) -> dict[str, Any]:
        c = self.constraints
        return {"seat": SEAT_NAMES[self.seat], "hand": format_hand(self.hand),
                "board": self.board, "dealer": SEAT_NAMES[self.dealer],
                "vulnerability": VUL_NAMES[self.vul],
                "calls": [C.call_text(x) for x in self.calls],
                "known": {SEAT_NAMES[s]: format_hand(c.fixed[s]) for s in range(4)
                          if c.fixed[s] is not None and s != self.seat},
                "hcp": {SEAT_NAMES[s]: list(c.hcp[s]) for s in range(4) if c.hcp[s] != (0, 37)},
                "shape": {SEAT_NAMES[s]: {k: list(v) for k, v in c.lengths[s].items()}
                          for s in range(4) if c.lengths[s]},
                "infer": self.infer}


def _seat(key: str, value: Any) -> int:
    text = str(value).strip().lower()
    seat = SEAT_WORDS.get(text, seat_number(text))
    if seat is None:
        raise bad(key, value, "expected a seat: N, E, S or W (or 0..3)")
    return seat


def _hand(key: str, value: Any) -> int:
    try:
        mask = parse_hand(str(value))
    except BidlabError as e:
        raise bad(key, value, str(e)) from None
    n = bin(mask).count("1")
    if n != 13:
        raise bad(key, value, f"{n} cards; a hand has 13 (S.H.D.C, e.g. AKQ52.K3.742.Q87)")
    return mask


def _card_text(mask: int) -> str:
    c = (mask & -mask).bit_length() - 1
    return "SHDC"[3 - c // 13] + "23456789TJQKA"[c % 13]


def _hand_and_seat(values: dict[str, Any]) -> tuple[int, int | None]:
    """Your hand and, where the keys name it, your seat."""
    given = [k for k in HAND_KEYS if k in values]
    if "hand" in values:
        given.insert(0, "hand")
    if not given:
        raise BidlabError("the bridge situation needs your hand: hand=AKQ52.K3.742.Q87 "
                          "(--hand S=AKQ52.K3.742.Q87 names the seat too)")
    if len(given) > 1:
        raise BidlabError(f"the bridge situation gives your hand twice ({', '.join(given)}); "
                          f"give one")
    key = given[0]
    text = str(values[key]).strip()
    seat = None if key == "hand" else SEAT_NAMES.index(key)
    if key == "hand" and "=" in text:
        prefix, _, text = text.partition("=")
        seat = _seat("hand", prefix)
    if "seat" in values:
        other = _seat("seat", values["seat"])
        if seat is not None and other != seat:
            raise bad("seat", values["seat"], f"but the hand is given for "
                                               f"{SEAT_NAMES[seat]}; give one seat")
        seat = other
    return _hand(key, text), seat


def _auction(calls: list[int]) -> tuple[int, int, int, bool]:
    """Replay ``calls`` by relative seats (call k by seat k mod 4: legality depends only on
    who is whose partner): (last bid, its caller, doubled 0/1/2, auction over)."""
    last_bid, last_bidder, doubled, passes = 0, -1, 0, 0
    for k, call in enumerate(calls):
        if call == C.PASS:
            passes += 1
        elif call >= C.FIRST_BID:
            last_bid, last_bidder, doubled, passes = call, k % 4, 0, 0
        else:
            doubled, passes = call, 0
    over = passes == 4 if last_bid == 0 else passes >= 3
    return last_bid, last_bidder, doubled, over


def legal_text(mask: int) -> str:
    """``P, X, 1S..7N`` from a legal-call bit set."""
    parts = [C.call_text(c) for c in (C.PASS, C.DOUBLE, C.REDOUBLE) if mask >> c & 1]
    bids = span([C.call_text(c) for c in range(C.FIRST_BID, C.N_CALLS) if mask >> c & 1])
    return ", ".join(parts + [bids] * bool(bids))


def _why_illegal(call: int, last_bid: int, doubled: int) -> str:
    if call >= C.FIRST_BID:
        return f"a bid must be higher than the last bid, {C.call_text(last_bid)} (B3)"
    if call == C.DOUBLE:
        return ("a double needs an opponent's bid as the last call other than pass, "
                "undoubled (B4)")
    return "a redouble needs the last call other than pass to be an opponent's double (B4)"


def legal_now(calls: list[int]) -> int:
    """Legal-call bit set of the next caller after ``calls``."""
    last_bid, last_bidder, doubled, _ = _auction(calls)
    return int(C.legal_mask(last_bid, last_bidder, doubled, len(calls) % 4))


def _items(value: Any, seps: str = r"[,\s]+") -> list[str]:
    if isinstance(value, str):
        return [t for t in re.split(seps, value.strip()) if t]
    return [str(t).strip() for t in value]


def parse_calls(key: str, value: Any) -> list[int]:
    """The calls so far, each legal after the ones before, the auction not over."""
    calls: list[int] = []
    for k, item in enumerate(_items(value)):
        try:
            call = C.parse_call(item)
        except ValueError as e:
            raise bad(key, value, f"call {k + 1}: {e}") from None
        last_bid, last_bidder, doubled, over = _auction(calls)
        if over:
            raise bad(key, value, f"the auction ended with call {k} (B5, B6): nothing "
                                  f"follows it")
        legal = int(C.legal_mask(last_bid, last_bidder, doubled, k % 4))
        if not legal >> call & 1:
            raise bad(key, value, f"call {k + 1} ({item}) is illegal: "
                                  f"{_why_illegal(call, last_bid, doubled)}; legal there: "
                                  f"{legal_text(legal)}")
        calls.append(call)
    if calls and _auction(calls)[3]:
        raise bad(key, value, "the auction is over after these calls (B5, B6): there is no "
                              "call left to decide")
    return calls


def _vul(value: Any) -> int:
    text = str(value).strip().lower()
    if text not in VUL_WORDS:
        raise bad("vul", value, "expected none, ns, ew or both")
    return VUL_WORDS[text]


def _board_facts(rules: Rules, values: dict[str, Any], seat: int | None,
                 n_calls: int) -> tuple[int, int, int]:
    """(seat, dealer, vulnerability) from ``board`` or ``dealer``/``vul`` and the rules."""
    fixed_vul = None if rules.vulnerability == "board" else \
        ("none", "ns", "ew", "both").index(rules.vulnerability)
    if "board" in values:
        b = whole("board", values["board"], 1, 16) - 1
        dealer = b % 4
        vul = int(BOARD_VUL[b]) if fixed_vul is None else fixed_vul
        if "dealer" in values and _seat("dealer", values["dealer"]) != dealer:
            raise bad("dealer", values["dealer"], f"board {b + 1} is dealt by "
                                                  f"{SEAT_NAMES[dealer]} (B1): give board or "
                                                  f"dealer, not both")
        if "vul" in values and _vul(values["vul"]) != vul:
            raise bad("vul", values["vul"], f"board {b + 1} has vulnerability "
                                            f"{VUL_NAMES[vul]} (B1): give board or vul, not "
                                            f"both")
    else:
        vul = _vul(values["vul"]) if "vul" in values else (fixed_vul or 0)
        if fixed_vul is not None and vul != fixed_vul:
            raise bad("vul", values["vul"], f"the rules fix vulnerability="
                                            f"{rules.vulnerability} (B1)")
        if "dealer" in values:
            dealer = _seat("dealer", values["dealer"])
        else:
            dealer = ((seat or 0) - n_calls) % 4
    turn = (dealer + n_calls) % 4
    if seat is None:
        seat = turn
    elif seat != turn:
        raise BidlabError(
            f"it is not {SEAT_NAMES[seat]}'s turn: {SEAT_NAMES[dealer]} deals and after "
            f"{n_calls} call(s) it is {SEAT_NAMES[turn]}'s turn. Fix seat, the board/dealer "
            f"or calls")
    return seat, dealer, vul


def _seat_items(key: str, value: Any, seat: int) -> list[tuple[int, str]]:
    """``E=...;W=...`` -> [(seat, text)], never the asking seat."""
    out = []
    for item in _items(value, r"\s*;\s*"):
        who, sep, rest = item.partition("=")
        if not sep:
            raise bad(key, value, f"{item!r}: write SEAT=..., seats separated by ';' "
                                  f"(e.g. E=11-21;W=0-7)")
        s = _seat(key, who)
        if s == seat:
            raise bad(key, value, f"{SEAT_NAMES[s]} is your seat and your hand is given: "
                                  f"constrain the other seats")
        out.append((s, rest.strip()))
    return out


def _constraints(values: dict[str, Any], seat: int, hand: int) -> Constraints:
    c = Constraints()
    c.fixed[seat] = hand
    taken = hand
    for s, text in _seat_items("known", values.get("known", ""), seat):
        mask = _hand("known", text)
        if taken & mask:
            raise bad("known", values["known"], f"card {_card_text(taken & mask)} of "
                                                 f"{SEAT_NAMES[s]}'s hand is in another hand")
        c.fixed[s] = mask
        taken |= mask
    for s, text in _seat_items("hcp", values.get("hcp", ""), seat):
        try:
            c.hcp[s] = _range(text, 0, 37, f"{SEAT_NAMES[s]}={text}")
        except BidlabError as e:
            raise bad("hcp", values["hcp"], str(e)) from None
    for s, text in _seat_items("shape", values.get("shape", ""), seat):
        for part in _items(text, r"\s*,\s*"):
            letter = part[:1].upper()
            if letter not in SUIT_LETTERS:
                raise bad("shape", values["shape"], f"{part!r}: a suit letter (S H D C) "
                                                     f"then a length range, e.g. H5- or S0-3")
            try:
                c.lengths[s][letter] = _range(part[1:], 0, 13, f"{SEAT_NAMES[s]}={part}")
            except BidlabError as e:
                raise bad("shape", values["shape"], str(e)) from None
    _check_possible(c)
    return c


def _check_possible(c: Constraints) -> None:
    """Totals that no deal can meet: the hidden hands share the HCP and the cards of
    each suit that the fixed hands leave."""
    hidden = [s for s in range(4) if c.fixed[s] is None]
    fixed = [int(m) for m in c.fixed if m is not None]
    left = 40 - sum(int(C.hcp(m)) for m in fixed)
    lo = sum(c.hcp[s][0] for s in hidden)
    hi = sum(c.hcp[s][1] for s in hidden)
    if not lo <= left <= hi:
        raise BidlabError(f"situation hcp: the hidden hands hold {left} HCP between them "
                          f"(40 minus the known hands), but the hcp ranges ask for {lo}..{hi}")
    for j, letter in enumerate(SUIT_LETTERS):
        left = 13 - sum(int(C.suit_length(m, j)) for m in fixed)
        lo = sum(c.lengths[s].get(letter, (0, 13))[0] for s in hidden)
        hi = sum(c.lengths[s].get(letter, (0, 13))[1] for s in hidden)
        if not lo <= left <= hi:
            raise BidlabError(f"situation shape: the hidden hands hold {left} cards of suit "
                              f"{letter} between them, but the shape ranges ask for {lo}..{hi}")


def parse(rules: Rules, values: dict[str, Any]) -> Situation:
    check_keys("bridge", values, KEYS, also=HAND_KEYS, also_means="HAND")
    if "calls" in values and "auction" in values:
        raise BidlabError("the situation gives both calls and auction (the same key): give one")
    hand, seat = _hand_and_seat(values)
    key = "auction" if "auction" in values else "calls"
    calls = parse_calls(key, values.get(key, ""))
    seat, dealer, vul = _board_facts(rules, values, seat, len(calls))
    return Situation(seat, hand, dealer, vul, calls, _constraints(values, seat, hand),
                     yes_no("infer", values.get("infer", "yes")))


def action_name(call: int) -> str:
    """A candidate's name in bid-EV results: ``pass`` as in every game, else the call
    (``1H``, ``X``, ``XX``)."""
    return "pass" if call == C.PASS else C.call_text(call)


def candidates(s: Situation, given: list[str] | None) -> list[int]:
    """Candidate calls: ``given`` (calls, ``A..B`` every bid from A up to B; each legal
    now), or pass, X/XX where legal and the cheapest legal bid in each strain."""
    legal = legal_now(s.calls)
    bids = [c for c in range(C.FIRST_BID, C.N_CALLS) if legal >> c & 1]
    cheapest: dict[int, int] = {}
    for c in bids:
        cheapest.setdefault(C.bid_strain(c), c)
    default = [c for c in (C.PASS, C.DOUBLE, C.REDOUBLE) if legal >> c & 1] + \
        sorted(cheapest.values())
    last_bid, _, doubled, _ = _auction(s.calls)
    return parse_candidates(
        given, default, legal_text=legal_text(legal), name=C.call_text,
        illegal=lambda c: None if legal >> c & 1 else _why_illegal(c, last_bid, doubled),
        syntax="P, X, XX, a bid 1C..7N or a range of bids like 2H..4H",
        read=C.parse_call, is_bid=lambda c: c >= C.FIRST_BID)
