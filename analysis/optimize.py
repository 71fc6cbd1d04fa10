"""Best response and self-play: tune a strategy's parameters with a SciPy optimiser, then
score the tuned responder on matches it was not tuned on.

Tuning and scoring use disjoint matches. A responder is tuned on matches ``0..n-1`` of
``seed`` (common random numbers: every evaluation plays the same matches, so the
objective is a deterministic function of the parameters), and scored on the held-out
matches ``n..n+m-1`` of the same seed (``m = holdout``, default ``n``): fresh deals, so
its held-out gain is not inflated by what the search fitted to the tuning matches'
noise. The gain over the profile is paired by match: the profile and the responder play
the same held-out matches, each match's gain is the mean over the tuned seats of the
responder's objective minus the profile's, and its 95% interval is Student's t over
matches (clustered by match).

The tuned player's objective (``Game.objective``, the mean match score or win share)
is averaged over the seats it is tried in (all seats by default, so seat advantages
cancel). The responders searched form the family F: the tuned policy over its tunable
parameters (every continuous one by default, ``params`` to restrict), and each policy of
``responders`` (other policies of the same decision), each over its own continuous
parameters. A parameter that cannot act under the rules in force (``Param.acts_when``,
e.g. auktsion budget's ``shade`` in the open auction) is not tuned, and the result says
so (``not_tuned``). Every member of F is tuned on the tuning matches; the best one there
is the one scored on the held-out matches. Its gain is a lower bound of what the profile
concedes to F (the search may miss a better responder): exploitability "at least X".

Self-play iterates from a starting profile toward a symmetric equilibrium. Each step
makes the next profile one of two ways (the history's ``step``): ``best response``, the
tuned policy's best response to the profile (the member of F that is the tuned policy
itself, so the profile stays in that policy), or ``extrapolation``, Steffensen's
(Aitken's delta-squared) step from the last three iterates (:func:`_aitken`, one
parameter only, every other step where it is safe). Every profile's exploitability is
scored on the held-out matches, and the result is the least exploitable profile found
(by that held-out estimate), not the last iterate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

import strategies as strategies_
from analysis.numbers import claim, interval, num, plain_places
from analysis.runs import make_job, seat_means
from analysis.spec import HOLDOUT_MATCHES, TUNING_MATCHES, RunSpec
from sim import runner
from sim.errors import BidlabError
from sim.games import get_game
from strategies.base import Policy, SeatAssignment, Strategy

HOLDOUT_RULE = "held-out matches n..n+m-1 of the same seed (tuning: 0..n-1)"
"""Where a tuned responder is scored: match indices disjoint from the tuning ones."""


@dataclass
class Optimization:
    """``params``: the tuned values (self-play: the least exploitable profile's; a best
    response: the best responder's), ``best`` the strategy they make (text for
    ``--strategy``). ``history``: one row per self-play iteration (or one row for a best
    response): the profile (``params``) and how it was made (``step``: start, best
    response or extrapolation), its score on the tuning matches, the responder from F
    that scored best there (``responder``, ``best_response``, ``best_response_score``,
    ``tuning_gain``), that responder's paired gain over the profile on the held-out
    matches (``gain``, ``gain_ci_low``, ``gain_ci_high``: estimate and 95% interval; it may be
    below 0 when what was tuned was noise) and the profile's exploitability read from
    it (``exploitability``, ``exploitability_ci_low``, ``exploitability_ci_high``: the same
    clipped at 0, since the profile itself is in F), and both held-out mean scores.
    ``exploitability``: that figure for the result (``estimate``, ``ci_low``,
    ``ci_high``, ``iteration``, the responder, the family ``F`` and the held-out
    matches). ``not_tuned``: the parameters left alone because they cannot act under the
    rules in force, and why."""

    game: str
    strategy: str
    params: dict[str, float]
    history: pd.DataFrame
    provenance: dict[str, Any] = field(default_factory=dict)
    best: str = ""
    family: list[str] = field(default_factory=list)
    not_tuned: list[dict[str, str]] = field(default_factory=list)
    exploitability: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        e = self.exploitability
        held = (f", exploitability {interval(e['estimate'], e['ci_low'], e['ci_high'])}"
                if e else "")
        return f"Optimization({self.game}: best {self.best!r}{held})"

    def to_json(self) -> dict[str, Any]:
        records = []
        for row in self.history.to_dict(orient="records"):
            records.append({k: (int(v) if k == "iteration" else v) for k, v in row.items()})
        return {"game": self.game, "strategy": self.strategy, "params": self.params,
                "best": self.best, "exploitability": self.exploitability,
                "family": self.family, "not_tuned": self.not_tuned, "history": records,
                "provenance": self.provenance}

    def exploitability_text(self, unit: str = "", scale: float = 1.0) -> str:
        """``at least X (95% CI lo to hi)UNIT against responders from F = ...``, in the
        one number format (:mod:`reports.text`); ``scale`` 100 for a win share in
        percentage points."""
        e = self.exploitability
        return (f"at least {claim(e['estimate'], e['ci_low'], e['ci_high'], scale)}{unit} "
                f"against responders from F = {e['family']}")


@dataclass(frozen=True)
class _Member:
    """One member of the responder family: ``policy`` over the parameters ``names``
    (none: played as given), in ``base`` (the tuned strategy with this policy for its
    decision)."""

    policy: Policy
    names: tuple[str, ...]
    base: Strategy

    def strategy(self, x: Sequence[float]) -> Strategy:
        return with_params(self.base, self.policy, dict(zip(self.names, x)))

    def start(self) -> np.ndarray:
        values = dict(zip((q.name for q in self.policy.params), self.base.policy(self.policy.decision)[1]))
        return np.array([values[nm] for nm in self.names], dtype=np.float64)

    def describe(self) -> str:
        return f"{self.policy.name} ({', '.join(self.names) if self.names else 'as given'})"


class _Scorer:
    """The objective (``Game.objective``) of one strategy in the tuned seats, every
    other seat playing ``others``: its mean on the tuning matches, or its per-match
    values on the held-out matches."""

    def __init__(self, game: str, rules, seats: list[int], n_seats: int, seed: int, n: int,
                 holdout: int):
        self.game, self.rules, self.seats, self.n_seats = game, rules, seats, n_seats
        self.seed, self.n, self.holdout = seed, n, holdout
        self.metric = get_game(game).objective
        self.evaluations = 0

    def _lineups(self, me: Strategy, others: Strategy) -> list[SeatAssignment]:
        out = []
        for seat in self.seats:
            lineup = [others] * self.n_seats
            lineup[seat] = me
            out.append(SeatAssignment(tuple(lineup)))
        return out

    def tuning(self, me: Strategy, others: Strategy) -> float:
        """Mean objective over the tuned seats, matches ``0..n-1`` (one run per distinct
        line-up: ``me`` against itself is one run)."""
        runs: dict[SeatAssignment, list[float]] = {}
        scores = []
        for seat, lineup in zip(self.seats, self._lineups(me, others)):
            if lineup not in runs:
                runs[lineup] = seat_means(self.game, self.rules, lineup, self.seed, self.n, self.metric)
            scores.append(runs[lineup][seat])
        self.evaluations += 1
        return float(np.mean(scores))

    def held_out(self, me: Strategy, others: Strategy) -> np.ndarray:
        """Per held-out match (``n..n+holdout-1``): the mean objective over the tuned seats."""
        runs: dict[SeatAssignment, np.ndarray] = {}
        cols = []
        for seat, lineup in zip(self.seats, self._lineups(me, others)):
            if lineup not in runs:
                runs[lineup] = _match_values(self.game, self.rules, lineup, self.seed, self.n,
                                             self.holdout, self.metric)
            cols.append(runs[lineup][:, seat])
        return np.mean(cols, axis=0)


def _match_values(game: str, rules, seats: SeatAssignment, seed: int, start: int, count: int,
                  metric: str) -> np.ndarray:
    """``metric`` of matches ``start..start+count-1`` of ``seed``: matches x seats."""
    job = make_job(game, rules, seats, seed, start + count)
    n_seats = len(seats.strategies)
    parts = []
    for s in range(start, start + count, runner.DEFAULT_CHUNK):
        c = min(runner.DEFAULT_CHUNK, start + count - s)
        _, tables = runner.play_chunk(job, s, c)
        parts.append(np.asarray(tables["seats"][metric], dtype=np.float64).reshape(c, n_seats))
    return np.concatenate(parts)


def paired_gain(responder: np.ndarray, profile: np.ndarray, level: float = 0.95
                ) -> tuple[float, float, float]:
    """Mean per-match gain of ``responder`` over ``profile`` (the same matches) and its
    Student-t interval over matches (each match one cluster)."""
    from scipy.special import stdtrit

    d = np.asarray(responder, dtype=np.float64) - np.asarray(profile, dtype=np.float64)
    mean = float(d.mean())
    if d.size < 2:
        return mean, math.nan, math.nan
    half = float(stdtrit(d.size - 1, 0.5 + level / 2) * d.std(ddof=1) / math.sqrt(d.size))
    return mean, mean - half, mean + half


def with_params(strategy: Strategy, policy: Policy, values: Mapping[str, float]) -> Strategy:
    choices = []
    for p, params in strategy.choices:
        if p is policy:
            params = tuple(float(values.get(q.name, v)) for q, v in zip(p.params, params))
        choices.append((p, params))
    return Strategy(tuple(choices))


def _idle(policy: Policy, rules) -> dict[str, str]:
    """The parameters of ``policy`` that cannot act under ``rules``, and why."""
    return {q.name: why for q in policy.params if (why := q.idle_under(rules)) is not None}


def _tunable(strategy: Strategy, names: list[str] | None, rules, gs=None,
             responders: Sequence[str] = (), self_play: int = 0
             ) -> tuple[Policy, list[str], list[dict[str, str]]]:
    """The policy whose parameters are tuned, their names (continuous ones that act
    under ``rules`` by default) and the parameters left alone because they cannot act.
    A strategy with no parameter to tune (``solved``) is held as given when
    ``responders`` are named (no self-play): its policy of their decision, no names."""
    if names is not None:
        known = {q.name for p, _ in strategy.choices for q in p.params}
        missing = set(names) - known
        if missing:
            listed = ", ".join(q.name for p, _ in strategy.choices for q in p.params)
            raise BidlabError(f"strategy {strategy.label!r} has no parameter "
                              f"{sorted(missing)[0]!r} to tune; its parameters: {listed}")
        for p, _ in strategy.choices:
            for nm, why in _idle(p, rules).items():
                if nm in names:
                    raise BidlabError(f"--param {nm}: {p.name}'s {nm} {why}, so it changes "
                                      f"nothing to tune")
    owners = [(p, q) for p, _ in strategy.choices for q in p.params
              if (names is None and not q.integer) or (names is not None and q.name in names)]
    idle_all = {p.name: _idle(p, rules) for p, _ in strategy.choices}
    skipped = [(p, q) for p, q in owners if q.name in idle_all[p.name]]
    owners = [(p, q) for p, q in owners if q.name not in idle_all[p.name]]
    policies = {p.name for p, _ in owners}
    if not owners and names is None and responders and gs is not None and not self_play:
        # a profile without parameters (``solved``) is held as given, as the family's
        # first member: what do the responders gain against it?
        decision = gs.by_name(responders[0].strip()).decision
        return strategy.policy(decision)[0], [], []
    if not owners:
        extra = " that acts under these rules" if skipped else ""
        raise BidlabError(f"strategy {strategy.label!r} has no continuous parameter{extra} to "
                          f"tune" + ("; to measure how far responders gain against it, name "
                                     "them with --responders" if not responders else ""))
    if len(policies) > 1:
        raise BidlabError(f"tune one policy at a time; name its parameters with --param "
                          f"(candidates in {', '.join(sorted(policies))})")
    policy = owners[0][0]
    not_tuned = [{"policy": p.name, "param": q.name, "why": idle_all[p.name][q.name]}
                 for p, q in skipped if p is policy]
    return policy, [q.name for _, q in owners], not_tuned


def _family(gs, base: Strategy, policy: Policy, names: list[str], responders: Sequence[str],
            rules) -> tuple[list[_Member], list[dict[str, str]]]:
    """The tuned policy first, then each responder policy over its continuous parameters
    that act under ``rules``; and the responders' parameters left alone."""
    members = [_Member(policy, tuple(names), base)]
    not_tuned = []
    for name in responders:
        name = name.strip()
        options = [p for p in gs.policies if p.name == name]
        if not options:
            gs.by_name(name)  # raises, listing the known names
        same = [p for p in options if p.decision == policy.decision]
        if not same:
            raise BidlabError(f"--responders {name}: not a {policy.decision} policy; responders "
                              f"replace the tuned policy ({policy.name}, {policy.decision})")
        other = same[0]
        if other is policy or any(m.policy is other for m in members):
            raise BidlabError(f"--responders {name}: already in the family (the tuned policy "
                              f"is {policy.name}); name each other policy once")
        idle = _idle(other, rules)
        not_tuned += [{"policy": other.name, "param": nm, "why": why} for nm, why in idle.items()
                      if not other.param(nm).integer]
        member_base = Strategy(tuple((other, other.defaults()) if p.decision == other.decision
                                     else (p, v) for p, v in base.choices))
        members.append(_Member(other, tuple(q.name for q in other.params
                                            if not q.integer and q.name not in idle), member_base))
    return members, not_tuned


