"""The README walked: every shell example runs (in-process, through ``bidlab.cli.main``,
at small sizes where the example is large: the sizes are rewritten here, never in the
README) and exits 0; every printed example (a ```text block of ``$ bidlab ...`` lines
and what they print) matches what the command prints now, timings aside, where a line
``...`` marks a block as abridged (the lines around it must appear in that order).

The examples that must solve bridge deals double dummy, build a report, start a Dask
cluster or solve a game's bidding for minutes are marked slow (``make test-slow``)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest

from bidlab.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"
TEXT = README.read_text()


def sh_commands() -> list[str]:
    """Every ``bidlab ...`` line of the README's ```sh blocks, continuation lines joined
    and comments dropped, in the README's order."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", TEXT, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line.startswith("bidlab "):
                out.append(line)
    return out


def slow_reason(argv: list[str]) -> str | None:
    """Why an example cannot run in the default suite (None: it can, at small size)."""
    cmd, game = argv[0], argv[1] if len(argv) > 1 else ""
    if cmd == "report":
        return "builds the statistics report"
    if "--workers" in argv or "--scheduler" in argv:
        return "starts a Dask cluster"
    if cmd == "bid-ev" and game == "bridge":
        return "solves the rollouts' deals double dummy"
    if cmd == "bridge" and game == "best":
        return "solves constrained deals double dummy"
    if cmd == "solve" and game in ("pitch", "vybory", "auktsion"):
        return "solves a game's bidding (a minute or more even at 250 iterations)"
    if cmd == "compare" and "--solved" in argv and game != "fpsb":
        return ("plays the solutions of house variants, which an earlier (slow) solve or "
                "--solve-missing makes")
    if any("solved:" in a for a in argv):
        return "plays a solution with other settings, which an earlier (slow) example makes"
    return None


def shrink(argv: list[str], tmp: Path) -> list[str]:
    """The example at test size: ``-n`` at most 200 matches (8 boards for bridge, whose
    boards 0..1023 of seed 0 ship solved; 10 where pimc plays), ``--rollouts`` 200,
    ``--self-play`` at most 2, a solve 250 iterations (into ``tmp`` or the walk's
    solutions folder)."""
    out = list(argv)
    bridge = "bridge" in out[:2]
    small = 8 if bridge else 10 if any("pimc" in a for a in out) else 200
    for i, a in enumerate(out[:-1]):
        if a == "-n":
            out[i + 1] = str(min(int(out[i + 1]), small))
        elif a == "--rollouts":
            out[i + 1] = str(min(int(out[i + 1]), 200))
        elif a == "--self-play":
            out[i + 1] = str(min(int(out[i + 1]), 2))
        elif a == "--iterations":
            out[i + 1] = "250"
    if out[0] == "solve":
        if "--iterations" not in out:
            out += ["--iterations", "250"]
        if "--out" in out:   # otherwise where `solved` finds it: the walk's own folder
            out[out.index("--out") + 1] = str(tmp / out[out.index("--out") + 1])
    return out


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own errors
            code = e.code if isinstance(e.code, int) else 1
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def walk_dir(tmp_path_factory):
    """The folder the examples run in (they read and write boards.pbn, results.parquet
    ...), with the files that later examples read, and solutions kept out of the user's
    folder."""
    tmp = tmp_path_factory.mktemp("readme")
    old = os.getcwd()
    saved = os.environ.get("BIDLAB_SOLUTIONS")
    os.environ["BIDLAB_SOLUTIONS"] = str(tmp / "solutions")
    os.chdir(tmp)
    try:
        code, out, err = run(["simulate", "bridge", "-n", "8", "--strategy", "all=natural",
                              "--pbn", "boards.pbn", "--no-progress"])
        assert code == 0, out + err
        yield tmp
    finally:
        os.chdir(old)
        if saved is None:
            os.environ.pop("BIDLAB_SOLUTIONS", None)
        else:
            os.environ["BIDLAB_SOLUTIONS"] = saved


def _params():
    out = []
    for i, command in enumerate(sh_commands()):
        argv = shlex.split(command)[1:]
        why = slow_reason(argv)
        marks = [pytest.mark.slow] if why else []
        out.append(pytest.param(command, id=f"{i:02d} {command[:60]}", marks=marks))
    return out


def test_the_walk_covers_the_readme():
    commands = sh_commands()
    assert len(commands) > 40
    fast = [c for c in commands if slow_reason(shlex.split(c)[1:]) is None]
    assert len(fast) > 0.75 * len(commands)


@pytest.mark.parametrize("command", _params())
def test_readme_example_runs(command, walk_dir):
    argv = shrink(shlex.split(command)[1:], walk_dir)
    code, out, err = run(argv)
    assert code == 0, f"{' '.join(argv)}\n{out}\n{err}"
    assert out.strip() or err.strip()


# -- printed examples ----------------------------------------------------------------

def printed_examples() -> list[tuple[str, list[str]]]:
    """(command, lines it prints) for every ``$ bidlab ...`` in a ```text block."""
    out = []
    for block in re.findall(r"```text\n(.*?)```", TEXT, re.S):
        command, lines = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command:
                    out.append((command, lines))
                command, lines = line[2:], []
            elif command is not None:
                lines.append(line)
        if command:
            out.append((command, lines))
    return out


def normal(text: str) -> str:
    """Timings out: ``, 2.1 s`` and ``in 3.4 s`` read the same on any machine."""
    return re.sub(r"\d+(?:\.\d+)? s\b", "N s", text.rstrip())


def test_every_text_block_is_a_printed_example():
    blocks = re.findall(r"```text\n(.*?)```", TEXT, re.S)
    assert all(b.startswith("$ ") for b in blocks), "a ```text block without its command"
    assert len(printed_examples()) >= 5


def _printed_params():
    out = []
    for command, lines in printed_examples():
        argv = shlex.split(command)[1:]
        marks = [pytest.mark.slow] if slow_reason(argv) else []
        out.append(pytest.param(command, lines, id=command[:70], marks=marks))
    return out


@pytest.mark.parametrize(("command", "expected"), _printed_params())
def test_readme_printed_example_matches(command, expected, walk_dir):
    code, out, err = run(shlex.split(command)[1:])
    got = [normal(line) for line in (out + err).rstrip("\n").splitlines()]
    want = [normal(line) for line in expected]
    if any(line.strip() == "..." for line in want):
        # abridged: each run of lines between the "..." appears, in order
        at = 0
        parts, part = [], []
        for line in want + ["..."]:
            if line.strip() == "...":
                if part:
                    parts.append(part)
                part = []
            else:
                part.append(line)
        for part in parts:
            found = next((i for i in range(at, len(got) - len(part) + 1)
                          if got[i:i + len(part)] == part), None)
            assert found is not None, (f"{command}: these lines are not printed (in this "
                                       f"order):\n" + "\n".join(part) + "\n--- printed:\n"
                                       + "\n".join(got))
            at = found + len(part)
    else:
        assert got == want, f"{command}\n--- printed:\n" + "\n".join(got)
    if any(line.startswith(f"bidlab {shlex.split(command)[1]}: error") for line in want):
        assert code == 2
    else:
        assert code == 0
