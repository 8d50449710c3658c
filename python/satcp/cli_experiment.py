"""The experiment commands of ``satcp``:

    satcp sweep DESIGN.toml [-o RESULTS.parquet] [--set KEY=VALUE]... [--workers N]
                [--engine local|dask] [--scheduler ADDRESS] [--resume | --overwrite] [--quiet]
    satcp summarize RESULTS.parquet [--metric M] [--level L] [--where F=L]... [--compare F [--baseline L]]
                [--anova | --no-anova] [--factors F,...] [--kruskal F] [--fairness] [--format table|csv|markdown]
    satcp plot goodput RESULTS.parquet --x FACTOR [--by FACTOR] [--level L] -o FILE.png|.svg

Mistakes are one line on stderr and exit status 2, as for ``satcp run``:
every error here is a ScenarioError (DesignError, ResultsError), which
``cli.main`` reports that way.
"""

from __future__ import annotations

import argparse
import contextlib
import pathlib
import sys

__all__ = ["register", "level_arg", "where_arg", "where_dict", "results_errors"]


def register(commands) -> None:
    """Adds ``sweep``, ``summarize`` and ``plot`` to the ``satcp`` subcommands;
    each parser's ``handler`` default runs it."""
    from . import cli
    from .plots.cli import register as register_plots

    sweep = commands.add_parser("sweep", help="run an experiment design: factors, levels, replications",
                                description="Run every point and replication of a DESIGN.toml, in parallel, "
                                            "storing one Parquet row per run as it finishes.")
    sweep.add_argument("design", metavar="DESIGN.toml", help="the experiment design")
    sweep.add_argument("-o", "--output", metavar="RESULTS.parquet",
                       help="results directory (default: out/DESIGN.parquet)")
    sweep.add_argument("--set", dest="overrides", metavar="KEY=VALUE", action="append", default=[],
                       type=cli._assignment, help="set a scenario key in every run (after the design's [set]; "
                                                  "factors still win); repeatable")
    sweep.add_argument("--workers", type=_positive, metavar="N", help="parallel runs (default: all cores)")
    sweep.add_argument("--engine", choices=("local", "dask"), default="local",
                       help="local process pool (default) or a Dask cluster")
    sweep.add_argument("--scheduler", metavar="ADDRESS",
                       help="Dask scheduler address (tcp://host:8786); without it --engine dask starts a local cluster")
    again = sweep.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true", help="run only the runs missing from RESULTS")
    again.add_argument("--overwrite", action="store_true", help="discard RESULTS of this or another design")
    sweep.add_argument("--quiet", action="store_true", help="no progress bar")
    sweep.set_defaults(handler=_cmd_sweep)

    summ = commands.add_parser("summarize", help="statistics of sweep results: CIs, paired t, ANOVA, ...",
                               description="Summarize sweep results: per design point mean, sd, se and t-based "
                                           "CI; percentage differences and paired t-tests; the ANOVA allocation "
                                           "of variation; Kruskal-Wallis; Jain's fairness index.")
    summ.add_argument("results", metavar="RESULTS.parquet", help="results of `satcp sweep`")
    summ.add_argument("--metric", default="goodput_bps", help="the column to analyse (default goodput_bps)")
    summ.add_argument("--level", type=level_arg, default=0.95, help="confidence level (default 0.95)")
    summ.add_argument("--where", action="append", default=[], type=where_arg, metavar="FACTOR=LEVEL[,LEVEL]",
                      help="keep only these levels of a factor; repeatable")
    summ.add_argument("--by", type=_names, metavar="FACTOR[,FACTOR]",
                      help="group the per-point table by these factors only (others pooled)")
    summ.add_argument("--compare", metavar="FACTOR",
                      help="% differences and paired t-tests of each level of FACTOR against --baseline")
    summ.add_argument("--baseline", metavar="LEVEL", help="the level to compare against (default: the first)")
    summ.add_argument("--anova", action=argparse.BooleanOptionalAction, default=None,
                      help="the ANOVA allocation of variation and effects (default: when the data are a "
                           "replicated full factorial)")
    summ.add_argument("--factors", type=_names, metavar="FACTOR[,FACTOR]",
                      help="the ANOVA's factors (default: those that vary)")
    summ.add_argument("--min-share", type=float, default=1.0, metavar="PCT",
                      help="list interactions explaining at least PCT %% of the variation (default 1)")
    summ.add_argument("--kruskal", metavar="FACTOR", help="Kruskal-Wallis test across the levels of FACTOR")
    summ.add_argument("--fairness", action=argparse.BooleanOptionalAction, default=None,
                      help="Jain's fairness/friendliness index (default: when runs have several flows)")
    summ.add_argument("--format", choices=("table", "csv", "markdown"), default="table",
                      help="readable tables (default), CSV or Markdown")
    summ.add_argument("-o", "--output", metavar="FILE", help="write there instead of stdout")
    summ.set_defaults(handler=_cmd_summarize)

    register_plots(commands)


