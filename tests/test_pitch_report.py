"""pitch's report spec: bid-EV situations from real games (consistent, ranked by win
share), and the house-rules section with readings from its numbers."""

import pandas as pd
import pytest

from reports.context import Context
from reports.games import spec_for
from reports.report import build_report
from sim.games.pitch import situation as S


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("pitch_report")
    return build_report(["pitch"], n=512, seed=3, out=out, progress=False, strict=True)


def test_situations_are_real_consistent_states():
    ctx = Context(spec_for("pitch"), n=512, seed=5)
    sits = spec_for("pitch").situations(ctx)
    assert [s.title for s in sits] == ["First to speak in a new game",
                                       "The dealer, last to speak, may hold",
                                       "A rival is within two points of the target"]
    first, hold, late = (S.parse(ctx.rules, dict(s.state)) for s in sits)  # raise if wrong
    assert first.bids == [] and first.scores == [0, 0, 0, 0] and first.deal == 0
    assert hold.seat == hold.dealer and 0 < hold.high < 4
    assert S.HOLD in S.legal_calls(ctx.rules, hold)
    assert max(late.scores) >= ctx.rules.target - 2 and late.scores[late.seat] < max(late.scores)
    for s in sits:
        assert f"has {s.state['hand']}" in s.question and "In the real game it" in s.question


def test_report_has_bid_ev_by_win_share_and_the_house_rules(report):
    text = report.html.read_text(encoding="utf-8")
    for sid in ("rules", "strategies", "equity", "contracts", "bidev", "variants", "house"):
        assert f'id="pitch-{sid}"' in text, sid
    bidev = text[text.index('id="pitch-bidev"'):text.index('id="pitch-variants"')]
    assert bidev.count("<figure") == 3 and "has the highest win share" in bidev
    data = report.out / "data"
    frame = pd.read_parquet(data / "pitch_bidev_2.parquet")
    assert "hold" in set(frame["action"]) and (frame["mean"] == frame["win"]).all()
    house = pd.read_parquet(data / "pitch_house.parquet")
    row = house[(house.variant == "dealer_hold=false") & (house.metric == "hold")].iloc[0]
    assert row["value"] == 0 and row["default"] > 0.2  # no hold without the rule
    row = house[(house.variant == "joker=true") & (house.metric == "deals")].iloc[0]
    assert row["ci_low"] > 0  # to 10 instead of 7: longer games
    held = house[(house.variant == "dealer_hold=false") & (house.metric == "hold")].iloc[0]
    assert "the share of contracts held falls from" in text
    assert f"{100 * held['default']:.1f}% to 0.0%" in text
    assert (report.out / "figures" / "pitch_house_dealer_edge.png").exists()
