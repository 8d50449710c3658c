"""`satcp reproduce`: the report model, the Markdown and HTML reports, and
the command line. Each study's own findings are tested in
test_reproduce_<study>.py."""

from __future__ import annotations

import pathlib

import pytest

from satcp.reproduce import STUDIES, Figure, Finding, Row, StudyReport, Table, report


def test_ratio_and_spread():
    row = Row("SACK, 1e-6", ours=200.0, published=180.6, ours_ci=5.0, published_spread=4.03)
    assert row.ratio == pytest.approx(200.0 / 180.6)
    assert row.within_spread is False  # 19.4 apart, 9.03 allowed
    assert Row("x", ours=183.0, published=180.6, ours_ci=1.0, published_spread=4.03).within_spread is True
    assert Row("x", ours=1.0, published=None).ratio is None
    assert Row("x", ours=1.0, published=0.0).ratio is None
    assert Row("x", ours=1.0, published=2.0).within_spread is None  # the study gave no spread


@pytest.fixture
def sample(tmp_path) -> StudyReport:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([1, 2], [3, 4])
    png = tmp_path / "goodput.png"
    fig.savefig(png)
    plt.close(fig)
    table = Table("Table 16 — 1e-6 BER / 128kb", "004.md §3.3, thesis Table 16", "kb/s", spread_kind="95% CI",
                  rows=[Row("SACK", 200.0, 180.6, ours_ci=5.0, published_spread=4.03,
                            explanation="our stack | recovers faster"),
                        Row("TCP", 178.0, 177.9, ours_ci=3.0, published_spread=4.55)])
    return StudyReport(
        study="lawson2006", title="Lawson 2006", quick=True, tables=[table],
        findings=[Finding("SCPS-TP first", "004.md §3.4", True, "1,426 > 901 kb/s"),
                  Finding("SACK below TCP", "004.md §3.4", False, "180.6 vs 177.9", explanation="no SACK penalty here")],
        figures=[Figure("Goodput against BER", png)],
        needs_real_stack=["Table 16, SACK: sudo satcp emulate scenarios/lawson-t1-geo.toml --set flow.0.sack=true"],
        notes=["BER applies to both directions."], runs=12, wall_s=1.5)


def test_markdown_has_ours_published_ratio_and_verdicts(sample):
    md = report.markdown(sample)
    assert "| SACK | 200.0 ± 5.00 | 180.6 ± 4.03 | 1.11 | no | our stack \\| recovers faster |" in md
    assert "| TCP | 178.0 ± 3.00 | 177.9 ± 4.55 | 1.00 | yes |" in md
    assert "Findings reproduced: 1 of 2" in md
    assert "✗ **SACK below TCP**" in md and "*Why not:* no SACK penalty here" in md
    assert "sudo satcp emulate scenarios/lawson-t1-geo.toml" in md
    assert "![Goodput against BER](goodput.png)" in md


def test_html_is_self_contained(sample, tmp_path):
    md_path, html_path = report.write(sample, tmp_path / "out")
    page = html_path.read_text()
    assert "data:image/png;base64," in page
    assert "src='goodput.png'" not in page and "src=\"" not in page, "every image embedded"
    assert "<tr class='off'>" in page, "a row outside the study's spread is marked"
    assert "our stack | recovers faster" in page
    assert md_path.read_text().startswith("# lawson2006")


def test_list_names_every_study(cli):
    out = cli("reproduce", "--list")
    assert out.returncode == 0, out.stderr
    names = [line.split()[0] for line in out.stdout.splitlines()]
    assert names == list(STUDIES)


@pytest.mark.parametrize("args, words", [
    (["reproduce", "carrol2004"], ["unknown study 'carrol2004'", "carroll2004"]),
    (["reproduce"], ["name a study", "--list"]),
    (["reproduce", "leung1998", "--workers", "0"], ["--workers"]),
])
def test_mistakes_are_one_line(cli, args, words):
    out = cli(*args)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    for w in words:
        assert w in lines[0]


def test_a_quick_reproduction_writes_both_reports_and_resumes(cli, tmp_path):
    out = cli("reproduce", "omueti-adalr", "--quick", "--out", tmp_path, "--workers", "2", timeout=300)
    assert out.returncode == 0, out.stderr
    assert "findings reproduced" in out.stdout
    where = tmp_path / "omueti-adalr"
    assert (where / "report.md").stat().st_size > 1000
    assert "data:image/png;base64," in (where / "report.html").read_text()
    stores = sorted(p.name for p in (where / "runs").iterdir())
    assert stores, "the runs are kept beside the report"
    parts = {p: sorted(x.name for x in (where / "runs" / p).iterdir()) for p in stores}
    again = cli("reproduce", "omueti-adalr", "--quick", "--out", tmp_path, "--workers", "2", timeout=300)
    assert again.returncode == 0, again.stderr
    # Resumed: no store was started again, so every part file is still there.
    for p, names in parts.items():
        assert set(names) <= {x.name for x in (where / "runs" / p).iterdir()}
