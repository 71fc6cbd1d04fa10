"""No traceback, ever, for bad input or a bad environment: every command answers a bad
path, a malformed value or a value it would otherwise take silently with exit status 2
and one line that names the offending value and says what is allowed. Nothing is played
(``sim.runner.run`` is replaced by a recorder) and no board is solved."""

from __future__ import annotations

import pytest

import bidlab
from bidlab import api
from bidlab.cli import main
from sim import runner
from sim.errors import BidlabError

AUKTSION = ["bid-ev", "auktsion", "--hand", "AH KH QH JH 7D 7S 5C 4C 3C 2C 9D TS 8H",
            "--state", "money=36,38,37,39", "--state", "lot=7", "--state", "price=3",
            "--state", "high_bidder=3"]
AUKCIO = ["bid-ev", "aukcio", "--hand", "TH 7C 7D 3S JK", "--state", "card=QH",
          "--state", "owned=JH KH;QS QD;"]
PITCH = ["bid-ev", "pitch", "--hand", "AH KH 7H 2H 9C 3D", "--seat", "2", "--state",
         "dealer=3", "--state", "bids=pass,2", "--state", "scores=3,5,0,6"]
BRIDGE = ["bid-ev", "bridge", "--hand", "S=KQ52.AJ3.742.Q87", "--state", "board=1",
          "--state", "calls=1H,P"]
VYBORY = ["bid-ev", "vybory", "--hand", "AS KS QS 7S 2S AH 9H 4H KD 8D 3D 6C 2C", "--seat", "1",
          "--state", "calls=spades_in_hearts"]
TWO = ["--variant", "default", "--variant", "players=3"]

