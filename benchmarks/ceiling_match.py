"""What a call-by-call bidder gains over auktsion's ceiling solution over whole matches,
paired: one seat searches every call, the other three play ``solved``.

    NUMBA_NUM_THREADS=1 .venv/bin/python benchmarks/ceiling_match.py
        [--matches 1000] [--rollouts 200] [--seed 0]

Default rules (4 players, open form, 4 deals). Match ``i`` is played twice with the
same seed and index, so the same deals: once with seat ``i % 4`` a *searcher*, once
with that seat on ``solved`` too; the other seats play ``solved`` in both. Both arms are
played by the plain-Python reference engine (``sim/games/auktsion/reference.py``) with
``solved`` ported to Python (:func:`solved_seat`); the port plays the kernel's
``bidlab.trace(..., strategies=["all=solved"])`` call for call (``--check`` compares
matches). Each seat draws its lot's action from its own stream, once per lot, in both
arms, so the other seats draw the same numbers in both: the arms differ only by the
searcher's calls and what follows from them.

The searcher: at each of its calls where it holds the lot's rank and the smallest legal
bid (A8) is within its coins, bid-EV (``Game.rollouts``, every seat ``solved``, the
searcher too after its call: a one-step lookahead) compares *pass* and *the smallest
legal bid* on ``--rollouts`` rollouts, seeded by the match and the decision, and makes
the call of the higher mean final match score (a tie: the call its own ceiling makes).
Elsewhere it passes (as the ceiling does). It still draws its ceiling each lot, only to
count where it departs from it.

Reported: the searcher's gain per match in match score (points + leftover coins) and
in final margin (its score less the others' mean), each the mean of the paired
differences with a 95% interval over matches; the searcher's decisions per match and
how often its call differs from its ceiling's; and what the rollouts themselves promised
for its departures (the difference of the two calls' means where it departed, summed per
match: chosen and scored on the same rollouts, so biased upwards), against the gain
realised. A match takes about 0.85 s (the searcher's ~180 decisions of 2 x 200
rollouts; the two arms' plain-Python play is some 0.02 s): the default 1,000 matches
take about 15 minutes on one core.

Caveat: bid-EV's rollouts deal the other seats' hidden cards consistently with their
coins (A3) but not with their calls in the lot (a ``solved`` seat bids only holding the
rank), so the searcher's beliefs are coarser than they could be: the gain is *this*
searcher's, a lower figure for what call-by-call play could gain. Reports; asserts
nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GAME = "auktsion"
CAVEAT = ("caveat: the rollouts deal the other seats' hidden cards consistently with their "
          "coins (A3) but not with their calls in the lot (solved bids only holding the "
          "rank): this searcher's beliefs are coarse, so its gain is a lower figure for "
          "what call-by-call play could gain")


class Setup:
    """The rules, the solution's stacked table and bid-EV's policies (every seat
    ``solved``), made once."""

    def __init__(self) -> None:
        from analysis.runs import policy_arrays
        from analysis.spec import make_rules, seat_strategies
        from sim.cfr import stack_tables
        from sim.games import get_game
        from sim.games.auktsion import abstraction as A
        from strategies.solved import find
        self.game = get_game(GAME)
        self.rules = make_rules(GAME, {})
        self.n = self.rules.players
        table = find(GAME, self.rules.to_json(), A.abstraction(self.rules))[0].table
        self.table = stack_tables([table] * self.n)
        self.seats = seat_strategies(GAME, self.rules, ["all=solved"])
        self.policies = policy_arrays(GAME, self.seats)


def _ceiling_of(setup: Setup, state: dict, obs: list[float], hand: list[float], rng) -> int:
    """The seat's ceiling for the lot now open: drawn at its first question in the lot
    (one uniform draw from its stream, as the kernel draws when the lot opens) and kept
    in ``state`` by (deal, lot)."""
    from sim.cfr import seat_start, table_action
    from sim.games.auktsion import abstraction as A
    from sim.games.auktsion import obs as O
    key = (int(obs[O.DEAL]), int(obs[O.LOT]))
    if key not in state:
        o, h = np.array(obs), np.array(hand)
        row = A.observed_infoset(o, h)
        a = table_action(setup.table, seat_start(setup.table, int(obs[O.SEAT])), row,
                         rng.uniform())
        state.clear()
        state[key] = int(A.action_ceiling(o, h, a))
    return state[key]


def _ceiling_call(cap: int, obs: list[float]) -> int:
    """The ceiling's call: the smallest legal bid while it is within ceiling and coins."""
    from sim.games.auktsion import obs as O
    from sim.games.auktsion.reference import PASS, smallest_bid
    lo = smallest_bid(obs)
    return lo if lo <= cap and lo <= obs[O.MONEY + int(obs[O.SEAT])] else PASS


