"""The generic tuning section: a best-response curve along one parameter of the
default strategy, paired by match against the parameter's default value."""

from __future__ import annotations

import pandas as pd

from analysis.stats import mean_ci
from reports import figures as F
from reports import text as W
from reports.context import Context
from reports.document import Section, Table


def tuning_matches(ctx: Context) -> int:
    """Matches per seat of the best-response curve (``Tuning.share`` of ``n`` in all)."""
    return ctx.size(ctx.spec.tuning.share / ctx.n_seats, 64)


def tuning_section(ctx: Context) -> Section | None:
    """Best response along one parameter: the tuned seat's score and win share at each
    grid value, paired by match against the parameter's default value."""
    from analysis.stats import paired_difference

    t = ctx.spec.tuning
    if t is None:
        return None
    n = tuning_matches(ctx)
    s = Section("tuning", f"Best response: tuning {t.strategy}'s {t.param}")
    default = ctx.default_label
    ctx.provenance["tuning"] = {"strategy": t.strategy, "param": t.param, "grid": list(t.grid),
                                "n": n, "seats": "each in turn", "opponents": default}
    rows, series = [], {}
    for k, value in enumerate(t.grid):
        ctx.status(f"best response {k + 1}/{len(t.grid)} ({n:,} matches x {ctx.n_seats} seats)")
        d = ctx.deviation(f"{t.strategy}:{t.param}={value:g}", n)
        series[value] = d["score"]
        m, lo, hi = mean_ci(d["score"])
        w, wlo, whi = mean_ci(d["win"], share_of=ctx.n_seats)
        rows.append({"action": f"{value:g}", t.param: value, "mean": m, "ci_low": lo,
                     "ci_high": hi, "win": w, "win_ci_low": wlo, "win_ci_high": whi})
    frame = pd.DataFrame(rows)
    from strategies import for_game  # the parameter's default, for the paired comparison
    prm = next(q for p in for_game(ctx.game).policies if p.name == t.strategy.split(":")[0]
               for q in p.params if q.name == t.param)
    ref = min(t.grid, key=lambda v: abs(v - prm.default))
    diffs = [paired_difference(series[ref], series[v]) for v in t.grid]
    frame["diff"] = [d["diff"] for d in diffs]
    frame["diff_ci_low"] = [d["ci_low"] for d in diffs]
    frame["diff_ci_high"] = [d["ci_high"] for d in diffs]
    frame["p_value"] = [d["p_value"] for d in diffs]
    stem = ctx.keep("tuning", frame)
    best = frame.loc[frame["mean"].idxmax()]
    unit = ctx.spec.score_unit
    s.text((t.question + " " if t.question else "")
           + f"One player plays {t.strategy} with {t.param} set to each value below, every "
             f"other seat {default}; it sits in each of the {ctx.n_seats} seats in turn on the "
             f"same {n:,} matches, so no seat's advantage enters, and a match's value is its "
             f"mean over those seats. The same deals for every value: differences are "
             f"paired by match.")
    edge = (" (the largest value tried)" if best[t.param] == max(t.grid) else
            " (the smallest value tried)" if best[t.param] == min(t.grid) else "")
    text = (f"against {default} in the other seats, {t.param} = {best[t.param]:g}{edge} scores "
            f"most: {W.estimate(best['mean'], best['ci_low'], best['ci_high'], unit=f' {unit} per match')}")
    if best[t.param] != ref:
        text += "; " + W.difference("it", best["diff"], best["diff_ci_low"], best["diff_ci_high"],
                                    other=f"the default {t.param} = {ref:g}", unit=unit,
                                    p=best["p_value"])
    won = W.estimate(best['win'], best['win_ci_low'], best['win_ci_high'], 100, '% of the matches')
    text += (f", and wins {won}"
             f" against a fair share of {W.share(1 / ctx.n_seats)}")
    s.reading(W.sentence(text))
    shown = pd.DataFrame({t.param: frame["action"],
                          "mean score [95% CI]": W.intervals(frame["mean"], frame["ci_low"],
                                                             frame["ci_high"]),
                          f"vs {t.param} = {ref:g} [95% CI]": W.intervals(
                              frame["diff"], frame["diff_ci_low"], frame["diff_ci_high"], sign=True),
                          "win share, % [95% CI]": W.intervals(
                              frame["win"], frame["win_ci_low"], frame["win_ci_high"], 100)})
    s.add(Table(shown, f"The tuned player's result for each {t.param} (every seat in turn)",
                stem))
    s.add(ctx.figure("tuning", lambda ax: F.bid_ev_curve(
        frame, ax=ax, title=f"Best response: {t.strategy}'s {t.param} against {default}",
        xlabel=t.param, ylabel="mean match score of the tuned player (95% band)"),
        f"Mean match score of the tuned player for each {t.param} (95% band); the best is "
        f"ringed", stem))
    return s
