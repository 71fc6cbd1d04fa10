"""Bid-EV: the expected outcome of every candidate action in a situation a user
describes, by rollouts.

Each rollout deals the hidden cards at random consistently with what is public, plays
the candidate action now and lets the chosen strategies (the user's own included)
play the rest of the match. Rollout ``r`` uses the same hidden cards and the same
random streams for every candidate (common random numbers), so differences between
candidates are measured on identical futures: the intervals of the differences are
much narrower than those of the means. ``p_best`` is the share of paired bootstrap
resamples of the rollouts in which the candidate has the highest mean (candidates tied
for the highest share the resample).

Candidates that give exactly the same outcome in every rollout form a *group*
(``frame["group"]``: the group's first candidate; :meth:`BidEV.grouped` merges each
group into one row, e.g. ``bid 1..29``): which of them is chosen makes no difference in this situation, and a
reader should see one answer rather than a tie split across rows.

The game declares what ranks its candidates (``Game.bidev_metric``): the match score
(auktsion, bridge) or the win share (pitch, a race to the target score); ``mean``, the
differences and ``p_best`` are of that metric, and the frame reports the other too,
with any further outcomes the game's rollouts return (bridge: IMPs against the best
candidate), each with a 95% interval. ``Game.bidev_outcomes`` says what each means in
the game (bridge's ``win`` is the matchpoint share among the candidates).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analysis.runs import policy_arrays
from analysis.spec import ROLLOUTS, RunSpec, StrategySpec
from analysis.stats import mean_ci, paired_difference
from sim.errors import BidlabError
from sim.games import get_game


@dataclass
class BidEV:
    """``frame``: one row per candidate: ``action, mean, ci_low, ci_high, win, win_ci_low,
    win_ci_high, diff_vs_best, diff_ci_low, diff_ci_high, p_best, group``, where ``mean`` and the differences
    are of ``metric`` (``score``: the match score; ``win``: the win share, and then also
    ``score, score_ci_low, score_ci_high``), plus ``NAME, NAME_ci_low, NAME_ci_high`` for each further
    outcome of the game (``outcomes``: name -> what it means); ``best`` the action with
    the highest mean; ``p_best`` its probability of being best."""

    game: str
    situation: dict[str, Any]
    frame: pd.DataFrame
    best: str
    p_best: float
    provenance: dict[str, Any]
    metric: str = "score"
    outcomes: dict[str, str] = field(default_factory=lambda: {"score": "match score",
                                                              "win": "win share"})

    def __repr__(self) -> str:
        return (f"BidEV({self.game}: best {self.best!r}, P(best) {self.p_best:.2f}, "
                f"{len(self.frame)} candidates, {self.provenance.get('rollouts')} rollouts)")

    def grouped(self) -> pd.DataFrame:
        """The frame with each group of candidates (identical outcomes in every rollout)
        as one row, where its first candidate stands: ``action`` names the group (``bid
        1..29``, ``bid 5, 7, 9``), ``actions`` lists its candidates, ``size`` counts them
        and ``p_best`` is theirs together; the other columns are the same for every
        member."""
        rows = []
        for _, part in self.frame.groupby("group", sort=False):
            row = part.iloc[0].to_dict()
            row.update(action=group_label(list(part["action"])), actions=list(part["action"]),
                       size=len(part), p_best=float(part["p_best"].sum()))
            rows.append(row)
        return pd.DataFrame(rows)

    @property
    def best_group(self) -> list[str]:
        """The candidates of the best action's group (the best alone if none ties it)."""
        f = self.frame
        return list(f.loc[f["group"] == f.loc[f["action"] == self.best, "group"].iloc[0],
                          "action"])

    def points_told(self) -> list[tuple[int, int]]:
        """(seat, hand points) of the other seats whose coins tell their hand points
        (auktsion, A3): the rollouts deal them only hands of those points."""
        points = self.situation.get("hand_points") or []
        return [(t, p) for t, p in enumerate(points)
                if p is not None and t != self.situation.get("seat")]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "situation": self.situation, "metric": self.metric,
                "outcomes": self.outcomes,
                "candidates": self.frame.to_dict(orient="records"),
                "best": self.best, "p_best": self.p_best, "provenance": self.provenance}


def group_label(actions: list[str]) -> str:
    """A group's name: ``bid 4``; ``pass, bid 4``; candidates that share a text before
    their last number as ``bid 4..11`` (every number between) or ``bid 5, 7, 9, 11``
    (``bid 1..29 (8 candidates)`` past six); else ``2C, 3C, 3NT`` or, past three, the
    first and last, ``2C..3NT (6 candidates)``."""
    import re
    parts = [re.fullmatch(r"(.*?)(\d+)", a) for a in actions]
    if len(actions) > 1 and all(parts) and len({m.group(1) for m in parts}) == 1:
        numbers = [int(m.group(2)) for m in parts]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"{actions[0]}..{numbers[-1]}"
        if len(numbers) <= 6:
            return parts[0].group(1) + ", ".join(map(str, numbers))
        return f"{actions[0]}..{numbers[-1]} ({len(actions)} candidates)"
    if len(actions) <= 3:
        return ", ".join(actions)
    return f"{actions[0]}..{actions[-1]} ({len(actions)} candidates)"


