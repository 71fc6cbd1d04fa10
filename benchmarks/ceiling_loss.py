"""What the ceiling abstraction of auktsion's and aukcio's solutions gives up: a
call-by-call bidder that sees the price and who holds it, against the solution's
ceiling for the lot, at moments the solution reaches.

    .venv/bin/python benchmarks/ceiling_loss.py GAME [--moments 400] [--rollouts 1000]
                                               [--matches 200]

GAME is ``auktsion`` or ``aukcio``, default rules. A *moment* is a call in ``solved``
self-play where a bid stands and the speaker could raise it: in auktsion the speaker
holds the lot's rank and the smallest raise is within its coins, in aukcio the speaker
can pay the smallest legal bid (the open form). Every moment of ``--matches`` traces
(seed 7, every deal, every seat) is counted, which gives the moments a seat meets per
match, and ``--moments`` of them are drawn uniformly from the pool. At each, bid-EV
(every seat ``solved``, the speaker too after its call: its ceiling for the rest of the
lot) compares pass and the smallest legal bid: the better on ``--rollouts`` rollouts of
one seed is chosen, and its gain over the call the solution made there is scored on as
many rollouts of another seed (so that the choice's noise does not count as gain). The
gain is in the rollouts' ``score`` outcome: the speaker's match score (aukcio: 1 for a
win, 0 otherwise), not the solvers' margin over the others' mean, which the rollouts do
not return. Its mean with a 95% interval over moments is what the next call would buy
over the ceiling at such a moment (one call, the speaker back on its ceiling after
it), broken down by whether the high bid is the richest rival's (by money: auktsion
coins, aukcio the most its cards pay) and by the solution's call. Reports; asserts
nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _holder(high: int, seat: int, money: list[int]) -> str:
    richest = max(m for t, m in enumerate(money) if t != seat)
    return "richest rival" if money[high] == richest else "another rival"


def lot_opening(deal: dict, rank: str) -> tuple[list[int], list[str]]:
    """Everyone's money when lot ``rank`` of the trace deal ``deal`` opens, and the lots
    bought before it as bid-EV's ``sold`` writes them (``RANK:BUYER:PRICE[:CARDS]``, the
    buyer's cards of the rank). ``deal`` may be a deal still in play (the reference
    engine's ``Match.deal_record``): only its lots before ``rank`` are read."""
    money = list(deal["money_start"])
    sold = []
    for lot in deal["lots"]:
        if lot["rank"] == rank:
            break
        if lot["buyer"] is not None:
            b = lot["buyer"]
            money[b] -= lot["price"]
            cards = [c for c in deal["hands"][b] if c[0] == lot["rank"]]
            sold.append(f"{lot['rank']}:{b}:{lot['price']}" + (f":{' '.join(cards)}"
                                                                if cards else ""))
    return money, sold


def auktsion_situation(deal: dict, d: int, scores: list[int], rank: str, seat: int,
                       price: int, high: int, passes: int) -> tuple[dict, list[int]]:
    """bid-EV's situation for ``seat``'s call in lot ``rank`` of the trace deal ``deal``
    (deal ``d`` of the match; ``scores``: the match points of the deals before), a price
    ``price`` standing by ``high`` (-1: none) after ``passes`` passes, and everyone's
    money now."""
    money, sold = lot_opening(deal, rank)
    return ({"seat": seat, "hand": " ".join(deal["hands"][seat]),
             "money": ",".join(map(str, money)), "lot": rank, "price": price,
             "high_bidder": high, "passes": passes, "deal": d,
             "scores": ",".join(map(str, scores)), "sold": ";".join(sold)}, money)


