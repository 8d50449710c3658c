"""Sweeps: rows as a pure function of the design whatever the engine or
worker count, stored so that an interrupted sweep keeps its finished runs
and ``--resume`` completes it to exactly the rows of an uninterrupted one."""

from __future__ import annotations

import logging
import os
import pathlib
import signal
import subprocess
import time

import pytest

import satcp
from satcp.experiment import ResultsError, load_design, read_results, read_table, sweep
from satcp.experiment.store import rows_equal

from conftest import GEO, ROOT, SMALL_TOML, satcp_command

DESIGN = """\
[design]
scenario = "small.toml"
replications = 3
seed = 11
[set]
duration = "3s"
[factors]
"path.ber" = [1e-6, 1e-5]
"flow.0.variant" = ["reno", "newreno"]
"""

#: Long enough (120 runs of 30-90 ms, about 4 s on 2 cores) to stop in the middle.
SLOW_DESIGN = f"""\
[design]
scenario = "{GEO.as_posix()}"
replications = 30
seed = 3
[set]
duration = "200s"
[factors]
"path.ber" = [0, 1e-8]
"flow.0.variant" = ["reno", "newreno"]
"""


@pytest.fixture
def design_file(tmp_path) -> pathlib.Path:
    (tmp_path / "small.toml").write_text(SMALL_TOML)
    path = tmp_path / "design.toml"
    path.write_text(DESIGN)
    return path


def rows(path) -> list[dict]:
    return read_table(path).to_pylist()


def test_rows_hold_levels_seed_and_every_metric(design_file, tmp_path):
    report = sweep(design_file, tmp_path / "r.parquet", workers=1, progress=False)
    assert (report.total, report.ran, report.skipped) == (12, 12, 0)
    df = read_results(tmp_path / "r.parquet")
    assert len(df) == 12
    assert list(df[["point", "replication"]].itertuples(index=False, name=None)) == [
        (p, r) for p in range(4) for r in range(3)]
    assert df.attrs["factors"] == ["path.ber", "flow.0.variant"]
    assert df.attrs["levels"] == {"path.ber": [1e-6, 1e-5], "flow.0.variant": ["reno", "newreno"]}
    # a row is the run: same numbers as satcp.run with the row's levels and seed
    row = df.iloc[7]
    direct = satcp.run(str(tmp_path / "small.toml"), duration="3s", seed=int(row["seed"]),
                       **{"path.ber": row["path.ber"], "flow.0.variant": row["flow.0.variant"]})
    assert row["goodput_bps"] == direct.flows[0].goodput_bps
    assert row["retransmits"] == direct.flows[0].retransmits
    assert row["events"] == direct.events
    assert list(row["flow_variant"]) == [row["flow.0.variant"]]
    assert list(row["link_name"]) == ["forward", "return"]
    assert list(row["link_error_drops"]) == [float(link.error_drops) for link in direct.links]
    assert row["jain_index"] == 1.0
    assert "wall_s" not in df.columns  # rows are a pure function of the design
    assert len(list((tmp_path / "r.parquet").glob("part-*.parquet"))) == 1  # compacted


def test_worker_count_does_not_change_rows(design_file, tmp_path):
    sweep(design_file, tmp_path / "one.parquet", workers=1, progress=False)
    sweep(design_file, tmp_path / "two.parquet", workers=2, progress=False)
    assert rows_equal(rows(tmp_path / "one.parquet"), rows(tmp_path / "two.parquet"))


def test_dask_engine_gives_the_same_rows(design_file, tmp_path):
    from distributed import Client, LocalCluster

    sweep(design_file, tmp_path / "local.parquet", workers=1, progress=False)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None,
                      silence_logs=logging.ERROR) as cluster, Client(cluster) as client:
        sweep(design_file, tmp_path / "dask.parquet", engine="dask", client=client, progress=False)
    assert rows_equal(rows(tmp_path / "local.parquet"), rows(tmp_path / "dask.parquet"))