# (argv, a text the one error line must hold: the offending value, as the user wrote it)
CASES = [
    # input paths (the files are made in the working folder by the fixture)
    (["simulate", "fpsb", "--rules", "folder"], "'folder' is a folder"),
    (["simulate", "fpsb", "--rules", "missing.toml"], "'missing.toml': no such file"),
    (["simulate", "fpsb", "--rules", "broken.toml"], "'broken.toml' is not valid TOML"),
    (["simulate", "fpsb", "--rules", "binary.toml"], "'binary.toml' is not a text file"),
    (["simulate", "auktsion", "--rules", "maybe.toml"], "carry_money='maybe'"),
    (["trace", "fpsb", "--rules", "folder"], "'folder' is a folder"),
    (["compare", "fpsb", "--variant", "players=3", "--rules", "folder"], "'folder' is a folder"),
    (["tournament", "fpsb", "linear", "random", "--rules", "missing.toml"], "'missing.toml'"),
    ([*PITCH, "--rules", "folder"], "'folder' is a folder"),
    (["simulate", "bridge", "--boards", "folder"], "--boards 'folder' is a folder"),
    (["trace", "bridge", "--boards", "missing.pbn"], "--boards 'missing.pbn': no such file"),
    (["bridge", "team", "--boards", "folder"], "--boards 'folder' is a folder"),
    (["bridge", "pairs", "natural", "random", "--boards", "missing.pbn"], "'missing.pbn'"),
    # malformed values
    (["simulate", "fpsb", "--scheduler", "notanaddress"], "'notanaddress'"),
    (["simulate", "fpsb", "--scheduler", "tcp://host:port"], "'tcp://host:port'"),
    (["simulate", "fpsb", "--scheduler", "http://h:8786"], "'http://h:8786'"),
    (["tournament", "fpsb", "linear", "random", "--scheduler", "notanaddress"], "'notanaddress'"),
    (["tournament", "fpsb", "linear", "random", "--workers", "0"], "--workers 0"),
    ([*AUKTSION, "--candidates", "foo"], "'foo'"),
    ([*AUKTSION, "--candidates", "11..4"], "'11..4'"),
    ([*AUKCIO, "--candidates", "foo"], "'foo'"),
    ([*AUKCIO, "--candidates", "11..4"], "'11..4'"),
    ([*PITCH, "--candidates", "foo"], "'foo'"),
    ([*PITCH, "--candidates", "11..4"], "'11..4'"),
    ([*BRIDGE, "--candidates", "foo"], "'foo'"),
    ([*BRIDGE, "--candidates", "11..4"], "'11..4'"),
    ([*VYBORY, "--candidates", "foo"], "'foo'"),
    ([*VYBORY, "--candidates", "11..4"], "'11..4'"),
    (["simulate", "auktsion", "--strategy", "9=budget"], "seat '9' does not exist"),
    (["simulate", "fpsb", "--strategy", "9=budget"], "seat '9' does not exist"),
    (["simulate", "auktsion", "--strategy", "=x"], "'=x': no seat"),
    (["simulate", "auktsion", "--strategy", "0="], "'0=': no strategy"),
    (["simulate", "auktsion", "--strategy", "0=budget:aggression"], "'aggression' has no value"),
    (["simulate", "auktsion", "--strategy", "0=budget:nosuch=1"], "'nosuch'"),
    (["simulate", "auktsion", "--strategy", "0=budget+budget"], "'budget+budget'"),
    (["simulate", "auktsion", "--strategy", "0=budget+"], "'budget+'"),
    (["trace", "pitch", "--strategy", "7=strength"], "seat '7'"),
    (["compare", "fpsb", *TWO, "--strategy", "0="], "'0='"),
    (["optimize", "fpsb", "--strategy", "0=linear"], "'0=linear'"),
    (["optimize", "auktsion", "--strategy", "budget:aggression"], "'aggression'"),
    (["optimize", "fpsb", "--strategy", "linear", "--opponents", "linear:a"], "'a' has no value"),
    ([*PITCH, "--strategy", "9=strength"], "seat '9'"),
    (["tournament", "auktsion", "budget", "budget:nosuch=1"], "'nosuch'"),
    (["tournament", "auktsion", "budget", "budget+budget"], "'budget+budget'"),
    (["bridge", "team", "--a", "natural:nt_min"], "'nt_min' has no value"),
    (["bridge", "pairs", "natural", "=x"], "'=x'"),
    (["simulate", "auktsion", "--rule", "carry_money=maybe"], "carry_money='maybe'"),
    # seat lists, parameters next to their policy, strategy variants, bridge tools
    (["simulate", "auktsion", "--strategy", "0,0=value"], "seat 0 is named twice"),
    (["simulate", "auktsion", "--strategy", "0,7=value"], "seat '7' does not exist"),
    (["trace", "fpsb", "--strategy", "all,1=random"], "'all,1=random'"),
    (["simulate", "pitch", "--strategy", "0=strength:samples=8+pimc"],
     "policy 'strength' has no parameter 'samples'"),
    (["simulate", "pitch", "--strategy", "0=strength:aggression+pimc"], "'aggression' has no value"),
    (["compare", "fpsb", "--variant", "0=random"], "'0=random' is a strategy"),
    (["compare", "fpsb", "--variant", "strategy 5=random"], "seat '5' does not exist"),
    (["compare", "fpsb", "--variant", "strategy"], "'strategy' names no seat"),
    (["compare", "fpsb", "--variant", "strategy 0=nosuch"], "'nosuch'"),
    (["optimize", "fpsb", "--strategy", "linear", "--rules", "folder"], "'folder' is a folder"),
    (["bridge", "pairs", "natural", "random", "--rules", "missing.toml"], "'missing.toml'"),
    (["bridge", "team", "--rule", "vulnerability=maybe"], "vulnerability='maybe'"),
    (["bridge", "best", "--seat", "Q"], "--seat Q"),
    (["bridge", "deal", "--a", "natural"], "bridge deal takes no --a"),
    (["bridge", "team", "--hcp", "N=20-"], "bridge team takes no --hcp"),
    (["bridge"], "give a tool"),
    # values taken silently before
    (["simulate", "fpsb", "--chunk-size", "0"], "--chunk-size 0"),
    (["tournament", "fpsb", "linear", "random", "--chunk-size", "1000"], "--chunk-size 1000"),
    (["simulate", "fpsb", "--threads", "0"], "--threads 0"),
    (["simulate", "fpsb", "--threads", "100000"], "--threads 100000"),
    (["tournament", "fpsb", "linear", "random", "--threads", "0"], "--threads 0"),
    (["simulate", "fpsb", "--workers", "0"], "--workers 0"),
    (["simulate", "fpsb", "--detail"], "--detail without --out"),
    (["simulate", "fpsb", "-n", "0"], "-n 0"),
    (["simulate", "fpsb", "-n", "-5"], "-n -5"),
    (["compare", "fpsb", *TWO, "-n", "0"], "-n 0"),
    (["compare", "fpsb", *TWO, "-n", "-2"], "-n -2"),
    (["optimize", "fpsb", "--strategy", "linear", "-n", "0"], "-n 0"),
    (["optimize", "fpsb", "--strategy", "linear", "-n", "-1"], "-n -1"),
    (["tournament", "fpsb", "linear", "random", "-n", "0"], "-n 0"),
    (["report", "fpsb", "-n", "-1"], "-n -1"),
    (["bridge", "team", "-n", "0"], "-n 0"),
    (["bridge", "deal", "-n", "-3"], "-n -3"),
    (["bridge", "best", "--seat", "4"], "--seat 4"),
    (["simulate", "fpsb", "--seed", "-1"], "--seed -1"),
    (["trace", "fpsb", "--seed", "-1"], "--seed -1"),
    (["compare", "fpsb", *TWO, "--seed", "-1"], "--seed -1"),
    (["optimize", "fpsb", "--strategy", "linear", "--seed", "-1"], "--seed -1"),
    (["tournament", "fpsb", "linear", "random", "--seed", "-1"], "--seed -1"),
    (["report", "fpsb", "--seed", "-1"], "--seed -1"),
    (["bridge", "team", "--seed", "-1"], "--seed -1"),
    ([*PITCH, "--seed", "-1"], "--seed -1"),
    ([*PITCH, "--rollouts", "0"], "--rollouts 0"),
    (["optimize", "fpsb", "--strategy", "linear", "--holdout", "0"], "--holdout 0"),
    (["compare", "fpsb", "--variant", "players=maybe"], "players='maybe'"),
    (["compare", "fpsb", *TWO, "--solved", "--strategy", "all=linear"],
     "--strategy contradicts it"),
    (["compare", "fpsb", "--variant", "strategy 0=random", "--solved"],
     "'strategy 0=random' cannot set strategies"),
    (["compare", "auktsion", "--variant", "carry_money=maybe", "--solved"],
     "carry_money='maybe'"),
    (["compare", "bridge", "--variant", "default", "--solved"], "games it solves"),
    (["compare", "fpsb", *TWO, "--solve-missing"], "add --solved"),
    # unknown names
    (["games", "nosuch"], "'nosuch'"),
    (["policies", "nosuch"], "'nosuch'"),
    (["report", "fpsb", "--sections", "nosuch"], "'nosuch'"),
]

