"""Trick-taking machinery shared by the trick games (pitch first; bridge and vybory
reuse it): sets of cards as bit masks, legal cards, the winner of a trick, captured
cards.

A set of cards is an ``int64`` bit mask: bit ``c`` is card ``c`` of ``sim.cards``
(``suit * 13 + rank``), bit 52 the joker. A suit is 13 consecutive bits, ranks in
order, so "higher card of a suit" is "higher bit" and a suit's cards are
``(mask >> 13 * suit) & 0x1FFF``. Bit 63 is never used, so masks are non-negative and
fit exactly in the int64 observation vectors the policies read.

A game chooses its follow rule (:data:`FOLLOW_SUIT` for bridge and vybory,
:data:`FOLLOW_OR_TRUMP` for pitch P7), its trump (a suit, or :data:`NO_TRUMP`), and
whether the joker is in its deck; the joker, when present, is the lowest trump (pitch
P6). ``low_wins`` reverses the order within the trump and the suit led (vybory V9).

Every function here compiles without reference counting (``sim/jit.py``): no
allocation, scalars in and out (or arrays passed whole with an index), so the match
loops and the policies' playouts can call them in their hottest loops.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from sim.cards import JOKER
from sim.jit import jit
from sim.rng import below, next_u64

SUIT_BITS = 0x1FFF
"""The 13 bits of one suit, before shifting by ``13 * suit``."""
JOKER_BIT = 1 << JOKER
DECK52 = (1 << 52) - 1
"""The 52 ordinary cards."""
NO_TRUMP = -1
NO_CARD = -1

FOLLOW_SUIT = 0
"""Follow suit if able; otherwise any card (bridge, vybory V7)."""
FOLLOW_OR_TRUMP = 1
"""Follow suit or trump if able (trumping is allowed even when able to follow);
with neither, any card. A trump lead must be followed by a trump (pitch P7)."""

SPADES = 3


# -- bit intrinsics (one machine instruction each) ---------------------------------

@intrinsic
def popcount(typingctx, src):
    """Number of set bits."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return src(src), codegen


@intrinsic
def _cttz(typingctx, src):
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))
    return src(src), codegen


@intrinsic
def _ctlz(typingctx, src):
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return src(src), codegen


@jit
def lowest(mask):
    """Index of the lowest set bit (the lowest card); -1 for an empty mask."""
    if mask == 0:
        return np.int64(-1)
    return np.int64(_cttz(np.int64(mask)))


@jit
def highest(mask):
    """Index of the highest set bit (the highest card); -1 for an empty mask."""
    if mask == 0:
        return np.int64(-1)
    return np.int64(63 - _ctlz(np.int64(mask)))


@jit
def count(mask):
    return np.int64(popcount(np.int64(mask)))


@jit
def bit(card):
    return np.int64(1) << np.int64(card)


# -- suits and trumps --------------------------------------------------------------

@jit
def suit_cards(suit):
    """Mask of the 13 cards of ``suit`` (no joker)."""
    return np.int64(SUIT_BITS) << np.int64(13 * suit)


@jit
def trump_cards(trump):
    """Mask of the trumps: the trump suit and the joker (absent from decks without
    it, so the extra bit is harmless there); empty with ``NO_TRUMP``."""
    if trump < 0:
        return np.int64(0)
    return suit_cards(trump) | np.int64(JOKER_BIT)


