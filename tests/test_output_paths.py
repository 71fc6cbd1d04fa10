"""Output paths are checked before any match is played: a folder where a file is
needed, a file where a folder is needed, a name without the right suffix, a parent that
cannot be written. Each is one line naming the path and the option, exit 2."""

from __future__ import annotations

import os

import pytest

import bidlab
from bidlab.cli import main
from sim.errors import BidlabError
from sim.sinks import output_file, output_folder


def test_a_results_file_must_be_a_parquet_file_in_a_writable_folder(tmp_path):
    assert output_file(tmp_path / "new" / "r.parquet", "--out") == tmp_path / "new" / "r.parquet"
    with pytest.raises(BidlabError, match="is a folder"):
        output_file(tmp_path, "--out")
    with pytest.raises(BidlabError, match="ending in .parquet"):
        output_file(tmp_path / "r.csv", "--out")
    (tmp_path / "f").write_text("")
    with pytest.raises(BidlabError, match="is a file, not a folder"):
        output_file(tmp_path / "f" / "r.parquet", "--out")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere a mode allows")
def test_a_read_only_folder_is_refused(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir(mode=0o500)
    with pytest.raises(BidlabError, match="cannot write"):
        output_file(ro / "r.parquet", "--out")


def test_a_report_folder_must_be_a_folder(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(BidlabError, match="is a file"):
        output_folder(tmp_path / "f", "--out")
    assert output_folder(tmp_path / "a" / "b", "--out").is_dir()


@pytest.mark.parametrize("argv", [
    ["simulate", "fpsb", "-n", "1024", "--out", "/proc/x.parquet"],
    ["simulate", "fpsb", "-n", "1024", "--out", "."],
    ["simulate", "fpsb", "-n", "1024", "--out", "x.csv"],
    ["report", "fpsb", "-n", "1024", "--out", "/proc/report"],
])
def test_the_cli_refuses_them_before_any_work(argv, capsys, monkeypatch):
    played = []
    monkeypatch.setattr("sim.runner.run", lambda *a, **k: played.append(1))
    assert main(argv) == 2 and not played
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--out" in err[0] and "Traceback" not in err[0]


def test_the_api_refuses_them_too(tmp_path):
    with pytest.raises(BidlabError, match="is a folder"):
        bidlab.simulate("fpsb", 1024, out=tmp_path)
