"""Figures and reports: matplotlib figures of the analysis frames (one style) and the
report that ``bidlab report`` writes (HTML, Markdown, PNG, Parquet).

``reports.figures`` draws; ``reports.report.build_report`` assembles; each game plugs in
through a small spec in ``reports/games/<game>.py`` (``reports.spec.GameSpec``), and a
game without one gets the generic sections.

``build_report`` and the rest of :mod:`reports.report` load on first use, so that the
command line can read the specs (sizes, section ids, for its help) without loading
matplotlib and the analysis.
"""

__all__ = ["build_report", "ReportResult", "DEFAULT_OUT"]


def __getattr__(name: str):
    if name in __all__:
        from reports import report
        return getattr(report, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
