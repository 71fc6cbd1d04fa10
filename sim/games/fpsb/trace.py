"""One fpsb auction as a JSON hand history: every value, bid, the winners and scores."""

from __future__ import annotations

import numpy as np

from sim import handtext as HT
from sim import harness as H
from sim.game import Policies
from sim.games.fpsb.engine import play
from sim.games.fpsb.rules import KEYS
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


def text(t: dict) -> str:
    """The trace as a hand history for people (``bidlab trace fpsb --text``)."""
    lines = HT.header(t, KEYS, "auction") + [""]
    lines += HT.seat_table({"value": t["values"], "bid": t["bids"], "score": t["scores"]})
    won = t["winners"]
    lines.append("")
    lines.append((f"{HT.seat(won[0])} bids highest" if len(won) == 1 else
                  "a tie for the highest bid, the lot shared by " + ", ".join(map(HT.seat, won)))
                 + f" and pays {HT.num(t['price'])}")
    lines += HT.final(t["scores"], won, "scores")
    return "\n".join(lines) + "\n"
