"""fpsb's report: the validation game, kept short: a field of linear bidders and the
self-play search for the equilibrium bid, whose answer is known ((n - 1) / n)."""

from __future__ import annotations

import pandas as pd

from reports import data as D
from reports import figures as F
from reports import text as W
from reports.document import Section, Table
from reports.solved import solved_section
from reports.spec import GameSpec

START = 0.2
"""Where self-play starts (the fraction of the value bid): far from the equilibrium."""


def equilibrium_section(ctx) -> Section:
    from analysis.optimize import optimize

    s = Section("equilibrium", "Optimal bid: self-play toward the equilibrium")
    players = int(ctx.rules["players"])
    target = (players - 1) / players
    n = ctx.size(0.25, 2048)
    steps = 6
    ctx.status(f"self-play, {steps} steps of {n:,} matches per evaluation")
    res = optimize(ctx.game, f"linear:a={START}", n=n, seed=ctx.seed, rules=dict(ctx.spec.rules),
                   self_play=steps)
    ctx.provenance["optimize"] = res.provenance
    hist = D.flat_history(res.history)
    stem = ctx.keep("self_play", hist)
    final = float(res.params["a"])
    chosen = int(res.exploitability["iteration"])
    e0, e_best = float(hist["exploitability"].iloc[0]), float(res.exploitability["estimate"])
    s.text(f"Every bidder bids a x its value. Starting from a = {START} in every seat, each "
           f"step replaces the profile by the best response to it (SciPy's bounded scalar "
           f"optimiser on {n:,} matches with common random numbers, Steffensen extrapolation "
           f"every other step). Exploitability is what a best responder, tuned on those "
           f"matches and scored on {n:,} fresh ones, gains over the profile's own score "
           f"against it; it is 0 at an equilibrium. Self-play keeps the least exploitable "
           f"profile it finds, which need not be the last.")
    s.reading(W.sentence(
        f"after {steps} steps from a = {START}, the least exploitable profile is a = "
        f"{final:.3f} (iteration {chosen}), {abs(final - target):.3f} from the theoretical "
        f"equilibrium (n - 1)/n = {target:.3f} for {players} bidders; its exploitability is "
        f"{e_best:.2g} {ctx.spec.score_unit} per match, against {e0:.2g} at the start"))
    shown = pd.DataFrame({
        "iteration": hist["iteration"].astype(str),
        "profile a": hist["param_a"].map(lambda v: f"{v:.4f}"),
        "best response a": hist["best_a"].map(lambda v: f"{v:.4f}"),
        "profile score": hist["score"].map(lambda v: f"{v:.5f}"),
        "exploitability": hist["exploitability"].map(lambda v: f"{v:.5f}")})
    s.add(Table(shown, "Self-play iterations", stem))
    s.add(ctx.figure("self_play", lambda ax: F.self_play_path(hist, ax=ax, param="a",
                                                              target=target),
                     f"Profile a per iteration (line) against the equilibrium {target:.3f} "
                     f"(dashed), and its exploitability (bars)", stem))
    return s


SPEC = GameSpec(
    game="fpsb",
    n=200_000,
    intro=("The validation game: each bidder draws a private value uniform on [0, 1), "
           "submits one sealed bid, and the highest bid wins the lot and pays its bid "
           "(score = value - bid). With n bidders the symmetric equilibrium bids (n - 1)/n "
           "of the value, so the optimiser's answer can be checked. This report plays four bidders."),
    rules={"players": 4},
    field=("0=linear:a=0.75", "1=linear:a=0.5", "2=linear:a=0.9", "3=random"),
    field_note=("Four bidders: a = 0.75 (the equilibrium for four), a = 0.5 (bids too low), "
                "a = 0.9 (bids too high) and random (a uniform fraction of the value)."),
    sections=("rules", "strategies", "equity", "equilibrium", "solved"),
    score_unit="units of value",
    extra={"equilibrium": equilibrium_section, "solved": solved_section},
)