def _search(score: Callable[[Strategy], float], member: _Member, x0: np.ndarray,
            xatol: float, f0: float | None = None) -> tuple[np.ndarray, float]:
    """The best parameters of ``member`` found (bounded scalar search for one parameter;
    for more, Nelder-Mead from the best of the start and a scrambled Sobol design of
    about 8 points per parameter over the bounds, seed 0) and their score: the best of
    every point evaluated, ``x0`` included (``f0``: its score, if known), so the answer
    is never worse than standing still (on these matches)."""
    from scipy import optimize

    seen: list[tuple[float, np.ndarray]] = []

    def value(x) -> float:
        x = np.atleast_1d(np.asarray(x, dtype=np.float64))
        v = score(member.strategy(x))
        seen.append((v, x.copy()))
        return v

    if f0 is None:
        value(x0)
    else:
        seen.append((f0, np.asarray(x0, dtype=np.float64).copy()))
    if member.names:
        bounds = [(member.policy.param(nm).lo, member.policy.param(nm).hi) for nm in member.names]
        if len(member.names) == 1:
            optimize.minimize_scalar(lambda a: -value([a]), bounds=bounds[0], method="bounded",
                                     options={"xatol": xatol})
        else:
            # A coarse design first: a local search from the start alone misses optima
            # behind a ridge (fpsb's capped bid: c matters only with the right cap).
            from scipy.stats import qmc

            d = len(member.names)
            lo, hi = np.array(bounds).T
            for u in qmc.Sobol(d, scramble=True, seed=0).random(1 << math.ceil(math.log2(8 * d))):
                value(lo + u * (hi - lo))
            start = max(seen, key=lambda t: t[0])[1]
            # Nelder-Mead from there, its first simplex a tenth of each range wide (inward
            # at a bound): it keeps its best vertex, and handles kinks where Powell's
            # line searches stall.
            step = (hi - lo) / 10
            simplex = [start] + [np.clip(start + np.where(start + step <= hi, step, -step) * e, lo, hi)
                                 for e in np.eye(d)]
            optimize.minimize(lambda x: -value(x), start, method="Nelder-Mead", bounds=bounds,
                              options={"xatol": xatol, "fatol": 1e-9,
                                       "initial_simplex": np.array(simplex)})
    best = max(range(len(seen)), key=lambda i: (seen[i][0], -i))  # ties: the earliest
    return seen[best][1], seen[best][0]


