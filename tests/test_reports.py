"""The report: builds from a small run, valid self-contained HTML, Markdown with its
figures, Parquet data, provenance, sentences from the numbers, per-game specs and the
generic sections, failure handling, the CLI, and rendering in headless Chromium."""

import base64
import json
import os
import re
import shutil
import subprocess
import types
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reports import text as W
from reports.report import build_report
from reports.spec import GameSpec, Situation, generic_spec
from sim.errors import BidlabError

N = 2048


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    return build_report(["auktsion", "fpsb"], n=N, seed=3, out=out, progress=False, strict=True)


# --- HTML validity -----------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Checker(HTMLParser):
    """Strict enough for generated HTML: every non-void element closed in order, unique
    ids, and every URL-bearing attribute collected."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.ids, self.urls, self.tags = [], [], set(), [], []
        self.doctype = None

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            if name == "id":
                if value in self.ids:
                    self.errors.append(f"duplicate id {value!r}")
                self.ids.add(value)
            if name in ("src", "href", "srcset", "action", "poster", "data"):
                self.urls.append(value or "")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()


def check_html(text):
    c = Checker()
    c.feed(text)
    c.close()
    assert c.doctype and c.doctype.lower() == "doctype html"
    assert not c.errors, c.errors[:5]
    assert not c.stack, f"unclosed: {c.stack}"
    return c


def test_report_writes_html_markdown_figures_data_and_provenance(report):
    out = report.out
    assert report.html.stat().st_size > 10_000 and report.markdown.exists()
    assert not report.failures
    pngs = sorted((out / "figures").glob("*.png"))
    assert len(pngs) >= 10 and pngs == sorted(report.figures)
    for p in pngs:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for p in report.data:
        assert not pd.read_parquet(p).empty, p
    names = {p.stem for p in report.data}
    assert {"auktsion_equity", "auktsion_money_flow", "auktsion_lot_prices",
            "auktsion_price_vs_value", "auktsion_variants", "auktsion_seat_effect",
            "auktsion_tuning",
            "fpsb_equity", "fpsb_self_play"} <= names
    prov = json.loads((out / "provenance.json").read_text())
    assert prov["seed"] == 3 and prov["n"] == {"auktsion": N, "fpsb": N}
    assert prov["command"] == f"bidlab report auktsion fpsb -n {N} --seed 3"
    # the field's four strategies meet in a duplicate tournament of about N games in all
    field = prov["games"]["auktsion"]["tournament"]
    assert field["rules"]["carry_money"] is True and field["strategies"][3]["label"] == "value:multiple=3"
    assert field["seed"] == 3 and field["version"] == prov["version"]
    assert field["n"] * len(field["design"]["lineups"]) == pytest.approx(N, abs=4)
    assert field["design"]["seats_balanced"] and field["design"]["after_balanced"]
    assert set(prov["games"]["auktsion"]["variants"]["rules"]) == {
        "default", "carry_money=false", "auction_form=sealed", "leftover_value=1"}


def test_html_is_valid_and_self_contained(report):
    text = report.html.read_text(encoding="utf-8")
    c = check_html(text)
    for tag in ("html", "head", "body", "title", "main", "footer", "table", "figure"):
        assert tag in c.tags
    assert 'name="viewport"' in text and "max-width" in text and "overflow-x: auto" in text
    # nothing to fetch: no external URL, script, stylesheet link, font or CSS import
    assert not re.search(r"(?i)(https?:|ftp:)//", text)
    assert "<script" not in text and "<link" not in text and "@import" not in text
    assert "url(" not in text and "@font-face" not in text
    assert c.urls and all(u.startswith(("data:image/png;base64,", "#")) for u in c.urls)
    # the embedded images are exactly the PNG files
    embedded = [base64.b64decode(u.split(",", 1)[1]) for u in c.urls if u.startswith("data:")]
    assert len(embedded) == len(report.figures)
    assert sorted(embedded) == sorted(p.read_bytes() for p in report.figures)
    # every in-page link has its target
    assert all(u[1:] in c.ids for u in c.urls if u.startswith("#"))


def test_markdown_links_its_figures_and_data(report):
    md = report.markdown.read_text(encoding="utf-8")
    assert md.startswith("# bidlab report: auktsion, fpsb")
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(links) == len(report.figures)
    assert all((report.out / link).exists() for link in links)
    for ref in re.findall(r"`(data/[^`]+\.parquet)`", md):
        assert (report.out / ref).exists(), ref
    assert "## Provenance" in md and f"-n {N} --seed 3" in md
    assert "## auktsion" in md and "## fpsb" in md


def test_every_game_section_is_there(report):
    text = report.html.read_text(encoding="utf-8")
    for sid in ("rules", "strategies", "equity", "scores", "seats", "money", "prices", "tuning",
                "bidev", "variants"):
        assert f'id="auktsion-{sid}"' in text, sid
    for sid in ("rules", "strategies", "equity", "equilibrium"):
        assert f'id="fpsb-{sid}"' in text, sid
    assert 'id="fpsb-variants"' not in text
    assert text.count('class="reading"') >= 12


def test_readings_come_from_the_numbers(report):
    text = report.html.read_text(encoding="utf-8")
    eq = pd.read_parquet(report.out / "data" / "auktsion_equity.parquet")
    scores = eq[(eq.metric == "score") & (eq.by == "strategy")].sort_values("mean")
    best = scores.iloc[-1]
    assert f"of the 4 strategies, {best['name']} comes first" in text.lower()
    assert W.estimate(best["mean"], best["ci_low"], best["ci_high"],
                      unit=" points per match") in text
    sp = pd.read_parquet(report.out / "data" / "fpsb_self_play.parquet")
    least = sp[sp["exploitability"] == sp["exploitability"].min()].iloc[-1]  # ties: the later
    assert (f"the least exploitable profile is a = {least['param_a']:.3f} "
            f"(iteration {int(least['iteration'])})") in text
    tuning = pd.read_parquet(report.out / "data" / "auktsion_tuning.parquet")
    best = tuning.loc[tuning["mean"].idxmax()]
    assert f"aggression = {best['aggression']:g}" in text
    assert tuning.loc[tuning["aggression"] == 2.5, "diff"].item() == 0.0  # the default
    flow = pd.read_parquet(report.out / "data" / "auktsion_money_flow.parquet")
    m0 = flow[(flow.deal == 0) & (flow.quantity == "money_start")]["mean"].item()
    assert m0 == pytest.approx((4 * 70 - 130) / 4)
    assert f"start the first deal with {m0:.1f} coins" in text


def test_bidev_section_has_a_figure_per_situation(report):
    text = report.html.read_text(encoding="utf-8")
    section = text[text.index('id="auktsion-bidev"'):text.index('id="auktsion-variants"')]
    assert section.count("<figure") == 3


def test_auktsion_situations_are_consistent_real_states():
    situation = pytest.importorskip("sim.games.auktsion.situation")
    from reports.context import Context
    from reports.games import spec_for
    from reports.games.auktsion import situations

    ctx = Context(spec_for("auktsion"), n=1024, seed=5)
    sits = situations(ctx)
    assert [s.title for s in sits] == ["The twos, first lot of the match",
                                       "A queen late in the first deal",
                                       "The ace, last lot of the match"]
    for s in sits:
        parsed = situation.parse(ctx.rules, dict(s.state))  # raises if inconsistent
        assert parsed.price == 0 and s.candidates[0] == "pass"
        assert all(int(c) <= parsed.money[parsed.seat] for c in s.candidates[1:])
        # the seat that holds the most points of the rank is the one asked
        rank = s.state["lot"]
        mine = sum({"H": 4, "D": 3, "S": 2, "C": 1}[c[1]] for c in s.state["hand"].split()
                   if c[0] == rank)
        assert f"({mine} points)" in s.question


def _bidev_report(tmp_path, monkeypatch, fake_bid_ev, *situations, n=4000) -> str:
    """The HTML of a made-up fpsb report holding only the bid-EV section of
    ``situations``, with ``fake_bid_ev`` standing in for ``analysis.bidev.bid_ev``."""
    from analysis import bidev

    monkeypatch.setattr(bidev, "bid_ev", fake_bid_ev)
    spec = GameSpec("fpsb", sections=("bidev",), situations=lambda ctx: list(situations))
    r = build_report(["fpsb"], n=n, out=tmp_path, specs={"fpsb": spec}, progress=False,
                     strict=True)
    return r.html.read_text()


def test_bidev_section_from_a_bid_ev_frame(tmp_path, monkeypatch):
    """The optimal-bid section renders whatever analysis.bidev.bid_ev returns."""
    calls = []

    from analysis import bidev

    def fake_bid_ev(game, situation, *, rollouts, seed, rules, candidates):
        calls.append((game, rollouts, candidates))
        frame = pd.DataFrame({"action": ["pass", "bid 1", "bid 2"], "mean": [10.0, 12.0, 11.0],
                              "ci_low": [9.5, 11.6, 10.5], "ci_high": [10.5, 12.4, 11.5],
                              "win": [0.2, 0.3, 0.25], "win_ci_low": [0.1, 0.2, 0.15],
                              "win_ci_high": [0.3, 0.4, 0.35],
                              "diff_vs_best": [-2.0, 0.0, -1.0], "diff_ci_low": [-2.2, 0.0, -1.3],
                              "diff_ci_high": [-1.8, 0.0, -0.7], "p_best": [0.0, 0.97, 0.03],
                              "group": [0, 1, 2]})
        return bidev.BidEV(game, {}, frame, "bid 1", 0.97, {"game": game, "rollouts": rollouts})

    text = _bidev_report(tmp_path, monkeypatch, fake_bid_ev, Situation(
        "A made-up spot", {"x": 1}, "What to bid?", ("pass", "1", "2")))
    assert calls == [("fpsb", 200, ["pass", "1", "2"])]
    assert "Bid 1 has the highest expected match score, 12.0 points (95% CI 11.6 to 12.4)" in text
    assert "bid 1 scores 2.0 points more than passing" in text
    assert "best candidate in 97% of bootstrap resamples" in text
    assert (tmp_path / "figures" / "fpsb_bidev_1.png").exists()
    assert pd.read_parquet(tmp_path / "data" / "fpsb_bidev_1.parquet")["mean"].tolist() == [10, 12, 11]


def test_bidev_section_names_the_games_outcomes(tmp_path, monkeypatch):
    """bridge's bid-EV: the score of your side, matchpoints and IMPs columns, the
    difference to passing, and the seats whose hands the calls condition."""
    from analysis import bidev

    def fake_bid_ev(game, situation, *, rollouts, seed, rules, candidates):
        frame = pd.DataFrame({"action": ["pass", "2H"], "mean": [100.0, 140.0],
                              "ci_low": [90.0, 130.0], "ci_high": [110.0, 150.0],
                              "diff_vs_best": [-40.0, 0.0], "diff_ci_low": [-50.0, 0.0],
                              "diff_ci_high": [-30.0, 0.0], "p_best": [0.0, 1.0], "group": [0, 1],
                              "win": [0.2, 0.8], "win_ci_low": [0.1, 0.7], "win_ci_high": [0.3, 0.9],
                              "imps": [-1.5, 0.0], "imps_ci_low": [-2.0, 0.0], "imps_ci_high": [-1.0, 0.0]})
        return bidev.BidEV(
            game, {"calls_tell": ["N", "E"]}, frame, "2H", 1.0, {},
            outcomes={"score": "score (your side)", "win": "matchpoints", "imps": "IMPs vs best"})

    text = _bidev_report(tmp_path, monkeypatch, fake_bid_ev,
                         Situation("Partner opened 1H", {"x": 1}, "Which raise?"))
    assert "2H has the highest expected score (your side), 140 points" in text
    assert "2H scores 40 points more than passing" in text
    assert "matchpoints, % [95% CI]" in text and "IMPs vs best [95% CI]" in text
    assert "The hidden hands of N and E are dealt only where" in text


def test_bridge_report_situations_are_real_auctions():
    """The response to partner's one of a major and the 11-12 HCP opening come from boards
    of the report's seed as natural bids them."""
    from reports.games import bridge as RB
    from sim.games.bridge import core as C
    from sim.games.bridge import engine as E
    from sim.games.bridge.pbn import parse_hand
    from sim.games.bridge.rules import SEAT_NAMES

    ctx = types.SimpleNamespace(seed=3, spec=RB.SPEC)
    respond, opening = RB.situations(ctx)
    hands = E.deal(3, 0, RB.SEARCH)
    for sit in (respond, opening):
        seat, _, hand = sit.state["hand"].partition("=")
        board = int(sit.state["board"])
        rows = [i for i in range(RB.SEARCH) if i % 16 + 1 == board
                and hands[i, SEAT_NAMES.index(seat)] == parse_hand(hand)]
        assert rows, sit.state
    assert respond.state["calls"] in ("1H,P", "1S,P")
    from analysis.runs import policy_arrays
    from analysis.spec import seat_strategies
    from sim.games.bridge.rules import make
    seats = seat_strategies("bridge", make(), ["all=natural"])
    seat, _, hand = respond.state["hand"].partition("=")
    row = next(i for i in range(RB.SEARCH) if hands[i, SEAT_NAMES.index(seat)] == parse_hand(hand))
    _, calls = E.auctions(make(), policy_arrays("bridge", seats), seats.labels, 3, row,
                          hands[row:row + 1], log=True)
    assert ",".join(C.call_text(c) for c in calls[0, :2]) == respond.state["calls"]
    assert C.hcp(parse_hand(opening.state["hand"].partition("=")[2])) in (11, 12)
    assert "calls" not in opening.state


