"""One fpsb auction as a JSON hand history: every value, bid, the winners and scores."""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.game import Policies
from sim.games.fpsb.engine import play
from sim.rules import Rules


def trace(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
          index: int, deals: np.ndarray | None = None) -> dict:
    a = play(rules, policies, labels, seed, index, 1, deals)
    bids = a["bid"][0].tolist()
    best = max(bids)
    return {**H.trace_header("fpsb", rules, seed, index, labels),
            "values": a["value"][0].tolist(), "bids": bids,
            "winners": [s for s, b in enumerate(bids) if b == best], "price": best,
            "scores": a["score"][0].tolist()}
