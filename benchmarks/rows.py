"""The row every ``bench_<game>.py`` returns to ``benchmarks/run.py``: a measured value,
its baseline from the same run (or None), the ratio between them, the target and
whether it was met."""

from __future__ import annotations


def row(name: str, value: float, unit: str, baseline: float | None, target: str,
        ok: bool | None, note: str = "") -> dict:
    return {"name": name, "value": value, "unit": unit, "baseline": baseline,
            "ratio": value / baseline if baseline else None, "target": target, "passed": ok,
            "note": note}
