"""aukcio's report, at four players (where the house argues about one deck or two): a
field of four strategies, the money flow and the prices of face cards from the default
table (aukcio's own sections, ``money`` and ``prices``), and the house variants.

The sections import what they draw with when they run, so that reading the spec (the
command line's help does) stays cheap."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from reports.solved import solved_section
from reports.spec import GameSpec, Situation, Tuning, Variant, insert_sections

if TYPE_CHECKING:
    import pandas as pd

    from reports.document import Section

FACES = "JQKA"
MOMENTS = ((0, 3, "lots 1-4"), (4, 7, "lots 5-8"), (8, 11, "lots 9-12"), (12, 10_000, "lots 13+"))
"""(first, last lot number, label): the moments of a match the prices are shown by."""


def _state_at(t: dict, lot_no: int) -> dict:
    """The public state and every seat's money cards when lot ``lot_no`` of trace ``t``
    opens for bidding (after its ace draws): hands, owned, paid pile, cards gone. The
    draw pile is replayed card by card (K9, K10), so a reshuffle (K12) empties the
    payment pile exactly when it happened: before the bidding (in the ace draws) or
    after the payment (in the buyer's draws)."""
    from collections import Counter

    hands = [Counter(h) for h in t["hands"]]
    owned: list[list[str]] = [[] for _ in hands]
    paid: list[str] = []
    gone: list[str] = []
    pile = list(t["money_deck"])
    for lot in t["lots"][:lot_no + 1]:
        new_piles = iter(lot["reshuffles"])
        for seat, card in lot["ace_draws"]:
            pile, paid = _draw(pile, paid, new_piles, card)
            hands[seat][card] += 1
        if lot is t["lots"][lot_no]:
            break
        if lot["buyer"] is not None:  # K8, K9: the buyer pays, then draws
            owned[lot["buyer"]].append(lot["card"])
            hands[lot["buyer"]].subtract(lot["payment"])
            paid += lot["payment"]
            for card in lot["buyer_draws"]:
                pile, paid = _draw(pile, paid, new_piles, card)
                hands[lot["buyer"]][card] += 1
        elif lot["unsold"] == "discard":
            gone.append(lot["card"])
    return {"hands": [sorted(h.elements()) for h in hands], "owned": owned, "paid": paid,
            "gone": gone}


def _draw(pile: list[str], paid: list[str], new_piles, card: str) -> tuple[list[str], list[str]]:
    """Draw ``card`` from the top of ``pile``: (the pile, the payment pile) after it; an
    empty pile is first replaced by the next of ``new_piles`` and the payment pile
    emptied (K12)."""
    if not pile:
        pile, paid = list(next(new_piles)), []
    if pile[0] != card:
        raise ValueError(f"the trace draws {card}, but {pile[0]} is on top of the pile")
    return pile[1:], paid


SCREENED = 6
"""Matches of the report's seed whose moments the bid-EV section screens (it shows, for
each kind of moment, the one where the call matters most)."""


def situations(ctx) -> list[Situation]:
    """Three kinds of moment of matches 0..SCREENED-1 of the report's seed (default
    strategies), seen by the first seat to speak, as they were when the lot opened: the
    first card; a card that would complete a rival's set (to block or not); the last
    card turned. Each kind comes with its other matches' moments as alternatives."""
    from analysis.runs import trace

    found: dict[str, list[Situation]] = {}
    for m in range(SCREENED):
        t = trace("aukcio", seed=ctx.seed, index=m, rules=dict(ctx.spec.rules))
        for i, title in _picks(t):
            sit = _moment(t, i, title, m)
            if sit is not None:
                found.setdefault(title, []).append(sit)
    return [replace(group[0], alternatives=tuple(group[1:])) for group in found.values()]


def _first_speaker(lot: dict, n: int) -> int:
    """K5: the turner, or the seat after him when he sits out."""
    return lot["turner"] if lot["turner"] != lot["sitting_out"] else (lot["turner"] + 1) % n


def _picks(t: dict) -> list[tuple[int, str]]:
    """(lot, title) of a match's moments: its first card, the first card that would
    complete a rival's set, its last card."""
    lots = t["lots"]
    n = len(t["hands"])
    kind = {f"{r}{s}": (r, s) for r in FACES for s in "CDHS"}

    def completes(cards: list[str], card: str) -> bool:
        have = set(cards) | {card}
        r, s = kind[card]
        same_rank = sum(f"{r}{x}" in have for x in "CDHS") >= 3
        runs = any(all(f"{q}{s}" in have for q in run) and r in run for run in ("JQK", "QKA"))
        return same_rank or runs

    picks: list[tuple[int, str]] = [(0, "The first card of the match")]
    for i, lot in enumerate(lots[1:], 1):
        st = _state_at(t, i)
        first = _first_speaker(lot, n)
        if any(completes(st["owned"][r], lot["card"]) for r in range(n) if r != first):
            picks.append((i, "A card that would complete a rival's set"))
            break
    if len(lots) - 1 not in [p[0] for p in picks]:
        picks.append((len(lots) - 1, "The last card turned"))
    return picks


def _moment(t: dict, i: int, title: str, match: int) -> Situation | None:
    """Lot ``i`` of trace ``t`` (match ``match``) as the first speaker sees it."""
    lot, st = t["lots"][i], _state_at(t, i)
    first = _first_speaker(lot, len(t["hands"]))
    state = {"seat": first, "hand": " ".join(st["hands"][first]), "card": lot["card"],
             "cards": ",".join(str(len(h)) for h in st["hands"]),
             "owned": ";".join(" ".join(o) for o in st["owned"]), "turner": lot["turner"],
             "sitting_out": "none" if lot["sitting_out"] is None else lot["sitting_out"],
             "paid": " ".join(st["paid"]), "gone": " ".join(st["gone"]), "lot": i}
    mine = " ".join(st["owned"][first]) or "no face card"
    question = (f"Match {match}, lot {i + 1}, {lot['card']} on offer: seat {first} speaks "
                f"first, owning {mine}, with money cards {state['hand'] or 'none'}; the "
                f"others own "
                + "; ".join(f"seat {s}: {' '.join(o) or 'nothing'}"
                            for s, o in enumerate(st["owned"]) if s != first)
                + (f". In the traced match seat {lot['buyer']} bought it for {lot['price']}."
                   if lot["buyer"] is not None else ". In the traced match it went unsold."))
    return Situation(title, state, question)


def _common_lots(lots: pd.DataFrame, share: float = 0.05) -> pd.DataFrame:
    """The lots that at least ``share`` of the matches reach (later lots rest on few
    matches, and those are the long, atypical ones)."""
    matches = lots["match"].nunique()
    reached = lots.groupby("lot")["match"].nunique()
    return lots[lots["lot"].isin(reached[reached >= share * matches].index)]


def money_section(ctx) -> Section:
    """Money over a match (the ``lots`` table: money held and the draw pile at every
    lot) and where it goes (the ``seats`` and ``matches`` tables: cards paid, drawn,
    reshuffles), with the default strategy in every seat."""
    import pandas as pd

    from analysis import tables as T
    from reports import figures as F
    from reports import text as W
    from reports.document import Section, Table

    lots, matches = ctx.table("lots"), ctx.table("matches")
    run = ctx.run("table")
    seats = run.seats
    n = ctx.n_seats
    s = Section("money", "Money flow")
    s.text(f"{run.completed:,} matches with {ctx.default_label} in every seat. Money is the "
           f"face value of the number cards a player holds (thousands; jokers count 0 until "
           f"they double a card in a payment).")
    common = _common_lots(lots).assign(money_per_player=lambda f: f["money_held"] / n)
    flow = T.clustered_means(common, "lot", "money_per_player").assign(quantity="money held")
    pile = T.clustered_means(common, "lot", "draw_pile").assign(quantity="draw pile (cards)")
    frame = pd.concat([flow, pile], ignore_index=True)
    stem = ctx.keep("money_by_lot", frame)
    length = T.clustered_means(matches.assign(all="all"), "all", "lots").iloc[0]
    resh = T.clustered_means(matches.assign(all="all"), "all", "reshuffles").iloc[0]
    draw = T.clustered_means(matches.assign(all="all", d=matches["draw"].astype(float)), "all",
                             "d").iloc[0]
    first, last = flow.iloc[0], flow.iloc[-1]
    s.reading(W.sentence(
        f"a match lasts {W.estimate(length['mean'], length['ci_low'], length['ci_high'], unit=' lots')} "
        f"and ends in a draw {W.share(draw['mean'])} of the time; players hold "
        f"{W.num(first['mean'], 1)} in money at the first lot and {W.num(last['mean'], 1)} at lot "
        f"{int(last['lot']) + 1}, and the payment pile is reshuffled into the draw pile "
        f"{W.num(resh['mean'], 2)} times per match"))
    per_seat = {q: T.clustered_means(seats.assign(all="all"), "all", q).iloc[0]
                for q in ("cards_paid", "cards_drawn", "money_spent", "overpaid", "money_left")}
    titles = {"cards_paid": "money cards paid", "cards_drawn": "money cards drawn",
              "money_spent": "money paid (face value)", "overpaid": "overpaid (no change given)",
              "money_left": "money left at the end"}
    shown = pd.DataFrame({
        "per player and match": [titles[q] for q in per_seat],
        "mean [95% CI]": [W.interval(r["mean"], r["ci_low"], r["ci_high"]) for r in per_seat.values()]})
    s.add(Table(shown, "Where the money goes, per player and match", ctx.keep("money_use", shown)))
    s.add(ctx.figure("money_by_lot", lambda ax: F.lines_by(frame, "lot", ax=ax,
                                                           xlabel="lot of the match",
                                                           ylabel="mean, 95% band"),
                     "Money held per player and cards in the draw pile at each lot (lots that "
                     "at least 5% of matches reach)", stem))
    return s


def prices_section(ctx) -> Section:
    """What a face card costs by rank and by moment of the match, and how often a
    purchase completes a set or blocks a rival's (the ``lots`` table)."""
    import pandas as pd

    from analysis import tables as T
    from reports import figures as F
    from reports import text as W
    from reports.document import Section, Table

    lots = ctx.table("lots")
    sold = lots.dropna(subset=["price"]).astype({"completed": bool, "blocked": bool})
    s = Section("prices", "Prices: what a face card costs, and when")
    by_rank = T.clustered_means(sold, "rank", "price").rename(
        columns={"mean": "price", "ci_low": "price_ci_low", "ci_high": "price_ci_high"})
    by_rank.insert(1, "label", [FACES[int(r)] for r in by_rank["rank"]])
    by_rank["sold_share"] = lots.groupby("rank")["price"].apply(lambda p: p.notna().mean()).values
    stem = ctx.keep("price_by_rank", by_rank)
    moment = sold.assign(moment=pd.cut(sold["lot"], [m[0] - 0.5 for m in MOMENTS] + [1e9],
                                       labels=[m[2] for m in MOMENTS]))
    by_moment = T.clustered_means(moment, "moment", "price")
    mstem = ctx.keep("price_by_moment", by_moment)
    kinds = []
    for label, mask in (("completes the buyer's set", sold["completed"]),
                        ("blocks a rival's set", sold["blocked"] & ~sold["completed"]),
                        ("neither", ~sold["completed"] & ~sold["blocked"])):
        part = sold[mask]
        if len(part):
            r = T.clustered_means(part.assign(all="all"), "all", "price").iloc[0]
            kinds.append({"purchase": label, "share of sales": W.share(mask.mean()),
                          "mean price [95% CI]": W.interval(r["mean"], r["ci_low"], r["ci_high"])})
    blocked = float(sold["blocked"].mean())
    cheap, dear = by_rank.loc[by_rank["price"].idxmin()], by_rank.loc[by_rank["price"].idxmax()]
    s.reading(W.sentence(
        f"a sold face card costs from {W.num(cheap['price'], 1)} on average ({cheap['label']}) to "
        f"{W.num(dear['price'], 1)} ({dear['label']}); {W.share(blocked)} of purchases take a card "
        f"that would have completed a rival's set"))
    s.add(Table(pd.DataFrame(kinds), "Purchases by what they did to the race",
                ctx.keep("purchase_kinds", pd.DataFrame(kinds))))
    shown = pd.DataFrame({"when": by_moment["moment"].astype(str),
                          "matches": by_moment["matches"].map("{:,}".format),
                          "mean price [95% CI]": W.intervals(by_moment["mean"], by_moment["ci_low"],
                                                             by_moment["ci_high"])})
    s.add(Table(shown, "Price by moment of the match (matches with a sale then)", mstem))
    s.add(ctx.figure("price_by_rank", lambda ax: F.lot_price_bars(by_rank, ax=ax,
                                                                 title="Price of a face card by rank"),
                     "Price of a sold face card by rank: mean with 95% interval", stem))
    return s


SPEC = GameSpec(
    game="aukcio",
    n=100_000,
    intro=("Three to six players race to own a set of three face cards (three of a rank in "
           "different suits, or J-Q-K or Q-K-A of a suit), buying them one by one at auction "
           "with number cards as money: a number card is worth its number, a joker doubles "
           "one card of a payment, and no change is given. A buyer draws two cards and sits "
           "out the next lot; an ace lets everyone else draw. Whoever completes a set first "
           "wins. This report plays four players, with two decks as the rules deal them."),
    rules={"players": 4},
    field=("0=setvalue", "1=setvalue:block=0,block_pair=0", "2=setvalue:advance=0.6,start=0.15",
           "3=random"),
    field_note=("Four strategies: setvalue (the default: prices a card by the "
                "sets it advances and the rivals' sets it blocks), the same without "
                "blocking, a greedier setvalue (more for its own sets) and random."),
    detail_share=0.25,
    variants=(
        Variant({"decks": 1}, "one deck for four players (K1): fewer face cards, so sets are "
                              "scarcer and easier to block"),
        Variant({"bidding": "single"}, "each player speaks once instead of the open auction (K7)"),
        Variant({"unsold": "bottom"}, "unsold cards go back under the deck instead of out of "
                                      "the game (K11)"),
        Variant({"ace_draw": 0}, "nobody draws when an ace is turned (K10)"),
        Variant({"buyer_draw": 1}, "the buyer draws one card, not two (K9)"),
    ),
    variant_share=0.5,
    tuning=Tuning("setvalue", "block", (0.0, 0.2, 0.4, 0.6, 0.7, 0.8, 1.0),
                  question="How much of its money should a setvalue player pay to take a card "
                           "that would complete a rival's set, when the others play the default?"),
    situations=situations,
    rollout_share=0.05,
    sections=insert_sections("seats", ("money", "prices")) + ("solved",),
    extra={"money": money_section, "prices": prices_section, "solved": solved_section},
    score_unit="wins",
)
