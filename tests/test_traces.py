"""Trace files and pcap: what `satcp run --trace-dir/--pcap` writes agrees
with the run's own counts, and tshark reads the pcap the same way."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pandas as pd
import pytest

import satcp

LOSSY_SACK = {
    "duration": "40s",
    "seed": 3,
    "path": {"rate": "2Mbps", "delay": "250ms", "ber": 2e-6, "queue": 30},
    "flow": [{"variant": "newreno", "sack": True, "timestamps": True, "mss": 1000, "rwnd": "400KB"}],
}


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    out = tmp_path_factory.mktemp("traced")
    result = satcp.run(LOSSY_SACK, trace_dir=out / "traces", pcap=out / "run.pcap")
    return result, out


def test_trace_files_agree_with_the_result(traced):
    result, out = traced
    flow = result.flows[0]
    segments = pd.read_csv(out / "traces" / "flow-0-segments.csv")
    assert len(segments) == flow.segments_sent
    assert segments.retransmit.sum() == flow.retransmits > 0
    acks = pd.read_csv(out / "traces" / "flow-0-acks.csv", keep_default_na=False)
    assert (acks.ack.diff().dropna() >= 0).all(), "the cumulative ACK never moves back"
    assert acks.sack.str.len().gt(0).any(), "SACK blocks were recorded"
    drops = pd.read_csv(out / "traces" / "drops.csv")
    forward = result.links[0]
    assert len(drops[drops.link == "forward"]) == forward.queue_drops + forward.error_drops
    cwnd = pd.read_csv(out / "traces" / "flow-0-cwnd.csv")
    assert cwnd.cwnd.min() >= 1000
    assert cwnd.cwnd.iloc[-1] == flow.final_cwnd_bytes
    meta = json.loads((out / "traces" / "meta.json").read_text())
    assert meta["flows"][0] == {"id": 0, "variant": "newreno", "mss": 1000, "sack": True, "start_s": 0.0}


def test_traces_do_not_change_the_result(traced):
    result, _ = traced
    plain = satcp.run(LOSSY_SACK)
    assert plain.flows[0].to_dict() == result.flows[0].to_dict()


def _tshark():
    path = shutil.which("tshark")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("tshark is not installed; .ci/run installs it (Debian package tshark)")
        pytest.skip("tshark is not installed")
    return path


def _tshark_count(pcap, display_filter: str) -> int:
    out = subprocess.run(
        [_tshark(), "-r", str(pcap), "-Y", display_filter, "-T", "fields", "-e", "frame.number"],
        capture_output=True, text=True, check=True,
    )
    return len(out.stdout.split())


def test_tshark_reads_the_pcap_as_the_simulator_counted(traced):
    result, out = traced
    flow = result.flows[0]
    pcap = out / "run.pcap"
    assert _tshark_count(pcap, "tcp.len > 0") == flow.segments_sent
    # tshark's sequence analysis finds every retransmission, fast or not.
    found = _tshark_count(pcap, "tcp.analysis.retransmission || tcp.analysis.fast_retransmission")
    assert found == flow.retransmits
    # tshark calls a retransmission "fast" only right after duplicate ACKs;
    # RFC 6675 may also enter recovery on SACKed data alone (IsLost), which
    # tshark files as a plain retransmission.
    assert 0 < _tshark_count(pcap, "tcp.analysis.fast_retransmission") <= flow.fast_retransmits
    assert _tshark_count(pcap, "tcp.flags.syn == 1 && tcp.options.sack_perm") == 2
    assert _tshark_count(pcap, "tcp.options.sack_le") > 0
    assert _tshark_count(pcap, "tcp.options.timestamp.tsval") == _tshark_count(pcap, "tcp")
    # 32-bit sequence numbers: tshark's relative numbers end at the bytes sent.
    out_seq = subprocess.run(
        [_tshark(), "-r", str(pcap), "-Y", "tcp.len > 0", "-T", "fields", "-e", "tcp.nxtseq"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert max(int(s) for s in out_seq) - 1 == max(
        row.seq + row.len for row in pd.read_csv(out / "traces" / "flow-0-segments.csv").itertuples()
    )


def test_cli_writes_traces_and_names_an_unwritable_path(tmp_path, small_file, cli):
    done = cli("run", small_file, "--trace-dir", tmp_path / "t", "--json")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "t" / "flow-0-segments.csv").exists()
    blocker = tmp_path / "file"
    blocker.write_text("")
    done = cli("run", small_file, "--trace-dir", blocker / "t")
    assert done.returncode == 2
    err = done.stderr
    assert err.count("\n") == 1 and "cannot write traces" in err and str(blocker) in err, err
