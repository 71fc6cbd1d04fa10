"""Solutions as frames a reader can look at: the exploitability curve a solve recorded,
and each solved game's strategy chart (``chart``); and, for ``compare --solved``, the
strategy that plays a game's solution (``strategy``), whether the solution for some
rules exists (``locate``) and where it came from (``provenance``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sim import cfr
from sim.games import get_game
from strategies import for_game, solved


def load(game: str, rules: Mapping[str, Any]) -> tuple[solved.Solution, str]:
    """The solution ``solved`` plays for ``game`` under ``rules``, and where it is."""
    r = get_game(game).make_rules(dict(rules))
    solution, path = solved.find(game, r.to_json(), solved.abstraction_of(game, r))
    return solution, str(path)


def strategy(game: str) -> str:
    """The strategy that plays ``game``'s solution: ``solved`` for the decision it
    solves, the game's default policy for every other (fpsb ``solved``, pitch and
    vybory ``solved+greedy``); an error naming the games with a solver where ``game``
    has none."""
    from analysis.solvers import require
    require(game, f"{game} has no `solved` policy")
    return "+".join(p.name for p, _ in for_game(game).parse("solved").choices)


def locate(game: str, rules: Mapping[str, Any]) -> tuple[solved.Solution, str] | None:
    """The solution ``solved`` plays for ``game`` under ``rules`` (the user's folder
    first, then the shipped ones) and its path, or None where neither holds a file of
    its name; a file that is there but damaged or made for other rules is an error
    that names it."""
    r = get_game(game).make_rules(dict(rules))
    if solved.where(game, r.to_json(), solved.abstraction_of(game, r)) is None:
        return None
    return load(game, rules)


def command(game: str, rules: Mapping[str, Any]) -> str:
    """The ``bidlab solve`` command that makes the solution ``solved`` plays under
    ``rules``."""
    r = get_game(game).make_rules(dict(rules))
    return solved.solve_command(game, r.to_json(), solved.abstraction_of(game, r))


def provenance(solution: solved.Solution, path: str) -> dict[str, Any]:
    """Where a solution came from, in a few fields: ``path``, ``source`` (shipped with
    bidlab, or made by ``bidlab solve``), ``iterations``, ``seed``, ``method`` and the
    last held-out ``exploitability`` it recorded (``value, ci_low, ci_high``, its
    ``unit`` and, where measured, ``in_sample``)."""
    from pathlib import Path
    shipped = Path(path).resolve().parent == solved.SHIPPED.resolve()
    last = (solution.meta.get("exploitability") or [{}])[-1]
    keep = ("iteration", "value", "ci_low", "ci_high", "in_sample", "unit")
    return {"path": str(path), "source": "shipped" if shipped else "bidlab solve",
            "iterations": solution.meta.get("iterations"), "seed": solution.meta.get("seed"),
            "method": solution.meta.get("method"),
            "exploitability": {k: last[k] for k in keep if k in last}}


def curve(solution: solved.Solution) -> pd.DataFrame:
    """The held-out exploitability after each measured iteration (``iteration, value,
    ci_low, ci_high`` and what else the game measured)."""
    rows = [{k: v for k, v in c.items() if not isinstance(v, list)}
            for c in solution.meta.get("exploitability", [])]
    return pd.DataFrame(rows)


def chart(solution: solved.Solution) -> pd.DataFrame:
    """The strategy as a reader would chart it. fpsb: per value cell, the mean bid with
    its 10% and 90% quantiles, and the equilibrium bid (n-1)/n v. pitch: per hand
    strength step and place, the probability of each call with no bid yet made (the
    opening decision), and with the dealer facing a bid of 2. vybory: per worth bucket of
    the hand's best new type, the probability of each kind of announcement (``KINDS``)
    for the first announcer and for the second, after the first named his best type.
    aukcio: per what the card does to the bidder's sets and to the rivals', the mean
    ceiling as a share of its money and the chance it passes (``aukcio_chart``)."""
    p = cfr.unpack_table(solution.table)
    if solution.game == "fpsb":
        return _fpsb_chart(p, int(solution.rules["players"]))
    if solution.game == "pitch":
        steps, buckets = (int(x) for x in solution.table[cfr.T_SETTING:cfr.T_SETTING + 2])
        return _pitch_chart(p, int(solution.rules["players"]), steps, buckets)
    if solution.game == "vybory":
        return _vybory_chart(p, solution.rules)
    if solution.game == "auktsion":
        return _auktsion_chart(p)
    if solution.game == "aukcio":
        return aukcio_chart(p)
    raise ValueError(f"no chart for {solution.game}")


def _fpsb_chart(p: np.ndarray, n: int) -> pd.DataFrame:
    values, bids = p.shape
    mid = (np.arange(bids) + 0.5) / bids
    cum = np.cumsum(p, axis=1)
    v = (np.arange(values) + 0.5) / values
    return pd.DataFrame({"value": v, "mean_bid": p @ mid,
                         "bid_p10": mid[(cum < 0.1).sum(axis=1).clip(max=bids - 1)],
                         "bid_p90": mid[(cum < 0.9).sum(axis=1).clip(max=bids - 1)],
                         "equilibrium": (n - 1) / n * v})


PITCH_SCORES = {"start": (99, 99), "rival 1 from the target": (99, 1),
                "1 from the target": (1, 99)}
"""The score situations of pitch's chart: the bidder's distance to the target and the
nearest rival's (99: far, at least the solution's last bucket)."""


def _pitch_chart(p: np.ndarray, n: int, steps: int, buckets: int,
                 hands: int = 20_000) -> pd.DataFrame:
    from sim.games.pitch import abstraction as A
    calls = ["pass", "bid 1", "bid 2", "bid 3", "bid 4", "hold"]
    # how often each hand class is dealt (random six-card hands, a fixed seed): the
    # chart weighs the classes of a strength step by it, so classes that no real hand
    # falls in (left at uniform by the solver) do not blur the picture
    rng = np.random.default_rng(0)
    seen = np.zeros(A.hands(steps))
    for _ in range(hands):
        mask = int(sum(1 << int(c) for c in rng.choice(52, 6, replace=False)))
        seen[A.hand_class(np.int64(mask), n, 52, 0, 0, steps)] += 1
    situations = PITCH_SCORES if buckets > 1 else {"any": (99, 99)}
    rows = []
    for score, (me, rival) in situations.items():
        score_cls = A.distance_class(me, rival, buckets)
        for cls in np.flatnonzero(seen):
            strength = cls // (A.COUNTS * 4)
            row_cls = A.private_class(int(cls), score_cls, buckets)
            for place in range(n):
                for high in (0, 2):
                    if high and place != n - 1:
                        continue
                    probs = p[int(A.infoset(row_cls, place, high, n))]
                    rows.append({"score": score, "strength": (strength + 0.5) * A.RANGE / steps,
                                 "place": place, "high_bid": high, "weight": seen[cls],
                                 **{c: q * seen[cls] for c, q in zip(calls, probs)}})
    frame = pd.DataFrame(rows).groupby(["score", "high_bid", "place", "strength"], as_index=False,
                                       sort=False).sum()
    frame[calls] = frame[calls].div(frame["weight"], axis=0)
    return frame


AUKTSION_VIEWS = {"first deal": 3, "last deal": 0}
"""auktsion's chart: the deals left after this one (the abstraction's bucket), so the
money still to come; without carry_money every row is the last deal's bucket."""