def solved_seat(setup: Setup):
    """A Python ``solved`` seat (a fresh one per seat and match: it keeps its lot's
    ceiling)."""
    state: dict = {}

    def solved(obs, hand, params, rng):
        return _ceiling_call(_ceiling_of(setup, state, obs, hand, rng), obs)
    return solved


class Searcher:
    """The call-by-call seat of one match (see the module docstring); ``match`` is set
    once the match exists (the situation reads its hands, lots and scores)."""

    def __init__(self, setup: Setup, rollouts: int, seed: int, index: int, z: float):
        self.setup, self.rollouts, self.seed, self.index = setup, rollouts, seed, index
        self.z = z
        self.match = None
        self.state: dict = {}
        self.decisions = 0
        self.predicted = 0.0
        self.departures = {"bid over the ceiling": 0, "pass under it": 0}

    def __call__(self, obs, hand, params, rng):
        from benchmarks.ceiling_loss import auktsion_situation
        from sim.cards import RANKS
        from sim.games.auktsion import obs as O
        from sim.games.auktsion.reference import PASS, smallest_bid
        ceiling = _ceiling_call(_ceiling_of(self.setup, self.state, obs, hand, rng), obs)
        seat, lot = int(obs[O.SEAT]), int(obs[O.LOT])
        lo = smallest_bid(obs)
        if hand[O.HAND_POINTS + lot] <= 0 or lo > obs[O.MONEY + seat]:
            return PASS
        m = self.match
        high = int(obs[O.HIGH_BIDDER])
        situation, _ = auktsion_situation(m.deal_record, m.deal, list(m.match_points),
                                          RANKS[lot], seat, int(obs[O.PRICE]) if high >= 0
                                          else 0, high, int(obs[O.PASSES]))
        seed = (self.seed * 100_003 + self.index) * 100_003 + self.decisions
        r = self.setup.game.rollouts(self.setup.rules, self.setup.policies,
                                     self.setup.seats.labels, situation, ["pass", str(lo)],
                                     seed, self.rollouts, False)
        self.decisions += 1
        mean = r.score.mean(axis=0)
        # The two calls are played out on the same rollouts (common random numbers): the
        # searcher leaves its ceiling's call only where the other call's paired gain is
        # z standard errors above 0 (z = 0: the better mean).
        gain = r.score[:, 1] - r.score[:, 0] if ceiling == PASS else r.score[:, 0] - r.score[:, 1]
        se = gain.std(ddof=1) / np.sqrt(gain.size)
        call = ceiling if gain.mean() <= self.z * se else (lo if ceiling == PASS else PASS)
        if call != ceiling:
            self.predicted += abs(mean[1] - mean[0])
            self.departures["bid over the ceiling" if call == lo else "pass under it"] += 1
        return call