def _groups(outcomes: list[np.ndarray]) -> list[int]:
    """Per candidate, its group: the first candidate with the same outcomes in every
    rollout (its own index where none came before)."""
    first: dict[bytes, int] = {}
    return [first.setdefault(b"".join(np.ascontiguousarray(x[:, c]).tobytes()
                                      for x in outcomes), c)
            for c in range(outcomes[0].shape[1])]


def summarize(actions: list[str], score: np.ndarray, win: np.ndarray, seed: int = 0,
              bootstrap: int = 1000, metric: str = "score",
              extra: Mapping[str, np.ndarray] | None = None) -> tuple[pd.DataFrame, str, float]:
    """Rollout outcomes (rollouts x candidates) -> per-candidate table, best action and
    its probability of being best, all by ``metric`` (``score`` or ``win``); ``extra``:
    further outcomes by name, reported with 95% intervals."""
    if metric not in ("score", "win"):
        raise ValueError(f"bid-EV metric {metric!r}: expected 'score' or 'win'")
    x = win if metric == "win" else score  # what ranks the candidates
    means = x.mean(axis=0)
    best = int(np.argmax(means))
    rows = []
    rng = np.random.default_rng(seed)
    r = x.shape[0]
    wins = np.zeros(len(actions))
    for _ in range(bootstrap):
        m = x[rng.integers(0, r, r)].mean(axis=0)
        top = m == m.max()
        wins[top] += 1.0 / top.sum()  # candidates tied for best share the resample
    p_best = wins / bootstrap
    group = _groups([score, win, *(extra or {}).values()])
    for c, action in enumerate(actions):
        mean, lo, hi = mean_ci(x[:, c], share_of=int(metric == "win"))
        w, wlo, whi = mean_ci(win[:, c], share_of=1)
        d = paired_difference(x[:, best], x[:, c])
        row = {"action": action, "mean": mean, "ci_low": lo, "ci_high": hi,
               "win": w, "win_ci_low": wlo, "win_ci_high": whi}
        if metric == "win":
            row["score"], row["score_ci_low"], row["score_ci_high"] = mean_ci(score[:, c])
        for name, values in (extra or {}).items():
            row[name], row[f"{name}_ci_low"], row[f"{name}_ci_high"] = mean_ci(values[:, c])
        rows.append({**row, "diff_vs_best": d["diff"], "diff_ci_low": d["ci_low"],
                     "diff_ci_high": d["ci_high"], "p_best": p_best[c], "group": group[c]})
    return pd.DataFrame(rows), actions[best], float(p_best[best])


def bid_ev(game: str, situation: Mapping[str, Any], *, rollouts: int | None = None, seed: int = 0,
           rules: Mapping[str, Any] | None = None, strategies: StrategySpec = None,
           candidates: list[str] | None = None, progress: bool | None = None) -> BidEV:
    """Expected match score and win share of each candidate action in ``situation``,
    ranked by the game's ``bidev_metric``.

    ``situation`` holds the game's situation keys (``bidlab bid-ev GAME --help``), as
    strings or values; ``candidates`` the actions to compare (default: the game's
    typical set, e.g. pass and the smallest legal bids); ``rollouts`` defaults to the
    game's ``bidev_rollouts`` (20,000; bridge 200). ``progress``: bars on the slow steps
    (bridge's double-dummy solving); None shows them only on a terminal.
    """
    g = get_game(game)
    if g.rollouts is None:
        raise BidlabError(f"bid-EV is not available for {game} yet")
    spec = RunSpec.make(game, g.bidev_rollouts if rollouts is None else rollouts, seed=seed,
                        rules=rules, strategies=strategies, progress=progress, count=ROLLOUTS)
    r, seats, rollouts = spec.rules, spec.strategies, spec.n
    out = g.rollouts(r, policy_arrays(game, seats), seats.labels, dict(situation),
                     candidates, seed, rollouts, spec.progress)
    state = out.situation
    frame, best, p_best = summarize(out.actions, out.score, out.win, seed,
                                    metric=g.bidev_metric, extra=out.extra or None)
    provenance = {"game": game, "rules": r.to_json(), "strategies": seats.to_json(),
                  "seed": seed, "rollouts": rollouts, "situation": state}
    return BidEV(game, state, frame, best, p_best, provenance, g.bidev_metric,
                 dict(g.bidev_outcomes))