def test_sections_module_holds_only_the_generic_sections():
    """reports.sections builds what every game gets; a game's own sections are in its spec,
    in the order the report had them."""
    from reports.games import spec_for
    from reports.sections import GENERIC_BUILDERS
    from reports.spec import GENERIC_SECTIONS

    assert tuple(GENERIC_BUILDERS) == GENERIC_SECTIONS
    own = {"auktsion": ("money", "prices", "solved"), "pitch": ("contracts", "house", "solved"),
           "fpsb": ("equilibrium", "solved"), "bridge": ("pairs", "par")}
    for game, ids in own.items():
        spec = spec_for(game)
        assert tuple(spec.extra) == ids and not set(ids) & set(GENERIC_SECTIONS), game
    assert spec_for("auktsion").sections == ("rules", "strategies", "equity", "scores", "seats",
                                             "money", "prices", "tuning", "bidev", "variants",
                                             "solved")
    vybory = spec_for("vybory")      # its own tuning section replaces the generic one
    assert tuple(vybory.extra) == ("contracts", "election", "hands", "tuning", "house", "solved")
    assert vybory.sections[-2:] == ("house", "solved")
    assert spec_for("pitch").sections == ("rules", "strategies", "equity", "scores", "seats",
                                          "contracts", "tuning", "bidev", "variants", "house",
                                          "solved")


