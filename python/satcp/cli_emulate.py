"""``satcp emulate`` and ``satcp compare``: the real Linux stack over the
link emulator, and the simulator beside it.

    satcp emulate SCENARIO.toml [--set KEY=VALUE]... [--seed N] [--json] [--pcap FILE] [--measure-from S] [--check]
    satcp compare SCENARIO.toml [--set KEY=VALUE]... [--seed N] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys


def register(commands) -> None:
    from .cli import _assignment, _seed

    def common(p):
        p.add_argument("scenario", metavar="SCENARIO.toml", help="the scenario file")
        p.add_argument("--set", dest="overrides", metavar="KEY=VALUE", action="append", default=[], type=_assignment,
                       help="override a scenario key by its dotted path (as for `satcp run`); repeatable")
        p.add_argument("--seed", type=_seed, metavar="N", help="the run's seed (the channel model's random stream)")
        p.add_argument("--json", action="store_true", help="print the result as one JSON object and nothing else")
        p.add_argument("--measure-from", metavar="SECONDS", type=float,
                       help="also report each flow's goodput from this time to the end (window_goodput_bps)")

    emulate = commands.add_parser(
        "emulate", help="run a scenario's flows on the real Linux TCP stack over the link emulator (root)",
        description="Run the scenario's link in the user-space emulator between two network namespaces, "
                    "with the kernel's TCP at both ends, in real time. Needs root, /dev/net/tun and `ip`.")
    common(emulate)
    emulate.add_argument("--pcap", metavar="FILE", help="write the packets as they enter the emulator (raw IPv4)")
    emulate.add_argument("--check", action="store_true",
                         help="say what would run (each flow's kernel congestion control, the stack settings) "
                              "or why the real stack cannot run it, without running it; needs no root")
    emulate.set_defaults(handler=_cmd_emulate)

    compare = commands.add_parser(
        "compare", help="run the simulator and the emulator on one scenario, side by side",
        description="Simulate the scenario, then emulate it with the real Linux stack, and print both.")
    common(compare)
    compare.set_defaults(handler=_cmd_compare)


def _scenario(args):
    from .cli import load_scenario

    return load_scenario(args)


def _emulate(tree, origin, args, pcap=None):
    import satcp

    try:
        return satcp.emulate(tree, pcap=pcap, measure_from=args.measure_from)
    except satcp.ScenarioError as e:
        raise e.in_file(origin) from None


def _cmd_emulate(args: argparse.Namespace) -> int:
    import satcp

    from .cli import _console, _fail

    tree, origin = _scenario(args)
    if args.check:
        return _check(tree, origin, args)
    try:
        result = _emulate(tree, origin, args, pcap=args.pcap)
    except satcp.EmulatorError as e:
        return _fail(e, e.status)
    if args.json:
        sys.stdout.write(result.to_json() + "\n")
    else:
        console = _console()
        console.print(f"[bold]satcp emulate[/bold]  seed {result.seed}: Linux TCP over the emulated link, "
                      f"{result.sim_time_s:.2f} s of real time ({result.events:,} packets forwarded)")
        for table in result.__rich__().renderables[1:]:  # the flow and link tables, without the simulator's heading
            console.print(table)
    return 0


def _check(tree, origin, args) -> int:
    import satcp

    try:
        plan = satcp.emulate_plan(tree)
    except satcp.ScenarioError as e:
        raise e.in_file(origin) from None
    if args.json:
        sys.stdout.write(json.dumps(plan) + "\n")
        return 0
    flows = ", ".join(f"flow {i}: {f['variant']} as Linux {f['kernel_cc']}" for i, f in enumerate(plan["flows"]))
    stack = ", ".join(f"{k} {v}" for k, v in plan["stack"].items())
    print(f"{origin or 'scenario'}: the real stack can run it ({flows}); {stack}")
    return 0


#: (label, how to read it from a result, how to print it)
_ROWS = [
    ("goodput", lambda r, i: r.flows[i].goodput_bps, "rate"),
    ("window goodput", lambda r, i: r.flows[i].extra.get("window_goodput_bps"), "rate"),
    ("bytes delivered", lambda r, i: r.flows[i].bytes_delivered, "count"),
    ("retransmits", lambda r, i: r.flows[i].retransmits, "count"),
    ("timeouts", lambda r, i: r.flows[i].timeouts, "count"),
    ("srtt", lambda r, i: r.flows[i].srtt_s, "seconds"),
]
_LINK_ROWS = [
    ("packets", lambda link: link.packets, "count"),
    ("utilisation", lambda link: link.utilization, "share"),
    ("queue drops", lambda link: link.queue_drops, "count"),
    ("error drops", lambda link: link.error_drops, "count"),
]


def _show(value, kind) -> str:
    from .result import human_rate

    if value is None:
        return "-"
    if kind == "rate":
        return human_rate(value)
    if kind == "share":
        return f"{100 * value:.1f} %"
    if kind == "seconds":
        return f"{value * 1e3:.1f} ms"
    return f"{value:,}"


def comparison_rows(sim, emu) -> list[tuple[str, object, object]]:
    """(label, simulator value, emulator value) for every flow and link."""
    rows = []
    for i in range(min(len(sim.flows), len(emu.flows))):
        for label, get, kind in _ROWS:
            rows.append((f"flow {i} {label}", kind, get(sim, i), get(emu, i)))
    for s_link, e_link in zip(sim.links, emu.links):
        for label, get, kind in _LINK_ROWS:
            rows.append((f"{s_link.name} {label}", kind, get(s_link), get(e_link)))
    return rows


def _cmd_compare(args: argparse.Namespace) -> int:
    import satcp
    from rich.table import Table

    from .cli import _console, _fail

    tree, origin = _scenario(args)
    try:
        simulated = satcp.run(tree)
    except satcp.ScenarioError as e:
        raise e.in_file(origin) from None
    try:
        emulated = _emulate(tree, origin, args)
    except satcp.EmulatorError as e:
        return _fail(e, e.status)
    rows = comparison_rows(simulated, emulated)
    if args.json:
        out = {"simulator": simulated.to_dict(), "emulator": emulated.to_dict()}
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    table = Table(title="Simulator and Linux over the emulator", title_justify="left", title_style="bold")
    for name, justify in [("", "left"), ("simulator", "right"), ("Linux (emulated link)", "right"), ("kernel / sim", "right")]:
        table.add_column(name, justify=justify)
    for label, kind, s, e in rows:
        if kind == "rate" and s is None:
            continue
        ratio = f"{e / s:.2f}" if isinstance(s, (int, float)) and isinstance(e, (int, float)) and s else "-"
        table.add_row(label, _show(s, kind), _show(e, kind), ratio)
    _console().print(table)
    for note in growth_notes(tree) + loss_detection_notes(tree):
        _console().print(note)
    return 0


#: Variants whose window grows as Reno's, which RFC 3465 byte counting changes.
_RENO_GROWTH = {"rfc793", "tahoe", "reno", "newreno", "sack", "fack", "westwood", "ceten-reno", "ceten-newreno"}


def growth_notes(tree: dict) -> list[str]:
    """A reminder for each flow whose simulated window grows per ACK while
    Linux grows per segment acknowledged (benches/README.md: sqrt(2) apart
    at BER 1e-6 with delayed ACKs)."""
    notes = []
    for i, flow in enumerate(tree.get("flow", [])):
        if flow.get("variant", "newreno") in _RENO_GROWTH and not flow.get("byte_counting", False):
            notes.append(f"flow {i}: Linux grows its window per segment acknowledged (RFC 3465); "
                         f"--set flow.{i}.byte_counting=true makes the simulator grow the same way")
    return notes


def loss_detection_notes(tree: dict) -> list[str]:
    """A reminder for each SACK flow the simulator runs without RACK-TLP:
    Linux detects losses with it whatever `tcp_recovery` says on 6.18
    (benches/README.md: BBR 1.72 apart without it at BER 1e-6, 1.03 with)."""
    notes = []
    for i, flow in enumerate(tree.get("flow", [])):
        if flow.get("sack", False) and not flow.get("rack", False):
            notes.append(f"flow {i}: Linux finds lost retransmissions and tails with RACK-TLP (RFC 8985); "
                         f"--set flow.{i}.rack=true makes the simulator do the same")
    return notes
