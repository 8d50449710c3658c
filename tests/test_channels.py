"""Channel models and orbits from Python and the command line: the example
scenarios run, ``--set`` reaches the new tables, and a wrong channel or
orbit key gets one line naming it."""

from __future__ import annotations

import pytest

import satcp
from satcp.scenario import ScenarioError, apply_overrides, load

from conftest import ROOT, SMALL_TOML

def run_with(*assignments: str) -> satcp.Result:
    """Runs the small scenario with ``--set``-style KEY=VALUE strings."""
    return satcp.run(apply_overrides(load(SMALL_TOML), list(assignments)))


NEW_SCENARIOS = ["leung-satellite", "leung-mobile-cdpd", "hayes-bursts", "leo-pass"]


@pytest.mark.parametrize("name", NEW_SCENARIOS)
def test_example_scenarios_run_deterministically(name):
    path = ROOT / "scenarios" / f"{name}.toml"
    a = satcp.run(path, **{"duration": "120s"}).to_dict()
    b = satcp.run(path, **{"duration": "120s"}).to_dict()
    a.pop("wall_s")
    b.pop("wall_s")
    assert a == b
    assert a["flows"][0]["bytes_delivered"] > 0


def test_set_picks_a_model():
    # path.ber is the uniform shorthand; a model table replaces it, and --set clears it.
    r = run_with("path.ber=0", "path.errors.model=leung-satellite", "path.errors.ber_rain=1e-4", "duration=60s")
    assert r.links[0].error_drops > 0
    assert r.links[1].error_drops == 0


def test_leo_orbit_reports_outage_drops():
    text = SMALL_TOML.replace('delay = "250ms"\n', "").replace("ber = 1e-6\n", "")
    text += '\n[path.orbit]\nkind = "leo"\nmin_elevation = 40\nhandover_gap = "5s"\n'
    r = satcp.run(text, duration="400s")
    assert r.links[0].outage_drops > 0
    assert r.links[0].error_drops == 0


@pytest.mark.parametrize(
    "overrides, key, words",
    [
        (["path.ber=0", "path.errors.model=rayleigh"], "path.errors.model", ["gilbert", "leung-mobile", "burst"]),
        (["path.ber=0", "path.errors.model=gilbert", "path.errors.b=0.1"], "path.errors.b", ["ber_bad"]),
        (["path.ber=0", "path.errors.model=leung-satellite", "path.errors.g=2"], "path.errors.g", ["0 <= g <= 1"]),
        (["path.ber=0", "path.errors.model=leung-mobile", "path.errors.mean_bad=0s"], "path.errors.mean_bad", ["at least 1us"]),
        (["path.errors.model=leung-satellite"], "path.ber", ["path.ber = 0"]),
        (["path.orbit=leo"], "path.orbit", ["delay"]),
        (["path.return_errors.model=burst", "path.return_errors.spacing=poisson"], "path.return_errors.spacing", ["random"]),
    ],
)
def test_bad_channel_keys_get_one_line(overrides, key, words):
    with pytest.raises(ScenarioError) as info:
        run_with(*overrides)
    line = str(info.value)
    assert "\n" not in line
    assert f"key `{key}`" in line, line
    for word in words:
        assert word in line, (word, line)


def test_cli_names_a_bad_model(cli, small_file):
    p = cli("run", small_file, "--set", "path.ber=0", "--set", "path.errors.model=gilbert")
    assert p.returncode == 2
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert "key `path.errors.good_to_bad`" in lines[0] and "mean_good" in lines[0], lines[0]
