"""Graphs of one run's traces (``satcp run SCENARIO --trace-dir DIR``).

    from satcp.plots.tsg import draw_tsg      # tcptrace-style time-sequence graph
    from satcp.plots.cwnd import draw_cwnd    # cwnd, ssthresh, flight; srtt and rto

This module stays light (no pandas, no matplotlib) so that the command line
can register ``satcp plot ...`` without importing them.
"""

from __future__ import annotations

__all__ = ["PlotError", "TraceError"]


class PlotError(ValueError):
    """A graph that cannot be drawn as asked, in one line (a user's mistake:
    a bad time window, an unknown output format, an unwritable file)."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


class TraceError(PlotError):
    """A trace directory that cannot be read, in one line naming the file."""