def test_a_game_without_a_spec_gets_the_generic_sections(tmp_path):
    r = build_report(["fpsb"], n=1024, out=tmp_path, specs={"fpsb": generic_spec("fpsb")},
                     progress=False, strict=True)
    ids = [s.id for s in r.document.games[0].sections]
    assert ids == ["rules", "strategies", "equity", "scores", "seats", "bidev", "variants"]
    text = r.html.read_text()
    assert "No typical bid-EV situations are defined for fpsb" in text
    assert "No house variants to compare for fpsb" in text
    assert "with linear in every seat the mean match score is" in text.lower()
    check_html(text)


def test_a_failing_section_is_noted_not_fatal(tmp_path):
    def boom(ctx):
        raise RuntimeError("kaput")

    spec = GameSpec("fpsb", sections=("rules", "boom"), extra={"boom": boom})
    r = build_report(["fpsb"], n=1024, out=tmp_path, specs={"fpsb": spec}, progress=False)
    assert r.failures == ["fpsb/boom: RuntimeError: kaput"]
    assert "This section failed and is left out: RuntimeError: kaput" in r.html.read_text()
    with pytest.raises(RuntimeError, match="kaput"):
        build_report(["fpsb"], n=1024, out=tmp_path, specs={"fpsb": spec}, progress=False,
                     strict=True)


