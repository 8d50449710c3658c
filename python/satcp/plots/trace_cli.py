"""``satcp plot tsg`` and ``satcp plot cwnd``: graphs of a trace directory.

    satcp plot tsg  TRACE_DIR [--flow N] [--start S] [--end S] [--absolute] [--no-drops] -o FILE
    satcp plot cwnd TRACE_DIR [--flow N] [--start S] [--end S] -o FILE

``add_trace_plot_commands`` registers both under an existing ``plot``
subparsers action; each sets ``handler`` on the parsed arguments, a
function taking them and returning the exit status. A user's mistake (no
such directory, no such flow, a malformed trace, an unknown output format)
is one line on stderr and status 2. pandas and matplotlib are imported only
when a graph is drawn, so registering costs nothing.
"""

from __future__ import annotations

import argparse
import math
import sys

from . import PlotError

__all__ = ["add_trace_plot_commands"]


def _flow(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: a flow id, 0 or more")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text.removesuffix("s"))
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: seconds, 0 or more, such as 12.5")
    return value


def _common(parser: argparse.ArgumentParser, default_name: str) -> None:
    parser.add_argument("trace_dir", metavar="TRACE_DIR", help="the directory of satcp run SCENARIO --trace-dir DIR")
    parser.add_argument("--flow", type=_flow, default=0, metavar="N", help="the flow to draw (default 0)")
    parser.add_argument("--start", type=_seconds, metavar="S", help="draw from S seconds (default: the trace's start)")
    parser.add_argument("--end", type=_seconds, metavar="S", help="draw up to S seconds (default: the trace's end)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help=f"the file to write: .png, .svg or .pdf (such as {default_name})")


def add_trace_plot_commands(plot_subparsers) -> None:
    """Adds ``tsg`` and ``cwnd`` to the ``satcp plot`` group."""
    tsg = plot_subparsers.add_parser(
        "tsg", help="a tcptrace-style time-sequence graph of one flow",
        description="Draw one flow's time-sequence graph (tcptrace style): data segments as vertical lines "
                    "over their bytes, retransmissions in red with an R, the cumulative ACK (green) and "
                    "ACK + advertised window (olive) as steps, duplicate ACKs as ticks, SACK blocks in purple "
                    "with an S, and packets lost in the network as crosses.")
    _common(tsg, "tsg.png")
    tsg.add_argument("--absolute", action="store_true",
                     help="number the sequence axis from the first payload byte even when zoomed "
                          "(default: from a round number at the bottom of the view)")
    tsg.add_argument("--no-drops", action="store_true", help="leave out the crosses for packets lost in the network")
    tsg.set_defaults(handler=_run_tsg)

    cwnd = plot_subparsers.add_parser(
        "cwnd", help="cwnd, ssthresh and flight; smoothed RTT and RTO",
        description="Draw one flow's congestion window, slow-start threshold and bytes in flight (in segments), "
                    "and below them its smoothed RTT and retransmission timeout, marking where cwnd fell "
                    "to one segment and where the RTO backed off.")
    _common(cwnd, "cwnd.svg")
    cwnd.set_defaults(handler=_run_cwnd)


def _run_tsg(args: argparse.Namespace) -> int:
    def draw() -> str:
        from .tsg import draw_tsg

        layers = draw_tsg(args.trace_dir, args.flow, args.output, args.start, args.end,
                          relative=not args.absolute, drops=not args.no_drops)
        sent = len(layers.segments) + len(layers.retransmits)
        return (f"{args.output}: flow {layers.flow}, {layers.start:g}–{layers.end:g} s, {sent:,} segments, "
                f"{len(layers.retransmits):,} retransmitted, {len(layers.dup_acks):,} duplicate ACKs")

    return _report(draw)


def _run_cwnd(args: argparse.Namespace) -> int:
    def draw() -> str:
        from .cwnd import draw_cwnd

        layers = draw_cwnd(args.trace_dir, args.flow, args.output, args.start, args.end)
        return (f"{args.output}: flow {layers.flow}, {layers.start:g}–{layers.end:g} s, "
                f"cwnd fell to 1 MSS {len(layers.collapses)}×, RTO backed off {len(layers.backoffs)}×")

    return _report(draw)


def _report(draw) -> int:
    """Runs ``draw``; its summary line goes to stdout, a PlotError to stderr
    as one line with status 2, the way ``satcp`` reports a user's mistake."""
    from ..cli import USAGE_ERROR, _fail

    try:
        summary = draw()
    except PlotError as e:
        return _fail(str(e), USAGE_ERROR)
    sys.stdout.write(summary + "\n")
    return 0
