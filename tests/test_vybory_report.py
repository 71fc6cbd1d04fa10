"""vybory's report spec and its analysis (``analysis/vybory.py``): hand features from
card masks, ratio estimates over deals clustered by tour, the contract, election and
hand sections with readings from their numbers and denominators that count deals and
tours, bid-EV situations from a real tour, and the house rules paired by tour."""

import math
import re

import numpy as np
import pandas as pd
import pytest

from analysis import ratios
from analysis import vybory as V
from analysis.stats import mean_ci
from reports import text as W
from reports.context import Context
from reports.games import spec_for
from reports.report import build_report
from sim.cards import parse_cards
from sim.games.vybory import situation as S

N = 512
DEALS = 8


def mask(cards: str) -> int:
    return sum(1 << c for c in parse_cards(cards.split()))


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("vybory_report")
    return build_report(["vybory"], n=N, seed=3, out=out, progress=False, strict=True)


# --- analysis on hand-made frames ----------------------------------------------------

def test_hand_features_from_masks():
    hands = [mask("AS KS QS JS TS 2S 3H 4H 5H 2C 3D 9D AD"),
             mask("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC")]
    f = V.hand_features(np.array(hands, np.int64), np.array([2, -1]))
    assert list(f["low"]) == [6, 4] and list(f["honours"]) == [5, 4]
    assert list(f["longest"]) == [6, 13]
    assert f["trumps"].iloc[0] == 3 and math.isnan(f["trumps"].iloc[1])  # hearts; none
    assert V.suit_lengths(np.array(hands[:1])).tolist() == [[1, 3, 3, 6]]  # C D H S
    assert V.type_trumps(range(1, 9)).tolist() == [-1, -1, 0, 0, 2, 1, 3, 3]
    assert V.type_trumps([6, 7, 8], "alt").tolist() == [1, 1, 3]
    assert V.type_names("alt")[5] == "red_cards"


def test_buckets():
    b = V.bucket(pd.Series([0, 2, 3, 6, 9, np.nan]), "low")
    assert list(b.astype(object).where(b.notna(), None)) == ["0-2", "0-2", "3", "6+", "6+", None]
    assert list(V.bucket([1, 6], "trumps").astype(str)) == ["0-1", "6+"]


def test_ratio_counts_deals_not_tours():
    # tour 0: one deal, won; tour 1: three deals, all lost. Per deal: 1 win in 4 deals.
    deals = pd.DataFrame({"match": [0, 1, 1, 1], "win": [1.0, 0.0, 0.0, 0.0]})
    r = ratios.ratio_by(deals, None, "win").iloc[0]
    assert r["mean"] == 0.25 and r["deals"] == 4 and r["tours"] == 2
    # one row per tour: the ratio is the plain mean with the Student-t interval
    x = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0])
    one = ratios.ratio_ci(x, np.ones_like(x))
    assert np.allclose(one, mean_ci(x))
    # a group's tours without a deal of it still count as tours of the run
    frame = pd.DataFrame({"match": [0, 0, 1, 2], "g": ["a", "b", "b", "b"],
                          "v": [2.0, 1.0, 3.0, 5.0]})
    out = ratios.ratio_by(frame, "g", "v").set_index("g")
    assert out.loc["b", "mean"] == 3.0 and out.loc["b", "tours"] == 3
    assert out.loc["a", "deals"] == 1 and out.loc["a", "tours"] == 1


def test_shares_and_slopes():
    frame = pd.DataFrame({"match": [0, 0, 1, 1, 2, 2], "c": [1, 2, 1, 1, 2, 2]})
    sh = ratios.shares(frame, "c").set_index("c")
    assert sh.loc[1, "share"] == 0.5 and sh.loc[1, "deals"] == 3
    assert sh["share"].sum() == pytest.approx(1.0)
    line = pd.DataFrame({"match": [0, 0, 1, 1, 2], "x": [0, 1, 2, 3, 4]})
    line["y"] = 2 * line["x"] + 1.0
    s = ratios.clustered_slope(line, "x", "y")
    assert s["slope"] == pytest.approx(2.0) and s["ci_low"] == pytest.approx(2.0)
    assert s["rows"] == 5 and s["tours"] == 3


