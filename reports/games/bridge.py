"""bridge's report: a team match of two notrump ranges (the equity section), a pairs
event of the bidding-system choices players argue about, and the natural system's
distance from the double-dummy par over 1,024 boards. Every new board costs a
double-dummy solve (about 0.15 s of CPU); the boards of the default seed that these
sections play ship solved, and every solved board is cached on disk, so the variants,
played on the same boards, cost no further solving."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports import figures as F
from reports import text as W
from reports.document import Section, Table
from reports.spec import GameSpec, Situation, Variant, insert_sections

PAIRS_FIELD = (
    ("natural", "the default: a strong notrump (15-17), five-card majors"),
    ("natural:nt_min=12,nt_max=14", "a weak notrump (12-14)"),
    ("natural:nt_min=14,nt_max=16", "a notrump one point lower (14-16)"),
    ("natural:open_min=11", "light openings (11 points)"),
    ("natural:game_min=24", "aggressive games (24 combined points)"),
    ("natural:penalty_min=3.5", "more penalty doubles (3.5 defensive tricks)"),
)
"""The pairs event's North-South field: bidding choices players argue about."""
PAR_BOARDS = 1024
"""Fewest boards of the par section (the shipped solved boards of seed 0); at the
default size the team match, the pairs event and the par section all play these."""
DISTANCES = ((0, 0), (1, 2), (3, 4), (5, 7), (8, 10), (11, 13), (14, 24))
"""IMP ranges of the par section's table."""

SEARCH = 400
"""Boards of the report's seed searched for the bid-EV situations."""


def situations(ctx) -> list[Situation]:
    """Two moments of boards of the report's seed, bid by natural in every seat: the
    responder after partner's one of a major and a pass, and a first speaker with 11 or
    12 HCP (open or pass?). The hidden hands are dealt to fit the calls made."""
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    from sim.games.bridge import core as C
    from sim.games.bridge import engine as E
    from sim.games.bridge import kernel as K
    from sim.games.bridge.pbn import format_hand
    from sim.games.bridge.rules import SEAT_NAMES, make

    rules = make(dict(ctx.spec.rules))
    seats = seat_strategies("bridge", rules, ["all=natural"])
    hands = E.deal(ctx.seed, 0, SEARCH)
    out, calls = E.auctions(rules, policy_arrays("bridge", seats), seats.labels, ctx.seed, 0,
                            hands, log=True)
    majors = {C.parse_call("1H"): "heart", C.parse_call("1S"): "spade"}
    found: dict[str, Situation] = {}
    for i in range(SEARCH):
        dealer, board = int(out[i, K.B_DEALER]), i % 16 + 1
        first = [int(c) for c in calls[i, :2]]
        if "respond" not in found and first[0] in majors and first[1] == C.PASS:
            seat = (dealer + 2) % 4
            hand = format_hand(int(hands[i, seat]))
            found["respond"] = Situation(
                f"Partner opened {C.call_text(first[0])}: the response",
                {"hand": f"{SEAT_NAMES[seat]}={hand}", "board": str(board),
                 "calls": f"{C.call_text(first[0])},P"},
                f"Board {board}: {SEAT_NAMES[seat]} holds {hand} "
                f"({int(C.hcp(int(hands[i, seat])))} HCP); partner opened one "
                f"{majors[first[0]]} and the next hand passed.")
        if "open" not in found and C.hcp(int(hands[i, dealer])) in (11, 12):
            hand = format_hand(int(hands[i, dealer]))
            found["open"] = Situation(
                "First to speak with 11-12 HCP: open or pass?",
                {"hand": f"{SEAT_NAMES[dealer]}={hand}", "board": str(board)},
                f"Board {board}: the dealer, {SEAT_NAMES[dealer]}, holds {hand} "
                f"({int(C.hcp(int(hands[i, dealer])))} HCP).")
        if len(found) == 2:
            break
    return [found[k] for k in ("respond", "open") if k in found]


