"""What every game's engine shares: the kernel's error records, the parallel block
count, the match and seat columns of the tables, and the header of a trace; and, for
the kernels of the card games, dealing hands and putting a seat's question.

Error records: a kernel gets ``err``, an int64 array of ``count x ERR_SIZE``, zeros,
and marks a match that went wrong with :func:`fail` (the first wrong match stops the
chunk). Columns: what went wrong (``code``), the seat, and where and what: deal, step
(lot, call or trick), the action taken and two figures of what was legal (a range
``lo..hi`` or a bit set in ``lo``), as each game documents at its codes. The Python
side, :func:`check`, turns the first record into an :class:`IllegalActionError` that
names the match, the seat, the policy and the legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numba
import numpy as np

from sim.errors import BidlabError, IllegalActionError, StrategyError
from sim.game import SOLUTION
from sim.jit import jit
from sim.rng import below
from sim.rules import Rules

ERR_CODE, ERR_SEAT, ERR_DEAL, ERR_STEP, ERR_VALUE, ERR_LO, ERR_HI = range(7)
ERR_SIZE = 7

OK = 0
TRACE_OVERFLOW = 1
"""A trace buffer too small for what the match played (a bug, not a user's error)."""
ILLEGAL = 2
"""A policy's action that the rules do not allow; games number further codes from 3."""


@jit
def fail(err, m, code, seat, deal, step, value, lo, hi):
    """Record what went wrong in match row ``m``."""
    err[m, ERR_CODE] = code
    err[m, ERR_SEAT] = seat
    err[m, ERR_DEAL] = deal
    err[m, ERR_STEP] = step
    err[m, ERR_VALUE] = value
    err[m, ERR_LO] = lo
    err[m, ERR_HI] = hi


@jit(inline=True)
def show_rules(o, R, shown):
    """Write the rule values a policy sees into its observation ``o``: the packed rule
    ``R[shown[i, 1]]`` at offset ``shown[i, 0]``, for every row of ``shown``."""
    for i in range(shown.shape[0]):
        o[shown[i, 0]] = R[shown[i, 1]]


@jit
def deal_hands(rng, si, fixed, d, n, size, hand_size, deck_at, hands_at, dealt_at):
    """Hands of ``hand_size`` cards for ``n`` seats from a fresh deck of cards
    ``0..size-1``, as masks into ``si[hands_at + s]`` and ``si[dealt_at + s]``: the hands
    of ``fixed[d]`` where given (a mask; -1: dealt), the others in seat order from a
    partial Fisher-Yates shuffle of the cards left (``si[deck_at:]`` is its scratch)
    drawn from ``rng``. Where the hands take every card left, the last of them is what
    the others leave, with no draw (so a deal draws no more than it needs)."""
    taken = np.int64(0)
    random_seats = n
    given = d < fixed.shape[0]
    if given:
        for s in range(n):
            if fixed[d, s] >= 0:
                taken |= fixed[d, s]
                random_seats -= 1
    k = 0
    for c in range(size):
        if not taken & (np.int64(1) << c):
            si[deck_at + k] = c
            k += 1
    need = hand_size * random_seats
    if need == k:                       # the whole deck is dealt: the last hand is left
        need = hand_size * max(random_seats - 1, 0)
    for i in range(need):
        j = i + below(rng, k - i)
        t = si[deck_at + i]
        si[deck_at + i] = si[deck_at + j]
        si[deck_at + j] = t
    r = 0
    for s in range(n):
        if given and fixed[d, s] >= 0:
            hand = fixed[d, s]
        else:
            hand = np.int64(0)
            for i in range(hand_size):
                hand |= np.int64(1) << si[deck_at + hand_size * r + i]
            r += 1
        si[hands_at + s] = hand
        si[dealt_at + s] = hand


@jit
def show_seat(o, p, rng, params, rngs, s, hand, seat_at, hand_at):
    """Prepare seat ``s``'s question: its number and own ``hand`` into the observation
    (at ``seat_at``, ``hand_at``), its parameters and random state into scratch vectors
    (no array views in the hot loop)."""
    o[seat_at] = s
    o[hand_at] = hand
    for j in range(params.shape[1]):
        p[j] = params[s, j]
    for j in range(4):
        rng[j] = rngs[1 + s, j]


@jit
def keep_seat_rng(o, rng, rngs, s, hand_at, legal_at):
    """After seat ``s``'s answer: keep its advanced random state, and take its hand and
    the legal set out of the observation."""
    for j in range(4):
        rngs[1 + s, j] = rng[j]
    o[hand_at] = 0
    o[legal_at] = 0


@jit
def start_deal(si, scores_at, scores, n, forced_at, forced, n_before, call):
    """A bid-EV rollout's state before its candidate ``call``: the ``n`` match ``scores``
    before the deal, then the calls made before the asking seat's turn
    (``forced[:n_before]``) and ``call`` as the deal's first forced calls."""
    for s in range(n):  # loops, not slices: slice assignment needs the NRT (sim.jit)
        si[scores_at + s] = scores[s]
    for k in range(n_before):
        si[forced_at + k] = forced[k]
    si[forced_at + n_before] = call


def new_errors(count: int) -> np.ndarray:
    return np.zeros((count, ERR_SIZE), np.int64)


class KernelError(NamedTuple):
    """One error record, read back: ``index`` is the match's index in the run."""

    index: int
    code: int
    seat: int
    deal: int
    step: int
    value: int
    lo: int
    hi: int


Explain = Callable[[KernelError, str], str]
"""``(record, policy label) -> message`` for a game's own codes (``ILLEGAL`` and up)."""


def first_error(err: np.ndarray, start: int) -> KernelError | None:
    """The first record of ``err`` (rows: matches ``start, start + 1, ...``) that says
    something went wrong, or None."""
    bad = np.flatnonzero(err[:, ERR_CODE])
    if bad.size == 0:
        return None
    m = int(bad[0])
    return KernelError(start + m, *(int(x) for x in err[m]))


def check(err: np.ndarray, start: int, explain: Explain, labels: tuple[str, ...]) -> None:
    """Raise the error of the first match of the chunk that went wrong, if any."""
    e = first_error(err, start)
    if e is None:
        return
    if e.code == TRACE_OVERFLOW:
        raise IllegalActionError(f"match {e.index}, seat {e.seat}: the trace buffer "
                                 f"overflowed (a bug in bidlab: please report it)")
    raise IllegalActionError(explain(e, labels[e.seat]))


def blocks(count: int) -> int:
    """Blocks a chunk of ``count`` matches is split into for ``prange``: a few per
    thread, so that uneven matches even out; which block plays a match never changes
    its result."""
    return max(1, min(count, 4 * numba.get_num_threads()))


def match_seat(start: int, count: int, n_seats: int) -> dict[str, np.ndarray]:
    """The ``match`` and ``seat`` columns of a table with one row per match and seat."""
    return {"match": np.repeat(np.arange(start, start + count, dtype=np.int64), n_seats),
            "seat": np.tile(np.arange(n_seats, dtype=np.int8), count)}


def nullable(values: np.ndarray) -> np.ma.MaskedArray:
    """A column in which -1 marks a missing value (null in the table); the explicit fill
    value keeps small dtypes picklable."""
    flat = np.asarray(values).ravel()
    return np.ma.array(flat, mask=flat < 0, fill_value=-1)


def deck_rows(game: str, deals, count: int, width: int, layout: str,
              unit: str = "cards") -> np.ndarray:
    """Given decks as a kernel takes them (``Game.run_chunk``'s ``deals``): int64, one row
    of ``width`` entries (``unit``) per match of the chunk, laid out as ``layout`` says;
    an empty array when none are given. The game checks what each row holds."""
    if deals is None:
        return np.zeros((0, width), np.int64)
    deals = np.ascontiguousarray(deals, dtype=np.int64)
    if deals.shape != (count, width):
        raise BidlabError(f"{game} deals: expected {count} rows (one per match) of {width} "
                          f"{unit} ({layout}), got {deals.shape}")
    return deals


def trace_header(game: str, rules: Rules, seed: int, index: int,
                 labels: tuple[str, ...]) -> dict:
    """The fields every trace starts with: ``game, rules, seed, index, strategies``."""
    return {"game": game, "rules": rules.to_json(), "seed": seed, "index": index,
            "strategies": list(labels)}


def record_twice(play: Callable[[int | None], tuple], size: Callable[[tuple], int]) -> tuple:
    """Play a match to count what its trace needs (``play(None)``: record nothing), then
    again recording it in buffers of exactly that size (``play(size(first))``): the
    kernel never allocates, and a match is the same on both plays."""
    return play(size(play(None)))


def check_policies(game: str, policies: Mapping[str, tuple[np.ndarray, np.ndarray]],
                   decisions: tuple[str, ...], n: int) -> None:
    """A :class:`StrategyError` unless ``policies`` holds, per decision kind, one policy
    id and one parameter row for each of the ``n`` seats."""
    for d in decisions:
        if d not in policies:
            an = "an" if d[0] in "aeiou" else "a"
            raise StrategyError(f"{game} needs {an} {d!r} policy per seat; got decisions "
                                f"{sorted(policies)}")
        ids, params = policies[d]
        if len(ids) != n or params.shape[0] != n:
            raise StrategyError(f"{game} with {n} players needs {n} {d} policies, one per "
                                f"seat, got {len(ids)}")


def policy_arrays(policies: Mapping[str, tuple[np.ndarray, np.ndarray]],
                  decisions: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """Per decision kind in order, the policy ids (int64) and parameters (float64) as
    the kernels take them."""
    out: list[np.ndarray] = []
    for d in decisions:
        ids, params = policies[d]
        out += [np.ascontiguousarray(ids, dtype=np.int64),
                np.ascontiguousarray(params, dtype=np.float64)]
    return tuple(out)


def solution_table(policies: Mapping[str, Any]) -> np.ndarray:
    """The table the ``solved`` policies play (``policies[SOLUTION]``), or a one-entry
    placeholder where no seat plays it (one array type: one compiled kernel)."""
    table = policies.get(SOLUTION)
    return np.zeros(1) if table is None else np.ascontiguousarray(table, dtype=np.float64)


@jit(nrt=True)
def new_scratch(obs_size, n_params, seats, work_size, own_size):
    """One thread's scratch for a trick game's match loop: (observation ``o``, policy
    parameters ``p``, the asking seat's stream ``rng``, per-seat streams ``rngs``, the
    policies' ``work`` and the kernel's own ``si``)."""
    return (np.zeros(obs_size, dtype=np.int64),
            np.zeros(max(1, n_params), dtype=np.float64),
            np.zeros(4, dtype=np.uint64),
            np.zeros((seats + 1, 4), dtype=np.uint64),
            np.zeros(work_size, dtype=np.int64),
            np.zeros(own_size, dtype=np.int64))
