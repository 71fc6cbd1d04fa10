"""``bidlab report [GAME...]``: the statistics report."""

from __future__ import annotations

import argparse
import sys


def add_parser(sub) -> None:
    from reports.games import spec_for
    from reports.spec import GENERIC_SECTIONS

    p = sub.add_parser(
        "report", help="the statistics report of every game (HTML, Markdown, figures, data)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Simulate each GAME (default: every game) and write a report a person "
                    "would want to read: rules and strategies, equity and win rates, money "
                    "flow, prices or contracts, optimal bids and house-variant comparisons, "
                    "each with 95% intervals and a one-sentence reading. Writes DIR/report.html "
                    "(self-contained: figures embedded, no network needed), DIR/report.md, "
                    "DIR/figures/*.png, DIR/data/*.parquet (the numbers behind every table and "
                    "figure) and DIR/provenance.json.",
        epilog="examples:\n  bidlab report                       # every game, default sizes\n"
               "  bidlab report auktsion -n 50000 --out auktsion-report\n"
               "  bidlab report fpsb --sections equity,equilibrium\n"
               "  bidlab report --processes 1         # one game at a time, all cores each\n")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to report (default: all)")
    p.add_argument("-n", type=int, help="matches in each game's main runs (default: per game, "
                   f"e.g. {spec_for('auktsion').n} for auktsion); the game's other runs scale "
                   f"with it")
    p.add_argument("--seed", type=int, default=0, help="random seed (default %(default)s)")
    p.add_argument("--out", default="report", metavar="DIR",
                   help="output folder (default: %(default)s)")
    p.add_argument("--sections", metavar="ID[,ID...]", help="only these sections: "
                   f"{', '.join(GENERIC_SECTIONS)}, and a game's own (e.g. auktsion: "
                   f"{', '.join(spec_for('auktsion').extra)})")
    p.add_argument("--replace", action="store_true",
                   help="write even where DIR holds a report of more games or sections "
                        "(without it such a report is kept and this one refused)")
    p.add_argument("--processes", type=int, metavar="P",
                   help="games built at once, each in its own process with its share of the "
                        "cores (default: one per core, at most one per game; 1: one after the "
                        "other in this process); the numbers do not depend on it")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args) -> None:
    from pathlib import Path

    from reports.report import ReportInterrupted, build_report
    sections = [t.strip() for t in args.sections.split(",") if t.strip()] if args.sections else None
    try:
        result = build_report(args.games or None, n=args.n, seed=args.seed, out=args.out,
                              sections=sections, progress=False if args.no_progress else None,
                              replace=args.replace, processes=args.processes)
    except ReportInterrupted as e:
        done = sum(len(g.sections) for g in e.result.document.games)
        print(f"bidlab report: {e}: {Path(e.result.html).resolve()} holds "
              f"the {done} sections completed before it (provenance.json: partial)",
              file=sys.stderr)
        raise SystemExit(130) from None
    html = Path(result.html).resolve()
    print(f"report: {html}\n  open: {html.as_uri()}\n  markdown: {result.markdown}\n"
          f"  figures: {len(result.figures)} PNG in {Path(args.out) / 'figures'}\n"
          f"  data: {len(result.data)} Parquet in {Path(args.out) / 'data'}\n"
          f"  {result.seconds:.0f} s")
    if result.failures:
        for f in result.failures:
            print(f"bidlab report: section failed: {f}", file=sys.stderr)
        raise SystemExit(1)
