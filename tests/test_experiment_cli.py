"""``satcp sweep``, ``summarize`` and ``plot`` as a user runs them: output
formats, images, and one-line errors with exit status 2."""

from __future__ import annotations

import pytest

from conftest import SMALL_TOML

DESIGN = """\
[design]
scenario = "small.toml"
replications = 3
seed = 5
[set]
duration = "3s"
[factors]
"path.ber" = [1e-6, 1e-5]
"flow.0.variant" = ["reno", "newreno"]
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    from satcp.experiment import sweep

    where = tmp_path_factory.mktemp("cli")
    (where / "small.toml").write_text(SMALL_TOML)
    (where / "design.toml").write_text(DESIGN)
    sweep(where / "design.toml", where / "r.parquet", workers=1, progress=False)
    return where


def test_sweep_command(results, cli):
    p = cli("sweep", results / "design.toml", "-o", results / "again.parquet", "--workers", "2")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("12 runs in ") and "again.parquet" in p.stdout
    assert p.stderr == ""  # no progress bar when stderr is not a terminal


@pytest.mark.parametrize("fmt, marks", [
    ("table", ["per design point", "newreno", "Allocation of variation", "path.ber x flow.0.variant", "<0.0001"]),
    ("markdown", ["### goodput_bps per design point", "| path.ber", "### Allocation of variation"]),
    ("csv", ["# goodput_bps per design point", "path.ber,flow.0.variant,n,mean,sd,var,se,ci_low"]),
])
def test_summarize_formats(results, cli, fmt, marks):
    p = cli("summarize", results / "r.parquet", "--format", fmt, "--level", "0.9",
            "--compare", "flow.0.variant", "--kruskal", "flow.0.variant")
    assert p.returncode == 0, p.stderr
    for m in marks:
        assert m in p.stdout, (m, p.stdout[:2000])


def test_summarize_where_and_output_file(results, cli, tmp_path):
    out = tmp_path / "s.md"
    p = cli("summarize", results / "r.parquet", "--where", "path.ber=1e-5", "--format", "markdown", "-o", out)
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert "path.ber=1e-05" in text and "| reno" in text


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_plot_goodput(results, cli, tmp_path, suffix):
    out = tmp_path / f"g.{suffix}"
    p = cli("plot", "goodput", results / "r.parquet", "--x", "path.ber", "--by", "flow.0.variant",
            "--level", "0.9", "-o", out)
    assert p.returncode == 0, p.stderr
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == "png" else b"<svg" in data[:1000]


@pytest.mark.parametrize("args, words", [
    (["sweep", "{tmp}/nothing.toml"], ["nothing.toml", "no such file"]),
    (["sweep", "{tmp}/bad.toml"], ["bad.toml", "not TOML"]),
    (["sweep", "{tmp}/unknown-key.toml"], ["unknown-key.toml", "path.bre", "unknown field", "expected one of"]),
    (["sweep", "{tmp}/bad-level.toml"], ["bad-level.toml", "flow.0.variant", "peach", "accepted:", "newreno"]),
    (["sweep", "{tmp}/no-base.toml"], ["no-base.toml", "design.scenario", "no such file"]),
    (["sweep", "{res}/design.toml", "-o", "{res}/r.parquet"], ["r.parquet", "already holds 12 of 12", "--resume"]),
    (["sweep", "{res}/design.toml", "--scheduler", "tcp://x:1"], ["--scheduler needs --engine dask"]),
    (["sweep", "{res}/design.toml", "--workers", "0"], ["--workers", "1 or more"]),
    (["summarize", "{tmp}/missing.parquet"], ["missing.parquet", "no such file"]),
    (["summarize", "{tmp}/bad.toml"], ["bad.toml", "unreadable Parquet"]),
    (["summarize", "{res}/r.parquet", "--compare", "nope"], ["r.parquet", "no column `nope`"]),
    (["summarize", "{res}/r.parquet", "--where", "path.ber=3"], ["no level '3'", "1e-06"]),
    (["summarize", "{res}/r.parquet", "--level", "90"], ["--level", "between 0 and 1"]),
    (["summarize", "{res}/r.parquet", "--fairness"], ["more than one flow"]),
    (["plot", "goodput", "{res}/r.parquet", "--x", "path.ber", "-o", "{tmp}/g.gif"], [".png, .svg or .pdf"]),
    (["plot", "goodput", "{res}/r.parquet", "--x", "nope", "-o", "{tmp}/g.png"], ["no column `nope`"]),
    (["plot", "nope"], ["invalid choice", "goodput"]),
])
def test_mistakes_are_one_line(results, cli, tmp_path, args, words):
    (tmp_path / "small.toml").write_text(SMALL_TOML)
    (tmp_path / "bad.toml").write_text("[design\n")
    (tmp_path / "unknown-key.toml").write_text(DESIGN.replace('"path.ber"', '"path.bre"'))
    (tmp_path / "bad-level.toml").write_text(DESIGN.replace('["reno", "newreno"]', '["reno", "peach"]'))
    (tmp_path / "no-base.toml").write_text(DESIGN.replace("small.toml", "gone.toml"))
    p = cli(*[a.format(tmp=tmp_path, res=results) for a in args])
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stdout == ""
    assert p.stderr.startswith("satcp: error: ") and p.stderr.count("\n") == 1, p.stderr
    assert "Traceback" not in p.stderr
    for w in words:
        assert w in p.stderr, (w, p.stderr)
