"""The aukcio match loop (rules K1-K14), compiled with numba.

``play_chunk`` plays matches ``[start, start + count)`` into preallocated arrays; it is
the only entry point the runner uses. ``play_match`` plays one match and, when asked,
logs every event for the trace (``EV_*`` below) and every lot for the ``lots`` table.

This module imports the policy dispatcher from ``strategies.aukcio``, as every game's
kernel does (``sim/games/auktsion/kernel.py`` says why). The steps of a lot are inlined
into the match loop (``jit(inline=True)``): each takes some thirty arrays, and passing
them costs more than the step itself (one thread, 100,000 games, best of 5: setvalue
77-83k games/s called, 108-112k inlined; the same cold compile time, 28 s).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from sim.games.aukcio import core as C
from sim.games.aukcio import obs as O
from sim.games.aukcio.payment import (
    JOKERS,
    LEVEL_COLS,
    VALUES,
    WORDS,
    best_payment,
    most_payable,
    small_div,
)
from sim.games.aukcio.rules import (
    FACE_PER_DECK,
    JOKERS_PER_DECK,
    R_ACE_DRAW,
    R_BOTTOM,
    R_BUYER_DRAW,
    R_DECKS,
    R_FIRST_DEALER,
    R_HAND_SIZE,
    R_JOKERS,
    R_PLAYERS,
    R_SINGLE,
)
from sim.harness import ILLEGAL, TRACE_OVERFLOW, fail, show_rules
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, seed_stream, shuffle
from strategies.aukcio import GAIN_COLS, ceiling, decide, kinds_present, lot_gains, uses_rng

MAX_PLAYERS = O.MAX_PLAYERS
JOKER_CARD = 52
RING = 32
"""Capacity of the auction deck (a ring: unsold cards go under it, K11)."""
PILE = 80
"""Capacity of the draw and payment piles (78 money cards with two decks)."""
CAP = GAIN_COLS
BIDDER_COLS = GAIN_COLS + 1
"""Columns of ``bidders`` (a row per seat), for the lot on offer: what the card does for the seat
(``strategies.aukcio.lot_gains``, columns ``0 .. GAIN_COLS - 1``) and, at ``CAP``, its
ceiling."""

# Game scalars, ``g``; the last are the public kinds as bit sets (``_kind_bits``).
(G_AHEAD, G_ASIZE, G_DTOP, G_DEND, G_NPAID, G_RESHUFFLES, G_CURSOR, G_LOGGING,
 G_IN_DECK) = range(9)
G_OWNED = G_IN_DECK + 1
G_SIZE = G_OWNED + MAX_PLAYERS
# Rows of ``piles``.
P_AUCTION, P_MARK, P_DRAW, P_PAID = range(4)

# Rows of ``seat_out``, one per column of the seats table, each a (match, seat) array: a
# table column is then a contiguous copy, not a strided one (100,000 matches: 1 ms, not 5).
(S_FACE, S_SPENT, S_OVERPAID, S_PAID, S_JOKERS, S_DRAWN, S_MONEY_LEFT, S_CARDS_LEFT,
 S_SET) = range(9)
S_COLS = 9
# Columns of ``match_out``.
M_LOTS, M_SALES, M_RESHUFFLES, M_WINNER, M_SET = range(5)
M_COLS = 5
# Columns of ``lot_out`` (per lot, detail only).
(L_CARD, L_TURNER, L_SITTING_OUT, L_BUYER, L_PRICE, L_OVERPAID, L_PAID, L_JOKERS,
 L_CALLS, L_COMPLETED, L_BLOCKED, L_BUYER_MONEY, L_MONEY_HELD, L_DRAW_PILE) = range(14)
L_COLS = 14

# Trace events, rows (kind, a, b) of ``log``.
EV_LOT = 0        # (card, turner); the sitting-out seat is in the lot's LOT_OUT row
EV_SITTING = 1    # (seat or -1, first speaker)
EV_ACE = 2        # (seat, card drawn)
EV_CALL = 3       # (seat, bid or PASS)
EV_SALE = 4       # (buyer, price)
EV_PAY = 5        # (card, 0)
EV_DRAW = 6       # (seat, card): the buyer's draw
EV_RESHUFFLE = 7  # (cards, 0), then that many EV_CARD rows: the new draw pile, top first
EV_CARD = 8       # (card, 0)
EV_UNSOLD = 9     # (0 discarded, 1 put under the deck)
EV_WIN = 10       # (winner, set index into core.SETS)
EV_DECK = 11      # (card, 0): the auction deck, then the money deck, at the start

# Error records (``sim/harness.py``): ILLEGAL is a bid outside lo..hi (the smallest
# legal bid .. the most the seat can pay) that is not a pass; step is the lot number.


@jit(inline=True)
def _log(log, g, kind, a, b):
    if g[G_LOGGING]:
        c = g[G_CURSOR]
        if c < log.shape[0]:
            log[c, 0] = kind
            log[c, 1] = a
            log[c, 2] = b
        g[G_CURSOR] = c + 1


@jit(inline=True)
def _refresh_hand(counts, h, o, s, jp):
    """Seat ``s``'s hand vector and public card count, from its money cards."""
    held = 0
    for i in range(O.VALUES):
        h[s, O.HAND_COUNT + i] = counts[s, i]
        held += counts[s, i]
    h[s, O.HAND_MOST] = most_payable(counts[s], jp)
    h[s, O.HAND_HELD] = held
    o[O.MONEY_CARDS + s] = held


