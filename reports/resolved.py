"""The re-solved reading of a report's house variants, for games with a solver: the same
comparison with players who adapt (every seat plays the solution for the variant's own
rules, as ``bidlab compare --solved`` does) beside the fixed strategies' reading.

A solve of pitch or vybory takes minutes, longer than a whole default report, so the
report never solves: it plays the solutions that are already there (the user's folder,
then the shipped ones) and names the variants that have none, with the command that
makes each; once made, the next report shows them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reports.spec import Variant

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Plan:
    strategy: str
    """The strategy every seat plays (``solved+greedy``)."""
    solutions: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per label (``default`` and each variant) with a solution: its provenance."""
    missing: dict[str, str] = field(default_factory=dict)
    """Per label without one: the ``bidlab solve`` command that makes it."""
    took: str = ""

    def variants(self, variants: Sequence[Variant]) -> list[Variant]:
        """The variants the re-solved reading can show: those with a solution, where the
        default rules have one too (the baseline of every change)."""
        if "default" not in self.solutions:
            return []
        return [v for v in variants if v.label in self.solutions]


def plan(ctx, variants: Sequence[Variant]) -> Plan | None:
    """Which of the report's rule sets (the default's and each variant's) have a
    solution; None where the game has no solver."""
    from analysis import solved as AS
    from analysis.solvers import solvable, typical_time

    if ctx.game not in solvable():
        return None
    out = Plan(AS.strategy(ctx.game), took=typical_time(ctx.game))
    for v in (Variant({}),) + tuple(variants):
        rules = {**ctx.spec.rules, **v.rules}
        found = AS.locate(ctx.game, rules)
        if found is None:
            out.missing[v.label] = AS.command(ctx.game, rules)
        else:
            out.solutions[v.label] = AS.provenance(*found)
    ctx.provenance["house_resolved"] = {"strategy": out.strategy, "solutions": out.solutions,
                                        "missing": out.missing}
    return out


def house(ctx, s, variants: Sequence[Variant], n: int, noun: str,
          frame_of: Callable[[dict[str, Any]], pd.DataFrame],
          read: Callable[[pd.DataFrame, list[Variant]], None]) -> pd.DataFrame | None:
    """The re-solved reading of a game's own house section (pitch, vybory): the intro
    sentence into ``s``; for the variants that can be shown, ``n`` ``noun`` of each rule
    set (``default`` first) with every seat playing its solution, made into the
    section's frame by ``frame_of`` (kept as ``house_resolved``) and read by ``read``;
    the note on what is missing. Returns the frame (None where nothing is shown, or the
    game has no solver)."""
    from analysis.runs import simulate

    p = plan(ctx, variants)
    if p is None:
        return None
    shown = p.variants(variants)
    s.text(intro(p, shown))
    frame = None
    if shown:
        runs: dict[str, Any] = {}
        for k, v in enumerate((Variant({}),) + tuple(shown)):
            ctx.status(f"house rules re-solved {k + 1}/{len(shown) + 1} ({n:,} {noun})")
            runs[v.label] = simulate(ctx.game, n, seed=ctx.seed,
                                     rules={**ctx.spec.rules, **v.rules},
                                     strategies={"all": p.strategy}, detail=True,
                                     progress=False)
        frame = frame_of(runs)
        ctx.keep("house_resolved", frame)
        read(frame, shown)
    note = missing_note(ctx, p)
    if note:
        s.note(note)
    return frame


def missing_note(ctx, p: Plan, compare_hint: bool = True) -> str:
    """What the re-solved reading leaves out and how to fill it in; "" where nothing."""
    if not p.missing:
        return ""
    cmds = "; ".join(f"{label}: `{cmd}`" for label, cmd in p.missing.items())
    took = f"A solve takes {p.took}, longer than this whole report, so" if p.took else "So"
    text = (f"Not re-solved, for want of a solution: {cmds}. {took} the report plays only "
            f"the solutions already made; run these once and the next report shows them here")
    if compare_hint:
        some = next(iter(label for label in p.missing if label != "default"), None)
        if some:
            text += (f"; `bidlab compare {ctx.game} --variant default --variant {some} "
                     f"--solved` compares the scores with players who adapt")
    return text + "."


def intro(p: Plan, shown: Sequence[Variant], where: str = "columns") -> str:
    """One sentence on the re-solved ``where`` (a house table's columns, or a table of
    their own)."""
    if not shown:
        return (f"With players who adapt (every seat playing {p.strategy}, the solution of "
                f"`bidlab solve` for the variant's own rules) no variant can be shown yet: "
                f"see the note below.")
    return (f"The re-solved {where} play the same games with players who adapt: every seat "
            f"plays {p.strategy}, the solution of `bidlab solve` for the variant's own rules "
            f"(and the default's for the default), so a change there includes how good "
            f"players change their bidding for the rule; shown for "
            f"{', '.join(v.label for v in shown)}.")


def cells(frame: pd.DataFrame, variant: str, metric: str, scale: float) -> dict[str, str]:
    """The re-solved columns of a house table's row: the default's and the variant's
    figure with the solutions, the paired change and its p-value (``not solved`` where
    the variant has no solution; the default's figure all the same)."""
    from reports import text as W

    hit = frame[(frame["variant"] == variant) & (frame["metric"] == metric)]
    if hit.empty:
        same = frame[frame["metric"] == metric]
        return {"re-solved: default": W.num(same["default"].iloc[0] * scale, 2)
                if len(same) else "", "re-solved: variant": "not solved",
                "re-solved: change [95% CI]": "", "re-solved: p": ""}
    r = hit.iloc[0]
    return {"re-solved: default": W.num(r["default"] * scale, 2),
            "re-solved: variant": W.num(r["value"] * scale, 2),
            "re-solved: change [95% CI]": W.interval(r["diff"], r["ci_low"], r["ci_high"],
                                                     scale, sign=True),
            "re-solved: p": W.p_text(r["p_value"])}