def auktsion_actions() -> list[str]:
    from sim.games.auktsion import abstraction as A
    return ["pass"] + [f"{m:g}x" for m in A.MULTIPLES[1:]]


def _auktsion_chart(p: np.ndarray) -> pd.DataFrame:
    """auktsion: per lot value (the bidder's points in the lot), in the first deal and
    in the last, the probability of each ceiling (a multiple of points x coins per point
    still to come) averaged over the information sets the solver trained (rows left at
    uniform were never visited: no real bidder reaches them), and the mean multiple."""
    from sim.games.auktsion import abstraction as A
    calls = auktsion_actions()
    shaped = p.reshape(A.VALUES, A.RICH * A.RIVAL * A.LOTS, A.DEALS, A.ACTIONS)
    trained = np.abs(shaped - 1.0 / A.ACTIONS).sum(axis=-1) > 1e-9
    rows = []
    for view, deals in AUKTSION_VIEWS.items():
        for value in range(1, A.VALUES):
            seen = trained[value, :, deals]
            if not seen.any():
                continue
            probs = shaped[value, seen, deals].mean(axis=0)
            rows.append({"money": view, "strength": float(value),
                         "mean_multiple": float(probs @ A.MULTIPLES),
                         **dict(zip(calls, probs))})
    return pd.DataFrame(rows)


