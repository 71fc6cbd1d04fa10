"""One style for every figure: colours per strategy, fonts, sizes.

Figures draw inside :func:`style` (a ``matplotlib.rc_context``), so a report looks the
same whatever the user's matplotlib settings are. Colours come from :data:`COLORS`, a
registry that gives each strategy label one colour: the same strategy has the same colour
in every figure of a game's report. The report starts each game afresh (:func:`fresh`),
so a game's figures do not depend on the games drawn before it in the same process.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib
from matplotlib.figure import Figure

# Okabe & Ito's colour-blind safe palette (blue first: the default strategies),
# then darker tones for fields larger than the palette.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
           "#000000", "#1B4F72", "#7D6608", "#145A32", "#78281F")
NEUTRAL = "#7F7F7F"
BAND_ALPHA = 0.22
FIGSIZE = (7.0, 3.8)
DPI = 110

RC = {
    "figure.figsize": FIGSIZE,
    "figure.dpi": DPI,
    "savefig.dpi": DPI,
    "savefig.bbox": "tight",
    "savefig.facecolor": "white",
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],  # ships with matplotlib: identical output everywhere
    "font.size": 10,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "axes.labelsize": 10,
    "xtick.labelsize": 9,
    "ytick.labelsize": 9,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.color": "#E3E3E3",
    "grid.linewidth": 0.8,
    "axes.axisbelow": True,
    "lines.linewidth": 1.8,
    "lines.markersize": 5,
    "errorbar.capsize": 3,
    "svg.hashsalt": "bidlab",
    "path.simplify": True,
}


class ColorRegistry:
    """Strategy label -> colour, assigned in order of first request and then fixed.

    Policy names listed in ``fixed`` keep their colour (the default strategies of the
    games are blue everywhere); other labels take the next free palette colour.
    """

    def __init__(self, palette: tuple[str, ...] = PALETTE,
                 fixed: dict[str, str] | None = None):
        self.palette = palette
        self.fixed = dict(fixed or {})
        self.colors: dict[str, str] = dict(self.fixed)

    def __call__(self, label: str) -> str:
        label = str(label)
        if label not in self.colors:
            used = set(self.colors.values())
            free = [c for c in self.palette if c not in used]
            self.colors[label] = free[0] if free else self.palette[len(self.colors) % len(self.palette)]
        return self.colors[label]

    def reset(self) -> None:
        self.colors = dict(self.fixed)


COLORS = ColorRegistry()
"""The process-wide strategy colour registry used by every figure function."""

VARIANT_COLORS = ColorRegistry(PALETTE[1:] + PALETTE[:1])
"""Colours per house variant in comparison figures (kept apart from strategy colours)."""


def fresh() -> None:
    """Colours assigned anew from the palette's start (a new game's report)."""
    COLORS.reset()
    VARIANT_COLORS.reset()


@contextmanager
def style() -> Iterator[None]:
    """Draw with the report style (fonts, sizes, grid) without touching global settings."""
    with matplotlib.rc_context(RC):
        yield


def new_axes(figsize: tuple[float, float] | None = None):
    """A fresh axes on a standalone :class:`~matplotlib.figure.Figure` (no pyplot, so
    nothing global is kept alive and no display is needed)."""
    with style():
        fig = Figure(figsize=figsize or FIGSIZE, dpi=DPI, layout="constrained")
        return fig.add_subplot()
