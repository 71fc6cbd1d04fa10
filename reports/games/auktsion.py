"""auktsion's report: a field of four strategies, money flow and lot prices from the
default table, bid-EV at three moments of a real match, and the house variants players
argue about."""

from __future__ import annotations

from reports.spec import GameSpec, Situation, Tuning, Variant

RANKS = "23456789TJQKA"

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


SPEC = GameSpec(
    game="auktsion",
    n=200_000,
    intro=("Four players bid for the thirteen ranks, twos first and aces last; whoever buys "
           "a rank scores his own cards of it (hearts 4, diamonds 3, spades 2, clubs 1). "
           "Each deal hands every player 70 coins minus his hand's points, unspent coins "
           "carry to the next deal, and after the match's four deals the highest total wins."),
    field=("0=budget", "1=value", "2=budget:aggression=1.3", "3=value:multiple=3"),
    field_note=("Four strategies, one per seat: budget (the default: it prices points by "
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
    rank_labels=RANKS,
)