def test_same_seed_same_numbers(tmp_path):
    a = build_report(["fpsb"], n=1024, seed=9, out=tmp_path / "a", sections=["equity"],
                     progress=False, strict=True)
    b = build_report(["fpsb"], n=1024, seed=9, out=tmp_path / "b", sections=["equity"],
                     progress=False, strict=True)
    assert a.document.provenance["digest"] == b.document.provenance["digest"]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a/data/fpsb_equity.parquet"),
                                  pd.read_parquet(tmp_path / "b/data/fpsb_equity.parquet"))
    c = build_report(["fpsb"], n=1024, seed=10, out=tmp_path / "c", sections=["equity"],
                     progress=False, strict=True, write=False)
    assert c.document.provenance["digest"] != a.document.provenance["digest"]


def test_games_in_parallel_processes_write_the_same_report(tmp_path):
    """Two games built at once in worker processes: the same numbers, figures (each
    game's colours start afresh, whatever was drawn before it) and text as one after the
    other in this process."""
    kw = dict(n=512, seed=4, sections=["equity"], progress=False, strict=True)
    one = build_report(["auktsion", "fpsb"], out=tmp_path / "one", processes=1, **kw)
    two = build_report(["auktsion", "fpsb"], out=tmp_path / "two", processes=2, **kw)
    assert one.document.provenance["digest"] == two.document.provenance["digest"]
    assert [g.game for g in two.document.games] == ["auktsion", "fpsb"]
    for folder in ("data", "figures"):
        names = sorted(p.name for p in (tmp_path / "one" / folder).iterdir())
        assert names == sorted(p.name for p in (tmp_path / "two" / folder).iterdir())
        for name in names:
            assert (tmp_path / "one" / folder / name).read_bytes() == \
                (tmp_path / "two" / folder / name).read_bytes(), name
    with pytest.raises(BidlabError, match="--processes 0: give at least 1"):
        build_report(["fpsb"], out=tmp_path / "x", processes=0, **kw)


