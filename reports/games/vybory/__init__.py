"""vybory's report: a field of election and card-play styles (the generic equity and
seat sections), vybory's own sections on the contract types (which are announced and
played, and how often the attackers win each: ``contracts``), the election's length
(``election``) and what a type is worth by the hand of the seat that named it first
(``hands``), bid-EV at three moments of a real tour, a best-response curve of
``expected``'s partner estimate, and the house variants paired on the same deals.

Every per-deal figure is a ratio over deals with a 95% interval clustered by tour
(:mod:`analysis.vybory`). The sections import what they draw with when they run, so
that reading the spec (the command line's help does) stays cheap."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reports.games.vybory.house import house_section
from reports.solved import solved_section
from reports.spec import GameSpec, Situation, Tuning, Variant, insert_sections

if TYPE_CHECKING:
    import pandas as pd

    from reports.document import Section

MIN_DEALS = 100
"""Types with fewer deals in the detail run are tabled but left out of the readings,
the figures and the hand-feature tables (their intervals rest on too few deals)."""
MIN_CELL = 20
"""Feature buckets with fewer deals are shown as a dash."""
SEARCH = 20
"""Tours of the report's seed searched (in order) for the bid-EV situations."""
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
ONE = {"low": "low card", "honours": "honour", "longest": "card in the longest suit",
       "trumps": "trump"}
"""One more of each hand feature, in words."""


def _trump_text(code: int, type_set: str) -> str:
    from analysis import vybory as V

    t = int(V.type_trumps([code], type_set)[0])
    return "none" if t < 0 else SUIT_NAMES[t]


# -- bid-EV situations from a real tour ------------------------------------------------

def _hand_text(cards: list[str]) -> str:
    """``"AS KS ... (5 honours, 3 low cards, longest suit 5)"``."""
    from analysis import vybory as V
    from sim.cards import parse_cards

    mask = sum(1 << c for c in parse_cards(cards))
    f = V.hand_features([mask]).iloc[0]
    return (f"{' '.join(cards)} ({int(f['honours'])} honours A-K-Q-J, {int(f['low'])} low cards "
            f"2-5, longest suit {int(f['longest'])})")


def _state(deal: dict, deal_no: int, k: int, scores: list[int]) -> dict:
    """The bid-EV state of the ``k``-th announcement of ``deal``, as its seat saw it."""
    seat = deal["announcements"][k][0]
    return {"seat": seat, "hand": " ".join(deal["hands"][seat]), "dealer": deal["dealer"],
            "calls": ",".join(name for _, name in deal["announcements"][:k]),
            "scores": ",".join(map(str, scores)), "deal": deal_no}


def _story(deal: dict, tour: int, deal_no: int, k: int, scores: list[int]) -> str:
    """What the announcing seat knows and what happened in the real tour, in words."""
    from reports import text as W

    seat, mine = deal["announcements"][k]
    before = deal["announcements"][:k]
    heard = ("it announces first" if not before else
             "before it " + W.join([f"seat {s} named {t}" for s, t in before]))
    a, b = deal["attackers"]
    pts = deal["pair_points"]
    result = {"win": "won", "loss": "lost", "draw": "drew"}[deal["result"]]
    played = (f"{deal['contract']} was played by seats {a} and {b}, who {result} "
              f"{pts['attackers']} to {pts['defenders']}")
    matched = k == len(deal["announcements"]) - 1
    if matched:
        outcome = (f"it named {mine}, matching seat {a}, and ended the election: {played}")
    elif any(s != seat for s, _ in before):
        outcome = (f"it named {mine}, a new type, rather than match one already named; the "
                   f"election went on and {played}")
    else:
        outcome = f"it named {mine}; {played}"
    score_text = ("every score is 0" if not any(scores) else
                  f"it has {scores[seat]} points against "
                  f"{W.join([str(x) for s, x in enumerate(scores) if s != seat])}")
    return (f"Tour {tour} of the report's seed, deal {deal_no + 1}: seat {deal['dealer']} "
            f"deals; seat {seat} holds {_hand_text(deal['hands'][seat])}; {heard}; "
            f"{score_text}. In the real tour {outcome}."
            + (" The rollouts deal the hidden hands only where the default election policy "
               "makes the announcements heard before it." if before else ""))


