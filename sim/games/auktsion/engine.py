"""Python side of the auktsion kernel: allocate, call, check errors, shape tables."""

from __future__ import annotations

import numba
import numpy as np

from sim.cards import RANKS
from sim.errors import IllegalActionError
from sim.game import Columns, Policies
from sim.games.auktsion import kernel as K
from sim.games.auktsion.rules import pack
from sim.rules import Rules


def _arrays(count: int, n: int, deals: int, detail: bool) -> dict[str, np.ndarray]:
    per_seat = (count, n)
    per_deal = (count, deals, n) if detail else (1, 1, 1)
    per_lot = (count, deals, 13) if detail else (1, 1, 1)
    return dict(
        score=np.zeros(per_seat, np.float64), win=np.zeros(per_seat, np.float64),
        spent=np.zeros(per_seat, np.int32), money_end=np.zeros(per_seat, np.int32),
        points=np.zeros(per_seat, np.int32), bought=np.zeros(per_seat, np.int16),
        deal_money=np.zeros(per_deal, np.int32), deal_hand=np.zeros(per_deal, np.int16),
        deal_score=np.zeros(per_deal, np.int16), deal_spent=np.zeros(per_deal, np.int32),
        lot_starter=np.zeros(per_lot, np.int8), lot_buyer=np.full(per_lot, -1, np.int8),
        lot_price=np.full(per_lot, -1, np.int32), lot_value=np.full(per_lot, -1, np.int16),
        lot_calls=np.zeros(per_lot, np.int32),
        err=np.zeros((count, K.ERR_SIZE), np.int64),
    )


def _check(err: np.ndarray, start: int, labels: tuple[str, ...]) -> None:
    bad = np.flatnonzero(err[:, K.ERR_CODE])
    if bad.size == 0:
        return
    m = int(bad[0])
    code, seat, bid, lo, hi, deal, lot = (int(x) for x in err[m])
    where = f"match {start + m}, deal {deal}, lot {RANKS[lot]}, seat {seat}"
    if code == K.TRACE_OVERFLOW:
        raise IllegalActionError(f"{where}: the trace buffer overflowed")
    legal = f"a bid of {lo}..{hi} or a pass" if lo <= hi else f"only a pass (smallest bid {lo} > money {hi})"
    raise IllegalActionError(f"{where}: policy {labels[seat]!r} bid {bid}, which is illegal; "
                             f"legal: {legal} (rule A8)")


def _nullable(values: np.ndarray) -> np.ma.MaskedArray:
    """-1 marks a missing value; the explicit fill value keeps small dtypes picklable."""
    flat = values.ravel()
    return np.ma.array(flat, mask=flat < 0, fill_value=-1)


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False) -> dict[str, Columns]:
    """Play matches ``start .. start + count - 1``; tables ``seats`` (+ ``deals``, ``lots``)."""
    R, leftover = pack(rules)
    n, deals = rules.players, rules.deals_per_match
    pids, params = policies["bid"]
    a = _arrays(count, n, deals, detail)
    n_blocks = min(count, 4 * numba.get_num_threads())
    K.play_chunk(np.uint64(seed), start, count, n_blocks, R, leftover, pids, params, detail,
                 a["score"], a["win"], a["spent"], a["money_end"], a["points"], a["bought"],
                 a["deal_money"], a["deal_hand"], a["deal_score"], a["deal_spent"],
                 a["lot_starter"], a["lot_buyer"], a["lot_price"], a["lot_value"],
                 a["lot_calls"], a["err"])
    _check(a["err"], start, labels)
    match = np.arange(start, start + count, dtype=np.int64)
    tables = {"seats": {
        "match": np.repeat(match, n), "seat": np.tile(np.arange(n, dtype=np.int8), count),
        "score": a["score"].ravel(), "win": a["win"].ravel(), "points": a["points"].ravel(),
        "money_spent": a["spent"].ravel(), "money_end": a["money_end"].ravel(),
        "lots_bought": a["bought"].ravel(),
    }}
    if detail:
        tables["deals"] = {
            "match": np.repeat(match, deals * n),
            "deal": np.tile(np.repeat(np.arange(deals, dtype=np.int16), n), count),
            "seat": np.tile(np.arange(n, dtype=np.int8), count * deals),
            "money_start": a["deal_money"].ravel(), "hand_points": a["deal_hand"].ravel(),
            "points": a["deal_score"].ravel(), "spent": a["deal_spent"].ravel(),
        }
        first = 1 if n == 3 else 0
        lots = 13 - first
        sl = (slice(None), slice(None), slice(first, 13))
        tables["lots"] = {
            "match": np.repeat(match, deals * lots),
            "deal": np.tile(np.repeat(np.arange(deals, dtype=np.int16), lots), count),
            "rank": np.tile(np.arange(first, 13, dtype=np.int8), count * deals),
            "starter": a["lot_starter"][sl].ravel(),
            # An unsold lot has no buyer, price or buyer's value: nulls in the table.
            "buyer": _nullable(a["lot_buyer"][sl]),
            "price": _nullable(a["lot_price"][sl]),
            "buyer_value": _nullable(a["lot_value"][sl]),
            "calls": a["lot_calls"][sl].ravel(),
        }
    return tables


def play_one(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int, index: int):
    """Match ``index`` with every call and dealt card recorded: (arrays, calls, decks)."""
    R, leftover = pack(rules)
    n, deals = rules.players, rules.deals_per_match
    pids, params = policies["bid"]
    scratch = K.new_scratch()

    def play(calls: np.ndarray, decks: np.ndarray):
        a = _arrays(1, n, deals, True)
        used = K.play_matches(np.uint64(seed), index, 0, 1, R, leftover, pids, params, *scratch,
                            a["score"], a["win"], a["spent"], a["money_end"], a["points"],
                            a["bought"], True, a["deal_money"], a["deal_hand"], a["deal_score"],
                            a["deal_spent"], a["lot_starter"], a["lot_buyer"], a["lot_price"],
                            a["lot_value"], a["lot_calls"], a["err"], calls, decks)
        _check(a["err"], index, labels)
        return a, calls[:used]

    # First count the calls, then replay the match recording them in a buffer that size.
    counted, _ = play(np.empty((0, 2), np.int64), np.empty((0, 52), np.int64))
    decks = np.full((deals, 52), -1, np.int64)
    a, calls = play(np.empty((int(counted["lot_calls"].sum()), 2), np.int64), decks)
    return a, calls, decks
