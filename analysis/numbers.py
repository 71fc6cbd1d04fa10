"""The one number format of every printed table and sentence (the rules are written out
in :mod:`reports.text`, which re-exports these functions; they live here, below
``reports``, so that ``analysis`` can print its log lines by the same rules).

Pure functions of the numbers they are given: no pandas, no state."""

from __future__ import annotations

import math

MOST = 6
"""The most decimals any number gets (beyond it a tiny spread is shown as none)."""


def decimals(half_width: float, lo: int = 0, hi: int = 4) -> int:
    """Decimals worth showing for an estimate whose 95% interval has this half width:
    down to the half width's first significant digit."""
    if not math.isfinite(half_width) or half_width <= 0:
        return 2
    return max(lo, min(hi, -math.floor(math.log10(half_width))))


def _finite(*values) -> bool:
    return all(v is not None and math.isfinite(v) for v in values)


def needs_more(places: int, low: float, high: float) -> bool:
    """At ``places`` decimals the interval ``[low, high]`` would mislead: a bound that is
    not zero prints as 0, or an interval with spread prints with equal bounds."""
    if not _finite(low, high):
        return False
    if any(v != 0 and round(abs(v), places) == 0 for v in (low, high)):
        return True
    return low != high and round(low, places) == round(high, places)


def places_for(low: float, high: float, *values: float, most: int = MOST) -> int:
    """:func:`decimals` for the interval, plus more (up to ``most``) while a nonzero
    bound would print as 0 or an interval with spread would print as ``[x, x]``.
    ``values`` (the estimate) do not add decimals: an estimate is as precise as its
    interval."""
    places = decimals((high - low) / 2) if _finite(low, high) else 2
    while places < most and needs_more(places, low, high):
        places += 1
    return places


def column_places(low, high, most: int = MOST) -> int:
    """Decimals for a table column of intervals ``[low, high]``: one more than their
    median half width calls for (two significant digits of it: tables are for reading
    off numbers), at most 4, then more, up to ``most``, where any row would mislead
    (:func:`needs_more`). 2 where no row has a width."""
    lows = [float(v) for v in low]
    highs = [float(v) for v in high]
    half = sorted((b - a) / 2 for a, b in zip(lows, highs)
                  if _finite(a, b) and b > a)
    if half:
        mid = len(half) // 2
        median = half[mid] if len(half) % 2 else (half[mid - 1] + half[mid]) / 2
        places = max(0, min(4, 1 - math.floor(math.log10(median))))
    else:
        places = 2
    while places < most and any(needs_more(places, a, b) for a, b in zip(lows, highs)):
        places += 1
    return places


def plain_places(values, digits: int = 3, most: int = MOST) -> int:
    """Decimals for a column of numbers that have no interval: ``digits`` significant
    digits of the column's largest magnitude (0 for whole numbers), at most ``most``."""
    shown = [abs(float(v)) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not shown:
        return 0
    if all(float(v).is_integer() for v in shown):
        return 0
    return max(0, min(most, digits - 1 - math.floor(math.log10(max(shown)))))


def num(x: float | None, places: int = 2, sign: bool = False) -> str:
    """``x`` fixed point with ``places`` decimals and thousands separators; never
    ``-0.00`` (a number that rounds to zero has no minus sign)."""
    if x is None or not math.isfinite(x):
        return "n/a"
    x = round(float(x), places) + 0.0
    return f"{x:+,.{places}f}" if sign else f"{x:,.{places}f}"


def nums(values, places: int | None = None, sign: bool = False, scale: float = 1.0) -> list[str]:
    """A column of numbers without intervals, all with the same decimals
    (:func:`plain_places` unless ``places`` is given)."""
    scaled = [float(v) * scale for v in values]
    if places is None:
        places = plain_places(scaled)
    return [num(v, places, sign) for v in scaled]


def interval(mean: float, low: float, high: float, scale: float = 1.0, sign: bool = False,
             places: int | None = None) -> str:
    """A table cell ``"71.49 [71.46, 71.53]"``; the bare number where there is no
    interval (NaN bounds)."""
    m, lo, hi = mean * scale, low * scale, high * scale
    if places is None:
        places = places_for(lo, hi, m)
    if not _finite(lo, hi):
        return num(m, places, sign)
    return f"{num(m, places, sign)} [{num(lo, places, sign)}, {num(hi, places, sign)}]"


def intervals(mean, low, high, scale: float = 1.0, sign: bool = False) -> list[str]:
    """Cells ``"71.49 [71.46, 71.53]"`` for a column, all with the same decimals
    (:func:`column_places`)."""
    m = [float(v) * scale for v in mean]
    lo = [float(v) * scale for v in low]
    hi = [float(v) * scale for v in high]
    if any(_finite(a, b) and b > a for a, b in zip(lo, hi)):
        places = column_places(lo, hi)
    else:  # no row has spread: the numbers' own digits (whole scores stay whole)
        places = plain_places([v for v in (*m, *lo, *hi) if math.isfinite(v)])
    return [interval(a, b, c, sign=sign, places=places) for a, b, c in zip(m, lo, hi)]


def claim(mean: float, low: float, high: float, scale: float = 1.0, sign: bool = False,
          sep: str = " to ") -> str:
    """``"0.440 (95% CI 0.427 to 0.454)"``: a command's summary line, at the precision of
    a table cell (:func:`column_places`)."""
    m, lo, hi = mean * scale, low * scale, high * scale
    places = column_places([lo], [hi])
    if not _finite(lo, hi) or lo == hi:
        return num(m, places, sign)
    return f"{num(m, places, sign)} (95% CI {num(lo, places, sign)}{sep}{num(hi, places, sign)})"