def play_pair(setup: Setup, seed: int, index: int, rollouts: int, z: float) -> dict:
    """Match ``index`` with seat ``index % n`` searching, and with it on ``solved``:
    the searcher's gains (score, margin), decisions and departures."""
    from sim.games.auktsion.reference import Match, PythonPolicy
    n = setup.n
    seat = index % n
    searcher = Searcher(setup, rollouts, seed, index, z)
    arms = []
    for search in (True, False):
        policies = [PythonPolicy(searcher if search and s == seat else solved_seat(setup),
                                 name="search" if search and s == seat else "solved")
                    for s in range(n)]
        m = Match(setup.rules, policies, seed, index)
        searcher.match = m
        totals = m.play().totals()
        arms.append((totals[seat], totals[seat] - (sum(totals) - totals[seat]) / (n - 1)))
    return {"score": arms[0][0] - arms[1][0], "margin": arms[0][1] - arms[1][1],
            "decisions": searcher.decisions, "predicted": searcher.predicted,
            **searcher.departures}


def interval(x: np.ndarray) -> str:
    if x.size < 2:
        return f"{x.mean():+.3f}"
    half = 1.96 * x.std(ddof=1) / np.sqrt(x.size)
    return f"{x.mean():+.3f} [{x.mean() - half:+.3f}, {x.mean() + half:+.3f}]"


def check(setup: Setup, seed: int, matches: int) -> int:
    """How many of ``matches`` all-Python-``solved`` matches differ from the kernel's
    trace."""
    from analysis.runs import trace
    from sim.games.auktsion.reference import Match, PythonPolicy
    differ = 0
    for i in range(matches):
        k = trace(GAME, seed=seed, index=i, strategies=["all=solved"])
        m = Match(setup.rules, [PythonPolicy(solved_seat(setup), name="solved")
                                for _ in range(setup.n)], seed, i).play().trace()
        differ += (m["deals"], m["totals"]) != (k["deals"], k["totals"])
    return differ


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=1000)
    p.add_argument("--rollouts", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--z", type=float, default=0.0,
                   help="leave the ceiling's call only where the other call's paired gain on "
                        "the rollouts is this many standard errors above 0 (0: the better mean)")
    p.add_argument("--check", type=int, default=20, metavar="N",
                   help="first compare N all-solved matches with the kernel's traces")
    a = p.parse_args()
    setup = Setup()
    if a.check:
        print(f"port check: {check(setup, a.seed, a.check)} of {a.check} all-solved matches "
              f"differ from the kernel's trace")
    rows = []
    start = time.perf_counter()
    for i in range(a.matches):
        rows.append(play_pair(setup, a.seed, i, a.rollouts, a.z))
        if (i + 1) % 20 == 0:
            score = np.array([r["score"] for r in rows])
            print(f"{i + 1} matches, {time.perf_counter() - start:.0f} s: score gain "
                  f"{interval(score)}", file=sys.stderr, flush=True)
    took = time.perf_counter() - start
    score, margin = (np.array([r[k] for r in rows]) for k in ("score", "margin"))
    decisions = np.array([r["decisions"] for r in rows])
    over = np.array([r["bid over the ceiling"] for r in rows])
    under = np.array([r["pass under it"] for r in rows])
    print(f"{GAME}, default rules, seed {a.seed}: {a.matches} paired matches, searcher at seat "
          f"i % {setup.n}, {a.rollouts} rollouts a decision, z {a.z:g}, {took:.0f} s "
          f"({took / a.matches:.1f} s a match)")
    print(f"searcher's gain per match in match score: {interval(score)}")
    print(f"searcher's gain per match in margin (its score - the others' mean): "
          f"{interval(margin)}")
    print(f"matches where the searcher departed from its ceiling at least once: "
          f"{int(((over + under) > 0).sum())} of {a.matches}")
    print(f"searcher decisions per match: {decisions.mean():.1f}; its call differs from its "
          f"ceiling's at {(over + under).sum() / max(decisions.sum(), 1):.1%} of them "
          f"({over.mean():.2f} bids over the ceiling, {under.mean():.2f} passes under it "
          f"per match)")
    predicted = np.array([r["predicted"] for r in rows])
    print(f"the rollouts' own estimate of its departures' gains, summed per match (each "
          f"choice scored on the rollouts that chose it): {interval(predicted)}")
    print(CAVEAT)


if __name__ == "__main__":
    main()
