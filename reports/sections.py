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
from analysis.stats import mean_ci
from analysis.tournament import Tournament
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
        self._tournament: Tournament | None = None
        self._deviations: dict[tuple[str, int], dict[str, np.ndarray]] = {}
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
    def entries(self) -> list[str]:
        """The field's distinct strategies, in seat order: the tournament's entries."""
        labels = seat_strategies(self.game, self.rules, self.field).labels
        return list(dict.fromkeys(labels))

    @property
    def multi(self) -> bool:
        """The field holds more than one strategy."""
        return len(self.entries) > 1

    def tournament(self) -> Tournament:
        """The field's strategies in a duplicate tournament (every strategy in every seat
        equally often, on the same matches), with every lineup's seat rows kept."""
        if self._tournament is None:
            from analysis.tournament import design, positions, tournament
            entries = self.entries
            lineups = len(design(len(entries), len(positions(self.game, self.n_seats))).lineups)
            share = self.spec.tournament_share
            m = self.size(share if share is not None else 1 / lineups, 64)
            self.status(f"tournament of {len(entries)} strategies ({m:,} matches x "
                        f"{lineups} lineups)")
            self._tournament = tournament(self.game, entries, m, seed=self.seed,
                                          rules=dict(self.spec.rules), keep_seats=True)
            self.provenance["tournament"] = self._tournament.provenance
        return self._tournament

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

    def deviation(self, strategy: str, m: int) -> dict[str, np.ndarray]:
        """One player of ``strategy`` among the default strategy, sitting in every seat in
        turn on matches ``0..m-1``: per match, the mean over its seats of its ``score``,
        ``win`` and ``lead`` (its score minus the mean of the others at its table), so
        that no seat's advantage enters a best-response curve."""
        key = (strategy, m)
        if key not in self._deviations:
            out = {k: np.zeros(m) for k in ("score", "win", "lead")}
            for seat in range(self.n_seats):
                run = simulate(self.game, m, seed=self.seed, rules=dict(self.spec.rules),
                               strategies=[f"{seat}={strategy}"], progress=False)
                rows = run.seats.sort_values(["match", "seat"], kind="stable")
                score = rows["score"].to_numpy(np.float64).reshape(m, self.n_seats)
                win = rows["win"].to_numpy(np.float64).reshape(m, self.n_seats)
                mine = score[:, seat]
                out["score"] += mine / self.n_seats
                out["win"] += win[:, seat] / self.n_seats
                out["lead"] += (mine - (score.sum(axis=1) - mine) / (self.n_seats - 1)) \
                    / self.n_seats
            self._deviations[key] = out
        return self._deviations[key]

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
        out[METRIC_TITLES.get(metric, metric)] = W.intervals(
            part["mean"], part["ci_low"], part["ci_high"], 100.0 if metric == "win" else 1.0)
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
        f"{METRIC_TITLES.get(objective, objective)} difference [95% CI]":
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
    from analysis.tournament import positions
    return positions(ctx.game, ctx.n_seats)


