"""Python side of the fpsb kernel."""

from __future__ import annotations

import numpy as np

from sim import harness as H
from sim.errors import BidlabError
from sim.game import Policies, Tables
from sim.games.fpsb import kernel as K
from sim.rules import Rules


def dealt(rules: Rules, seed: int, start: int, count: int) -> np.ndarray:
    """The values of matches ``start ..`` as dealt: one row per match, one value per
    bidder (the layout ``deals=`` takes)."""
    out = np.zeros((count, rules.players))
    K.dealt_values(np.uint64(seed), start, count, rules.players, out)
    return out


def hidden_deals(rules: Rules, seed: int, index: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Match ``index`` as dealt, and with every other bidder's value moved by half the
    range (mod 1): ``seat`` sees its own value only (F1), the same in both."""
    same = dealt(rules, seed, index, 1)
    other = (same + 0.5) % 1.0
    other[0, seat] = same[0, seat]
    return same, other


def _values(rules: Rules, deals: np.ndarray | None, count: int) -> np.ndarray:
    """``deals`` as the kernel takes it: one row of values in [0, 1) per match."""
    if deals is None:
        return np.zeros((0, rules.players))
    deals = np.ascontiguousarray(deals, dtype=np.float64)
    if deals.shape != (count, rules.players) or not ((deals >= 0) & (deals < 1)).all():
        raise BidlabError(f"fpsb deals: expected {count} rows (one per match) of "
                          f"{rules.players} values in [0, 1) (F1), got shape {deals.shape}")
    return deals


def play(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int, start: int,
         count: int, deals: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Values, bids, scores and wins (matches x bidders) of matches ``start ..``; with
    ``deals``, those values."""
    given = _values(rules, deals, count)
    n = rules.players
    pids, params = policies["bid"]
    a = {k: np.zeros((count, n)) for k in ("value", "bid", "score", "win")}
    err = H.new_errors(count)
    K.play_chunk(np.uint64(seed), start, count, H.blocks(count), n, pids, params,
                 H.solution_table(policies), a["value"], a["bid"], a["score"], a["win"], err,
                 given)
    H.check(err, start, explain, labels)
    return a


def explain(e: H.KernelError, label: str) -> str:
    return (f"match {e.index}, seat {e.seat}: policy {label!r} made a negative or undefined "
            f"bid; legal: any bid >= 0 (F2)")


def run_chunk(rules: Rules, policies: Policies, labels: tuple[str, ...], seed: int,
              start: int, count: int, detail: bool = False,
              deals: np.ndarray | None = None) -> Tables:
    """Play matches ``start .. start + count - 1``: the ``seats`` table (fpsb has no
    detail tables). ``deals``: the values to play instead of dealing them (``dealt``)."""
    n = rules.players
    a = play(rules, policies, labels, seed, start, count, deals)
    return {"seats": {
        **H.match_seat(start, count, n),
        "score": a["score"].ravel(), "win": a["win"].ravel(),
        "value": a["value"].ravel(), "bid": a["bid"].ravel(),
    }}
