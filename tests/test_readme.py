"""The README's commands are the ones users paste: each one parses, and each auktsion
bid-EV situation in them is one the rules allow (A3: coins that a deal explains), and so
is each aukcio and vybory one."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bidlab.cli import build_parser
from sim.games.auktsion.rules import make
from sim.games.auktsion.situation import parse
from sim.rules import parse_assignments

README = Path(__file__).resolve().parent.parent / "README.md"


def readme_commands() -> list[str]:
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line.startswith("bidlab "):
                commands.append(line)
    return commands


def test_the_readme_has_commands():
    assert len(readme_commands()) > 20


@pytest.mark.parametrize("command", readme_commands())
def test_readme_command_parses(command):
    args = build_parser().parse_args(shlex.split(command)[1:])
    if args.command == "bid-ev" and args.game == "auktsion":
        situation = parse_assignments(args.state, what="--state")
        situation["hand"] = args.hand
        assert parse(make({}), situation).points is not None  # the coins tell the points
    if args.command == "bid-ev" and args.game == "aukcio":
        from sim.games.aukcio import situation as aukcio_situation
        from sim.games.aukcio.rules import make as aukcio_rules
        state = parse_assignments(args.state, what="--state")
        aukcio_situation.parse(aukcio_rules({}), {**state, "hand": args.hand})
    if args.command == "bid-ev" and args.game == "vybory":
        from sim.games.vybory import situation as vybory_situation
        from sim.games.vybory.rules import make as vybory_rules
        state = parse_assignments(args.state, what="--state")
        vybory_situation.parse(vybory_rules({}), {**state, "hand": args.hand,
                                                  "seat": args.seat or 0})
