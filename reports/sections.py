"""The generic report sections, the ones every game gets (a game's own sections live
in its spec, ``reports/games/<game>.py``), and the per-game context they share.

A section builder takes a :class:`Context` and returns a
:class:`reports.document.Section` (or None when the game lacks what the section
needs). The context runs each simulation once, on demand, and records what every
figure and table was made from (Parquet) and every run's provenance.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from analysis import tables as T
from analysis.runs import Simulation, make_rules, seat_strategies, simulate
from reports import data as D
from reports import figures as F
from reports import text as W
from reports.document import Figure, Section, Table, png_bytes
from reports.spec import GameSpec, Variant, generic_variants
from reports.style import new_axes
from sim.errors import BidlabError
from sim.games import get_game

DETAIL_CAP = 100_000
"""Most matches of the run that keeps per-deal and per-lot tables in memory (auktsion's
lot table has 52 rows per match): memory stays bounded however large ``-n`` is."""

METRIC_TITLES = {"score": "match score", "win": "win share, %", "money_spent": "money spent",
                 "bid": "bid", "points": "points"}


class Context:
    """One game's report in the making: its spec, sizes, runs, data and figures."""

    def __init__(self, spec: GameSpec, n: int | None = None, seed: int = 0,
                 progress: Callable[[str], None] | None = None):
        self.spec = spec
        self.game = spec.game
        self.g = get_game(spec.game)
        self.n = int(n if n is not None else spec.n)
        if self.n < 1:
            raise BidlabError(f"-n {self.n}: give at least 1 match")
        self.seed = seed
        self.rules = make_rules(self.game, spec.rules)
        self.n_seats = self.g.n_seats(self.rules)
        self.default_label = seat_strategies(self.game, self.rules, None).labels[0]
        self.runs: dict[str, Simulation] = {}
        self.provenance: dict[str, Any] = {"game": self.game, "n": self.n, "seed": seed,
                                           "rules": self.rules.to_json(), "runs": {}}
        self.data: dict[str, pd.DataFrame] = {}
        self.figures: dict[str, bytes] = {}
        self._progress = progress

    # sizes and runs -------------------------------------------------------------------
    def size(self, share: float, minimum: int = 256) -> int:
        """A run size as a share of ``n`` (at least ``minimum``)."""
        return max(minimum, int(round(self.n * share)))

    @property
    def field(self) -> list[str] | None:
        return list(self.spec.field) if self.spec.field else None

    @property
    def multi(self) -> bool:
        """The field holds more than one strategy."""
        return len(set(self.run("field").seats["strategy"].astype(str))) > 1

    def status(self, text: str) -> None:
        if self._progress:
            self._progress(f"{self.game}: {text}")

    def run(self, key: str) -> Simulation:
        """``field``: the strategy field at ``n``; ``default``: the default strategy in
        every seat at ``n`` (the field itself when the field is that); ``table``: the
        default strategy in every seat with detail tables at ``detail_share`` of ``n``
        (at most ``DETAIL_CAP``)."""
        if key == "default" and not self.field:
            key = "field"
        if key not in self.runs:
            if key == "field":
                n, strategies, detail = self.n, self.field, False
            elif key == "default":
                n, strategies, detail = self.n, None, False
            elif key == "table":
                n = min(self.size(self.spec.detail_share), DETAIL_CAP)
                strategies, detail = None, True
            else:
                raise KeyError(key)
            self.status(f"simulating {n:,} matches ({key})")
            run = simulate(self.game, n, seed=self.seed, rules=dict(self.spec.rules),
                           strategies=strategies, detail=detail, progress=False)
            self.runs[key] = run
            self.provenance["runs"][key] = run.provenance
        return self.runs[key]

    def table(self, name: str) -> pd.DataFrame:
        """A detail table of the ``table`` run (a game's own sections read them)."""
        return self.run("table").table(name)

    # outputs --------------------------------------------------------------------------
    def keep(self, name: str, frame: pd.DataFrame) -> str:
        """Keep ``frame`` as ``data/<game>_<name>.parquet``; returns the file stem."""
        stem = f"{self.game}_{name}"
        self.data[stem] = frame.reset_index(drop=True)
        return stem

    def figure(self, name: str, draw: Callable[[Any], Any], caption: str,
               data: str | None = None, figsize: tuple[float, float] | None = None) -> Figure:
        ax = new_axes(figsize)
        draw(ax)
        stem = f"{self.game}_{name}"
        png = png_bytes(ax)
        self.figures[stem] = png
        return Figure(stem, png, caption, alt=caption, data=data)

    def digest(self) -> str:
        """A hash of every number kept (12 significant digits): equal digests, equal results."""
        h = hashlib.sha256()
        for stem in sorted(self.data):
            h.update(stem.encode())
            h.update(self.data[stem].to_csv(index=False, float_format="%.12g").encode())
        return h.hexdigest()[:16]