def _deals():
    """Two tours of two deals each (hand-made ``deals`` rows)."""
    return pd.DataFrame({
        "match": [0, 0, 1, 1], "deal": [0, 1, 0, 1], "dealer": [0, 1, 0, 1],
        "contract": ["no_tricks", "club_tricks", "no_tricks", "no_tricks"],
        "contract_code": [2, 3, 2, 2], "first_announcer": [1, 2, 3, 2],
        "partner": [3, 0, 1, 0], "calls": [3, 2, 5, 4],
        "attack_tricks": [2, 9, 3, 7], "attack_points": [-4, 18, -6, -14],
        "defence_points": [-22, 8, -20, -12], "result": [1, 1, 1, -1]})


def test_contract_types_and_election_lengths():
    t = V.contract_types(_deals()).set_index("contract")
    assert len(t) == 8 and t["deals"].sum() == 4
    assert t.loc["no_tricks", "share"] == 0.75 and t.loc["most_tricks", "deals"] == 0
    assert t.loc["no_tricks", "win"] == pytest.approx(2 / 3)
    assert t.loc["no_tricks", "margin"] == pytest.approx((18 + 14 - 2) / 3)
    assert t.loc["club_tricks", "calls"] == 2 and math.isnan(t.loc["red_black", "win"])
    e = V.election_lengths(_deals()).set_index("calls")
    assert e["deals"].sum() == 4 and e.loc[5, "share"] == 0.25
    assert V.election_round([2, 4, 5, 8, 9]).tolist() == [1, 1, 2, 2, 3]


def test_announcement_shares_count_announcements():
    seats = pd.DataFrame({"match": [0] * 4 + [1] * 4, "seat": list(range(4)) * 2,
                          **{f"named_{c}": [0] * 8 for c in range(1, 9)}})
    seats.loc[[0, 1], "named_2"] = 1  # tour 0: two no_tricks, one club_tricks
    seats.loc[2, "named_3"] = 1
    seats.loc[[4, 5, 6, 7], "named_5"] = 1  # tour 1: four spades_in_hearts
    a = V.announcement_shares(seats).set_index("contract")
    assert a["announcements"].sum() == 7 and a.loc["spades_in_hearts", "share"] == 4 / 7
    assert a["share"].sum() == pytest.approx(1.0)


def test_first_announcer_hands_and_paired_ratio():
    deals = _deals()
    hands = {(0, 0, 1): "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"}
    rows = []
    for r in deals.itertuples():
        for seat in range(4):
            h = hands.get((r.match, r.deal, seat), "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S")
            rows.append({"match": r.match, "deal": r.deal, "seat": seat, "hand": mask(h)})
    f = V.first_announcer_hands(deals, pd.DataFrame(rows))
    assert len(f) == 4 and f.loc[0, "low"] == 4 and f.loc[0, "longest"] == 13
    assert math.isnan(f.loc[0, "trumps"]) and f.loc[1, "trumps"] == 0  # no_tricks; clubs
    assert f.loc[0, "margin"] == 18
    cells = V.margin_by_feature(f, "honours")
    assert cells["deals"].sum() == 4
    y, n = ratios.per_cluster(V.deal_outcomes(deals), "win", np.array([0, 1]))
    assert y.tolist() == [2, 1] and n.tolist() == [2, 2]
    same = V.paired_ratio((y, n), (y, n))
    assert same["diff"] == 0 and same["p_value"] == 1.0
    up = V.paired_ratio((y, n), (n, n))
    assert up["value"] == 1.0 and up["diff"] == pytest.approx(0.25)


# --- situations from a real tour -----------------------------------------------------

