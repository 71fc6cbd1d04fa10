"""Bid-EV rollouts for vybory: play a deal on from an election situation.

The hidden hands are dealt given the announcements so far, for the callers (``infer``:
the seats before the asking one whose election policy is ``expected``, ``matcher`` or
``solved``; ``_infer_seats``) as the posterior of a uniform deal: a deal's weight is
``L``, the product over those callers of the probability that their policy makes each of
their announcements on it (0 or 1 for the deterministic ``expected`` and ``matcher``;
``solved``'s from its solution's table, ``abstraction.call_probability``). The other
seats' calls are taken as made.

Rollout ``r`` deals the hidden hands from stream 0 of ``(seed, r)`` (the asking seat's
hand fixed), again and again until every caller of ``infer``, asked on the deal, makes
its announcements (``_calls_agree``): a ``solved`` caller draws its call from the stream
``(seed, r, CALL_STREAM + 1 + seat)``, so a deal is accepted with probability ``L``,
which is rejection sampling from the posterior: exact, and every rollout weighs the
same. Where ``MAX_TRIES`` deals find none (long elections whose callers' hands are
rare), the rollout walks instead from one deal with ``L > 0`` found beforehand
(``_find_start``): ``CHAIN_SWAPS`` tried swaps of a card between two hidden hands drawn
from ``(seed, r, CHAIN_STREAM)``, each kept with probability ``min(1, L(new) /
L(old))`` (Metropolis; the uniform drawn from the same stream, and only where that is
strictly between 0 and 1: deterministic callers keep every swap that still makes every
announcement, as before). The swap is its own inverse and as likely both ways, so the
walk's stationary distribution is rejection's: the deals in proportion to ``L``.
Then every candidate is played on the accepted deal: the announcements already made are
replayed, the candidate is made, the policies announce on and play the deal
(``kernel.play_tour``, one deal, streams ``(seed, r, stream)`` for every candidate:
common random numbers).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sim import harness as H
from sim.cfr import seat_start
from sim.errors import BidlabError
from sim.game import Rollouts
from sim.games.vybory import kernel as K
from sim.games.vybory import obs as O
from sim.games.vybory.abstraction import call_probability
from sim.games.vybory.engine import check_policies, explain, policy_arrays
from sim.games.vybory.rules import HAND, PLAYERS, pack
from sim.games.vybory.situation import candidates, parse, type_names
from sim.jit import jit, prange
from sim.rng import DEAL_STREAM, below, seed_stream, uniform
from sim.rules import Rules
from strategies import vybory as SV

MAX_TRIES = 20_000
"""Deals tried per rollout before it walks from a consistent deal instead."""
START_TRIES = 2_000_000
"""Deals tried, once per situation, for the consistent deal the walks start from."""
CHAIN_SWAPS = 400
"""Swaps a walk tries (rejected ones included)."""
CHAIN_STREAM = 1 << 40
"""The stream of the walks' and the start's draws: far from any policy's."""
CALL_STREAM = CHAIN_STREAM + 16
"""``CALL_STREAM + k``: the streams ``rngs[k]`` of the draws of the callers asked in
rejection (``solved``'s; the others draw nothing). Not the policies' own streams, which
the deal's play reads from their start: a caller's later announcement must not reuse the
draw that accepted its earlier one."""


@jit
def _calls_agree(o, p, rng, si, elect_pids, elect_params, table, rngs, d, dealer, forced,
                 n_before, infer):
    """Would the seats of ``infer`` (a bit set) make the announcements ``forced`` on the
    hands just dealt into ``si``? The others' calls are taken as made.

    Each caller is asked as in play: a ``solved`` one draws its call with a fresh uniform
    from its stream ``rngs[1 + seat]``, independent of the deal and of every other draw,
    so it names ``forced[k]`` with exactly the solution's probability of that call
    (``call_probability``), and the deal is accepted with probability ``L``, the
    product of those (the announcements before ``k`` are shown as made, so each factor
    is the probability given the history). A caller not asked after an earlier one
    failed changes nothing: the deal is rejected whatever he would draw."""
    K._start_deal(o, d, dealer, si)
    for k in range(n_before):
        s = (dealer + 1 + k) % PLAYERS
        t = forced[k]
        if infer >> s & 1:
            H.show_seat(o, p, rng, elect_params, rngs, s, si[K.I_HANDS + s], O.SEAT, O.HAND)
            answer = SV.elect(elect_pids[s], o, p, rng, table)
            H.keep_seat_rng(o, rng, rngs, s, O.HAND, O.LEGAL)
            if answer != t:
                return False
        K.announce(o, k, s, t)
    return True