@jit
def effective_suit(card, trump):
    """The suit a card counts as: its own, or the trump suit for the joker."""
    if card == JOKER:
        return np.int64(trump)
    return np.int64(card // 13)


@jit
def led_cards(led, trump):
    """Cards of the effective suit ``led`` (the joker belongs to the trump suit)."""
    if led == trump:
        return trump_cards(trump)
    return suit_cards(led)


@jit
def legal_cards(hand, led, trump, rule):
    """Mask of the cards of ``hand`` that may be played to a trick whose led
    (effective) suit is ``led`` (-1: this card leads, anything goes)."""
    if led < 0:
        return hand
    follow = hand & led_cards(led, trump)
    if rule == FOLLOW_OR_TRUMP and trump >= 0 and led != trump:
        follow |= hand & trump_cards(trump)
    return follow if follow != 0 else hand


@jit
def power(card, led, trump, low_wins):
    """Strength of ``card`` in a trick led in ``led``: the highest power wins. 0 for a
    card that can win nothing (off-suit, not trump); led suit 16 + rank; trump
    32 + rank, the joker 31 (the lowest trump). ``low_wins`` reverses the ranks."""
    if card == JOKER:
        r = -1
        s = trump
    else:
        r = card % 13
        s = card // 13
    if low_wins:
        r = 12 - r
    if trump >= 0 and s == trump:
        return np.int64(32 + r)
    if s == led:
        return np.int64(16 + r)
    return np.int64(0)


@jit
def beats(card, best, led, trump, low_wins):
    """Does ``card`` take the trick from ``best``, the card winning it so far?"""
    return power(card, led, trump, low_wins) > power(best, led, trump, low_wins)


@jit
def trick_winner(cards, k, led, trump, low_wins):
    """Position (0 = the lead) of the card that wins the trick ``cards[:k]``."""
    best = 0
    top = power(cards[0], led, trump, low_wins)
    for i in range(1, k):
        pw = power(cards[i], led, trump, low_wins)
        if pw > top:
            top = pw
            best = i
    return np.int64(best)


@jit
def beaters(mask, card, led, trump, low_wins):
    """The cards of ``mask`` that would beat ``card`` in a trick led in ``led``."""
    out = np.int64(0)
    target = power(card, led, trump, low_wins)
    m = np.int64(mask)
    while m != 0:
        c = lowest(m)
        m &= m - 1
        if power(c, led, trump, low_wins) > target:
            out |= np.int64(1) << c
    return out


@jit
def highest_trump(mask, trump):
    """The highest trump in ``mask`` (the joker only when it is the only one); -1 if none."""
    t = mask & suit_cards(trump)
    if t != 0:
        return highest(t)
    if mask & np.int64(JOKER_BIT):
        return np.int64(JOKER)
    return np.int64(-1)


@jit
def lowest_trump(mask, trump, with_joker):
    """The lowest trump in ``mask``: the joker if ``with_joker`` and present, else the
    lowest card of the trump suit; -1 if none."""
    if with_joker and mask & np.int64(JOKER_BIT):
        return np.int64(JOKER)
    return lowest(mask & suit_cards(trump))


# -- sets of cards -----------------------------------------------------------------

@jit
def to_cards(mask, out):
    """Write the cards of ``mask`` into ``out`` in increasing order; returns how many."""
    k = 0
    m = np.int64(mask)
    while m != 0:
        out[k] = lowest(m)
        m &= m - 1
        k += 1
    return k


@jit
def nth_card(mask, i):
    """The ``i``-th lowest card of ``mask`` (0-based)."""
    m = np.int64(mask)
    for _ in range(i):
        m &= m - 1
    return lowest(m)


@jit
def random_card(rng, mask):
    """A uniformly chosen card of a non-empty ``mask`` (one ``below`` draw)."""
    return nth_card(mask, below(rng, count(mask)))


@jit(inline=True)
def draw_card(rng, mask):
    """A uniformly chosen card of a non-empty ``mask``, faster than :func:`random_card`
    for large masks: 6-bit chunks of a 64-bit draw, the first that names a card of the
    mask wins (fewer than 16 cards: one ``below`` draw, as ``random_card``)."""
    k = count(mask)
    if k < 16:
        return nth_card(mask, below(rng, k))
    while True:
        x = next_u64(rng)
        for _ in range(10):
            c = np.int64(x & np.uint64(63))
            if (mask >> c) & 1:
                return c
            x = x >> np.uint64(6)


@jit(inline=True)
def first_lowest(mask, key, args):
    """The card of ``mask`` with the lowest ``key(card, args)``, the lowest card on a
    tie (-1: none), as ``sim.pytricks.first_lowest``. ``key`` is a jitted function the
    caller passes; this is inlined into the caller, which compiles (and caches) it with
    its key."""
    m = np.int64(mask)
    best = lowest(m)
    if m == 0:
        return best
    least = key(best, args)
    m &= m - 1
    while m != 0:
        c = lowest(m)
        m &= m - 1
        v = key(c, args)
        if v < least:
            least = v
            best = c
    return best


@jit
def rank_mask(rank):
    """The four cards of ``rank``."""
    b = np.int64(1) << np.int64(rank)
    return b | (b << np.int64(13)) | (b << np.int64(26)) | (b << np.int64(39))


@jit
def count_by_rank(mask, weights):
    """Sum of ``weights[rank]`` over the ordinary cards of ``mask`` (the joker counts
    0): e.g. the "game" count of pitch P13. One popcount per weighted rank."""
    total = np.int64(0)
    for r in range(13):
        w = weights[r]
        if w != 0:
            total += w * count(mask & rank_mask(r))
    return total


# -- the public trick state in a policy's observation --------------------------------

class TrickView(NamedTuple):
    """Where a trick game's observation vector (``sim/games/<game>/obs.py``) keeps the
    public state of the deal's tricks: one offset per field, per-seat fields holding
    one entry per seat. The match loops of every trick game update it through
    :func:`clear_tricks`, :func:`open_trick`, :func:`show_card` and
    :func:`close_trick` (``sim/pytricks.py`` for the reference engines), so the state
    a policy reads is kept by the same rules in every game.

    The helpers are inlined (``jit(inline=True)``) so that the view, a global of the
    game's ``obs.py``, is a constant in the match loop: called, they read its offsets
    at run time, which cost pitch 15% of its deals/s (``benchmarks/README.md``)."""

    trick: int       # trick number, 0-based
    leader: int      # seat that led (or leads) the trick in progress
    n_cards: int     # cards in the trick in progress
    played: int      # every card played in the deal (mask), the trick in progress included
    led: int         # effective suit led to the trick in progress; -1 before its lead
    winning: int     # card winning the trick in progress so far; -1 before its lead
    left: int        # per seat: cards still in hand
    played_by: int   # per seat: mask of the cards played
    won_by: int      # per seat: mask of the cards won in tricks
    voids: int       # per seat: suits (4-bit set) shown to be lacking
    cards: int       # the trick in progress, in play order from the leader

    @classmethod
    def of(cls, layout: Mapping[str, int]) -> TrickView:
        """The view of an observation layout that names these fields as every trick
        game's ``obs.py`` does (``TRICK``, ``LEADER``, ``TRICK_N``, ...): in ``obs.py``,
        ``TRICKS = TrickView.of(globals())``."""
        return cls(*(layout[name] for name in OBS_NAMES))


OBS_NAMES = ("TRICK", "LEADER", "TRICK_N", "PLAYED", "LED", "WINNING", "LEFT", "PLAYED_BY",
             "WON_BY", "VOIDS", "TRICK_CARDS")
"""The names of the :class:`TrickView` fields in a game's ``obs.py``, in field order."""


@jit(inline=True)
def clear_tricks(o, v, n, hand_size):
    """A new deal: no card played, ``hand_size`` cards in each of ``n`` hands."""
    o[v.trick] = 0
    o[v.leader] = -1
    o[v.n_cards] = 0
    o[v.played] = 0
    o[v.led] = -1
    o[v.winning] = -1
    for s in range(n):
        o[v.left + s] = hand_size
        o[v.played_by + s] = 0
        o[v.won_by + s] = 0
        o[v.voids + s] = 0
        o[v.cards + s] = -1


@jit(inline=True)
def open_trick(o, v, t, leader):
    """Trick ``t`` begins, ``leader`` to lead."""
    o[v.trick] = t
    o[v.leader] = leader


@jit(inline=True)
def show_card(o, v, k, s, card, trump, rule, low_wins):
    """Seat ``s`` plays ``card`` as the ``k``-th card of the trick in progress (``trump``
    the trump suit at that moment, ``rule`` the follow rule): the suit led, the card
    winning so far, the voids it reveals and the cards played."""
    b = np.int64(1) << card
    if k == 0:
        o[v.led] = effective_suit(card, trump)
        o[v.winning] = card
    else:
        led = o[v.led]
        o[v.voids + s] |= revealed_voids(card, led, trump, rule)
        if power(card, led, trump, low_wins) > power(o[v.winning], led, trump, low_wins):
            o[v.winning] = card
    o[v.cards + k] = card
    o[v.n_cards] = k + 1
    o[v.played] |= b
    o[v.played_by + s] |= b
    o[v.left + s] -= 1


@jit(inline=True)
def play_card(o, v, si, hands_at, k, s, card, trump, rule, low_wins):
    """Seat ``s`` plays ``card`` from its hand ``si[hands_at + s]`` as the ``k``-th card
    of the trick in progress (:func:`show_card`)."""
    si[hands_at + s] &= ~(np.int64(1) << card)
    show_card(o, v, k, s, card, trump, rule, low_wins)


@jit(inline=True)
def trick_so_far(o, v):
    """The cards of the trick in progress, as a mask."""
    m = np.int64(0)
    for k in range(o[v.n_cards]):
        m |= np.int64(1) << o[v.cards + k]
    return m


@jit(inline=True)
def close_trick(o, v, n):
    """The trick in progress (all ``n`` cards played) goes to the seat of its winning
    card; returns (that seat, the trick's cards as a mask)."""
    leader = o[v.leader]
    winner = np.int64(-1)
    taken = np.int64(0)
    for k in range(n):
        c = o[v.cards + k]
        taken |= np.int64(1) << c
        if c == o[v.winning]:
            winner = (leader + k) % n
        o[v.cards + k] = -1
    o[v.won_by + winner] |= taken
    o[v.n_cards] = 0
    o[v.led] = -1
    o[v.winning] = -1
    return winner, taken


@jit
def revealed_voids(card, led, trump, rule):
    """Suits a player has shown he lacks by playing ``card`` to a trick led in
    ``led`` (effective suits, as a 4-bit set, bit ``s`` for suit ``s``; the trump bit
    covers the joker too). Public information: everyone sees the card."""
    s = effective_suit(card, trump)
    if led < 0 or s == led:
        return np.int64(0)
    if rule == FOLLOW_SUIT:
        return np.int64(1) << np.int64(led)
    # FOLLOW_OR_TRUMP: a trump on a side-suit lead tells nothing (trumping in is
    # always allowed); anything else shows he has neither the suit led nor trumps.
    if trump >= 0 and s == trump:
        return np.int64(0)
    v = np.int64(1) << np.int64(led)
    if trump >= 0:
        v |= np.int64(1) << np.int64(trump)
    return v


@jit
def void_cards(voids, trump):
    """The cards a player with the void set ``voids`` cannot hold."""
    m = np.int64(0)
    for s in range(4):
        if voids & (np.int64(1) << np.int64(s)):
            m |= led_cards(s, trump) if trump >= 0 else suit_cards(s)
    return m


# -- comparisons by mask (highest card wins; what pitch and bridge need) ------------

@jit
def _above(card):
    """Bits strictly above ``card``."""
    return -(np.int64(2) << np.int64(card))


@jit
def beating(mask, best, led, trump):
    """The cards of ``mask`` that beat ``best`` (the card winning a trick led in
    ``led``), by masks alone: higher trumps, or any trump or a higher card of the suit
    led when ``best`` is not a trump. Same as :func:`beaters` without ``low_wins``."""
    if trump >= 0 and (best == JOKER or best // 13 == trump):
        if best == JOKER:
            return mask & suit_cards(trump)
        return mask & suit_cards(trump) & _above(best)
    out = mask & trump_cards(trump)
    if best // 13 == led:
        out |= mask & suit_cards(led) & _above(best)
    return out


@jit
def weakest(mask, led, trump):
    """The card of a non-empty ``mask`` with the least power in a trick led in
    ``led`` (ties between powerless cards: the lowest card)."""
    tr = trump_cards(trump)
    lc = led_cards(led, trump) if led >= 0 else np.int64(0)
    off = mask & ~tr & ~lc
    if off != 0:
        return lowest(off)
    side = mask & lc & ~tr
    if side != 0:
        return lowest(side)
    return lowest_trump(mask, trump, True)


@jit
def strongest(mask, led, trump):
    """The card of a non-empty ``mask`` with the most power in a trick led in ``led``."""
    t = highest_trump(mask, trump) if trump >= 0 else np.int64(-1)
    if t >= 0:
        return t
    if led >= 0:
        side = mask & suit_cards(led)
        if side != 0:
            return highest(side)
    return highest(mask)


# -- comparisons by mask in either order (no joker; what vybory needs, V9) ----------

@jit
def _better(card, low_wins):
    """Bits of the cards that rank above ``card`` in its suit's order: higher bits, or
    lower bits under ``low_wins`` (mask them with the suit)."""
    if low_wins:
        return (np.int64(1) << np.int64(card)) - 1
    return _above(card)


@jit
def weakest_in(mask, low_wins):
    """The card of a non-empty ``mask`` (cards of one suit) that ranks lowest in the
    order: the lowest card, or the highest under ``low_wins``."""
    return highest(mask) if low_wins else lowest(mask)


@jit
def strongest_in(mask, low_wins):
    """The card of a non-empty ``mask`` (cards of one suit) that ranks highest."""
    return lowest(mask) if low_wins else highest(mask)


@jit
def beating_order(mask, best, led, trump, low_wins):
    """The cards of ``mask`` that beat ``best`` (the card winning a trick led in ``led``)
    in a deck without the joker, in either order: :func:`beating` with ``low_wins``."""
    if trump >= 0:
        trumps = mask & suit_cards(trump)
        if best // 13 == trump:
            return trumps & _better(best, low_wins)
    else:
        trumps = np.int64(0)
    if best // 13 == led:
        return trumps | (mask & suit_cards(led) & _better(best, low_wins))
    return trumps


@jit
def sure_winner(card, unseen, trump, low_wins):
    """Would ``card``, led, win the trick whatever the ``unseen`` cards (held by the
    others) are? No unseen card of its suit ranks above it and, unless it is a trump,
    no trump is unseen (anyone may be void; deck without the joker)."""
    s = card // 13
    if unseen & suit_cards(s) & _better(card, low_wins):
        return False
    return trump < 0 or s == trump or unseen & suit_cards(trump) == 0