def test_cli_report(tmp_path, capsys):
    from bidlab.cli import main

    out = tmp_path / "r"
    assert main(["report", "fpsb", "-n", "1024", "--out", str(out), "--no-progress",
                 "--sections", "rules,equity"]) == 0
    printed = capsys.readouterr().out
    assert f"report: {(out / 'report.html').resolve()}" in printed
    assert (out / "report.html").exists() and (out / "report.md").exists()
    assert main(["report", "nogame"]) == 2
    assert "unknown game 'nogame'" in capsys.readouterr().err
    assert main(["report", "fpsb", "--sections", "nope"]) == 2


def test_a_stopped_parallel_report_keeps_what_its_workers_completed(tmp_path):
    """SIGTERM to `bidlab report` while two games are built in worker processes (SIGINT
    ignored, as in a shell's background job): the parent forwards it, each worker stops
    after its section in progress, and the report written holds what was completed,
    marked partial."""
    import signal
    import sys
    import time

    out = tmp_path / "r"
    child = subprocess.Popen(
        [sys.executable, "-m", "bidlab", "report", "auktsion", "fpsb", "-n", "300000",
         "--out", str(out), "--processes", "2"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, preexec_fn=lambda: signal.signal(
            signal.SIGINT, signal.SIG_IGN))
    time.sleep(10)
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=120)
    assert child.returncode == 130, err
    assert "interrupted" in err and "provenance.json: partial" in err
    provenance = json.loads((out / "provenance.json").read_text())
    assert provenance["partial"]["interrupted_in"]
    assert (out / "report.html").exists()