def situations(ctx) -> list[Situation]:
    """Three moments of real tours of the report's seed (default strategies; tour 0
    first): the first announcement of a tour; a seat that faces a type another seat
    has named and could match it, but named a new one; and the call that matched and
    ended an election of at least three calls. Each is seen by that seat at its turn,
    with the announcements really made before it and the scores really standing."""
    from analysis.runs import trace

    found: dict[str, Situation] = {}
    for tour in range(SEARCH):
        if len(found) == 3:
            break
        t = trace("vybory", seed=ctx.seed, index=tour, rules=dict(ctx.spec.rules))
        scores = [0] * len(t["deals"][0]["hands"])
        for deal_no, deal in enumerate(t["deals"]):
            calls = deal["announcements"]
            if "first" not in found and deal_no == 0:
                found["first"] = Situation(
                    "First to announce in a new tour", _state(deal, deal_no, 0, scores),
                    _story(deal, tour, deal_no, 0, scores))
            if "decline" not in found and len(calls) > 2:
                k = next(k for k in range(1, len(calls) - 1)
                         if any(s != calls[k][0] for s, _ in calls[:k]))
                found["decline"] = Situation(
                    "A type it could match is on the table", _state(deal, deal_no, k, scores),
                    _story(deal, tour, deal_no, k, scores))
            if "match" not in found and len(calls) >= 3:
                k = len(calls) - 1
                found["match"] = Situation(
                    "The call that ends the election", _state(deal, deal_no, k, scores),
                    _story(deal, tour, deal_no, k, scores))
            scores = list(deal["scores_after"])
    return [found[k] for k in ("first", "decline", "match") if k in found]


def _won(r) -> str:
    """``"84.6% won (95% CI ...), mean margin +8.3 points (95% CI ...)"``."""
    from reports import text as W

    return (f"{W.estimate(r['win'], r['win_ci_low'], r['win_ci_high'], 100, '% won')}, mean margin "
            f"{W.estimate(r['margin'], r['margin_ci_low'], r['margin_ci_high'], sign=True, unit=' points')}")


# -- contract types --------------------------------------------------------------------

