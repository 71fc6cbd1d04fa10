"""Figures and reports: matplotlib figures of the analysis frames (one style) and the
report that ``bidlab report`` writes (HTML, Markdown, PNG, Parquet).

``reports.figures`` draws; ``reports.report.build_report`` assembles; each game plugs in
through a small spec in ``reports/games/<game>.py`` (``reports.spec.GameSpec``), and a
game without one gets the generic sections.
"""

from reports.report import DEFAULT_OUT, ReportResult, build_report

__all__ = ["build_report", "ReportResult", "DEFAULT_OUT"]