ARGPARSE_CASES = [
    (["simulate", "fpsb", "-n", "many"], "'many'"),
    (["simulate", "fpsb", "--seed", "1.5"], "'1.5'"),
    (["tournament", "fpsb", "linear", "random", "--balance", "nosuch"], "'nosuch'"),
    (["bridge", "nosuch"], "'nosuch'"),
]


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "broken.toml").write_text("players = = 3\n")
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe\x00players")
    (tmp_path / "maybe.toml").write_text('carry_money = "maybe"\n')
    played = []
    monkeypatch.setattr("sim.runner.run", lambda *a, **k: played.append(1) or 0)
    return played


@pytest.mark.parametrize("argv,needle", CASES, ids=[" ".join(a) for a, _ in CASES])
def test_one_line_naming_the_value_and_exit_2(argv, needle, files, capsys):
    assert main(argv) == 2
    assert not files, "nothing is played before the error"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert "Traceback" not in err[0] and needle in err[0], err[0]
    assert err[0].startswith(f"bidlab {argv[0]}: error: ")


@pytest.mark.parametrize("argv,needle", ARGPARSE_CASES, ids=[" ".join(a) for a, _ in ARGPARSE_CASES])
def test_argparse_errors_end_with_one_line_naming_the_value(argv, needle, files, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and needle in err.strip().splitlines()[-1]


def test_the_allowed_values_are_named():
    with pytest.raises(BidlabError, match=r"carry_money='maybe': expected true or false, written "
                                          r"true, yes, on, 1 \(true\) or false, no, off, 0 \(false\)"):
        api.make_rules("auktsion", {"carry_money": "maybe"})
    with pytest.raises(BidlabError, match=r"--threads 0: allowed 1\.\.\d+ .*NUMBA_NUM_THREADS"):
        runner.check_threads(0)
    with pytest.raises(BidlabError, match=r"write tcp://host:port or host:port"):
        runner.check_scheduler("notanaddress")
    for good in ("tcp://10.0.0.5:8786", "127.0.0.1:8786", "tls://h.example:1", "tcp://[::1]:8786",
                 "inproc://10.0.0.5/1234/1"):
        assert runner.check_scheduler(good) == good
    for bad in ("tcp://h", "h:0", "h:70000", ":8786", "tcp://:8786", "udp://h:1"):
        with pytest.raises(BidlabError, match="is not a Dask scheduler address"):
            runner.check_scheduler(bad)


def test_the_api_checks_before_anything_is_played(files, tmp_path):
    for call in (lambda: bidlab.simulate("fpsb", 1024, threads=0),
                 lambda: bidlab.simulate("fpsb", 1024, scheduler="nowhere"),
                 lambda: bidlab.simulate("fpsb", 1024, chunk_size=0),
                 lambda: bidlab.simulate("fpsb", 1024, rules_file=tmp_path),
                 lambda: bidlab.trace("fpsb", seed=-1),
                 lambda: bidlab.compare("fpsb", ["players=3"], 0)):
        with pytest.raises(BidlabError):
            call()
    assert not files


def test_the_runner_checks_its_options_before_the_first_chunk(monkeypatch):
    played = []
    monkeypatch.setattr(runner, "play_chunk", lambda *a, **k: played.append(1))
    with pytest.raises(BidlabError, match="--threads 0"):
        bidlab.tournament("fpsb", ["linear", "random"], 1024, threads=0)
    with pytest.raises(BidlabError, match="--scheduler 'x'"):
        runner.run(runner.Job("fpsb", {}, {}, (), 0, 1024), [], scheduler="x")
    assert not played


def test_a_refused_scheduler_is_one_line(monkeypatch, capsys):
    distributed = pytest.importorskip("distributed")

    def refuse(*a, **k):
        raise OSError("Timed out trying to connect to tcp://127.0.0.1:1 after 20 s:\n"
                      "ConnectionRefusedError: [Errno 111] Connection refused")
    monkeypatch.setattr(distributed, "Client", refuse)
    assert main(["simulate", "fpsb", "-n", "1024", "--scheduler", "127.0.0.1:1",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--scheduler '127.0.0.1:1': cannot reach" in err[0]
    assert "Connection refused" in err[0]


def test_a_bad_environment_is_one_line(monkeypatch, capsys):
    def full(*a, **k):
        raise OSError(28, "No space left on device", "results.parquet")
    monkeypatch.setattr("sim.runner.run", full)
    assert main(["simulate", "fpsb", "-n", "1024", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["bidlab simulate: error: 'results.parquet' No space left on device"]