@jit(inline=True)
def _kind_bits(g, o, n):
    """``g[G_IN_DECK]``, ``g[G_OWNED + seat]``: the kinds in the auction deck and those
    each seat owns, as bit sets, from ``o``. The lots keep them up to date (one bit per
    change) rather than read 16 kinds per seat from ``o`` at every lot."""
    g[G_IN_DECK] = kinds_present(o, O.IN_DECK)
    for s in range(n):
        g[G_OWNED + s] = kinds_present(o, O.OWNED + s * O.KINDS)


@jit(inline=True)
def _count_card(h, o, s, i, k):
    """``_refresh_hand``'s counts after seat ``s`` gains ``k`` cards of value index ``i``
    (``k`` < 0: loses them); its ``HAND_MOST`` is left to the caller (``_refresh_most``),
    once for several cards."""
    h[s, O.HAND_COUNT + i] += k
    h[s, O.HAND_HELD] += k
    o[O.MONEY_CARDS + s] += k


@jit(inline=True)
def _refresh_most(R, counts, h, s):
    h[s, O.HAND_MOST] = most_payable(counts[s], R[R_JOKERS])


CARD_VALUE = np.array([c % 13 for c in range(JOKER_CARD)] + [JOKERS], np.int64)
"""The value index of each money card (``_value_index``), looked up: every draw and
payment needs it, and ``c % 13`` is a chain of some ten instructions."""
SUIT_UNIT = np.array([1 << 8 * (c // 13) for c in range(JOKER_CARD + 1)], np.int64)
"""Card ``c`` in ``suits``: one in byte ``c // 13``, its suit (the jokers' byte is 4)."""


@jit(inline=True)
def _value_index(c):
    return CARD_VALUE[c]


@jit(inline=True)
def _money(counts, s):
    """The face value of seat ``s``'s number cards (K3; jokers count nothing alone)."""
    total = 0
    for i in range(9):
        total += counts[s, i] * (i + 2)
    return total


@jit(inline=True)
def _take(suits, counts, s, c):
    """Seat ``s`` takes money card ``c``. ``suits[s, i]`` holds the cards of value index
    ``i`` a byte per suit, so that a payment finds the lowest suit held by a count of
    trailing zeros rather than a loop over the suits (``_pay``)."""
    i = _value_index(c)
    suits[s, i] += SUIT_UNIT[c]
    counts[s, i] += 1


@jit(inline=True)
def _draw(R, rng, g, piles, suits, counts, h, o, s, log, seat_out, m):
    """Seat ``s`` draws the top money card (K12: the payment pile is reshuffled into a
    new draw pile when the draw pile is empty; nothing is drawn when both are empty).
    Returns the card, or -1. The caller refreshes the seat's ``HAND_MOST``."""
    if g[G_DTOP] == g[G_DEND]:
        paid = g[G_NPAID]
        if paid == 0:
            return -1
        draw = piles[P_DRAW]
        for k in range(paid):
            draw[k] = piles[P_PAID, k]
        shuffle(rng, draw[:paid])
        g[G_DTOP], g[G_DEND], g[G_NPAID] = 0, paid, 0
        g[G_RESHUFFLES] += 1
        _log(log, g, EV_RESHUFFLE, paid, 0)
        for k in range(paid):
            _log(log, g, EV_CARD, draw[k], 0)
        for i in range(O.VALUES):
            o[O.PAID + i] = 0
        o[O.PAYMENT_PILE] = 0
    c = piles[P_DRAW, g[G_DTOP]]
    g[G_DTOP] += 1
    o[O.DRAW_PILE] = g[G_DEND] - g[G_DTOP]
    _take(suits, counts, s, c)
    _count_card(h, o, s, _value_index(c), 1)
    seat_out[S_DRAWN, m, s] += 1
    return c


@jit(inline=True)
def _pay(R, g, piles, suits, counts, h, o, s, price, pay, room, levels, best, log, seat_out,
         m):
    """The buyer pays ``price`` (K8) into the payment pile; returns (value, cards, jokers).
    The caller refreshes the buyer's ``HAND_MOST`` (after the buyer's draws)."""
    value = best_payment(counts[s], R[R_JOKERS], price, pay, room, levels, best)
    cards = 0
    paid = 0                          # the values paid, as a bit set
    for i in range(VALUES + 1):       # no branch on which values are paid: a coin toss
        k = pay[i]
        counts[s, i] -= k
        o[O.PAID + i] += k
        h[s, O.HAND_COUNT + i] -= k
        cards += k
        paid |= np.int64(k > 0) << i
    top = g[G_NPAID]
    while paid:                       # into the pile by value, the lowest first
        i = np.int64(trailing_zeros(np.uint64(paid)))
        paid &= paid - 1
        for _ in range(pay[i]):       # the lowest suit held: suits do not matter
            suit = np.int64(trailing_zeros(np.uint64(suits[s, i]))) >> 3
            c = JOKER_CARD if i == JOKERS else suit * 13 + i
            suits[s, i] -= SUIT_UNIT[c]
            piles[P_PAID, top] = c
            top += 1
            _log(log, g, EV_PAY, c, 0)
    # the card totals once, not per value: each is a float held in memory
    h[s, O.HAND_HELD] -= cards
    o[O.MONEY_CARDS + s] -= cards
    g[G_NPAID] = top
    o[O.PAYMENT_PILE] = top
    seat_out[S_SPENT, m, s] += value
    seat_out[S_OVERPAID, m, s] += value - price
    seat_out[S_PAID, m, s] += cards
    seat_out[S_JOKERS, m, s] += pay[JOKERS]
    return value, cards, pay[JOKERS]


@jit(inline=True)
def _ask(pids, params, table, rngs, o, h, gains, s, high, bidder, calls):
    o[O.SEAT] = s
    o[O.HIGH_BID] = high
    o[O.HIGH_BIDDER] = bidder
    o[O.CALLS] = calls
    return decide(pids[s], o, h[s], params[s], rngs[1 + s], gains, table)


NO_CALL = -3
"""No forced call: every seat's policy decides. (A forced call is bid-EV's candidate.)"""


@jit(inline=True)
def _ceiling_bidding(n, o, caps, h, s, high, bidder, calls):
    """``_bidding`` when every seat in the lot has a ceiling and no call is logged: each
    seat in turn bids the smallest legal bid while it is within ``caps`` and its money,
    else passes for good. Played a pass at a time: with ``left`` seats still in, t_0 ..
    t_{left-1} in turn from ``s``, every turn up to the next pass raises by one, so
    t_j's turns find the lot at ``high + tau`` for tau = j, j + left, ...; its first
    pass is at the least such tau with ``high + tau >= caps[t_j]``, and the next pass
    of all is the least of these (the residues differ: no ties)."""
    left = 0
    for t in range(n):
        if o[O.IN_LOT + t] > 0:
            left += 1
            caps[t] = min(caps[t], np.int64(h[t, O.HAND_MOST]))
    while left >= 2:
        first, passer, before = np.int64(1 << 62), -1, -1
        j, prev, t = 0, -1, s
        for _ in range(n):
            if o[O.IN_LOT + t] > 0:
                need = caps[t] - high - j
                tau = j if need <= 0 else j + left * small_div(need + left - 1, left)
                if tau < first:
                    first, passer, before = tau, t, prev
                prev = t
                j += 1
            t = _next_seat(t, n)
        if first > 0:                # the seat before the passer bid last: t_{j-1}
            high += first
            bidder = before if before >= 0 else prev   # the passer is t_0: t_{left-1}
        calls += first + 1
        o[O.IN_LOT + passer] = 0.0
        left -= 1
        s = _next_seat(passer, n)
        if left == 1 and bidder >= 0 and o[O.IN_LOT + bidder] > 0:
            return bidder, high, calls
    for t in range(n):               # the last seat in speaks: it raises or passes
        if o[O.IN_LOT + t] > 0:
            calls += 1
            if high >= caps[t]:
                o[O.IN_LOT + t] = 0.0
            else:
                high, bidder = high + 1, t
    return bidder, high, calls


@jit(inline=True)
def _bidding(R, pids, params, table, rngs, o, h, bidders, s, high, bidder, calls, forced, lot, m,
             err, log, g):
    """The calls of one lot (K6, K7) from seat ``s``, the lot standing at ``high`` bid by
    ``bidder`` (-1: none yet) after ``calls`` calls, ``o[IN_LOT]`` marking who may still
    call; a fresh lot is (first speaker, 0, -1, 0). Unless ``forced`` is NO_CALL, it is
    seat ``s``'s call. Returns (buyer or -1, price, calls)."""
    n = R[R_PLAYERS]
    single = R[R_SINGLE] == 1
    left = 0                     # seats that may still call
    o[O.HIGH_BID], o[O.HIGH_BIDDER], o[O.CALLS] = high, bidder, calls
    asks = False
    gains, caps = bidders[:, :CAP], bidders[:, CAP]   # policies see no seat's ceiling
    lot_gains(np.int64(o[O.CARD]), n, g[G_IN_DECK], g[G_OWNED:G_OWNED + n], gains)
    for t in range(n):
        if o[O.IN_LOT + t] > 0:
            left += 1
            if not single:
                o[O.SEAT] = t
                caps[t] = ceiling(pids[t], o, h[t], params[t], rngs[1 + t], gains, table)
                asks = asks or caps[t] == O.ASK
    if not single and not asks and forced == NO_CALL and not g[G_LOGGING]:
        return _ceiling_bidding(n, o, caps, h, s, high, bidder, calls)
    while True:
        if o[O.IN_LOT + s] > 0:
            lo = high + 1
            most = np.int64(h[s, O.HAND_MOST])
            if forced != NO_CALL:
                bid, forced = forced, NO_CALL
            elif single or caps[s] == O.ASK:
                bid = _ask(pids, params, table, rngs, o, h, gains, s, high, bidder, calls)
            else:
                bid = lo if lo <= caps[s] and lo <= most else O.PASS
            if bid != O.PASS and (bid < lo or bid > most):
                fail(err, m, ILLEGAL, s, 0, lot, bid, lo, most)
                return -1, 0, calls
            _log(log, g, EV_CALL, s, bid)
            calls += 1
            if bid == O.PASS or single:
                o[O.IN_LOT + s] = 0.0
                left -= 1
            if bid != O.PASS:
                high, bidder = bid, s
            # open: the lot ends when all but the high bidder have passed (or all have)
            if left == 0 or (not single and left == 1 and bidder >= 0
                             and o[O.IN_LOT + bidder] > 0):
                return bidder, high, calls
        s = _next_seat(s, n)


@jit(inline=True)
def _next_seat(s, n):
    """The seat after ``s`` (to its left): a compare, where ``(s + 1) % n`` divides by
    a number only known at run time, some 20-40 cycles, several times a lot."""
    return s + 1 if s + 1 < n else 0


@jit(inline=True)
def _first_speaker(turner, sitting_out, n):
    """K5: the turner, or the next seat when he sits out."""
    return turner if turner != sitting_out else _next_seat(turner, n)


RULES_SHOWN = np.array([(O.PLAYERS, R_PLAYERS), (O.DECKS, R_DECKS), (O.HAND_SIZE, R_HAND_SIZE),
                        (O.BUYER_DRAW, R_BUYER_DRAW), (O.ACE_DRAW, R_ACE_DRAW),
                        (O.JOKERS_PER_PAYMENT, R_JOKERS), (O.SINGLE, R_SINGLE),
                        (O.BOTTOM, R_BOTTOM)], np.int64)
"""(observation offset, packed rule index) of the rule values every policy sees."""


@jit
def _shuffle_decks(R, rng, piles):
    """K1, K2: the auction deck and the money deck, shuffled into ``piles``. Returns
    their sizes."""
    decks = R[R_DECKS]
    auction = piles[P_AUCTION]
    size = FACE_PER_DECK * decks
    for k in range(size):
        kind = k % O.KINDS
        auction[k] = (kind // 4) * 13 + 9 + kind % 4
    shuffle(rng, auction[:size])
    draw = piles[P_DRAW]
    money = 0
    for _ in range(decks):
        for suit in range(4):
            for r in range(9):
                draw[money] = suit * 13 + r
                money += 1
        for _ in range(JOKERS_PER_DECK):
            draw[money] = JOKER_CARD
            money += 1
    shuffle(rng, draw[:money])
    return size, money


@jit
def _deal(R, rngs, g, piles, suits, counts, h, o, log, deals, m):
    """K1, K2, K4: shuffle both decks (or take row ``m`` of ``deals``: the auction deck,
    then the money deck, top first), deal the money cards, set up the observation. The
    decks are shuffled either way, so a given deal leaves the stream where a dealt one
    does: the reshuffles of the match are the same."""
    n = R[R_PLAYERS]
    size, money = _shuffle_decks(R, rngs[DEAL_STREAM], piles)
    auction, draw = piles[P_AUCTION], piles[P_DRAW]
    if deals.shape[0] > 0:
        for k in range(size):
            auction[k] = deals[m, k]
        for k in range(money):
            draw[k] = deals[m, size + k]
    for k in range(RING):
        piles[P_MARK, k] = 0
    g[G_AHEAD], g[G_ASIZE] = 0, size
    if g[G_LOGGING]:
        for k in range(size):
            _log(log, g, EV_DECK, auction[k], 0)
        for k in range(money):
            _log(log, g, EV_DECK, draw[k], 0)
    g[G_DTOP], g[G_DEND], g[G_NPAID], g[G_RESHUFFLES] = 0, money, 0, 0
    # plain loops: numba's slice assignment here costs some 60 ns per array and match
    for s in range(n):
        for i in range(counts.shape[1]):
            suits[s, i] = 0
            counts[s, i] = 0
    for k in range(o.shape[0]):
        o[k] = 0.0
    show_rules(o, R, RULES_SHOWN)
    s = R[R_FIRST_DEALER]
    dealt = R[R_HAND_SIZE] * n
    for k in range(dealt):                  # one card at a time from the dealer's left
        s = _next_seat(s, n)
        _take(suits, counts, s, draw[k])
    g[G_DTOP] = dealt
    for s in range(n):
        _refresh_hand(counts, h, o, s, R[R_JOKERS])
        g[G_OWNED + s] = 0
    for kind in range(O.KINDS):
        o[O.IN_DECK + kind] = R[R_DECKS]
    g[G_IN_DECK] = (1 << O.KINDS) - 1       # every kind in the deck: ``_kind_bits`` of o
    o[O.DRAW_PILE] = g[G_DEND] - g[G_DTOP]
    o[O.SITTING_OUT] = -1


@jit(inline=True)
def _open_lot(R, rngs, g, piles, suits, counts, h, o, card, turner, sitting_out, lot, log,
              seat_out, m):
    """Turn ``card`` (K5), set up the public view of the lot, and make the ace draws
    (K10). Returns the first speaker."""
    n = R[R_PLAYERS]
    kind = C.card_kind(card)
    first = _first_speaker(turner, sitting_out, n)
    o[O.LOT], o[O.CARD], o[O.TURNER] = lot, kind, turner
    o[O.SITTING_OUT], o[O.FIRST] = sitting_out, first
    o[O.IN_DECK + kind] -= 1
    if o[O.IN_DECK + kind] == 0:
        g[G_IN_DECK] &= ~(1 << kind)
    o[O.AUCTION_LEFT] = g[G_ASIZE]
    for s in range(n):
        o[O.IN_LOT + s] = 0.0 if s == sitting_out else 1.0
    _log(log, g, EV_LOT, card, turner)
    _log(log, g, EV_SITTING, sitting_out, first)
    if kind % 4 == 3:
        for _ in range(R[R_ACE_DRAW]):
            s = turner
            for _ in range(n - 1):
                s = _next_seat(s, n)
                c = _draw(R, rngs[DEAL_STREAM], g, piles, suits, counts, h, o, s, log,
                          seat_out, m)
                if c >= 0:
                    _log(log, g, EV_ACE, s, c)
        for s in range(n):
            if s != turner:
                _refresh_most(R, counts, h, s)
    return first


@jit(inline=True)
def _lot(R, pids, params, table, rngs, g, piles, suits, counts, h, o, bidders, pay, room,
         levels, best, card, mark, lot, first, high, bidder, calls, forced, m, seat_out, lot_out,
         offsets, err, log):
    """Bid for ``card`` (turned by ``_open_lot``, or a bid-EV situation: the bidding
    resumes as ``_bidding`` says) and settle the lot (K8-K11, K14). Returns (buyer or
    -1, the set the purchase completed or -1)."""
    n = R[R_PLAYERS]
    kind = C.card_kind(card)
    row = offsets[m] + lot
    here = lot_out.shape[0] > 0 and row < offsets[m + 1]   # a first pass may lack rows
    if here:
        money_held = 0
        for s in range(n):
            money_held += _money(counts, s)
        lot_out[row, L_CARD], lot_out[row, L_TURNER] = card, np.int64(o[O.TURNER])
        lot_out[row, L_SITTING_OUT] = np.int64(o[O.SITTING_OUT])
        lot_out[row, L_MONEY_HELD] = money_held
        lot_out[row, L_DRAW_PILE] = g[G_DEND] - g[G_DTOP]
    buyer, price, calls = _bidding(R, pids, params, table, rngs, o, h, bidders, first, high,
                                   bidder, calls, forced, lot, m, err, log, g)
    if err[m, 0] != 0:
        return -1, -1
    if here:
        lot_out[row, L_CALLS] = calls
        lot_out[row, L_BUYER] = buyer
    if buyer < 0:                                                # K11
        if R[R_BOTTOM] == 1 and mark == 0:
            tail = (g[G_AHEAD] + g[G_ASIZE]) % RING
            piles[P_AUCTION, tail] = card
            piles[P_MARK, tail] = 1
            g[G_ASIZE] += 1
            o[O.IN_DECK + kind] += 1
            g[G_IN_DECK] |= 1 << kind
            _log(log, g, EV_UNSOLD, 1, 0)
        else:
            _log(log, g, EV_UNSOLD, 0, 0)
        if here:
            lot_out[row, L_PRICE] = -1
            lot_out[row, L_OVERPAID] = -1
            lot_out[row, L_BUYER_MONEY] = -1
        return -1, -1
    _log(log, g, EV_SALE, buyer, price)                          # K8, K9
    blocked = 0
    for r in range(n if here else 0):                           # detail only
        if r != buyer and C.completing_set(g[G_OWNED + r], kind) >= 0:
            blocked = 1
    buyer_money = np.int64(h[buyer, O.HAND_MOST])
    value, cards, jokers = _pay(R, g, piles, suits, counts, h, o, buyer, price, pay, room,
                                levels, best, log, seat_out, m)
    o[O.OWNED + buyer * O.KINDS + kind] += 1
    g[G_OWNED + buyer] |= 1 << kind
    seat_out[S_FACE, m, buyer] += 1
    done = C.completing_set(g[G_OWNED + buyer], kind)
    if here:
        lot_out[row, L_PRICE], lot_out[row, L_OVERPAID] = price, value - price
        lot_out[row, L_PAID], lot_out[row, L_JOKERS] = cards, jokers
        lot_out[row, L_COMPLETED], lot_out[row, L_BLOCKED] = done >= 0, blocked
        lot_out[row, L_BUYER_MONEY] = buyer_money
    if R[R_BOTTOM] == 1:                 # a sale clears the marks (only bottom sets them)
        for k in range(RING):
            piles[P_MARK, k] = 0
    if done >= 0:                                                # K14: the buyer wins
        _log(log, g, EV_WIN, buyer, done)
        return buyer, done
    for _ in range(R[R_BUYER_DRAW]):
        c = _draw(R, rngs[DEAL_STREAM], g, piles, suits, counts, h, o, buyer, log, seat_out, m)
        if c >= 0:
            _log(log, g, EV_DRAW, buyer, c)
    _refresh_most(R, counts, h, buyer)
    return buyer, -1


@jit
def _play_lots(R, pids, params, table, rngs, g, piles, suits, counts, h, o, bidders, pay,
               room, levels, best, turner, sitting_out, lot, sales, m, seat_out, lot_out, offsets,
               err, log):
    """Turn and sell cards until a set is made or the auction deck is empty (K5-K14).
    Returns (winner or -1, the set or -1, lots played, sales)."""
    n = R[R_PLAYERS]
    while g[G_ASIZE] > 0:
        head = g[G_AHEAD]
        card, mark = piles[P_AUCTION, head], piles[P_MARK, head]
        g[G_AHEAD] = (head + 1) % RING
        g[G_ASIZE] -= 1
        first = _open_lot(R, rngs, g, piles, suits, counts, h, o, card, turner, sitting_out,
                          lot, log, seat_out, m)
        buyer, done = _lot(R, pids, params, table, rngs, g, piles, suits, counts, h, o,
                           bidders, pay, room, levels, best, card, mark, lot, first, 0, -1, 0,
                           NO_CALL, m, seat_out, lot_out, offsets, err, log)
        lot += 1
        if err[m, 0] != 0:
            return -1, -1, lot, sales
        if buyer >= 0:
            sales += 1
        if done >= 0:
            return buyer, done, lot, sales
        sitting_out = buyer                                      # K9 (-1 after no sale)
        turner = _next_seat(turner, n)
    return -1, -1, lot, sales


@jit
def _finish(R, g, counts, h, winner, won_set, lots, sales, m, score, win, seat_out, match_out,
            err, log):
    n = R[R_PLAYERS]
    if g[G_LOGGING] and g[G_CURSOR] > log.shape[0] > 0:
        fail(err, m, TRACE_OVERFLOW, 0, 0, lots, 0, 0, 0)
    for s in range(n):
        score[m, s] = 1.0 if s == winner else 0.0
        win[m, s] = score[m, s]
        seat_out[S_MONEY_LEFT, m, s] = _money(counts, s)
        seat_out[S_CARDS_LEFT, m, s] = np.int64(h[s, O.HAND_HELD])
        seat_out[S_SET, m, s] = C.SET_KIND[won_set] if s == winner else -1
    match_out[m, M_LOTS], match_out[m, M_SALES] = lots, sales
    match_out[m, M_RESHUFFLES], match_out[m, M_WINNER] = g[G_RESHUFFLES], winner
    match_out[m, M_SET] = won_set


@jit(inline=True)
def seed_match(rngs, pids, n, seed, index):
    """The random streams of match ``index``: the deal's, and those of the seats whose
    policy draws random numbers (``uses_rng``; the other seats' are never read)."""
    seed_stream(rngs[DEAL_STREAM], seed, index, DEAL_STREAM)
    for s in range(n):
        if uses_rng(pids[s]):
            seed_stream(rngs[1 + s], seed, index, DEAL_STREAM + 1 + s)


@jit
def play_match(R, pids, params, table, seed, index, m, rngs, g, piles, suits, counts, h, o,
               bidders, pay, room, levels, best, score, win, seat_out, match_out, lot_out,
               offsets, err, log, deals):
    """Play match ``index`` into row ``m`` of the outputs (K1-K14); with ``deals`` (rows
    per match of the chunk, ``_deal``), its row ``m`` instead of a fresh deal."""
    n = R[R_PLAYERS]
    seed_match(rngs, pids, n, seed, index)
    for s in range(n):                  # a loop, not a slice assignment (``_deal``)
        for c in range(S_COLS):
            seat_out[c, m, s] = 0
    _deal(R, rngs, g, piles, suits, counts, h, o, log, deals, m)
    winner, won_set, lots, sales = _play_lots(
        R, pids, params, table, rngs, g, piles, suits, counts, h, o, bidders, pay, room,
        levels, best, _next_seat(R[R_FIRST_DEALER], n), -1, 0, 0, m, seat_out, lot_out, offsets, err, log)
    if err[m, 0] == 0:
        _finish(R, g, counts, h, winner, won_set, lots, sales, m, score, win, seat_out,
                match_out, err, log)


@jit(nrt=True)
def new_scratch():
    """The per-match working arrays (``play_match``'s ``rngs .. best``)."""
    return (np.empty((MAX_PLAYERS + 1, 4), np.uint64), np.zeros(G_SIZE, np.int64),
            np.zeros((4, PILE), np.int64), np.zeros((MAX_PLAYERS, O.VALUES), np.int64),
            np.zeros((MAX_PLAYERS, O.VALUES), np.int64),
            np.zeros((MAX_PLAYERS, O.HAND_LEN), np.float64), np.zeros(O.SIZE, np.float64),
            np.zeros((MAX_PLAYERS, BIDDER_COLS), np.int64), np.zeros(VALUES + 1, np.int64),
            np.zeros((VALUES + 1, 4, WORDS), np.uint64),
            np.zeros((VALUES, LEVEL_COLS), np.int64), np.zeros(3, np.int64))


@jit(parallel=True)
def play_chunk(R, pids, params, table, seed, start, count, n_blocks, score, win, seat_out,
               match_out, lot_out, offsets, err, deals):
    log = np.zeros((0, 3), np.int64)
    for b in prange(n_blocks):
        (rngs, g, piles, suits, counts, h, o, bidders, pay, room, levels,
         best) = new_scratch()
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            play_match(R, pids, params, table, seed, start + m, m, rngs, g, piles, suits, counts,
                       h, o, bidders, pay, room, levels, best, score, win, seat_out,
                       match_out, lot_out, offsets, err, log, deals)


@jit(parallel=True)
def deal_orders(R, seed, start, count, out):
    """Row m of ``out``: the auction deck then the money deck of match ``start + m`` as
    dealt, top first (the layout of ``deals``)."""
    for m in prange(count):
        rngs = np.empty((1, 4), np.uint64)
        piles = np.zeros((4, PILE), np.int64)
        seed_stream(rngs[0], seed, start + m, DEAL_STREAM)
        size, money = _shuffle_decks(R, rngs[DEAL_STREAM], piles)
        for k in range(size):
            out[m, k] = piles[P_AUCTION, k]
        for k in range(money):
            out[m, size + k] = piles[P_DRAW, k]
