"""Python side of the fpsb kernel."""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.game import Policies, Tables
from sim.games.fpsb import kernel as K
from sim.rules import Rules


def play(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int, start: int,
         count: int) -> dict[str, np.ndarray]:
    """Values, bids, scores and wins (matches x bidders) of matches ``start ..``."""
    n = rules.players
    pids, params = policies["bid"]
    a = {k: np.zeros((count, n)) for k in ("value", "bid", "score", "win")}
    err = H.new_errors(count)
    K.play_chunk(np.uint64(seed), start, count, H.blocks(count), n,
                 pids, params, a["value"], a["bid"], a["score"], a["win"], err)
    H.check(err, start, explain, labels)
    return a


def explain(e: H.KernelError, label: str) -> str:
    return (f"match {e.index}, seat {e.seat}: policy {label!r} made a negative or undefined "
            f"bid; legal: any bid >= 0 (F2)")


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False,
              deals: np.ndarray | None = None) -> Tables:
    """Play matches ``start .. start + count - 1``: the ``seats`` table (fpsb has no
    detail tables)."""
    H.no_deals("fpsb", deals)
    n = rules.players
    a = play(rules, policies, labels, seed, start, count)
    return {"seats": {
        **H.match_seat(start, count, n),
        "score": a["score"].ravel(), "win": a["win"].ravel(),
        "value": a["value"].ravel(), "bid": a["bid"].ravel(),
    }}
