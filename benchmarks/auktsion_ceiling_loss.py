"""What auktsion's ceiling abstraction gives up: a call-by-call bidder that sees the price
and who holds it, against the solution's ceiling, at moments the solution reaches.

    .venv/bin/python benchmarks/auktsion_ceiling_loss.py [--moments 60] [--rollouts 2000]

Moments are drawn from ``solved`` self-play traces under the default rules (seed 7,
match k, first deal: a lot and a call in it where the speaker holds the rank, a price
stands and a raise is within its money). At each, bid-EV (every other seat ``solved``,
the speaker too after its call: its ceiling for the rest of the lot) compares the two
calls, pass and the smallest raise: the better on ``rollouts`` rollouts of one seed is
chosen, and its gain over the call the solution made there (bid iff the raise is within
its ceiling) is scored on as many rollouts of another seed (so that the choice's noise
does not count as gain). The mean gain in the speaker's match score, with its 95%
interval over moments, is what the next call would buy over the ceiling at such a
moment (one call; the speaker back on its ceiling after it): if it is near 0, the
ceiling loses little there. Reports; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def moments(count: int, seed: int = 7):
    """(situation, the solution's call) pairs from solved self-play traces."""
    from analysis.runs import trace
    from sim.cards import RANKS, parse_cards
    rng = np.random.default_rng(seed)
    out = []
    k = 0
    while len(out) < count:
        t = trace("auktsion", seed=seed, index=k, strategies=["all=solved"])
        k += 1
        deal = t["deals"][0]
        hands = [parse_cards(" ".join(h)) for h in deal["hands"]]
        money = list(deal["money_start"])
        sold = []
        found = []
        for lot in deal["lots"]:
            rank = RANKS.index(lot["rank"])
            price, high, passes = 0, -1, 0
            for call in lot["calls"]:
                s, bid = call["seat"], call["bid"]
                holds = any(c % 13 == rank for c in hands[s])
                if price > 0 and holds and price + 1 <= money[s]:
                    found.append(({"seat": s, "hand": " ".join(deal["hands"][s]),
                                   "money": ",".join(map(str, money)), "lot": lot["rank"],
                                   "price": price, "high_bidder": high, "passes": passes,
                                   "sold": ";".join(sold)}, bid is not None))
                if bid is None:
                    passes += 1
                else:
                    price, high, passes = bid, s, 0
            if lot["buyer"] is not None:
                b = lot["buyer"]
                money[b] -= lot["price"]
                cards = [c for c in deal["hands"][b] if c[0] == lot["rank"]]
                sold.append(f"{lot['rank']}:{b}:{lot['price']}" + (f":{' '.join(cards)}"
                                                                    if cards else ""))
        if found:
            out.append(found[rng.integers(len(found))])
    return out


def gain(situation, bid: bool, rollouts: int) -> float:
    """The chosen call's gain over the solution's, in the speaker's mean match score."""
    from analysis.runs import make_rules, policy_arrays, seat_strategies
    from sim.games import get_game
    g = get_game("auktsion")
    rules = make_rules("auktsion", {})
    seats = seat_strategies("auktsion", rules, ["all=solved"])
    policies = policy_arrays("auktsion", seats)
    calls = ["pass", str(situation["price"] + 1)]
    first = g.rollouts(rules, policies, seats.labels, dict(situation), calls, 11, rollouts,
                       False)
    best = int(first.score.mean(axis=0).argmax())
    second = g.rollouts(rules, policies, seats.labels, dict(situation), calls, 12, rollouts,
                        False)
    return float(second.score[:, best].mean() - second.score[:, int(bid)].mean())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moments", type=int, default=60)
    p.add_argument("--rollouts", type=int, default=2000)
    a = p.parse_args()
    gains = np.array([gain(s, bid, a.rollouts) for s, bid in moments(a.moments)])
    half = 1.96 * gains.std(ddof=1) / np.sqrt(gains.size)
    print(f"call-by-call gain over the ceiling, {gains.size} moments x {a.rollouts} rollouts: "
          f"{gains.mean():+.4f} [{gains.mean() - half:+.4f}, {gains.mean() + half:+.4f}] "
          f"match points; moments where the chosen call differs from the solution's and "
          f"gains: {int((gains > 0).sum())}, loses: {int((gains < 0).sum())}")


if __name__ == "__main__":
    main()
