"""The same boards at several tables (``play_tables``), on double-dummy results: the
machinery under ``analysis.bridge``'s team matches and pairs events.

Boards are solved only once, through the cache (``dd.py``): any number of tables on n
boards cost one solve per board, and a rerun costs none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.errors import BidlabError
from sim.game import Policies
from sim.games.bridge import engine as E
from sim.games.bridge import kernel as K
from sim.games.bridge.rules import Rules, make


def seating(ns: Policies, ew: Policies) -> Policies:
    """One table's policies: ``ns``'s in seats 0 and 2, ``ew``'s in seats 1 and 3 (each
    given as a strategy's policies in all four seats)."""
    (ids_a, pa), (ids_b, pb) = ns["bid"], ew["bid"]
    ids = np.array([ids_a[0], ids_b[0]] * 2, dtype=np.int64)
    params = np.zeros((4, max(pa.shape[1], pb.shape[1])))
    params[0::2, :pa.shape[1]] = pa[0]
    params[1::2, :pb.shape[1]] = pb[0]
    return {"bid": (ids, params)}


@dataclass
class Tables:
    """Results of the same boards played at several tables."""

    boards: np.ndarray
    """Board number of each board (B1, or an imported board's tag)."""
    score_ns: np.ndarray
    """(tables, boards) int64: the North-South score at each table (B10, B11)."""
    par_ns: np.ndarray
    out: np.ndarray | None = None
    """(tables, boards, ``kernel.BOARD_COLS``): each table's board row (dealer,
    vulnerability, contract, declarer, tricks, score; ``kernel.B_*``), for scorecards."""


def play_tables(seatings: list[tuple[Policies, tuple[str, ...]]], n: int, seed: int = 0,
                rules: Rules | None = None, start: int = 0, deals: np.ndarray | None = None,
                progress: bool | None = None) -> Tables:
    """Boards ``start .. start + n - 1`` (dealt from ``seed``, or rows of ``deals``, an
    imported file) at one table per ``(policies, labels)`` of ``seatings``. Every board
    is dealt and solved once; every table draws its policies' random numbers from the
    same streams ``(seed, board, seat)``, so two tables seated alike score alike."""
    rules = rules or make()
    if deals is not None:
        if start + n > deals.shape[0]:
            raise BidlabError(f"-n {n}: the file holds {deals.shape[0]} boards")
        deals = deals[start:start + n]
    hands = E.board_hands(seed, start, n, deals)
    tables, par_ns, oracle = E.solve_boards(rules, hands, start, progress, deals)
    scores = np.zeros((len(seatings), n), dtype=np.int64)
    rows = np.zeros((len(seatings), n, K.BOARD_COLS), dtype=np.int64)
    for k, (policies, labels) in enumerate(seatings):
        out, _ = E.auctions(rules, policies, labels, seed, start, hands, tables, par_ns,
                            oracle, deals=deals)
        scores[k] = out[:, K.B_SCORE_NS]
        rows[k] = out
    return Tables(E.board_numbers(start, n, deals), scores, par_ns.astype(np.int64), rows)
