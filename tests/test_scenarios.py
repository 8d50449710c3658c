"""Every example scenario in scenarios/ (and the studies' base scenarios in
scenarios/studies/, which are not designs) loads and runs, as the README promises."""

from __future__ import annotations

import pathlib

import pytest

import satcp

ROOT = pathlib.Path(__file__).parent.parent / "scenarios"
SCENARIOS = sorted(ROOT.glob("*.toml")) + sorted(
    p for p in ROOT.glob("studies/*/*.toml") if "[design]" not in p.read_text())


def test_there_are_examples():
    assert len(SCENARIOS) >= 10


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT)))
def test_example_scenario_runs(path):
    r = satcp.run(path, duration="5s")
    assert r.flows and all(f.bytes_delivered > 0 for f in r.flows), path.name
    assert r.sim_time_s <= 5.0
