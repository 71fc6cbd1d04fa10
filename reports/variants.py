"""The generic house-variants section: the field's tournament under each variant of
the spec, every metric's change paired by match against the default rules; for a game
with a solver, beside it the re-solved reading (:mod:`reports.resolved`): the same
matches with every seat playing the solution for the variant's own rules."""

from __future__ import annotations

import pandas as pd

from analysis.spec import make_rules
from reports import figures as F
from reports import resolved as R
from reports import text as W
from reports.context import Context
from reports.document import Section, Table
from reports.spec import Variant, generic_variants
from sim.errors import BidlabError


def _variant_rows(rows: list[dict], part: pd.DataFrame, label: str, by: str) -> None:
    for metric in ("score", "win"):
        sub = part[(part["by"] == by) & (part["metric"] == metric)]
        scale = 100.0 if metric == "win" else 1.0
        cells = W.intervals(sub["diff"], sub["ci_low"], sub["ci_high"], scale, sign=True)
        places = W.column_places(sub["ci_low"] * scale, sub["ci_high"] * scale)
        for r, cell in zip(sub.itertuples(), cells):
            same = W.all_zero(r.diff, r.ci_low, r.ci_high)  # not one match changes
            rows.append({"variant": label, "metric": W.METRIC_TITLES.get(metric, metric),
                         by: r.name, "value": W.num(r.value * scale, places),
                         "change [95% CI]": W.ZERO if same else cell,
                         "p": "" if same else W.p_text(r.p_value)})


def variants_section(ctx: Context) -> Section:
    from analysis.compare import compare

    s = Section("variants", "House variants: what changes if you play it differently")
    variants: tuple[Variant, ...] = (ctx.spec.variants if ctx.spec.variants is not None
                                     else generic_variants(ctx.game))
    if not variants:
        s.note(f"No house variants to compare for {ctx.game}.")
        return s
    multi = ctx.multi
    by = "strategy" if multi else "seat"
    unit = ctx.spec.score_unit
    if multi:
        frame, n = _variant_tournaments(ctx, variants)
        t = ctx.tournament()
        s.text(f"The field's tournament (its {len(t.design.lineups)} lineups on the same "
               f"{n:,} matches) under each rule set; every strategy's change is paired by "
               f"match against the rules of this report (\"default\"), so neither seats nor "
               f"cards enter it.")
    else:
        n = ctx.size(ctx.spec.variant_share)
        ctx.status(f"comparing {len(variants)} variants ({n:,} matches each)")
        res = compare(ctx.game, ["default"] + [v.label for v in variants], n, seed=ctx.seed,
                      rules=dict(ctx.spec.rules), progress=False)
        ctx.provenance["variants"] = res.provenance
        frame = res.frame
        s.text(f"The same {n:,} matches (same seed, so the same deals) under each rule set, "
               f"with {ctx.default_label} in every seat; every change is paired by match "
               f"against the rules of this report (\"default\").")
    base = "default"
    stem = ctx.keep("variants", frame)
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
        who = big["name"] if multi else W.seat_label(big["name"])
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
    if "house" not in ctx.spec.sections:    # pitch's and vybory's house sections show it
        _resolved(ctx, s, variants)
    return s


def _resolved(ctx: Context, s: Section, variants: tuple[Variant, ...]) -> None:
    """The re-solved reading: the same matches with every seat playing the solution for
    the variant's own rules (players who adapt), for the variants that have one, seat by
    seat; a note names the others with the command that solves each. Nothing for a game
    without a solver."""
    from analysis.compare import compare

    p = R.plan(ctx, variants)
    if p is None:
        return
    shown = p.variants(variants)
    s.subhead("Re-solved: players who adapt")
    s.text(R.intro(p, shown, "rows below"))
    if shown:
        n = ctx.size(ctx.spec.variant_share)
        ctx.status(f"re-solved variants: {len(shown)} ({n:,} matches each)")
        res = compare(ctx.game, ["default"] + [v.label for v in shown], n, seed=ctx.seed,
                      rules=dict(ctx.spec.rules), solved=True, progress=False)
        ctx.provenance["variants_resolved"] = res.provenance
        frame = res.frame
        stem = ctx.keep("variants_resolved", frame)
        rows: list[dict] = []
        for v in shown:
            part = frame[frame["variant"] == v.label]
            _variant_rows(rows, part, v.label, "seat")
            every = part[(part["metric"] == "score") & (part["by"] == "strategy")].iloc[0]
            s.reading(W.sentence(f"re-solved, with {v.label}, " + W.change(
                "a player's mean score", every["diff"], every["ci_low"], every["ci_high"],
                unit=ctx.spec.score_unit, p=every["p_value"])
                + _other_changes(part, every)
                + " (every seat playing the solution; the seats' rows are in the table)"))
        s.add(Table(pd.DataFrame(rows), f"Re-solved: each variant against the default rules, "
                    f"every seat playing {p.strategy} for the rules in force ({n:,} matches, "
                    f"paired by match; win share in percentage points)", stem))
    note = R.missing_note(ctx, p)
    if note:
        s.note(note)


def _other_changes(part: pd.DataFrame, score) -> str:
    """Where every seat plays one solution and the mean score cannot move (a race: one
    win shared out in every match), the game's other figures that do, in words."""
    if not W.all_zero(score["diff"], score["ci_low"], score["ci_high"]):
        return ""
    others = part[(part["by"] == "strategy") & ~part["metric"].isin(["score", "win"])]
    moved = []
    for r in others.itertuples():
        if W.significant(r.ci_low, r.ci_high):
            name = r.metric.replace("_", " ")
            plural = name.endswith("s")              # "face cards", not "money spent"
            moved.append(W.change(f"its {name}", r.diff, r.ci_low, r.ci_high, unit="a match",
                                  p=r.p_value, up="rise" if plural else "rises",
                                  down="drop" if plural else "drops"))
    return (" (one result shared out in every match), but " + W.join(moved)) if moved else ""


def _variant_tournaments(ctx: Context, variants: tuple[Variant, ...]) -> tuple[pd.DataFrame, int]:
    """The field's tournament under the default rules and each variant, on the same
    matches: (:func:`analysis.tournament.compare_tournaments`'s frame, matches)."""
    from analysis.tournament import compare_tournaments, tournament

    lineups = len(ctx.tournament().design.lineups)
    m = ctx.size(ctx.spec.variant_share / lineups, 64)
    runs = {}
    for k, v in enumerate((Variant({}),) + tuple(variants)):
        ctx.status(f"variant {k + 1}/{len(variants) + 1}: tournament ({m:,} matches x "
                   f"{lineups} lineups)")
        rules = {**ctx.spec.rules, **v.rules}
        if ctx.g.n_seats(make_rules(ctx.game, rules)) != ctx.n_seats:
            raise BidlabError(f"report variant {v.label}: it changes the number of seats, "
                              f"so the field's tournament cannot be paired with the "
                              f"default's; compare it with `bidlab compare` instead")
        runs[v.label] = tournament(ctx.game, ctx.entries, m, seed=ctx.seed, rules=rules)
    ctx.provenance["variants"] = {"n": m, "lineups": lineups,
                                  "rules": {k: t.provenance["rules"] for k, t in runs.items()}}
    return compare_tournaments(runs), m
