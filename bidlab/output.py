"""Plain-text output shared by the commands."""

from __future__ import annotations


def print_table(frame) -> None:
    """Left-aligned text table (pandas right-aligns text, which reads badly here)."""
    cells = [list(frame.columns)] + frame.astype(str).values.tolist()
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
