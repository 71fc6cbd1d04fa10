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

First the totals the hand can pay are found as bit sets (per value, per number of
jokers used); the least of them at or above the price is what is paid. Then a search
walks the values from the tens down, choosing how many cards of each value to pay
plainly and how many to double, following only choices from which the rest of that
total is still reachable, the most cards of a value first, and cutting any that cannot
beat the fewest cards found (each further card adds less than the value just left).
"""

from __future__ import annotations

import numpy as np

from sim.jit import jit

VALUES = 9
JOKERS = 9
"""Index of the jokers in a count vector (after the nine values 2..10)."""
COUNTS = 10


@jit
def most_payable(counts, jokers_per_payment):
    """The most a seat can pay (K6): every number card, the highest of them doubled by
    as many jokers as it may pay."""
    total = 0
    doubled = min(counts[JOKERS], jokers_per_payment)
    for i in range(VALUES - 1, -1, -1):
        c = counts[i]
        total += c * (i + 2)
        d = min(c, doubled)
        total += d * (i + 2)
        doubled -= d
    return total


@jit
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


@jit
def _reach_one_word(counts, jokers, reach):
    """``_reach`` when every total needed fits in one word (prices up to 44, most of
    them): the four joker layers live in registers."""
    r0, r1, r2, r3 = np.uint64(1), np.uint64(0), np.uint64(0), np.uint64(0)
    reach[0, 0, 0], reach[0, 1, 0], reach[0, 2, 0], reach[0, 3, 0] = r0, r1, r2, r3
    for i in range(VALUES):
        c, v = counts[i], np.uint64(i + 2)
        n0, n1, n2, n3 = r0, r1, r2, r3
        plain = np.uint64(0)
        for _ in range(c):                  # one more plain card of value v
            plain += v
            if plain >= 64:                 # past the word: totals never needed
                break
            n0 |= r0 << plain
            n1 |= r1 << plain
            n2 |= r2 << plain
            n3 |= r3 << plain
        if jokers > 0:                      # d doubled and k plain, d >= 1
            for d in range(1, min(c, jokers) + 1):
                for k in range(c - d + 1):
                    shift = np.uint64(k + 2 * d) * v
                    if shift >= 64:
                        break
                    n1 |= (r0 << shift) if d == 1 else np.uint64(0)
                    n2 |= (r1 << shift) if d == 1 else (r0 << shift) if d == 2 else np.uint64(0)
                    n3 |= ((r2 << shift) if d == 1 else (r1 << shift) if d == 2
                           else r0 << shift)
        r0, r1, r2, r3 = n0, n1, n2, n3
        # cumulative: j jokers *or fewer*, as the search asks
        reach[i + 1, 0, 0], reach[i + 1, 1, 0] = r0, r0 | r1
        reach[i + 1, 2, 0], reach[i + 1, 3, 0] = r0 | r1 | r2, r0 | r1 | r2 | r3


@jit(inline=True)
def _has(bits, total):
    return (bits[total >> 6] >> np.uint64(total & 63)) & np.uint64(1)


@jit
def _search(counts, target, price, jokers, reach, lv, best, best_take):
    """The fewest cards, then fewest jokers, then highest cards (``_higher``) that pay
    exactly ``target``, over values 8 (tens) down to 0 (twos), without recursion:
    ``lv[i]`` holds level i's choice (cards of value i + 2 paid, of them doubled) and the
    payment it extends (total, cards, jokers left, jokers used).

    Choices go from the most cards of a value down, the fewest doubled first. A branch
    is cut when it cannot pay with fewer cards, or as few with fewer jokers, or tie
    them with more cards of the higher values (``_prefix``). Only choices from which
    the rest of the target is still reachable (``reach``) are followed; each further
    card adds less than the value just left, so a branch needs at least
    ``ceil(rest / (v - 1))`` more cards."""
    M, D, T, N, JL, JU = 0, 1, 2, 3, 4, 5
    i = VALUES - 1
    lv[i, T], lv[i, N], lv[i, JL], lv[i, JU] = 0, 0, jokers, 0
    lv[i, M], lv[i, D] = counts[i], -1
    while True:
        lv[i, D] += 1                         # the next choice at this level
        if lv[i, D] > min(lv[i, M], lv[i, JL]):
            lv[i, M] -= 1
            lv[i, D] = 0
            if lv[i, M] < 0:                  # level exhausted: back to the one above
                i += 1
                if i == VALUES:
                    return
                continue
        m, d = lv[i, M], lv[i, D]
        v = i + 2
        t = lv[i, T] + (m + d) * v
        if t > target:
            lv[i, D] = VALUES                 # more doubled overshoots too: fewer cards
            continue
        n = lv[i, N] + m + d
        used = lv[i, JU] + d
        if t == target:
            if (n < best[1] or (n == best[1] and used < best[2])
                    or (n == best[1] and used == best[2] and _prefix(lv, i, best_take) > 0)):
                best[0], best[1], best[2] = target - price, n, used
                for j in range(VALUES):
                    best_take[j] = lv[j, M] if j >= i else 0
                best_take[JOKERS] = used
            # every other choice here pays less and needs more cards below, or more jokers
            lv[i, M] = 0
            lv[i, D] = VALUES
            continue
        jl = lv[i, JL] - d
        rest = target - t
        if i == 0 or not _has(reach[i, jl], rest):
            continue
        more = n + (rest + v - 2) // (v - 1)
        if more > best[1] or (more == best[1] and used > best[2]):
            continue
        if more == best[1] and used == best[2] and _prefix(lv, i, best_take) < 0:
            continue  # at best a tie that loses the tie-break
        i -= 1
        lv[i, T], lv[i, N], lv[i, JL], lv[i, JU] = t, n, jl, used
        lv[i, M], lv[i, D] = counts[i], -1


@jit
def best_payment(counts, jokers_per_payment, price, pay, reach, levels, best):
    """Write into ``pay`` the payment of ``price`` (K8): cards per value and, at
    ``JOKERS``, jokers; return its value, or -1 if the seat cannot pay ``price``.
    ``reach`` (uint64 10 x 4 x WORDS), ``levels`` (int64 9 x 6) and ``best`` (int64 3)
    are scratch."""
    pay[:] = 0
    if most_payable(counts, jokers_per_payment) < price:
        return -1
    jokers = min(counts[JOKERS], jokers_per_payment, 3)
    # The least overpayment is below 20 (one card less would still pay: a doubled ten
    # is the most a card adds), so totals up to price + 19 are all the search needs.
    words = min(WORDS, (price + 20 + 63) >> 6)
    if words == 1:
        _reach_one_word(counts, jokers, reach)
    else:
        _reach(counts, jokers, words, reach)
    target = price
    while not _has(reach[VALUES, jokers], target):
        target += 1
    best[0], best[1], best[2] = 1 << 40, 1 << 40, 1 << 40
    _search(counts, target, price, jokers, reach, levels, best, pay)
    return target


def payment(counts, jokers_per_payment: int, price: int) -> tuple[int, np.ndarray]:
    """(value paid or -1, cards per value and jokers) -- ``best_payment`` from Python."""
    pay = np.zeros(COUNTS, np.int64)
    value = best_payment(np.asarray(counts, np.int64), jokers_per_payment, price, pay,
                         np.zeros((VALUES + 1, 4, WORDS), np.uint64),
                         np.zeros((VALUES, 6), np.int64), np.zeros(3, np.int64))
    return int(value), pay
