"""The report's house-variant sections for solved games: beside the fixed strategies'
reading, the re-solved one (every seat playing the solution for the variant's rules)
where the solutions exist; the others named, with the command that makes each, and
never solved by the report (a solve takes longer than the whole report)."""

from __future__ import annotations

import pandas as pd
import pytest

from reports.report import build_report
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


@pytest.mark.parametrize("game,variant,other", [("vybory", {"scoring": "result"}, "type_set=alt"),
                                               ("pitch", {"smudge": True}, "dealer_hold=false")])
def test_house_section_shows_both_readings_where_solutions_exist(game, variant, other,
                                                                 tmp_path, monkeypatch):
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path / "solutions"))
    out = build_report([game], n=512, seed=2, out=tmp_path / "bare", sections=["house"],
                       progress=False, strict=True)
    text = (out.out / "report.md").read_text()
    assert "what if nobody adapts" in text and "Not re-solved" in text
    assert f"`bidlab solve {game} --rule {other}`" in text
    assert "re-solved: change" not in text          # nothing solved: fixed columns only
    assert not (out.out / "data" / f"{game}_house_resolved.parquet").exists()

    stand_in(game, variant)
    label = ",".join(f"{k}={str(v).lower()}" for k, v in variant.items())
    out = build_report([game], n=512, seed=2, out=tmp_path / "solved", sections=["house"],
                       progress=False, strict=True)
    text = (out.out / "report.md").read_text()
    assert "re-solved: change [95% CI]" in text and "not solved" in text
    assert f"re-solved, with {label}" in text.lower() or f"Re-solved, with {label}" in text
    assert f"`bidlab solve {game} --rule {other}`" in text
    frame = pd.read_parquet(out.out / "data" / f"{game}_house_resolved.parquet")
    assert set(frame["variant"]) == {label}
    assert frame[["diff", "ci_low", "ci_high"]].notna().all().all()


def test_the_generic_variants_section_shows_the_re_solved_reading(tmp_path, monkeypatch):
    """auktsion's house variants (the generic section): beside the field's tournaments,
    the same matches with every seat playing the solution for the variant's rules, for
    the variants whose solutions ship (carry_money=false, auction_form=sealed); the
    variant without one (leftover_value=1) named with the command that makes it."""
    monkeypatch.setenv("BIDLAB_SOLUTIONS", str(tmp_path / "solutions"))
    out = build_report(["auktsion"], n=512, seed=2, out=tmp_path / "r", sections=["variants"],
                       progress=False, strict=True)
    text = (out.out / "report.md").read_text()
    assert "Re-solved: players who adapt" in text
    assert "Re-solved, with carry_money=false, a player's mean score" in text
    assert "Not re-solved, for want of a solution: leftover_value=1: " \
           "`bidlab solve auktsion --rule leftover_value=1.0`" in text
    frame = pd.read_parquet(out.out / "data" / "auktsion_variants_resolved.parquet")
    assert set(frame["variant"]) >= {"carry_money=false", "auction_form=sealed"}
    solved_rows = frame[(frame["by"] == "strategy") & (frame["variant"] != "default")]
    assert set(solved_rows["name"]) == {"solved"}
    assert frame[["diff", "ci_low", "ci_high"]].notna().all().all()
