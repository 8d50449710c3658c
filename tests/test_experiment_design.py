"""DESIGN.toml: expansion into points and runs, the seed policy, and one-line errors."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from satcp.experiment import DesignError, load_design, run_seed

from conftest import ROOT, SMALL_TOML


def write(tmp_path: pathlib.Path, design: str, scenario: str = SMALL_TOML) -> pathlib.Path:
    (tmp_path / "small.toml").write_text(scenario)
    path = tmp_path / "design.toml"
    path.write_text(design)
    return path


BASIC = """\
[design]
scenario = "small.toml"
replications = 3
seed = 7

[factors]
"path.ber" = [1e-6, 1e-5]
"flow.0.variant" = ["reno", "newreno", "tahoe"]
"""


def test_full_factorial_first_factor_slowest(tmp_path):
    d = load_design(write(tmp_path, BASIC))
    assert d.factor_names == ["path.ber", "flow.0.variant"]
    assert d.points == [
        {"path.ber": 1e-6, "flow.0.variant": "reno"}, {"path.ber": 1e-6, "flow.0.variant": "newreno"},
        {"path.ber": 1e-6, "flow.0.variant": "tahoe"}, {"path.ber": 1e-5, "flow.0.variant": "reno"},
        {"path.ber": 1e-5, "flow.0.variant": "newreno"}, {"path.ber": 1e-5, "flow.0.variant": "tahoe"},
    ]
    runs = d.runs()
    assert len(runs) == 18
    assert [(r.point, r.replication) for r in runs[:4]] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    last = runs[-1].scenario
    assert last["path"]["ber"] == 1e-5 and last["flow"][0]["variant"] == "tahoe"
    assert last["seed"] == runs[-1].seed
    # everything else is the base scenario's
    assert last["path"]["rate"] == "10Mbps" and last["duration"] == "5s"


def test_independent_seeds_differ_and_are_reproducible(tmp_path):
    runs = load_design(write(tmp_path, BASIC)).runs()
    seeds = [r.seed for r in runs]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2**63 for s in seeds)
    assert seeds == [r.seed for r in load_design(write(tmp_path, BASIC)).runs()]
    # the documented derivation: SeedSequence(design seed, spawn_key=(point, replication))
    expected = int(np.random.SeedSequence(7, spawn_key=(4, 2)).generate_state(1, np.uint64)[0]) >> 1
    assert run_seed(7, 4, 2) == expected == [r.seed for r in runs if (r.point, r.replication) == (4, 2)][0]


def test_common_random_numbers_share_seeds_across_points(tmp_path):
    d = load_design(write(tmp_path, BASIC.replace("seed = 7", 'seed = 7\nseeds = "common"')))
    by_rep = {}
    for r in d.runs():
        by_rep.setdefault(r.replication, set()).add(r.seed)
    assert all(len(s) == 1 for s in by_rep.values())
    assert len({next(iter(s)) for s in by_rep.values()}) == 3
    assert by_rep[1] == {run_seed(7, 0, 1, common=True)}


def test_design_seed_changes_every_seed(tmp_path):
    a = [r.seed for r in load_design(write(tmp_path, BASIC)).runs()]
    b = [r.seed for r in load_design(write(tmp_path, BASIC.replace("seed = 7", "seed = 8"))).runs()]
    assert not set(a) & set(b)


def test_named_linked_and_wildcard_factors_with_exclusions(tmp_path):
    four = SMALL_TOML + "\n" + "\n".join(SMALL_TOML[SMALL_TOML.index("[[flow]]"):] for _ in range(3))
    (tmp_path / "four.toml").write_text(four)
    d = load_design(write(tmp_path, """\
