"""auktsion's report: a field of four strategies, money flow and lot prices from the
default table (auktsion's own sections, ``money`` and ``prices``), bid-EV at three
moments of a real match, and the house variants players argue about.

The sections import what they draw with when they run, so that reading the spec (the
command line's help does) stays cheap."""

from __future__ import annotations

from typing import TYPE_CHECKING

from reports.solved import solved_section
from reports.spec import GameSpec, Situation, Tuning, Variant, insert_sections

if TYPE_CHECKING:
    from reports.document import Section

RANKS = "23456789TJQKA"
"""Lot labels by rank number, for the per-lot tables."""

# (deal: 0 = first, -1 = last; lot rank; title)
MOMENTS = (
    (0, "2", "The twos, first lot of the match"),
    (0, "Q", "A queen late in the first deal"),
    (-1, "A", "The ace, last lot of the match"),
)
SUITS = "HDSC"  # the order of the suit_points rule key


def _candidates(money: int, price_paid: int | None, min_bid: int = 1, count: int = 9) -> tuple[str, ...]:
    """Pass and about ``count`` bids spread from ``min_bid`` to beyond the price the lot
    actually fetched in the traced match (at most the money in hand)."""
    top = min(money, max(8, int(1.6 * (price_paid or 0)) + 2))
    if top < min_bid:
        return ("pass",)
    step = max(1, -(-(top - min_bid) // (count - 1)))
    bids = list(range(min_bid, top + 1, step))
    return ("pass", *map(str, bids))


def situations(ctx) -> list[Situation]:
    """Three moments of match 0 of the report's seed (default strategies), as they were
    when the lot opened, seen by the seat that holds the most points of that rank (and
    can bid), the seats before it having passed: a real, consistent state (money, cards
    laid face up, scores)."""
    from analysis.runs import trace

    t = trace("auktsion", seed=ctx.seed, index=0, rules=dict(ctx.spec.rules))
    rules = t["rules"]
    points = dict(zip(SUITS, rules["suit_points"]))
    n = len(t["deals"][0]["hands"])
    out = []
    for deal_no, rank, title in MOMENTS:
        deal_no = deal_no % len(t["deals"])
        deal = t["deals"][deal_no]
        lots = deal["lots"]
        index = next((i for i, lot in enumerate(lots) if lot["rank"] == rank), None)
        if index is None:
            continue
        lot = lots[index]
        money = list(deal["money_start"])
        for earlier in lots[:index]:
            if earlier["buyer"] is not None:
                money[earlier["buyer"]] -= earlier["price"]
        order = [(lot["starter"] + k) % n for k in range(n)]
        worth = {s: sum(points[c[1]] for c in deal["hands"][s] if c[0] == rank) for s in order}
        able = [s for s in order if money[s] >= rules["min_bid"]] or order
        seat = max(able, key=lambda s: (worth[s], -order.index(s)))
        passes = order.index(seat)
        sold = []
        for earlier in lots[:index]:
            if earlier["buyer"] is None:
                continue
            item = f"{earlier['rank']}:{earlier['buyer']}:{earlier['price']}"
            if earlier["buyer"] != seat:
                cards = [c for c in deal["hands"][earlier["buyer"]] if c[0] == earlier["rank"]]
                if cards:
                    item += ":" + " ".join(cards)
            sold.append(item)
        scores = [sum(d["scores"][s] for d in t["deals"][:deal_no]) for s in range(n)]
        hand = deal["hands"][seat]
        mine = [c for c in hand if c[0] == rank]
        state = {"seat": seat, "hand": " ".join(hand), "money": ",".join(map(str, money)),
                 "lot": rank, "passes": passes, "deal": deal_no,
                 "scores": ",".join(map(str, scores)), "sold": ";".join(sold)}
        later = len(t["deals"]) - 1 - deal_no
        to_come = len(lots) - index - 1
        why = (("Nothing is sold yet; the money shows every hand's points (A3)" if index == 0
                else f"{len(sold)} of the deal's lots are sold, "
                     + (f"{to_come} more to come" if to_come else "this is the last one"))
               + ("." if index == 0 else
                  f", and {later} more deal{'s' if later != 1 else ''} after this one." if later else
                  f"; this is the last deal: coins left after it are worth "
                  f"{rules['leftover_value']:g} points each (A14)."))
        who = (f"seat {seat} opens the lot" if passes == 0 else
               f"seat {seat} speaks after {passes} pass{'es' if passes > 1 else ''}")
        question = (f"Deal {deal_no + 1}, lot {rank}: {who}, holding "
                    f"{' '.join(mine) if mine else 'no card'} of that rank ({worth[seat]} points), "
                    f"with {money[seat]} coins against "
                    f"{', '.join(str(m) for s, m in enumerate(money) if s != seat)} for the others"
                    + (f" and {scores[seat]} points so far against "
                       f"{', '.join(str(x) for s, x in enumerate(scores) if s != seat)}"
                       if deal_no else "")
                    + f". {why}"
                    + (f" In the traced match the lot went to seat {lot['buyer']} for "
                       f"{lot['price']} coins." if lot["buyer"] is not None else ""))
        out.append(Situation(title, state, question,
                             _candidates(money[seat], lot["price"], int(rules["min_bid"]))))
    return out


def money_section(ctx) -> Section:
    """Coins over the deals of a match (the ``deals`` table) and coins paid per lot
    (the ``lots`` table), with the default strategy in every seat."""
    import math

    import pandas as pd

    from analysis import tables as T
    from reports import data as D
    from reports import figures as F
    from reports import text as W
    from reports.document import Section, Table

    deals = ctx.table("deals")
    s = Section("money", "Money flow")
    mf = T.money_flow(deals)
    stem = ctx.keep("money_flow", mf)
    get = mf.set_index(["deal", "quantity"])["mean"]
    first, last = int(mf["deal"].min()), int(mf["deal"].max())
    m0, s0 = get[(first, "money_start")], get[(first, "spent")]
    mL, sL, eL = get[(last, "money_start")], get[(last, "spent")], get[(last, "money_end")]
    run = ctx.run("table")
    s.text(f"{run.completed:,} matches with {ctx.default_label} in every seat; coins per player, "
           f"seats pooled within a match.")
    if last > first:
        s.reading(W.sentence(
            f"players start the first deal with {W.num(m0, 1)} coins on average and spend "
            f"{W.num(s0, 1)} of them ({W.share(s0 / m0 if m0 else math.nan, 0)}); in the last "
            f"deal they start with {W.num(mL, 1)} and spend {W.num(sL, 1)} "
            f"({W.share(sL / mL if mL else math.nan, 0)}), and {W.num(eL, 1)} coins per player "
            f"are left when the match ends"))
    else:
        s.reading(W.sentence(f"players start with {W.num(m0, 1)} coins on average, spend "
                             f"{W.num(s0, 1)} and keep {W.num(eL, 1)}"))
    shown = pd.DataFrame({"deal": [str(d + 1) for d in sorted(mf["deal"].unique())]})
    for q in ("money_start", "spent", "money_end"):
        part = mf[mf["quantity"] == q].sort_values("deal")
        shown[F.QUANTITY_LABELS[q]] = W.intervals(part["mean"], part["ci_low"], part["ci_high"])
    s.add(Table(shown, "Coins per player by deal of the match: mean [95% CI]", stem))
    s.add(ctx.figure("money_flow", lambda ax: F.money_flow_lines(mf, ax=ax),
                     "Money over the deals of a match (mean, 95% band)", stem))
    mbl = D.money_by_lot(ctx.table("lots"), RANKS)
    lstem = ctx.keep("money_by_lot", mbl)
    dear = mbl.loc[mbl["mean"].idxmax()]
    first_deal = mbl[mbl["deal"] == mbl["deal"].min()]
    dear0 = first_deal.loc[first_deal["mean"].idxmax()]
    s.reading(W.sentence(
        f"the dearest lot is lot {dear['label']} of deal {int(dear['deal']) + 1}, at "
        f"{W.estimate(dear['mean'], dear['ci_low'], dear['ci_high'], unit=' coins on average')}"
        + ("" if dear0.name == dear.name else
           f"; in the first deal the dearest is lot {dear0['label']}, at "
           f"{W.estimate(dear0['mean'], dear0['ci_low'], dear0['ci_high'], unit=' coins')}")))
    s.add(ctx.figure("money_by_lot", lambda ax: F.money_by_lot_lines(mbl, ax=ax),
                     "Coins paid per lot (unsold = 0), one line per deal of the match", lstem))
    return s


def prices_section(ctx) -> Section:
    """What a lot costs (price of sold lots, share sold, calls) and price against the
    points the buyer lays face up (the ``lots`` table)."""
    import numpy as np
    import pandas as pd

    from analysis import tables as T
    from reports import figures as F
    from reports import text as W
    from reports.document import Section, Table

    lots = ctx.table("lots")
    s = Section("prices", "Prices: what a lot costs and what it is worth")
    lp = T.lot_prices(lots, RANKS)
    stem = ctx.keep("lot_prices", lp)
    pv = T.price_vs_value(lots)
    pstem = ctx.keep("price_vs_value", pv)
    cheap, dear = lp.loc[lp["price"].idxmin()], lp.loc[lp["price"].idxmax()]
    unsold = 1 - float(lots["price"].notna().mean())
    s.reading(W.sentence(
        f"sold lots cost from {W.num(cheap['price'], 1)} coins on average (lot {cheap['label']}) to "
        f"{W.num(dear['price'], 1)} (lot {dear['label']}); "
        + ("every lot is sold" if unsold == 0 else f"{W.share(unsold)} of lots go unsold")))
    if len(pv) >= 2:
        w = np.sqrt(pv["matches"].to_numpy(float))
        slope = float(np.polyfit(pv["buyer_value"].to_numpy(float), pv["mean"].to_numpy(float), 1,
                                 w=w)[0])
        s.reading(W.sentence(
            f"across buyers, each extra point a buyer lays face up goes with "
            f"{W.num(slope, 2, True)} coins of price on average (a least-squares line through "
            f"the points of the figure): the more points a buyer lays face up, the "
            + ("more" if slope > 0 else "less") + " he pays on average"))
    shown = pd.DataFrame({
        "lot": lp["label"].astype(str),
        "mean price [95% CI]": W.intervals(lp["price"], lp["price_ci_low"], lp["price_ci_high"]),
        "median (quartiles)": [f"{W.num(r.price_median, 1)} ({W.num(r.price_q1, 1)}-{W.num(r.price_q3, 1)})"
                               for r in lp.itertuples()],
        "sold": lp["sold_share"].map(lambda v: W.share(v)),
        "buyer's points": lp["buyer_value"].map(lambda v: W.num(v, 2)),
        "calls per lot": lp["calls"].map(lambda v: W.num(v, 1))})
    s.add(Table(shown, "Per lot: price of sold lots, share sold, value to the buyer, calls", stem))
    s.add(ctx.figure("lot_prices", lambda ax: F.lot_price_bars(lp, ax=ax),
                     "Price by lot: mean with 95% interval, median and quartiles", stem))
    s.add(ctx.figure("price_vs_value", lambda ax: F.price_value_line(pv, ax=ax),
                     "Mean price against the points the buyer lays face up (95% band; marker "
                     "area: matches with such a purchase)", pstem))
    return s


SPEC = GameSpec(
    game="auktsion",
    n=200_000,
    intro=("Four players bid for the thirteen ranks, twos first and aces last; whoever buys "
           "a rank scores his own cards of it (hearts 4, diamonds 3, spades 2, clubs 1). "
           "Each deal hands every player 70 coins minus his hand's points, unspent coins "
           "carry to the next deal, and after the match's four deals the highest total wins."),
    field=("0=budget", "1=value", "2=budget:aggression=1.3", "3=value:multiple=3"),
    field_note=("Four strategies: budget (the default: it prices points by "
                "its money per point still to come), the same with aggression 1.3, value "
                "(at most 1 coin per point of the lot) and value at 3 coins per point."),
    detail_share=0.25,
    variants=(
        Variant({"carry_money": False}, "money left after a deal is lost, so nobody saves "
                                        "for later deals"),
        Variant({"auction_form": "sealed"}, "one sealed bid per player instead of the open "
                                            "auction"),
        Variant({"leftover_value": 1.0}, "coins left at the end of the match score 1 point "
                                         "each"),
    ),
    variant_share=0.5,
    tuning=Tuning("budget", "aggression", (0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0),
                  question="How aggressive should a budget player be when the others play "
                           "the default?"),
    situations=situations,
    rollout_share=0.05,
    sections=insert_sections("seats", ("money", "prices")) + ("solved",),
    extra={"money": money_section, "prices": prices_section, "solved": solved_section},
)