def tournament_table(t: Tournament) -> pd.DataFrame:
    """One row per strategy, best first: each metric ``mean [95% CI]`` (the same decimals
    down a column) and P(best)."""
    out = pd.DataFrame({"strategy": t.frame["name"],
                        "matches": t.frame["matches"].map(lambda v: f"{int(v):,}")})
    for metric in t.per_match:
        out[METRIC_TITLES.get(metric, metric)] = W.intervals(
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
        f"{_seat_label(top['name'])}, "
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


def tuning_matches(ctx: Context) -> int:
    """Matches per seat of the best-response curve (``Tuning.share`` of ``n`` in all)."""
    return ctx.size(ctx.spec.tuning.share / ctx.n_seats, 64)


def tuning_section(ctx: Context) -> Section | None:
    """Best response along one parameter: the tuned seat's score and win share at each
    grid value, paired by match against the parameter's default value."""
    from analysis.stats import mean_ci, paired_difference

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
        sit, screened = _where_it_matters(ctx, sit, k, max(200, rollouts // 25))
        res = bid_ev(ctx.game, dict(sit.state), rollouts=rollouts, seed=ctx.seed + k,
                     rules=dict(ctx.spec.rules),
                     candidates=list(sit.candidates) if sit.candidates else None)
        stem = ctx.keep(f"bidev_{k + 1}", res.frame)
        frame = res.grouped()  # candidates that change nothing as one row
        ctx.provenance["bidev"].append(res.provenance)
        s.add(_h4(sit.title))
        outcomes = res.outcomes
        tell = res.situation.get("calls_tell")
        told = res.points_told()
        s.text(" ".join(filter(None, [sit.question, screened, tell and (
            f"The hidden hands of {W.join(tell)} are dealt only where "
            f"{ctx.default_label} makes the calls they made."), told and (
            "The hidden hands are dealt only with the points their coins tell (A3).")])))
        by_win = res.metric == "win"
        noun = outcomes["score"]
        best = frame.loc[[res.best in a for a in frame["actions"]], "action"].iloc[0]
        s.reading(W.sentence(_bidev_reading(frame, best, ctx.spec.score_unit, by_win, noun,
                                            outcomes, rollouts)))
        if by_win:
            cols = {"action": frame["action"].astype(str),
                    f"{outcomes['win']}, % [95% CI]": [
                        W.interval(r.mean, r.ci_low, r.ci_high, 100) for r in frame.itertuples()],
                    f"expected {outcomes['score']} [95% CI]": [
                        W.interval(r.score, r.score_ci_low, r.score_ci_high) for r in frame.itertuples()],
                    "vs best, % points [95% CI]": [
                        W.interval(r.diff_vs_best, r.diff_ci_low, r.diff_ci_high, 100, sign=True)
                        for r in frame.itertuples()],
                    "P(best)": frame["p_best"].map(lambda v: W.num(v, 2))}
            s.add(Table(pd.DataFrame(cols), f"{sit.title}: candidates", stem))
            s.add(ctx.figure(f"bidev_{k + 1}", lambda ax, f=frame, b=best, t=sit.title,
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
                f"{outcomes['win']}, % [95% CI]": [W.interval(r.win, r.win_ci_low, r.win_ci_high, 100)
                                                   for r in frame.itertuples()],
                "vs best [95% CI]": [W.interval(r.diff_vs_best, r.diff_ci_low, r.diff_ci_high, sign=True)
                                     for r in frame.itertuples()]}
        for name, title in outcomes.items():           # further outcomes (bridge: IMPs)
            if name not in ("score", "win") and {name, f"{name}_ci_low", f"{name}_ci_high"} <= set(frame):
                cols[f"{title} [95% CI]"] = [W.interval(m, lo, hi, sign=True) for m, lo, hi
                                             in zip(frame[name], frame[f"{name}_ci_low"],
                                                    frame[f"{name}_ci_high"])]
        cols["P(best)"] = frame["p_best"].map(lambda v: W.num(v, 2))
        s.add(Table(pd.DataFrame(cols), f"{sit.title}: candidates", stem))
        s.add(ctx.figure(f"bidev_{k + 1}", lambda ax, f=frame, b=best, t=sit.title:
                         F.bid_ev_curve(f, ax=ax, best=b, title=t),
                         f"{sit.title}: expected {noun} of each candidate (95% band of the "
                         f"mean; the differences between candidates are paired, so much "
                         f"narrower: see the table)", stem))
    return s


def _where_it_matters(ctx: Context, sit, k: int, rollouts: int):
    """``sit`` or the one of its ``alternatives`` where the call matters most: the
    largest gap that a screen of ``rollouts`` rollouts each is sure of (95%) between the
    best candidate and the worst. Returns it and a sentence on the choice ("" when there
    was none to make)."""
    from analysis.bidev import bid_ev

    pool = (sit, *sit.alternatives)
    if len(pool) == 1:
        return sit, ""
    gaps = []
    for j, option in enumerate(pool):
        ctx.status(f"bid-EV {k + 1}: screening moment {j + 1}/{len(pool)}")
        f = bid_ev(ctx.game, dict(option.state), rollouts=rollouts, seed=ctx.seed + k,
                   rules=dict(ctx.spec.rules),
                   candidates=list(option.candidates) if option.candidates else None).frame
        gaps.append(float((-f["diff_ci_high"]).max()))
    best = int(np.argmax(gaps))
    scale, unit = ((100.0, " percentage points") if ctx.g.bidev_metric == "win" else
                   (1.0, " " + ctx.spec.score_unit))
    if gaps[best] <= 0:
        return sit, (f"In none of the {len(pool)} moments of this kind in the report's "
                     f"matches does a screen of {rollouts:,} rollouts each find one call "
                     f"surely worse than another, so this is the first of them.")
    return pool[best], (
        f"This moment was chosen among {len(pool)} of its kind in the report's matches as "
        f"the one where the call matters most: a screen of {rollouts:,} rollouts each finds "
        f"the worst candidate at least {W.num(max(gaps[best], 0) * scale, 2)}{unit} behind "
        f"the best here (95% lower bound).")


def _bidev_reading(frame: pd.DataFrame, best: str, unit: str, by_win: bool = False,
                   noun: str = "match score", outcomes: dict[str, str] | None = None,
                   rollouts: int = 0) -> str:
    """The best candidate (or group of candidates that give the same outcome in every
    rollout), its margin over passing and over the next best, and how sure that is.
    ``frame``: :meth:`analysis.bidev.BidEV.grouped`; ``by_win``: its ``mean`` is the win
    share of the game. ``noun``: what ``mean`` is the mean of otherwise."""
    outcomes = outcomes or {"win": "win share", "score": "match score"}
    row = frame[frame["action"] == best].iloc[0]
    value = (W.estimate(row["mean"], row["ci_low"], row["ci_high"], 100, "%") if by_win else
             W.estimate(row["mean"], row["ci_low"], row["ci_high"], unit=" " + unit))
    what = outcomes["win"] if by_win else f"expected {noun}"
    if len(frame) == 1:
        return (f"every candidate gives exactly the same {noun} in every one of the "
                f"{rollouts:,} rollouts ({value}): nothing called here changes the outcome")
    if row["size"] > 1:
        text = (f"any of {best} gives the highest {what}, {value}: these "
                f"{row['size']} candidates give the same outcome in every one of the "
                f"{rollouts:,} rollouts, so which of them is made changes nothing here")
    else:
        text = f"{best} has the highest {what}, {value}"
    if by_win:
        text += f", with an expected {outcomes['score']} of {W.num(row['score'], 2)}"
        words = dict(verb="wins", unit="percentage points", more="more often",
                     less="less often", scale=100)
    else:
        words = dict(unit=unit)
    subject = "it" if row["size"] > 1 else best
    passing = frame[["pass" in a for a in frame["actions"]]]
    others = [("passing", passing.iloc[0])] if len(passing) and passing.iloc[0]["action"] != best else []
    rest = frame[(frame["action"] != best) & ~frame["action"].isin(passing["action"])]
    if len(rest):
        near = rest.loc[rest["diff_vs_best"].idxmax()]
        others.append((str(near["action"]), near))
    for other, r in others:
        text += "; " + W.difference(subject, -r["diff_vs_best"], -r["diff_ci_high"], -r["diff_ci_low"],
                                    other=_group_words(r) if other != "passing" else other,
                                    **words)
    return text + (f"; it is the best candidate in {W.share(row['p_best'], 0)} of bootstrap "
                   f"resamples of the rollouts")


def _group_words(row) -> str:
    """A row of :meth:`analysis.bidev.BidEV.grouped` in a sentence: ``bid 4``, ``bid 1 or
    bid 4``, ``any of bid 1..29``."""
    if row["size"] == 1:
        return str(row["action"])
    return " or ".join(row["actions"]) if row["size"] == 2 else f"any of {row['action']}"


def _h4(title: str):
    from reports.document import Paragraph
    return Paragraph(title, "subhead")


def _variant_rows(rows: list[dict], part: pd.DataFrame, label: str, by: str) -> None:
    for metric in ("score", "win"):
        sub = part[(part["by"] == by) & (part["metric"] == metric)]
        scale = 100.0 if metric == "win" else 1.0
        cells = W.intervals(sub["diff"], sub["ci_low"], sub["ci_high"], scale, sign=True)
        places = W.column_places(sub["ci_low"] * scale, sub["ci_high"] * scale)
        for r, cell in zip(sub.itertuples(), cells):
            same = W.all_zero(r.diff, r.ci_low, r.ci_high)  # not one match changes
            rows.append({"variant": label, "metric": METRIC_TITLES.get(metric, metric)
                         + (", %" if metric == "win" else ""),
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
