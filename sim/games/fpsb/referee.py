"""Plain-Python referee of an fpsb trace: re-derives the winners and payoffs (F1-F3)."""

from __future__ import annotations

import math

from sim.games.fpsb.rules import KEYS
from sim.referee import Replayed, TraceReferee


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


class _Referee(TraceReferee):
    game = "fpsb"

    def numbers(self, key: str, n: int) -> list[float]:
        values = self.field(self.trace, key, "")
        if not isinstance(values, list) or len(values) != n or not all(map(_number, values)):
            raise self.fail(key, f"must list {n} numbers, one per bidder")
        return values

    def run(self) -> Replayed:
        n = self.rules_with(tuple(k.name for k in KEYS))["players"]
        values, bids = self.numbers("values", n), self.numbers("bids", n)
        for s in range(n):
            if not 0.0 <= values[s] < 1.0:
                raise self.fail(f"seat {s}", f"value {values[s]} is outside [0, 1) (F1)")
            if bids[s] < 0:
                raise self.fail(f"seat {s}", f"bid {bids[s]} is negative (F2)")
        best = max(bids)
        winners = [s for s, b in enumerate(bids) if b == best]
        scores = [(v - b) / len(winners) if s in winners else 0.0
                  for s, (v, b) in enumerate(zip(values, bids))]
        if self.field(self.trace, "winners", "") != winners:
            raise self.fail("", f"winners {self.trace['winners']!r}, expected {winners}: the "
                                f"highest bid wins, ties shared (F3)")
        if self.field(self.trace, "price", "") != best:
            raise self.fail("", f"price {self.trace['price']!r}, expected the winning bid {best} (F3)")
        if self.field(self.trace, "scores", "") != scores:
            raise self.fail("", f"scores {self.trace['scores']!r}, expected {scores}: value "
                                f"minus bid for the winner, split on a tie (F3)")
        return Replayed(scores, winners, n)


def replay(trace: dict) -> Replayed:
    """Check an fpsb trace against F1-F3 and re-derive its winners and scores."""
    return _Referee(trace).run()
