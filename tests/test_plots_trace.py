"""satcp.plots: reading trace directories, the time-sequence graph and the
cwnd graph, and ``satcp plot tsg|cwnd``. The traces are synthetic
(tests/tracegen.py), so these tests need no simulator build."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from satcp.cli import main
from satcp.plots import PlotError, TraceError
from satcp.plots.cwnd import cwnd_collapses, cwnd_figure, cwnd_layers, draw_cwnd, rto_backoffs
from satcp.plots.traces import dup_acks, load_flow, sack_blocks, steps_in_window
from satcp.plots.tsg import draw_tsg, sequence_base, tsg_figure, tsg_layers

import tracegen

ROOT = pathlib.Path(__file__).resolve().parent.parent
MSS = 1000


@pytest.fixture(scope="module")
def trace_dir(tmp_path_factory) -> pathlib.Path:
    """300 segments: a single loss (fast retransmit, SACK), two losses in one
    window (NewReno partial ACK), and a lost tail that only an RTO repairs."""
    return tracegen.write_trace(tmp_path_factory.mktemp("trace"), mss=MSS)


@pytest.fixture
def copy_of(trace_dir, tmp_path):
    """A fresh copy of the synthetic trace, to spoil."""

    def make() -> pathlib.Path:
        target = tmp_path / "copy"
        target.mkdir()
        for f in trace_dir.iterdir():
            (target / f.name).write_bytes(f.read_bytes())
        return target

    return make


def csv(trace_dir: pathlib.Path, part: str) -> pd.DataFrame:
    """A trace file as pandas reads it plainly: the independent view the
    tests compare the plots' data with."""
    return pd.read_csv(trace_dir / f"flow-0-{part}.csv", keep_default_na=False)


def gid(fig, name: str):
    found = [a for ax in fig.axes for a in ax.get_children() if a.get_gid() == name]
    assert len(found) == 1, (name, len(found))
    return found[0]


def gids(fig) -> set:
    return {a.get_gid() for ax in fig.axes for a in ax.get_children() if a.get_gid()}


# --- reading a trace directory ---------------------------------------------

def test_load_reads_every_row_with_types_and_line_numbers(trace_dir):
    trace = load_flow(trace_dir, 0)
    raw = csv(trace_dir, "segments")
    assert len(trace.segments) == len(raw)
    assert trace.segments["seq"].dtype == np.int64 and trace.segments["retransmit"].dtype == bool
    assert int(trace.segments["retransmit"].sum()) == int(raw["retransmit"].sum())
    assert trace.segments.index[0] == 2  # line 1 is the header
    states = trace.cwnd
    assert np.isnan(states["ssthresh"].iloc[0]) and np.isnan(states["srtt_s"].iloc[0])  # empty fields
    assert trace.mss == MSS and trace.info["variant"] == "newreno"
    assert set(trace.drops["cause"]) == {"error"}


def test_mss_without_meta_is_the_commonest_segment_length(copy_of):
    d = copy_of()
    (d / "meta.json").unlink()
    trace = load_flow(d, 0)
    assert trace.info == {} and trace.mss == MSS


@pytest.mark.parametrize("spoil, words", [
    (lambda d: d / "nowhere", ["no such trace directory"]),
    (lambda d: d / "meta.json", ["not a directory"]),
])
def test_missing_directory(copy_of, spoil, words):
    with pytest.raises(TraceError) as e:
        load_flow(spoil(copy_of()), 0)
    for w in words:
        assert w in str(e.value)


def test_missing_flow_lists_the_flows_present(copy_of):
    d = copy_of()
    (d / "flow-0-acks.csv").rename(d / "flow-2-acks.csv")
    with pytest.raises(TraceError, match=r"no traces of flow 5; flows present: 0, 2$"):
        load_flow(d, 5)
    with pytest.raises(TraceError, match=r"flow 0 lacks flow-0-acks.csv$"):
        load_flow(d, 0)


def test_directory_without_traces(tmp_path):
    with pytest.raises(TraceError, match="no flow traces here"):
        load_flow(tmp_path, 0)


