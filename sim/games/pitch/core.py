"""pitch rules as small compiled functions (``rules/pitch.md``), shared by the match
loop (``kernel.py``) and by the policies' playouts (``strategies/pitch.py``).

The trick mechanics come from ``sim/tricks.py`` (pitch uses its ``FOLLOW_OR_TRUMP``
rule, the joker as the lowest trump); what is pitch's own lives here: the trump set by
the first lead (P6), the points of a deal (P9-P13), the pitcher's settlement (P14,
P15) and the end of the game (P16, P17). Arrays are passed whole with an offset
(``dealt[d0 + s]``), never as views: no reference counting in the hot loops.
"""

from __future__ import annotations

import numpy as np

from sim import tricks as T
from sim.cards import JOKER
from sim.jit import jit

N_POINTS = 5
HIGH, LOW, JACK, JOKER_POINT, GAME = range(N_POINTS)
"""Indices of the deal's five points in an ``owners`` array, in the order P17 counts
them: high, low, jack, joker, game. An owner is a seat, or -1 (nobody)."""
POINT_NAMES = ("high", "low", "jack", "joker", "game")

JACK_RANK = 9
GAME_POINTS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4], dtype=np.int64)
"""Card points for game (P13) by rank 2..A: T 10, J 1, Q 2, K 3, A 4."""


@jit
def legal(hand, led, trump):
    """P7: the cards of ``hand`` that may be played; ``led`` -1 when leading."""
    return T.legal_cards(hand, led, trump, T.FOLLOW_OR_TRUMP)


