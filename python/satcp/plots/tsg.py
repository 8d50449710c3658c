"""The time-sequence graph, as tcptrace draws it and Hayes's Appendix A reads
it (seed-notes/003.md §4): one flow's data segments against time, with the
ACKs, advertised window and SACK blocks that came back.

- each data segment: a vertical line over [seq, seq+len) at the time it was
  sent, with arrowheads at both ends when few enough are in view to tell apart;
- a retransmission: the same line in red, topped with an "R";
- the ACK line (green): a staircase of the cumulative ACK; a step up is new
  data acknowledged; each duplicate ACK is a small tick below it;
- the window line (olive): ACK + advertised window, the most the receiver
  accepts; every segment should lie between the two lines;
- a SACK block: a purple vertical line over [left, right) at the ACK's time,
  topped with an "S";
- a drop in the network (optional): an orange x at the lost bytes.

``tsg_layers`` computes what is drawn (pure, tested); ``tsg_figure`` draws
it; ``draw_tsg`` does both and writes the file.
"""

from __future__ import annotations

import dataclasses
import math
import pathlib

import numpy as np
import pandas as pd

from . import TraceError
from .render import bare_figure, check_output, offset_points, save, spans_path
from .traces import FlowTrace, dup_acks, in_window, load_flow, resolve_window, sack_blocks, steps_in_window

__all__ = ["draw_tsg", "tsg_layers", "tsg_figure", "TsgLayers", "sequence_base"]

SEGMENT = "#222222"
RETRANSMIT = "#d7191c"
ACK = "#1a9641"
WINDOW = "#a08400"  # tcptrace's yellow, darkened to read on white
SACK = "#7b3294"
DROP = "#e66101"

#: At most this many segments in view get tcptrace's arrowheads (and only
#: when tall enough to show them, see TsgLayers.arrows); else they would
#: merge into a smear, so segments are plain vertical lines.
ARROWS_MAX = 1000
#: Beyond this many segments (or SACK blocks), the layer is rasterised in
#: SVG and PDF output, which would otherwise hold one vector path per line.
VECTOR_MAX = 5000


@dataclasses.dataclass
class TsgLayers:
    """What the graph shows of flow ``flow`` between ``start`` and ``end`` s."""

    flow: int
    start: float
    end: float
    #: Segments sent in view, first transmissions and retransmissions:
    #: ``time_s, seq, len``.
    segments: pd.DataFrame
    retransmits: pd.DataFrame
    #: The ACK and window lines as steps: ``time_s, ack, top`` with
    #: ``top = ack + window``; a row holds until the next.
    steps: pd.DataFrame
    #: One tick per duplicate ACK in view: ``time_s, ack``.
    dup_acks: pd.DataFrame
    #: One line per SACK block of an ACK in view: ``time_s, left, right``.
    sacks: pd.DataFrame
    #: Data of this flow lost in the network: ``time_s, seq, len, link, cause``.
    drops: pd.DataFrame
    info: dict

    def data_range(self) -> tuple[int, int]:
        """Lowest and highest sequence number of the segments, the ACK line
        and the SACK blocks in view (the window line is left out: with a
        large receive buffer it would squash the rest into a flat line)."""
        lows = [self.segments["seq"], self.retransmits["seq"], self.steps["ack"], self.sacks["left"]]
        highs = [self.segments["seq"] + self.segments["len"], self.retransmits["seq"] + self.retransmits["len"],
                 self.steps["ack"], self.sacks["right"]]
        lo = min((int(c.min()) for c in lows if len(c)), default=0)
        hi = max((int(c.max()) for c in highs if len(c)), default=0)
        return lo, hi

    def y_limits(self) -> tuple[float, float, bool]:
        """The sequence axis: the data range, stretched up to the window line
        if that costs at most half the height; else the window line runs off
        the top. Returns (low, high, window line clipped)."""
        lo, hi = self.data_range()
        top = int(self.steps["top"].max()) if len(self.steps) else hi
        clipped = top - hi > max(hi - lo, 1)
        if not clipped:
            hi = max(hi, top)
        pad = max((hi - lo) * 0.03, float(self.info.get("mss") or 1))
        return lo - pad, hi + pad, clipped

    @property
    def arrows(self) -> bool:
        """Whether segments get arrowheads: only when few are in view and a
        typical one is at least 1/80 of the axis tall (about 7 pixels), as
        when zoomed into one window's worth of data."""
        lengths = pd.concat([self.segments["len"], self.retransmits["len"]])
        if lengths.empty or len(lengths) > ARROWS_MAX:
            return False
        lo, hi, _ = self.y_limits()
        return float(lengths.median()) * 80 >= hi - lo


