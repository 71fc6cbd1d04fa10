"""One number format (``reports.text``'s docstring): every command's table and the
report's tables, on runs with extreme values (a strategy that never wins, one that
always does, differences that are zero in every match, huge and tiny numbers), follow
the same rules: win shares in %, one number of decimals down a column, no ``-0``, no
scientific notation, differences first minus second, "0 in every match" only where
every difference is 0, ``[x, x]`` only where there is no spread."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from bidlab.cli import main
from bidlab.commands.compare import format_comparison
from bidlab.output import table_lines
from reports import text as W

NUMBER = r"[+-]?\d[\d,]*(?:\.\d+)?"
CELL = re.compile(rf"^({NUMBER})(?: \[({NUMBER}), ({NUMBER})\])?$")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, out + err
    return out


def places(text: str) -> int:
    return len(text.partition(".")[2])


def value(text: str) -> float:
    return float(text.replace(",", ""))


def check_text(out: str) -> None:
    """Rules that hold for any printed text: no -0, no scientific notation."""
    assert not re.search(r"(?<![\w.])-0(?:\.0+)?(?![\d.])", out), out
    assert not re.search(r"\d(?:\.\d+)?e[+-]?\d", out), out
    assert "none in any match" not in out


def columns(lines: list[str]) -> dict[str, list[str]]:
    """A table printed by :func:`bidlab.output.table_lines` (or pandas) back into
    columns, split at the header's column starts."""
    head = lines[0]
    starts = [m.start() for m in re.finditer(r"(?:(?<=  )|^)\S", head)]
    cols = {}
    for i, a in enumerate(starts):
        b = starts[i + 1] if i + 1 < len(starts) else None
        cols[head[a:b].strip()] = [line[a:b].strip() for line in lines[1:]]
    return cols


def check_columns(lines: list[str]) -> None:
    """Every column of numbers has one number of decimals, and an interval that prints
    with equal bounds prints its estimate there too (no spread)."""
    check_text("\n".join(lines))
    for name, cells in columns(lines).items():
        parsed = [CELL.match(c) for c in cells if c]
        if not parsed or not all(parsed):
            continue  # not a numeric column
        shown = {places(g) for m in parsed for g in m.groups() if g is not None}
        assert len(shown) == 1, (name, cells)
        for m in parsed:
            mean, lo, hi = m.groups()
            if lo is not None and lo == hi:
                assert mean == lo, (name, m.group(0))


def check_blocks(lines: list[str], key: str = "metric") -> None:
    """A table stacked of one block per ``key`` (compare's metrics): each block by the
    rules of :func:`check_columns`."""
    cols = columns(lines)
    for k in dict.fromkeys(cols[key]):
        check_columns([lines[0]] + [line for line, v in zip(lines[1:], cols[key]) if v == k])


def table_after(out: str, header: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(header))
    block = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line)
    indent = len(block[0]) - len(block[0].lstrip())
    return [line[indent:] for line in block]


# -- the rules on synthetic columns ---------------------------------------------------

EXTREME = {  # mean, low, high
    "never wins": (0.0, 0.0, 0.0037),
    "always wins": (1.0, 0.9963, 1.0),
    "no spread": (1 / 3, 1 / 3, 1 / 3),
    "zero": (0.0, 0.0, 0.0),
    "huge": (1.5e9, 1.49e9, 1.51e9),
    "tiny": (1.95e-6, -3e-6, 7e-6),
    "negative tiny": (-4e-7, -9e-7, -1e-7),
}


@pytest.mark.parametrize("name", list(EXTREME))
def test_one_cell_follows_the_rules(name):
    mean, lo, hi = EXTREME[name]
    for scale in (1.0, 100.0):
        cell = W.intervals([mean], [lo], [hi], scale, sign=True)[0]
        check_text(cell)
        m = CELL.match(cell)
        assert m, cell
        a, b, c = m.groups()
        if lo < hi:
            assert b != c, cell  # an interval with spread never reads [x, x]
        else:
            assert b == c, cell
        for text, x in ((b, lo), (c, hi)):
            if x != 0 and abs(x * scale) >= 10 ** -W.MOST:
                assert value(text) != 0, cell  # a bound that is not 0 never reads 0