@jit
def trump_of_lead(card):
    """P6: the suit of the pitcher's first card is trump; the joker makes spades trump."""
    if card == JOKER:
        return np.int64(T.SPADES)
    return np.int64(card // 13)


_TENS, _JACKS, _QUEENS, _KINGS, _ACES = (sum(1 << (13 * s + r) for s in range(4))
                                        for r in (8, 9, 10, 11, 12))


@jit
def game_count(mask):
    """P13: card points of the cards in ``mask`` (five popcounts; the same as
    ``tricks.count_by_rank(mask, GAME_POINTS)``)."""
    m = np.int64(mask)
    return (10 * T.count(m & np.int64(_TENS)) + T.count(m & np.int64(_JACKS))
            + 2 * T.count(m & np.int64(_QUEENS)) + 3 * T.count(m & np.int64(_KINGS))
            + 4 * T.count(m & np.int64(_ACES)))


@jit
def owner(masks, m0, n, card):
    """The seat ``s`` with ``card`` in ``masks[m0 + s]``; -1 if none."""
    b = np.int64(1) << np.int64(card)
    for s in range(n):
        if masks[m0 + s] & b:
            return np.int64(s)
    return np.int64(-1)


@jit
def score_deal(dealt, d0, won, w0, n, trump, low_captured, tie_pitcher, pitcher, owners, o0):
    """P9-P13: who scores high, low, jack, joker and game, written to
    ``owners[o0 + HIGH ..]`` (-1: nobody). ``dealt[d0 + s]`` is seat ``s``'s hand as
    dealt, ``won[w0 + s]`` the cards it won in tricks."""
    in_play = np.int64(0)
    for s in range(n):
        in_play |= dealt[d0 + s]
    trumps = in_play & T.suit_cards(trump)
    # P9: the highest trump in play (the joker only if it is the only trump).
    top = T.highest_trump(in_play, trump)
    owners[o0 + HIGH] = owner(dealt, d0, n, top) if top >= 0 else -1
    # P10: the lowest trump other than the joker, to whoever was dealt it or won it.
    if trumps != 0:
        low = T.lowest(trumps)
        owners[o0 + LOW] = owner(won, w0, n, low) if low_captured else owner(dealt, d0, n, low)
    else:
        owners[o0 + LOW] = -1
    # P11, P12: the jack of trumps and the joker, to whoever wins them.
    jack = trump * 13 + JACK_RANK
    owners[o0 + JACK] = owner(won, w0, n, jack) if in_play & (np.int64(1) << jack) else -1
    if in_play & np.int64(T.JOKER_BIT):
        owners[o0 + JOKER_POINT] = owner(won, w0, n, JOKER)
    else:
        owners[o0 + JOKER_POINT] = -1
    # P13: the most card points in tricks; a tie scores nobody (or the pitcher).
    best = np.int64(-1)
    who = np.int64(-1)
    tied = False
    for s in range(n):
        g = game_count(won[w0 + s])
        if g > best:
            best = g
            who = s
            tied = False
        elif g == best:
            tied = True
    if tied:
        who = -1
        if tie_pitcher and game_count(won[w0 + pitcher]) == best:
            who = pitcher
    owners[o0 + GAME] = who


@jit
def settle(owners, o0, n, pitcher, contract, out, p0, d0):
    """P14: ``out[p0 + s]`` = the points seat ``s`` won in the deal; ``out[d0 + s]`` =
    what it adds to its score (the pitcher: his points if at least his contract, else
    minus the contract). Returns True if the pitcher made his contract."""
    for s in range(n):
        out[p0 + s] = 0
    for i in range(N_POINTS):
        w = owners[o0 + i]
        if w >= 0:
            out[p0 + w] += 1
    for s in range(n):
        out[d0 + s] = out[p0 + s]
    made = out[p0 + pitcher] >= contract
    if not made:
        out[d0 + pitcher] = -contract
    return made


@jit
def game_winner(before, b0, delta, d0, owners, o0, n, pitcher, contract, made, target,
                smudge):
    """P15-P17: the winner after a deal, or -1 if the game goes on. ``before[b0 + s]``
    holds the scores before the deal, ``delta[d0 + s]`` what the deal adds."""
    if smudge and made and contract == 4:                       # P15
        return np.int64(pitcher)
    reached = 0
    for s in range(n):
        if before[b0 + s] + delta[d0 + s] >= target:
            reached += 1
    if reached == 0:
        return np.int64(-1)
    if made and before[b0 + pitcher] + delta[d0 + pitcher] >= target:     # P17: the pitcher first
        return np.int64(pitcher)
    if reached == 1:
        for s in range(n):
            if before[b0 + s] + delta[d0 + s] >= target:
                return np.int64(s)
    # P17: count the deal's points in order; the first of those who reached the
    # target to get there wins. (The pitcher is not among them: he did not reach it.)
    for i in range(N_POINTS):
        w = owners[o0 + i]
        if w < 0 or w == pitcher:
            continue
        got = 0
        for j in range(i + 1):
            if owners[o0 + j] == w:
                got += 1
        if before[b0 + w] + got >= target and before[b0 + w] + delta[d0 + w] >= target:
            return np.int64(w)
    return np.int64(-1)  # unreachable: a player who reached the target got there by points


# -- hand evaluation (the strength policy's model and the solver's abstraction) -------

@jit
def suit_value(hand, suit, n, deck_size, joker_game, low_captured):
    """Expected points of ``hand`` if ``suit`` is trump (P9-P13), by a simple model:
    each card the hand lacks was dealt to an opponent with probability q. -1 if the
    hand cannot make ``suit`` trump (no card of it; the joker names spades)."""
    cards = (hand >> np.int64(13 * suit)) & np.int64(T.SUIT_BITS)
    joker = joker_game != 0 and (hand & np.int64(T.JOKER_BIT)) != 0
    if cards == 0 and not (joker and suit == T.SPADES):
        return -1.0
    count = T.count(cards) + (1 if joker else 0)
    q = (n - 1) * 6.0 / (deck_size - 6)
    keep = 1.0 - q
    top = T.highest(cards)                  # -1: the joker alone
    high = 1.0
    for _ in range(12 - top):
        high *= keep
    low = 0.0
    if cards != 0:
        low = 1.0
        for _ in range(T.lowest(cards)):
            low *= keep
        if low_captured:
            low *= 0.75
    above_jack = T.count(cards >> np.int64(JACK_RANK + 1))
    if cards & np.int64(1 << JACK_RANK):
        jack = 0.55 + 0.15 * min(above_jack, 2)
    else:
        jack = q * 0.12 * above_jack
    joker_pts = 0.0
    if joker_game:
        if joker:
            joker_pts = 0.35 + 0.1 * min(count - 1, 3)
        else:
            joker_pts = q * 0.08 * count
    gp = game_count(hand)
    game = (1.0 + 0.35 * (count - 1.5) + 0.04 * (gp - 9.0)) / n
    game = min(max(game, 0.02), 0.9)
    return high + low + jack + joker_pts + game


@jit
def best_suit(hand, n, deck_size, joker_game, low_captured):
    """(suit, value) of the best trump suit for ``hand`` (ties: the lower suit)."""
    best = -1
    value = -2.0
    for s in range(4):
        v = suit_value(hand, s, n, deck_size, joker_game, low_captured)
        if v > value:
            value = v
            best = s
    return best, value
