"""The report's "Solved bidding" section, for every game ``bidlab solve`` solves: the
shipped solution's provenance, its held-out exploitability curve, a strategy chart a
player can read, a duplicate tournament of the solution against the game's default
hand-written bidder, and the report's first bid-EV situation against solved players."""

from __future__ import annotations

import pandas as pd

from analysis import solved as AS
from reports import figures as F
from reports import text as W
from reports.document import Section, Table


def challenger(game: str, rules) -> str:
    """The hand-written strategy the solution meets in the section's tournament: fpsb's
    linear bidder at the known equilibrium (so the two should tie), pitch's default."""
    if game == "fpsb":
        n = int(rules["players"])
        return f"linear:a={(n - 1) / n:.4g}"
    if game == "auktsion":
        return "budget"
    if game == "aukcio":
        return "setvalue"
    return "basic"
SOLVED = {"fpsb": "solved", "pitch": "solved+greedy", "vybory": "solved+greedy",
          "auktsion": "solved", "aukcio": "solved"}


def solved_section(ctx) -> Section:
    s = Section("solved", "Solved bidding: an approximate equilibrium")
    solution, path = AS.load(ctx.game, ctx.rules)
    meta, a = solution.meta, solution.abstraction
    curve = AS.curve(solution)
    last = curve.iloc[-1]
    s.text(f"`bidlab solve {ctx.game}` computed this solution ({meta['method']}; "
           f"{meta['iterations']:,} iterations, seed {meta['seed']}) on the abstraction "
           f"{a['name']} version {a['version']}: {a['infosets']:,} information sets of "
           f"{a['actions']} actions. The policy `solved` plays it (file {path}). Its "
           f"exploitability is measured on deals the solver never trained on: the gain of "
           f"a best response in the abstract game over the solution's own payoff.")
    gain = _small(last["value"], last["ci_low"], last["ci_high"])
    if "in_sample" in last and last["in_sample"] == last["in_sample"]:
        gain = (f"between {gain} (a best response chosen on held-out deals, scored on "
                f"others: a lower estimate) and {W.num(last['in_sample'], 4)} (the exact best "
                f"response of those deals, scored on them: an upper estimate)")
    s.reading(W.sentence(f"after {meta['iterations']:,} iterations a best response gains "
                         f"{gain} {last.get('unit', '')} over the solution"))
    stem = ctx.keep("solved_curve", curve)
    s.add(ctx.figure("solved_curve", lambda ax: F.exploitability_curve(
        curve, ax=ax, unit=str(last.get("unit", ""))),
        "Held-out exploitability against iterations (95% band)", stem))
    _chart(ctx, s, solution)
    _match(ctx, s)
    _bidev(ctx, s)
    return s


