"""The Python API: satcp.run, load, apply_overrides, Result."""

from __future__ import annotations

import copy
import json
import pathlib

import pytest

import satcp
from satcp.scenario import apply_overrides, load, parse_value

from conftest import GEO, SMALL_TOML

FLOW_FIELDS = {"id", "variant", "goodput_bps", "bytes_delivered", "retransmits", "timeouts", "completion_time_s"}
LINK_FIELDS = {"name", "packets", "utilization", "queue_drops", "error_drops"}


def same_run(a: satcp.Result, b: satcp.Result) -> bool:
    """Equal in everything but the wall-clock time."""
    da, db = a.to_dict(), b.to_dict()
    da.pop("wall_s")
    db.pop("wall_s")
    return da == db


# ------------------------------------------------------------------ inputs


def test_path_str_path_toml_text_and_dict_give_the_same_result(small_file):
    results = [
        satcp.run(str(small_file)),
        satcp.run(small_file),
        satcp.run(SMALL_TOML),
        satcp.run(load(small_file)),
    ]
    for r in results[1:]:
        assert same_run(results[0], r)
    assert results[0].flows[0].bytes_delivered > 0


def test_load_forms_agree(small_file):
    as_dict = load(small_file)
    assert as_dict == load(str(small_file)) == load(SMALL_TOML) == load(as_dict)
    assert as_dict["flow"][0]["variant"] == "newreno"
    assert as_dict["path"]["rate"] == "10Mbps"


def test_load_deep_copies_a_dict():
    original = load(SMALL_TOML)
    copied = load(original)
    copied["flow"][0]["variant"] = "reno"
    copied["path"]["ber"] = 0
    assert original["flow"][0]["variant"] == "newreno"
    assert original["path"]["ber"] == 1e-6


def test_repository_scenario_loads():
    scenario = load(GEO)
    assert scenario["path"]["delay"] == "250ms"
    assert len(scenario["flow"]) == 1


def test_run_does_not_change_the_callers_dict():
    scenario = load(SMALL_TOML)
    before = copy.deepcopy(scenario)
    r = satcp.run(scenario, seed=5, **{"path.ber": 0})
    assert scenario == before
    assert r.scenario["seed"] == 5 and r.scenario["path"]["ber"] == 0


# --------------------------------------------------------------- overrides


def test_keyword_overrides():
    r = satcp.run(SMALL_TOML, duration="2s", seed=3, **{"path.ber": 0, "flow.0.variant": "reno"})
    assert r.sim_time_s == pytest.approx(2.0)
    assert r.seed == 3
    assert r.flows[0].variant == "reno"
    assert r.links[0].error_drops == 0


def test_double_underscore_means_dot():
    a = satcp.run(SMALL_TOML, flow__0__variant="tahoe", path__ber=0)
    b = satcp.run(SMALL_TOML, **{"flow.0.variant": "tahoe", "path.ber": 0})
    assert a.flows[0].variant == "tahoe"
    assert same_run(a, b)


def test_overrides_from_key_value_strings():
    scenario = apply_overrides(
        load(SMALL_TOML),
        ["path.ber=1e-7", "duration=20s", "flow.0.sack=false", 'flow.0.variant="reno"',
         "flow.0.initial_cwnd = 4", "path.queue=64KB"],
    )
    assert scenario["path"]["ber"] == 1e-7
    assert scenario["duration"] == "20s"
    assert scenario["flow"][0]["sack"] is False
    assert scenario["flow"][0]["variant"] == "reno"
    assert scenario["flow"][0]["initial_cwnd"] == 4
    assert scenario["path"]["queue"] == "64KB"


@pytest.mark.parametrize(
    "text, value",
    [
        ("1e-6", 1e-6), ("42", 42), ("true", True), ("false", False), ('"x y"', "x y"),
        ("[120,122]", [120, 122]), ("20s", "20s"), ("10Mbps", "10Mbps"), ("reno", "reno"),
        ("", ""), ("{a = 1}", {"a": 1}), ("1\nx = 2", "1\nx = 2"), ("nan", "nan"),
    ],
)
def test_parse_value(text, value):
    assert parse_value(text) == value


def test_apply_overrides_does_not_change_its_input():
    scenario = load(SMALL_TOML)
    before = copy.deepcopy(scenario)
    apply_overrides(scenario, {"path.ber": 0.5, "flow.0.mss": 536})
    assert scenario == before


def test_overrides_create_missing_tables():
    assert apply_overrides({}, {"path.ber": 0, "seed": 2}) == {"path": {"ber": 0}, "seed": 2}


