"""Numbers into words: estimates with their intervals at an honest precision, p-values,
and the plain-language sentences of the report. Every sentence is built from the
numbers it is given; none states a conclusion of its own."""

from __future__ import annotations

import math


def decimals(half_width: float, lo: int = 0, hi: int = 4) -> int:
    """Decimals worth showing for an estimate whose 95% interval has this half width:
    down to the half width's first significant digit."""
    if not math.isfinite(half_width) or half_width <= 0:
        return 2
    return max(lo, min(hi, -math.floor(math.log10(half_width))))


def places_for(low: float, high: float, *values: float, most: int = 4) -> int:
    """:func:`decimals` for the interval, plus more where a nonzero number would
    otherwise print as 0 (so an interval that excludes 0 never shows a 0 bound)."""
    places = decimals((high - low) / 2) if math.isfinite(low) and math.isfinite(high) else 2
    shown = [v for v in (low, high, *values) if v is not None and math.isfinite(v) and v != 0]
    while places < most and any(round(abs(v), places) == 0 for v in shown):
        places += 1
    return places


def num(x: float | None, places: int = 2, sign: bool = False) -> str:
    """``x`` with ``places`` decimals and thousands separators (never ``-0.00``)."""
    if x is None or not math.isfinite(x):
        return "n/a"
    x = round(float(x), places) + 0.0
    return f"{x:+,.{places}f}" if sign else f"{x:,.{places}f}"


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


def interval(mean: float, low: float, high: float, scale: float = 1.0, sign: bool = False) -> str:
    """Compact table cell: ``"71.49 [71.46, 71.53]"``."""
    m, lo, hi = mean * scale, low * scale, high * scale
    places = places_for(lo, hi, m)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return num(m, places, sign)
    return f"{num(m, places, sign)} [{num(lo, places, sign)}, {num(hi, places, sign)}]"


def intervals(mean, low, high, scale: float = 1.0, sign: bool = False) -> list[str]:
    """Table cells ``"71.49 [71.46, 71.53]"`` for a column, all with the same decimals:
    one more than the column's median half width calls for (tables are for reading off
    numbers; sentences round harder)."""
    import numpy as np

    m = np.asarray(mean, float) * scale
    lo = np.asarray(low, float) * scale
    hi = np.asarray(high, float) * scale
    places = column_places(lo, hi)
    return [num(a, places, sign) if not (math.isfinite(b) and math.isfinite(c)) else
            f"{num(a, places, sign)} [{num(b, places, sign)}, {num(c, places, sign)}]"
            for a, b, c in zip(m, lo, hi)]


def column_places(low, high) -> int:
    """Decimals for a table column of intervals ``[low, high]``: one more than their
    median half width calls for (2 where none has a width)."""
    import numpy as np

    half = (np.asarray(high, float) - np.asarray(low, float)) / 2
    half = half[np.isfinite(half) & (half > 0)]
    return min(4, decimals(float(np.median(half))) + 1) if len(half) else 2


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
    return f"{100 * x:.{places}f}%"


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