@jit
def _likelihood(o, p, rng, si, elect_pids, elect_params, table, rngs, d, dealer, forced,
                n_before, infer):
    """``L``: the probability that the seats of ``infer`` make the announcements ``forced``
    on the hands in ``si`` (what ``_calls_agree`` accepts with), drawing nothing: a
    ``solved`` caller's factor from its table, a deterministic caller's 1 or 0 (0: the
    product is 0, and the later callers are not asked)."""
    K._start_deal(o, d, dealer, si)
    like = 1.0
    for k in range(n_before):
        s = (dealer + 1 + k) % PLAYERS
        t = forced[k]
        if infer >> s & 1:
            H.show_seat(o, p, rng, elect_params, rngs, s, si[K.I_HANDS + s], O.SEAT, O.HAND)
            if elect_pids[s] == SV.SOLVED:
                like *= call_probability(o, table, seat_start(table, s), t)
            elif SV.elect(elect_pids[s], o, p, rng, table) != t:
                like = 0.0
            H.keep_seat_rng(o, rng, rngs, s, O.HAND, O.LEGAL)
            if like == 0.0:
                return 0.0
        K.announce(o, k, s, t)
    return like


@jit
def _nth_card(mask, k):
    """The ``k``-th card (0-based, lowest first) of ``mask``."""
    for c in range(52):
        if mask >> c & 1:
            if k == 0:
                return c
            k -= 1
    return -1


@jit
def _walk(o, p, rng, si, elect_pids, elect_params, table, rngs, d, dealer, forced, n_before,
          infer, seat, start, chain_rng):
    """From the deal ``start`` (``L > 0``), ``CHAIN_SWAPS`` tried swaps of a card between
    two hidden hands (not ``seat``'s), each kept with probability ``min(1, L(new) /
    L(old))`` (Metropolis), never where ``L(new)`` is 0: the uniform drawn from
    ``chain_rng`` only where the ratio is strictly between 0 and 1, so that with
    deterministic callers (``L`` 0 or 1) the walk keeps and draws what it always did."""
    for s in range(PLAYERS):
        si[K.I_HANDS + s] = start[s]
        si[K.I_DEALT + s] = start[s]
    like = _likelihood(o, p, rng, si, elect_pids, elect_params, table, rngs, d, dealer,
                       forced, n_before, infer)
    for _ in range(CHAIN_SWAPS):
        a = (seat + 1 + below(chain_rng, PLAYERS - 1)) % PLAYERS
        b = (a + 1 + below(chain_rng, PLAYERS - 2)) % PLAYERS
        if b == seat:
            b = (b + 1) % PLAYERS
        ca = _nth_card(si[K.I_DEALT + a], below(chain_rng, HAND))
        cb = _nth_card(si[K.I_DEALT + b], below(chain_rng, HAND))
        flip = (np.int64(1) << ca) | (np.int64(1) << cb)
        for s in (a, b):
            si[K.I_DEALT + s] ^= flip
            si[K.I_HANDS + s] = si[K.I_DEALT + s]
        new = _likelihood(o, p, rng, si, elect_pids, elect_params, table, rngs, d, dealer,
                          forced, n_before, infer)
        if new > 0.0 and (new >= like or uniform(chain_rng) * like < new):
            like = new
        else:
            for s in (a, b):
                si[K.I_DEALT + s] ^= flip
                si[K.I_HANDS + s] = si[K.I_DEALT + s]