@pytest.mark.parametrize(
    "overrides, key, words",
    [
        ({"flow.3.variant": "reno"}, "flow.3", "out of range"),
        ({"flow.x.variant": "reno"}, "flow.x", "list"),
        ({"duration.x": 1}, "duration.x", "not a table"),
        ({"path..ber": 1}, "path..ber", "empty"),
        ({"node.0.name": "a"}, "node.0", "out of range"),
        (["path.ber"], None, "KEY=VALUE"),
        (["=3"], None, "KEY=VALUE"),
    ],
)
def test_bad_overrides_are_scenario_errors(overrides, key, words):
    with pytest.raises(satcp.ScenarioError) as info:
        apply_overrides(load(SMALL_TOML), overrides)
    assert info.value.key == key
    assert words in str(info.value)
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------ errors


def test_scenario_error_is_a_value_error():
    assert issubclass(satcp.ScenarioError, ValueError)


@pytest.mark.parametrize(
    "overrides, key, words",
    [
        ({"path.bogus": 1}, "path.bogus", "unknown field"),
        ({"path.rate": "10Mbit"}, "path.rate", "Mbps"),
        ({"path.rate": -5}, "path.rate", "rate"),
        ({"flow.0.variant": "nope"}, "flow.0.variant", "newreno"),
        ({"path.ber": 2}, "path.ber", "ber"),
        ({"duration": "5 parsecs"}, "duration", "ms"),
        ({"flow.3.variant": "reno"}, "flow.3", "out of range"),
    ],
)
def test_run_errors_name_the_file_and_the_key(small_file, overrides, key, words):
    with pytest.raises(satcp.ScenarioError) as info:
        satcp.run(small_file, **overrides)
    err = info.value
    assert err.key == key
    assert err.file == str(small_file)
    assert str(err).startswith(f"{small_file}: key `{key}`: ")
    assert words in str(err)
    assert "\n" not in str(err)


def test_errors_without_a_file_name_only_the_key():
    with pytest.raises(satcp.ScenarioError) as info:
        satcp.run(SMALL_TOML, **{"path.rate": "fast"})
    assert str(info.value).startswith("key `path.rate`: ")
    assert info.value.file is None


def test_missing_file_and_not_toml(tmp_path):
    with pytest.raises(satcp.ScenarioError, match="no such file"):
        satcp.run(tmp_path / "absent.toml")
    with pytest.raises(satcp.ScenarioError, match="no such file"):
        load(str(tmp_path / "absent.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("this is [not toml\n")
    with pytest.raises(satcp.ScenarioError, match=r"bad.toml: not TOML"):
        load(bad)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(satcp.ScenarioError, match="not TOML"):
        load(binary)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), {1, 2}, object(), b"bytes"])
def test_values_json_cannot_carry_are_scenario_errors(value):
    with pytest.raises(satcp.ScenarioError) as info:
        satcp.run(SMALL_TOML, **{"path.ber": value})
    assert info.value.key == "path.ber"


def test_non_string_keys_are_scenario_errors():
    with pytest.raises(satcp.ScenarioError):
        load({"path": {1: 2}})


def test_load_rejects_other_types():
    with pytest.raises(satcp.ScenarioError, match="cannot read a scenario"):
        load(42)


# ------------------------------------------------------------- determinism


def test_same_seed_same_result():
    a = satcp.run(SMALL_TOML, seed=11)
    b = satcp.run(SMALL_TOML, seed=11)
    assert same_run(a, b)
    assert a.seed == 11


def test_different_seeds_differ_when_bits_are_lost():
    runs = [satcp.run(SMALL_TOML, seed=s, **{"path.ber": 1e-5}) for s in (1, 2, 3)]
    assert all(r.links[0].error_drops > 0 for r in runs)
    signatures = {(r.events, r.flows[0].bytes_delivered, r.links[0].error_drops) for r in runs}
    assert len(signatures) > 1


# ------------------------------------------------------------------ result


def test_result_fields_and_attribute_access():
    r = satcp.run(SMALL_TOML)
    d = r.to_dict()
    assert set(d) == {"seed", "sim_time_s", "wall_s", "events", "flows", "links"}
    assert all(FLOW_FIELDS <= set(f) for f in d["flows"])
    assert all(LINK_FIELDS <= set(link) for link in d["links"])
    f = r.flows[0]
    assert (f.id, f.variant) == (0, "newreno")
    assert f.goodput_bps > 0 and f.bytes_delivered > 0
    assert f.completion_time_s is None  # bulk flow
    assert [link.name for link in r.links] == ["forward", "return"]
    assert 0 < r.links[0].utilization <= 1
    assert r.wall_s >= 0 and r.events > 0
    assert r.sim_time_s == pytest.approx(5.0)


def test_goodput_matches_bytes_over_active_time():
    r = satcp.run(SMALL_TOML)
    f = r.flows[0]
    assert f.goodput_bps == pytest.approx(8 * f.bytes_delivered / (r.sim_time_s - f.start_s), rel=1e-9)


def test_json_round_trip():
    r = satcp.run(SMALL_TOML)
    assert json.loads(r.to_json()) == r.to_dict()
    again = satcp.Result.from_json(r.to_json())
    assert again == r
    assert again.to_dict() == r.to_dict()