def test_situations_are_real_consistent_states():
    ctx = Context(spec_for("vybory"), n=N, seed=5)
    sits = spec_for("vybory").situations(ctx)
    assert [s.title for s in sits] == ["First to announce in a new tour",
                                       "A type it could match is on the table",
                                       "The call that ends the election"]
    first, decline, match = (S.parse(ctx.rules, dict(s.state)) for s in sits)  # raise if wrong
    assert first.calls == [] and first.deal == 0 and first.scores == [0, 0, 0, 0]
    assert first.seat == (first.dealer + 1) % 4
    others = {t for k, t in enumerate(decline.calls) if decline.caller(k) != decline.seat}
    assert others  # a type another seat named, which it could match
    assert len(match.calls) >= 2
    for s in sits:
        assert f"holds {s.state['hand']}" in s.question and "In the real tour it named" in s.question


# --- the report ----------------------------------------------------------------------

def _section(text: str, sid: str) -> str:
    start = text.index(f'id="vybory-{sid}"')
    end = text.find('<section id="vybory-', start + 1)
    return text[start:end if end > 0 else len(text)]


def test_report_sections_and_denominators(report):
    text = report.html.read_text(encoding="utf-8")
    for sid in ("rules", "strategies", "equity", "seats", "contracts", "election", "hands",
                "tuning", "bidev", "variants", "house"):
        assert f'id="vybory-{sid}"' in text, sid
    assert not report.failures
    data = report.out / "data"
    tours, deals = N, N * DEALS
    types = pd.read_parquet(data / "vybory_contracts.parquet")
    assert types["deals"].sum() == deals  # one row per deal played, not per seat
    assert types["share"].sum() == pytest.approx(1.0)
    assert types["tours"].max() <= tours
    election = pd.read_parquet(data / "vybory_election.parquet")
    assert election["deals"].sum() == deals and election["calls"].between(2, 9).all()
    calls = (election["calls"] * election["deals"]).sum()
    announced = types["announcements"].sum()
    assert announced == calls  # every announcement of every election, once
    cells = pd.read_parquet(data / "vybory_hand_features.parquet")
    for _, part in cells.groupby("feature"):
        assert part["deals"].sum() <= deals and part["tours"].max() <= tours
    assert cells[cells["feature"] == "low"]["deals"].sum() == \
        types[types["deals"] >= 100]["deals"].sum()
    contracts = _section(text, "contracts")
    assert f"{tours:,} tours ({deals:,} deals)" in contracts
    for name in ("contracts", "hands_trumps", "hands_honours", "election"):
        assert (report.out / "figures" / f"vybory_{name}.png").exists(), name


def test_readings_match_the_numbers(report):
    text = report.markdown.read_text(encoding="utf-8")
    data = report.out / "data"
    types = pd.read_parquet(data / "vybory_contracts.parquet")
    top = types.loc[types["share"].idxmax()]
    share = W.estimate(top["share"], top["share_ci_low"], top["share_ci_high"], 100, "% of deals")
    assert f"the commonest contract is {top['contract']}, {share} and " in text
    election = pd.read_parquet(data / "vybory_election.parquet")
    common = election.loc[election["share"].idxmax()]
    share = W.estimate(common["share"], common["share_ci_low"], common["share_ci_high"], 100, "% of deals")
    assert f"the commonest length is {int(common['calls'])} calls, {share}" in text
    mean_calls = (election["calls"] * election["deals"]).sum() / election["deals"].sum()
    m = re.search(r"An election takes ([\d.]+) calls", text)
    assert m and float(m.group(1)) == pytest.approx(mean_calls, abs=0.01)
    house = pd.read_parquet(data / "vybory_house.parquet")
    result = house[house["variant"] == "scoring=result"]
    assert (result["diff"] == 0).all()  # the policies play the same deals either way
    assert "With scoring=result: none of these figures changes in any tour" in text
    late = house[(house["variant"] == "type_set=alt") & (house["metric"] == "late")].iloc[0]
    assert late["ci_low"] > 0  # alt's types 6-8 are played more often
    tuning = pd.read_parquet(data / "vybory_tuning_lead.parquet")
    best = tuning.loc[tuning["lead"].idxmax()]
    assert f"is highest at partner = {best['partner']:g}," in text
    bidev = pd.read_parquet(data / "vybory_bidev_1.parquet")
    assert set(bidev["action"]) == set(V.type_names())
