"""Property tests: whatever the loader, the overrides and the simulator are
given, they answer with a scenario, a result, or one ScenarioError line;
never any other exception."""

from __future__ import annotations

import datetime
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import satcp
from satcp.scenario import ScenarioError, apply_overrides, load, parse_value

from conftest import SMALL_TOML

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KEYS = ["duration", "seed", "path", "rate", "delay", "ber", "queue", "flow", "variant", "mss", "rwnd",
        "sack", "x", "0", "1", "", " ", "a.b", "[", "\"q\""]


def assert_one_line(error: ScenarioError) -> None:
    assert str(error) and "\n" not in str(error), repr(str(error))


def load_or_one_line_error(source) -> ScenarioError | None:
    """Loads ``source``; a failure must be one ScenarioError line, a success plain JSON."""
    try:
        scenario = load(source)
    except ScenarioError as e:
        assert_one_line(e)
        return e
    assert isinstance(scenario, dict)
    json.dumps(scenario, allow_nan=False)
    return None


# ----------------------------------------------------------- TOML-ish text

toml_scalars = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["true", "false", "nan", "inf", "-inf", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
                     '"10Mbps"', '"250ms"', "'64KB'", '"""multi\nline"""', "[1, 2]", "{a = 1}", "[", "}",
                     '"unterminated', "0x1F", "1_000", "+1e-6"]),
    st.text(max_size=12).map(json.dumps),
)
toml_lines = st.one_of(
    st.builds(lambda k, v: f"{k} = {v}", st.sampled_from(KEYS), toml_scalars),
    st.builds(lambda k: f"[{k}]", st.sampled_from(["path", "flow", "path.x", "", "a b", "flow.0"])),
    st.builds(lambda k: f"[[{k}]]", st.sampled_from(["flow", "path", "node", "link"])),
    st.sampled_from(["# comment", "", "   ", "=", "==", "[[", "key", "\x00", "\ufeff", "\\"]),
    st.text(max_size=20),
)
toml_ish = st.lists(toml_lines, max_size=12).map("\n".join)


@FUZZ
@given(text=st.one_of(toml_ish, st.text(max_size=60)))
def test_loader_reads_any_text(text):
    load_or_one_line_error(text)


@FUZZ
@given(data=st.binary(max_size=80))
def test_loader_reads_any_file(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "s.toml"
    path.write_bytes(data)
    error = load_or_one_line_error(path)
    if error is not None:
        assert str(error).startswith(f"{path}: ")


# ----------------------------------------------------------- nested dicts

leaves = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=10), st.binary(max_size=4),
    st.datetimes(), st.dates(), st.times(), st.just(object()), st.frozensets(st.integers(), max_size=2),
    st.complex_numbers(),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=6), st.integers(), st.none())
trees = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.tuples(inner, inner), st.dictionaries(keys, inner, max_size=4)
    ),
    max_leaves=20,
)


@FUZZ
@given(tree=st.dictionaries(keys, trees, max_size=5))
def test_loader_takes_any_dict(tree):
    load_or_one_line_error(tree)


# -------------------------------------------------------------- overrides

dotted = st.lists(st.sampled_from(KEYS + ["flow.0", "2", "-1", "999"]), min_size=1, max_size=4).map(".".join)
assignments = st.one_of(
    st.builds(lambda k, v: f"{k}={v}", dotted, st.one_of(toml_scalars, st.text(max_size=10))),
    st.text(max_size=20),
    st.tuples(dotted, trees),
    st.integers(),
)


@FUZZ
@given(
    base=st.one_of(st.just(SMALL_TOML).map(load), st.dictionaries(keys, trees, max_size=3)),
    overrides=st.one_of(
        st.lists(assignments, max_size=5),
        st.dictionaries(st.one_of(dotted, st.integers()), trees, max_size=4),
        st.text(max_size=10),
        st.none(),
        st.integers(),
    ),
)
def test_overrides_never_raise_anything_else(base, overrides):
    try:
        scenario = apply_overrides(base, overrides)
    except ScenarioError as e:
        assert_one_line(e)
    else:
        json.dumps(scenario, allow_nan=False)


@FUZZ
@given(text=st.text(max_size=30))
def test_parse_value_always_answers(text):
    value = parse_value(text)
    json.dumps(value, allow_nan=False)


# -------------------------------------------------- through the simulator

FLOW_KEYS = ["variant", "mss", "rwnd", "window_scaling", "sack", "timestamps", "delayed_ack", "delayed_ack_timeout",
             "initial_cwnd", "initial_ssthresh", "bytes", "start", "handshake", "limited_transmit",
             "partial_ack_timer", "initial_rto", "min_rto", "max_rto", "clock_granularity", "bogus"]
PATH_KEYS = ["rate", "forward_rate", "return_rate", "delay", "ber", "return_ber", "queue", "return_queue",
             "link_header", "bogus"]
sim_values = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(-1, 2, allow_nan=False),
    st.sampled_from(["", "reno", "tahoe", "newreno", "impatient", "slow-but-steady", "1500B", "64KB", "16MB",
                     "250ms", "1s", "0s", "-1s", "10kbps", "1Mbps", "-5Mbps", "1e-6", "x", "1 s", "nanMbps"]),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.sampled_from(["a", "rate"]), st.integers(0, 3), max_size=1),
    st.datetimes(min_value=datetime.datetime(2000, 1, 1), max_value=datetime.datetime(2001, 1, 1)),
)
sim_overrides = st.dictionaries(
    st.one_of(st.sampled_from(FLOW_KEYS).map("flow.0.{}".format), st.sampled_from(PATH_KEYS).map("path.{}".format),
              st.sampled_from(["seed", "colour", "flow.1.variant"])),
    sim_values, max_size=4,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(overrides=sim_overrides)
def test_simulator_answers_any_scenario_with_a_result_or_one_line(overrides):
    # Rates stay at or below 1 Mb/s so that any accepted scenario runs fast;
    # sub-bit/s rates must be rejected like any other bad value.
    overrides = {**overrides, "duration": "0.5s"}
    for key in ("path.rate", "path.forward_rate", "path.return_rate"):
        value = overrides.get(key)
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                pass
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            overrides[key] = min(value, 10**6)
        elif isinstance(value, str) and value.endswith("bps"):
            overrides[key] = "10kbps"
    overrides["path.rate"] = overrides.get("path.rate", "1Mbps")
    try:
        result = satcp.run(SMALL_TOML, **overrides)
    except ScenarioError as e:
        assert_one_line(e)
        assert e.key is not None or "flow" in str(e), str(e)
    else:
        assert result.sim_time_s <= 0.5 + 1e-9
        json.loads(result.to_json())


@pytest.mark.parametrize("rate", [0.25, "0.1bps"])
def test_rate_below_one_bit_per_second_is_rejected(rate):
    with pytest.raises(ScenarioError) as info:
        satcp.run(SMALL_TOML, duration="1s", **{"path.rate": rate})
    assert info.value.key == "path.rate"