def _chart(ctx, s: Section, solution) -> None:
    frame = AS.chart(solution)
    stem = ctx.keep("solved_chart", frame)
    if ctx.game == "fpsb":
        rmse = float(((frame["mean_bid"] - frame["equilibrium"]) ** 2).mean() ** 0.5)
        s.reading(W.sentence(f"the solved bid function lies {rmse:.4f} (root mean square "
                             f"over the value cells) from the equilibrium (n-1)/n x value"))
        s.add(ctx.figure("solved_bids", lambda ax: F.bid_function(frame, ax=ax),
                         "The solution's bid against its value, and the equilibrium line",
                         stem))
        return
    if ctx.game == "vybory":
        for i, speaker in enumerate(frame["speaker"].unique()):
            part = frame[frame["speaker"] == speaker]
            s.add(ctx.figure(f"solved_calls_{i}", lambda ax, part=part, speaker=speaker:
                             F.call_heatmap(part, AS.KINDS, ax=ax, title=f"Announcements of the "
                                            f"{speaker}", ylabel="worth of the hand's best new "
                                            "type (bucket mean)"),
                             f"Which type with which hand: the probability of each kind of "
                             f"announcement by the worth (the margin expected when the hand "
                             f"attacks it) of the hand's best type nobody has named; the "
                             f"{speaker}", stem))
        return
    if ctx.game == "auktsion":
        calls = AS.auktsion_actions()
        for i, view in enumerate(AS.AUKTSION_VIEWS):
            part = frame[frame["money"] == view]
            s.add(ctx.figure(f"solved_calls_{i}", lambda ax, part=part, view=view:
                             F.call_heatmap(part, calls, ax=ax, title=f"Ceilings, {view}",
                                            ylabel="the lot's points to the bidder"),
                             f"The price the solution will pay for a lot: the probability of "
                             f"each ceiling (a multiple of the lot's points x the bidder's "
                             f"coins per point still to come) by the lot's points, in the "
                             f"{view} of the match (averaged over the information sets the "
                             f"solver reached)",
                             stem))
        _auktsion_prices(ctx, s)
        return
    if ctx.game == "aukcio":
        _aukcio_chart(s, frame, stem)
        return
    calls = ["pass", "bid 1", "bid 2", "bid 3", "bid 4"]
    n = int(ctx.rules["players"])
    first = frame["score"].iloc[0]
    views = [(first, 0, 0, calls, "first to speak, no bid yet"),
             (first, n - 1, 0, calls, "dealer, no bid yet"),
             (first, n - 1, 2, ["pass", "bid 3", "bid 4", "hold"], "dealer facing a bid of 2")]
    views += [(score, 0, 0, calls, f"first to speak, no bid yet, {score}")
              for score in frame["score"].unique()[1:]]
    for i, (score, place, high, shown, what) in enumerate(views):
        part = frame[(frame["score"] == score) & (frame["place"] == place)
                     & (frame["high_bid"] == high)]
        s.add(ctx.figure(f"solved_calls_{i}", lambda ax, part=part, shown=shown, what=what:
                         F.call_heatmap(part, shown, ax=ax, title=f"Calls of the {what}"),
                         f"The probability of each call by the hand's strength: the {what}"
                         + (" (everyone far from the target)" if score == "start" else ""),
                         stem))


def _auktsion_prices(ctx, s: Section) -> None:
    """The price a lot fetches between solved players, against the points its buyer lays
    face up, in the first deal of the match and in the last (less money left to come)."""
    from analysis import tables as T
    from analysis.runs import simulate
    m = ctx.size(0.05, 1024)
    ctx.status(f"solved self-play: {m:,} matches")
    run = simulate("auktsion", m, seed=ctx.seed, rules=dict(ctx.spec.rules), detail=True,
                   strategies=["all=solved"])
    lots = run.table("lots")
    last = int(lots["deal"].max())
    for deal, what in ((0, "the first deal"), (last, "the last deal")):
        pv = T.price_vs_value(lots[lots["deal"] == deal])
        stem = ctx.keep(f"solved_price_vs_value_{deal}", pv)
        s.add(ctx.figure(f"solved_price_vs_value_{deal}", lambda ax, pv=pv:
                         F.price_value_line(pv, ax=ax),
                         f"Solved self-play ({m:,} matches): mean price against the points "
                         f"the buyer lays face up, in {what} (95% band)", stem))
def _aukcio_chart(s: Section, frame: pd.DataFrame, stem) -> None:
    """What a face card is worth to the solution by what it does to the sets."""
    done = frame[frame["own"] == "completes a set"]["mean_share"].mean()
    block = frame[(frame["own"] == "helps nothing")]
    s.reading(W.sentence(
        f"the solution pays on average {W.share(done)} of its money for a card that completes "
        f"its set, and for a card that helps it nothing {W.share(block['mean_share'].iloc[0])} "
        f"when it helps no rival either, {W.share(block['mean_share'].iloc[2])} when it would "
        f"complete a rival's set (blocking)"))
    shown = pd.DataFrame({
        "the card, for the bidder": frame["own"], "for the rivals who may buy it": frame["rivals"],
        "ceiling, share of money (mean)": frame["mean_share"].map(W.share),
        "P(pass) (mean)": frame["p_pass"].map(lambda v: W.num(v, 2)),
        "ceiling, middling money": frame["share_middling"].map(W.share),
        "P(pass), middling money": frame["p_pass_middling"].map(lambda v: W.num(v, 2))})
    s.add(Table(shown, "What a face card is worth to the solution by what it does to the sets: "
                "its ceiling as a share of the money it can pay (plain mean over money, the "
                "richest rival's cards and the cards left; and for a bidder with 18-24 "
                "against a rival as rich, 6-10 of 16 cards left)", stem))