def tsg_layers(trace: FlowTrace, start: float | None = None, end: float | None = None) -> TsgLayers:
    """The layers of flow ``trace.flow``'s graph in ``[start, end]`` (the
    whole trace when None). Duplicate ACKs are found over the whole ACK
    stream first, so zooming does not turn the first ACK in view into one."""
    span = trace.span(("segments", "acks"))
    if span is None:
        raise TraceError(f"{trace.directory}: flow {trace.flow} sent no segments and got no ACKs")
    t0, t1 = resolve_window(span, start, end, f"flow {trace.flow}'s segments and ACKs")

    sent = in_window(trace.segments, t0, t1)
    again = sent["retransmit"].to_numpy()
    acks = trace.acks.assign(top=trace.acks["ack"] + trace.acks["window"], dup=dup_acks(trace.acks))
    steps = steps_in_window(acks[["time_s", "ack", "top"]], t0, t1)
    seen = in_window(acks, t0, t1)
    return TsgLayers(
        flow=trace.flow, start=t0, end=t1,
        segments=sent.loc[~again, ["time_s", "seq", "len"]],
        retransmits=sent.loc[again, ["time_s", "seq", "len"]],
        steps=steps,
        dup_acks=seen.loc[seen["dup"], ["time_s", "ack"]],
        sacks=in_window(sack_blocks(trace.acks), t0, t1)[["time_s", "left", "right"]],
        drops=in_window(trace.drops, t0, t1)[["time_s", "seq", "len", "link", "cause"]],
        info=dict(trace.info, mss=trace.mss),
    )


def sequence_base(lowest: int, highest: int) -> int:
    """A round number at or below ``lowest`` to count the sequence axis from,
    so that a zoomed graph reads "+2,000,000" rather than "104,857,600 + ...":
    ``lowest`` rounded down to the power of ten of the span shown."""
    if lowest <= 0:
        return 0
    step = 10 ** int(math.floor(math.log10(max(highest - lowest, 1))))
    return lowest // step * step


def tsg_figure(layers: TsgLayers, *, relative: bool = True, drops: bool = True):
    """The graph as a matplotlib Figure (not attached to pyplot). With
    ``relative``, sequence numbers count from a round number at the bottom
    of the view (named in the axis label); else from the first payload byte.
    Artists carry gids (``segments``, ``retransmits``, ``retransmits-R``,
    ``acks``, ``window``, ``dup-acks``, ``sacks``, ``sacks-S``, ``drops``)."""
    from matplotlib.ticker import StrMethodFormatter

    fig, ax = bare_figure(1)
    low, high, clipped = layers.y_limits()
    base = sequence_base(*layers.data_range()) if relative else 0
    arrows = layers.arrows

    def seq(values: pd.Series) -> np.ndarray:
        return (values - base).to_numpy(dtype=float)

    # Later layers on top: what went wrong (retransmissions, drops) last.
    segs, again = layers.segments, layers.retransmits
    _spans(fig, ax, segs["time_s"], seq(segs["seq"]), seq(segs["seq"] + segs["len"]), colour=SEGMENT,
           gid="segments", label="data segment", z=2, arrows=arrows)
    sacks = layers.sacks
    _spans(fig, ax, sacks["time_s"], seq(sacks["left"]), seq(sacks["right"]), colour=SACK,
           gid="sacks", label="SACK block (S)", z=2.5, mark="S")
    steps = layers.steps
    if not steps.empty:
        t = steps["time_s"].to_numpy()
        ax.plot(t, seq(steps["ack"]), drawstyle="steps-post", color=ACK, lw=1.0, zorder=3,
                gid="acks", label="cumulative ACK")
        ax.plot(t, seq(steps["top"]), drawstyle="steps-post", color=WINDOW, lw=1.0, zorder=3, gid="window",
                label="ACK + advertised window" + (" (above the top)" if clipped else ""))
    dups = layers.dup_acks
    if not dups.empty:  # marker 3 is TICKDOWN: a tick hanging below the point
        ax.plot(dups["time_s"].to_numpy(), seq(dups["ack"]), ls="none", marker=3, ms=4, mew=0.8, color=ACK,
                zorder=3, gid="dup-acks", label="duplicate ACK")
    _spans(fig, ax, again["time_s"], seq(again["seq"]), seq(again["seq"] + again["len"]), colour=RETRANSMIT,
           gid="retransmits", label="retransmission (R)", z=4, arrows=arrows, mark="R")
    if drops and not layers.drops.empty:
        d = layers.drops
        ax.plot(d["time_s"].to_numpy(), seq(d["seq"] + d["len"] // 2), ls="none", marker="x", ms=6, mew=1.2,
                color=DROP, zorder=5, gid="drops", label="lost in the network (at the link)")

    ax.set_xlim(layers.start, layers.end)
    ax.set_ylim(low - base, high - base)
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"sequence number − {base:,} (bytes)" if base else "sequence number (bytes)")
    ax.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    ax.grid(True, color="#e6e6e6", lw=0.6)
    ax.set_axisbelow(True)
    ax.set_title(_title(layers), fontsize=10, loc="left")
    if ax.get_legend_handles_labels()[0]:  # below the axes: the data fills the upper left
        fig.legend(loc="outside lower center", ncols=4, fontsize=8, frameon=False)
    return fig


