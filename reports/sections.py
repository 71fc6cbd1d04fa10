"""The generic report sections, the ones every game gets (a game's own sections live
in its spec, ``reports/games/<game>.py``), and the registry of their builders.

A section builder takes a :class:`reports.context.Context` and returns a
:class:`reports.document.Section` (or None when the game lacks what the section
needs). The sections of their own modules (tuning, bid-EV, variants) are registered
here too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from analysis import tables as T
from analysis.spec import seat_strategies
from analysis.stats import mean_ci
from analysis.tournament import Tournament
from reports import data as D
from reports import figures as F
from reports import text as W
from reports.bidev import bidev_section
from reports.context import Context
from reports.document import Section, Table
from reports.spec import GameSpec
from reports.tuning import tuning_section
from reports.variants import variants_section

# helpers ------------------------------------------------------------------------------

def equity_table(eq: pd.DataFrame) -> pd.DataFrame:
    """Equity frame -> display table: one row per strategy (seat ``all``) and per seat,
    the seat in its own column, one column per metric (``mean [95% CI]``, the same
    decimals down a column)."""
    keys = list(dict.fromkeys(zip(eq["by"], eq["name"])))
    seat = [name.partition(" ")[0] if by == "seat" else "all" for by, name in keys]
    out = pd.DataFrame({"seat": seat, "strategy": [name.partition(" ")[2] if by == "seat"
                                                   else name for by, name in keys]})
    first = eq.drop_duplicates(["by", "name"]).set_index(["by", "name"])
    out["matches"] = [f"{int(first.loc[k, 'matches']):,}" for k in keys]
    for metric, part in eq.groupby("metric", sort=False):
        part = part.set_index(["by", "name"]).reindex(keys)
        out[W.METRIC_TITLES.get(metric, metric)] = W.intervals(
            part["mean"], part["ci_low"], part["ci_high"], 100.0 if metric == "win" else 1.0)
    return out


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
    assigned = seat_strategies(ctx.game, ctx.rules, ctx.field).to_json()
    first: dict[str, dict] = {}
    for entry in assigned:  # each strategy once, in the order of its first seat
        first.setdefault(entry["label"], entry)
    frame = pd.DataFrame([{"strategy": label, "policy": policy, "parameters (all values)": params}
                          for label, entry in first.items()
                          for policy, params in _params_text(entry)])
    gs = strategies_.for_game(ctx.game)
    used = list(dict.fromkeys(p.split(": ", 1)[1] for p in frame["policy"]))
    docs = {p.name: p.doc for p in gs.policies if p.name in used}
    if ctx.field:
        s.text(ctx.spec.field_note or "The strategies below make up the field.")
    else:
        s.text(f"Every seat plays the game's default strategy, {ctx.default_label}.")
    if ctx.multi:
        s.text("They meet in a duplicate tournament (the equity, score and house-variant "
               "sections): every strategy sits in every seat equally often, on the same "
               "matches.")
    s.add(Table(frame, "Strategies and every parameter value", ctx.keep("strategies", frame)))
    s.text("How the policies decide: " + "; ".join(f"{k}: {v}" for k, v in docs.items()) + ".")
    return s


def equity_section(ctx: Context) -> Section:
    s = Section("equity", "Equity and win rates")
    return _tournament_equity(ctx, s) if ctx.multi else _seat_equity(ctx, s)


def _seat_equity(ctx: Context, s: Section) -> Section:
    """One strategy in every seat: its match score, and the win share of each seat."""
    run = ctx.run("field")
    eq = T.equity(run.seats, metrics=ctx.g.summary_metrics, shares=ctx.g.share_metrics)
    stem = ctx.keep("equity", eq)
    unit = ctx.spec.score_unit
    s.text(f"{run.completed:,} matches, seed {ctx.seed}. Means with 95% intervals across "
           f"matches; win share splits ties.")
    only = eq[(eq["metric"] == "score") & (eq["by"] == "strategy")].iloc[0]
    s.reading(W.sentence(
        f"with {only['name']} in every seat the mean match score is "
        f"{W.estimate(only['mean'], only['ci_low'], only['ci_high'], unit=' ' + unit)}, "
        f"and a fair share of the wins would be {W.share(1 / ctx.n_seats)} per seat"))
    s.add(Table(equity_table(eq), "Per strategy and per seat: mean [95% CI]", stem))
    s.add(ctx.figure("equity", lambda ax: F.equity_bars(eq, "score", by="seat", ax=ax),
                     "Mean match score by seat with 95% intervals", stem))
    s.add(ctx.figure("win_share", lambda ax: F.win_share_bars(eq, by="seat", ax=ax),
                     "Win share by seat with 95% intervals (ties split)", stem))
    return s


def _tournament_equity(ctx: Context, s: Section) -> Section:
    """The field's strategies in a duplicate tournament: ranked by the game's objective,
    with intervals clustered by match and Holm-adjusted paired differences."""
    t = ctx.tournament()
    eq = t.equity()
    stem = ctx.keep("equity", eq)
    unit = ctx.spec.score_unit
    m = int(t.frame["matches"].iloc[0])
    lineups = len(t.design.lineups)
    position = "side" if ctx.g.sides else "seat"
    pairs = len(t.names) * (len(t.names) - 1) // 2
    s.text(f"A duplicate tournament: {m:,} matches of seed {ctx.seed}, each played once in "
           f"every lineup of a balanced design ({t.design.describe(position)}; {lineups * m:,} "
           f"games in all), so no strategy gains from its {position} or its cards. A "
           f"strategy's result in a match is its mean over every {position} it holds there; "
           f"intervals are 95% and clustered by match, and differences are paired by match"
           + (f", their p-values adjusted for the {pairs} comparisons (Holm)" if pairs > 1
              else "") + ". Win share splits ties.")
    objective = t.metric
    ranked = eq[(eq["metric"] == objective)]
    best, worst = ranked.iloc[0], ranked.iloc[-1]
    diffs = t.differences[t.differences["metric"] == objective]
    pair = diffs[(diffs["first"] == best["name"]) & (diffs["second"] == worst["name"])].iloc[0]
    words = (dict(verb="wins", unit="percentage points", more="more often",
                  less="less often", scale=100.0) if objective == "win" else
             dict(unit=unit, suffix=" per match"))
    scale = words.get("scale", 1.0)
    lead = (W.estimate(best["mean"], best["ci_low"], best["ci_high"], 100, "% of the matches won")
            if objective == "win" else
            W.estimate(best["mean"], best["ci_low"], best["ci_high"], unit=f" {unit} per match"))
    h, hlo, hhi = mean_ci(t.head_to_head(best["name"], worst["name"], objective), share_of=1)
    s.reading(W.sentence(
        f"of the {len(t.names)} strategies, {best['name']} comes first, with {lead}, and "
        f"is the best in {W.share(t.p_best, 0)} of bootstrap resamples of the matches; "
        + W.difference("it", pair["diff"], pair["ci_low"], pair["ci_high"],
                       other=worst["name"], p=pair["p_holm"], **words)
        + f"; it does better than {worst['name']} in "
          f"{W.estimate(h, hlo, hhi, 100, '% of the matches')} (ties count half)"))
    wins = eq[eq["metric"] == "win"].sort_values("mean", ascending=False)
    fair = 1 / len(positions_of(ctx))
    top, bottom = wins.iloc[0], wins.iloc[-1]
    lo_text = W.estimate(bottom["mean"], bottom["ci_low"], bottom["ci_high"], 100, "%")
    hi_text = W.estimate(top["mean"], top["ci_low"], top["ci_high"], 100, "%")
    s.reading(W.sentence(f"win shares range from {lo_text} for {bottom['name']} to {hi_text} "
                         f"for {top['name']}, against a fair share of {W.share(fair)}"))
    for note in search_notes(t):
        s.note(note)
    s.add(Table(tournament_table(t), "Per strategy, over every lineup: mean [95% CI] and the "
                "probability of being best", stem))
    shown = diffs.assign(scale=scale)
    dstem = ctx.keep("strategy_differences", t.differences)
    s.add(Table(pd.DataFrame({
        "A - B": shown["first"] + " - " + shown["second"],
        f"{W.METRIC_TITLES.get(objective, objective)} difference [95% CI]":
            W.intervals(shown["diff"], shown["ci_low"], shown["ci_high"], scale, sign=True),
        "p (Holm)": shown["p_holm"].map(W.p_text)}),
        "Paired differences between strategies (same matches, every lineup)", dstem))
    s.add(ctx.figure("equity", lambda ax: F.equity_bars(eq, "score", by="strategy", ax=ax),
                     "Mean match score by strategy over every lineup, with 95% intervals",
                     stem))
    s.add(ctx.figure("win_share", lambda ax: F.win_share_bars(eq, by="strategy", ax=ax,
                                                              fair=fair),
                     "Win share by strategy over every lineup, with 95% intervals (ties "
                     "split)", stem))
    return s


def positions_of(ctx: Context) -> tuple[tuple[int, ...], ...]:
    """The tournament's positions: the seats, or the sides of a partnership game."""
    from analysis.design import positions
    return positions(ctx.game, ctx.n_seats)