@pytest.mark.parametrize("part, edit, message", [
    ("segments", lambda lines: lines.__setitem__(4, "0.5,12x,1000,0"), r"segments.csv: line 5: seq '12x'"),
    ("segments", lambda lines: lines.__setitem__(3, "0.5,0,1000,2"), r"line 4: retransmit 2; accepted: 0 or 1"),
    ("segments", lambda lines: lines.__setitem__(3, "-1,0,1000,0"), r"line 4: time_s -1.0; accepted: seconds"),
    ("segments", lambda lines: lines.__setitem__(3, "0.5,0,1000,0,7"), r"malformed CSV: .*line 4, saw 5"),
    ("segments", lambda lines: lines.__setitem__(1, "0.5,0,1000,0,7"), r"malformed CSV: a row has more fields"),
    ("segments", lambda lines: lines.__setitem__(3, "0.5,0,1000"), r"line 4: retransmit ''"),
    ("segments", lambda lines: lines.__setitem__(0, "time,seq,len,retransmit"), r"no column time_s; expected"),
    ("cwnd", lambda lines: lines.__setitem__(2, "0.5,,1000,1000,,1.0"), r"cwnd.csv: line 3: cwnd ''"),
    ("acks", lambda lines: lines.__setitem__(6, "1.5,nan,64000,"), r"line 7: ack 'nan'"),
    ("acks", lambda lines: lines.clear(), r"acks.csv: empty"),
])
def test_malformed_files_get_one_line_naming_file_and_line(copy_of, part, edit, message):
    d = copy_of()
    path = d / f"flow-0-{part}.csv"
    lines = path.read_text().splitlines()
    edit(lines)
    path.write_text("\n".join(lines) + ("\n" if lines else ""))
    with pytest.raises(TraceError) as e:
        trace = load_flow(d, 0)
        getattr(trace, part)
    text = str(e.value)
    assert "\n" not in text
    assert re.search(message, text), text


def test_an_ack_row_without_its_trailing_empty_sack_field_reads_as_no_sack(copy_of):
    d = copy_of()
    path = d / "flow-0-acks.csv"
    lines = path.read_text().splitlines()
    assert lines[1].endswith(",")
    lines[1] = lines[1].rstrip(",")
    path.write_text("\n".join(lines) + "\n")
    acks = load_flow(d, 0).acks
    assert acks["sack"].iloc[0] == "" and 2 not in sack_blocks(acks).index


def test_drops_file_may_be_absent_or_empty_and_is_checked(copy_of):
    d = copy_of()
    (d / "drops.csv").write_text("")
    assert load_flow(d, 0).drops.empty
    (d / "drops.csv").unlink()
    assert load_flow(d, 0).drops.empty
    (d / "drops.csv").write_text("time_s,flow,link,seq,len,cause\n1.0,0,forward,0,1000,cosmic\n")
    with pytest.raises(TraceError, match="line 2: cause 'cosmic'; accepted: queue, error, listed"):
        load_flow(d, 0).drops


def test_dup_acks_need_the_same_ack_and_window():
    acks = pd.DataFrame({"ack": [1000, 1000, 1000, 1000, 2000, 2000],
                         "window": [8000, 8000, 9000, 9000, 9000, 9000]})
    # the third is a window update, not a duplicate
    assert dup_acks(acks).tolist() == [False, True, False, True, False, True]


def test_sack_blocks_parse_in_order_and_reject_nonsense():
    acks = pd.DataFrame({"time_s": [1.0, 2.0, 3.0], "ack": [10, 10, 10],
                         "sack": ["", "30-40", "60-80 30-40"]}, index=[2, 3, 4])
    blocks = sack_blocks(acks)
    assert blocks[["left", "right", "rank"]].values.tolist() == [[30, 40, 0], [60, 80, 0], [30, 40, 1]]
    assert blocks.index.tolist() == [3, 4, 4] and blocks["time_s"].tolist() == [2.0, 3.0, 3.0]
    for bad in ["40-30", "30_40", "30-40 x"]:
        with pytest.raises(TraceError, match=f"at line 3 of the ACK trace"):
            sack_blocks(acks.assign(sack=["", bad, ""]))


def test_steps_carry_the_state_in_force_into_a_window():
    states = pd.DataFrame({"time_s": [0.0, 1.0, 5.0], "cwnd": [1, 2, 3]})
    steps = steps_in_window(states, 2.0, 4.0)
    assert steps[["time_s", "cwnd"]].values.tolist() == [[2.0, 2], [4.0, 2]]
    steps = steps_in_window(states, 1.0, 6.0)  # a row exactly at start needs no carried copy
    assert steps[["time_s", "cwnd"]].values.tolist() == [[1.0, 2], [5.0, 3], [6.0, 3]]


# --- the time-sequence graph -------------------------------------------------