def test_a_column_has_one_number_of_decimals_and_shows_every_spread():
    rows = list(EXTREME.values())
    cells = W.intervals(*zip(*rows), scale=100.0)
    check_columns(["x", *cells])
    zero = cells[list(EXTREME).index("zero")]
    assert re.fullmatch(r"0\.0+ \[0\.0+, 0\.0+\]", zero)
    never = cells[list(EXTREME).index("never wins")]
    assert CELL.match(never).group(2) != CELL.match(never).group(3)


def test_plain_numbers_are_fixed_point():
    shown = W.nums([0.102, 1.95e-6, -1e-9, 0.0], sign=True)
    assert shown == ["+0.102", "+0.000", "+0.000", "+0.000"]
    assert W.nums([1.5e9, 2.0]) == ["1,500,000,000", "2"]
    assert W.num(-0.0001, 2) == "0.00" and W.num(-0.0001, 2, sign=True) == "+0.00"


def test_sentences_say_no_change_only_where_every_difference_is_zero():
    assert "does not change in any match" in W.change("x", 0.0, 0.0, 0.0, unit="points")
    assert "no detectable change" in W.change("x", 0.0, -0.1, 0.1, unit="points")
    assert "do not differ in any case" in W.difference("a", 0.0, 0.0, 0.0, other="b")


def test_comparison_zero_in_every_match_only_where_it_is():
    class R:
        variants = {"default": {}, "v": {}}
        frame = pd.DataFrame([
            dict(metric="score", by="strategy", name="a", variant="default", value=2.6389,
                 diff=0.0, ci_low=0.0, ci_high=0.0, p_value=1.0),
            dict(metric="score", by="strategy", name="a", variant="v", value=2.6389,
                 diff=0.0, ci_low=0.0, ci_high=0.0, p_value=1.0),
            dict(metric="win", by="seat", name="0 a", variant="default", value=0.0,
                 diff=0.0, ci_low=0.0, ci_high=0.0, p_value=1.0),
            dict(metric="win", by="seat", name="0 a", variant="v", value=0.0004,
                 diff=0.0004, ci_low=-0.0001, ci_high=0.0009, p_value=0.2),
            dict(metric="win", by="seat", name="1 b", variant="v", value=0.9996,
                 diff=-0.0004, ci_low=-0.0009, ci_high=0.0001, p_value=0.2)])
    shown = format_comparison(R())
    lines = table_lines(shown)
    check_blocks(lines)
    cells = shown["difference [95% CI]"].tolist()
    assert cells[1] == W.ZERO and cells[0] == "(baseline)"
    assert W.ZERO not in cells[3:] and "+0.040 [-0.010, +0.090]" == cells[3]
    assert shown["metric"].iloc[-1] == "win share, %"


# -- every command's table on extreme runs --------------------------------------------

ALWAYS = ["--strategy", "all=passive", "--strategy", "0=budget"]
"""auktsion: seat 0 bids against players who never bid: it wins every match, they never do."""


def test_simulate_with_a_strategy_that_always_wins(capsys):
    out = run(capsys, "simulate", "auktsion", "-n", "300", "--seed", "2", *ALWAYS,
              "--no-progress")
    lines = table_after(out, "by")
    check_columns(lines)
    cols = columns(lines)
    wins = dict(zip(cols["strategy"], cols["win share, %"]))
    assert wins["budget"].startswith("100.") and wins["passive"].startswith("0.")
    never = CELL.match(wins["passive"])
    assert value(never.group(3)) > 0  # the upper bound of a share that never happened


def test_tournament_with_zero_differences_and_a_strategy_that_never_wins(capsys):
    out = run(capsys, "tournament", "auktsion", "budget", "budget", "passive", "-n", "200",
              "--seed", "3", "--no-progress")
    check_columns(table_after(out, "rank"))
    diffs = table_after(out, "first")
    check_columns(diffs)
    assert W.ZERO in diffs[1]  # A against A #2: the same moves in every match
    cols = columns(diffs)
    assert "win share, % diff [95% CI]" in cols
    # first minus second: budget (A) minus passive (C) is positive
    row = [i for i, (a, b) in enumerate(zip(cols["first"], cols["second"])) if (a, b) == ("A", "C")]
    assert cols["match score diff [95% CI]"][row[0]].startswith("+")


