"""Numbers into words: estimates with their intervals at an honest precision, p-values,
and the plain-language sentences of the report. Every sentence is built from the
numbers it is given; none states a conclusion of its own.

How numbers are printed: one format for every command, the report and the API's printed
tables (``--json``, the frames and the Parquet files keep full precision):

1. **Shares are percentages.** A share of [0, 1] (win share, matchpoints, a rate of
   contracts made, a share of deals) prints as a percentage, and a difference of
   shares in percentage points, in every command and the report alike; probabilities
   that are not shares of matches (``P(best)``, p-values) stay fractions.
2. **Decimals come from the precision of the estimate**, not from the run: a number
   with a 95% interval gets the decimals of its interval's half width (its first
   significant digit in a sentence; two significant digits, at most 4 decimals, in a
   table column, one number of decimals down the column, from the column's median
   half width). Then more, up to :data:`MOST`, wherever a bound that is not zero would
   print as 0 or an interval with spread would print with equal bounds: so
   ``[x, x]`` means the quantity has no spread, and ``[0.00, 0.00]`` that it is 0.
   Numbers without an interval (a score, a tuning gain) get three significant digits
   of their column's largest magnitude.
3. **Fixed point only**, with thousands separators; no scientific notation, and no
   ``-0``: a number that rounds to zero prints without a minus sign.
4. **Differences are first minus second**: variant minus baseline, candidate minus
   best, the first strategy named minus the second; signed (``+0.12``).
5. **"0 in every match"** (or "... every board", "... every rollout") is written only
   where every paired difference is exactly 0; otherwise the difference and its
   interval are printed.
6. **Columns are aligned**: text tables are left-aligned columns of equal width
   (:func:`bidlab.output.table_lines`), one number of decimals per column.
"""

from __future__ import annotations

import math

from analysis.numbers import (  # noqa: F401
    MOST,
    claim,
    column_places,
    decimals,
    interval,
    intervals,
    needs_more,
    num,
    nums,
    places_for,
    plain_places,
)


def estimate(mean: float, low: float, high: float, scale: float = 1.0, unit: str = "",
             sign: bool = False) -> str:
    """``"71.5 points (95% CI 71.4 to 71.6)"``; ``scale`` multiplies (100 for percent);
    ``unit`` follows the number (``"%"``, ``" points per match"``)."""
    m, lo, hi = mean * scale, low * scale, high * scale
    places = places_for(lo, hi, m)
    core = f"{num(m, places, sign)}{unit}"
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi == lo:
        return core
    return f"{core} (95% CI {num(lo, places, sign)} to {num(hi, places, sign)})"


METRIC_TITLES = {"score": "match score", "win": "win share, %", "money_spent": "money spent",
                 "bid": "bid", "points": "points"}
"""A metric's title in a report's tables."""

ZERO = "0 in every match"


def seat_label(name: str) -> str:
    """``"seat 2"`` of a seat row's name (``"2 budget"``)."""
    return "seat " + name.split(" ", 1)[0]

"""The difference cell of a quantity whose paired difference is 0 in every match."""


def all_zero(diff: float, low: float, high: float) -> bool:
    """Every paired difference is exactly 0 (a t interval has no width only when every
    difference is the same, and their mean is then that difference)."""
    return diff == 0 and low == 0 and high == 0


def p_text(p: float) -> str:
    if p is None or not math.isfinite(p):
        return "p n/a"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def significant(low: float, high: float) -> bool:
    """The 95% interval excludes zero."""
    return math.isfinite(low) and math.isfinite(high) and (low > 0 or high < 0)


def difference(subject: str, diff: float, low: float, high: float, *, other: str,
               verb: str = "scores", unit: str = "points", more: str = "more",
               less: str = "less", suffix: str = "", scale: float = 1.0,
               p: float | None = None) -> str:
    """``"budget scores 41.6 points more than value per match (95% CI 41.2 to 42.0)"``
    (``... in every case`` where every paired difference is the same), or, when the
    interval includes zero, that no difference is detectable."""
    d, lo, hi = diff * scale, low * scale, high * scale
    places = places_for(lo, hi, d)
    ptxt = f", {p_text(p)}" if p is not None else ""
    if all_zero(diff, low, high):
        return f"{subject} and {other} do not differ in any case{suffix}"
    if not significant(low, high):
        return (f"no difference between {subject} and {other} is detectable at this sample "
                f"size ({num(d, places, True)} {unit}{suffix}, 95% CI {num(lo, places, True)} "
                f"to {num(hi, places, True)}{ptxt})")
    a, b = (lo, hi) if d > 0 else (-hi, -lo)
    text = (f"{subject} {verb} {num(abs(d), places)} {unit} {more if d > 0 else less} than "
            f"{other}{suffix}")
    if lo == hi:  # the same difference every time: no interval to give
        return text + " in every case"
    return text + f" (95% CI {num(a, places)} to {num(b, places)}{ptxt})"


def change(subject: str, diff: float, low: float, high: float, *, unit: str, scale: float = 1.0,
           p: float | None = None, up: str = "rises", down: str = "drops") -> str:
    """``"the first seat's win share drops by 1.8 points (95% CI 1.2 to 2.4, p < 0.001)"``."""
    d, lo, hi = diff * scale, low * scale, high * scale
    places = places_for(lo, hi, d)
    ptxt = f", {p_text(p)}" if p is not None else ""
    if all_zero(diff, low, high):
        return f"{subject} does not change in any match"
    if not significant(low, high):
        return (f"{subject} shows no detectable change ({num(d, places, True)} {unit}, 95% CI "
                f"{num(lo, places, True)} to {num(hi, places, True)}{ptxt})")
    a, b = (lo, hi) if d > 0 else (-hi, -lo)
    return (f"{subject} {up if d > 0 else down} by {num(abs(d), places)} {unit} (95% CI "
            f"{num(a, places)} to {num(b, places)}{ptxt})")


def value(v) -> str:
    """A rule or parameter value as written on the command line: ``true``, ``2`` (not
    ``2.0``), ``4,3,2,1``."""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (tuple, list)):
        return ",".join(map(str, v))
    return str(v)


def share(x: float, places: int = 1) -> str:
    """A share of [0, 1] as a percentage: ``"33.3%"``."""
    if x is None or not math.isfinite(x):
        return "n/a"
    return f"{num(100 * x, places)}%"


def join(items: list[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