def test_to_dataframe_one_row_per_flow():
    two_flows = load(SMALL_TOML)
    two_flows["flow"].append({"variant": "reno", "start": "1s"})
    r = satcp.run(two_flows)
    df = r.to_dataframe()
    assert len(df) == 2
    for column in ["seed", "sim_time_s", *FLOW_FIELDS]:
        assert column in df.columns
    assert list(df.columns[:2]) == ["seed", "sim_time_s"]
    assert list(df["variant"]) == ["newreno", "reno"]
    assert (df["seed"] == 1).all()
    links = r.links_dataframe()
    assert len(links) == 2
    for column in ["seed", "sim_time_s", *LINK_FIELDS]:
        assert column in links.columns


def test_legs_dataframe_one_row_per_split_connection():
    # Issue 7: a PEP-split flow reports each connection; the flow table stays flat.
    r = satcp.run("scenarios/lawson-pep.toml", duration="20s")
    legs = r.legs_dataframe()
    assert list(legs["leg"]) == [0, 1, 2] and (legs["flow"] == 0).all()
    assert list(legs["variant"])[1] == "vegas"
    assert legs["bytes_delivered"].iloc[-1] == r.flows[0].bytes_delivered
    assert "legs" not in r.to_dataframe().columns
    assert satcp.Result.from_json(r.to_json()) == r
    assert satcp.run(SMALL_TOML).legs_dataframe().empty


def test_summary_is_readable():
    r = satcp.run(SMALL_TOML)
    text = r.summary()
    for word in ["newreno", "goodput", "b/s", "retransmits", "timeouts", "forward", "return", "%", "queue drops"]:
        assert word in text, word
    assert str(r) == text
    assert "\x1b[" not in text  # no colour codes in plain text


def test_human_units():
    from satcp.result import human_bytes, human_rate

    assert human_rate(9_480_000) == "9.48 Mb/s"
    assert human_rate(812_000) == "812 kb/s"
    assert human_rate(0) == "0 b/s"
    assert human_bytes(231_900_000) == "231.9 MB"
    assert human_bytes(512) == "512 B"


def test_unknown_result_fields_are_kept():
    r = satcp.Result.from_dict({
        "seed": 1, "sim_time_s": 1.0, "wall_s": 0.1, "events": 3, "future": 7,
        "flows": [{"id": 0, "variant": "reno", "goodput_bps": 1.0, "bytes_delivered": 1, "retransmits": 0,
                   "timeouts": 0, "completion_time_s": None, "cwnd_trace": [1, 2]}],
        "links": [],
    })
    assert r.extra == {"future": 7}
    assert r.to_dict()["flows"][0]["cwnd_trace"] == [1, 2]


# ---------------------------------------------------------------- variants


def test_variants():
    vs = satcp.variants()
    names = [v.name for v in vs]
    assert {"tahoe", "reno", "newreno"} <= set(names)
    for v in vs:
        assert v.description and v.source
        name, description, source = v
        assert name == v.name


@pytest.mark.parametrize("variant", ["tahoe", "reno", "newreno"])
def test_every_variant_runs(variant):
    r = satcp.run(SMALL_TOML, **{"flow.0.variant": variant, "path.ber": 1e-5})
    assert r.flows[0].variant == variant
    assert r.flows[0].bytes_delivered > 0


def test_path_objects_and_strings_name_the_file_in_errors(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(SMALL_TOML.replace('rate = "10Mbps"', 'rate = "10 furlongs"'))
    for source in (path, str(path), pathlib.PurePath(path)):
        with pytest.raises(satcp.ScenarioError) as info:
            satcp.run(source)
        assert str(info.value).startswith(f"{path}: key `path.rate`")


def test_topologies_and_traffic_run_from_python():
    r = satcp.run("scenarios/adalr-fairness.toml", duration="20s")
    assert [f.id for f in r.flows] == list(range(6))
    assert r.links[0].name == "router->receiver"
    r = satcp.run("scenarios/carroll-topology.toml", duration="20s", **{"link.2.delay": "50ms"})
    assert any(link.name == "router1 forwarding" for link in r.links)
    r = satcp.run({"duration": "10s", "path": {"rate": "10Mbps", "delay": "10ms"}, "flow": [{"rwnd": 2000}],
                   "traffic": [{"kind": "cbr", "from": "sender", "to": "receiver", "rate": "1Mbps", "packet_size": 1250}]})
    assert r.extra["traffic"][0]["packets_sent"] == 1000
    assert "Background traffic" in r.summary()


def test_topology_mistakes_are_one_line(small_toml):
    with pytest.raises(satcp.ScenarioError) as e:
        satcp.run("scenarios/carroll-topology.toml", **{"flow.0.to": "moon"})
    assert e.value.key == "flow.0.to" and "no node named" in str(e.value) and "\n" not in str(e.value)
