"""``satcp.emulate``: a scenario over the user-space link emulator
(crates/satcp-emu) with the real Linux TCP stack at both ends.

>>> import satcp
>>> r = satcp.emulate("scenarios/geo-10mbps.toml", duration="20s", **{"flow.0.variant": "cubic"})
>>> r.flows[0].goodput_bps, r.flows[0].extra["kernel_cc"]

It runs in real time, as root, with /dev/net/tun and iproute2's ``ip``; the
result has the fields of :func:`satcp.run` (from TCP_INFO and the
emulator's link counters), plus ``emulator`` (its scheduling and how late it
wrote packets) and, with ``probe``, the probe's delays and losses.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from typing import Any

from .result import Result
from .scenario import ScenarioError, load_overridden

__all__ = ["emulate", "emulate_plan", "EmulatorError"]


class EmulatorError(RuntimeError):
    """The emulator could not run here (no root, no TUN, no ``ip``: status 2)
    or a system call failed during the run (status 1). One line."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def _seconds(value: Any) -> float:
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip()
    for unit, factor in [("ms", 1e-3), ("s", 1.0)]:
        if text.endswith(unit):
            try:
                return float(text[: -len(unit)]) * factor
            except ValueError:
                break
    raise ScenarioError(f"measure_from {value!r}: expected seconds, such as 5 or \"5s\"")


def emulate(scenario: Any, /, *, pcap: str | os.PathLike | None = None, measure_from: Any = None,
            probe: dict | None = None, tcp: bool = True, **overrides: Any) -> Result:
    """Emulates one run of ``scenario`` (a path, TOML text or a dict) and
    returns its :class:`Result`. Keyword overrides work as in :func:`satcp.run`.

    ``pcap`` writes the packets as they enter the emulator (raw IPv4, both
    directions). ``measure_from`` (seconds, or ``"5s"``) adds each flow's
    ``window_goodput_bps`` over [measure_from, end]. ``probe``
    (``{"rate_bps": 8e6, "size": 1000}``) sends constant-rate UDP datagrams
    through the link and reports their added delay and loss; ``tcp=False``
    runs the probe alone.

    Raises :class:`ScenarioError` for a scenario the kernel cannot run,
    :class:`EmulatorError` when this machine cannot emulate, and
    KeyboardInterrupt after a Ctrl-C (the testbed is removed first).
    """
    _, tree, origin = load_overridden(scenario, overrides)
    try:
        request = {"scenario": tree, "tcp": bool(tcp)}
        if pcap is not None:
            request["pcap"] = os.fspath(pcap)
        if measure_from is not None:
            request["measure_from_s"] = _seconds(measure_from)
        if probe is not None:
            request["probe"] = {"rate_bps": int(probe["rate_bps"]), "size": int(probe["size"])}
        text = json.dumps(request, allow_nan=False)
    except ScenarioError as e:
        raise e.in_file(origin) from None
    status, out, err = _run_child(text)
    if status == 0:
        return Result.from_json(out, scenario=tree)
    message = " ".join(err.split()) or f"the emulator exited with status {status}"
    if status == 130:
        raise KeyboardInterrupt(message)
    if status == 2 and message.startswith("satcp emulate needs"):
        raise EmulatorError(message, 2)
    if status == 2:
        from . import _scenario_error  # satcp/__init__ imports this module

        raise _scenario_error(message, origin)
    raise EmulatorError(message, status if status > 0 else 1)


def emulate_plan(scenario: Any, /, **overrides: Any) -> dict:
    """What :func:`emulate` would run for ``scenario``, without running it
    (no root or TUN needed): each flow's variant and the kernel congestion
    control it maps to, and the stack settings the namespaces would get.
    Raises :class:`ScenarioError` for a key the real stack cannot honour."""
    text, _, origin = load_overridden(scenario, overrides)
    from . import _core

    status, out = _core.emulate_check_json(text)
    if status == 0:
        return json.loads(out)
    from . import _scenario_error

    raise _scenario_error(out, origin)


def _run_child(request: str) -> tuple[int, str, str]:
    child = subprocess.Popen(
        [sys.executable, "-m", "satcp._emu_child", str(os.getpid())],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        out, err = child.communicate(request)
    except BaseException:
        # Ctrl-C (or anything else) here: the child stops cleanly on SIGINT.
        child.send_signal(signal.SIGINT)
        try:
            child.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        raise
    return child.returncode, out, err