# helpers ------------------------------------------------------------------------------

def equity_table(eq: pd.DataFrame) -> pd.DataFrame:
    """Equity frame -> display table: one row per strategy/seat, one column per metric
    (``mean [95% CI]``, the same decimals down a column)."""
    keys = list(dict.fromkeys(zip(eq["by"], eq["name"])))
    out = pd.DataFrame({"by": [k[0] for k in keys], "name": [k[1] for k in keys]})
    first = eq.drop_duplicates(["by", "name"]).set_index(["by", "name"])
    out["matches"] = [f"{int(first.loc[k, 'matches']):,}" for k in keys]
    for metric, part in eq.groupby("metric", sort=False):
        part = part.set_index(["by", "name"]).reindex(keys)
        lo, hi = part["ci_low"], part["ci_high"]
        if metric == "win":  # a share: the t-interval is shown clipped to 0..1
            lo, hi = lo.clip(0, 1), hi.clip(0, 1)
        out[METRIC_TITLES.get(metric, metric)] = W.intervals(
            part["mean"], lo, hi, 100.0 if metric == "win" else 1.0)
    return out


def _seat_label(name: str) -> str:
    return "seat " + name.split(" ", 1)[0]


# generic sections ---------------------------------------------------------------------

def rules_section(ctx: Context) -> Section:
    s = Section("rules", "Rules and variant used")
    if ctx.spec.intro:
        s.text(ctx.spec.intro)
    defaults = ctx.g.make_rules({})
    used = ctx.rules
    rows = []
    for key in ctx.g.rule_keys:
        value, default = used[key.name], defaults[key.name]
        rows.append({"key": key.name, "value": W.value(value),
                     "default": W.value(default) + ("" if value == default else " (changed)"),
                     "rule": key.rule, "meaning": key.doc})
    frame = pd.DataFrame(rows)
    changed = [f"{r['key']}={r['value']}" for r in rows if r["default"].endswith("(changed)")]
    s.text("Every rule key is a named house variant; the rule column gives the id of the "
           "canonical rule it belongs to.")
    s.reading(W.sentence("this report plays the default rules" if not changed else
                         f"this report plays the default rules except {W.join(changed)}")
              + " Sections that compare house variants say which rule they change.")
    s.add(Table(frame, "Rule keys: the value used in this report and the default",
                ctx.keep("rules", frame.astype(str))))
    return s


