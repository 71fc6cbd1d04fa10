"""The generic optimal-bid section: bid-EV at moments of real matches (``GameSpec``'s
situations), with the candidates that change nothing grouped into one row."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports import figures as F
from reports import text as W
from reports.context import Context
from reports.document import Section, Table


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
        s.subhead(sit.title)
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
