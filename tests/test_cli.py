"""The ``satcp`` command, run as a user runs it (a subprocess)."""

from __future__ import annotations

import json

import pytest

import satcp

from conftest import SMALL_TOML

TOP_FIELDS = {"seed", "sim_time_s", "wall_s", "events", "flows", "links"}
FLOW_FIELDS = {"id", "variant", "goodput_bps", "bytes_delivered", "retransmits", "timeouts", "completion_time_s"}
LINK_FIELDS = {"name", "packets", "utilization", "queue_drops", "error_drops"}


def test_json_prints_one_object_with_the_contract_fields(cli, small_file):
    p = cli("run", small_file, "--json")
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    assert p.stdout.count("\n") == 1 and p.stdout.endswith("\n")
    out = json.loads(p.stdout)
    assert set(out) == TOP_FIELDS
    assert len(out["flows"]) == 1 and len(out["links"]) == 2
    for flow in out["flows"]:
        assert FLOW_FIELDS <= set(flow)
    for link in out["links"]:
        assert LINK_FIELDS <= set(link)
    assert out["seed"] == 1 and out["sim_time_s"] == pytest.approx(5.0)


def test_json_matches_the_api(cli, small_file):
    p = cli("run", small_file, "--json", "--seed", "9", "--set", "path.ber=1e-5")
    out = json.loads(p.stdout)
    api = satcp.run(small_file, seed=9, **{"path.ber": 1e-5}).to_dict()
    out.pop("wall_s")
    api.pop("wall_s")
    assert out == api