def test_sentences_say_what_the_interval_says():
    assert W.difference("budget", 41.6, 41.2, 42.0, other="value", suffix=" per match") == \
        "budget scores 41.6 points more than value per match (95% CI 41.2 to 42.0)"
    assert W.difference("a", -1.8, -2.4, -1.2, other="b", p=1e-5) == \
        "a scores 1.8 points less than b (95% CI 1.2 to 2.4, p < 0.001)"
    assert W.difference("a", 0.1, -0.2, 0.4, other="b").startswith(
        "no difference between a and b is detectable")
    assert W.change("the first seat's win share", -0.018, -0.024, -0.012, unit="points",
                    scale=100, p=0.0004) == \
        "the first seat's win share drops by 1.8 points (95% CI 1.2 to 2.4, p < 0.001)"
    # a bound that would round to 0 gets more decimals (an interval excluding 0 never shows one)
    assert W.estimate(0.1234, 0.0001, 0.2467) == "0.1234 (95% CI 0.0001 to 0.2467)"
    assert W.intervals([71.49, 3.0], [71.46, 2.9], [71.52, 3.1]) == [
        "71.490 [71.460, 71.520]", "3.000 [2.900, 3.100]"]
    assert W.sentence("budget wins") == "Budget wins."
    assert W.p_text(0.0312) == "p = 0.031" and W.p_text(0.5) == "p = 0.50"


# --- rendering in a real browser ------------------------------------------------------------

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome", "headless_shell"):
        path = shutil.which(name)
        if path:
            return path
    return None


def screenshot(browser, page: Path, png: Path, width: int, height: int, tmp: Path):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--hide-scrollbars", f"--user-data-dir={tmp / 'profile'}",
           f"--screenshot={png}", f"--window-size={width},{height}", page.resolve().as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(tmp)})


def blankness(png: Path) -> tuple[float, float]:
    """(pixel standard deviation, share of pixels that are not near-white)."""
    from PIL import Image

    a = np.asarray(Image.open(png).convert("L"), dtype=float)
    return float(a.std()), float((a < 235).mean())


def test_report_renders_in_headless_chromium(report, tmp_path):
    browser = chromium()
    if browser is None:
        pytest.skip("headless Chromium not found: `make test` installs it with apt-get install "
                    "-y chromium when run as root; install the distribution's chromium package "
                    "to run this test")
    # can Chromium render anything here at all? (a sandboxed CI may forbid it)
    probe = tmp_path / "probe.html"
    probe.write_text("<!DOCTYPE html><title>p</title><div style='background:#000;height:50px'>")
    res = screenshot(browser, probe, tmp_path / "probe.png", 300, 200, tmp_path)
    if not (tmp_path / "probe.png").exists():
        pytest.skip(f"Chromium at {browser} cannot render in this environment: "
                    f"{(res.stderr or '').strip().splitlines()[-1:]}")
    for width, height, name in ((1200, 2000, "laptop"), (400, 1800, "phone")):
        png = tmp_path / f"{name}.png"
        res = screenshot(browser, report.html, png, width, height, tmp_path)
        assert png.exists(), f"no {name} screenshot: {res.stderr[-2000:]}"
        from PIL import Image
        assert Image.open(png).size == (width, height)
        std, ink = blankness(png)
        assert std > 20 and ink > 0.02, f"{name} screenshot looks blank (std {std:.1f}, ink {ink:.3f})"


def test_a_rerun_leaves_no_stale_figures_or_data(tmp_path):
    """A report written over an earlier one keeps none of its figures or data files."""
    (tmp_path / "figures").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "figures" / "bridge_old.png").write_bytes(b"x")
    (tmp_path / "data" / "bridge_old.parquet").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("mine")
    r = build_report(["fpsb"], n=1024, out=tmp_path, specs={"fpsb": generic_spec("fpsb")},
                     progress=False)
    assert sorted((tmp_path / "figures").glob("*.png")) == sorted(r.figures)
    assert sorted((tmp_path / "data").glob("*.parquet")) == sorted(r.data)
    assert (tmp_path / "notes.txt").read_text() == "mine"  # not the report's: left alone