def optimize(game: str, strategy: str, *, n: int = 200_000, seed: int = 0,
             rules: Mapping[str, Any] | None = None, opponents: str | None = None,
             params: list[str] | None = None, seat: int | None = None, self_play: int = 0,
             responders: Sequence[str] | str | None = None, holdout: int | None = None,
             xatol: float = 1e-3, log: Callable[[str], None] | None = None) -> Optimization:
    """Tune ``strategy``'s parameters on matches ``0..n-1`` of ``seed``, score the tuned
    responder on the held-out matches ``n..n+holdout-1`` (``holdout`` defaults to ``n``).

    Without ``self_play``: a best response against ``opponents`` (a strategy for every
    other seat; default: ``strategy`` as given), its held-out gain over ``strategy`` as
    given in ``exploitability``. With ``self_play=K``: K steps from ``strategy``, each a
    best response to the previous profile played in every other seat, or an
    extrapolation; the result is the least exploitable profile (held out). ``responders``:
    other policies of the tuned decision, added to the family of responders searched.
    """
    gs = strategies_.for_game(game)
    spec = RunSpec.make(game, n, seed=seed, rules=rules, count=TUNING_MATCHES)
    r = spec.rules
    n_seats = get_game(game).n_seats(r)
    base = gs.parse(strategy)
    if isinstance(responders, str):
        responders = [t for t in responders.split(",") if t.strip()]
    policy, names, not_tuned = _tunable(base, params, r, gs, responders or [], self_play)
    if seat is not None and not 0 <= seat < n_seats:
        raise BidlabError(f"--seat {seat} does not exist; seats are 0..{n_seats - 1}")
    seats = list(range(n_seats)) if seat is None else [seat]
    if self_play < 0:
        raise BidlabError(f"--self-play {self_play}: give a number of iterations >= 0")
    holdout = HOLDOUT_MATCHES.check(n if holdout is None else holdout)
    family, idle_responders = _family(gs, base, policy, names, responders or [], r)
    not_tuned += idle_responders
    family_text = "; ".join(m.describe() for m in family)
    main = family[0]
    opp = gs.parse(opponents) if opponents else base
    scorer = _Scorer(game, r, seats, n_seats, seed, n, holdout)
    if log:
        for item in not_tuned:
            log(f"not tuned: {item['policy']}.{item['param']} {item['why']}")
    current = main.start()
    warm = {m.policy.name: m.start() for m in family}
    history = []
    step_kind = "start"
    anchor = None  # the profile before a plain best-response step (for extrapolation)
    for iteration in range(self_play + 1):
        profile = main.strategy(current)
        others = profile if self_play else opp
        own = scorer.tuning(profile, others)
        found = []
        for m in family:
            x0 = current if m is main else warm[m.policy.name]
            x, sc = _search(lambda s, o=others: scorer.tuning(s, o), m, x0, xatol,
                            own if m is main else None)  # standing still is in the family
            warm[m.policy.name] = x
            found.append((m, x, sc))
        chosen, best_x, best = max(found, key=lambda t: t[2])  # ties: the tuned policy
        responder = chosen.strategy(best_x)
        prof_values = scorer.held_out(profile, others)
        resp_values = prof_values if responder == profile else scorer.held_out(responder, others)
        gain, lo, hi = paired_gain(resp_values, prof_values)
        history.append({"iteration": iteration, "step": step_kind, "params": _named(names, current),
                        "score": own, "responder": chosen.policy.name,
                        "best_response": _named(chosen.names, best_x), "best_response_score": best,
                        "tuning_gain": best - own, "gain": gain, "gain_ci_low": lo, "gain_ci_high": hi,
                        # the profile is in F: what F gains against it is at least 0
                        "exploitability": max(0.0, gain), "exploitability_ci_low": max(0.0, lo),
                        "exploitability_ci_high": max(0.0, hi),
                        "holdout_score": float(prof_values.mean()),
                        "holdout_best_response_score": float(resp_values.mean())})
        if log:
            scale, unit = (100.0, " percentage points") if scorer.metric == "win" else (1.0, "")
            tuned = num((best - own) * scale, plain_places([(best - own) * scale]), sign=True)
            log(f"iteration {iteration} ({step_kind}): {_named(names, current)}; best response "
                f"{chosen.policy.name} {_named(chosen.names, best_x)} gains {tuned}{unit} on "
                f"the tuning matches, {claim(gain, lo, hi, scale, sign=True)}{unit} held out")
        if self_play and iteration < self_play:
            own_x = found[0][1]
            step = _aitken(anchor, current, own_x, policy, names) if anchor is not None else None
            anchor = None if step is not None else current
            current, step_kind = (own_x, "best response") if step is None else (step, "extrapolation")
            if step is not None and _named(names, step) == _named(names, own_x):
                # the iterates have stopped moving: the extrapolation lands on the best response
                step_kind = "extrapolation (= best response: converged)"
    frame = pd.DataFrame(history)
    if self_play:
        # the least exploitable profile held out; of equals (e.g. several at 0), the later
        pick = min(range(len(history)), key=lambda i: (history[i]["exploitability"], -i))
        result_params = dict(history[pick]["params"])
        best_label = main.strategy(list(result_params.values())).label
    else:
        pick = 0
        result_params = dict(history[0]["best_response"])
        best_label = chosen.strategy(list(result_params.values())).label
    row = history[pick]
    exploitability = {"estimate": row["exploitability"], "ci_low": row["exploitability_ci_low"],
                      "ci_high": row["exploitability_ci_high"], "iteration": row["iteration"],
                      "gain": row["gain"], "gain_ci_low": row["gain_ci_low"],
                      "gain_ci_high": row["gain_ci_high"],
                      "responder": row["responder"], "best_response": row["best_response"],
                      "stood_still": row["tuning_gain"] == 0.0, "family": family_text,
                      "of": "profile" if self_play else "strategy as given",
                      "holdout": {"seed": seed, "start": n, "count": holdout}}
    provenance = {"game": game, "rules": r.to_json(), "strategy": strategy,
                  "opponents": (opponents or strategy) if not self_play else "self-play",
                  "seats": seats, "seed": seed, "n": n, "self_play": self_play,
                  "tuning_matches": [0, n - 1], "holdout_matches": [n, n + holdout - 1],
                  "holdout_rule": HOLDOUT_RULE, "responders": [m.policy.name for m in family[1:]],
                  "family": family_text, "not_tuned": not_tuned, "chosen_iteration": pick,
                  "evaluations": scorer.evaluations, "objective": scorer.metric}
    return Optimization(game, strategy, result_params, frame, provenance, best_label,
                        [m.describe() for m in family], not_tuned, exploitability)