def tournament_table(t: Tournament) -> pd.DataFrame:
    """One row per strategy, best first: each metric ``mean [95% CI]`` (the same decimals
    down a column) and P(best)."""
    out = pd.DataFrame({"strategy": t.frame["name"],
                        "matches": t.frame["matches"].map(lambda v: f"{int(v):,}")})
    for metric in t.per_match:
        out[W.METRIC_TITLES.get(metric, metric)] = W.intervals(
            t.frame[metric], t.frame[f"{metric}_ci_low"], t.frame[f"{metric}_ci_high"],
            100.0 if metric == "win" else 1.0)
    out["P(best)"] = t.frame["p_best"].map(lambda v: W.num(v, 2))
    return out


def search_notes(t: Tournament) -> list[str]:
    """A note for each search policy of the field that does not beat, with significance,
    the same strategy with the search replaced by its own playout policy, where the field
    holds that strategy too (a search that loses to its playouts is a bug to report)."""
    import strategies as strategies_

    gs = strategies_.for_game(t.game)
    label = dict(zip(t.frame["name"], t.frame["strategy"]))
    parsed = {name: gs.parse(label[name]) for name in t.names}
    diffs = t.differences[t.differences["metric"] == t.metric]
    notes = []
    for name, strategy in parsed.items():
        for policy, _ in strategy.choices:
            playout = policy.playout
            if not playout:
                continue
            twin = [other for other, o in parsed.items() if other != name and all(
                (p.name == playout if p.decision == policy.decision else (p, v) == (q, w))
                for (p, v), (q, w) in zip(o.choices, strategy.choices))]
            for other in twin:
                row = diffs[((diffs["first"] == name) & (diffs["second"] == other))
                            | ((diffs["first"] == other) & (diffs["second"] == name))].iloc[0]
                ahead = row["first"] == name and row["p_holm"] < 0.05 and row["diff"] > 0
                if not ahead:
                    notes.append(f"{name} searches with {policy.name}, whose playouts use "
                                 f"{playout}, yet it does not beat {other} here (Holm "
                                 f"{W.p_text(row['p_holm'])}): at these settings the search adds "
                                 f"nothing measurable, or it has a fault.")
    return notes


