"""The sender's state against time, from ``flow-N-cwnd.csv``:

- upper panel: cwnd, ssthresh and flight (bytes outstanding) as step lines,
  in segments of the flow's MSS (bytes when the MSS is unknown); ssthresh is
  left out while it is still "arbitrarily high";
- lower panel: smoothed RTT and the retransmission timeout, in seconds;
- red dashed lines across both where cwnd falls to one MSS (a timeout, or
  Tahoe's fast retransmit), and a triangle on the RTO line where the timer
  backed off (RTO at least doubled: it expired again).

``cwnd_layers`` computes what is drawn (pure, tested); ``cwnd_figure`` draws
it; ``draw_cwnd`` does both and writes the file.
"""

from __future__ import annotations

import dataclasses
import pathlib

import pandas as pd

from . import TraceError
from .render import bare_figure, check_output, save
from .traces import FlowTrace, in_window, load_flow, resolve_window, steps_in_window

__all__ = ["draw_cwnd", "cwnd_layers", "cwnd_figure", "CwndLayers", "cwnd_collapses", "rto_backoffs"]

CWND = "#2c7bb6"
SSTHRESH = "#fdae61"
FLIGHT = "#7f7f7f"
SRTT = "#1a9641"
RTO = "#7b3294"
TIMEOUT = "#d7191c"


def cwnd_collapses(states: pd.DataFrame, mss: int) -> pd.Series:
    """True where cwnd falls to one MSS or less from above it: a
    retransmission timeout (or Tahoe's fast retransmit). Judged over the
    whole trace, so a collapse just before a zoomed window is not one in it."""
    low = states["cwnd"] <= mss
    return low & ~low.shift(fill_value=True)


def rto_backoffs(states: pd.DataFrame) -> pd.Series:
    """True where the RTO at least doubled from one state to the next (within
    a rounding margin): the timer expired and backed off (RFC 6298 §5.5).
    RTT samples move the RTO by far less than that."""
    before = states["rto_s"].shift()
    return states["rto_s"] >= 1.99 * before


@dataclasses.dataclass
class CwndLayers:
    """What the graph shows of flow ``flow`` between ``start`` and ``end`` s."""

    flow: int
    start: float
    end: float
    #: Divisor of cwnd, ssthresh and flight: the MSS, or 1 for bytes.
    unit: int
    unit_name: str
    #: The state as steps, each row holding until the next: ``time_s, cwnd,
    #: ssthresh, flight`` (in ``unit``s; ssthresh NaN while arbitrarily high),
    #: ``srtt_s, rto_s``.
    steps: pd.DataFrame
    #: Times in view where cwnd fell to one MSS, and where the RTO backed off.
    collapses: pd.Series
    backoffs: pd.DataFrame
    info: dict


def cwnd_layers(trace: FlowTrace, start: float | None = None, end: float | None = None) -> CwndLayers:
    """The layers of flow ``trace.flow``'s state graph in ``[start, end]``
    (the whole trace when None), cwnd, ssthresh and flight in segments when
    the MSS is known."""
    states = trace.cwnd
    if states.empty:
        raise TraceError(f"{trace.directory}: flow {trace.flow}'s cwnd trace has no rows")
    # Each state holds until the next; the last one until the flow's last segment or state change.
    last = trace.span(("cwnd", "segments"))[1]
    span = (float(states["time_s"].iloc[0]), last)
    t0, t1 = resolve_window(span, start, end, f"flow {trace.flow}'s sender state and segments")

    mss = trace.mss
    unit, unit_name = (mss, f"segments of {mss} B") if mss else (1, "bytes")
    marked = states.assign(collapse=cwnd_collapses(states, mss) if mss else False,
                           backoff=rto_backoffs(states))
    seen = in_window(marked, t0, t1)
    steps = steps_in_window(states, t0, t1)
    scaled = steps.assign(**{c: steps[c] / unit for c in ("cwnd", "ssthresh", "flight")})
    return CwndLayers(
        flow=trace.flow, start=t0, end=t1, unit=unit, unit_name=unit_name, steps=scaled,
        collapses=seen.loc[seen["collapse"], "time_s"],
        backoffs=seen.loc[seen["backoff"], ["time_s", "rto_s"]],
        info=dict(trace.info, mss=mss),
    )