def _match(ctx, s: Section) -> None:
    from analysis.tournament import tournament
    mine, other = SOLVED[ctx.game], challenger(ctx.game, ctx.rules)
    m = ctx.size(0.1, 1024)
    ctx.status(f"solved against {other}: {m:,} matches per lineup")
    t = tournament(ctx.game, [mine, other], m, seed=ctx.seed, rules=dict(ctx.spec.rules))
    ctx.provenance["solved_tournament"] = t.provenance
    d = t.differences[t.differences["metric"] == t.metric].iloc[0]
    sign = 1 if d["first"] == mine else -1
    diff, lo, hi = sign * d["diff"], *sorted((sign * d["ci_low"], sign * d["ci_high"]))
    s.reading(W.sentence(
        f"in a duplicate tournament of {m:,} matches per lineup, {mine} scores "
        + (f"{W.estimate(diff, lo, hi, 100.0, sign=True)} percentage points of win share "
           if t.metric == "win" else
           f"{W.estimate(diff, lo, hi, sign=True)} {ctx.spec.score_unit} per match ")
        + f"against {other} ({W.p_text(d['p_holm'])})"))
    shown = t.frame[["rank", "name", t.metric, f"{t.metric}_ci_low", f"{t.metric}_ci_high"]]
    win = t.metric == "win"  # a share: in % (reports.text)
    cells = W.intervals(shown[t.metric], shown[f"{t.metric}_ci_low"],
                        shown[f"{t.metric}_ci_high"], 100.0 if win else 1.0)
    title = "win share, %" if win else t.metric
    table = shown[["rank", "name"]].assign(**{f"{title} [95% CI]": cells}).astype(str)
    s.add(Table(table, f"The solution against {other}", ctx.keep("solved_tournament",
                                                                  t.frame)))


def _bidev(ctx, s: Section) -> None:
    """The first of the report's bid-EV situations, every other seat playing the
    solution: what to bid against players who bid well."""
    situations = ctx.spec.situations(ctx) if ctx.spec.situations else []
    if not situations:
        return
    from analysis.bidev import bid_ev
    sit, mine = situations[0], SOLVED[ctx.game]
    rollouts = ctx.size(ctx.spec.rollout_share, 200)
    ctx.status(f"bid-EV against {mine}: {rollouts:,} rollouts")
    res = bid_ev(ctx.game, dict(sit.state), rollouts=rollouts, seed=ctx.seed,
                 rules=dict(ctx.spec.rules), strategies=[f"all={mine}"],
                 candidates=list(sit.candidates) if sit.candidates else None)
    ctx.provenance["solved_bidev"] = res.provenance
    frame = res.grouped()
    scale = 100.0 if res.metric == "win" else 1.0
    noun = res.outcomes[res.metric] + (", %" if res.metric == "win" else "")
    best = frame.loc[[res.best in a for a in frame["actions"]], "action"].iloc[0]
    s.reading(W.sentence(f"in the situation \"{sit.title}\", against {mine} everywhere else, "
                         f"the best candidate is {best} ({rollouts:,} rollouts each)"))
    table = pd.DataFrame({
        "action": frame["action"].astype(str),
        f"expected {noun} [95% CI]": [W.interval(r.mean, r.ci_low, r.ci_high, scale)
                                     for r in frame.itertuples()],
        "vs best [95% CI]": [W.interval(r.diff_vs_best, r.diff_ci_low, r.diff_ci_high, scale,
                                        sign=True) for r in frame.itertuples()],
        "P(best)": frame["p_best"].map(lambda v: W.num(v, 2))})
    s.add(Table(table, f"{sit.title}: candidates against {mine}",
                ctx.keep("solved_bidev", res.frame)))


def _small(mean: float, low: float, high: float) -> str:
    """An estimate at the precision of its interval (the one rule of reports.text)."""
    return W.claim(mean, low, high)