def dup_ack_times_by_hand(acks: pd.DataFrame, start: float, end: float) -> list[float]:
    times, previous = [], None
    for row in acks.itertuples():
        if previous is not None and (row.ack, row.window) == previous and start <= row.time_s <= end:
            times.append(row.time_s)
        previous = (row.ack, row.window)
    return times


@pytest.mark.parametrize("start, end", [(None, None), (2.95, 3.6), (5.0, 6.2), (11.0, 14.0)])
def test_tsg_layers_match_the_trace(trace_dir, start, end):
    layers = tsg_layers(load_flow(trace_dir, 0), start, end)
    lo, hi = layers.start, layers.end
    segs, acks = csv(trace_dir, "segments"), csv(trace_dir, "acks")
    in_view = segs[(segs.time_s >= lo) & (segs.time_s <= hi)]
    assert len(layers.retransmits) == int(in_view.retransmit.sum())
    assert len(layers.segments) == int((in_view.retransmit == 0).sum())
    assert layers.dup_acks["time_s"].tolist() == dup_ack_times_by_hand(acks, lo, hi)
    assert (layers.steps["top"] - layers.steps["ack"]).eq(64 * MSS).all()  # ack + window
    blocks = sum(len(s.split()) for s in acks[(acks.time_s >= lo) & (acks.time_s <= hi)].sack)
    assert len(layers.sacks) == blocks


def test_a_zoomed_window_starts_with_a_duplicate_judged_against_the_ack_before_it(trace_dir):
    acks = csv(trace_dir, "acks")
    dup = acks["ack"].eq(acks["ack"].shift())
    first_dup_of_a_run = acks.index[dup & dup.shift(-1, fill_value=False)][0]
    start = float(acks.time_s[first_dup_of_a_run + 1])
    layers = tsg_layers(load_flow(trace_dir, 0), start, start + 0.01)
    assert layers.dup_acks["time_s"].iloc[0] == start
    assert layers.steps["time_s"].iloc[0] == start  # the ACK line reaches the left edge


def test_tsg_figure_draws_one_mark_per_row(trace_dir):
    layers = tsg_layers(load_flow(trace_dir, 0), 2.95, 6.2)
    fig = tsg_figure(layers)
    n_retx = len(layers.retransmits)
    assert n_retx >= 2
    assert len(gid(fig, "retransmits-R").get_xdata()) == n_retx
    assert len(gid(fig, "retransmits").get_xdata()) == 3 * n_retx  # bottom, top, gap per line
    assert len(gid(fig, "dup-acks").get_xdata()) == len(layers.dup_acks) > 0
    assert len(gid(fig, "sacks-S").get_xdata()) == len(layers.sacks) > 0
    assert len(gid(fig, "drops").get_xdata()) == len(layers.drops) > 0
    window, acks = gid(fig, "window"), gid(fig, "acks")
    assert np.array_equal(window.get_ydata() - acks.get_ydata(), (layers.steps["top"] - layers.steps["ack"]).values)
    assert np.array_equal(window.get_xdata(), layers.steps["time_s"].values)
    assert gid(fig, "window").get_drawstyle() == "steps-post"
    assert "drops" not in gids(tsg_figure(layers, drops=False))


def test_segments_span_their_bytes_and_the_axis_counts_from_a_round_base(trace_dir):
    layers = tsg_layers(load_flow(trace_dir, 0), 9.5, 10.5)
    lowest = layers.data_range()[0]
    base = sequence_base(*layers.data_range())
    assert base > 0 and base <= lowest and base % 10_000 == 0
    for relative, offset in ((True, base), (False, 0)):
        fig = tsg_figure(layers, relative=relative)
        y = gid(fig, "segments").get_ydata().reshape(-1, 3)
        assert np.array_equal(y[:, 0], (layers.segments["seq"] - offset).values)
        assert np.array_equal(y[:, 1] - y[:, 0], layers.segments["len"].values)
        assert np.isnan(y[:, 2]).all()
        label = fig.axes[0].get_ylabel()
        assert (f"− {base:,}" in label) == relative


def test_sequence_base():
    assert sequence_base(0, 5_000) == 0
    assert sequence_base(104_857_600, 106_857_600) == 104_000_000
    assert sequence_base(104_857_600, 104_867_600) == 104_850_000


def test_arrowheads_only_when_zoomed_in(trace_dir):
    trace = load_flow(trace_dir, 0)
    near = tsg_layers(trace, 2.95, 3.15)
    assert near.arrows and {"segments-up", "segments-down"} <= gids(tsg_figure(near))
    far = tsg_layers(trace)
    assert not far.arrows and "segments-up" not in gids(tsg_figure(far))