def contracts_section(ctx) -> Section:
    """Types announced (``seats``: announcements) and played (``deals``), and the
    attackers' result per type, from the all-default detail run."""
    import pandas as pd

    from analysis import ratios
    from analysis import vybory as V
    from reports import figures as F
    from reports import text as W
    from reports.document import Section, Table

    type_set = ctx.rules["type_set"]
    deals, seats = ctx.table("deals"), ctx.run("table").seats
    types = V.contract_types(deals, type_set)
    ann = V.announcement_shares(seats, type_set)
    types = types.merge(ann[["code", "announcements", "share", "ci_low", "ci_high"]].rename(
        columns={"share": "announced", "ci_low": "announced_ci_low", "ci_high": "announced_ci_high"}),
        on="code")
    overall = ratios.ratio_by(V.deal_outcomes(deals), None, "win").iloc[0]
    types["trump"] = [_trump_text(c, type_set) for c in types["code"]]
    stem = ctx.keep("contracts", types)
    n_tours, n_deals = deals["match"].nunique(), len(deals)
    s = Section("contracts", "Contract types: announced, played, won")
    s.text(f"{n_tours:,} tours ({n_deals:,} deals) with {ctx.default_label} in every seat. "
           f"Shares of deals and the attackers' results count deals (one per deal played), "
           f"shares of announcements count announcements; every 95% interval is clustered "
           f"by tour, the independent unit. A draw counts as no win.")
    top = types.loc[types["share"].idxmax()]
    s.reading(W.sentence(
        f"the attackers win {W.estimate(overall['mean'], overall['ci_low'], overall['ci_high'], 100, '%')} "
        f"of all deals; the commonest contract is {top['contract']}, "
        f"{W.estimate(top['share'], top['share_ci_low'], top['share_ci_high'], 100, '% of deals')} and "
        f"{W.share(top['announced'])} of all announcements, which the attackers win "
        f"{W.estimate(top['win'], top['win_ci_low'], top['win_ci_high'], 100, '% of the time')}"))
    common = types[types["deals"] >= MIN_DEALS]
    if len(common) > 1:
        best, worst = common.loc[common["win"].idxmax()], common.loc[common["win"].idxmin()]
        s.reading(W.sentence(
            f"among the {len(common)} types played in at least {MIN_DEALS} deals, the attackers "
            f"do best in {best['contract']}: {_won(best)}; and worst in {worst['contract']}: "
            f"{_won(worst)}"))
    rare = types[types["deals"] < MIN_DEALS]
    if len(rare):
        s.note(f"Played in fewer than {MIN_DEALS} deals of this run (their intervals are "
               f"wide or missing): {W.join(list(rare['contract']))}.")

    def clip(col):
        return types[f"{col}_ci_low"].clip(0, 1), types[f"{col}_ci_high"].clip(0, 1)

    shown = pd.DataFrame({
        "type": [f"{c} {n}" for c, n in zip(types["code"], types["contract"])],
        "trump": types["trump"],
        "announcements, % [95% CI]": W.intervals(types["announced"],
                                                 types["announced_ci_low"].clip(0, 1),
                                                 types["announced_ci_high"].clip(0, 1), 100),
        "deals": types["deals"].map("{:,}".format),
        "deals, % [95% CI]": W.intervals(types["share"], *clip("share"), 100),
        "attackers win, % [95% CI]": W.intervals(types["win"], *clip("win"), 100),
        "draws, % [95% CI]": W.intervals(types["draw"], *clip("draw"), 100),
        "margin, points [95% CI]": W.intervals(types["margin"], types["margin_ci_low"],
                                               types["margin_ci_high"], sign=True),
        "calls [95% CI]": W.intervals(types["calls"], types["calls_ci_low"], types["calls_ci_high"])})
    s.add(Table(shown, "Each contract type: share of announcements and of deals, and per deal "
                "played in it the attackers' wins, draws, margin (attackers' points minus "
                "defenders') and the election's length", stem))
    shown_types = common.sort_values("share", ascending=False)
    s.add(ctx.figure("contracts", lambda ax: F.interval_bars(
        list(shown_types["contract"]), 100 * shown_types["win"],
        100 * shown_types["win_ci_low"].clip(0, 1), 100 * shown_types["win_ci_high"].clip(0, 1),
        colors=["#0072B2"] * len(shown_types), ax=ax, reference=100 * overall["mean"],
        reference_label=f"all deals: {100 * overall['mean']:.1f}%",
        title="Attackers' wins by contract type",
        xlabel="% of deals won by the attackers (95% CI, clustered by tour)",
        value_format="{:.1f}%"),
        f"Share of deals the attackers win, by contract type (types with at least {MIN_DEALS} "
        f"deals, commonest first), with 95% intervals clustered by tour", stem))
    return s


# -- the election ----------------------------------------------------------------------