# ---------------------------------------------------------------- argument types


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: a whole number, 1 or more")
    return value


def level_arg(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}; accepted: a confidence level between 0 and 1, such as 0.9")
    return value


def where_arg(text: str) -> tuple[str, list[str]]:
    factor, sep, levels = text.partition("=")
    if not sep or not factor.strip() or not levels.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: expected FACTOR=LEVEL[,LEVEL], such as clients=1")
    return factor.strip(), [lv.strip() for lv in levels.split(",")]


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"{text!r}: expected factor names separated by commas")
    return names


def where_dict(pairs: list[tuple[str, list[str]]]) -> dict:
    out: dict = {}
    for factor, levels in pairs:
        out.setdefault(factor, []).extend(levels)
    return out


@contextlib.contextmanager
def results_errors(path: str):
    """A statistics request the data cannot answer, as a one-line error naming the file."""
    from .experiment.store import ResultsError
    from .stats.descriptive import StatsError

    try:
        yield
    except StatsError as e:
        raise ResultsError(str(e), file=path) from None


# ---------------------------------------------------------------- commands


def _cmd_sweep(args: argparse.Namespace) -> int:
    from .experiment import load_design, sweep

    design = load_design(args.design, args.overrides)
    out = args.output or str(pathlib.Path("out") / (pathlib.Path(args.design).stem + ".parquet"))
    if args.scheduler and args.engine != "dask":
        from .experiment.design import DesignError

        raise DesignError("--scheduler needs --engine dask")
    try:
        report = sweep(design, out, engine=args.engine, workers=args.workers, scheduler=args.scheduler,
                       resume=args.resume, overwrite=args.overwrite, progress=False if args.quiet else None)
    except KeyboardInterrupt:
        _interrupted(out)
        raise
    print(report.line())
    return 0


def _interrupted(out: str) -> None:
    from .experiment.store import Store

    try:
        kept = len(Store(out).done())
    except Exception:  # reporting only; the rows are already safe
        kept = None
    what = f"{kept} finished runs kept in {out}" if kept is not None else f"finished runs kept in {out}"
    sys.stderr.write(f"satcp: interrupted; {what}; `--resume` runs the rest\n")
    sys.stderr.flush()


def _cmd_summarize(args: argparse.Namespace) -> int:
    from .stats.summary import summarize

    with results_errors(args.results):
        summary = summarize(args.results, metric=args.metric, level=args.level, by=args.by,
                            where=where_dict(args.where), compare=args.compare, baseline=args.baseline,
                            anova=args.anova, factors=args.factors, min_share=args.min_share,
                            kruskal=args.kruskal, fairness=args.fairness)
    if args.output:
        text = summary.render(args.format, width=160)
        try:
            pathlib.Path(args.output).write_text(text)
        except OSError as e:
            from .experiment.store import ResultsError

            raise ResultsError(f"cannot write: {e.strerror or e}", file=args.output) from None
        print(f"wrote {args.output}")
    elif args.format == "table":
        from rich.console import Console

        Console(highlight=False, soft_wrap=False).print(summary)
    else:
        sys.stdout.write(summary.render(args.format))
    return 0
