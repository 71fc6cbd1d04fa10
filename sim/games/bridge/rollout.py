"""Bid-EV rollouts for bridge: finish the auction from a situation, score on double dummy.

Rollout ``r`` deals the hidden hands of board ``r`` of the situation's constraints
(``deal.deal``: stream 0 of ``(seed, r)``, your hand and the known hands fixed). With
``infer=yes`` the seats playing natural must also make the calls they made
(``kernel.makes_calls``): attempt ``a`` deals board ``r + a * 2**32`` until they do,
so a rollout still depends only on ``(seed, r)`` and the situation. Every
candidate is played on that same deal with the same policy streams: the calls so far
and the candidate are forced (``kernel.play_boards``' ``forced``), the seats' policies
bid the rest, and the policies draw from the streams of match index ``16 r + board - 1``,
whose board number ``index mod 16 + 1`` gives the situation's dealer and vulnerability
(B1). So the candidates differ only in their call: common random numbers.

Then each deal is solved double dummy once, through the cache (``dd.py``), and only in
the strains that its final contracts need (a table of one strain costs about a fifth
of a full one); when a seat plays the ``par`` oracle, whose calls need the par contract,
the full table and par come first. Solving runs in batches with one progress bar.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from sim import harness as H
from sim.errors import BidlabError, IllegalActionError
from sim.game import Rollouts
from sim.games.bridge import core as C
from sim.games.bridge import dd as DD
from sim.games.bridge import kernel as K
from sim.games.bridge.deal import deal, deal_constrained, plan
from sim.games.bridge.engine import NO_DD, NO_ORACLE, NO_PAR, _check_policies, explain, imps_vec
from sim.games.bridge.rules import SEAT_NAMES, pack
from sim.games.bridge.situation import Situation, action_name, candidates, parse
from sim.jit import jit, prange
from sim.rules import Rules

MAX_TRIES = 2_000_000
"""Dealing attempts per rollout before the constraints are called impossible."""


@jit(parallel=True)
def auctions(seed, board0, count, n_blocks, R, hands, facts, dd, par_ns, oracle, pids,
             params, forced, n_forced, board_out, err):
    """Rollouts ``0 .. count - 1`` of every candidate ``c``: the auction from the forced
    calls ``forced[c, :n_forced[c]]`` on ``hands[r]``, into ``board_out[c, r]`` (scored
    when ``dd`` has rows) and ``err[c, r]``; ``board0`` is the board number minus one,
    ``facts[r]`` the situation's (dealer, vulnerability)."""
    no_log = np.empty((0, 1), dtype=np.int8)
    for b in prange(n_blocks):
        o, rng, orc, first, memo = K.new_scratch()
        for r in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            for c in range(forced.shape[0]):
                K.play_boards(seed, board0, 16, r, r + 1, R, hands, facts, dd, par_ns,
                              oracle, pids, params, o, rng, orc, first, memo, board_out[c],
                              err[c], no_log, forced[c, :n_forced[c]])


@jit(nrt=True)
def auction_logged(seed, board0, r, R, hands, facts, dd, par_ns, oracle, pids, params,
                   forced, board_out, err, log_calls):
    """Rollout ``r`` of one candidate (``hands``, ``dd``... hold its row 0), every call
    recorded in ``log_calls[0]``."""
    o, rng, orc, first, memo = K.new_scratch()
    K.play_boards(seed, 16 * r + board0, 16, 0, 1, R, hands, facts, dd, par_ns, oracle,
                  pids, params, o, rng, orc, first, memo, board_out, err, log_calls, forced)


@jit(nrt=True)
def side_scores(board_out, dd, seat, score):
    """``score[r, c]``: the duplicate score (B10) of ``seat``'s side for the contract of
    ``board_out[c, r]`` on the tricks ``dd[r]``; 0 when passed out (B5)."""
    for c in range(board_out.shape[0]):
        for r in range(board_out.shape[1]):
            level = board_out[c, r, K.B_LEVEL]
            if level == 0:
                score[r, c] = 0
                continue
            strain = board_out[c, r, K.B_STRAIN]
            declarer = board_out[c, r, K.B_DECLARER]
            vul = (board_out[c, r, K.B_VUL] >> (declarer % 2)) & 1
            sc = C.score(level, strain, board_out[c, r, K.B_DOUBLED], vul,
                         dd[r, declarer, strain])
            score[r, c] = sc if declarer % 2 == seat % 2 else -sc