def auktsion_moments(t: dict) -> list[tuple[dict, int, bool, str]]:
    """(situation, the smallest raise, the solution raised, who holds the high bid) at
    every moment of a trace: a call where the speaker holds the rank, a price stands and a raise is within
    its coins."""
    from sim.cards import RANKS, parse_cards
    found = []
    scores = [0] * len(t["deals"][0]["scores"])
    for d, deal in enumerate(t["deals"]):
        hands = [parse_cards(" ".join(h)) for h in deal["hands"]]
        for lot in deal["lots"]:
            rank = RANKS.index(lot["rank"])
            money, _ = lot_opening(deal, lot["rank"])
            price, high, passes = 0, -1, 0
            for call in lot["calls"]:
                s, bid = call["seat"], call["bid"]
                if price > 0 and price + 1 <= money[s] and any(c % 13 == rank
                                                               for c in hands[s]):
                    situation, _ = auktsion_situation(deal, d, scores, lot["rank"], s, price,
                                                      high, passes)
                    found.append((situation, price + 1, bid is not None,
                                  _holder(high, s, money)))
                if bid is None:
                    passes += 1
                else:
                    price, high, passes = bid, s, 0
        scores = [a + b for a, b in zip(scores, deal["scores"])]
    return found


def aukcio_moments(t: dict) -> list[tuple[dict, int, bool, str]]:
    """(situation, the smallest legal bid, the solution bid, who holds the high bid) at
    every moment of a trace:
    a call after a bid stands, by a seat whose cards pay the smallest legal bid. The
    money cards are followed through the draw pile (ace draws, payments, buyer draws,
    reshuffles of the payment pile) and checked against the trace's draws."""
    from sim.cards import parse_cards
    from sim.games.aukcio.payment import most_payable
    from sim.games.aukcio.situation import money_counts
    jokers = t["rules"]["jokers_per_payment"]
    hands = [list(h) for h in t["hands"]]
    n = len(hands)
    pile, reshuffles = list(t["money_deck"]), []
    for lot in t["lots"]:
        reshuffles += lot["reshuffles"]
    paid, owned, gone = [], [[] for _ in range(n)], []
    found = []

    def most(s: int) -> int:
        return most_payable(money_counts(parse_cards(hands[s])), jokers)

    def draw(s: int, expected: str) -> None:
        nonlocal pile, paid
        if not pile and paid:                                    # K12
            pile, paid = list(reshuffles.pop(0)), []
        card = pile.pop(0)
        assert card == expected, (t["index"], card, expected)
        hands[s].append(card)

    for i, lot in enumerate(t["lots"]):
        for s, card in lot["ace_draws"]:
            draw(s, card)
        high, bidder, calls = 0, -1, []
        for call in lot["calls"]:
            s, bid = call["seat"], call["bid"]
            if high > 0 and most(s) >= high + 1:
                money = [most(u) for u in range(n)]
                found.append(({"seat": s, "hand": " ".join(hands[s]), "card": lot["card"],
                               "cards": ",".join(str(len(h)) for h in hands),
                               "owned": ";".join(" ".join(o) for o in owned),
                               "turner": lot["turner"],
                               "sitting_out": "none" if lot["sitting_out"] is None
                               else lot["sitting_out"],
                               "calls": ",".join(calls), "paid": " ".join(paid),
                               "gone": " ".join(gone), "lot": i},
                              high + 1, bid is not None, _holder(bidder, s, money)))
                assert bid is None or bid == high + 1, (t["index"], i, bid, high)
            calls.append("pass" if bid is None else str(bid))
            if bid is not None:
                high, bidder = bid, s
        b = lot["buyer"]
        if b is None:
            gone.append(lot["card"])
            continue
        for c in lot["payment"]:
            hands[b].remove(c)
        paid += lot["payment"]
        owned[b].append(lot["card"])
        for c in lot["buyer_draws"]:
            draw(b, c)
    return found


MOMENTS = {"auktsion": auktsion_moments, "aukcio": aukcio_moments}


def pool(game: str, matches: int, seed: int = 7):
    """Every moment of ``matches`` solved self-play traces, and the seats per match."""
    from analysis.runs import trace
    out = []
    for k in range(matches):
        t = trace(game, seed=seed, index=k, strategies=["all=solved"])
        out += MOMENTS[game](t)
    return out, len(t["strategies"])


