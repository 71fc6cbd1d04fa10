"""The report's house-variant sections for solved games: beside the fixed strategies'
reading, the re-solved one (every seat playing the solution for the variant's rules)
where the solutions exist; the others named, with the command that makes each, and
never solved by the report (a solve takes longer than the whole report)."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

from reports.games import spec_for
from reports.report import build_report
from reports.spec import Variant
from sim.games import get_game
from strategies import solved


def stand_in(game: str, rules: dict) -> None:
    """The default rules' shipped solution saved as the solution for ``rules`` in the
    user's folder: a legal table of the same abstraction, enough to check the plumbing
    (it is not the variant's equilibrium)."""
    r = get_game(game).make_rules(rules)
    abstraction = solved.abstraction_of(game, r)
    shipped, _ = solved.find(game, get_game(game).make_rules({}).to_json(),
                             solved.abstraction_of(game, get_game(game).make_rules({})))
    solved.Solution(game, r.to_json(), abstraction.to_json(), shipped.table,
                    {**shipped.meta, "iterations": 7}).save(
        solved.default_path(game, r.to_json(), abstraction))


@pytest.mark.parametrize("game,shipped,missing", [
    ("vybory", {"scoring": "result"}, {"deals_per_match": 4}),
    ("pitch", {"smudge": True}, {"target": 9})])
def test_house_section_shows_both_readings_where_solutions_exist(game, shipped, missing,
                                                                 tmp_path, monkeypatch):
    """A variant whose solution ships is re-solved beside the fixed strategies' reading;
    one without is named with the command that makes it, and is re-solved once that
    solution exists."""
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path / "solutions"))
    spec = replace(spec_for(game), variants=(Variant(shipped), Variant(missing)))
    label = {k: ",".join(f"{key}={str(v).lower()}" for key, v in rules.items())
             for k, rules in (("shipped", shipped), ("missing", missing))}

    def house(folder: str) -> tuple[str, pd.DataFrame]:
        out = build_report([game], n=512, seed=2, out=tmp_path / folder, sections=["house"],
                           specs={game: spec}, progress=False, strict=True)
        return ((out.out / "report.md").read_text(),
                pd.read_parquet(out.out / "data" / f"{game}_house_resolved.parquet"))

    text, frame = house("one")
    assert "what if nobody adapts" in text and "Not re-solved" in text
    assert "re-solved: change [95% CI]" in text and "not solved" in text
    assert f"Re-solved, with {label['shipped']}" in text
    assert f"`bidlab solve {game} --rule {label['missing']}`" in text
    assert set(frame["variant"]) == {label["shipped"]}
    assert frame[["diff", "ci_low", "ci_high"]].notna().all().all()

    stand_in(game, missing)
    text, frame = house("two")
    assert "Not re-solved" not in text and "not solved" not in text
    assert set(frame["variant"]) == {label["shipped"], label["missing"]}


def test_the_generic_variants_section_shows_the_re_solved_reading(tmp_path, monkeypatch):
    """auktsion's house variants (the generic section): beside the field's tournaments,
    the same matches with every seat playing the solution for the variant's rules, for
    the variants whose solutions ship (carry_money=false); a variant without one
    (min_raise=5) named with the command that makes it."""
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path / "solutions"))
    spec = replace(spec_for("auktsion"), variants=(Variant({"carry_money": False}),
                                                   Variant({"min_raise": 5})))
    out = build_report(["auktsion"], n=512, seed=2, out=tmp_path / "r", sections=["variants"],
                       specs={"auktsion": spec}, progress=False, strict=True)
    text = (out.out / "report.md").read_text()
    assert "Re-solved: players who adapt" in text
    assert "Re-solved, with carry_money=false, a player's mean score" in text
    assert "Not re-solved, for want of a solution: min_raise=5: " \
           "`bidlab solve auktsion --rule min_raise=5`" in text
    frame = pd.read_parquet(out.out / "data" / "auktsion_variants_resolved.parquet")
    assert set(frame["variant"]) == {"default", "carry_money=false"}
    solved_rows = frame[(frame["by"] == "strategy") & (frame["variant"] != "default")]
    assert set(solved_rows["name"]) == {"solved"}
    assert frame[["diff", "ci_low", "ci_high"]].notna().all().all()


def test_a_race_s_re_solved_reading_names_the_figures_that_move():
    """aukcio in self-play: one win is shared out in every match, so a player's mean
    score cannot move; the reading names the figures that do (a plural one agrees)."""
    from reports.variants import _other_changes
    part = pd.DataFrame([
        {"by": "strategy", "metric": m, "diff": d, "ci_low": lo, "ci_high": hi, "p_value": p}
        for m, d, lo, hi, p in (("score", 0.0, 0.0, 0.0, 1.0), ("win", 0.0, 0.0, 0.0, 1.0),
                                ("money_spent", -8.0, -9.0, -7.0, 1e-9),
                                ("face_cards", 0.05, -0.02, 0.12, 0.2))])
    text = _other_changes(part, part.iloc[0])
    assert text.startswith(" (one result shared out in every match), but its money spent "
                           "drops by 8 a match")
    assert "face cards" not in text                 # no detectable change: not named
    part.loc[3, ["ci_low", "p_value"]] = 0.01, 0.01
    assert "its face cards rise by" in _other_changes(part, part.iloc[0])
    part.loc[0, ["diff", "ci_low", "ci_high"]] = -0.02, -0.03, -0.01
    assert _other_changes(part, part.iloc[0]) == ""  # the score moves: nothing added
