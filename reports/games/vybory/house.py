"""vybory's house-variants section: the default rules against each variant on the same
tours, per-deal figures paired by tour, with fixed strategies and re-solved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reports import resolved as R

if TYPE_CHECKING:
    import pandas as pd

    from reports.document import Section


HOUSE_METRICS = (
    ("win", "attackers win, % of deals", 100.0, "percentage points"),
    ("draw", "drawn, % of deals", 100.0, "percentage points"),
    ("margin", "attackers' margin, points per deal", 1.0, "points"),
    ("calls", "election length, calls per deal", 1.0, "calls"),
    ("late", "types 6-8 played, % of deals", 100.0, "percentage points"),
)
"""(key, title, display scale, unit of a change)."""
HOUSE_SUBJECTS = {"win": "the attackers' share of deals won", "draw": "the share of draws",
                  "margin": "the attackers' mean margin", "calls": "the election's length",
                  "late": "the share of deals played in types 6-8"}


def house_frame(base: pd.DataFrame, runs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`analysis.vybory.house_effects` of :data:`HOUSE_METRICS`, with their titles."""
    from analysis import vybory as V

    frame = V.house_effects(base, runs, [key for key, _, _, _ in HOUSE_METRICS])
    titles = {key: title for key, title, _, _ in HOUSE_METRICS}
    frame.insert(2, "title", frame["metric"].map(titles))
    return frame


def house_section(ctx) -> Section:
    """The default rules against each house variant on the same tours, default
    strategies everywhere: what the rule does to the deals themselves."""
    import pandas as pd

    from analysis.runs import simulate
    from reports import text as W
    from reports.document import Section, Table
    from reports.spec import Variant

    s = Section("house", "House rules: what each one does to the deals")
    variants = ctx.spec.variants or ()
    n = min(ctx.size(ctx.spec.variant_share), 100_000)
    s.text(f"The same {n:,} tours ({n * int(ctx.rules['deals_per_match']):,} deals, same "
           f"seed) under the default rules and under each variant, {ctx.default_label} in "
           f"every seat. Each figure is per deal; each change is paired by tour (intervals "
           f"from the tours' linearised contributions). The policies do not know the rule "
           f"unless it changes what a type is worth (\"what if nobody adapts\").")
    tables = {}
    for k, v in enumerate((Variant({}),) + tuple(variants)):
        ctx.status(f"house rules {k + 1}/{len(variants) + 1} ({n:,} tours)")
        run = simulate(ctx.game, n, seed=ctx.seed, rules={**ctx.spec.rules, **v.rules},
                       detail=True, progress=False)
        tables[v.label] = run.table("deals")
    base = tables.pop("default")
    frame = house_frame(base, tables)
    stem = ctx.keep("house", frame)
    units = {k: (sc, u) for k, _, sc, u in HOUSE_METRICS}
    _house_readings(s, frame, variants, units, "")
    adapted = _resolved(ctx, s, variants, n, units)
    shown = pd.DataFrame({
        "variant": frame["variant"], "figure": frame["title"],
        "default": [W.num(r.default * units[r.metric][0], 2) for r in frame.itertuples()],
        "variant value": [W.num(r.value * units[r.metric][0], 2) for r in frame.itertuples()],
        "change [95% CI]": [W.interval(r.diff, r.ci_low, r.ci_high, units[r.metric][0], sign=True)
                            for r in frame.itertuples()],
        "p": frame["p_value"].map(W.p_text)})
    title = "Each house rule against the default rules: per-deal figures and their change, " \
            "paired by tour"
    if adapted is not None:
        cells = [R.cells(adapted, r.variant, r.metric, units[r.metric][0])
                 for r in frame.itertuples()]
        shown = pd.concat([shown, pd.DataFrame(cells)], axis=1)
        title += (", with fixed strategies and re-solved (every seat playing the solution for "
                  "the rules in force)")
    s.add(Table(shown, title, stem))
    return s


def _house_readings(s, frame, variants, units, prefix: str) -> None:
    """A sentence per variant: its largest detectable changes (``prefix``: which
    reading, e.g. ``re-solved, ``)."""
    from reports import text as W

    for v in variants:
        part = frame[frame["variant"] == v.label]
        if part.empty:
            continue
        lead = f"{prefix}with {v.label}"
        if (part[["diff", "ci_low", "ci_high"]].abs() < 1e-12).all().all():
            s.reading(W.sentence(lead + ": none of these figures changes in any tour, so with "
                                        "these strategies the rule changes only the scores"))
            continue
        moved = part[[W.significant(r.ci_low, r.ci_high) for r in part.itertuples()]]
        if moved.empty:
            s.reading(W.sentence(lead + ": none of these figures changes detectably"))
            continue
        half = (moved["ci_high"] - moved["ci_low"]) / 2
        moved = moved.assign(t=moved["diff"].abs() / half.where(half > 0)).sort_values(
            "t", ascending=False).head(3)
        parts = []
        for r in moved.itertuples():
            scale, unit = units[r.metric]
            pct = "%" if scale == 100 else ""
            d, lo, hi = r.diff * scale, r.ci_low * scale, r.ci_high * scale
            places = max(1, W.places_for(lo, hi, d))
            parts.append(f"{HOUSE_SUBJECTS[r.metric]} goes from {W.num(r.default * scale, places)}"
                         f"{pct} to {W.num(r.value * scale, places)}{pct} ({W.num(d, places, True)} "
                         f"{unit}, 95% CI {W.num(lo, places, True)} to {W.num(hi, places, True)}, "
                         f"{W.p_text(r.p_value)})")
        s.reading(W.sentence(lead + ", " + W.join(parts)))


def _resolved(ctx, s, variants, n: int, units) -> pd.DataFrame | None:
    """The re-solved reading (:func:`reports.resolved.house`) of vybory's house section."""
    def frame_of(runs):
        tables = {label: run.table("deals") for label, run in runs.items()}
        base = tables.pop("default")
        return house_frame(base, tables)

    return R.house(ctx, s, variants, n, "tours", frame_of,
                   lambda frame, shown: _house_readings(s, frame, shown, units, "re-solved, "))
