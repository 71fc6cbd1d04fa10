"""Python side of the aukcio kernel: allocate, call, check errors, shape tables."""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.errors import BidlabError
from sim.game import Columns, Policies, Tables
from sim.games.aukcio import kernel as K
from sim.games.aukcio.rules import FACE_PER_DECK, MONEY_PER_DECK, pack
from sim.rules import Rules


def dealt(rules: Rules, seed: int, start: int, count: int) -> np.ndarray:
    """The decks of matches ``start ..`` as dealt: one row per match, the auction deck
    then the money deck, top first (card codes; the layout ``deals=`` takes)."""
    out = np.zeros((count, (FACE_PER_DECK + MONEY_PER_DECK) * rules.decks), np.int64)
    K.deal_orders(pack(rules), np.uint64(seed), start, count, out)
    return out


def hidden_deals(rules: Rules, seed: int, index: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Match ``index`` as dealt, and the same deal with the money cards dealt to the
    other seats moved round among them (each gets the next one's hand): what ``seat``
    sees is the same in both, its own cards included (``deals=`` rows)."""
    same = dealt(rules, seed, index, 1)
    n, faces = rules.players, FACE_PER_DECK * rules.decks
    k = np.arange(n * rules.hand_size)
    owner = (rules.first_dealer + 1 + k) % n        # the deal: one card at a time (K4)
    others = [s for s in range(n) if s != seat]
    other = same.copy()
    for a, b in zip(others, others[1:] + others[:1]):
        other[0, faces + k[owner == a]] = same[0, faces + k[owner == b]]
    return same, other


def _checked_deals(rules: Rules, deals: np.ndarray | None, count: int) -> np.ndarray:
    """``deals`` as the kernel takes it (``dealt``'s layout), every row checked: each
    deck complete, every card once (two decks: twice)."""
    deals = H.deck_rows("aukcio", deals, count, (FACE_PER_DECK + MONEY_PER_DECK) * rules.decks,
                        "the auction deck, then the money deck")
    faces = FACE_PER_DECK * rules.decks
    want = np.sort(dealt(rules, 0, 0, 1)[0])
    for m, row in enumerate(deals):
        if not (np.array_equal(np.sort(row), want) and (row[:faces] % 13 >= 9).all()
                and (row[:faces] < 52).all()):
            raise BidlabError(f"aukcio deals, row {m}: not the {rules.decks}-deck auction "
                              f"deck ({faces} face cards) followed by the money deck (every "
                              f"number card and joker once per deck)")
    return deals


def explain(e: H.KernelError, label: str) -> str:
    legal = (f"a bid of {e.lo}..{e.hi} or a pass" if e.lo <= e.hi
             else f"only a pass (smallest bid {e.lo} > the most it can pay, {e.hi})")
    return (f"match {e.index}, lot {e.step}, seat {e.seat}: policy {label!r} bid {e.value}, "
            f"which is illegal; legal: {legal} (rules K6, K7)")


def _play(rules: Rules, policies: Policies, seed: int, start: int, count: int,
          offsets: np.ndarray, rows: int, deals: np.ndarray) -> dict[str, np.ndarray]:
    n = rules.players
    pids, params = policies["bid"]
    a = dict(score=np.zeros((count, n)), win=np.zeros((count, n)),
             seat_out=np.zeros((K.S_COLS, count, n), np.int64),
             match_out=np.zeros((count, K.M_COLS), np.int64),
             lot_out=np.zeros((rows, K.L_COLS), np.int64), err=H.new_errors(count))
    K.play_chunk(pack(rules), np.ascontiguousarray(pids, np.int64),
                 np.ascontiguousarray(params, np.float64), H.solution_table(policies),
                 np.uint64(seed), start, count,
                 H.blocks(count), a["score"], a["win"], a["seat_out"], a["match_out"],
                 a["lot_out"], offsets, a["err"], deals)
    return a


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False,
              deals: np.ndarray | None = None) -> Tables:
    """Play matches ``start .. start + count - 1``; tables ``seats`` (+ ``matches``,
    ``lots``). ``deals``: the decks to play instead of dealing them, one row per match
    (``dealt``'s layout)."""
    deals = _checked_deals(rules, deals, count)
    n = rules.players
    # Without bottom a match has at most one lot per face card; with it, a match that
    # plays more is played again with exact room (matches do not change on replay).
    cap = FACE_PER_DECK * rules.decks if detail else 0
    offsets = np.arange(count + 1, dtype=np.int64) * cap
    a = _play(rules, policies, seed, start, count, offsets, cap * count, deals)
    H.check(a["err"], start, explain, labels)
    lots = a["match_out"][:, K.M_LOTS]
    if detail and lots.max(initial=0) > cap:
        offsets = np.concatenate([[0], np.cumsum(lots)]).astype(np.int64)
        a = _play(rules, policies, seed, start, count, offsets, int(lots.sum()), deals)
    so = a["seat_out"]

    def seat_col(col, dtype=np.int16):
        return so[col].astype(dtype).ravel()

    tables = {"seats": {
        **H.match_seat(start, count, n),
        "score": a["score"].ravel(), "win": a["win"].ravel(),
        # which set the winner made: 0 three of a rank, 1 run J-Q-K, 2 run Q-K-A
        "set_kind": H.nullable(so[K.S_SET].astype(np.int8)),
        "face_cards": seat_col(K.S_FACE, np.int8),
        "money_spent": seat_col(K.S_SPENT), "overpaid": seat_col(K.S_OVERPAID),
        "cards_paid": seat_col(K.S_PAID), "jokers_paid": seat_col(K.S_JOKERS, np.int8),
        "cards_drawn": seat_col(K.S_DRAWN), "money_left": seat_col(K.S_MONEY_LEFT),
        "cards_left": seat_col(K.S_CARDS_LEFT),
        "lots": np.repeat(lots.astype(np.int16), n),
    }}
    if detail:
        tables["matches"] = _match_table(a["match_out"], start, count)
        tables["lots"] = _lot_table(a["lot_out"], offsets, lots, start)
    return tables


def _match_table(mo: np.ndarray, start: int, count: int) -> Columns:
    return {
        "match": np.arange(start, start + count, dtype=np.int64),
        "lots": mo[:, K.M_LOTS].astype(np.int16),
        "sales": mo[:, K.M_SALES].astype(np.int16),
        "reshuffles": mo[:, K.M_RESHUFFLES].astype(np.int16),
        "draw": mo[:, K.M_WINNER] < 0,
        "winner": H.nullable(mo[:, K.M_WINNER].astype(np.int8)),
    }


def _lot_table(lo: np.ndarray, offsets: np.ndarray, lots: np.ndarray, start: int) -> Columns:
    """One row per lot played, in play order within each match."""
    rows = (np.concatenate([np.arange(o, o + k) for o, k in zip(offsets[:-1], lots)])
            if len(lots) else np.zeros(0, np.int64))
    t = lo[rows]
    card = t[:, K.L_CARD]
    sold = t[:, K.L_BUYER] >= 0

    def col(c, dtype=np.int16):
        return t[:, c].astype(dtype)

    def when_sold(c, dtype=np.int16):
        return np.ma.array(col(c, dtype), mask=~sold, fill_value=-1)

    return {
        "match": np.repeat(np.arange(start, start + len(lots), dtype=np.int64), lots),
        "lot": (np.concatenate([np.arange(k) for k in lots]) if len(lots)
                else rows).astype(np.int16),
        "card": card.astype(np.int8),
        "rank": (card % 13 - 9).astype(np.int8),   # 0..3 = J, Q, K, A
        "suit": (card // 13).astype(np.int8),
        "turner": col(K.L_TURNER, np.int8),
        "sitting_out": H.nullable(col(K.L_SITTING_OUT, np.int8)),
        "buyer": H.nullable(col(K.L_BUYER, np.int8)),
        "price": when_sold(K.L_PRICE), "overpaid": when_sold(K.L_OVERPAID),
        "cards_paid": when_sold(K.L_PAID, np.int8), "jokers_paid": when_sold(K.L_JOKERS, np.int8),
        "completed": when_sold(K.L_COMPLETED, bool), "blocked": when_sold(K.L_BLOCKED, bool),
        "buyer_money": when_sold(K.L_BUYER_MONEY),
        "calls": col(K.L_CALLS, np.int8),
        "money_held": col(K.L_MONEY_HELD),
        "draw_pile": col(K.L_DRAW_PILE, np.int8),
    }


def play_one(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
             index: int, deals: np.ndarray | None = None
             ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Match ``index`` with every event logged (``kernel.EV_*``): (arrays, log)."""
    deals = _checked_deals(rules, deals, 1)
    n = rules.players
    pids, params = policies["bid"]
    scratch = K.new_scratch()
    g = scratch[1]

    def play(events: int | None):
        a = dict(score=np.zeros((1, n)), win=np.zeros((1, n)),
                 seat_out=np.zeros((K.S_COLS, 1, n), np.int64),
                 match_out=np.zeros((1, K.M_COLS), np.int64),
                 lot_out=np.zeros((0, K.L_COLS), np.int64), err=H.new_errors(1))
        log = np.zeros((events or 0, 3), np.int64)
        g[:] = 0
        g[K.G_LOGGING] = 1
        K.play_match(pack(rules), np.asarray(pids, np.int64), np.asarray(params, np.float64),
                     H.solution_table(policies), np.uint64(seed), index, 0, *scratch,
                     a["score"], a["win"], a["seat_out"], a["match_out"],
                     a["lot_out"], np.zeros(2, np.int64), a["err"], log, deals)
        H.check(a["err"], index, explain, labels)
        return a, log, int(g[K.G_CURSOR])

    a, log, _ = H.record_twice(play, lambda first: first[2])
    return a, log
