"""`satcp reproduce leung1998 --quick`: the satellite chapter's qualitative
findings (002.md §3.4, §4.1, §6.1) in our runs, and a complete report."""

from __future__ import annotations

import math

import pytest

from satcp.reproduce import study
from satcp.reproduce.studies import _sim, leung1998


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return study("leung1998").run(tmp_path_factory.mktemp("leung"), quick=True, workers=2)



def test_vegas_above_reno_and_rfc_on_the_satellite_link(report):
    f = report.finding("At its optimal parameters TCP Vegas has the highest throughput")
    assert f.reproduced, f.evidence
    for sweep in ("MTWS", "MAD"):
        f = report.finding(f"Vegas's best throughput is above Reno's and TCP RFC's at PLR 0.001 and 0.01 ({sweep}")
        assert f.reproduced, f.evidence


@pytest.mark.parametrize("variant", ["TCP Vegas", "TCP Reno", "TCP RFC"])
def test_optimal_segment_size_near_his(report, variant):
    f = report.finding(f"The optimal segment size (MSS) of {variant}")
    assert f.reproduced, f.evidence


@pytest.mark.parametrize("variant", ["TCP Vegas", "TCP Reno"])
def test_optimal_window_near_his(report, variant):
    f = report.finding(f"The optimal window (MTWS) of {variant}")
    assert f.reproduced, f.evidence


@pytest.mark.parametrize("variant", ["TCP Reno", "TCP RFC"])
def test_optimal_ack_delay_near_his(report, variant):
    f = report.finding(f"The optimal ACK delay (MAD) of {variant}")
    assert f.reproduced, f.evidence


def test_what_does_not_reproduce_says_why(report):
    """TCP RFC's 16 KB window and Vegas's 10 ms MAD need his Internet model
    (002.md §6.2 A.9, B.16); where they fail, the report must say why."""
    for f in report.findings:
        assert f.reproduced or f.explanation, f.claim
    for table in report.tables:
        assert table.source.startswith("002.md"), table.title
        for row in table.rows:
            if row.published is not None and row.ratio is not None and abs(row.ratio - 1) > leung1998.OFF:
                assert row.explanation, f"{table.title}: {row.label}"


def test_tables_cover_his_satellite_tables(report):
    titles = " ".join(t.title for t in report.tables)
    for name in ("Table 4.2", "Table 4.3", "Table 4.4", "Table 4.5", "Table 4.6"):
        assert name in titles
    rows = {r.label: r for t in report.tables if t.title.startswith("Table 4.5 — throughput at") for r in t.rows}
    assert rows["TCP Vegas, PLR 0.02"].published == 63.61
    assert rows["TCP Vegas, PLR 0.02"].ours_ci is not None


def test_figure_is_written(report):
    for fig in report.figures:
        assert fig.path.is_file() and fig.path.read_bytes()[:4] == b"\x89PNG"


def plr(ber_rain: float, mss: int, b=0.01, g=0.05, ber_clear=1e-8) -> float:
    """Eq. (1) of 002.md §1.2: P_D over a data packet of MSS + 42 bytes."""
    bits = (mss + 42) * 8
    return g / (b + g) * (1 - (1 - ber_clear) ** bits) + b / (b + g) * (1 - (1 - ber_rain) ** bits)


@pytest.mark.parametrize("design,mss", [("mtws", 512), ("mad", 512), ("mss", 512), ("optimal", 1458)])
def test_design_ber_levels_give_their_labelled_plr(design, mss):
    """Each P_D label's BER_R solves eq. (1) (002.md §6.2 A.3)."""
    from satcp.experiment.design import load_design

    d = load_design(_sim.DESIGNS / "leung1998" / f"{design}.toml")
    factor = next(f for f in d.factors if f.name == "plr")
    for label in factor.levels:
        bers = dict(factor.bundles[label])
        assert bers["path.errors.ber_rain"] == bers["path.return_errors.ber_rain"]
        got = plr(bers["path.errors.ber_rain"], mss)
        want = 0.0 if label == "clear" else float(label)
        assert math.isclose(got, want, rel_tol=0.01, abs_tol=2e-4), (label, got)


def test_mobile_tables_and_findings(report):
    titles = " ".join(t.title for t in report.tables)
    assert "Table 5.1" in titles and "Table 5.3" in titles
    f = report.finding("A larger MSS is better at low bad-state error")
    assert f.reproduced, f.evidence
    f = report.finding("Reno prefers a smaller window than Vegas")
    assert f.reproduced, f.evidence
    rows = {r.label: r for t in report.tables if t.title.startswith("Table 5.1 — throughput") for r in t.rows}
    # Between handoffs both fill the 19.2 kb/s link: his absolute numbers, to within 10%.
    for row in rows.values():
        assert abs(row.ratio - 1) <= 0.10, (row.label, row.ours, row.published)
