"""pitch's report: a field of bidding styles and card play, contracts from the default
table (pitch's own ``contracts`` section), bid-EV (ranked by how often a call wins the
game) at three moments of real games, and the house variants players argue about: who
gains (the generic section) and what each rule does to the game itself (``house``: game
length, redeals, contracts made, the dealer's edge, holds), paired by game."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports import figures as F
from reports import resolved as R
from reports import text as W
from reports.document import Section, Table
from reports.solved import solved_section
from reports.spec import GameSpec, Situation, Variant, insert_sections

SEARCH = 40
"""Games of the report's seed searched (in order) for each typical situation."""
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


# -- bid-EV situations from real games ----------------------------------------------------

def _value(hand: list[str], rules: dict) -> tuple[str, float]:
    """(best trump suit, expected points) of a hand as the strength bidder values it."""
    from sim.cards import SUITS, parse_cards
    from strategies.pitch import best_suit

    mask = sum(1 << c for c in parse_cards(hand))
    suit, value = best_suit(np.int64(mask), rules["players"], 52 + int(rules["joker"]),
                            int(rules["joker"]), int(rules["low_to"] == "captured"))
    return SUITS[int(suit)], float(value)


def _call_text(bid: dict) -> str:
    if bid.get("hold"):
        return f"held at {bid['bid']}"
    return "passed" if bid["bid"] is None else f"bid {bid['bid']}"


def _state(deal: dict, deal_no: int, seat: int, scores: list[int]) -> dict:
    before = []
    for b in deal["bids"]:
        if b["seat"] == seat:
            break
        before.append("pass" if b["bid"] is None else str(b["bid"]))
    return {"seat": seat, "hand": " ".join(deal["hands"][seat]), "dealer": deal["dealer"],
            "bids": ",".join(before), "scores": ",".join(map(str, scores)), "deal": deal_no}


def _story(deal: dict, seat: int, game: int, deal_no: int, rules: dict, scores: list[int]) -> str:
    """What the asking seat knows and what happened in the real game, in words."""
    suit, value = _value(deal["hands"][seat], rules)
    earlier = deal["bids"][:[b["seat"] for b in deal["bids"]].index(seat)]
    heard = ("it speaks first" if not earlier else
             "before it " + W.join([f"seat {b['seat']} {_call_text(b)}" for b in earlier]))
    mine = next(b for b in deal["bids"] if b["seat"] == seat)
    if deal["pitcher"] is None:
        outcome = f"it {_call_text(mine)}; everyone passed and the deal was thrown in"
    else:
        result = (f"pitched {deal['contract']} in {SUIT_NAMES[deal['trump']]} and "
                  f"{'made it' if deal['made'] else 'was set'}")
        outcome = (f"it {_call_text(mine)}, {result}" if deal["pitcher"] == seat else
                   f"it {_call_text(mine)}; seat {deal['pitcher']} {result}")
    score_text = ("every score is 0" if not any(scores) else
                  f"it has {scores[seat]} points against "
                  f"{W.join([str(x) for s, x in enumerate(scores) if s != seat])}"
                  f" (target {rules['target']})")
    who = (f"seat {seat} deals and has" if deal["dealer"] == seat else
           f"seat {deal['dealer']} deals; seat {seat} has")
    return (f"Game {game} of the report's seed, deal {deal_no + 1}: {who} "
            f"{' '.join(deal['hands'][seat])} (the strength bidder values it at "
            f"{value:.1f} points with {SUIT_NAMES[suit]} as trump); {heard}; {score_text}. "
            f"In the real game {outcome}.")


def _high_before(deal: dict, seat: int) -> int:
    """The highest bid made before ``seat`` spoke in ``deal`` (0: none)."""
    high = 0
    for b in deal["bids"]:
        if b["seat"] == seat:
            break
        high = max(high, b["bid"] or 0)
    return high


