"""``satcp plot KIND ...``: a registry of plot kinds. Each kind is a module
with ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``,
listed in ``KINDS``; the trace graphs (``tsg``, ``cwnd``) register through
:mod:`.trace_cli`."""

from __future__ import annotations

import argparse
import importlib

#: kind -> module (relative to satcp.plots), in the order `satcp plot -h` lists them.
KINDS = {
    "goodput": ".goodput",
}


def register(commands) -> None:
    """Adds ``plot`` and its kinds to the ``satcp`` subcommands."""
    plot = commands.add_parser("plot", help="draw results: goodput against a factor, ...",
                               description="Draw plots of satcp results.")
    kinds = plot.add_subparsers(dest="kind", metavar="KIND", parser_class=type(plot))
    kinds.required = True
    for kind, module in KINDS.items():
        mod = importlib.import_module(module, __package__)
        parser = kinds.add_parser(kind, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(parser)
        parser.set_defaults(handler=mod.run)
    from .trace_cli import add_trace_plot_commands

    add_trace_plot_commands(kinds)


__all__ = ["KINDS", "register", "argparse"]