KINDS = ["best type", "2nd best", "3rd best", "match next", "match across", "match previous"]
"""vybory's announcements by kind: the abstraction's actions, in its order."""


def _vybory_chart(p: np.ndarray, rules: Mapping[str, Any], deals: int = 20_000) -> pd.DataFrame:
    from sim.games.vybory import abstraction as A
    alt = 1 if rules.get("type_set") == "alt" else 0
    # random deals (a fixed seed): the first announcer's information set, and the
    # second's after the first named the type worth most to his hand; each row of the
    # chart weighs the information sets of its bucket by how often deals reach them
    rng = np.random.default_rng(0)
    w = np.zeros((4, A.N_TYPES + 1))
    rows = []
    for _ in range(deals):
        cards = rng.permutation(52)
        hands = [np.int64(sum(1 << int(c) for c in cards[13 * s:13 * s + 13])) for s in range(4)]
        for s in (0, 1):
            A.worths(hands[s], alt, w[s])
        named = np.zeros(4, np.int64)
        row, _ = A.key(w[0], 0, 0, named, 0, 0)
        rows.append(("first announcer", float(w[0, 1:].max()), row))
        named[0] = np.int64(1) << int(np.argmax(w[0, 1:]) + 1)
        row, _ = A.key(w[1], 0, 0, named, 1, 1)
        new = [w[1, t] for t in range(1, A.N_TYPES + 1) if not named[0] >> t & 1]
        rows.append(("second, after the first named his best type", float(max(new)), row))
    frame = pd.DataFrame(rows, columns=["speaker", "worth", "row"])
    frame["bucket"] = np.searchsorted(A.BEST_CUTS, frame["worth"], side="right")
    probs = p[frame["row"].to_numpy()]
    for i, kind in enumerate(KINDS):
        frame[kind] = probs[:, i]
    out = frame.groupby(["speaker", "bucket"], as_index=False).agg(
        strength=("worth", "mean"), weight=("worth", "size"), **{k: (k, "mean") for k in KINDS})
    return out.drop(columns="bucket")


AUKCIO_OWN = ("completes a set", "two of three, twice or more", "two of three", "starts a set",
              "helps nothing")
AUKCIO_THREAT = ("nobody", "gives a rival two of three", "completes a rival's set")


def aukcio_chart(p: np.ndarray) -> pd.DataFrame:
    """What a card is worth to the solution by what it does to the sets: per class of
    its own sets' progress and of the rivals' (``sim/games/aukcio/abstraction.py``), the
    mean ceiling as a share of the money the bidder can pay, and the chance it passes,
    each the plain mean over the other features' classes (money, the richest rival's
    cards, the cards left), and the same for a bidder of middling money (18-24)
    against a rival as rich, with 6 to 10 of 16 cards left."""
    from sim.games.aukcio import abstraction as A
    q = p.reshape(A.OWN, A.THREAT, A.MONEY, A.RICH, A.LEFT, A.ACTIONS)
    share = q @ A.SHARES
    rows = []
    for own in range(A.OWN):
        for threat in range(A.THREAT):
            rows.append({"own": AUKCIO_OWN[own], "rivals": AUKCIO_THREAT[threat],
                         "mean_share": float(share[own, threat].mean()),
                         "p_pass": float(q[own, threat, ..., 0].mean()),
                         "share_middling": float(share[own, threat, 3, 1, 1]),
                         "p_pass_middling": float(q[own, threat, 3, 1, 1, 0])})
    return pd.DataFrame(rows)