def election_section(ctx) -> Section:
    """How many announcements an election takes (``deals``' ``calls``)."""
    import pandas as pd

    from analysis import ratios
    from analysis import vybory as V
    from reports import figures as F
    from reports import text as W
    from reports.document import Section, Table

    deals = V.deal_outcomes(ctx.table("deals"))
    lengths = V.election_lengths(deals)
    lengths["round"] = V.election_round(lengths["calls"], ctx.n_seats)
    stem = ctx.keep("election", lengths)
    mean = ratios.ratio_by(deals, None, "calls").iloc[0]
    rounds = ratios.ratio_by(deals.assign(round=V.election_round(deals["calls"], ctx.n_seats)),
                        "round", "win")
    round_share = ratios.shares(deals.assign(round=V.election_round(deals["calls"], ctx.n_seats)),
                           "round")
    s = Section("election", "The election: how long until two players match")
    s.text(f"{deals['match'].nunique():,} tours ({len(deals):,} deals) with "
           f"{ctx.default_label} in every seat. The election ends at the first announcement "
           f"that repeats a type another player named (V3): at the earliest the second call, "
           f"at the latest the first call of the third round, the ninth (V4). Shares count "
           f"deals; intervals are clustered by tour.")
    top = lengths.loc[lengths["share"].idxmax()]
    first = round_share[round_share["round"] == 1]
    text = (f"an election takes {W.estimate(mean['mean'], mean['ci_low'], mean['ci_high'], unit=' calls')} "
            f"on average; the commonest length is {int(top['calls'])} calls, "
            f"{W.estimate(top['share'], top['share_ci_low'], top['share_ci_high'], 100, '% of deals')}")
    if len(first):
        f = first.iloc[0]
        text += (f", and {W.estimate(f['share'], f['ci_low'], f['ci_high'], 100, '%')} of "
                 f"elections end within the first round")
    s.reading(W.sentence(text))
    r1, later = rounds[rounds["round"] == 1], rounds[rounds["round"] > 1]
    if len(r1) and len(later):
        late = ratios.ratio_by(deals[V.election_round(deals["calls"], ctx.n_seats) > 1], None,
                          "win", clusters=deals["match"].unique()).iloc[0]
        a = r1.iloc[0]
        s.reading(W.sentence(
            f"the attackers win {W.estimate(a['mean'], a['ci_low'], a['ci_high'], 100, '%')} of "
            f"the deals whose election ends in the first round and "
            f"{W.estimate(late['mean'], late['ci_low'], late['ci_high'], 100, '%')} of those that "
            f"go on to a later round"))
    shown = pd.DataFrame({
        "calls": lengths["calls"].astype(str), "ends in round": lengths["round"].astype(str),
        "deals": lengths["deals"].map("{:,}".format),
        "deals, % [95% CI]": W.intervals(lengths["share"], lengths["share_ci_low"].clip(0, 1),
                                         lengths["share_ci_high"].clip(0, 1), 100),
        "attackers win, % [95% CI]": W.intervals(lengths["win"], lengths["win_ci_low"].clip(0, 1),
                                                 lengths["win_ci_high"].clip(0, 1), 100),
        "margin, points [95% CI]": W.intervals(lengths["margin"], lengths["margin_ci_low"],
                                               lengths["margin_ci_high"], sign=True)})
    s.add(Table(shown, "Election length: share of deals, and the attackers' result in those "
                "deals", stem))
    s.add(ctx.figure("election", lambda ax: F.interval_bars(
        [f"{c} calls" for c in lengths["calls"]], 100 * lengths["share"],
        100 * lengths["share_ci_low"].clip(0, 1), 100 * lengths["share_ci_high"].clip(0, 1),
        colors=["#0072B2"] * len(lengths), ax=ax, title="Election length",
        xlabel="% of deals (95% CI, clustered by tour)", value_format="{:.1f}%"),
        "Share of deals by the number of announcements in the election, with 95% intervals",
        stem))
    return s


# -- what a type is worth by the hand that named it -----------------------------------