def gain(game: str, situation: dict, lo: int, bid: bool, rollouts: int) -> tuple[float, int]:
    """(The chosen call's gain over the solution's in the speaker's mean ``score``, the
    chosen call: 0 pass, 1 the smallest legal bid)."""
    from analysis.runs import policy_arrays
    from analysis.spec import make_rules, seat_strategies
    from sim.games import get_game
    g = get_game(game)
    rules = make_rules(game, {})
    seats = seat_strategies(game, rules, ["all=solved"])
    policies = policy_arrays(game, seats)
    calls = ["pass", str(lo)]
    first = g.rollouts(rules, policies, seats.labels, dict(situation), calls, 11, rollouts,
                       False)
    best = int(first.score.mean(axis=0).argmax())
    second = g.rollouts(rules, policies, seats.labels, dict(situation), calls, 12, rollouts,
                        False)
    return float(second.score[:, best].mean() - second.score[:, int(bid)].mean()), best


def summary(label: str, gains: np.ndarray, differs: np.ndarray) -> str:
    if gains.size == 0:
        return f"{label}: no moments"
    half = 1.96 * gains.std(ddof=1) / np.sqrt(gains.size) if gains.size > 1 else np.nan
    return (f"{label}: {gains.size} moments, {gains.mean():+.4f} [{gains.mean() - half:+.4f}, "
            f"{gains.mean() + half:+.4f}]; the chosen call differs at "
            f"{int(differs.sum())} (gains {int((gains > 0).sum())}, "
            f"loses {int((gains < 0).sum())})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game", choices=sorted(MOMENTS))
    p.add_argument("--moments", type=int, default=400)
    p.add_argument("--rollouts", type=int, default=1000)
    p.add_argument("--matches", type=int, default=200)
    a = p.parse_args()
    found, seats = pool(a.game, a.matches)
    per_match = len(found) / a.matches / seats
    print(f"{a.game}: {len(found)} moments in {a.matches} matches: {per_match:.1f} per seat "
          f"and match; solution raised at {sum(b for _, _, b, _ in found)}; the high bid the "
          f"richest rival's at {sum(h == 'richest rival' for *_, h in found)}")
    rng = np.random.default_rng(7)
    drawn = [found[i] for i in rng.choice(len(found), min(a.moments, len(found)), False)]
    results = [gain(a.game, s, lo, bid, a.rollouts) for s, lo, bid, _ in drawn]
    gains = np.array([r[0] for r in results])
    differs = np.array([r[1] != bid for r, (_, _, bid, _) in zip(results, drawn)])
    unit = "match points" if a.game == "auktsion" else "match score (win share)"
    print(summary(f"call-by-call gain over the ceiling in {unit}, x {a.rollouts} rollouts",
                  gains, differs))
    print(f"per match (x {per_match:.1f} moments, an upper bound: one-call gains do not add "
          f"up): {gains.mean() * per_match:+.3f}")
    keys = [(h, "raised" if bid else "passed") for *_, bid, h in drawn]
    for key in sorted(set(keys)):
        print("  " + summary(f"high bid the {key[0]}'s, solution {key[1]}",
                             *(v[[x == key for x in keys]] for v in (gains, differs))))
    for h in ("richest rival", "another rival"):
        print("  " + summary(f"high bid the {h}'s",
                             *(v[[x[0] == h for x in keys]] for v in (gains, differs))))
    for c in ("passed", "raised"):
        print("  " + summary(f"solution {c}",
                             *(v[[x[1] == c for x in keys]] for v in (gains, differs))))
    chosen = Counter((bid, r[1]) for (_, _, bid, _), r in zip(drawn, results))
    print("  (solution's call, chosen call): " + ", ".join(
        f"({'raise' if b else 'pass'}, {'raise' if c else 'pass'}) {k}"
        for (b, c), k in sorted(chosen.items())))


if __name__ == "__main__":
    main()
