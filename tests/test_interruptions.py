"""Interruptions keep completed work (issue 16): Ctrl-C (SIGINT) or SIGTERM sent to a real
``bidlab`` process. ``simulate --out`` leaves every completed chunk readable, its
provenance marked incomplete with the count of matches it holds; ``report`` writes every
section completed before the stop, the provenance marked partial. Both exit 130 with one
line and no traceback."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sim.sinks import read_provenance

BIDLAB = [sys.executable, "-m", "bidlab"]


def _wait_for(check, timeout: float = 240.0) -> None:
    end = time.time() + timeout
    while time.time() < end:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError("the process never got there")


def _rows(path: Path) -> int:
    try:
        return pq.ParquetFile(path).metadata.num_rows
    except Exception:  # noqa: BLE001 - not written (or not closed) yet
        return 0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_simulation_keeps_its_completed_chunks(tmp_path, signum):
    out = tmp_path / "r.parquet"
    proc = subprocess.Popen(BIDLAB + ["simulate", "auktsion", "-n", "100000000", "--out",
                                      str(out), "--chunk-size", "1024", "--threads", "1",
                                      "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: out.exists() and out.stat().st_size > 0)
        time.sleep(1.0)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    p = read_provenance(out)
    assert p["complete"] is False and p["matches"] > 0
    assert f"{p['matches']:,} matches" in lines[0]
    assert _rows(out) == p["matches"] * 4            # auktsion: 4 seats by default


def test_an_interrupted_report_keeps_its_completed_sections(tmp_path):
    out = tmp_path / "report"
    # one game after the other (the parallel report's stop has its own test in
    # test_reports.py): auktsion is still running when fpsb's line appears
    proc = subprocess.Popen(BIDLAB + ["report", "fpsb", "auktsion", "-n", "2048", "--out",
                                      str(out), "--processes", "1"],  # not a terminal: lines
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[str] = []

    def first_game_done() -> bool:
        line = proc.stderr.readline()
        seen.append(line)
        return line.startswith("report: fpsb:")

    try:
        _wait_for(first_game_done)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, "".join(seen) + err
    assert "Traceback" not in err and "interrupted" in err and "partial" in err, err
    provenance = json.loads((out / "provenance.json").read_text())
    assert provenance["partial"]["interrupted_in"].split("/")[0] in ("fpsb", "auktsion")
    assert provenance["partial"]["games_complete"] == ["fpsb"]
    markdown = (out / "report.md").read_text()
    assert "Partial report" in markdown and "## fpsb" in markdown
    assert list((out / "figures").glob("fpsb_*.png"))


def test_a_stop_during_a_chunks_write_waits_for_the_write():
    """A signal that arrives while the sinks take a chunk acts once every sink has it
    (the count of a partial file then equals its rows; before, a SIGTERM there left the
    count a chunk behind)."""
    import os

    from analysis.runs import make_job
    from analysis.spec import make_rules, seat_strategies
    from sim import runner

    class Sink:
        def __init__(self, name, log, kill=False):
            self.name, self.log, self.kill = name, log, kill

        def add(self, start, tables):
            if self.kill and start == 1024:
                os.kill(os.getpid(), signal.SIGINT)   # arrives mid-chunk
                time.sleep(0.05)
            self.log.append((self.name, start))

    rules = make_rules("fpsb", {})
    job = make_job("fpsb", rules, seat_strategies("fpsb", rules, None), 0, 8192)
    log: list = []
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, [Sink("a", log, kill=True), Sink("b", log)], chunk_size=1024,
                   progress=False)
    assert log == [("a", 0), ("b", 0), ("a", 1024), ("b", 1024)]