@jit(nrt=True)
def _find_start(seed, R, elect_pids, elect_params, table, own, seat, first_deal, dealer,
                forced, n_before, infer, start):
    """A deal on which the seats of ``infer`` make the announcements ``forced`` with
    probability ``L > 0``, into ``start`` (masks per seat), from up to ``START_TRIES``
    deals of ``(seed, 0, CHAIN_STREAM)``; returns whether one was found."""
    o, p, rng, rngs, work, si = K.new_scratch(max(1, elect_params.shape[1]))
    H.show_rules(o, R, K.RULES_SHOWN)      # the callers judge under the rules in force
    fixed = np.full((first_deal + 1, PLAYERS), -1, np.int64)
    fixed[first_deal, seat] = own
    deal_rng = np.zeros(4, np.uint64)
    seed_stream(deal_rng, seed, 0, CHAIN_STREAM)
    for _ in range(START_TRIES):
        K.deal(deal_rng, si, fixed, first_deal)
        if _likelihood(o, p, rng, si, elect_pids, elect_params, table, rngs, first_deal,
                       dealer, forced, n_before, infer) > 0.0:
            for s in range(PLAYERS):
                start[s] = si[K.I_DEALT + s]
            return True
    return False


@jit
def _hidden_hands(seed, r, elect_pids, elect_params, table, seat, first_deal, dealer, forced,
                  n_before, infer, start, o, p, rng, rngs, si, fixed, deal_rng, chain_rng):
    """Rollout ``r``'s deal into ``si``: by rejection (``_calls_agree``), else by a walk
    from ``start`` (empty: no deal with ``L > 0`` known); returns 1 where the deal
    makes the calls (``infer``), 0 where neither found one."""
    seed_stream(deal_rng, seed, r, DEAL_STREAM)
    for k in range(PLAYERS + 1):
        seed_stream(rngs[k], seed, r, CALL_STREAM + k)
    for _ in range(MAX_TRIES if infer != 0 else 1):
        K.deal(deal_rng, si, fixed, first_deal)
        if infer == 0 or _calls_agree(o, p, rng, si, elect_pids, elect_params, table, rngs,
                                      first_deal, dealer, forced, n_before, infer):
            return 1
    if start.shape[0] > 0:
        seed_stream(chain_rng, seed, r, CHAIN_STREAM)
        _walk(o, p, rng, si, elect_pids, elect_params, table, rngs, first_deal, dealer, forced,
              n_before, infer, seat, start, chain_rng)
        return 1
    return 0


@jit(parallel=True)
def rollouts(seed, count, n_blocks, R, elect_pids, elect_params, table, play_pids, play_params,
             seat,
             own, first_deal, dealer, scores0, forced, n_before, infer, start, calls, score,
             win, margin, agreed, err):
    """Rollouts ``0 .. count - 1`` of every candidate type in ``calls``: the asking seat's
    deal score ``score[r, c]``, its pair's win share ``win[r, c]`` and points margin
    ``margin[r, c]``; ``agreed[r]`` 1 if the deal reproduced the calls (``infer``): by
    rejection, or by a walk from ``start`` (empty: no deal with ``L > 0`` known)."""
    n_params = max(elect_params.shape[1], play_params.shape[1])
    for b in prange(n_blocks):
        o, p, rng, rngs, work, si = K.new_scratch(n_params)
        H.show_rules(o, R, K.RULES_SHOWN)  # before the first rollout's rejection asks
        fixed = np.full((first_deal + 1, PLAYERS), -1, np.int64)
        fixed[first_deal, seat] = own
        hands = np.full((first_deal + 1, PLAYERS), -1, np.int64)
        seat_out = np.zeros((1, PLAYERS, K.SEAT_COLS), dtype=np.int32)
        win1 = np.zeros((1, PLAYERS), dtype=np.float64)
        deal_out = np.zeros((0, K.DEAL_COLS), dtype=np.int32)
        deal_seat = np.zeros((0, PLAYERS, K.DS_COLS), dtype=np.int32)
        err1 = np.zeros((1, H.ERR_SIZE), dtype=np.int64)
        no_log = np.empty((0, 1), dtype=np.int64)
        deal_rng = np.zeros(4, np.uint64)
        chain_rng = np.zeros(4, np.uint64)
        for r in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            for s in range(PLAYERS):
                si[K.I_SCORES + s] = scores0[s]
            agreed[r] = _hidden_hands(seed, r, elect_pids, elect_params, table, seat,
                                      first_deal, dealer, forced, n_before, infer, start, o, p,
                                      rng, rngs, si, fixed, deal_rng, chain_rng)
            for s in range(PLAYERS):
                hands[first_deal, s] = si[K.I_DEALT + s]
            for c in range(calls.shape[0]):
                H.start_deal(si, K.I_SCORES, scores0, PLAYERS, K.I_FORCED, forced, n_before, calls[c])
                K.play_tour(seed, r, R, elect_pids, elect_params, table, play_pids, play_params, 0,
                            hands, first_deal, 1, dealer, n_before + 1, o, p, rng, rngs, work,
                            si, seat_out, win1, False, deal_out, deal_seat, err1, no_log,
                            no_log, no_log, no_log)
                if err1[0, H.ERR_CODE] != H.OK:
                    for j in range(H.ERR_SIZE):
                        err[r, j] = err1[0, j]
                    break
                score[r, c] = seat_out[0, seat, K.S_SCORE] - scores0[seat]
                win[r, c] = seat_out[0, seat, K.S_DEAL_WINS] + 0.5 * seat_out[0, seat,
                                                                              K.S_DEAL_DRAWS]
                attacker = seat_out[0, seat, K.S_ATTACKS]
                for s in range(PLAYERS):
                    if seat_out[0, s, K.S_ATTACKS] != attacker:
                        margin[r, c] = seat_out[0, seat, K.S_POINTS] - seat_out[0, s, K.S_POINTS]
                        break