def feature_lines(frame: pd.DataFrame, feature: str, ax=None, title: str | None = None,
                  ylabel: str = "attackers' margin, points (mean, 95% band)",
                  colors: dict[str, str] | None = None):
    """Mean margin per bucket of ``feature``, one line per contract with a 95% band,
    from :func:`analysis.vybory.margin_by_feature` (columns ``contract, bucket, mean,
    ci_low, ci_high``); buckets in their order on the x axis; ``colors``: per contract
    (default: the palette in the frame's order)."""
    import numpy as np

    from analysis import vybory as V
    from reports.style import BAND_ALPHA, PALETTE, new_axes, style

    ax = new_axes() if ax is None else ax
    labels = [b[2] for b in V.BUCKETS[feature]]
    pos = {lab: i for i, lab in enumerate(labels)}
    with style():
        for k, (contract, part) in enumerate(frame.groupby("contract", sort=False)):
            x = np.array([pos[str(b)] for b in part["bucket"]])
            color = (colors or {}).get(contract, PALETTE[k % len(PALETTE)])
            ax.plot(x, part["mean"], color=color, marker="o", label=str(contract), zorder=3)
            ax.fill_between(x, part["ci_low"], part["ci_high"], color=color, alpha=BAND_ALPHA,
                            linewidth=0, zorder=2)
        ax.axhline(0, color="#444444", linewidth=0.8, zorder=1)
        ax.set_xticks(range(len(labels)), labels)
        ax.legend(loc="best", ncols=2)
        ax.set_xlabel(f"{V.FEATURES[feature]} in the first announcer's hand")
        ax.set_ylabel(ylabel)
        if title:
            ax.set_title(title)
    return ax


def hands_section(ctx) -> Section:
    """Mean attackers' margin by features of the first announcer's hand, per type."""
    import pandas as pd

    from analysis import vybory as V
    from reports import text as W
    from reports.document import Section, Table

    type_set = ctx.rules["type_set"]
    deals = ctx.table("deals")
    frame = V.first_announcer_hands(deals, ctx.table("deal_seats"), type_set)
    counts = frame.groupby("contract").size()
    order = [c for c in counts.sort_values(ascending=False).index if counts[c] >= MIN_DEALS]
    frame = frame[frame["contract"].isin(order)]
    slopes = V.feature_slopes(frame)
    slopes["order"] = slopes["contract"].map({c: i for i, c in enumerate(order)})
    slopes = slopes.sort_values(["order", "feature"], kind="stable").drop(columns="order")
    sstem = ctx.keep("hand_slopes", slopes)
    cells = pd.concat([V.margin_by_feature(frame, f) for f in V.FEATURES], ignore_index=True)
    stem = ctx.keep("hand_features", cells.astype({"bucket": str}))
    s = Section("hands", "What a type is worth: the first announcer's hand")
    s.text(f"{len(frame):,} deals of {frame['match'].nunique():,} tours with "
           f"{ctx.default_label} in every seat (types played in at least {MIN_DEALS} deals). "
           f"For each deal, the hand of the seat that named the contract type first (V5): its "
           f"low cards (2 to 5), honours (A, K, Q, J), longest suit and, for a type with "
           f"trumps, the trumps it holds. The outcome is the attackers' margin, their points "
           f"minus the defenders' in that deal. Means count deals; intervals are clustered by "
           f"tour. These are associations among the hands {ctx.default_label} chose to "
           f"announce with, not what the same hand would score in another type.")
    parts = []
    for contract in order[:3]:
        part = slopes[(slopes["contract"] == contract)].dropna(subset=["ci_low"])
        if part.empty:
            continue
        half = (part["ci_high"] - part["ci_low"]) / 2
        r = part.loc[(part["slope"].abs() / half.where(half > 0)).idxmax()]
        parts.append(f"under {contract} each extra {ONE[r['feature']]} moves the margin by "
                     f"{W.estimate(r['slope'], r['ci_low'], r['ci_high'], sign=True, unit=' points')}")
    if parts:
        s.reading(W.sentence("the strongest link for each of the commonest types: "
                             + "; ".join(parts)))
    names = {f: V.FEATURES[f] for f in V.FEATURES}
    shown = pd.DataFrame({"type": order})
    for f in V.FEATURES:
        sub = slopes[slopes["feature"] == f].set_index("contract").reindex(order)
        shown[f"per {ONE[f]} [95% CI]"] = [
            "–" if pd.isna(r.slope) else W.interval(r.slope, r.ci_low, r.ci_high, sign=True)
            for r in sub.itertuples()]
    s.add(Table(shown, "Change in the attackers' margin (points) per extra card of each kind "
                "in the first announcer's hand (least-squares slope, intervals clustered by "
                "tour; trumps only for types with trumps)", sstem))
    for f in V.FEATURES:
        sub = cells[cells["feature"] == f]
        if sub.empty:
            continue
        labels = [b[2] for b in V.BUCKETS[f]]
        rows = []
        for contract in order:
            part = sub[sub["contract"] == contract].set_index("bucket")
            if part.empty:
                continue
            row = {"type": contract}
            for lab in labels:
                if lab in part.index and part.loc[lab, "deals"] >= MIN_CELL:
                    r = part.loc[lab]
                    row[lab] = W.interval(r["mean"], r["ci_low"], r["ci_high"], sign=True)
                else:
                    row[lab] = "–"
            rows.append(row)
        s.add(Table(pd.DataFrame(rows), f"Attackers' margin (points, mean [95% CI]) by "
                    f"{names[f]} in the first announcer's hand (columns); a dash: fewer than "
                    f"{MIN_CELL} deals", stem))
    from reports.style import PALETTE

    colors = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(order)}
    for f, title in (("trumps", "by trumps held (types with trumps)"),
                     ("honours", "by honours held")):
        sub = cells[(cells["feature"] == f) & (cells["deals"] >= MIN_CELL)]
        sub = sub[sub["contract"].isin(order[:6])]
        if sub.empty:
            continue
        sub = sub.assign(rank=sub["contract"].map({c: i for i, c in enumerate(order)})) \
            .sort_values(["rank", "bucket"], kind="stable")
        s.add(ctx.figure(f"hands_{f}", lambda ax, p=sub, f=f, t=title: feature_lines(
            p, f, ax=ax, title=f"Attackers' margin {t}", colors=colors),
            f"Attackers' margin by {names[f]} in the first announcer's hand, per contract type "
            f"(the six commonest; buckets with at least {MIN_CELL} deals), 95% bands clustered "
            f"by tour", stem))
    return s