def test_dask_cli_against_a_scheduler_address(design_file, tmp_path, cli):
    from distributed import LocalCluster

    sweep(design_file, tmp_path / "local.parquet", workers=2, progress=False)
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        p = cli("sweep", design_file, "-o", tmp_path / "dask.parquet", "--engine", "dask",
                "--scheduler", cluster.scheduler_address, "--quiet")
    assert p.returncode == 0, p.stderr
    assert "12 runs" in p.stdout
    assert rows_equal(rows(tmp_path / "local.parquet"), rows(tmp_path / "dask.parquet"))


def test_dask_cli_starts_a_local_cluster(design_file, tmp_path, cli):
    sweep(design_file, tmp_path / "local.parquet", workers=1, progress=False)
    p = cli("sweep", design_file, "-o", tmp_path / "dask.parquet", "--engine", "dask", "--workers", "2")
    assert p.returncode == 0, p.stderr
    assert rows_equal(rows(tmp_path / "local.parquet"), rows(tmp_path / "dask.parquet"))


def test_resume_runs_only_the_missing_runs(design_file, tmp_path):
    out = tmp_path / "r.parquet"
    sweep(design_file, out, workers=1, progress=False)
    full = rows(out)
    # lose some rows: keep a part file holding only the first five
    import pyarrow.parquet as pq

    table = read_table(out)
    for p in out.glob("part-*.parquet"):
        p.unlink()
    pq.write_table(table.slice(0, 5), out / "part-first.parquet")
    with pytest.raises(ResultsError, match="already holds 5 of 12 runs"):
        sweep(design_file, out, workers=1, progress=False)
    report = sweep(design_file, out, workers=2, resume=True, progress=False)
    assert (report.skipped, report.ran) == (5, 7)
    assert rows_equal(rows(out), full)


def test_resume_refuses_another_design(design_file, tmp_path):
    out = tmp_path / "r.parquet"
    sweep(design_file, out, workers=1, progress=False)
    changed = load_design(design_file, ["duration=2s"])
    with pytest.raises(ResultsError, match="different design"):
        sweep(changed, out, resume=True, progress=False)
    sweep(changed, out, overwrite=True, workers=1, progress=False)
    assert len(rows(out)) == 12


def test_duplicate_parts_are_read_once(design_file, tmp_path):
    """Compaction interrupted between writing the whole and deleting the parts."""
    out = tmp_path / "r.parquet"
    sweep(design_file, out, workers=1, progress=False)
    part = next(out.glob("part-*.parquet"))
    (out / "part-copy.parquet").write_bytes(part.read_bytes())
    assert len(rows(out)) == 12


def _start_and_stop(design: pathlib.Path, out: pathlib.Path, how: int) -> None:
    """Starts `satcp sweep` on two workers, waits for its first part file and
    stops it with signal ``how`` (the whole process group for SIGKILL, as
    an out-of-memory killer or a batch system would)."""
    proc = subprocess.Popen([*satcp_command(), "sweep", str(design), "-o", str(out), "--workers", "2"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not list(out.glob("part-*.parquet")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no rows were stored within 60 s"
            time.sleep(0.05)
        if how == signal.SIGKILL:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.send_signal(how)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if how != signal.SIGKILL:
        assert proc.returncode == 130, err
        assert "interrupted" in err and "--resume" in err and "Traceback" not in err, err


@pytest.fixture(scope="module")
def slow_sweep(tmp_path_factory):
    """The slow design and its uninterrupted rows, shared by the kill tests."""
    where = tmp_path_factory.mktemp("slow")
    design = where / "slow.toml"
    design.write_text(SLOW_DESIGN)
    sweep(design, where / "whole.parquet", workers=2, progress=False)
    return design, rows(where / "whole.parquet")


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_killed_sweep_resumes_to_the_uninterrupted_rows(tmp_path, how, cli, slow_sweep):
    design, whole = slow_sweep
    out = tmp_path / "stopped.parquet"
    _start_and_stop(design, out, how)
    kept = rows(out)
    assert 0 < len(kept) < len(whole), len(kept)
    reference = {(r["point"], r["replication"]): r for r in whole}
    assert rows_equal(kept, [reference[(r["point"], r["replication"])] for r in kept])
    p = cli("sweep", design, "-o", out, "--resume", "--quiet")
    assert p.returncode == 0, p.stderr
    assert f"{len(kept)} already done" in p.stdout
    assert rows_equal(rows(out), whole)
