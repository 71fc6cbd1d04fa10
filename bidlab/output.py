"""Plain-text output shared by the commands."""

from __future__ import annotations


def table_lines(frame) -> list[str]:
    """A frame as left-aligned text columns (pandas right-aligns text, which reads badly
    here), one line per row after the header."""
    cells = [list(frame.columns)] + frame.astype(str).values.tolist()
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]


def print_table(frame) -> None:
    print("\n".join(table_lines(frame)))
