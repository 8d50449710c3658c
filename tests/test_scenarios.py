"""Every example scenario in scenarios/ loads and runs, as the README promises."""

from __future__ import annotations

import pathlib

import pytest

import satcp

SCENARIOS = sorted((pathlib.Path(__file__).parent.parent / "scenarios").glob("*.toml"))


def test_there_are_examples():
    assert len(SCENARIOS) >= 10


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_example_scenario_runs(path):
    r = satcp.run(path, duration="5s")
    assert r.flows and all(f.bytes_delivered > 0 for f in r.flows), path.name
    assert r.sim_time_s <= 5.0