def test_draw_tsg_writes_valid_png_svg_pdf(trace_dir, tmp_path):
    for name in ["tsg.png", "tsg.svg", "tsg.pdf"]:
        layers = draw_tsg(trace_dir, 0, tmp_path / name, start=2.0, end=7.0)
        assert layers.start == 2.0
    assert (tmp_path / "tsg.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert (tmp_path / "tsg.pdf").read_bytes().startswith(b"%PDF")
    svg = ET.parse(tmp_path / "tsg.svg").getroot()
    assert svg.tag.endswith("svg")
    ids = {el.get("id") for el in svg.iter()}
    assert {"segments", "retransmits", "acks", "window"} <= ids  # gids become SVG ids
    assert "matplotlib.pyplot" not in sys.modules


@pytest.mark.parametrize("kwargs, message", [
    ({"start": 5.0, "end": 5.0}, "start 5 s is not before end 5 s"),
    ({"start": 500.0}, r"nothing to draw from 500 s on: flow 0's segments and ACKs span 0 s to "),
    ({"start": float("nan")}, "start nan; accepted: seconds"),
])
def test_tsg_window_mistakes(trace_dir, tmp_path, kwargs, message):
    with pytest.raises(TraceError, match=message):
        draw_tsg(trace_dir, 0, tmp_path / "x.png", **kwargs)
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("out, message", [
    ("tsg.jpg", r"unknown output format '.jpg'; accepted: .png, .svg, .pdf"),
    ("missing/tsg.png", "no such directory"),
])
def test_output_mistakes_fail_before_reading(tmp_path, out, message):
    with pytest.raises(PlotError, match=message):
        draw_tsg(tmp_path / "no-trace-here", 0, tmp_path / out)


def test_a_large_trace_renders_quickly_and_svg_stays_small(tmp_path):
    import time

    d = tracegen.write_bulk_trace(tmp_path / "big", segments=15_000, duration=20.0)
    t = time.perf_counter()
    layers = draw_tsg(d, 0, tmp_path / "big.svg")
    assert time.perf_counter() - t < 10
    assert len(layers.segments) + len(layers.retransmits) == 15_000 + len(layers.retransmits)
    assert (tmp_path / "big.svg").stat().st_size < 3_000_000  # dense layers are rasterised


# --- the cwnd graph ----------------------------------------------------------

def test_cwnd_layers_in_segments_with_timeouts_marked(trace_dir):
    layers = cwnd_layers(load_flow(trace_dir, 0))
    raw = csv(trace_dir, "cwnd")
    assert layers.unit == MSS and "segments of 1000 B" in layers.unit_name
    assert np.allclose(layers.steps["cwnd"].iloc[: len(raw)], raw["cwnd"] / MSS)
    assert np.isnan(layers.steps["ssthresh"].iloc[0])  # "arbitrarily high" at first
    cw = raw["cwnd"].tolist()
    collapses = [raw.time_s[i] for i in range(1, len(cw)) if cw[i] <= MSS < cw[i - 1]]
    assert len(collapses) == 1  # the synthetic trace has one timeout
    assert layers.collapses.tolist() == collapses
    rto = raw["rto_s"].tolist()
    assert layers.backoffs["time_s"].tolist() == [raw.time_s[i] for i in range(1, len(rto)) if rto[i] >= 2 * rto[i - 1]]
    assert layers.steps["time_s"].iloc[-1] == layers.end


def test_collapse_and_backoff_rules():
    states = pd.DataFrame({"cwnd": [1000, 5000, 1000, 1000, 3000, 1000],
                           "rto_s": [1.0, 1.0, 2.0, 4.0, 1.5, 1.6]})
    assert cwnd_collapses(states, 1000).tolist() == [False, False, True, False, False, True]
    assert rto_backoffs(states).tolist() == [False, False, True, True, False, False]


def test_cwnd_figure_marks_collapses_on_both_panels(trace_dir):
    layers = cwnd_layers(load_flow(trace_dir, 0), 10.0, 14.0)
    fig = cwnd_figure(layers)
    top, bottom = fig.axes[:2]
    assert len(layers.collapses) == 1
    for ax in (top, bottom):
        lines = [c for c in ax.collections if c.get_gid() == "collapses"]
        assert len(lines) == 1 and len(lines[0].get_segments()) == 1
    assert np.array_equal(gid(fig, "cwnd").get_ydata(), layers.steps["cwnd"].values)
    assert gid(fig, "cwnd").get_xdata()[0] == 10.0  # the state in force at the left edge
    assert len(gid(fig, "backoffs").get_xdata()) == len(layers.backoffs) == 1


def test_cwnd_in_bytes_when_the_mss_is_unknown(copy_of):
    d = copy_of()
    (d / "meta.json").unlink()
    for f in ["flow-0-segments.csv"]:  # no segments to guess it from either
        (d / f).write_text("time_s,seq,len,retransmit\n")
    layers = cwnd_layers(load_flow(d, 0))
    assert layers.unit == 1 and layers.unit_name == "bytes" and layers.collapses.empty


def test_draw_cwnd_writes_png_and_svg(trace_dir, tmp_path):
    draw_cwnd(trace_dir, 0, tmp_path / "cwnd.png")
    draw_cwnd(trace_dir, 0, tmp_path / "cwnd.svg", start=1.0, end=13.0)
    assert (tmp_path / "cwnd.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert ET.parse(tmp_path / "cwnd.svg").getroot().tag.endswith("svg")


# --- satcp plot ----------------------------------------------------------------

def run_cli(capsys, *args) -> tuple[int, str, str]:
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_draws_both_graphs(trace_dir, tmp_path, capsys):
    status, out, err = run_cli(capsys, "plot", "tsg", trace_dir, "--flow", "0", "--start", "2", "--end", "7",
                               "-o", tmp_path / "t.png")
    assert (status, err) == (0, "")
    assert out.startswith(f"{tmp_path / 't.png'}: flow 0, 2–7 s,") and "retransmitted" in out
    assert (tmp_path / "t.png").stat().st_size > 1000
    status, out, err = run_cli(capsys, "plot", "cwnd", trace_dir, "-o", tmp_path / "c.svg")
    assert (status, err) == (0, "") and "cwnd fell to 1 MSS 1×" in out
    ET.parse(tmp_path / "c.svg")


@pytest.mark.parametrize("args, message", [
    (["plot", "tsg", "{missing}", "-o", "{out}"], "{missing}: no such trace directory"),
    (["plot", "cwnd", "{trace}", "--flow", "3", "-o", "{out}"], "{trace}: no traces of flow 3; flows present: 0"),
    (["plot", "tsg", "{trace}", "-o", "{tmp}/x.gif"], "unknown output format '.gif'"),
    (["plot", "tsg", "{trace}", "--start", "4", "--end", "2", "-o", "{out}"], "start 4 s is not before end 2 s"),
    (["plot", "tsg", "{trace}", "--start", "soon", "-o", "{out}"], "argument --start: 'soon'; accepted: seconds"),
    (["plot", "tsg", "{trace}", "--flow", "-2", "-o", "{out}"], "argument --flow: '-2'; accepted: a flow id"),
    (["plot", "tsg", "{trace}"], "the following arguments are required: -o/--output"),
    (["plot"], "the following arguments are required: KIND"),
])
def test_cli_mistakes_get_one_line_and_exit_2(trace_dir, tmp_path, capsys, args, message):
    fill = {"missing": tmp_path / "nope", "trace": trace_dir, "out": tmp_path / "x.png", "tmp": tmp_path}
    status, out, err = run_cli(capsys, *(a.format(**fill) for a in args))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("satcp: error: "), err
    assert message.format(**fill) in err
    assert not (tmp_path / "x.png").exists()


def test_cli_malformed_trace_is_a_user_error(copy_of, tmp_path, capsys):
    d = copy_of()
    (d / "flow-0-acks.csv").write_text("time_s,ack,window,sack\n0.5,1000,64000,9-3\n")
    status, _, err = run_cli(capsys, "plot", "tsg", d, "-o", tmp_path / "x.png")
    assert status == 2 and "sack block '9-3' at line 2" in err and err.count("\n") == 1


def test_the_command_line_does_not_load_matplotlib_until_it_draws(trace_dir, tmp_path):
    code = ("import sys, satcp.cli; satcp.cli.build_parser(); "
            "print(sorted(m for m in ('matplotlib', 'pandas') if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"
    p = subprocess.run([sys.executable, "-m", "satcp", "plot", "tsg", str(trace_dir), "-o", str(tmp_path / "t.svg")],
                       capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert p.stdout.count("\n") == 1 and (tmp_path / "t.svg").exists()