def test_set_and_seed(cli):
    p = cli("run", "scenarios/geo-10mbps.toml", "--set", "duration=3s", "--set", "flow.0.variant=reno",
            "--set", "path.ber=1e-6", "--seed", "7", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["seed"] == 7
    assert out["sim_time_s"] == pytest.approx(3.0)
    assert out["flows"][0]["variant"] == "reno"


def test_seed_flag_wins_over_set(cli, small_file):
    p = cli("run", small_file, "--seed", "4", "--set", "seed=8", "--json")
    assert json.loads(p.stdout)["seed"] == 4


def test_readable_summary(cli, small_file):
    p = cli("run", small_file)
    assert p.returncode == 0, p.stderr
    for word in ["newreno", "goodput", "Mb/s", "retransmits", "timeouts", "forward", "return", "%"]:
        assert word in p.stdout, word
    assert p.stderr == ""


def test_repository_scenario_runs(cli):
    p = cli("run", "scenarios/geo-10mbps.toml", "--set", "duration=5s")
    assert p.returncode == 0, p.stderr
    assert "newreno" in p.stdout


def test_variants(cli):
    p = cli("variants")
    assert p.returncode == 0, p.stderr
    for name in ["tahoe", "reno", "newreno", "vegas", "cubic", "hybla", "westwood", "bbr",
                 "adalr-newreno", "adalr-sack", "ceten-reno", "ceten-newreno"]:
        assert name in p.stdout
    assert "RFC 6582" in p.stdout and "RFC 9438" in p.stdout


def test_variants_name_the_reading_of_each_ambiguous_study():
    # Where a study is ambiguous, `satcp variants` says which reading runs
    # and which key selects the other (issue 4).
    import satcp

    text = {v.name: v.description for v in satcp.variants()}
    assert '"intent"' in text["ceten-reno"] and '"code"' in text["ceten-reno"] and "ceten_alpha" in text["ceten-reno"]
    assert "adalr_recovery" in text["adalr-newreno"] and "adalr_rwnd" in text["adalr-newreno"]
    assert "every other RTT" in text["vegas"] and "fine-grained" in text["vegas"]


def test_version(cli):
    p = cli("--version")
    assert p.returncode == 0
    assert p.stdout.strip() == f"satcp {satcp.__version__}"


def test_help(cli):
    p = cli("run", "--help")
    assert p.returncode == 0
    assert "--set" in p.stdout and "--seed" in p.stdout and "--json" in p.stdout


def test_python_dash_m(small_file):
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "satcp", "run", str(small_file), "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert set(json.loads(p.stdout)) == TOP_FIELDS


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


BAD_INPUTS = {
    # name: (file contents or None for a missing file, extra args, words the line must hold)
    "unknown key": (SMALL_TOML.replace("[path]", "[path]\nbandwidth = 3"), [], ["key `path.bandwidth`", "rate"]),
    "unknown top-level key": ("colour = 1\n" + SMALL_TOML, [], ["key `colour`"]),
    "wrong unit": (SMALL_TOML.replace('"10Mbps"', '"10 furlongs"'), [], ["key `path.rate`", "Mbps"]),
    "wrong time unit": (SMALL_TOML.replace('"250ms"', '"250 fortnights"'), [], ["key `path.delay`", "ms"]),
    "negative rate": (SMALL_TOML.replace('"10Mbps"', "-10"), [], ["key `path.rate`"]),
    "negative rate with unit": (SMALL_TOML.replace('"10Mbps"', '"-10Mbps"'), [], ["key `path.rate`"]),
    "unknown variant": (SMALL_TOML.replace('"newreno"', '"bogus"'), [], ["key `flow.0.variant`", "newreno"]),
    "not TOML": ("this is not = = TOML [\n", [], ["not TOML"]),
    "binary file": (None, [], ["not TOML"]),
    "missing file": (None, [], ["no such file"]),
    "no flow": (SMALL_TOML.split("[[flow]]")[0], [], ["flow"]),
    "bad --set syntax": (SMALL_TOML, ["--set", "path.ber"], ["KEY=VALUE"]),
    "bad --set key": (SMALL_TOML, ["--set", "path.colour=1"], ["key `path.colour`"]),
    "bad --set index": (SMALL_TOML, ["--set", "flow.3.variant=reno"], ["key `flow.3`", "out of range"]),
    "bad --set value": (SMALL_TOML, ["--set", "path.ber=lots"], ["key `path.ber`"]),
    "bad --seed": (SMALL_TOML, ["--seed", "x"], ["--seed"]),
    "negative --seed": (SMALL_TOML, ["--seed", "-3"], ["--seed"]),
    "unknown option": (SMALL_TOML, ["--colour"], ["--colour"]),
    "cc key for another controller": (SMALL_TOML, ["--set", "flow.0.variant=cubic", "--set", "flow.0.cc.vegas_alpha=2"],
                                      ["key `flow.0.cc.vegas_alpha`", "cubic_"]),
    "cc key out of range": (SMALL_TOML, ["--set", "flow.0.variant=ceten-reno", "--set", "flow.0.cc.ceten_alpha=3"],
                            ["key `flow.0.cc.ceten_alpha`", "(0, 1]"]),
    "byte counting on a controller with its own growth": (
        SMALL_TOML, ["--set", "flow.0.variant=cubic", "--set", "flow.0.byte_counting=true"],
        ["key `flow.0.byte_counting`", "Reno-growth variants"]),
    "rack without SACK recovery": (SMALL_TOML, ["--set", "flow.0.rack=true"], ["key `flow.0.rack`", "sack = true"]),
    "rack with Fall & Floyd recovery": (SMALL_TOML, ["--set", "flow.0.variant=sack", "--set", "flow.0.rack=true"],
                                        ["key `flow.0.rack`", '"rfc6675" or "prr"']),
    "cc key value not accepted": (SMALL_TOML, ["--set", "flow.0.variant=westwood", "--set", 'flow.0.cc.westwood_filter="kalman"'],
                                  ["key `flow.0.cc.westwood_filter`", '"tustin"']),
    "unknown cc key": (SMALL_TOML, ["--set", "flow.0.cc.vegas_delta=1"], ["key `flow.0.cc.vegas_delta`", "vegas_alpha"]),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_gets_one_line_and_exit_2(cli, tmp_path, case):
    text, extra, words = BAD_INPUTS[case]
    path = tmp_path / "scenario.toml"
    if case == "binary file":
        path.write_bytes(b"\x00\xff\xfe binary")
    elif text is not None:
        path.write_text(text)
    p = cli("run", path, *extra)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    line = lines[0]
    assert line.startswith("satcp: error: ")
    for word in words:
        assert word in line, (word, line)
    if not case.startswith(("bad --seed", "negative --seed", "bad --set syntax", "unknown option")):
        assert str(path) in line, line
    assert p.stdout == ""


@pytest.mark.parametrize(
    "args",
    [[], ["run"], ["bogus"], ["run", "a.toml", "b.toml"], ["run", ""], ["run", "."]],
)
def test_usage_mistakes_get_one_line(cli, args):
    p = cli(*args)
    assert p.returncode == 2
    assert len(p.stderr.splitlines()) == 1, p.stderr
    assert p.stderr.startswith("satcp: error: ")
    assert "Traceback" not in p.stderr


def test_json_errors_keep_stdout_empty(cli, tmp_path):
    path = _write(tmp_path, "bad.toml", SMALL_TOML.replace('"10Mbps"', '"fast"'))
    p = cli("run", path, "--json")
    assert p.returncode == 2
    assert p.stdout == ""
    assert len(p.stderr.splitlines()) == 1


def test_a_simulator_panic_becomes_one_line(capfd, monkeypatch):
    """What Rust prints on a panic is held back and the place named in one line."""
    import os

    from satcp import cli

    monkeypatch.delenv("SATCP_DEBUG", raising=False)
    with pytest.raises(satcp.SimulationError) as info:
        with cli._panic_to_one_line():
            os.write(2, b"thread '<unnamed>' panicked at src/x.rs:1:2:\nboom\nstack backtrace:\n  0: f\n")
            raise satcp.SimulationError("the simulator panicked: boom")
    assert str(info.value) == "the simulator panicked: boom at src/x.rs:1:2"
    assert capfd.readouterr().err == ""
    with cli._panic_to_one_line():
        os.write(2, b"a warning\n")
    assert capfd.readouterr().err == "a warning\n"


def test_internal_errors_are_one_line(monkeypatch, capsys):
    from satcp import cli

    def broken(_, **__):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.delenv("SATCP_DEBUG", raising=False)
    monkeypatch.setattr(satcp, "run", broken)
    status = cli.main(["run", "scenarios/geo-10mbps.toml"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.count("\n") == 1 and "boom second line" in err and "Traceback" not in err


def test_lawson_pep_prints_the_end_to_end_results(cli):
    # Issue 7: goodput at the real receiver and bytes acked by a PEP but undelivered.
    p = cli("run", "scenarios/lawson-pep.toml", "--set", "duration=30s", "--set", "link.0.ber=1e-9")
    assert p.returncode == 0, p.stderr
    assert "Split by PEPs" in p.stdout and "acked, not delivered" in p.stdout
    clean = ["--set", "duration=30s", "--set", "link.0.ber=1e-9", "--set", "link.0.return_ber=1e-9", "--json"]
    flow = json.loads(cli("run", "scenarios/lawson-pep.toml", *clean).stdout)["flows"][0]
    plain = json.loads(cli("run", "scenarios/lawson-testbed.toml", *clean).stdout)["flows"][0]
    assert flow["split_legs"] == 3 and flow["acked_undelivered_bytes"] > 0
    assert (plain["split_legs"], plain["acked_undelivered_bytes"]) == (1, 0)
    # Per-leg counters for the split flow, none for the end-to-end one.
    assert [(leg["from"], leg["to"]) for leg in flow["legs"]] == [
        ("netperfc", "SCPS10"), ("SCPS10", "SCPS20"), ("SCPS20", "netperfs")]
    assert flow["legs"][-1]["bytes_delivered"] == flow["bytes_delivered"] and "legs" not in plain
    assert "Split connections (per leg)" in p.stdout and "SCPS10 -> SCPS20" in p.stdout
    # The gateways beat the 64 KB end-to-end window even in 30 s of Vegas slow start.
    assert flow["goodput_bps"] > 1.2 * plain["goodput_bps"]


def test_bad_pep_keys_are_one_line(cli):
    for key, value, words in [
        ("node.2.transport", "warp", "accepted: \"scps\" or a variant"),
        ("node.2.buffer", "10", "accepted: at least 3000"),
        ("node.2.rate", "0", "accepted: 1 bit/s"),
    ]:
        p = cli("run", "scenarios/lawson-pep.toml", "--set", f"{key}={value}")
        assert p.returncode != 0
        assert key in p.stderr and words in p.stderr and p.stderr.count("\n") == 1, p.stderr
    p = cli("run", "scenarios/lawson-testbed.toml", "--set", "node.2.transport=scps")
    assert p.returncode != 0 and "node.2.transport" in p.stderr and "kind = \"pep\"" in p.stderr