def situations(ctx) -> list[Situation]:
    """Three moments of real games of the report's seed (default strategies): the first
    speaker of a game's first deal; a dealer who may hold over a bid (P3); a player
    whose rival is within two points of the target. Each is seen by that seat at its
    turn, with the bids really made before it and the scores really standing."""
    from analysis.runs import trace

    rules = ctx.rules
    target = int(rules["target"])
    found: dict[str, Situation] = {}
    for game in range(SEARCH):
        if len(found) == 3:
            break
        t = trace("pitch", seed=ctx.seed, index=game, rules=dict(ctx.spec.rules))
        n = len(t["deals"][0]["hands"])
        scores = [0] * n
        for deal_no, deal in enumerate(t["deals"]):
            high = _high_before(deal, deal["dealer"])
            if "first" not in found and deal_no == 0:
                seat = (deal["dealer"] + 1) % n
                found["first"] = Situation(
                    "First to speak in a new game", _state(deal, deal_no, seat, scores),
                    _story(deal, seat, game, deal_no, rules, scores))
            if ("hold" not in found and rules["dealer_hold"] and 0 < high < 4
                    and max(scores) < target - 2):
                seat = deal["dealer"]
                found["hold"] = Situation(
                    "The dealer, last to speak, may hold", _state(deal, deal_no, seat, scores),
                    _story(deal, seat, game, deal_no, rules, scores))
            if "late" not in found and max(scores) >= target - 2:
                leader = max(range(n), key=lambda s: (scores[s], -s))
                others = [s for s in range(n) if s != leader and _high_before(deal, s) < 4]
                seat = max(others, key=lambda s: (_value(deal["hands"][s], rules)[1], -s))
                found["late"] = Situation(
                    "A rival is within two points of the target",
                    _state(deal, deal_no, seat, scores),
                    _story(deal, seat, game, deal_no, rules, scores)
                    + f" Seat {leader} leads with {scores[leader]} points.")
            scores = list(deal["scores_after"])
    return [found[k] for k in ("first", "hold", "late") if k in found]


# -- contracts: how often each is pitched and made ------------------------------------------

def contracts_section(ctx) -> Section | None:
    """Made rate by contract over the deals played (the pitcher's row of the ``deals``
    table), with intervals clustered by game."""
    from analysis import tables as T

    rows = ctx.table("deals").dropna(subset=["contract", "made"])
    rows = rows[rows["seat"] == rows["pitcher"]]  # one row per deal played: the pitcher's
    if rows.empty:
        return None
    rows = rows.assign(made=rows["made"].astype(float))
    made = T.clustered_means(rows, "contract", "made")
    counts = rows.groupby("contract").size()
    made["share"] = [counts[c] / counts.sum() for c in made["contract"]]
    stem = ctx.keep("contracts", made)
    s = Section("contracts", "Contracts")
    top = made.loc[made["share"].idxmax()]
    s.reading(W.sentence(
        f"the commonest contract is {W.value(top['contract'])} ({W.share(top['share'])} of all "
        f"contracts), made {W.estimate(top['mean'], top['ci_low'], top['ci_high'], 100, '%')} "
        f"of the time"))
    shown = pd.DataFrame({"contract": made["contract"].map(W.value),
                          "share of contracts": made["share"].map(W.share),
                          "made, % [95% CI]": W.intervals(made["mean"],
                                                          made["ci_low"].clip(0, 1),
                                                          made["ci_high"].clip(0, 1), 100)})
    s.add(Table(shown, "Contracts: how often each is played and made", stem))
    s.add(ctx.figure("contracts", lambda ax: F.interval_bars(
        [f"contract {W.value(c)}" for c in made["contract"]], 100 * made["mean"],
        100 * made["ci_low"].clip(0, 1), 100 * made["ci_high"].clip(0, 1),
        colors=["#0072B2"] * len(made), ax=ax,
        title="Contracts made", xlabel="% made (95% CI)", value_format="{:.1f}%"),
        "Share of contracts made, by contract, with 95% intervals", stem))
    return s


# -- what each house rule does to the game --------------------------------------------------

