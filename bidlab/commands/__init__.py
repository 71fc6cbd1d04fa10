"""The commands of ``bidlab``, one module each: its parser (``add_parser(sub)``), its
handler (``run(args)``) and the formatting of what it prints. What several share (a
game's match options, the help's per-game defaults) is in :mod:`bidlab.commands.options`.
"""

from __future__ import annotations

from bidlab.commands import (
    bid_ev,
    bridge,
    compare,
    games,
    optimize,
    policies,
    report,
    simulate,
    solve,
    tournament,
    trace,
)

COMMANDS = {"games": games, "policies": policies, "simulate": simulate, "compare": compare,
            "optimize": optimize, "bid-ev": bid_ev, "trace": trace, "bridge": bridge,
            "solve": solve, "tournament": tournament, "report": report}
"""Command name -> module, in the order ``bidlab --help`` lists them."""