# -- best response, judged by what wins a tour -----------------------------------------

def tuning_section(ctx) -> Section | None:
    """The generic best-response curve (ranked by mean tour score), plus what decides a
    tour: the tuned seat's win share and its lead over the other three in the same
    tour, each paired by tour against the parameter's default (pair points are not
    zero-sum in vybory: a type worth more to everyone raises every score)."""
    import pandas as pd

    from analysis.stats import mean_ci, paired_difference
    from reports import text as W
    from reports.document import Table
    from reports.tuning import tuning_matches, tuning_section
    from strategies import for_game

    s = tuning_section(ctx)
    t = ctx.spec.tuning
    if s is None or t is None:
        return s
    n = tuning_matches(ctx)
    prm = for_game(ctx.game).by_name(t.strategy, "elect").param(t.param)
    ref = min(t.grid, key=lambda v: abs(v - prm.default))
    series = {}
    for value in t.grid:  # the generic section's runs, kept by the context
        d = ctx.deviation(f"{t.strategy}:{t.param}={value:g}", n)
        series[value] = (d["win"], d["lead"])
    rows = []
    for value in t.grid:
        w = paired_difference(series[ref][0], series[value][0])
        d = paired_difference(series[ref][1], series[value][1])
        lead = mean_ci(series[value][1])
        rows.append({t.param: value, "lead": lead[0], "lead_ci_low": lead[1], "lead_ci_high": lead[2],
                     "lead_diff": d["diff"], "lead_diff_ci_low": d["ci_low"],
                     "lead_diff_ci_high": d["ci_high"], "lead_p": d["p_value"],
                     "win_diff": w["diff"], "win_diff_ci_low": w["ci_low"],
                     "win_diff_ci_high": w["ci_high"], "win_p": w["p_value"]})
    frame = pd.DataFrame(rows)
    stem = ctx.keep("tuning_lead", frame)
    best = frame.loc[frame["lead"].idxmax()]
    text = (f"what wins a tour is scoring more than the others, and pair points are not "
            f"zero-sum (a type worth more to everyone raises every score); the tuned player's lead "
            f"over the mean of the other three in the same tour is highest at {t.param} = "
            f"{best[t.param]:g}, " + W.estimate(best["lead"], best["lead_ci_low"], best["lead_ci_high"],
                                                 sign=True, unit=" points per tour"))
    if best[t.param] != ref:
        text += (f"; against {t.param} = {ref:g} "
                 + W.change("its lead", best["lead_diff"], best["lead_diff_ci_low"],
                            best["lead_diff_ci_high"], unit="points", p=best["lead_p"])
                 + " and " + W.change("its win share", best["win_diff"], best["win_diff_ci_low"],
                                      best["win_diff_ci_high"], unit="percentage points", scale=100,
                                      p=best["win_p"]))
    s.reading(W.sentence(text))
    shown = pd.DataFrame({
        t.param: frame[t.param].map(lambda v: f"{v:g}"),
        "lead over the others [95% CI]": W.intervals(frame["lead"], frame["lead_ci_low"],
                                                     frame["lead_ci_high"], sign=True),
        f"lead vs {t.param} = {ref:g} [95% CI]": W.intervals(
            frame["lead_diff"], frame["lead_diff_ci_low"], frame["lead_diff_ci_high"], sign=True),
        f"win share vs {t.param} = {ref:g}, % points [95% CI]": W.intervals(
            frame["win_diff"], frame["win_diff_ci_low"], frame["win_diff_ci_high"], 100, sign=True)})
    s.add(Table(shown, f"The tuned player's lead (its tour score minus the mean of the other "
                f"three, over every seat in turn) and win share for each {t.param}, paired by "
                f"tour against the default",
                stem))
    return s