def scores_section(ctx: Context) -> Section:
    s = Section("scores", "Score distributions")
    seats = ctx.tournament().seats if ctx.multi else ctx.run("field").seats
    if ctx.multi:
        s.text("Every match score of every strategy in every lineup of the tournament.")
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
    eq = T.equity(seats, metrics=("win",), shares=ctx.g.share_metrics)
    wins = eq[eq["by"] == "seat"].reset_index(drop=True)
    stem = ctx.keep("seat_effect", eff.merge(
        wins[["name", "mean", "ci_low", "ci_high"]].rename(
            columns={"mean": "win", "ci_low": "win_ci_low", "ci_high": "win_ci_high"}).assign(
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
        f"{W.seat_label(top['name'])}, "
        f"wins {W.estimate(top['mean'], top['ci_low'], top['ci_high'], 100, '%')}"))
    shown = pd.DataFrame({"seat": eff["seat"].astype(str),
                          "mean score": eff["mean"].map(lambda v: W.num(v, 2)),
                          "advantage [95% CI]": W.intervals(eff["diff"], eff["ci_low"],
                                                            eff["ci_high"], sign=True),
                          "p": eff["p_value"].map(W.p_text),
                          "win share, % [95% CI]": W.intervals(wins["mean"], wins["ci_low"],
                                                               wins["ci_high"], 100)})
    s.add(Table(shown, "Each seat against the table mean in the same match", stem))
    s.add(ctx.figure("seat_effect", lambda ax: F.seat_effect_bars(eff, ax=ax,
                                                                  unit=ctx.spec.score_unit),
                     "Seat advantage in match score with 95% intervals", stem))
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
