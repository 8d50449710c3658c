"""``satcp reproduce``: re-run a study's experiment and report our numbers
beside the published ones.

    satcp reproduce --list
    satcp reproduce STUDY|all [--quick] [--out DIR] [--workers N]

Each study writes DIR/STUDY/report.md (beside its figures) and
DIR/STUDY/report.html (self-contained); its runs are stored under DIR/STUDY
so that an interrupted reproduction resumes where it stopped.
"""

from __future__ import annotations

import argparse
import importlib
import pathlib
import time

__all__ = ["register"]


def register(commands) -> None:
    from .cli_experiment import _positive

    rep = commands.add_parser(
        "reproduce", help="re-run a study (Carroll, Omueti, Leung, Hayes, Lawson) beside its published numbers",
        description="Re-run one of the five studies' experiments and write a Markdown and an HTML report with "
                    "our values, the published values and their ratios, and each finding marked reproduced or not.")
    rep.add_argument("study", nargs="?", metavar="STUDY",
                     help="a study name from --list, or `all`")
    rep.add_argument("--list", action="store_true", help="name the studies, one line each")
    rep.add_argument("--quick", action="store_true",
                     help="fewer replications and shorter transfers: about a minute per study")
    rep.add_argument("--out", metavar="DIR", default="out/reproduce", help="where reports go (default out/reproduce)")
    rep.add_argument("--workers", type=_positive, metavar="N", help="parallel runs (default: all cores)")
    rep.set_defaults(handler=_cmd_reproduce)


def _summary_line(name: str, module: str) -> str:
    try:
        study = importlib.import_module(f"satcp.reproduce.studies.{module}")
    except ImportError as e:
        return f"{name:14} (not available: {e})"
    return f"{name:14} {study.summary}"


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from .cli import UsageError, _console
    from .reproduce import STUDIES, report, study

    if args.list:
        for name, module in STUDIES.items():
            print(_summary_line(name, module))
        return 0
    if not args.study:
        raise UsageError(f"name a study to reproduce; accepted: {', '.join(STUDIES)}, all (or --list)")
    names = list(STUDIES) if args.study == "all" else [args.study]
    if args.study != "all" and args.study not in STUDIES:
        raise UsageError(f"unknown study {args.study!r}; accepted: {', '.join(STUDIES)}, all")
    console = _console()
    for name in names:
        module = study(name)
        out = pathlib.Path(args.out) / name
        started = time.perf_counter()
        result = module.run(out, quick=args.quick, workers=args.workers)
        if not result.wall_s:
            result.wall_s = time.perf_counter() - started
        md, page = report.write(result, out)
        found = sum(f.reproduced for f in result.findings)
        console.print(f"[bold]{name}[/bold]: {found} of {len(result.findings)} findings reproduced, "
                      f"{len(result.tables)} tables, {result.wall_s:.0f} s")
        for f in result.findings:
            mark = "[green]✓[/green]" if f.reproduced else "[red]✗[/red]"
            console.print(f"  {mark} {f.claim}")
        console.print(f"  report: {md}  {page}")
    return 0
