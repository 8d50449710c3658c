"""Plots, one module per kind, each drawn from files a run or a sweep wrote:

    from satcp.plots import plot_goodput       # a metric against a factor, with CIs (sweep results)
    from satcp.plots.tsg import draw_tsg       # tcptrace-style time-sequence graph (run traces)
    from satcp.plots.cwnd import draw_cwnd     # cwnd, ssthresh, flight; srtt and rto (run traces)

``satcp plot KIND ...`` finds its command in :mod:`.cli`. This package stays
light (no pandas, no matplotlib at import) so that the command line can
register every kind without importing them.
"""

from __future__ import annotations

__all__ = ["PlotError", "TraceError", "plot_goodput"]


class PlotError(ValueError):
    """A graph that cannot be drawn as asked, in one line (a user's mistake:
    a bad time window, an unknown output format, an unwritable file)."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


class TraceError(PlotError):
    """A trace directory that cannot be read, in one line naming the file."""


from .goodput import plot_goodput  # noqa: E402  (after the errors it may raise)
