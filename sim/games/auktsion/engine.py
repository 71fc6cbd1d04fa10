"""Python side of the auktsion kernel: allocate, call, check errors, shape tables."""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.cards import RANKS
from sim.errors import BidlabError
from sim.game import Policies, Tables
from sim.games.auktsion import kernel as K
from sim.games.auktsion.rules import R_FIRST_RANK, pack
from sim.rules import Rules


def _deck_size(rules: Rules) -> int:
    return 48 if rules.players == 3 else 52   # A1: no twos with 3 players


def dealt(rules: Rules, seed: int, start: int, count: int) -> np.ndarray:
    """The decks of matches ``start ..`` as dealt: one row per match, every deal's
    shuffled deck in turn (card codes; the layout ``deals=`` takes)."""
    R, _ = pack(rules)
    out = np.zeros((count, rules.deals_per_match * _deck_size(rules)), np.int64)
    K.deal_orders(R, np.uint64(seed), start, count, out)
    return out


def hidden_deals(rules: Rules, seed: int, index: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Match ``index`` as dealt, and the same match with cards hidden from ``seat``
    changed: in every deal, two other seats exchange cards of the same suit (as many
    pairs as they can), so every hand keeps its points and every seat its coins (A3):
    what ``seat`` sees is the same in both (``deals=`` rows)."""
    same = dealt(rules, seed, index, 1)
    other = same.copy()
    n, size = rules.players, _deck_size(rules)
    per = size // n
    a, b = [s for s in range(n) if s != seat][:2]
    for d in range(rules.deals_per_match):
        deck = other[0, d * size:(d + 1) * size]
        for suit in range(4):
            mine = [k for k in range(a * per, (a + 1) * per) if deck[k] // 13 == suit]
            theirs = [k for k in range(b * per, (b + 1) * per) if deck[k] // 13 == suit]
            for i, j in zip(mine, theirs):
                deck[i], deck[j] = deck[j], deck[i]
    return same, other


def _checked_deals(rules: Rules, deals: np.ndarray | None, count: int) -> np.ndarray:
    """``deals`` as the kernel takes it (``dealt``'s layout), every deal's deck checked."""
    size = _deck_size(rules)
    deals = H.deck_rows("auktsion", deals, count, rules.deals_per_match * size,
                        f"{rules.deals_per_match} decks of {size}")
    first = int(pack(rules)[0][R_FIRST_RANK])
    want = np.array(sorted(c for c in range(52) if c % 13 >= first))
    for m, row in enumerate(deals):
        for d in range(rules.deals_per_match):
            if not np.array_equal(np.sort(row[d * size:(d + 1) * size]), want):
                raise BidlabError(f"auktsion deals, row {m}, deal {d}: not a deck of {size} "
                                  f"cards, every card once")
    return deals


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
        err=H.new_errors(count),
    )


def explain(e: H.KernelError, label: str) -> str:
    legal = (f"a bid of {e.lo}..{e.hi} or a pass" if e.lo <= e.hi
             else f"only a pass (smallest bid {e.lo} > money {e.hi})")
    return (f"match {e.index}, deal {e.deal}, lot {RANKS[e.step]}, seat {e.seat}: policy "
            f"{label!r} bid {e.value}, which is illegal; legal: {legal} (rule A8)")


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False,
              deals: np.ndarray | None = None) -> Tables:
    """Play matches ``start .. start + count - 1``; tables ``seats`` (+ ``deals``, ``lots``).
    ``deals``: the decks to play instead of dealing them (``dealt``'s layout)."""
    given = _checked_deals(rules, deals, count)
    R, leftover = pack(rules)
    n, per_match = rules.players, rules.deals_per_match
    pids, params = policies["bid"]
    table = H.solution_table(policies)
    a = _arrays(count, n, per_match, detail)
    K.play_chunk(np.uint64(seed), start, count, H.blocks(count), R, leftover, pids, params, table, detail,
                 a["score"], a["win"], a["spent"], a["money_end"], a["points"], a["bought"],
                 a["deal_money"], a["deal_hand"], a["deal_score"], a["deal_spent"],
                 a["lot_starter"], a["lot_buyer"], a["lot_price"], a["lot_value"],
                 a["lot_calls"], a["err"], given)
    H.check(a["err"], start, explain, labels)
    match = np.arange(start, start + count, dtype=np.int64)
    tables = {"seats": {
        **H.match_seat(start, count, n),
        "score": a["score"].ravel(), "win": a["win"].ravel(), "points": a["points"].ravel(),
        "money_spent": a["spent"].ravel(), "money_end": a["money_end"].ravel(),
        "lots_bought": a["bought"].ravel(),
    }}
    if detail:
        tables["deals"] = {
            "match": np.repeat(match, per_match * n),
            "deal": np.tile(np.repeat(np.arange(per_match, dtype=np.int16), n), count),
            "seat": np.tile(np.arange(n, dtype=np.int8), count * per_match),
            "money_start": a["deal_money"].ravel(), "hand_points": a["deal_hand"].ravel(),
            "points": a["deal_score"].ravel(), "spent": a["deal_spent"].ravel(),
        }
        first = 1 if n == 3 else 0
        lots = 13 - first
        sl = (slice(None), slice(None), slice(first, 13))
        tables["lots"] = {
            "match": np.repeat(match, per_match * lots),
            "deal": np.tile(np.repeat(np.arange(per_match, dtype=np.int16), lots), count),
            "rank": np.tile(np.arange(first, 13, dtype=np.int8), count * per_match),
            "starter": a["lot_starter"][sl].ravel(),
            # An unsold lot has no buyer, price or buyer's value: nulls in the table.
            "buyer": H.nullable(a["lot_buyer"][sl]),
            "price": H.nullable(a["lot_price"][sl]),
            "buyer_value": H.nullable(a["lot_value"][sl]),
            "calls": a["lot_calls"][sl].ravel(),
        }
    return tables


def play_one(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int, index: int,
             deals: np.ndarray | None = None):
    """Match ``index`` with every call and dealt card recorded: (arrays, calls, decks)."""
    given = _checked_deals(rules, deals, 1)
    R, leftover = pack(rules)
    n, deals = rules.players, rules.deals_per_match
    pids, params = policies["bid"]
    table = H.solution_table(policies)
    scratch = K.new_scratch()

    def play(calls: np.ndarray, decks: np.ndarray):
        a = _arrays(1, n, deals, True)
        used = K.play_matches(np.uint64(seed), index, 0, 1, R, leftover, pids, params, table, *scratch,
                            a["score"], a["win"], a["spent"], a["money_end"], a["points"],
                            a["bought"], True, a["deal_money"], a["deal_hand"], a["deal_score"],
                            a["deal_spent"], a["lot_starter"], a["lot_buyer"], a["lot_price"],
                            a["lot_value"], a["lot_calls"], a["err"], calls, decks, given)
        H.check(a["err"], index, explain, labels)
        return a, calls[:used], decks

    def play_recording(n_calls: int | None):
        decks = np.full((0 if n_calls is None else deals, 52), -1, np.int64)
        return play(np.empty((n_calls or 0, 2), np.int64), decks)

    return H.record_twice(play_recording, lambda first: int(first[0]["lot_calls"].sum()))