SPEC = GameSpec(
    game="vybory",
    n=20_000,
    intro=("Vybory (\"Elections\") is a trick-taking game for four, with partners chosen "
           "anew every deal. Each deal the players take turns naming one of eight contract "
           "types, each with its own trump suit (or none) and its own way of counting points: "
           "most tricks, no tricks, club tricks, lowest card wins, spades won, red against "
           "black cards, black against red tens and jacks, no clubs. As soon as a player "
           "names a type someone else has already named, the election ends: those two are "
           "the attacking pair, that type is the contract, and the other two defend. Thirteen "
           "tricks are played (follow suit; trumping is never compulsory); each pair counts "
           "the contract's points from the tricks it took, and the attackers win, draw or "
           "lose the deal. A tour is 8 deals, each player dealing twice; each player adds his "
           "pair's points to his own score, and the highest score wins the tour (ties shared)."),
    field=("0=expected+greedy", "1=matcher+greedy", "2=expected+random", "3=random+greedy"),
    field_note=("Four strategies: the default (expected: names the type with the "
                "best estimated margin for its hand; greedy card play), matcher (like "
                "expected but keener to match a type already named), expected with random "
                "card play, and random announcements with greedy card play."),
    detail_share=1.0,
    variants=(
        Variant({"type_set": "alt"}, "the seed's ten point lines grouped the other way: "
                                     "red_cards, black_cards and tens_jacks_no_clubs replace "
                                     "types 6-8"),
        Variant({"scoring": "result"}, "each deal scores +1/-1 for the result instead of the "
                                       "points, so scores are in deals won minus lost: compare "
                                       "the win shares"),
    ),
    variant_share=0.5,
    tuning=Tuning("expected", "partner", (0.0, 0.3, 1.0, 2.0, 3.25, 5.0), share=0.25,
                  question="How many tricks should an expected announcer count on from its "
                           "partner when it values a type, when the others play the default?"),
    situations=situations,
    rollout_share=0.1,
    sections=insert_sections("seats", ("contracts", "election", "hands")) + ("house", "solved"),
    extra={"contracts": contracts_section, "election": election_section,
           "hands": hands_section, "tuning": tuning_section, "house": house_section,
           "solved": solved_section},
    score_unit="points",
)
