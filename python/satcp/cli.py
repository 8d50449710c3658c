"""The ``satcp`` command.

    satcp run SCENARIO.toml [--set KEY=VALUE]... [--seed N] [--json] [--trace-dir DIR] [--pcap FILE]
    satcp variants
    satcp sweep | summarize | plot goodput ...   (see cli_experiment.py)
    satcp emulate | compare SCENARIO.toml ...     (see cli_emulate.py; root)
    satcp plot tsg|cwnd TRACE_DIR [--flow N] [--start S] [--end S] -o FILE
    satcp --version

A user's mistake gets one line on stderr (``satcp: error: ...``) and exit
status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import tempfile
from typing import NoReturn, Sequence

USAGE_ERROR = 2


class UsageError(Exception):
    """A mistake on the command line, already worded for the user."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports a mistake in one line instead of usage + error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _seed(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; accepted: 0 or more") from None
    if value < 0 or value >= 2**64:
        raise argparse.ArgumentTypeError(f"{text}; accepted: 0 to {2**64 - 1}")
    return value


def _assignment(text: str) -> str:
    key, sep, _ = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: expected KEY=VALUE, such as path.ber=1e-6 or flow.0.variant=reno")
    return text


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(prog="satcp", description="TCP over long-delay, error-prone links: simulate, compare, reproduce.")
    parser.add_argument("--version", action="version", version=f"satcp {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    run = commands.add_parser("run", help="run one simulation and summarise it",
                              description="Run one simulation of a scenario file.")
    run.add_argument("scenario", metavar="SCENARIO.toml", help="the scenario file")
    run.add_argument("--set", dest="overrides", metavar="KEY=VALUE", action="append", default=[], type=_assignment,
                     help="override a scenario key by its dotted path, e.g. path.ber=1e-6 or flow.0.variant=reno "
                          "(VALUE is read as TOML, else as a plain string); repeatable")
    run.add_argument("--seed", type=_seed, metavar="N", help="the run's seed (overrides the scenario's)")
    run.add_argument("--json", action="store_true", help="print the result as one JSON object and nothing else")
    run.add_argument("--trace-dir", metavar="DIR",
                     help="write per-flow traces (segments, ACKs, cwnd/RTT) for `satcp plot` into DIR")
    run.add_argument("--pcap", metavar="FILE",
                     help="write a pcap of every flow as its sending host sees it (tshark, Wireshark, tcptrace)")

    commands.add_parser("variants", help="list the TCP variants a flow can name",
                        description="List the TCP variants a flow can name.")
    from .cli_experiment import register  # sweep, summarize, plot: each sets its `handler`

    register(commands)
    from .cli_emulate import register as register_emulate  # emulate, compare

    register_emulate(commands)
    from .cli_reproduce import register as register_reproduce  # reproduce

    register_reproduce(commands)
    return parser


def load_scenario(args: argparse.Namespace):
    """The scenario file named on the command line with its --set and --seed
    applied: (tree, origin). A mistake names the file."""
    import satcp
    from .scenario import apply_overrides, load_with_origin

    tree, origin = load_with_origin(_as_path(args.scenario))
    try:
        tree = apply_overrides(tree, args.overrides)
        if args.seed is not None:
            tree = apply_overrides(tree, {"seed": args.seed})
    except satcp.ScenarioError as e:
        raise e.in_file(origin) from None
    return tree, origin


def _cmd_run(args: argparse.Namespace) -> int:
    import satcp

    tree, origin = load_scenario(args)
    try:
        with _panic_to_one_line():
            result = satcp.run(tree, trace_dir=args.trace_dir, pcap=args.pcap)
    except satcp.ScenarioError as e:
        raise e.in_file(origin) from None
    except OSError as e:
        raise UsageError(f"cannot write traces: {e}") from None
    if args.json:
        sys.stdout.write(result.to_json() + "\n")
    else:
        _console().print(result)
    return 0


@contextlib.contextmanager
def _panic_to_one_line():
    """Holds back what the simulator writes to file descriptor 2 during a
    run (Rust's panic message and backtrace), so that a panic, a bug of
    ours, still ends as one line naming where it happened. Anything else
    written there is passed on unchanged."""
    import satcp

    if os.environ.get("SATCP_DEBUG"):
        yield
        return
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        except satcp.SimulationError as e:
            os.dup2(saved, 2)
            held.seek(0)
            where = re.search(rb"panicked at ([^\n]*?):?\n", held.read())
            at = f" at {where.group(1).decode(errors='replace')}" if where else ""
            raise satcp.SimulationError(f"{e}{at}") from None
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        held.seek(0)
        other = held.read()
        if other:
            sys.stderr.buffer.write(other)
            sys.stderr.flush()


def _as_path(text: str):
    """The scenario argument is always a file name, never TOML text."""
    import pathlib

    from .scenario import ScenarioError

    if not text.strip():
        raise ScenarioError("no scenario file named; usage: satcp run SCENARIO.toml")
    return pathlib.Path(text)


def _cmd_variants(_: argparse.Namespace) -> int:
    import satcp
    from rich.table import Table

    table = Table(title="TCP variants", title_justify="left", title_style="bold")
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("description")
    table.add_column("source")
    for v in satcp.variants():
        table.add_row(v.name, v.description, v.source)
    _console().print(table)
    return 0


def _console():
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def _fail(message: str, status: int) -> int:
    text = " ".join(str(message).split())
    try:
        sys.stderr.write(f"satcp: error: {text}\n")
        sys.stderr.flush()
    except OSError:
        pass
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``satcp`` command; returns the exit status."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`satcp run ... | head`): quiet, like other tools.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return 141


def _main(argv: Sequence[str] | None) -> int:
    from .scenario import ScenarioError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        return _fail(e, USAGE_ERROR)
    commands = {"run": _cmd_run, "variants": _cmd_variants}
    try:
        status = (commands.get(args.command) or args.handler)(args)
        sys.stdout.flush()
        return status
    except (ScenarioError, UsageError) as e:
        return _fail(e, USAGE_ERROR)
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as e:  # a bug of ours; still one line, never a traceback
        if os.environ.get("SATCP_DEBUG"):
            raise
        return _fail(f"internal error: {type(e).__name__}: {e} (set SATCP_DEBUG=1 for a traceback)", 1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
