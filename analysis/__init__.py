"""Turn simulation output into answers: tidy frames and statistics with intervals.

pandas and SciPy only; no plotting (that is ``reports``)."""

from analysis.summary import SeatSummary, mean_interval

__all__ = ["SeatSummary", "mean_interval"]