def _params_text(entry: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for decision, choice in entry.items():
        if decision in ("seat", "label"):
            continue
        params = ", ".join(f"{k}={W.value(v)}" for k, v in choice["params"].items()) or "none"
        out.append((f"{decision}: {choice['policy']}", params))
    return out


def strategies_section(ctx: Context) -> Section:
    import strategies as strategies_

    s = Section("strategies", "Strategies and their parameters")
    field = ctx.run("field")
    rows = []
    for entry in field.provenance["strategies"]:
        for policy, params in _params_text(entry):
            rows.append({"seat": str(entry["seat"]), "strategy": entry["label"], "policy": policy,
                         "parameters (all values)": params})
    frame = pd.DataFrame(rows)
    gs = strategies_.for_game(ctx.game)
    used = list(dict.fromkeys(p.split(": ", 1)[1] for p in frame["policy"]))
    docs = {p.name: p.doc for p in gs.policies if p.name in used}
    if ctx.field:
        s.text(ctx.spec.field_note or "The strategy field below plays every match; each "
               "strategy keeps its seat.")
    else:
        s.text(f"Every seat plays the game's default strategy, {ctx.default_label}.")
    s.add(Table(frame, "Seats, strategies and every parameter value", ctx.keep("strategies", frame)))
    s.text("How the policies decide: " + "; ".join(f"{k}: {v}" for k, v in docs.items()) + ".")
    if ctx.field:
        s.note("Seats are fixed, so a strategy's result includes its seat's advantage"
               + ("; the seat section measures that advantage with the default strategy "
                  "everywhere." if "seats" in ctx.spec.sections else "."))
    return s


def _head_to_head(seats: pd.DataFrame, a: str, b: str) -> tuple[float, float, float]:
    """Share of matches in which strategy ``a`` outscores ``b`` (ties count half), with a
    95% interval."""
    from analysis.stats import mean_ci, per_match

    series = per_match(seats, "score")
    x, y = series[("strategy", a)], series[("strategy", b)]
    return mean_ci((x > y) + 0.5 * (x == y))


def equity_section(ctx: Context) -> Section:
    s = Section("equity", "Equity and win rates")
    run = ctx.run("field")
    seats = run.seats
    unit = ctx.spec.score_unit
    eq = T.equity(seats, metrics=ctx.g.summary_metrics)
    stem = ctx.keep("equity", eq)
    multi = ctx.multi
    by = "strategy" if multi else "seat"
    s.text(f"{run.completed:,} matches, seed {ctx.seed}. Means with 95% intervals across "
           f"matches; win share splits ties; a strategy in several seats is averaged over "
           f"them within each match.")
    scores = eq[(eq["metric"] == "score") & (eq["by"] == "strategy")].sort_values(
        "mean", ascending=False)
    wins = eq[(eq["metric"] == "win") & (eq["by"] == by)].sort_values("mean", ascending=False)
    shown = None
    if multi:
        best, worst = scores.iloc[0], scores.iloc[-1]
        diffs = T.strategy_differences(seats, "score")
        pair = diffs[((diffs["first"] == best["name"]) & (diffs["second"] == worst["name"])) |
                     ((diffs["first"] == worst["name"]) & (diffs["second"] == best["name"]))].iloc[0]
        sign = 1 if pair["second"] == best["name"] else -1
        lo, hi = sorted((sign * pair["ci_low"], sign * pair["ci_high"]))
        h, hlo, hhi = _head_to_head(seats, best["name"], worst["name"])
        s.reading(W.sentence(
            f"of the {len(scores)} strategies, {best['name']} scores most: "
            f"{W.estimate(best['mean'], best['ci_low'], best['ci_high'], unit=f' {unit} per match')}; "
            + W.difference("it", sign * pair["diff"], lo, hi, other=worst["name"], unit=unit,
                           suffix=" per match", p=pair["p_value"])
            + f", and outscores {worst['name']} in {W.estimate(h, hlo, hhi, 100, '% of the matches')}"))
        top, bottom = wins.iloc[0], wins.iloc[-1]
        fair = F._fair_share(eq, "strategy")
        won = bottom["mean"] * bottom["matches"]
        low_text = (f"{bottom['name']} wins none of them" if bottom["mean"] == 0 else
                    f"{bottom['name']} wins almost never ({W.num(won, 0 if won == round(won) else 1)} "
                    f"of {int(bottom['matches']):,} matches, ties split)" if bottom["mean"] < 0.001 else
                    f"{bottom['name']} wins "
                    f"{W.estimate(bottom['mean'], bottom['ci_low'], bottom['ci_high'], 100, '%')}")
        s.reading(W.sentence(
            f"the most frequent winner is {top['name']}, with "
            f"{W.estimate(top['mean'], top['ci_low'], top['ci_high'], 100, '% of the matches')}"
            + (f" against a fair share of {W.share(fair)}" if fair else "") + f"; {low_text}"))
        shown = pd.DataFrame({"B - A": diffs["second"] + " - " + diffs["first"],
                              "score difference per match [95% CI]": W.intervals(
                                  diffs["diff"], diffs["ci_low"], diffs["ci_high"], sign=True),
                              "p": diffs["p_value"].map(W.p_text)})
    else:
        only = scores.iloc[0]
        s.reading(W.sentence(
            f"with {only['name']} in every seat the mean match score is "
            f"{W.estimate(only['mean'], only['ci_low'], only['ci_high'], unit=' ' + unit)}, "
            f"and a fair share of the wins would be {W.share(1 / ctx.n_seats)} per seat"))
    s.add(Table(equity_table(eq), "Per strategy and per seat: mean [95% CI]", stem))
    if shown is not None:
        s.add(Table(shown, "Paired differences between strategies (same matches)",
                    ctx.keep("strategy_differences", diffs)))
    s.add(ctx.figure("equity", lambda ax: F.equity_bars(eq, "score", by=by, ax=ax),
                     f"Mean match score by {by} with 95% intervals", stem))
    s.add(ctx.figure("win_share", lambda ax: F.win_share_bars(eq, by=by, ax=ax),
                     f"Win share by {by} with 95% intervals (ties split)", stem))
    return s


def scores_section(ctx: Context) -> Section:
    s = Section("scores", "Score distributions")
    seats = ctx.run("field").seats
    hist = D.score_histogram(seats)
    q = D.quantiles(seats)
    stem = ctx.keep("score_histogram", hist)
    qstem = ctx.keep("score_quantiles", q)
    ordered = q.sort_values("q50", ascending=False)
    places = 0 if np.all(np.mod(seats["score"].to_numpy(float), 1) == 0) else 3
    parts = [f"half of {r.name}'s match scores lie between {W.num(r.q25, places)} and "
             f"{W.num(r.q75, places)} (median {W.num(r.q50, places)})" for r in ordered.itertuples()]
    s.reading(W.sentence("; ".join(parts[:2])
                         + (f"; the table has the other {len(parts) - 2}" if len(parts) > 2 else "")))
    if len(ordered) > 1:
        hi_, lo_ = ordered.iloc[0], ordered.iloc[-1]
        overlap = lo_["q75"] >= hi_["q25"]
        s.reading(W.sentence(
            f"the middle halves of {hi_['name']} and {lo_['name']} "
            + ("overlap" if overlap else "do not overlap")
            + f": {lo_['name']}'s upper quartile is {W.num(lo_['q75'], places)} and "
              f"{hi_['name']}'s lower quartile {W.num(hi_['q25'], places)}"))
    shown = q.copy()
    for c in shown.columns[1:]:
        shown[c] = shown[c].map(lambda v: W.num(v, places))
    s.add(Table(shown.rename(columns={"name": "strategy"}),
                "Quantiles of the match score (all seats of each strategy)", qstem))
    s.add(ctx.figure("scores", lambda ax: F.score_distribution(hist, ax=ax),
                     "Distribution of match scores per strategy", stem))
    return s


def seats_section(ctx: Context) -> Section:
    s = Section("seats", "Seat effect")
    run = ctx.run("default")
    seats = run.seats
    eff = T.seat_effect(seats)
    eq = T.equity(seats, metrics=("win",))
    wins = eq[eq["by"] == "seat"].reset_index(drop=True)
    stem = ctx.keep("seat_effect", eff.merge(
        wins[["name", "mean", "ci_low", "ci_high"]].rename(
            columns={"mean": "win", "ci_low": "win_lo", "ci_high": "win_hi"}).assign(
            seat=range(len(wins))).drop(columns="name"), on="seat"))
    s.text(f"{run.completed:,} matches with {ctx.default_label} in every seat, so any "
           f"difference between seats comes from position (who deals, who speaks first).")
    sig = eff[[W.significant(r.ci_low, r.ci_high) for r in eff.itertuples()]]
    if sig.empty:
        big = eff.loc[eff["diff"].abs().idxmax()]
        largest = W.estimate(big['diff'], big['ci_low'], big['ci_high'],
                             unit=' ' + ctx.spec.score_unit, sign=True)
        s.reading(W.sentence(
            f"no seat has a detectable advantage at this sample size: every seat's interval "
            f"includes 0 (largest: seat {int(big['seat'])}, {largest})"))
    else:
        ranked = sig.reindex(sig["diff"].abs().sort_values(ascending=False).index)[:2]
        parts = [W.difference(f"seat {int(r['seat'])}", r["diff"], r["ci_low"], r["ci_high"],
                              other="the table average" if k == 0 else "the average",
                              unit=ctx.spec.score_unit,
                              suffix=" in the same match" if k == 0 else "", p=r["p_value"])
                 for k, (_, r) in enumerate(ranked.iterrows())]
        rest = len(eff) - len(ranked)
        more = len(sig) - len(ranked)
        tail = ("" if rest == 0 else
                "; the other seats' intervals include 0" if more == 0 else
                f"; {more} more seat{'s differ' if more > 1 else ' differs'} (see the table)")
        s.reading(W.sentence("; ".join(parts) + tail))
    top = wins.loc[wins["mean"].idxmax()]
    s.reading(W.sentence(
        f"win shares per seat range from {W.share(wins['mean'].min())} to "
        # The fair share is the seats' average: 1/n where the seats share each win, 50%
        # in bridge, where each side's result is judged against par.
        f"{W.share(wins['mean'].max())} (fair share {W.share(wins['mean'].mean())}); the best, "
        f"{_seat_label(top['name'])}, "
        f"wins {W.estimate(top['mean'], top['ci_low'], top['ci_high'], 100, '%')}"))
    shown = pd.DataFrame({"seat": eff["seat"].astype(str),
                          "mean score": eff["mean"].map(lambda v: W.num(v, 2)),
                          "advantage [95% CI]": W.intervals(eff["diff"], eff["ci_low"],
                                                            eff["ci_high"], sign=True),
                          "p": eff["p_value"].map(W.p_text),
                          "win share, % [95% CI]": W.intervals(wins["mean"],
                                                               wins["ci_low"].clip(0, 1),
                                                               wins["ci_high"].clip(0, 1), 100)})
    s.add(Table(shown, "Each seat against the table mean in the same match", stem))
    s.add(ctx.figure("seat_effect", lambda ax: F.seat_effect_bars(eff, ax=ax,
                                                                  unit=ctx.spec.score_unit),
                     "Seat advantage in match score with 95% intervals", stem))
    return s


def tuning_section(ctx: Context) -> Section | None:
    """Best response along one parameter: the tuned seat's score and win share at each
    grid value, paired by match against the parameter's default value."""
    from analysis.stats import mean_ci, paired_difference, per_match

    t = ctx.spec.tuning
    if t is None:
        return None
    n = ctx.size(t.share)
    s = Section("tuning", f"Best response: tuning {t.strategy}'s {t.param}")
    rows, series = [], {}
    default = None
    for k, value in enumerate(t.grid):
        ctx.status(f"best response {k + 1}/{len(t.grid)} ({n:,} matches)")
        label = f"{t.strategy}:{t.param}={value:g}"
        run = simulate(ctx.game, n, seed=ctx.seed, rules=dict(ctx.spec.rules),
                       strategies=[f"{t.seat}={label}"], progress=False)
        if default is None:
            default = run.provenance["strategies"][(t.seat + 1) % ctx.n_seats]["label"]
            ctx.provenance["tuning"] = {"strategy": t.strategy, "param": t.param,
                                        "grid": list(t.grid), "seat": t.seat, "n": n,
                                        "opponents": default}
        score = per_match(run.seats, "score")[("seat", f"{t.seat} {run.seats['strategy'].iloc[t.seat]}")]
        win = per_match(run.seats, "win")[("seat", f"{t.seat} {run.seats['strategy'].iloc[t.seat]}")]
        series[value] = score
        m, lo, hi = mean_ci(score)
        w, wlo, whi = mean_ci(win)
        rows.append({"action": f"{value:g}", t.param: value, "mean": m, "ci_low": lo,
                     "ci_high": hi, "win": w, "win_lo": wlo, "win_hi": whi})
    frame = pd.DataFrame(rows)
    from strategies import for_game  # the parameter's default, for the paired comparison
    prm = next(q for p in for_game(ctx.game).policies if p.name == t.strategy.split(":")[0]
               for q in p.params if q.name == t.param)
    ref = min(t.grid, key=lambda v: abs(v - prm.default))
    diffs = [paired_difference(series[ref], series[v]) for v in t.grid]
    frame["diff"] = [d["diff"] for d in diffs]
    frame["diff_lo"] = [d["ci_low"] for d in diffs]
    frame["diff_hi"] = [d["ci_high"] for d in diffs]
    frame["p_value"] = [d["p_value"] for d in diffs]
    stem = ctx.keep("tuning", frame)
    best = frame.loc[frame["mean"].idxmax()]
    unit = ctx.spec.score_unit
    s.text((t.question + " " if t.question else "")
           + f"Seat {t.seat} plays {t.strategy} with {t.param} set to each value below; every "
             f"other seat plays {default}. {n:,} matches per value, the same deals for every "
             f"value, so differences are paired by match.")
    edge = (" (the largest value tried)" if best[t.param] == max(t.grid) else
            " (the smallest value tried)" if best[t.param] == min(t.grid) else "")
    text = (f"against {default} in the other seats, {t.param} = {best[t.param]:g}{edge} scores "
            f"most: {W.estimate(best['mean'], best['ci_low'], best['ci_high'], unit=f' {unit} per match')}")
    if best[t.param] != ref:
        text += "; " + W.difference("it", best["diff"], best["diff_lo"], best["diff_hi"],
                                    other=f"the default {t.param} = {ref:g}", unit=unit,
                                    p=best["p_value"])
    text += (f", and wins {W.estimate(best['win'], best['win_lo'], best['win_hi'], 100, '% of the matches')}"
             f" against a fair share of {W.share(1 / ctx.n_seats)}")
    s.reading(W.sentence(text))
    shown = pd.DataFrame({t.param: frame["action"],
                          "mean score [95% CI]": W.intervals(frame["mean"], frame["ci_low"],
                                                             frame["ci_high"]),
                          f"vs {t.param} = {ref:g} [95% CI]": W.intervals(
                              frame["diff"], frame["diff_lo"], frame["diff_hi"], sign=True),
                          "win share, % [95% CI]": W.intervals(
                              frame["win"], frame["win_lo"].clip(0, 1), frame["win_hi"].clip(0, 1),
                              100)})
    s.add(Table(shown, f"Seat {t.seat}'s result for each {t.param}", stem))
    s.add(ctx.figure("tuning", lambda ax: F.bid_ev_curve(
        frame, ax=ax, title=f"Best response: {t.strategy}'s {t.param} against {default}",
        xlabel=t.param, ylabel=f"mean match score of seat {t.seat} (95% band)"),
        f"Mean match score of seat {t.seat} for each {t.param} (95% band); the best is ringed",
        stem))
    return s


def bidev_section(ctx: Context) -> Section:
    s = Section("bidev", "Optimal bids: bid-EV in typical situations")
    situations = ctx.spec.situations(ctx) if ctx.spec.situations else []
    if not situations:
        s.note(f"No typical bid-EV situations are defined for {ctx.game} yet (a report spec "
               f"in reports/games/{ctx.game}.py can list some).")
        return s
    from analysis.bidev import bid_ev

    rollouts = ctx.size(ctx.spec.rollout_share, 200)
    by_win = ctx.g.bidev_metric == "win"
    s.text(f"For each situation: {rollouts:,} rollouts per candidate action. Each rollout "
           f"deals the hidden cards at random consistently with what is public, plays the "
           f"candidate now and lets {ctx.default_label} play the rest for everyone; all "
           f"candidates share the same rollouts (common random numbers)."
           + (f" Candidates are ranked by {dict(ctx.g.bidev_outcomes)['win']} (what the game is "
              f"played for); the expected {dict(ctx.g.bidev_outcomes)['score']} is shown beside it."
              if by_win else ""))
    ctx.provenance["bidev"] = []
    for k, sit in enumerate(situations):
        ctx.status(f"bid-EV {k + 1}/{len(situations)}")
        res = bid_ev(ctx.game, dict(sit.state), rollouts=rollouts, seed=ctx.seed + k,
                     rules=dict(ctx.spec.rules),
                     candidates=list(sit.candidates) if sit.candidates else None)
        frame = res.frame
        stem = ctx.keep(f"bidev_{k + 1}", frame)
        ctx.provenance["bidev"].append(res.provenance)
        s.add(_h4(sit.title))
        outcomes = res.outcomes
        tell = res.situation.get("calls_tell")
        told = res.points_told()
        s.text(" ".join(filter(None, [sit.question, tell and (
            f"The hidden hands of {W.join(tell)} are dealt only where "
            f"{ctx.default_label} makes the calls they made."), told and (
            "The hidden hands are dealt only with the points their coins tell (A3).")])))
        by_win = res.metric == "win"
        noun = outcomes["score"]
        s.reading(W.sentence(_bidev_reading(frame, str(res.best), res.p_best,
                                            ctx.spec.score_unit, by_win, noun, outcomes)))
        if by_win:
            cols = {"action": frame["action"].astype(str),
                    f"{outcomes['win']}, % [95% CI]": [
                        W.interval(r.mean, r.ci_low, r.ci_high, 100) for r in frame.itertuples()],
                    f"expected {outcomes['score']} [95% CI]": [
                        W.interval(r.score, r.score_lo, r.score_hi) for r in frame.itertuples()],
                    "vs best, % points [95% CI]": [
                        W.interval(r.diff_vs_best, r.diff_lo, r.diff_hi, 100, sign=True)
                        for r in frame.itertuples()],
                    "P(best)": frame["p_best"].map(lambda v: W.share(v, 0))}
            s.add(Table(pd.DataFrame(cols), f"{sit.title}: candidates", stem))
            s.add(ctx.figure(f"bidev_{k + 1}", lambda ax, f=frame, b=res.best, t=sit.title,
                             y=f"{outcomes['win']}, % (95% band)": F.bid_ev_curve(
                                 f.assign(mean=100 * f["mean"], ci_low=100 * f["ci_low"],
                                          ci_high=100 * f["ci_high"]),
                                            ax=ax, best=b, title=t,
                                            ylabel=y, xlabel="call"),
                             f"{sit.title}: {outcomes['win']} of each candidate call (95% "
                             f"band of the mean; the differences between candidates are "
                             f"paired, so much narrower: see the table)", stem))
            continue
        cols = {"action": frame["action"].astype(str),
                f"expected {noun} [95% CI]": [W.interval(r.mean, r.ci_low, r.ci_high)
                                              for r in frame.itertuples()],
                f"{outcomes['win']}, % [95% CI]": [W.interval(r.win, r.win_lo, r.win_hi, 100)
                                                   for r in frame.itertuples()],
                "vs best [95% CI]": [W.interval(r.diff_vs_best, r.diff_lo, r.diff_hi, sign=True)
                                     for r in frame.itertuples()]}
        for name, title in outcomes.items():           # further outcomes (bridge: IMPs)
            if name not in ("score", "win") and {name, f"{name}_lo", f"{name}_hi"} <= set(frame):
                cols[f"{title} [95% CI]"] = [W.interval(m, lo, hi, sign=True) for m, lo, hi
                                             in zip(frame[name], frame[f"{name}_lo"],
                                                    frame[f"{name}_hi"])]
        cols["P(best)"] = frame["p_best"].map(lambda v: W.share(v, 0))
        s.add(Table(pd.DataFrame(cols), f"{sit.title}: candidates", stem))
        s.add(ctx.figure(f"bidev_{k + 1}", lambda ax, f=frame, b=res.best, t=sit.title:
                         F.bid_ev_curve(f, ax=ax, best=b, title=t),
                         f"{sit.title}: expected {noun} of each candidate (95% band of the "
                         f"mean; the differences between candidates are paired, so much "
                         f"narrower: see the table)", stem))
    return s


def _bidev_reading(frame: pd.DataFrame, best: str, p_best: float, unit: str,
                   by_win: bool = False, noun: str = "match score",
                   outcomes: dict[str, str] | None = None) -> str:
    """The best candidate, its margin over passing, how sure that is; or that the
    candidates tie (identical outcomes in every rollout). ``by_win``: the frame's
    ``mean`` is the win share of the game. ``noun``: what ``mean`` is the mean of."""
    actions = frame["action"].astype(str)
    row = frame[actions == best].iloc[0]
    if by_win:
        return _bidev_win_reading(frame, actions, row, best, p_best,
                                  outcomes or {"win": "win share", "score": "match score"})
    same = frame[(frame["diff_vs_best"] == 0) & (frame["diff_lo"] == 0) & (frame["diff_hi"] == 0)]
    if len(same) == len(frame):
        return (f"every candidate gives exactly the same {noun} in every rollout "
                f"({W.num(row['mean'], 2)} {unit} on average): nothing called here changes "
                f"the outcome")
    if len(same) > 1:
        tied = list(same["action"].astype(str))
        text = (f"{W.join(tied)} tie for the highest expected {noun}, "
                f"{W.estimate(row['mean'], row['ci_low'], row['ci_high'], unit=' ' + unit)}: "
                f"they give the same score in every rollout")
        if "pass" in set(actions) and "pass" not in tied:
            p = frame[actions == "pass"].iloc[0]
            text += "; " + W.difference("each", -p["diff_vs_best"], -p["diff_hi"],
                                        -p["diff_lo"], other="passing", unit=unit)
        return text
    text = (f"{best} has the highest expected {noun}, "
            f"{W.estimate(row['mean'], row['ci_low'], row['ci_high'], unit=' ' + unit)}")
    if best != "pass" and "pass" in set(actions):
        p = frame[actions == "pass"].iloc[0]
        text += "; " + W.difference(best, -p["diff_vs_best"], -p["diff_hi"], -p["diff_lo"],
                                    other="passing", unit=unit)
    return text + (f"; it is the best candidate in {W.share(p_best, 0)} of bootstrap resamples "
                   f"of the rollouts")


def _bidev_win_reading(frame: pd.DataFrame, actions: pd.Series, row, best: str,
                       p_best: float, outcomes: dict[str, str]) -> str:
    same = frame[(frame["diff_vs_best"] == 0) & (frame["diff_lo"] == 0) & (frame["diff_hi"] == 0)]
    if len(same) == len(frame):
        return (f"every candidate gives the same {outcomes['win']} in every rollout "
                f"({W.share(row['mean'])}): nothing called here changes the outcome")
    text = (f"{best} has the highest {outcomes['win']}, "
            f"{W.estimate(row['mean'], row['ci_low'], row['ci_high'], 100, '%')}, "
            f"with an expected {outcomes['score']} of {W.num(row['score'], 2)}")
    if best != "pass" and "pass" in set(actions):
        p = frame[actions == "pass"].iloc[0]
        text += "; " + W.difference(best, -p["diff_vs_best"], -p["diff_hi"], -p["diff_lo"],
                                    other="passing", verb="wins", unit="percentage points",
                                    more="more often", less="less often", scale=100)
    others = frame[actions != best]
    if len(others):
        near = others.loc[others["diff_vs_best"].idxmax()]
        if near["action"] != "pass" or best == "pass":
            text += "; " + W.difference(best, -near["diff_vs_best"], -near["diff_hi"],
                                        -near["diff_lo"], other=str(near["action"]),
                                        verb="wins", unit="percentage points",
                                        more="more often", less="less often", scale=100)
    return text + (f"; it is the best candidate in {W.share(p_best, 0)} of bootstrap resamples "
                   f"of the rollouts")


def _h4(title: str):
    from reports.document import Paragraph
    return Paragraph(title, "subhead")


def _variant_rows(rows: list[dict], part: pd.DataFrame, label: str, by: str) -> None:
    for metric in ("score", "win"):
        sub = part[(part["by"] == by) & (part["metric"] == metric)]
        scale = 100.0 if metric == "win" else 1.0
        cells = W.intervals(sub["diff"], sub["ci_low"], sub["ci_high"], scale, sign=True)
        for r, cell in zip(sub.itertuples(), cells):
            rows.append({"variant": label, "metric": METRIC_TITLES.get(metric, metric),
                         by: r.name, "value": W.num(r.value * scale, 2),
                         "change [95% CI]": cell, "p": W.p_text(r.p_value)})


def variants_section(ctx: Context) -> Section:
    from analysis.compare import compare

    s = Section("variants", "House variants: what changes if you play it differently")
    variants: tuple[Variant, ...] = (ctx.spec.variants if ctx.spec.variants is not None
                                     else generic_variants(ctx.game))
    if not variants:
        s.note(f"No house variants to compare for {ctx.game}.")
        return s
    n = ctx.size(ctx.spec.variant_share)
    multi = ctx.multi
    by = "strategy" if multi else "seat"
    unit = ctx.spec.score_unit
    ctx.status(f"comparing {len(variants)} variants ({n:,} matches each)")
    res = compare(ctx.game, ["default"] + [v.label for v in variants], n, seed=ctx.seed,
                  strategies=ctx.field, rules=dict(ctx.spec.rules), progress=False)
    base = next(iter(res.variants))
    ctx.provenance["variants"] = res.provenance
    frame = res.frame
    stem = ctx.keep("variants", frame)
    s.text(f"The same {n:,} matches (same seed, so the same deals) under each rule set, with "
           + ("the strategy field above" if multi else f"{ctx.default_label} in every seat")
           + "; every change is paired by match against the rules of this report (\"default\").")
    rows = []
    for v in variants:
        part = frame[frame["variant"] == v.label]
        win = part[(part["metric"] == "win") & (part["by"] == by)]
        if (part[["diff", "ci_low", "ci_high"]] == 0).all().all():
            s.reading(W.sentence(
                f"with {v.label}" + (f" ({v.why})" if v.why else "") + f", not one of the "
                f"{n:,} matches changes: every score and win share is identical, so with these "
                f"strategies the rule never comes into play"))
            _variant_rows(rows, part, v.label, by)
            continue
        big = win.loc[win["diff"].abs().idxmax()]
        who = big["name"] if multi else _seat_label(big["name"])
        text = f"with {v.label}" + (f" ({v.why})" if v.why else "") + ", "
        text += W.change(f"{who}'s win share", big["diff"], big["ci_low"], big["ci_high"],
                         unit="percentage points", scale=100, p=big["p_value"])
        if len(win) > 1 and W.significant(big["ci_low"], big["ci_high"]):
            text += ", the largest change among the " + ("strategies" if multi else "seats")
        group = "strategy" if multi else "seat"
        sc = part[(part["metric"] == "score") & (part["by"] == group) &
                  (part["name"] == big["name"])].iloc[0]
        text += "; " + W.change("its mean score" if multi else f"{who}'s mean score",
                                sc["diff"], sc["ci_low"], sc["ci_high"], unit=unit,
                                p=sc["p_value"])
        s.reading(W.sentence(text))
        _variant_rows(rows, part, v.label, by)
    s.add(Table(pd.DataFrame(rows), "Each variant against the default rules: value under the "
                "variant and paired change (win share in percentage points)", stem))
    s.add(ctx.figure("variants_win", lambda ax: F.variant_differences(frame, "win", by=by, ax=ax,
                                                                       baseline=base),
                     f"Change in win share by {by} under each variant (paired, 95% CI)", stem))
    s.add(ctx.figure("variants_score", lambda ax: F.variant_differences(
        frame, "score", by=by, ax=ax, baseline=base),
        f"Change in mean match score by {by} under each variant (paired, 95% CI)", stem))
    return s


GENERIC_BUILDERS: dict[str, Callable[[Context], Section | None]] = {
    "rules": rules_section, "strategies": strategies_section, "equity": equity_section,
    "scores": scores_section, "seats": seats_section, "tuning": tuning_section,
    "bidev": bidev_section, "variants": variants_section,
}


def builders(spec: GameSpec) -> list[tuple[str, Callable[[Context], Section | None]]]:
    """The spec's sections in order, each with its builder (the spec's own first)."""
    out = []
    for sid in spec.sections:
        fn = spec.extra.get(sid) or GENERIC_BUILDERS.get(sid)
        if fn is None:
            raise KeyError(f"report spec for {spec.game} names section {sid!r}, which has no "
                           f"builder (generic: {', '.join(GENERIC_BUILDERS)})")
        out.append((sid, fn))
    return out


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0