def test_compare_prints_zero_in_every_match_only_for_zero_differences(capsys):
    out = run(capsys, "compare", "auktsion", *ALWAYS, "--variant", "default",
              "--variant", "leftover_value=1", "-n", "200", "--no-progress")
    lines = table_after(out, "metric")
    check_blocks(lines)
    cols = columns(lines)
    for diff, _metric in zip(cols["difference [95% CI]"], cols["metric"]):
        if diff == W.ZERO:
            continue
        assert diff == "(baseline)" or CELL.match(diff), diff
    assert "win share, %" in cols["metric"]


def test_bid_ev_table(capsys):
    out = run(capsys, "bid-ev", "auktsion", "--hand", "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H",
              "--state", "money=36,38,37,39", "--state", "lot=7", "--state", "price=3",
              "--state", "high_bidder=3", "--rollouts", "300", "--no-progress")
    check_columns(table_after(out, "action"))


def test_optimize_gains_and_exploitability_are_fixed_point(capsys):
    out = run(capsys, "optimize", "fpsb", "--strategy", "linear:a=0.75", "--rule", "players=4",
              "--self-play", "2", "-n", "2000", "--no-progress")
    check_columns(table_after(out, "iteration"))
    claim = next(line for line in out.splitlines() if line.startswith("exploitability"))
    assert "95% CI" in claim and ".." not in claim


def test_optimize_by_win_share_prints_percentage_points(capsys):
    out = run(capsys, "optimize", "auktsion", "--strategy", "budget", "--param", "aggression",
              "--opponents", "passive", "-n", "200", "--holdout", "200", "--no-progress")
    lines = table_after(out, "iteration")
    check_columns(lines)
    assert "percentage points" not in out or "win share" in out


def test_json_keeps_full_precision(capsys):
    out = run(capsys, "simulate", "auktsion", "-n", "300", "--seed", "2", *ALWAYS,
              "--no-progress", "--json")
    rows = json.loads(out)["summary"]
    win = [r for r in rows if r["by"] == "seat" and r["name"].startswith("0")][0]["win"]
    assert win == 1.0  # a fraction, not a percentage: frames and JSON are unchanged


def test_bridge_pairs_differences_are_first_minus_second():
    import inspect

    from analysis.stats import paired_difference
    from bidlab.commands import bridge
    assert "first minus second" in inspect.getsource(bridge._bridge_pairs)
    d = paired_difference([1.0, 2.0], [3.0, 5.0])  # y - x
    assert d["diff"] == 2.5
    import analysis.bridge as B
    assert "paired_difference(pct[b].to_numpy(), pct[a].to_numpy())" in inspect.getsource(B.pairs)


def test_report_tables_follow_the_rules(tmp_path):
    """The report's tables of a small run with a strategy that never wins and variants
    that change nothing in some matches."""
    from reports.report import build_report
    result = build_report(["fpsb"], n=2000, out=tmp_path / "r", progress=False, strict=True)
    tables = 0
    for game in result.document.games:
        for section in game.sections:
            for item in section.blocks:
                frame = getattr(item, "frame", None)
                if isinstance(frame, pd.DataFrame) and len(frame):
                    tables += 1
                    check_columns(table_lines(frame.astype(str)))
    assert tables
    text = (tmp_path / "r" / "report.md").read_text()
    check_text(text)
    assert not re.search(r"\(\+0\.0+ percentage points, 95% CI \+0\.0+ to \+0\.0+", text)


def test_a_partial_report_does_not_replace_a_full_one(tmp_path):
    from reports.report import build_report
    from sim.errors import BidlabError
    out = tmp_path / "report"
    out.mkdir()
    (out / "provenance.json").write_text(json.dumps(
        {"command": "bidlab report", "games": {"auktsion": {}, "fpsb": {}}, "sections": None}))
    with pytest.raises(BidlabError, match="holds a report of auktsion, fpsb .every section.*--replace"):
        build_report(["fpsb"], n=100, out=out, progress=False)
    with pytest.raises(BidlabError, match="sections equity"):
        build_report(["auktsion", "fpsb"], n=100, out=out, sections=["equity"], progress=False)