def _spans(fig, ax, times: pd.Series, lo: np.ndarray, hi: np.ndarray, *, colour: str, gid: str, label: str,
           z: float, arrows: bool = False, mark: str | None = None) -> None:
    """Vertical lines over [lo, hi) at ``times``: one path for all of them,
    arrowheads at both ends if asked, a letter above each if ``mark``."""
    if len(times) == 0:
        return
    x = times.to_numpy()
    many = len(x) > VECTOR_MAX
    ax.plot(*spans_path(x, lo, hi), color=colour, lw=0.8, zorder=z, gid=gid, label=label, rasterized=many)
    if arrows:
        for ends, head, name in ((hi, ARROW_UP, "up"), (lo, ARROW_DOWN, "down")):
            ax.plot(x, ends, ls="none", marker=head, ms=4, mec=colour, mfc="none", mew=0.8, zorder=z,
                    gid=f"{gid}-{name}", rasterized=many)
    if mark:
        ax.plot(x, hi, ls="none", marker=f"${mark}$", ms=6, color=colour, zorder=z, gid=f"{gid}-{mark}",
                transform=ax.transData + offset_points(fig, 0, 6), rasterized=many)


def _title(layers: TsgLayers) -> str:
    info = layers.info
    about = [str(info["variant"])] if info.get("variant") else []
    if info.get("mss"):
        about.append(f"MSS {info['mss']} B")
    if info.get("sack"):
        about.append("SACK")
    sent = len(layers.segments) + len(layers.retransmits)
    head = f"flow {layers.flow}" + (f" ({', '.join(about)})" if about else "")
    return (f"{head}: time-sequence graph, {layers.start:g}–{layers.end:g} s, "
            f"{sent:,} segments of which {len(layers.retransmits):,} retransmitted")


def draw_tsg(trace_dir, flow: int = 0, out="tsg.png", start: float | None = None, end: float | None = None,
             relative: bool = True, drops: bool = True) -> TsgLayers:
    """Draws flow ``flow``'s time-sequence graph from a trace directory into
    ``out`` (.png, .svg or .pdf), optionally zoomed to ``[start, end]``
    seconds, and returns the layers drawn. Raises :class:`TraceError` or
    :class:`PlotError` in one line for a user's mistake."""
    out = pathlib.Path(out)
    check_output(out)
    layers = tsg_layers(load_flow(trace_dir, flow), start, end)
    save(tsg_figure(layers, relative=relative, drops=drops), out)
    return layers


def _arrowhead(direction: int):
    """An open arrowhead whose tip is the marker's point (matplotlib scales a
    path marker but does not re-centre it)."""
    from matplotlib.path import Path

    return Path(np.array([[-0.6, -direction], [0.0, 0.0], [0.6, -direction]]), [Path.MOVETO, Path.LINETO, Path.LINETO])


ARROW_UP = _arrowhead(1)
ARROW_DOWN = _arrowhead(-1)
