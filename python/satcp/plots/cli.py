"""``satcp plot KIND ...``: a registry of plot kinds. Each kind is a module
with ``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``;
add a kind (``tsg``, ``cwnd``, ...) by listing its module in ``KINDS``."""

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


__all__ = ["KINDS", "register", "argparse"]