def _infer_seats(policies, s) -> int:
    """The seats before the asking one whose announcements condition the hidden hands:
    those whose election policy is deterministic given its hand (expected, matcher) or
    plays a solution (solved: its calls' probabilities weigh the deals)."""
    ids = policies["elect"][0]
    callers = {s.caller(k) for k in range(len(s.calls))} - {s.seat}
    return sum(1 << q for q in callers
               if int(ids[q]) in (SV.EXPECTED, SV.MATCHER, SV.SOLVED))


def run_rollouts(rules: Rules, policies, labels: tuple[str, ...], values: dict[str, Any],
                 given: list[str] | None, seed: int, n: int,
                 progress: bool | None = None) -> Rollouts:
    """``Game.rollouts`` for vybory: every candidate type in the situation ``values``,
    played out ``n`` times."""
    check_policies(policies)
    s = parse(rules, values)
    calls = np.array(candidates(rules, s, given), np.int64)
    forced = np.zeros(max(1, len(s.calls)), np.int64)
    forced[:len(s.calls)] = s.calls
    infer = _infer_seats(policies, s) if s.infer and s.calls else 0
    shape = (n, len(calls))
    score, win, margin = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    agreed = np.zeros(n, np.int64)
    err = H.new_errors(n)
    arrays = policy_arrays(policies)
    own = sum(1 << c for c in s.hand)
    start = np.zeros(PLAYERS, np.int64)
    if not infer or not _find_start(np.uint64(seed), pack(rules), arrays[0], arrays[1], arrays[2], own,
                                    s.seat, s.deal, s.dealer, forced, len(s.calls), infer,
                                    start):
        start = np.zeros(0, np.int64)
    rollouts(np.uint64(seed), n, H.blocks(n), pack(rules), *arrays, s.seat, own, s.deal,
             s.dealer, np.array(s.scores, np.int64), forced, len(s.calls), infer, start,
             calls, score, win, margin, agreed, err)
    H.check(err, 0, explain, labels)
    names = type_names(rules)
    if infer and agreed.mean() < 0.5:
        seats = ", ".join(str(q) for q in range(PLAYERS) if infer >> q & 1)
        raise BidlabError(
            f"vybory bid-EV: the announcements {', '.join(names[t - 1] for t in s.calls)} are "
            f"ones the election policies of seat(s) {seats} hardly ever make: only "
            f"{int(agreed.sum())} of {n} rollouts found hands for them in {MAX_TRIES:,} "
            f"tries. Give those seats the strategy they play (--strategy), or deal the "
            f"hidden hands at random with --state infer=no")
    situation = s.to_json(names)
    situation["conditioned"] = float(agreed.mean()) if infer else None
    situation["conditioned_seats"] = [q for q in range(PLAYERS) if infer >> q & 1]
    return Rollouts([names[int(t) - 1] for t in calls], score, win, situation,
                    {"margin": margin})
