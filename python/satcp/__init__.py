"""satcp: TCP over long-delay, error-prone links.

>>> import satcp
>>> r = satcp.run("scenarios/geo-10mbps.toml", duration="20s", **{"path.ber": 1e-6})
>>> r.flows[0].goodput_bps, r.to_dataframe()
>>> print(r.summary())

A run crosses into the Rust simulator once: the scenario goes in as JSON, the
result comes back as JSON.
"""

from __future__ import annotations

import os
import re
from typing import Any, NamedTuple

from .result import FlowResult, LinkResult, Result
from .scenario import ScenarioError, apply_overrides, load, load_overridden
from .emulate import EmulatorError, emulate, emulate_plan  # noqa: E402  (the real stack over satcp-emu)

__version__ = "0.1.0"
__all__ = [
    "run", "variants", "load", "apply_overrides", "Result", "FlowResult", "LinkResult",
    "ScenarioError", "SimulationError", "Variant", "__version__", "emulate", "emulate_plan", "EmulatorError",
]


class SimulationError(RuntimeError):
    """The simulator failed on a scenario it had accepted: a bug in satcp."""


class Variant(NamedTuple):
    name: str
    description: str
    source: str


def _ext():
    try:
        from . import _core as core
    except ImportError as e:  # pragma: no cover - only without a build
        raise ImportError(
            f"satcp's simulator extension is not built ({e}); install satcp with `pip install .`"
        ) from e
    return core


_KEYED = re.compile(r"^key `([^`]*)`: (.*)$", re.S)


def _scenario_error(message: str, file: str | None) -> ScenarioError:
    m = _KEYED.match(message)
    if m:
        return ScenarioError(m.group(2), key=m.group(1), file=file)
    return ScenarioError(message, file=file)


def run(scenario: Any, /, *, trace_dir: str | os.PathLike | None = None,
        pcap: str | os.PathLike | None = None, **overrides: Any) -> Result:
    """Runs one simulation and returns its :class:`Result`.

    ``scenario`` is a path to a TOML file, TOML text, or a dict. Keyword
    arguments override scenario keys: top-level names as they are
    (``seed=3, duration="20s"``), dotted keys by unpacking a dict
    (``**{"path.ber": 1e-6, "flow.0.variant": "reno"}``), or with ``__`` for
    the dots (``path__ber=1e-6``). Values are taken as they are.

    ``trace_dir`` writes the CSV traces ``satcp plot`` reads (segments,
    ACKs, sender state per flow, drops, ``meta.json``); ``pcap`` writes what
    each sending host sees as a pcap file.

    Raises :class:`ScenarioError` (a ValueError) for a scenario the
    simulator cannot accept, naming the file and the key, and OSError when a
    trace cannot be written.
    """
    text, tree, origin = load_overridden(scenario, overrides)
    try:
        out = _ext().run_json(
            text,
            None if trace_dir is None else os.fspath(trace_dir),
            None if pcap is None else os.fspath(pcap),
        )
    except ValueError as e:
        raise _scenario_error(str(e), origin) from None
    except BaseException as e:  # pyo3's PanicException derives from BaseException
        if type(e).__name__ == "PanicException":
            raise SimulationError(f"the simulator panicked: {e}") from None
        raise
    return Result.from_json(out, scenario=tree)


def variants() -> list[Variant]:
    """The TCP variants a flow can name, as (name, description, source)."""
    return [Variant(*v) for v in _ext().variants()]
