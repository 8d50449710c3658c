"""Shared fixtures: the repository's scenario, small variants of it, and a
way to run the ``satcp`` command as a user would."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
GEO = ROOT / "scenarios" / "geo-10mbps.toml"

#: A short scenario: one GEO hop, one bulk NewReno flow, a few seconds.
SMALL_TOML = """\
duration = "5s"
seed = 1

[path]
rate = "10Mbps"
delay = "250ms"
ber = 1e-6
queue = 1000

[[flow]]
variant = "newreno"
mss = 1448
rwnd = "16MB"
delayed_ack = 2
initial_cwnd = 10
"""


@pytest.fixture
def small_toml() -> str:
    return SMALL_TOML


@pytest.fixture
def small_file(tmp_path) -> pathlib.Path:
    path = tmp_path / "small.toml"
    path.write_text(SMALL_TOML)
    return path


def satcp_command() -> list[str]:
    """The installed console script beside this interpreter, else ``python -m satcp``."""
    script = pathlib.Path(sys.executable).parent / "satcp"
    if script.exists():
        return [str(script)]
    found = shutil.which("satcp")
    return [found] if found else [sys.executable, "-m", "satcp"]


@pytest.fixture
def cli(tmp_path):
    """Runs ``satcp ARGS...`` in a subprocess (cwd: the repository root)."""

    def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        env = {k: v for k, v in os.environ.items() if k != "SATCP_DEBUG"}
        env["COLUMNS"] = "120"
        return subprocess.run(
            [*satcp_command(), *map(str, args)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )

    return run


def plan_offered_emulation(line: str) -> dict:
    """The `sudo satcp emulate FILE [--set K=V]...` command a report offers,
    planned for the kernel as `satcp emulate --check` would: the plan, or
    the ScenarioError that running it would raise."""
    import shlex

    import satcp
    from satcp.scenario import parse_value

    words = shlex.split(line[line.index("satcp emulate"):])[2:]
    path, overrides = ROOT / words[0], {}
    for flag, pair in zip(words[1::2], words[2::2]):
        assert flag == "--set", line
        key, _, value = pair.partition("=")
        overrides[key] = parse_value(value)
    return satcp.emulate_plan(path, **overrides)