def pairs_section(ctx) -> Section:
    """Each system choice sits North-South on the same boards against natural East-West;
    every board is matchpointed across the field (B11)."""
    from analysis.bridge import pairs

    s = Section("pairs", "Pairs event: bidding-system choices, matchpointed")
    specs = [spec for spec, _ in PAIRS_FIELD]
    n = ctx.size(4.0, 64)
    ctx.status(f"pairs event of {len(specs)} systems ({n:,} boards)")
    res = pairs(specs, n, seed=ctx.seed, opponents="natural", rules=dict(ctx.spec.rules))
    ctx.provenance["pairs"] = res.provenance
    frame = res.frame.assign(why=[why for _, why in PAIRS_FIELD])
    frame = frame.sort_values("pct", ascending=False, kind="stable", ignore_index=True)
    stem = ctx.keep("pairs", frame)
    diffs = res.differences
    dstem = ctx.keep("pairs_differences", diffs)
    s.text(f"The same {n:,} boards at {len(specs)} tables: at each, one system below sits "
           f"North-South against natural (the default) East-West, and each board's North-"
           f"South scores are matchpointed across the tables (2 per score beaten, 1 per "
           f"tie; B11). The mean matchpoint percentage is 50% for an average system; "
           f"intervals are 95% across boards, differences paired by board.")
    best, default = frame.iloc[0], frame[frame["field"] == "natural"].iloc[0]
    text = (f"{best['why'][0].upper()}{best['why'][1:]}, {best['field']}, scores most: "
            f"{W.estimate(best['pct'], best['ci_low'], best['ci_high'], 1, '%')}")
    if best["field"] != "natural":
        row = diffs[((diffs["first"] == "natural") & (diffs["second"] == best["field"]))
                    | ((diffs["first"] == best["field"]) & (diffs["second"] == "natural"))].iloc[0]
        sign = 1 if row["first"] == best["field"] else -1  # diff: first minus second
        lo, hi = sorted((sign * row["ci_low"], sign * row["ci_high"]))
        text += "; " + W.difference("it", sign * row["diff"], lo, hi, other="the default",
                                    unit="percentage points", suffix=" per board",
                                    p=row["p_value"])
    s.reading(W.sentence(text + f"; the default scores "
                         f"{W.estimate(default['pct'], default['ci_low'], default['ci_high'], 1, '%')}"))
    s.add(Table(pd.DataFrame({
        "North-South system": frame["field"], "what it changes": frame["why"],
        "matchpoints, % [95% CI]": W.intervals(frame["pct"], frame["ci_low"], frame["ci_high"]),
        "mean NS score": frame["score_ns"].map(lambda v: W.num(v, 0))}),
        "Pairs event: mean matchpoint percentage per system", stem))
    s.add(Table(pd.DataFrame({
        "A - B": diffs["first"] + " - " + diffs["second"],
        "difference, % points per board [95% CI]": W.intervals(
            diffs["diff"], diffs["ci_low"], diffs["ci_high"], sign=True),
        "p": diffs["p_value"].map(W.p_text)}),
        "Paired differences in matchpoint percentage (same boards)", dstem))
    s.add(ctx.figure("pairs", lambda ax: F.interval_bars(
        list(frame["field"]), frame["pct"], frame["ci_low"], frame["ci_high"], ax=ax,
        reference=50.0, reference_label="average: 50%", title="Pairs event",
        xlabel="mean matchpoint percentage (95% CI)", value_format="{:.1f}%"),
        "Mean matchpoint percentage of each North-South system against natural East-West "
        "(95% intervals across boards)", stem))
    return s