def test_bidev_reading_names_a_group_of_candidates_once(tmp_path, monkeypatch):
    """Candidates with the same outcome in every rollout read as one answer (issue 15)."""
    from analysis import bidev

    def fake_bid_ev(game, situation, *, rollouts, seed, rules, candidates):
        frame = pd.DataFrame({"action": ["pass", "bid 1", "bid 2", "bid 3"],
                              "mean": [10.0, 12.0, 12.0, 12.0], "ci_low": [9.5, 11.6, 11.6, 11.6],
                              "ci_high": [10.5, 12.4, 12.4, 12.4], "win": [0.2, 0.3, 0.3, 0.3],
                              "win_ci_low": [0.1, 0.2, 0.2, 0.2], "win_ci_high": [0.3, 0.4, 0.4, 0.4],
                              "diff_vs_best": [-2.0, 0.0, 0.0, 0.0],
                              "diff_ci_low": [-2.2, 0.0, 0.0, 0.0], "diff_ci_high": [-1.8, 0.0, 0.0, 0.0],
                              "p_best": [0.0, 0.34, 0.33, 0.33], "group": [0, 1, 1, 1]})
        return bidev.BidEV(game, {}, frame, "bid 1", 0.34, {"game": game, "rollouts": rollouts})

    text = _bidev_report(tmp_path, monkeypatch, fake_bid_ev,
                         Situation("A made-up spot", {"x": 1}, "What to bid?"))
    assert "Any of bid 1..3 gives the highest expected match score" in text
    assert "these 3 candidates give the same outcome in every one of the 200 rollouts" in text
    assert "it scores 2.0 points more than passing" in text
    assert "best candidate in 100% of bootstrap resamples" in text
    assert text.count("<td>bid 1..3</td>") == 1 and "<td>bid 2</td>" not in text


def test_a_search_policy_behind_its_playout_policy_is_reported():
    """Issue 15 item 3: where the field holds a search strategy and the same strategy
    with the search replaced by its playout policy, the report says so unless the
    search is ahead with significance."""
    from analysis.design import design
    from analysis.tournament import summarize
    from reports.sections import search_notes

    rng = np.random.default_rng(1)
    luck = rng.normal(size=(400, 1))
    names = labels = ["strength+greedy", "strength+pimc", "strength+greedy:aggression=1.4"]
    d = design(3, 4)

    def notes(pimc_edge):
        x = luck + rng.normal(scale=0.1, size=(400, 3)) + np.array([0.0, pimc_edge, -1.0])
        t = summarize("pitch", list(names), list(labels), d, {"score": x, "win": x > 0},
                      "score", {})
        return search_notes(t)

    assert notes(+0.2) == []
    behind = notes(-0.2)
    assert len(behind) == 1 and "strength+pimc searches with pimc" in behind[0]
    assert "does not beat strength+greedy" in behind[0]
    assert len(notes(0.0)) == 1          # level is not enough: it must be ahead


def test_bidev_shows_the_moment_where_the_call_matters_most(tmp_path, monkeypatch):
    """Issue 15 item 5: of a situation's alternatives, the section shows the one where a
    screen finds the largest sure gap between the best and the worst candidate."""
    from analysis import bidev

    gaps = {"a": 0.5, "b": 4.0, "c": 1.0}   # the worst candidate's sure gap, per moment
    played = []

    def fake_bid_ev(game, situation, *, rollouts, seed, rules, candidates):
        played.append((situation["x"], rollouts))
        g = gaps[situation["x"]]
        frame = pd.DataFrame({"action": ["pass", "bid 1"], "mean": [10.0, 10.0 + g + 1],
                              "ci_low": [9.0, 10.0 + g], "ci_high": [11.0, 12.0 + g],
                              "win": [0.2, 0.3], "win_ci_low": [0.1, 0.2], "win_ci_high": [0.3, 0.4],
                              "diff_vs_best": [-(g + 1), 0.0], "diff_ci_low": [-(g + 2), 0.0],
                              "diff_ci_high": [-g, 0.0], "p_best": [0.0, 1.0], "group": [0, 1]})
        return bidev.BidEV(game, {}, frame, "bid 1", 1.0, {"game": game, "rollouts": rollouts})

    moments = (Situation("A spot", {"x": "b"}, "Moment b."),
               Situation("A spot", {"x": "c"}, "Moment c."))
    text = _bidev_report(tmp_path, monkeypatch, fake_bid_ev,
                         Situation("A spot", {"x": "a"}, "Moment a.", alternatives=moments),
                         n=10_000)
    assert played[:3] == [("a", 200), ("b", 200), ("c", 200)] and played[3] == ("b", 500)
    assert "Moment b." in text and "Moment a." not in text
    assert "chosen among 3 of its kind" in text and "at least 4.00 points behind" in text
