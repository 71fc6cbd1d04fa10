"""Python side of the fpsb kernel."""

from __future__ import annotations

import numba
import numpy as np

from sim.errors import IllegalActionError
from sim.game import Columns, Policies
from sim.games.fpsb import kernel as K
from sim.rules import Rules


def _play(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int, start: int,
          count: int) -> dict[str, np.ndarray]:
    n = rules.players
    pids, params = policies["bid"]
    a = {k: np.zeros((count, n)) for k in ("value", "bid", "score", "win")}
    err = np.zeros((count, 2), np.int64)
    K.play_chunk(np.uint64(seed), start, count, min(count, 4 * numba.get_num_threads()), n,
                 pids, params, a["value"], a["bid"], a["score"], a["win"], err)
    bad = np.flatnonzero(err[:, 0])
    if bad.size:
        m, seat = int(bad[0]), int(err[bad[0], 1])
        raise IllegalActionError(f"match {start + m}, seat {seat}: policy {labels[seat]!r} "
                                 f"made a negative or undefined bid; legal: any bid >= 0 (F2)")
    return a


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False) -> dict[str, Columns]:
    n = rules.players
    a = _play(rules, policies, labels, seed, start, count)
    return {"seats": {
        "match": np.repeat(np.arange(start, start + count, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int8), count),
        "score": a["score"].ravel(), "win": a["win"].ravel(),
        "value": a["value"].ravel(), "bid": a["bid"].ravel(),
    }}


def trace(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
          index: int) -> dict:
    a = _play(rules, policies, labels, seed, index, 1)
    bids = a["bid"][0].tolist()
    best = max(bids)
    return {"game": "fpsb", "rules": rules.to_json(), "seed": seed, "index": index,
            "strategies": list(labels), "values": a["value"][0].tolist(), "bids": bids,
            "winners": [s for s, b in enumerate(bids) if b == best], "price": best,
            "scores": a["score"][0].tolist()}


def replay(trace: dict) -> dict:
    """Re-derive winners and payoffs of an fpsb trace (plain Python)."""
    from sim.errors import BidlabError
    values, bids = trace["values"], trace["bids"]
    best = max(bids)
    winners = [s for s, b in enumerate(bids) if b == best]
    expected = [(v - b) / len(winners) if s in winners else 0.0
                for s, (v, b) in enumerate(zip(values, bids))]
    if winners != trace["winners"] or expected != trace["scores"]:
        raise BidlabError(f"fpsb trace {trace['index']}: winners/payoffs do not follow F3")
    if any(not 0.0 <= v < 1.0 for v in values) or any(b < 0 for b in bids):
        raise BidlabError(f"fpsb trace {trace['index']}: a value outside [0, 1) or a negative bid")
    return {"winners": winners, "scores": expected}
