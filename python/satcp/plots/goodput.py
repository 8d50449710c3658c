"""Goodput (or any metric) against a factor, with t-based confidence
intervals, one line per level of another factor.

    satcp plot goodput RESULTS.parquet --x ber --by flow.*.variant --level 0.9 -o goodput.png
"""

from __future__ import annotations

import argparse
import math
import os

HELP = "a metric (goodput by default) against a factor, with confidence intervals, a line per level of another"

__all__ = ["plot_goodput", "add_arguments", "run", "HELP"]


def plot_goodput(source, x: str, out: str | os.PathLike, *, by: str | None = None, metric: str = "goodput_bps",
                 level: float = 0.95, where: dict | None = None, log_x: bool | None = None, title: str | None = None):
    """Draws mean ``metric`` against the levels of factor ``x``, a line per
    level of ``by``, with error bars for the ``level`` t-based CI; writes
    ``out`` (.png, .svg or .pdf). Runs at other factors' levels are pooled
    unless ``where`` picks one; the title says which were pooled. Returns
    the plotted table (one row per line and x)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from ..stats.descriptive import StatsError, _levels, describe
    from ..stats.summary import _filter, _load

    suffix = os.path.splitext(os.fspath(out))[1].lower()
    if suffix not in (".png", ".svg", ".pdf"):
        raise StatsError(f"cannot draw {os.fspath(out)!r}; accepted: a file ending .png, .svg or .pdf")
    df, name = _load(source)
    df = _filter(df, where)
    groups = [x] + ([by] if by else [])
    table = describe(df, metric, groups, level)
    if table.empty:
        raise StatsError("no runs to plot")
    pooled = [f for f in df.attrs.get("factors", []) if f not in groups and f in df and df[f].nunique() > 1]
    xs = _levels(df, x)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xs)
    if log_x is None:  # error rates span decades
        positive = [float(v) for v in xs if numeric and v > 0]
        log_x = numeric and len(positive) == len(xs) and len(xs) > 2 and max(positive) / min(positive) >= 100
    scale = 1e-6 if metric.endswith("_bps") and table["mean"].abs().max() >= 1e6 else (
        1e-3 if metric.endswith("_bps") else 1.0)
    unit = {1e-6: " (Mb/s)", 1e-3: " (kb/s)"}.get(scale, "") if metric.endswith("_bps") else ""

    fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
    lines = _levels(df, by) if by else [None]
    for line in lines:
        part = table if line is None else table[table[by] == line]
        if part.empty:
            continue
        order = {v: i for i, v in enumerate(xs)}
        part = part.sort_values(x, key=lambda s: s.map(order))
        pos = part[x].astype(float) if numeric else part[x].map(order)
        err = (part["half_width"].fillna(0) * scale).to_numpy()
        ax.errorbar(pos, part["mean"] * scale, yerr=err, marker="o", capsize=4,
                    label=f"{by}={line}" if by else metric)
    if log_x:
        ax.set_xscale("log")
    if not numeric:
        ax.set_xticks(range(len(xs)), [str(v) for v in xs])
    ax.set_xlabel(x)
    ax.set_ylabel(metric + unit)
    ax.grid(True, which="both", alpha=0.3)
    if by:
        ax.legend()
    pct = f"{100 * level:g}%"
    heading = title or f"{metric} against {x}: mean and {pct} CI"
    if pooled:
        heading += "\npooled over " + ", ".join(pooled)
    ax.set_title(heading, fontsize=10)
    try:
        fig.savefig(out)
    except OSError as e:
        raise StatsError(f"cannot write {os.fspath(out)!r}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
    return table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..cli_experiment import level_arg, where_arg

    parser.add_argument("results", metavar="RESULTS.parquet", help="results of `satcp sweep`")
    parser.add_argument("--x", required=True, metavar="FACTOR", help="the factor along the x axis")
    parser.add_argument("--by", metavar="FACTOR", help="a line per level of this factor")
    parser.add_argument("--metric", default="goodput_bps", help="the column to plot (default goodput_bps)")
    parser.add_argument("--level", type=level_arg, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--where", action="append", default=[], type=where_arg, metavar="FACTOR=LEVEL[,LEVEL]",
                        help="keep only these levels of a factor; repeatable")
    parser.add_argument("--log-x", action=argparse.BooleanOptionalAction, default=None,
                        help="logarithmic x axis (default: when numeric levels span 100x or more)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.png|.svg", help="the image to write")


def run(args: argparse.Namespace) -> int:
    from ..cli_experiment import results_errors, where_dict

    with results_errors(args.results):
        plot_goodput(args.results, args.x, args.output, by=args.by, metric=args.metric, level=args.level,
                     where=where_dict(args.where), log_x=args.log_x)
    print(f"wrote {args.output}")
    return 0
