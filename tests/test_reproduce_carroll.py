"""`satcp reproduce carroll2004 --quick`: CETEN-R gains at 1e-5 and not at
1e-7, delay and error rate dominate the ANOVA (the issue's criteria), and
every published table is there (000.md §4)."""

from __future__ import annotations

import pytest

from satcp.reproduce import study


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return study("carroll2004").run(tmp_path_factory.mktemp("carroll"), quick=True, workers=2)



@pytest.mark.parametrize("claim", ["At BER 1e-5 CETEN-R raises", "At BER 1e-7 CETEN-R brings no",
                                   "Delay and error rate dominate"])
def test_the_headline_findings_reproduce(report, claim):
    f = report.finding(claim)
    assert f.reproduced, f.evidence


def test_tables_4_5_9_10_7_and_the_mixed_runs(report):
    titles = [t.title.split(" —")[0] for t in report.tables]
    assert titles == ["Table 4", "Table 5", "Table 9", "Table 10", "Table 7", "Tables 17-18"]
    for t in report.tables[:4]:
        assert len(t.rows) == 12 and all(r.published_spread and r.ours_ci for r in t.rows), t.title
        assert all(r.within_spread is not False or r.explanation for r in t.rows), t.title