def par_section(ctx) -> Section:
    """natural in every seat over the shipped solved boards: how far each board's result
    lands from the double-dummy par, in IMPs."""
    from analysis.runs import simulate
    from analysis.stats import mean_ci

    s = Section("par", "The natural system against the double-dummy par")
    n = ctx.size(4.0, PAR_BOARDS)
    ctx.status(f"natural in every seat against par ({n:,} boards)")
    run = simulate("bridge", n, seed=ctx.seed, rules=dict(ctx.spec.rules),
                   strategies=["all=natural"], progress=False)
    ctx.provenance["par"] = run.provenance
    ns = run.seats[run.seats["seat"] == 0]
    imps = ns["imps_ns_vs_par"].to_numpy(np.float64)
    far, flo, fhi = mean_ci(np.abs(imps))
    at, alo, ahi = mean_ci((imps == 0).astype(np.float64), share_of=1)
    signed, slo, shi = mean_ci(imps)
    far_of = np.abs(imps)
    counts = [int(((far_of >= lo) & (far_of <= hi)).sum()) for lo, hi in DISTANCES]
    frame = pd.DataFrame({"imps_from": [lo for lo, _ in DISTANCES],
                          "imps_to": [hi for _, hi in DISTANCES], "boards": counts,
                          "share": np.array(counts) / len(imps)})
    labels = [str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in DISTANCES]
    stem = ctx.keep("par", frame)
    s.text(f"natural bids all four hands of {n:,} boards of seed {ctx.seed}; each board's "
           f"North-South score is compared with the board's par score (B12: the result of "
           f"best bidding by both sides, double dummy) in IMPs. Both sides bid the same "
           f"system, so North-South's mean against par is zero up to noise; how far a board "
           f"lands from par, whichever side gains, is the system's quality figure (a "
           f"perfect double-dummy bidder at every seat would score 0).")
    s.reading(W.sentence(
        f"a board played by natural at every seat lands "
        f"{W.estimate(far, flo, fhi, unit=' IMPs')} from par on average, and exactly at par "
        f"on {W.estimate(at, alo, ahi, 100, '%')} of the boards; North-South's signed mean "
        f"is {W.estimate(signed, slo, shi, unit=' IMPs', sign=True)} per board"))
    s.add(Table(pd.DataFrame({"IMPs from par": labels,
                              "boards": frame["boards"].map(lambda v: f"{v:,}"),
                              "share": frame["share"].map(W.share)}),
                "How far each board lands from par (IMPs, either side's gain)", stem))
    s.add(ctx.figure("par", lambda ax: F.interval_bars(
        labels, 100 * frame["share"],
        np.full(len(frame), np.nan), np.full(len(frame), np.nan),
        colors=["#0072B2"] * len(frame), ax=ax, title="Distance from par per board",
        xlabel="share of boards, %", value_format="{:.1f}%"),
        "Share of boards by their distance from the double-dummy par, in IMPs", stem))
    return s


SPEC = GameSpec(
    game="bridge",
    n=256,
    intro=("Contract bridge bidding, scored on double-dummy results: four players in two "
           "partnerships (North-South, seats 0 and 2, against East-West) bid for the "
           "contract; the declarer takes the double-dummy number of tricks in its strain, "
           "and the board is scored by duplicate scoring and compared with the par score "
           "in IMPs. Boards are few here because each new one needs an exact double-dummy "
           "solve; `bidlab simulate bridge -n N` scales up (solved boards are cached)."),
    field=("0=natural", "1=natural:nt_min=12,nt_max=14", "2=natural",
           "3=natural:nt_min=12,nt_max=14"),
    field_note=("Two versions of the natural system: the default, with a strong notrump "
                "(15-17), and the same with a weak notrump (12-14). The equity section "
                "plays them as a team match: each sits North-South at one table and "
                "East-West at the other, on the same boards."),
    tournament_share=4.0,
    variants=(Variant({"vulnerability": "none"}, "nobody is vulnerable on any board"),
              Variant({"vulnerability": "both"}, "both sides are vulnerable on every board")),
    score_unit="points",
    situations=situations,
    sections=insert_sections("equity", ("pairs", "par")),
    extra={"pairs": pairs_section, "par": par_section},
)