def cwnd_figure(layers: CwndLayers):
    """The graph as a matplotlib Figure (not attached to pyplot). Artists
    carry gids: ``cwnd``, ``ssthresh``, ``flight``, ``srtt``, ``rto``,
    ``collapses`` (one per panel), ``backoffs``."""
    fig, (top, bottom) = bare_figure(2, heights=[2, 1])
    s = layers.steps
    t = s["time_s"].to_numpy()
    step = {"drawstyle": "steps-post"}
    top.plot(t, s["flight"].to_numpy(dtype=float), color=FLIGHT, lw=0.7, gid="flight", label="flight", **step)
    top.plot(t, s["ssthresh"].to_numpy(dtype=float), color=SSTHRESH, lw=1.4, ls="--", gid="ssthresh",
             label="ssthresh", **step)
    top.plot(t, s["cwnd"].to_numpy(dtype=float), color=CWND, lw=1.2, gid="cwnd", label="cwnd", **step)
    top.set_ylabel(layers.unit_name)
    top.set_ylim(bottom=0)

    bottom.plot(t, s["srtt_s"].to_numpy(dtype=float), color=SRTT, lw=1.0, gid="srtt", label="smoothed RTT",
                **step)
    bottom.plot(t, s["rto_s"].to_numpy(dtype=float), color=RTO, lw=1.0, gid="rto", label="RTO", **step)
    if not layers.backoffs.empty:
        bottom.plot(layers.backoffs["time_s"].to_numpy(), layers.backoffs["rto_s"].to_numpy(), ls="none",
                    marker="^", ms=5, color=TIMEOUT, gid="backoffs", label="RTO backed off")
    bottom.set_ylabel("seconds")
    bottom.set_ylim(bottom=0)
    bottom.set_xlabel("time (s)")

    if not layers.collapses.empty:
        for ax, label in ((top, "cwnd → 1 MSS"), (bottom, None)):
            # one collection per panel, whatever the number of timeouts
            ax.vlines(layers.collapses.to_numpy(), 0, 1, transform=ax.get_xaxis_transform(), colors=TIMEOUT,
                      linestyles="--", lw=0.8, gid="collapses", label=label)
    for ax in (top, bottom):
        ax.grid(True, color="#e6e6e6", lw=0.6)
        ax.set_axisbelow(True)
        ax.legend(loc="upper right", fontsize=8, framealpha=0.9)
    bottom.set_xlim(layers.start, layers.end)
    top.set_title(_title(layers), fontsize=10, loc="left")
    return fig


def _title(layers: CwndLayers) -> str:
    info = layers.info
    about = [str(info["variant"])] if info.get("variant") else []
    if info.get("mss"):
        about.append(f"MSS {info['mss']} B")
    head = f"flow {layers.flow}" + (f" ({', '.join(about)})" if about else "")
    return (f"{head}: congestion window and RTT, {layers.start:g}–{layers.end:g} s; "
            f"cwnd fell to 1 MSS: {len(layers.collapses)}, RTO backed off: {len(layers.backoffs)}")


def draw_cwnd(trace_dir, flow: int = 0, out="cwnd.png", start: float | None = None,
              end: float | None = None) -> CwndLayers:
    """Draws flow ``flow``'s cwnd/ssthresh/flight and srtt/RTO graph from a
    trace directory into ``out`` (.png, .svg or .pdf), optionally zoomed to
    ``[start, end]`` seconds, and returns the layers drawn. Raises
    :class:`TraceError` or :class:`PlotError` in one line for a user's
    mistake."""
    out = pathlib.Path(out)
    check_output(out)
    layers = cwnd_layers(load_flow(trace_dir, flow), start, end)
    save(cwnd_figure(layers), out)
    return layers