[design]
scenario = "small.toml"
exclude = [{ clients = 1, mode = "mixed" }]
[set]
duration = "2s"
[factors]
"flow.*.variant" = ["reno", "newreno"]
[factors.ber]
keys = ["path.ber", "path.return_ber"]
levels = [1e-7, 1e-5]
[factors.clients]
1 = {}
4 = { scenario = "four.toml" }
[factors.mode]
off = { "flow.*.limited_transmit" = false }
mixed = { "flow.*.limited_transmit" = false, "flow.0.limited_transmit" = true }
"""))
    assert len(d.points) == 2 * 2 * (2 * 2 - 1)
    assert {"flow.*.variant": "reno", "ber": 1e-7, "clients": "1", "mode": "mixed"} not in d.points
    tree = d.scenario_for({"flow.*.variant": "newreno", "ber": 1e-5, "clients": "4", "mode": "mixed"})
    assert tree["duration"] == "2s"
    assert tree["path"]["ber"] == tree["path"]["return_ber"] == 1e-5
    assert [f["variant"] for f in tree["flow"]] == ["newreno"] * 4
    assert [f["limited_transmit"] for f in tree["flow"]] == [True, False, False, False]
    assert d.levels()["clients"] == ["1", "4"]


def test_explicit_points(tmp_path):
    d = load_design(write(tmp_path, """\
[design]
scenario = "small.toml"
replications = 2
[[points]]
"path.ber" = 1e-6
"flow.0.variant" = "reno"
[[points]]
path.ber = 1e-5
flow.0.variant = "newreno"
"""))
    assert d.points == [{"path.ber": 1e-6, "flow.0.variant": "reno"}, {"path.ber": 1e-5, "flow.0.variant": "newreno"}]
    assert len(d.runs()) == 4


def test_set_overrides_and_fingerprint(tmp_path):
    path = write(tmp_path, BASIC)
    plain = load_design(path)
    short = load_design(path, ["duration=1s"])
    assert short.runs()[0].scenario["duration"] == "1s"
    assert plain.fingerprint() != short.fingerprint()
    assert plain.fingerprint() == load_design(path).fingerprint()


def test_repository_designs_load():
    designs = [p for p in sorted((ROOT / "scenarios").rglob("*.toml")) if "[design]" in p.read_text()]
    assert len(designs) >= 10
    for path in designs:
        d = load_design(path)
        assert d.runs(), path
    carroll = load_design(ROOT / "scenarios" / "studies" / "carroll2004" / "homogeneous.toml")
    assert len(carroll.points) == 48 and carroll.replications == 5


@pytest.mark.parametrize("design, words", [
    ("[design]\nscenario = \"small.toml\"\n[factors]\n\"path.ber\" = []\n", ["factors.path.ber", "no levels"]),
    ("[design]\nscenario = \"missing.toml\"\n", ["design.scenario", "no such file"]),
    ("[design]\nreplications = 2\n", ["design.scenario", "missing"]),
    ("[design\nscenario=", ["not TOML"]),
    ("[design]\nscenario = \"small.toml\"\nreplications = 0\n", ["design.replications", "1 to 100000"]),
    ("[design]\nscenario = \"small.toml\"\nseeds = \"same\"\n", ["design.seeds", "common"]),
    ("[design]\nscenario = \"small.toml\"\n[factors]\npath.ber = [1e-6]\n", ["\"path.ber\" = [...]"]),
    ("[design]\nscenario = \"small.toml\"\n[factors]\nseed = [1, 2]\n", ["factors.seed", "results column"]),
    ("[design]\nscenario = \"small.toml\"\n[factors]\n\"path.ber\" = [1e-6, 1e-6]\n", ["listed twice"]),
    ("[design]\nscenario = \"small.toml\"\nexclude = [{ x = 1 }]\n[factors]\n\"path.ber\" = [1e-6]\n",
     ["design.exclude.0", "no factor `x`"]),
    ("[design]\nscenario = \"small.toml\"\n[factorz]\n", ["factorz", "accepted"]),
])
def test_bad_designs_are_one_line(tmp_path, design, words):
    with pytest.raises(DesignError) as e:
        load_design(write(tmp_path, design))
    text = str(e.value)
    assert "\n" not in text and "design.toml" in text
    for w in words:
        assert w in text, text
