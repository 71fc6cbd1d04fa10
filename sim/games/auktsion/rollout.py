"""Bid-EV rollouts for auktsion: play the rest of a match from a situation.

Rollout ``r`` deals the cards nobody has seen (not in the asking seat's hand, not laid
face up) to the other seats at random, consistently with what is public: a seat that
bought a rank laid all its cards of that rank face up (A12), so it gets no more of
them. Every consistent deal is equally likely: ``sim.exactdeal`` counts the consistent
deals by the cards' points and the seats barred from them, and draws one exactly, so a
real moment always finds its deals however few they are (rejection sampling, redrawing
until a deal is consistent, has the same distribution but gave up on moments late in a
deal; it is kept, ``_sample_hands``, for card values too large to count by, and as the
tests' reference). Then the candidate call is made and the policies play the rest of
the match.
Every candidate starts rollout ``r`` from the same random streams ``(seed, r,
stream)``: common random numbers.

Where money tells a seat's hand points (A3: coins = start_money - hand points, at the
start of the first deal, or of every deal without carry_money), the seat is dealt only
hands of those points (``situation.py``, key ``infer``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim import exactdeal
from sim import harness as H
from sim.errors import BidlabError
from sim.game import Rollouts
from sim.games.auktsion import obs as O
from sim.games.auktsion.engine import explain
from sim.games.auktsion.kernel import (
    NO_CALL,
    ROW_DEAL_POINTS,
    ROW_MATCH_POINTS,
    ROW_MONEY,
    _final_scores,
    _new_deal,
    _play_lots,
    _start_match,
    complete_hands,
    new_scratch,
)
from sim.games.auktsion.rules import (
    R_DEALS,
    R_FIRST_DEALER,
    R_FIRST_RANK,
    R_PLAYERS,
    R_SUIT_POINTS,
    pack,
)
from sim.games.auktsion.situation import Situation, action_name, candidates, parse
from sim.harness import ERR_CODE, OK
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, below, seed_stream
from sim.rules import Rules

TOO_CONSTRAINED = 3
"""Error code: no deal of the unseen cards is consistent with the situation."""
MAX_REDRAWS = 100_000
"""Rejection's draws before it gives up (only where the deals are not counted)."""