def _aitken(x0: np.ndarray, x1: np.ndarray, x2: np.ndarray, policy: Policy,
            names: list[str]) -> np.ndarray | None:
    """Steffensen's extrapolation (Aitken's delta-squared) of the best-response iteration
    x -> BR(x), for one parameter: from three successive iterates x0, x1 = BR(x0) and
    x2 = BR(x1), the fixed point of a linear map through them, x0 - (x1 - x0)^2 /
    (x2 - 2 x1 + x0). Plain best-response iteration converges only linearly (each step
    closes ~40% of the gap in fpsb); the extrapolated point lands near the fixed point.
    Self-play takes it every other step (after a plain step); it returns None, and the
    plain step is taken, with more than one parameter, a vanishing denominator, a guess
    outside the parameter's bounds or farther than 2 |x2 - x0| from x2. The extrapolated
    profile is scored held out like any other, so a bad guess is never the result."""
    if len(names) != 1:
        return None
    a, b, c = float(x0[0]), float(x1[0]), float(x2[0])
    denom = c - 2 * b + a
    if abs(denom) < 1e-12:
        return None
    guess = a - (b - a) ** 2 / denom
    prm = policy.param(names[0])
    if not prm.lo <= guess <= prm.hi or abs(guess - c) > 2 * abs(c - a):
        return None
    return np.array([guess])


def _named(names: Sequence[str], x: Sequence[float]) -> dict[str, float]:
    return {nm: round(float(v), 6) for nm, v in zip(names, x)}


__all__ = ["optimize", "Optimization", "with_params", "paired_gain", "HOLDOUT_RULE"]
