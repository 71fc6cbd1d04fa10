"""The payment of K8, searched exactly: of every set of money cards worth at least the
price, the one that overpays least, then has the fewest cards, then the fewest jokers.

Money is counted by value: ``counts[i]`` number cards of value ``i + 2`` (``i`` = 0..8,
twos to tens) and ``counts[JOKERS]`` jokers. A joker paid with number cards doubles one
of them (a different one for each joker, K3); at most ``jokers_per_payment`` jokers go
into one payment, and a joker with no number card to double is worth nothing, so it is
never paid.

Payments tied on all three are broken by paying more cards of the highest value,
then of the next, and so on (the tens first): K8 accepts any of them, and one rule
makes the payment a function of the hand and the price.

A payment by one or two cards worth exactly the price is found directly
(``_one_or_two_cards``: 59% of the payments of 3-player games). Otherwise the totals
the hand can pay are found as bit sets (per value, per number of jokers used; one or
two words in local variables, built without branches, for the usual prices and at
most one joker); the least of them at or above the price is what
is paid. Then a search walks the values held from the tens down, choosing how many
cards of each value to pay plainly and how many to double, following only choices
from which the rest of that total is still reachable, the most cards of a value first
(doubling cards only when all of a value are paid: anything else loses to paying more
of them plainly), and cutting any that cannot beat the best payment found, by a lower
bound on the cards still needed (the fewest *units*, cards and the jokers doubling
them, that cover the rest), with the value's remaining choices when that is why. It
stops early at a payment with as few cards as any can have and no joker.

The search and the bit-set builders are inlined into ``best_payment``: called from a
function that counts references (the benchmark's loop), each call with arrays costs
tens of nanoseconds (one thread, prices 1..all: about 3.6M payments/s called, 4.5M
inlined).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

from sim.jit import jit

VALUES = 9
JOKERS = 9
"""Index of the jokers in a count vector (after the nine values 2..10)."""
COUNTS = 10


@jit(inline=True)
def most_payable(counts, jokers_per_payment):
    """The most a seat can pay (K6): every number card, the highest of them doubled by
    as many jokers as it may pay."""
    total = 0
    for i in range(VALUES):               # no dependency from one value to the next
        total += counts[i] * (i + 2)
    doubled = min(counts[JOKERS], jokers_per_payment)
    i = VALUES - 1
    while doubled > 0 and i >= 0:         # most hands hold no joker: no iteration
        d = min(counts[i], doubled)
        total += d * (i + 2)
        doubled -= d
        i -= 1
    return total


@jit(inline=True)
def _prefix(lv, i, best_take):
    """How the cards per value chosen at levels 8 (tens) .. ``i`` compare with the best
    payment's, from the tens down: 1 more, -1 fewer (at the first value that differs),
    0 the same. A full payment that compares 1 wins the tie-break."""
    for j in range(VALUES - 1, i - 1, -1):
        if lv[j, 0] != best_take[j]:
            return 1 if lv[j, 0] > best_take[j] else -1
    return 0


WORDS = 8
"""Bit-set words of the totals a payment can reach: 512 totals hold every money card of
two decks (432) with three tens doubled."""


@jit
def _or_shifted(dst, src, shift, words):
    """dst |= src << shift, over ``words`` 64-bit words."""
    q, r = shift >> 6, shift & 63
    for w in range(words - 1, q - 1, -1):
        x = src[w - q] << np.uint64(r)
        if r and w - q - 1 >= 0:
            x |= src[w - q - 1] >> np.uint64(64 - r)
        dst[w] |= x


@jit
def _reach(counts, jokers, words, reach):
    """reach[i + 1, j]: the totals (as bits) that cards of values 0..i pay with exactly
    j of them doubled; totals past ``words`` words are dropped (never needed)."""
    reach[:, :, :words] = 0
    reach[0, 0, 0] = 1
    for i in range(VALUES):
        c, v = counts[i], i + 2
        for j in range(jokers + 1):
            for d in range(min(c, j) + 1):
                for k in range(c - d + 1):
                    _or_shifted(reach[i + 1, j], reach[i, j - d], (k + 2 * d) * v, words)
        # from here on: ``reach[i + 1, j]`` holds j doubled *or fewer*, as the search asks
    for i in range(VALUES + 1):
        for j in range(1, jokers + 1):
            for w in range(words):
                reach[i, j, w] |= reach[i, j - 1, w]


COMB = 4
"""The most cards of one value ``_reach_one_word`` and ``_reach_two_words`` add (one
deck's four); for a hand holding more (two decks) they return False, and ``_reach``
builds the bit sets."""


@jit(inline=True)
def _steps(c, v):
    """The shifts that add 0..c cards of value ``v`` (c <= COMB) to a bit set of totals:
    k * v for k = 1..4, or 0 where k > c (x | x << 0 is x: nothing added), so that
    every value takes the same steps, whatever it holds; and, last, the shift of one
    doubled among all c paid, (c + 1) * v (0 when c is 0)."""
    c = min(c, COMB)     # more: the caller's result is not used, but no shift is undefined
    return (np.uint64(v * (c >= 1)), np.uint64(2 * v * (c >= 2)), np.uint64(3 * v * (c >= 3)),
            np.uint64(4 * v * (c >= 4)), np.uint64((c + 1) * v * (c >= 1)))


@jit(inline=True)
def _reach_one_word(counts, reach):
    """``_reach`` for at most one joker and COMB cards of a value, when every total
    needed fits in one word (prices up to 44: most prices paid in play), without a
    branch: the counts held are random, so branching on them is mispredicted most of
    the time (one thread, the payments of 3-player games: bit sets and target in 69 ns
    a payment with a branch per value and card, 30 without). Returns False, having
    built nothing of use, when a value is held more than COMB times. Layer 0 (no card
    doubled) gains up to c cards of v; layer 1 (at most one doubled) the same, or layer
    0's totals plus all c cards with one doubled: fewer cards of v with one doubled are
    already in layer 0 (2v is two plain cards)."""
    a, b = np.uint64(1), np.uint64(1)
    reach[0, 0, 0], reach[0, 1, 0] = a, b
    over = False
    for i in range(VALUES):
        over |= counts[i] > COMB
        s1, s2, s3, s4, d = _steps(counts[i], i + 2)
        a, b = (a | (a << s1) | (a << s2) | (a << s3) | (a << s4),
                b | (b << s1) | (b << s2) | (b << s3) | (b << s4) | (a << d))
        reach[i + 1, 0, 0], reach[i + 1, 1, 0] = a, b
    return not over


@jit(inline=True)
def _shl2(lo, hi, s):
    """The two-word bit set (lo, hi) shifted up by ``s`` < 64 bits (bits past 128
    dropped); lo >> (64 - s) in two steps: a shift by 64 is undefined (s = 0)."""
    return lo << s, (hi << s) | ((lo >> np.uint64(1)) >> (np.uint64(63) - s))


@jit(inline=True)
def _reach_two_words(counts, reach):
    """``_reach_one_word`` when every total needed fits in two words (prices up to 108:
    nearly all of them)."""
    a_lo, a_hi = np.uint64(1), np.uint64(0)
    b_lo, b_hi = np.uint64(1), np.uint64(0)
    reach[0, 0, 0], reach[0, 0, 1], reach[0, 1, 0], reach[0, 1, 1] = a_lo, a_hi, b_lo, b_hi
    over = False
    for i in range(VALUES):
        over |= counts[i] > COMB
        s1, s2, s3, s4, d = _steps(counts[i], i + 2)
        x1, y1 = _shl2(a_lo, a_hi, s1)
        x2, y2 = _shl2(a_lo, a_hi, s2)
        x3, y3 = _shl2(a_lo, a_hi, s3)
        x4, y4 = _shl2(a_lo, a_hi, s4)
        xd, yd = _shl2(a_lo, a_hi, d)
        a_lo, a_hi = a_lo | x1 | x2 | x3 | x4, a_hi | y1 | y2 | y3 | y4
        x1, y1 = _shl2(b_lo, b_hi, s1)
        x2, y2 = _shl2(b_lo, b_hi, s2)
        x3, y3 = _shl2(b_lo, b_hi, s3)
        x4, y4 = _shl2(b_lo, b_hi, s4)
        b_lo, b_hi = b_lo | x1 | x2 | x3 | x4 | xd, b_hi | y1 | y2 | y3 | y4 | yd
        reach[i + 1, 0, 0], reach[i + 1, 0, 1] = a_lo, a_hi
        reach[i + 1, 1, 0], reach[i + 1, 1, 1] = b_lo, b_hi
    return not over


@jit(inline=True)
def _has(bits, total):
    return (bits[total >> 6] >> np.uint64(total & 63)) & np.uint64(1)


OVERPAY = 20
"""Every payment overpays less than a doubled ten: were it 20 or more, the payment
without one of its cards would still pay the price."""


@jit(inline=True)
def _least_total(bits, price):
    """The least total in ``bits`` from ``price`` to ``price + OVERPAY - 1``, or -1 when
    there is none: then the seat cannot pay ``price`` at all. Two words at most, each
    scanned with a count of trailing zeros."""
    end = price + OVERPAY
    w = price >> 6
    if w >= bits.shape[0]:
        return -1                         # past every total two decks can pay
    x = bits[w] >> np.uint64(price & 63)
    t = price + np.int64(trailing_zeros(x)) if x else end
    w += 1
    if x == 0 and w << 6 < end and w < bits.shape[0] and bits[w]:
        t = (w << 6) + np.int64(trailing_zeros(bits[w]))
    return t if t < end else -1


NONE = 1 << 40
"""The cards and jokers of the best payment before one is found."""


LEVEL_COLS = 9
"""Columns of the search's level table (``_search``); the last holds the next value held
below each level, found once per search rather than at every step."""


DIV_SHIFT = 24
DIV_MUL = np.array([0, 0] + [((1 << DIV_SHIFT) + w - 1) // w for w in range(2, VALUES + 2)],
                   np.int64)
"""ceil(2**DIV_SHIFT / w) for w = 2..10 (``small_div``)."""


@jit(inline=True)
def small_div(x, w):
    """x // w for 0 <= x < 2**16 and 2 <= w <= 10 (a card value, or the seats still in
    a lot), as a multiplication and a shift: the search divides at every step, and a
    division costs some 25 cycles. Exact: the multiplier's rounding adds under x / 2**24
    < 1/256 to x / w, whose fraction is at most 9/10."""
    return (x * DIV_MUL[w]) >> DIV_SHIFT


@jit(inline=True)
def _fewest_cards(counts, top, jokers, target):
    """A lower bound on the cards of any payment of ``target`` from the values ``top``
    and below: a payment of n cards is worth at most its n highest *units*, a unit
    being a card or the joker doubling it (so the highest cards count twice, one for
    each joker)."""
    cards, extra = 0, jokers
    for i in range(top, -1, -1):
        v = i + 2
        doubled = min(counts[i], extra)
        extra -= doubled
        units = counts[i] + doubled
        if target <= units * v:
            return cards + small_div(target + v - 1, v)
        target -= units * v
        cards += units
    return cards


@jit(inline=True)
def _most_units(c, q, jokers_left):
    """The most cards (a joker counting as one) a level holding ``c`` cards pays when
    ``q`` of its value fit in what is left of the target: all its cards, then a joker
    for each card doubled, or ``q``."""
    if q <= c:
        return q
    return c + min(c, jokers_left, q - c)


@jit(inline=True)
def _search(counts, target, price, jokers, reach, lv, best, best_take):
    """The fewest cards, then fewest jokers, then highest cards (``_prefix``) that pay
    exactly ``target``, over the values held from the tens down to the twos, without
    recursion: ``lv[i]`` holds level i's choice (cards of value i + 2 paid, and the
    units paid: those cards and the jokers doubling them), the payment it extends
    (total, cards, jokers left, jokers used), the most cards of the value that fit in
    what is left of the target, and the level above. Values not held are skipped:
    their level keeps 0 cards paid.

    A level's choices are its units, from the most down: m cards with d of them
    doubled is beaten by m + d cards paid plainly whenever m + d <= c (as many cards,
    fewer jokers, more of this value), so a level doubles cards only when it pays all
    c it holds, and k units are min(k, c) cards and the rest jokers. Each later choice
    pays less and (no further unit adding more than the next value held) needs at
    least as many cards in all, one more for each unit fewer here; so once a choice
    needs more cards than the best payment found, or overshoots nothing but leaves no
    value below, the rest of the level is cut too (where the level pays no joker: a
    choice with one joker fewer may leave one to use below). A branch is cut when it
    cannot pay with fewer cards, or as few with fewer jokers, or tie them with more
    cards of the higher values (``_prefix``); the cards it still needs are bounded by
    ``_fewest_cards`` of the values that fit in the rest, once there is a payment to
    beat. Only choices from which the rest of the target is still reachable
    (``reach``) are followed, straight to the highest value held that fits in the
    rest.

    Payments without a joker are found in the order of the tie-break (the most cards
    of the highest value first), so the search stops at the first one that pays with
    as few cards as ``_fewest_cards`` allows and no joker. (A payment with a joker can
    rank below one found after it, with the same cards of the higher values but
    another of them doubled.) A payment found with as few cards as that and a joker
    above its last level sends the search straight back to the lowest level that pays
    a joker: every branch in between keeps the payment's choices from that level up,
    so pays as many jokers or more and, paying fewer cards where it first differs (no
    joker there), loses the tie-break (on the benchmark's hands: 9.4 nodes a payment
    to 7.0)."""
    M, K, T, N, JL, JU, Q, UP, BELOW = 0, 1, 2, 3, 4, 5, 6, 7, 8
    fewest = _fewest_cards(counts, VALUES - 1, jokers, target)
    i = -1
    held = 0                                  # the values held, as a bit set
    for j in range(VALUES):
        lv[j, M] = 0
        lv[j, BELOW] = i                      # the next value held below j
        if counts[j] > 0:
            i = j
            held |= 1 << j
    if i < 0:
        return
    lv[i, T], lv[i, N], lv[i, JL], lv[i, JU], lv[i, UP] = 0, 0, jokers, 0, VALUES
    lv[i, Q] = small_div(target, i + 2)
    lv[i, K] = _most_units(counts[i], lv[i, Q], jokers) + 1
    while True:
        k = lv[i, K] - 1                      # the next choice at this level
        if k < 0:                             # level exhausted: back to the one above
            lv[i, M] = 0
            i = lv[i, UP]
            if i == VALUES:
                return
            continue
        m = min(k, counts[i])
        d = k - m
        lv[i, K], lv[i, M] = k, m
        v = i + 2
        t = lv[i, T] + k * v
        n = lv[i, N] + k
        used = lv[i, JU] + d
        if t == target:
            if (n < best[1] or (n == best[1] and used < best[2])
                    or (n == best[1] and used == best[2] and _prefix(lv, i, best_take) > 0)):
                best[0], best[1], best[2] = target - price, n, used
                for j in range(VALUES):
                    best_take[j] = lv[j, M] if j >= i else 0
                best_take[JOKERS] = used
                if n == fewest and used == 0:
                    return  # nothing pays with fewer; the first found ranks highest
                if n == fewest and d == 0:  # a joker above: back to its lowest level
                    j = i
                    while lv[j, K] == lv[j, M]:
                        lv[j, M] = 0
                        j = lv[j, UP]
                    i = j                     # its next choice: no joker there
                    continue
            lv[i, K] = 0                      # every other choice here pays less
            continue
        if best[1] == fewest and used >= best[2] and _prefix(lv, i, best_take) < 0:
            # nothing pays with fewer cards, nor with fewer jokers from here: at best a
            # tie that loses the tie-break, and so for fewer cards here if no fewer jokers
            if d == 0:
                lv[i, K] = 0
            continue
        below = lv[i, BELOW]
        if below < 0:
            lv[i, K] = 0                      # nothing below makes up the rest
            continue
        jl = lv[i, JL] - d
        rest = target - t
        if not _has(reach[i, jl], rest):
            continue
        w = below + 2
        least = n + small_div(rest + w - 1, w)
        if least > best[1]:
            lv[i, K] = 0                      # fewer units here need no fewer in all
            continue
        # the next level is the highest value held below that fits in the rest (the
        # values between pay nothing: there is one rest reachable, so some value fits)
        fit = held & ((1 << min(i, rest - 1)) - 1)
        below = 63 - np.int64(leading_zeros(np.uint64(fit)))
        if best[1] < NONE:   # a payment to beat: the tighter bound, from the values that fit
            more = n + _fewest_cards(counts, below, jl, rest)
        else:
            more = n + small_div(rest + below + 1, below + 2)
        if more > best[1]:
            if d == 0 and n + _fewest_cards(counts, lv[i, BELOW], jl, rest) > best[1]:
                lv[i, K] = 0   # fewer units here, as many jokers left: no fewer cards
            continue
        if more == best[1] and used > best[2]:
            continue
        if more == best[1] and used == best[2] and _prefix(lv, i, best_take) < 0:
            if d == 0 and n + _fewest_cards(counts, lv[i, BELOW], jl, rest) >= best[1]:
                lv[i, K] = 0   # so do fewer units here: as many jokers, fewer such cards
            continue  # at best a tie that loses the tie-break
        lv[below, T], lv[below, N], lv[below, JL], lv[below, JU] = t, n, jl, used
        lv[below, UP] = i
        i = below
        lv[i, Q] = small_div(rest, i + 2)
        lv[i, K] = _most_units(counts[i], lv[i, Q], jl) + 1


@jit(inline=True)
def _one_or_two_cards(counts, jokers, price, pay):
    """Write into ``pay`` the payment of ``price`` by one or two cards worth exactly
    ``price``, where there is one, and return its cards (0: none). Such a payment is the
    search's: nothing overpays less, and only one card could pay exactly with fewer (a
    card of the price). Of two cards, plain ones pay fewer jokers than one doubled by a
    joker, and of the plain pairs the one with the highest card wins the tie-break, so
    the first pair found from the tens down is it. (In 3-player setvalue games, 22% of
    the payments are one card of the price and 37% two cards worth it.)"""
    if 2 <= price <= VALUES + 1 and counts[price - 2] > 0:
        pay[price - 2] = 1
        return 1
    for high in range(min(price - 2, VALUES + 1), (price + 1) // 2 - 1, -1):
        low = price - high                       # low <= high, both values 2..10
        if counts[high - 2] > 0 and counts[low - 2] > np.int64(low == high):
            pay[high - 2] += 1
            pay[low - 2] += 1
            return 2
    half = price >> 1
    if jokers > 0 and price & 1 == 0 and 2 <= half <= VALUES + 1 and counts[half - 2] > 0:
        pay[half - 2] = 1
        pay[JOKERS] = 1
        return 2
    return 0


@jit
def best_payment(counts, jokers_per_payment, price, pay, reach, levels, best):
    """Write into ``pay`` the payment of ``price`` (K8): cards per value and, at
    ``JOKERS``, jokers; return its value, or -1 if the seat cannot pay ``price``.
    ``reach`` (uint64 10 x 4 x WORDS), ``levels`` (int64 9 x LEVEL_COLS) and ``best``
    (int64 3) are scratch."""
    for i in range(COUNTS):    # a loop: numba's slice assignment costs tens of ns
        pay[i] = 0
    jokers = min(counts[JOKERS], jokers_per_payment, 3)
    cards = _one_or_two_cards(counts, jokers, price, pay)
    if cards > 0:
        best[0], best[1], best[2] = 0, cards, pay[JOKERS]
        return price
    # The least overpayment is below OVERPAY (one card less would still pay: a doubled
    # ten is the most a card adds), so totals up to price + 19 are all the search needs.
    words = min(WORDS, (price + OVERPAY + 63) >> 6)
    built = False
    if words == 1 and jokers <= 1:
        built = _reach_one_word(counts, reach)
    elif words == 2 and jokers <= 1:
        built = _reach_two_words(counts, reach)
    if not built:
        _reach(counts, jokers, words, reach)
    target = _least_total(reach[VALUES, jokers], price)
    if target < 0:
        return -1
    best[0], best[1], best[2] = NONE, NONE, NONE
    _search(counts, target, price, jokers, reach, levels, best, pay)
    return target


def payment(counts, jokers_per_payment: int, price: int) -> tuple[int, np.ndarray]:
    """(value paid or -1, cards per value and jokers) -- ``best_payment`` from Python."""
    pay = np.zeros(COUNTS, np.int64)
    value = best_payment(np.asarray(counts, np.int64), jokers_per_payment, price, pay,
                         np.zeros((VALUES + 1, 4, WORDS), np.uint64),
                         np.zeros((VALUES, LEVEL_COLS), np.int64), np.zeros(3, np.int64))
    return int(value), pay
