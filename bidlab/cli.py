"""The ``bidlab`` command line: a thin layer over :mod:`bidlab.api`, one module per
command in :mod:`bidlab.commands`."""

from __future__ import annotations

import argparse
import os
import signal
import sys

from bidlab.commands import COMMANDS
from bidlab.commands.options import version
from bidlab.commands.simulate import EXAMPLES


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bidlab", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Monte Carlo strategy analysis for auction card games: simulate millions "
                    "of matches under pluggable bidding strategies and summarize equity and "
                    "win rates with 95% intervals.", epilog=EXAMPLES)
    parser.add_argument("--version", action="version", version=f"bidlab {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS.values():
        command.add_parser(sub)
    return parser


def _stop(signum, frame) -> None:
    """SIGTERM stops a command as Ctrl-C does: completed work is kept."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    from sim.errors import BidlabError
    signal.signal(signal.SIGTERM, _stop)
    try:
        COMMANDS[args.command].run(args)
    except BidlabError as e:
        print(f"bidlab {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"bidlab {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``bidlab trace ... | head``): not an error of ours. Point
        # stdout at /dev/null so that the interpreter's final flush stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        # A bad environment (a file that cannot be read or written, a full disk, no
        # network): one line naming what failed, never a traceback.
        where = f" {e.filename!r}" if getattr(e, "filename", None) else ""
        why = e.strerror or " ".join(str(e).split()) or type(e).__name__
        print(f"bidlab {args.command}: error:{where} {why}", file=sys.stderr)
        return 2
    return 0