# (key, title, unit in sentences, scale for display)
HOUSE_METRICS = (
    ("deals", "deals per game", "deals", 1.0),
    ("redeals", "redeals per game", "redeals", 1.0),
    ("made", "contracts made, %", "percentage points", 100.0),
    ("contract", "mean contract", "", 1.0),
    ("dealer_edge", "dealer's edge, points per deal", "points", 1.0),
    ("hold", "contracts taken by a hold, %", "percentage points", 100.0),
    ("stuck", "contracts forced on the dealer, %", "percentage points", 100.0),
    ("smudge", "games won by a smudge below the target, %", "percentage points", 100.0),
)
SUBJECTS = {"deals": "the number of deals per game", "redeals": "the number of redeals per game",
            "made": "the share of contracts made", "contract": "the mean contract",
            "dealer_edge": "the dealer's edge per deal", "hold": "the share of contracts held",
            "stuck": "the share of contracts forced on a stuck dealer",
            "smudge": "the share of games won by a smudge"}


def _per_game(run, target: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per game, a numerator and a denominator for every house metric (the metric is
    their ratio over all games: per-game means have denominator 1)."""
    seats = run.seats.sort_values(["match", "seat"], kind="stable")
    n = int(seats["seat"].max()) + 1
    games = len(seats) // n
    ones = np.ones(games)

    def per(col):
        return seats[col].to_numpy(np.float64).reshape(games, n)

    pitched = per("pitched").sum(axis=1)
    wins = per("win")
    winner = np.where(wins.max(axis=1) == 1.0, wins.argmax(axis=1), -1)
    deals = run.table("deals").sort_values(["match", "deal", "seat"], kind="stable")
    match = deals["match"].to_numpy()[::n]
    score = deals["deal_score"].to_numpy(np.float64).reshape(-1, n)
    dealer = deals["dealer"].to_numpy()[::n].astype(np.int64)
    pitcher = deals["pitcher"].fillna(-1).to_numpy()[::n].astype(np.int64)
    played = pitcher >= 0
    mine = score[np.arange(len(dealer)), dealer]
    edge = np.where(played, mine - (score.sum(axis=1) - mine) / (n - 1), 0.0)
    index = np.searchsorted(np.unique(seats["match"].to_numpy()), match)

    def total(values):
        return np.bincount(index, weights=np.asarray(values, np.float64), minlength=games)

    contract = deals["contract"].fillna(0).to_numpy()[::n].astype(np.float64)
    made = deals["made"].fillna(False).to_numpy()[::n].astype(bool)
    after = deals["score_after"].to_numpy(np.float64).reshape(-1, n)
    last = np.r_[match[1:] != match[:-1], True]
    smudge = (last & played & made & (contract == 4) & (winner[index] == pitcher)
              & (after[np.arange(len(dealer)), np.maximum(pitcher, 0)] < target))
    return {
        "deals": (per("deals")[:, 0], ones),
        "redeals": (per("redeals")[:, 0], ones),
        "made": (per("made").sum(axis=1), pitched),
        "contract": (total(np.where(played, contract, 0)), pitched),
        "dealer_edge": (total(edge), total(played)),
        "hold": (total(deals["hold"].to_numpy()[::n] & played), pitched),
        "stuck": (total(deals["stuck"].to_numpy()[::n] & played), pitched),
        "smudge": (total(smudge), ones),
    }


def house_frame(base, runs: dict[str, object], target_of: dict[str, int]) -> pd.DataFrame:
    """One row per variant and metric: ``variant, metric, title, default, value, diff,
    ci_low, ci_high, p_value`` (diff = variant - default, paired by game: a Student-t
    interval and test on the games' linearised contributions, ``analysis.ratios``)."""
    from analysis.ratios import paired_ratio

    b = _per_game(base, target_of["default"])
    rows = []
    for label, run in runs.items():
        v = _per_game(run, target_of[label])
        for key, title, _, _ in HOUSE_METRICS:
            r = paired_ratio(b[key], v[key])
            rows.append({"variant": label, "metric": key, "title": title, "default": r["base"],
                         **{k: r[k] for k in ("value", "diff", "ci_low", "ci_high", "p_value")}})
    return pd.DataFrame(rows)


def _house_reading(v: Variant, part: pd.DataFrame) -> str:
    """The rule's largest effects (by their t statistic), in words."""
    moved = part[(part["ci_low"] > 0) | (part["ci_high"] < 0)].copy()
    lead = f"with {v.label}" + (f" ({v.why})" if v.why else "")
    if (part[["diff", "ci_low", "ci_high"]] == 0).all().all():
        return (lead + ": not one of these figures changes in any game, so with these "
                       "strategies the rule never comes into play")
    if moved.empty:
        return lead + ": none of these figures changes detectably"
    half = (moved["ci_high"] - moved["ci_low"]) / 2
    moved["t"] = (moved["diff"].abs() / half.where(half > 0, np.inf)).fillna(np.inf)
    moved.loc[half == 0, "t"] = np.inf
    moved = moved.sort_values("t", ascending=False).head(3)
    units = {k: (u, s) for k, _, u, s in HOUSE_METRICS}
    parts = []
    for r in moved.itertuples():
        unit, scale = units[r.metric]
        parts.append(_move(SUBJECTS[r.metric], r, unit, scale))
    return lead + ", " + W.join(parts)


def _move(subject: str, r, unit: str, scale: float) -> str:
    """``"the share of contracts made falls from 75.4% to 71.2% (-4.2 percentage points,
    95% CI -4.6 to -3.8, p < 0.001)"``."""
    d, lo, hi = r.diff * scale, r.ci_low * scale, r.ci_high * scale
    places = max(1, W.places_for(lo, hi, d))
    pct = "%" if scale == 100 else ""
    change = f"{W.num(d, places, True)}{' ' + unit if unit else ''}"
    ci = "" if hi == lo else f", 95% CI {W.num(lo, places, True)} to {W.num(hi, places, True)}"
    return (f"{subject} {'rises' if d > 0 else 'falls'} from {W.num(r.default * scale, places)}"
            f"{pct} to {W.num(r.value * scale, places)}{pct} ({change}{ci}, {W.p_text(r.p_value)})")


def house_section(ctx) -> Section:
    from analysis.runs import simulate

    s = Section("house", "House rules: what each one does to the game")
    variants = ctx.spec.variants or ()
    n = min(ctx.size(ctx.spec.variant_share), 100_000)
    s.text(f"The same {n:,} games (same seed) under the default rules and under each "
           f"variant, {ctx.default_label} in every seat; each change is paired by game. The "
           f"strategies do not adapt to the rules (strength bids the same whether or not a "
           f"smudge wins or a stuck dealer must play), so these are the rules' own effects "
           f"with unchanged players (\"what if nobody adapts\"). The dealer's edge is the "
           f"dealer's deal score minus the mean of the other players', over the deals "
           f"played.")
    runs, target_of = {}, {}
    for k, v in enumerate((Variant({}),) + tuple(variants)):
        ctx.status(f"house rules {k + 1}/{len(variants) + 1} ({n:,} games)")
        run = simulate(ctx.game, n, seed=ctx.seed, rules={**ctx.spec.rules, **v.rules},
                       detail=True, progress=False)
        runs[v.label] = run
        target_of[v.label] = int(run.provenance["rules"]["target"])
    ctx.provenance["house"] = {label: r.provenance["rules"] for label, r in runs.items()}
    base = runs.pop("default")
    frame = house_frame(base, runs, target_of)
    stem = ctx.keep("house", frame)
    for v in variants:
        s.reading(W.sentence(_house_reading(v, frame[frame["variant"] == v.label])))
    adapted = _resolved(ctx, s, variants, n)
    rows = []
    for r in frame.itertuples():
        scale = next(sc for k, _, _, sc in HOUSE_METRICS if k == r.metric)
        row = {"variant": r.variant, "figure": r.title,
               "default": W.num(r.default * scale, 2),
               "variant value": W.num(r.value * scale, 2),
               "change [95% CI]": W.interval(r.diff, r.ci_low, r.ci_high, scale, sign=True),
               "p": W.p_text(r.p_value)}
        if adapted is not None:
            row.update(R.cells(adapted, r.variant, r.metric, scale))
        rows.append(row)
    title = ("Each house rule against the default rules: the game's figures and their "
             "paired change")
    if adapted is not None:
        title += (", with fixed strategies and re-solved (every seat playing the solution "
                  "for the rules in force)")
    s.add(Table(pd.DataFrame(rows), title, stem))
    for key, label in (("deals", "deals per game"),
                       ("dealer_edge", "dealer's edge (points per deal)")):
        part = frame[frame["metric"] == key]
        base_value = float(part["default"].iloc[0])
        s.add(ctx.figure(f"house_{key}", lambda ax, p=part, b=base_value, lab=label:
                         F.interval_bars(list(p["variant"]), p["value"],
                                         p["value"] - (p["diff"] - p["ci_low"]),
                                         p["value"] + (p["ci_high"] - p["diff"]),
                                         colors=["#0072B2"] * len(p), ax=ax, reference=b,
                                         reference_label=f"default rules: {b:.2f}",
                                         title=f"{lab[0].upper()}{lab[1:]} under each house rule",
                                         xlabel=f"{lab} (95% CI of the paired change)",
                                         value_format="{:.2f}"),
                         f"{label[0].upper()}{label[1:]} under each variant; whiskers: the 95% "
                         f"interval of the change against the default rules (paired by game)",
                         stem))
    return s


def _resolved(ctx, s: Section, variants, n: int) -> pd.DataFrame | None:
    """The re-solved reading (:func:`reports.resolved.house`) of pitch's house section."""
    def frame_of(runs):
        target_of = {label: int(run.provenance["rules"]["target"]) for label, run in runs.items()}
        base = runs.pop("default")
        return house_frame(base, runs, target_of)

    def read(frame, shown):
        for v in shown:
            s.reading(W.sentence("re-solved, " + _house_reading(
                v, frame[frame["variant"] == v.label])))

    return R.house(ctx, s, variants, n, "games", frame_of, read)


SPEC = GameSpec(
    game="pitch",
    n=20_000,
    intro=("Auction Pitch (Setback): four players, each for himself, are dealt six cards. "
           "One round of bidding from the dealer's left: pass or bid 1 to 4, each bid above "
           "the last; the dealer, speaking last, may take the contract at the highest bid "
           "(hold). The winner names trumps by leading to the first trick; six tricks follow. "
           "A deal scores four points: high and low trump, the jack of trumps, and game (most "
           "card points in tricks). The pitcher who falls short of his bid loses it; the "
           "first to 7 wins."),
    field=("0=basic", "1=strength+greedy:aggression=1.4", "2=strength+greedy:aggression=0.7",
           "3=strength+pimc"),
    field_note=("Four strategies: the default (strength bidding, greedy card play), a bolder "
                "bidder (aggression 1.4: bids on 40% more than the hand is worth), a timid one "
                "(aggression 0.7), and the default bidder with Monte Carlo card play (pimc at "
                "its defaults, 32 sampled deals per card, played out with greedy)."),
    detail_share=0.25,
    variants=(
        Variant({"dealer_hold": False}, "the dealer may not take the contract at the highest "
                                        "bid"),
        Variant({"all_pass": "stuck_dealer"}, "when all pass, the dealer must play min_bid "
                                              "instead of a redeal"),
        Variant({"low_to": "captured"}, "low goes to whoever wins the lowest trump, not to "
                                        "whoever was dealt it"),
        Variant({"game_tie": "pitcher"}, "a tie for game goes to the pitcher"),
        Variant({"smudge": True}, "bidding 4 and making it wins the game at once"),
        Variant({"joker": True}, "53 cards: the joker is a trump worth a point; target 10"),
    ),
    variant_share=0.25,  # pimc plays in every variant's tournament: the costly part
    situations=situations,
    rollout_share=0.5,
    sections=insert_sections("seats", ("contracts",)) + ("house", "solved"),
    extra={"contracts": contracts_section, "house": house_section, "solved": solved_section},
)