def _forced(s: Situation, calls: list[int]) -> tuple[np.ndarray, np.ndarray]:
    n = len(s.calls) + 1
    forced = np.zeros((len(calls), n), dtype=np.int64)
    forced[:, :len(s.calls)] = s.calls
    forced[:, -1] = calls
    return forced, np.full(len(calls), n, dtype=np.int64)


def _check(err: np.ndarray, actions: list[str], labels: tuple[str, ...]) -> None:
    # err is candidates x rollouts x record: row c * rollouts + r once flattened
    e = H.first_error(err.reshape(-1, H.ERR_SIZE), 0)
    if e is None:
        return
    c, r = divmod(e.index, err.shape[1])
    raise IllegalActionError(explain(e, labels[e.seat], f"rollout {r}, candidate {actions[c]}",
                                     SEAT_NAMES[e.seat]))


ATTEMPT_STRIDE = 1 << 32
"""Attempt ``a`` of rollout ``r`` at matching the calls deals from board index
``r + a * ATTEMPT_STRIDE`` (attempt 0 is the deal without that condition)."""


@jit(parallel=True)
def deal_matching_chunk(seed, start, count, n_blocks, Kc, order, n_order, calls, check,
                        dealer, vul, pids, params, hands, tries, max_tries):
    """Rollouts ``start .. start + count - 1`` dealt under the constraints ``Kc`` until
    every seat in ``check`` makes its calls among ``calls`` (``kernel.makes_calls``);
    ``tries[m]``: the dealing attempts used, -1 when ``max_tries`` ran out."""
    fold = K.memo_fold(pids, params)
    for b in prange(n_blocks):
        state = np.zeros(4, dtype=np.uint64)
        deck = np.zeros(52, dtype=np.int64)
        o, rng, orc, first, memo = K.new_scratch()
        for m in range(b * count // n_blocks, (b + 1) * count // n_blocks):
            tries[m] = -1
            used = 0
            a = 0
            while used < max_tries:
                t = deal_constrained(seed, start + m + a * ATTEMPT_STRIDE, Kc, order, n_order,
                                     state, deck, hands, m, max_tries - used)
                if t < 0:
                    break
                used += t
                if K.makes_calls(hands[m], calls, check, dealer, vul, pids, params, fold, o,
                                 rng, orc, memo):
                    tries[m] = used
                    break
                a += 1


def calls_tell(s: Situation, ids: np.ndarray) -> list[int]:
    """The seats whose hands the calls so far condition: not yours, not ``known``, a
    strategy in ``INFERABLE``, at least one call made; none with ``infer=no``."""
    callers = {(s.dealer + k) % 4 for k in range(len(s.calls))}
    return [t for t in range(4) if s.infer and t != s.seat and t in callers
            and s.constraints.fixed[t] is None and int(ids[t]) in K.SB.INFERABLE]


def deal_rollouts(s: Situation, seed: int, start: int, n: int, ids: np.ndarray,
                  params: np.ndarray) -> np.ndarray:
    """The hands of rollouts ``start .. start + n - 1``: int64 ``(n, 4)`` masks."""
    seats = calls_tell(s, ids)
    if not seats:
        try:
            return deal(s.constraints, seed, start, n, max_tries=MAX_TRIES)
        except BidlabError:
            raise BidlabError(f"no deal fits the situation's hcp/shape/known within "
                              f"{MAX_TRIES:,} attempts, given your hand: loosen them") from None
    Kc, order = plan(s.constraints)
    hands = np.zeros((n, 4), dtype=np.int64)
    tries = np.zeros(n, dtype=np.int64)
    args = (Kc, order, len(order), np.array(s.calls, dtype=np.int64),
            sum(1 << t for t in seats), s.dealer, s.vul, ids, params)
    # the first rollout alone: calls that never come out fail in seconds, not for
    # every rollout at once
    for lo, hi in ((0, min(n, 1)), (min(n, 1), n)):
        if hi > lo and (tries[:lo] >= 0).all():
            deal_matching_chunk(np.uint64(seed), start + lo, hi - lo, H.blocks(hi - lo), *args,
                                hands[lo:hi], tries[lo:hi], MAX_TRIES)
    if (tries < 0).any():
        names = ", ".join(SEAT_NAMES[t] for t in seats)
        raise BidlabError(f"rollout {start + int(np.argmax(tries < 0))}: no deal within "
                          f"{MAX_TRIES:,} attempts fits the situation's hcp/shape/known and "
                          f"has {names} make the calls so far as their strategies bid: check "
                          f"the calls and constraints, or set infer=no")
    return hands


def _batch(n_strains: int) -> int:
    """Boards per solver call: enough strain-tables to keep every core busy, few enough
    that the progress bar moves (DDS takes at most 200 per call)."""
    return max(1, min(DD.BATCH_STRAINS, 16 * (os.cpu_count() or 1)) // n_strains)


def solve_strains(hands: np.ndarray, need: np.ndarray, progress: bool | None = None
                  ) -> np.ndarray:
    """Double-dummy tricks ``(n, 4, 5)`` int8 of ``hands`` with at least the strains in
    the bit set ``need[r]`` (bit = strain) solved, from the cache; each missing deal is
    solved once, in its missing strains, in batches of deals that need the same ones."""
    from tqdm.auto import tqdm
    store = DD.cache()
    keys = DD.deal_keys(hands)
    tables = {k: t.copy() for k, t in store.get(keys).items()}
    want: dict[bytes, int] = {}
    row: dict[bytes, int] = {}
    for r, (k, m) in enumerate(zip(keys, need.tolist())):
        t = tables.get(k)
        have = 0 if t is None else sum(1 << s for s in range(5) if (t[:, s] >= 0).all())
        if m & ~have:
            want[k] = want.get(k, 0) | (m & ~have)
            row.setdefault(k, r)
    DD.check_solve_limit(len(want))
    groups: dict[int, list[bytes]] = {}
    for k, m in want.items():
        groups.setdefault(m, []).append(k)
    bar = tqdm(total=len(want), unit="deal", desc="double-dummy", leave=False,
               dynamic_ncols=True, disable=(None if progress is None else not progress)
               if want else True)
    try:
        for m, group in groups.items():
            strains = tuple(s for s in range(5) if m >> s & 1)
            size = _batch(len(strains))
            for i in range(0, len(group), size):
                part = group[i:i + size]
                solved = DD.solve(hands[[row[k] for k in part]], strains, store=store)
                for k, t in zip(part, solved):
                    tables[k] = np.where(t >= 0, t, tables.get(k, t))
                bar.update(len(part))
    finally:
        bar.close()
    out = np.full((len(keys), 4, 5), -1, dtype=np.int8)
    for r, k in enumerate(keys):
        if k in tables:
            out[r] = tables[k]
    return out


def _needed_strains(board_out: np.ndarray) -> np.ndarray:
    """Per rollout, the bit set of the strains of the candidates' final contracts."""
    played = board_out[:, :, K.B_LEVEL] > 0
    bits = np.where(played, 1 << np.maximum(board_out[:, :, K.B_STRAIN], 0), 0)
    return np.bitwise_or.reduce(bits, axis=0)


def matchpoints(score: np.ndarray) -> np.ndarray:
    """Per rollout and candidate: 1 per other candidate outscored, 1/2 per tie, over the
    number of others (a field in which each candidate is one table; 1/2 when alone)."""
    k = score.shape[1]
    if k == 1:
        return np.full(score.shape, 0.5)
    beats = (score[:, :, None] > score[:, None, :]).sum(axis=2)
    ties = (score[:, :, None] == score[:, None, :]).sum(axis=2) - 1
    return (beats + 0.5 * ties) / (k - 1)


def imps_vs_best(score: np.ndarray) -> np.ndarray:
    """IMPs (B11) of each candidate against the candidate with the highest mean score
    (the first on ties: the one bid-EV calls best), rollout by rollout."""
    best = int(np.argmax(score.mean(axis=0)))
    return imps_vec((score - score[:, [best]]).astype(np.int64)).astype(np.float64)


def _policy_arrays(policies) -> tuple[np.ndarray, np.ndarray]:
    _check_policies(policies)
    return (np.ascontiguousarray(policies["bid"][0], dtype=np.int64),
            np.ascontiguousarray(policies["bid"][1], dtype=np.float64))


def _oracle(ids: np.ndarray, s: Situation, hands: np.ndarray, progress: bool | None):
    """For a table with the ``par`` oracle (which bids from the par contract): the full
    double-dummy tables, par scores and contracts first; else nothing."""
    if not (ids == K.SB.PAR).any():
        return NO_DD, NO_PAR, NO_ORACLE
    n = hands.shape[0]
    tables = solve_strains(hands, np.full(n, 31), progress)
    par_ns, oracle = DD.par(hands, tables, np.full(n, s.dealer), np.full(n, s.vul))
    return tables, par_ns, oracle


def _facts(s: Situation, n: int) -> np.ndarray:
    """The kernel's per-board (dealer, vulnerability): the situation's, on every rollout."""
    return np.tile(np.array([s.dealer, s.vul], dtype=np.int64), (n, 1))


def play(rules: Rules, policies, labels: tuple[str, ...], s: Situation, calls: list[int],
         seed: int, n: int, progress: bool | None = None):
    """Rollouts ``0 .. n - 1`` of every call in ``calls``: (hands, dd tables, board_out
    (candidates x n x BOARD_COLS), the score of the asking side (n x candidates))."""
    ids, params = _policy_arrays(policies)
    hands = deal_rollouts(s, seed, 0, n, ids, params)
    tables, par_ns, oracle = _oracle(ids, s, hands, progress)
    forced, n_forced = _forced(s, calls)
    board_out = np.zeros((len(calls), n, K.BOARD_COLS), dtype=np.int32)
    err = np.zeros((len(calls), n, H.ERR_SIZE), dtype=np.int64)
    auctions(np.uint64(seed), s.board - 1, n, H.blocks(n), pack(rules), hands, _facts(s, n),
             tables, par_ns, oracle, ids, params, forced, n_forced, board_out, err)
    _check(err, [action_name(c) for c in calls], labels)
    if tables is NO_DD:  # now that the contracts are known: only their strains
        tables = solve_strains(hands, _needed_strains(board_out), progress)
    score = np.zeros((n, len(calls)), dtype=np.float64)
    side_scores(board_out, tables, s.seat, score)
    return hands, tables, board_out, score


def run_rollouts(rules: Rules, policies, labels: tuple[str, ...], values: dict[str, Any],
                 given: list[str] | None, seed: int, n: int,
                 progress: bool | None = None):
    """``Game.rollouts`` for bridge: every candidate call in the situation ``values``,
    played out on ``n`` deals; ``win`` is the matchpoint share among the candidates and
    ``extra["imps"]`` the IMPs against the best candidate."""
    s = parse(rules, values)
    calls = candidates(s, given)
    _, _, _, score = play(rules, policies, labels, s, calls, seed, n, progress)
    situation = s.to_json()
    situation["calls_tell"] = [SEAT_NAMES[t] for t in calls_tell(s, _policy_arrays(policies)[0])]
    return Rollouts([action_name(c) for c in calls], score, matchpoints(score), situation,
                    {"imps": imps_vs_best(score)})


def play_rollout(rules: Rules, policies, labels: tuple[str, ...], values: dict[str, Any],
                 action: str, seed: int, index: int) -> dict[str, Any]:
    """Rollout ``index`` of one candidate ``action``, recorded: the deal (PBN), every call
    from the dealer, the contract, declarer, tricks and your side's score -- the same
    board that :func:`run_rollouts` plays for it."""
    from sim.games.bridge.engine import contract_text
    from sim.games.bridge.pbn import format_deal
    s = parse(rules, values)
    call = candidates(s, [action])[0]
    ids, params = _policy_arrays(policies)
    hands = deal_rollouts(s, seed, index, 1, ids, params)
    tables, par_ns, oracle = _oracle(ids, s, hands, None)
    out = np.zeros((1, K.BOARD_COLS), dtype=np.int32)
    err = H.new_errors(1)
    log = np.zeros((1, C.MAX_AUCTION), dtype=np.int8)
    auction_logged(np.uint64(seed), s.board - 1, index, pack(rules), hands, _facts(s, 1),
                   tables, par_ns, oracle, ids, params, _forced(s, [call])[0][0], out, err, log)
    _check(err[None], [action_name(call)], labels)
    if tables is NO_DD:
        tables = solve_strains(hands, _needed_strains(out[None]))
    score = np.zeros((1, 1))
    side_scores(out[None], tables, s.seat, score)
    played = out[0, K.B_LEVEL] > 0
    declarer, strain = int(out[0, K.B_DECLARER]), int(out[0, K.B_STRAIN])
    return {"deal": format_deal(hands[0]), "board": s.board,
            "auction": [C.call_text(int(c)) for c in log[0, :out[0, K.B_NCALLS]]],
            "contract": contract_text(out[0]),
            "declarer": SEAT_NAMES[declarer] if played else None,
            "tricks": int(tables[0, declarer, strain]) if played else None,
            "score": int(score[0, 0])}