@jit
def _sample_hands(R, rng, seat, hand, up_seat, lot_buyer, points_lo, points_hi, dealt, pool,
                  need):
    """Fill dealt[t, r], the points of seat t's rank-r cards, for the deal of the
    situation: every seat's hand points within ``points_lo[t]..points_hi[t]``. False if
    no consistent deal came in MAX_REDRAWS draws."""
    n = R[R_PLAYERS]
    first = R[R_FIRST_RANK]
    per = (52 - 4 * first) // n
    dealt[:, :] = 0
    for t in range(n):
        need[t] = 0 if t == seat else per
    size = 0
    for c in range(52):
        if c % 13 < first:
            continue
        points = R[R_SUIT_POINTS + c // 13]
        if up_seat[c] >= 0:
            dealt[up_seat[c], c % 13] += points
            need[up_seat[c]] -= 1
        elif hand[c]:
            dealt[seat, c % 13] += points
        else:
            pool[size] = c
            size += 1
    for _ in range(MAX_REDRAWS):
        for i in range(size - 1, 0, -1):
            j = below(rng, i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        k = 0
        consistent = True
        for t in range(n):
            points = 0
            for r in range(13):
                points += dealt[t, r]
            for _j in range(need[t]):
                if lot_buyer[pool[k] % 13] == t:
                    consistent = False
                points += R[R_SUIT_POINTS + pool[k] // 13]
                k += 1
            consistent &= points_lo[t] <= points <= points_hi[t]
        if consistent:
            k = 0
            for t in range(n):
                for _j in range(need[t]):
                    dealt[t, pool[k] % 13] += R[R_SUIT_POINTS + pool[k] // 13]
                    k += 1
            return True
    return False


@jit
def _deal_exact(R, rng, seat, hand, up_seat, slot_seat, need, track, cards, start, value,
                allowed, table, binom, work, owner, dealt):
    """Fill dealt[t, r] as ``_sample_hands`` does, from an exact draw of ``sim.exactdeal``
    (every consistent deal equally likely; the table must be feasible)."""
    first = R[R_FIRST_RANK]
    exactdeal.sample(rng, slot_seat, need, track, cards, start, value, allowed, table, binom,
                     work, owner)
    dealt[:, :] = 0
    for c in range(52):
        if c % 13 < first:
            continue
        points = R[R_SUIT_POINTS + c // 13]
        if up_seat[c] >= 0:
            dealt[up_seat[c], c % 13] += points
        elif hand[c]:
            dealt[seat, c % 13] += points
        else:
            dealt[owner[c], c % 13] += points


@jit
def _rollout(R, leftover, pids, params, table, seat, call, deal, lot, price, high, passes,
             money0, scores0, lot_buyer, lot_price, hands, o, rngs, scratch_i, out, err,
             no_calls, no_decks):
    """Play the match on from the situation, ``seat`` calling ``call`` now; the seats'
    final scores and win shares go to row 0 of ``out`` (score, win, and dummies)."""
    score, win, spent, money_end, points, bought, detail3 = out
    money = scratch_i[ROW_MONEY]
    match_points, deal_points = scratch_i[ROW_MATCH_POINTS], scratch_i[ROW_DEAL_POINTS]
    n = R[R_PLAYERS]
    _start_match(R, leftover, o)
    dealer = (R[R_FIRST_DEALER] + deal) % n
    o[O.DEAL] = deal
    o[O.DEALER] = dealer
    last_buyer = dealer
    for t in range(n):
        money[t] = money0[t]
        match_points[t] = scores0[t]
        deal_points[t] = 0
    for r in range(13):
        o[O.LOT_STATUS + r] = O.LOT_TO_COME
        o[O.LOT_BUYER + r] = -1
        o[O.LOT_PRICE + r] = 0
        o[O.LOT_FACE_UP + r] = 0
        if R[R_FIRST_RANK] <= r < lot:
            o[O.LOT_STATUS + r] = O.LOT_UNSOLD
            b = lot_buyer[r]
            if b >= 0:
                deal_points[b] += np.int64(hands[b, O.HAND_POINTS + r])
                last_buyer = b
                o[O.LOT_STATUS + r] = O.LOT_SOLD
                o[O.LOT_BUYER + r] = b
                o[O.LOT_PRICE + r] = lot_price[r]
                o[O.LOT_FACE_UP + r] = hands[b, O.HAND_POINTS + r]
    for t in range(n):
        o[O.MATCH_POINTS + t] = match_points[t]
        o[O.DEAL_POINTS + t] = deal_points[t]
    _play_lots(R, (pids, params, table), rngs, o, hands, scratch_i, deal, lot, 13, last_buyer, seat,
               price,
               high, passes, call, 0, err, spent, bought, False, detail3, detail3, detail3,
               detail3, detail3, detail3, detail3, no_calls, 0)
    for d in range(deal + 1, R[R_DEALS]):
        if err[0, ERR_CODE] != OK:
            return
        dealer = _new_deal(R, rngs, o, hands, d, scratch_i, 0, False, detail3, detail3,
                           detail3, no_decks, no_decks)
        _play_lots(R, (pids, params, table), rngs, o, hands, scratch_i, d, R[R_FIRST_RANK], 13,
                   dealer, -1,
                   0, -1, 0, NO_CALL, 0, err, spent, bought, False, detail3, detail3, detail3,
                   detail3, detail3, detail3, detail3, no_calls, 0)
    _final_scores(R, leftover, scratch_i, 0, score, win, money_end, points)


@jit(parallel=True)
def rollouts(seed, count, n_blocks, R, leftover, pids, params, solution, seat, hand, up_seat, lot_buyer,
             lot_price, points_lo, points_hi, money0, scores0, deal, lot, price, high, passes,
             calls, exact, slot_seat, need_x, track, cards, start, value, allowed, table, binom,
             score, win, err):
    """Rollouts 0..count-1 of every candidate call in ``calls``: score[r, c], win[r, c].
    ``exact``: deal the hidden cards by ``_deal_exact`` from the plan's arrays
    (``slot_seat`` .. ``binom``), else by rejection (``_sample_hands``)."""
    n = R[R_PLAYERS]
    for b in prange(n_blocks):
        scratch_i, hands, o, rngs = new_scratch()
        dealt = np.empty((O.MAX_PLAYERS, 13), dtype=np.int64)
        saved = np.empty(4, dtype=np.uint64)
        pool = np.empty(52, dtype=np.int64)
        need = np.empty(O.MAX_PLAYERS, dtype=np.int64)
        owner = np.full(52, -1, dtype=np.int64)
        no_calls = np.empty((0, 2), dtype=np.int64)
        no_decks = np.empty((0, 52), dtype=np.int64)
        one = np.zeros((1, O.MAX_PLAYERS), dtype=np.float64)
        out = (one, one.copy(), np.zeros((1, O.MAX_PLAYERS), dtype=np.int64),
               np.zeros((1, O.MAX_PLAYERS), dtype=np.int64),
               np.zeros((1, O.MAX_PLAYERS), dtype=np.int64),
               np.zeros((1, O.MAX_PLAYERS), dtype=np.int64),
               np.zeros((1, 1, 1), dtype=np.int64))
        err1 = np.zeros((1, err.shape[1]), dtype=np.int64)
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            seed_stream(rngs[DEAL_STREAM], seed, m, DEAL_STREAM)
            if exact:
                _deal_exact(R, rngs[DEAL_STREAM], seat, hand, up_seat, slot_seat, need_x,
                            track, cards, start, value, allowed, table, binom, pool, owner,
                            dealt)
            elif not _sample_hands(R, rngs[DEAL_STREAM], seat, hand, up_seat, lot_buyer,
                                   points_lo, points_hi, dealt, pool, need):
                err[m, ERR_CODE] = TOO_CONSTRAINED
                continue
            for j in range(4):
                saved[j] = rngs[DEAL_STREAM, j]
            for c in range(calls.shape[0]):
                # the same hidden cards, later deals and policy streams for every candidate
                for j in range(4):
                    rngs[DEAL_STREAM, j] = saved[j]
                for k in range(1, n + 1):
                    seed_stream(rngs[k], seed, m, DEAL_STREAM + k)
                hands[:, O.HAND_POINTS:O.HAND_POINTS + 13] = dealt
                complete_hands(hands, n)
                _rollout(R, leftover, pids, params, solution, seat, calls[c], deal, lot, price, high,
                         passes, money0, scores0, lot_buyer, lot_price, hands, o, rngs,
                         scratch_i, out, err1, no_calls, no_decks)
                if err1[0, ERR_CODE] != OK:
                    err[m, :] = err1[0, :]
                    break
                score[m, c] = out[0][0, seat]
                win[m, c] = out[1][0, seat]


def sampler_arrays(s: Situation, players: int) -> tuple[np.ndarray, ...]:
    """What ``rollout._sample_hands`` reads: your cards (a 52-long mask); per card, the
    seat that laid it face up (-1: none); per rank, its buyer (-1: unsold or to come) and
    price; per seat, the least and most hand points (any number where not inferred)."""
    hand = np.zeros(52, np.int64)
    hand[s.hand] = 1
    buyer = np.full(13, -1, np.int64)
    price = np.zeros(13, np.int64)
    up_seat = np.full(52, -1, np.int64)
    for r, (b, p, cards) in s.sold.items():
        buyer[r], price[r] = b, p
        up_seat[cards] = b
    points = np.array(s.points or [(0, 10**9)] * players, np.int64)
    return hand, up_seat, buyer, price, points[:, 0].copy(), points[:, 1].copy()


_NO_PLAN = (np.full(3, -1, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64),
            np.zeros(0, np.int64), np.zeros(1, np.int64), np.zeros(0, np.int64),
            np.zeros((0, 3), np.int64), np.zeros((1, 1, 1, 1, 1)))


def deal_plan(R: np.ndarray, s: Situation, players: int) -> exactdeal.Plan | None:
    """The exact dealer's problem for the situation (``sim.exactdeal.plan``): the unseen
    cards to the other seats, each its hand size less its face-up cards, none of a rank
    it bought (A12), hand points within what its coins tell (A3). None where the card
    values are too large to count by (rejection then)."""
    hand, up_seat, buyer, _, points_lo, points_hi = sampler_arrays(s, players)
    first = int(R[R_FIRST_RANK])
    per = (52 - 4 * first) // players
    value = np.array([R[R_SUIT_POINTS + c // 13] for c in range(52)], np.int64)
    pool = [c for c in range(52) if c % 13 >= first and not hand[c] and up_seat[c] < 0]
    barred = np.array([1 << int(buyer[c % 13]) if buyer[c % 13] >= 0 else 0
                       for c in range(52)], np.int64)
    seats = [t for t in range(players) if t != s.seat]
    base = {t: int(sum(value[c] for c in range(52) if up_seat[c] == t)) for t in seats}
    need = [per - int((up_seat == t).sum()) for t in seats]
    lo = [int(min(points_lo[t] - base[t], 10**9)) for t in seats]
    hi = [int(min(points_hi[t] - base[t], 10**9)) for t in seats]
    return exactdeal.plan(np.array(pool, np.int64), value, barred, seats, need, lo, hi)


def run_rollouts(rules: Rules, policies, labels: tuple[str, ...], values: dict[str, Any],
                 given: list[str] | None, seed: int, n: int,
                 progress: bool | None = None):
    """``Game.rollouts`` for auktsion: every candidate call in the situation ``values``,
    played out ``n`` times."""
    s = parse(rules, values)
    calls = np.array(candidates(rules, s, given), np.int64)
    R, leftover = pack(rules)
    pids, params = policies["bid"]
    solution = H.solution_table(policies)
    hand, up_seat, buyer, price, points_lo, points_hi = sampler_arrays(s, rules.players)
    score = np.zeros((n, len(calls)))
    win = np.zeros((n, len(calls)))
    err = H.new_errors(n)
    plan = deal_plan(R, s, rules.players)
    if plan is not None and not plan.feasible:
        err[:, H.ERR_CODE] = TOO_CONSTRAINED
    else:
        arrays = plan.arrays() if plan else _NO_PLAN
        binom = exactdeal.binomials(plan) if plan else np.zeros((1, 1))
        rollouts(np.uint64(seed), n, H.blocks(n), R, leftover, pids, params, solution,
                 s.seat, hand, up_seat, buyer, price, points_lo, points_hi,
                 np.array(s.money, np.int64), np.array(s.scores, np.int64), s.deal, s.lot,
                 s.price, s.high_bidder, s.passes, calls, plan is not None, *arrays, binom,
                 score, win, err)
    if (err[:, H.ERR_CODE] == TOO_CONSTRAINED).any():
        raise BidlabError("no deal of the unseen cards is consistent with the situation "
                          "(check sold= and the face-up cards"
                          + ("; the hand points the coins tell may be out of reach: check "
                             "money=, or set infer=no)" if s.points else ")"))
    H.check(err, 0, explain, labels)
    return Rollouts([action_name(int(c)) for c in calls], score, win, s.to_json())
