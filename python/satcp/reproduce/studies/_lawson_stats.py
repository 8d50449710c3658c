"""Lawson 2006's analysis beyond Tables 12-30, re-run on our runs: the
Scenario-1 one-way ANOVA (thesis Tables 8-10 and its assumption tests,
004.md §3.1) and the Kruskal-Wallis test of every scenario (Tables 11-29,
§3.2). The ANOVA and Kruskal-Wallis are satcp.stats's (checked against
Appendix C in tests/test_stats.py); Tukey's HSD and Shapiro-Wilk are
scipy's, Breusch-Pagan statsmodels' (Lawson's Eq. 5 is its non-robust
form). tests/test_reproduce_lawson.py runs these functions on Appendix C and
gets the printed tables back."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from ...stats.anova import allocation_of_variation
from ...stats.nonparametric import kruskal_wallis
from ..model import Finding, Row, Table
from ._sim import mean_ci

#: Lawson's alpha (004.md §2.8 item 3: "the test is valid if p < .05")
ALPHA = 0.05
#: "< .0001": Table 9's Prob > F and every Kruskal-Wallis scenario's p (§3.1, §3.2)
P_PRINTED = 1e-4
#: runs per technique per scenario (Count = 30, §3.2), and so N = 150 ranks
RUNS = 30
RANKS = 5 * RUNS
#: Table 8 (JMP's Summary of Fit, printed under Table 9's title: §3.1, §5.2 item 15); R² adjusted and
#: the mean are Appendix C's 0.918 and 66.326, printed rounded (.92) and truncated (66.32) (§3.6)
SUMMARY_OF_FIT = {"R²": 0.92, "R² adjusted": 0.918, "Root mean square error": 12.68,
                  "Mean of response": 66.326, "Observations": 150}
#: Table 9 (the ANOVA table, printed under Table 8's title); its Prob > F is P_PRINTED
ANOVA = {"Degrees of freedom, model": 4, "F ratio": 418.17}
#: Table 10: Tukey HSD connecting letters; its least-squares means are Table 12's means
TUKEY = {"SCPS-TP": "A", "WS/SACK": "B", "SACK": "B", "Window Scale": "B", "TCP": "B"}
#: Tables 11-29: Kruskal-Wallis score (rank) sums, (BER, Iperf write size) -> technique -> sum
KRUSKAL = {
    (1e-5, "128k"): {"SACK": 2642.5, "SCPS-TP": 4065, "TCP": 858.5, "Window Scale": 1002.5, "WS/SACK": 2756.5},
    (1e-5, "512k"): {"SACK": 2723, "SCPS-TP": 4065, "TCP": 802.5, "Window Scale": 1041.5, "WS/SACK": 2693},
    (1e-6, "128k"): {"SACK": 1722.5, "SCPS-TP": 3980, "TCP": 1541, "Window Scale": 2346, "WS/SACK": 1735.5},
    (1e-6, "512k"): {"SACK": 1933.5, "SCPS-TP": 3945, "TCP": 1268.5, "Window Scale": 1792, "WS/SACK": 2386},
    (1e-7, "128k"): {"SACK": 1273, "SCPS-TP": 3945, "TCP": 617, "Window Scale": 2390, "WS/SACK": 3100},
    (1e-7, "512k"): {"SACK": 1273, "SCPS-TP": 3945, "TCP": 617, "Window Scale": 2418.5, "WS/SACK": 3071.5},
    (1e-8, "128k"): {"SACK": 769, "SCPS-TP": 4065, "TCP": 1061, "Window Scale": 3165, "WS/SACK": 2265},
    (1e-8, "512k"): {"SACK": 709.5, "SCPS-TP": 4065, "TCP": 1120.5, "Window Scale": 3165, "WS/SACK": 2265},
    (1e-9, "128k"): {"SACK": 780, "SCPS-TP": 4005, "TCP": 1050, "Window Scale": 2760, "WS/SACK": 2730},
    (1e-9, "512k"): {"SACK": 970, "SCPS-TP": 4065, "TCP": 860, "Window Scale": 2715, "WS/SACK": 2715},
}
#: the thesis's table numbers: 11, 15, ... for 128k and 13, 17, ... for 512k
KRUSKAL_TABLE = {key: 11 + 2 * i for i, key in enumerate(KRUSKAL)}
#: H with the tie correction: not printed; 004.md §3.2 derives it from Appendix C
KRUSKAL_H = {(1e-5, "128k"): 127.10, (1e-5, "512k"): 128.39, (1e-6, "128k"): 71.49, (1e-6, "512k"): 73.57,
             (1e-7, "128k"): 127.79, (1e-7, "512k"): 127.11, (1e-8, "128k"): 137.60, (1e-8, "512k"): 138.38,
             (1e-9, "128k"): 134.77, (1e-9, "512k"): 139.05}
#: a mean rank within a tenth of the 150 ranks counts as §5.3 item 4's "approximately"
RANK_TOLERANCE = RANKS / 10
#: rows printed without a spread are explained when ours is off by more than this fraction
TOLERANCE = 0.10


def iperf_kbps(kbps) -> np.ndarray:
    """kb/s as Iperf prints them: 0.1 below 100, 1 from 100 (§5.2 item 11),
    which makes the ties Lawson's ranks have."""
    x = np.asarray(kbps, dtype=float)
    return np.where(x < 100, np.round(x, 1), np.round(x))


def _fmt(x: float) -> str:
    return f"{x:.1f}" if abs(x) < 100 else f"{x:.0f}"


def _order(means: dict) -> str:
    return " > ".join(f"{t} {_fmt(v)}" for t, v in sorted(means.items(), key=lambda kv: -kv[1]))


def _sd_from_ci(ci: float, n: int = RUNS) -> float:
    """The sd behind a printed 95% t half-width (§5.2 item 12)."""
    return ci * math.sqrt(n) / stats.t.ppf(0.975, n - 1)


# ------------------------------------------------------------------ Scenario 1: Tables 8-10


def one_way(part: pd.DataFrame) -> dict:
    """JMP's Summary of Fit and ANOVA with technique the only factor (Lawson's
    model, §2.8 item 1), from satcp's allocation of variation."""
    table = allocation_of_variation(part, ["technique"], "kbps").set_index("component")
    sst, term, err = table.loc["y - ybar", "sum_sq"], table.loc["technique"], table.loc["Errors"]
    n = len(part)
    mse = err.sum_sq / err.dof
    return {"R²": term.sum_sq / sst, "R² adjusted": 1 - mse / (sst / (n - 1)),
            "Root mean square error": math.sqrt(mse),
            "Mean of response": float(part.kbps.mean()), "Observations": n,
            "Degrees of freedom, model": int(term.dof), "F ratio": float(term.F), "p": float(term.p),
            "error dof": int(err.dof)}


def tukey_letters(part: pd.DataFrame, order) -> dict[str, str]:
    """JMP's connecting letters: techniques by mean, each maximal run whose
    pairs Tukey's HSD (scipy) does not separate at ALPHA shares a letter."""
    present = [t for t in order if (part.technique == t).any()]
    samples = [part.kbps[part.technique == t].to_numpy(float) for t in present]
    p = stats.tukey_hsd(*samples).pvalue
    ranked = sorted(range(len(present)), key=lambda i: -samples[i].mean())
    runs: list[tuple[int, int]] = []
    for i in range(len(ranked)):
        j = i
        while j + 1 < len(ranked) and all(p[ranked[a], ranked[j + 1]] >= ALPHA for a in range(i, j + 1)):
            j += 1
        if not runs or j > runs[-1][1]:
            runs.append((i, j))
    letters = {t: "" for t in present}
    for letter, (i, j) in zip("ABCDEFGHIJ", runs):
        for k in range(i, j + 1):
            letters[present[ranked[k]]] += letter
    return letters


def _hsd(rmse: float, dfe: int, k: int, n: int) -> float:
    return stats.studentized_range.ppf(1 - ALPHA, k, dfe) * rmse / math.sqrt(n)


def _spread(part: pd.DataFrame, published: dict) -> str:
    ours = part.groupby("technique").kbps.std()
    his = {t: _sd_from_ci(ci) for t, (_, ci) in published.items()}
    return "sd ours/Lawson's " + ", ".join(f"{t} {ours[t]:.1f}/{his[t]:.1f}" for t in ours.index if t in his) + " kb/s"


def _fit_cause(part: pd.DataFrame, published: dict) -> str:
    """What sets Tables 8-9's numbers: SCPS-TP's lead (between) and the
    runs' spread (within), ours against Lawson's (Table 12)."""
    means = part.groupby("technique").kbps.mean().to_dict()
    return (f"between techniques, SCPS-TP's lead: ours {_order(means)}; Lawson's "
            f"{_order({t: m for t, (m, _) in published.items()})} (Table 12, whose rows give the causes); within, "
            f"the runs' spread: {_spread(part, published)}")


def _fit_why(key: str, ours: float, pub: float, n_per: int, cause: str) -> str:
    if key == "Observations":
        if ours == pub:
            return ""
        return f"{n_per} runs per technique here (--quick) against his {RUNS}" if n_per != RUNS else \
            "techniques not run: the PEP testbed is missing"
    if key == "Degrees of freedom, model":
        return "" if ours == pub else "techniques not run: the PEP testbed is missing"
    return "" if abs(ours / pub - 1) <= TOLERANCE else cause


def scenario_1(part: pd.DataFrame, published: dict, order) -> tuple[list[Table], list[Finding]]:
    """Tables 8-10 and the assumption tests on one scenario's runs (columns
    technique, kbps); ``published`` is Table 12: technique -> (mean, CI)."""
    part = part.assign(kbps=iperf_kbps(part.kbps))
    fit = one_way(part)
    n_per = int(part.groupby("technique").size().min())
    cause = _fit_cause(part, published)
    note = ("One-way ANOVA with technique the only factor, as JMP ran it (004.md §2.8), on our 1e-5 runs as Iperf "
            "prints them (§5.2 item 11); the same runs stand for 128k (§5.2 item 4). The thesis swapped the titles "
            "of Tables 8 and 9 (§5.2 item 15): here each is named for its content. Lawson printed no spread; rows "
            f"more than {TOLERANCE:.0%} off carry the cause.")
    t8 = Table("Table 8 — 1e-5 BER / 128k: summary of fit (printed as 'Analysis of Variance Results')",
               "004.md §3.1, thesis Table 8", "as printed", note=note)
    t8.rows += [Row(k, fit[k], v, explanation=_fit_why(k, fit[k], v, n_per, cause)) for k, v in SUMMARY_OF_FIT.items()]
    t9 = Table("Table 9 — 1e-5 BER / 128k: analysis of variance (printed as 'Model Summary of Fit')",
               "004.md §3.1, thesis Table 9", "as printed", note=note)
    f_cause = "F = between / within mean square; " + cause
    t9.rows += [Row(k, fit[k], v, explanation=_fit_why(k, fit[k], v, n_per, f_cause)) for k, v in ANOVA.items()]
    t9.rows.append(Row(f"Prob > F (printed: < {P_PRINTED:g})", fit["p"], None))
    tables = [t8, t9, _tukey_table(part, published, order, fit)]
    return tables, [_tukey_finding(part, order, fit, published), _assumptions(part, published)]


def _tukey_table(part: pd.DataFrame, published: dict, order, fit: dict) -> Table:
    letters = tukey_letters(part, order)
    why = _tukey_why(part, fit, published)
    table = Table("Table 10 — 1e-5 BER / 128k: Tukey HSD groups and least-squares means",
                  "004.md §3.1, thesis Table 10 (its means and CIs are Table 12's)", "kb/s", spread_kind="95% CI",
                  note=f"Groups not sharing a letter differ (Tukey HSD, family-wise alpha {ALPHA}), ours from "
                       "scipy on the runs behind Table 8; a one-way model's least-squares means are the means.")
    for tech in sorted(TUKEY, key=lambda t: -published[t][0]):
        pub, ci = published[tech]
        if tech not in letters:
            table.rows.append(Row(f"{tech}: not run (Lawson {TUKEY[tech]})", math.nan, pub, published_spread=ci,
                                  explanation="not run: the PEP testbed is missing"))
            continue
        mean, ours_ci = mean_ci(part.kbps[part.technique == tech])
        row = Row(f"{tech}: group {letters[tech]} (Lawson {TUKEY[tech]})", mean, pub, ours_ci=ours_ci,
                  published_spread=ci)
        causes = ([] if letters[tech] == TUKEY[tech] else [why]) + (
            [] if row.within_spread is not False else ["the mean is Table 12's row, whose explanation gives the cause"])
        row.explanation = "; ".join(causes)
        table.rows.append(row)
    return table


def _tukey_why(part: pd.DataFrame, fit: dict, published: dict) -> str:
    k, n = part.technique.nunique(), int(part.groupby("technique").size().min())
    ours = _hsd(fit["Root mean square error"], fit["error dof"], k, n)
    his = _hsd(SUMMARY_OF_FIT["Root mean square error"], RANKS - len(TUKEY), len(TUKEY), RUNS)
    b = [published[t][0] for t, g in TUKEY.items() if g == "B"]
    means = part.groupby("technique").kbps.mean().to_dict()
    return (f"Tukey separates means further apart than {ours:.1f} kb/s here (q x RMSE / sqrt({n}), Table 8's RMSE) "
            f"against {his:.1f} for Lawson, whose group B spanned {max(b) - min(b):.1f} kb/s; our means "
            f"{_order(means)} (Table 12 gives each one's cause)")


def _tukey_finding(part: pd.DataFrame, order, fit: dict, published: dict) -> Finding:
    letters = tukey_letters(part, order)
    same = all(letters.get(t) == g for t, g in TUKEY.items())
    return Finding("Tukey at 1e-5/128k: SCPS-TP alone (A), the four end-to-end techniques together (B)",
                   "004.md §3.1, thesis Table 10", same, ", ".join(f"{t} {g}" for t, g in letters.items()),
                   explanation="" if same else _tukey_why(part, fit, published))


def _assumptions(part: pd.DataFrame, published: dict) -> Finding:
    from statsmodels.stats.diagnostic import het_breuschpagan

    resid = (part.kbps - part.groupby("technique").kbps.transform("mean")).to_numpy(float)
    exog = pd.get_dummies(part.technique, drop_first=True, dtype=float).assign(const=1.0).to_numpy()
    sw, bp = stats.shapiro(resid).pvalue, het_breuschpagan(resid, exog, robust=False)[1]
    fails = bool(sw < ALPHA and bp < ALPHA)
    return Finding("At 1e-5/128k the ANOVA's assumptions fail (normality, constant variance), so Kruskal-Wallis "
                   "decides", "004.md §3.1, §2.8", fails,
                   f"Shapiro-Wilk p {sw:.2g}, Breusch-Pagan p {bp:.2g} (Lawson: both below {P_PRINTED:g}; "
                   "Durbin-Watson not re-run, see the notes)",
                   explanation="" if fails else _assumptions_why(part, published))


def _assumptions_why(part: pd.DataFrame, published: dict) -> str:
    his = {t: _sd_from_ci(ci) for t, (_, ci) in published.items()}
    ours = part.groupby("technique").kbps.std()
    def wide(sd) -> float:
        return sd["SCPS-TP"] / float(np.median([v for t, v in sd.items() if t != "SCPS-TP"]))
    mine = f"{wide(ours):.1f}x" if "SCPS-TP" in ours.index else "not run"
    return (f"our runs are spread alike and near-normally ({_spread(part, published)}): Lawson's SCPS-TP runs spread "
            f"{wide(his):.1f}x as wide as his other techniques' (median), ours {mine}, and his pooled residuals were "
            "bimodal with outliers beyond 3 sigma (Figs. 5-6); our PEP stand-in's loss response is steadier than "
            "his gateways' unpublished one (§5.2 item 7)")


# ------------------------------------------------------------------ Kruskal-Wallis: Tables 11-29


def kruskal(rows: pd.DataFrame, bers, order, published: dict, cells: dict) -> tuple[list[Table], list[Finding]]:
    """Tables 11-29 and their findings from our runs (columns ber, technique,
    kbps); ``published`` is Tables 12-30 and ``cells`` our (mean, CI) per
    (BER, technique), which the ranks follow."""
    kw = kruskal_wallis(rows.assign(kbps=iperf_kbps(rows.kbps)), "technique", "kbps", by=["ber"])
    tables, p = [], {}
    for ber in bers:
        part = kw[kw.ber == ber].set_index("technique")
        p[ber] = float(part.p.iloc[0])
        for size in ("128k", "512k"):
            tables.append(_kruskal_table(ber, size, part, order, published, cells))
    return tables, [_differ(p, kw), _ranks_close(tables)]


def _kruskal_table(ber, size, part, order, published, cells) -> Table:
    number = KRUSKAL_TABLE[(ber, size)]
    n = int(part.n.sum())
    table = Table(f"Table {number} — {ber:.0e} BER / {size}: Kruskal-Wallis mean ranks",
                  f"004.md §3.2, thesis Table {number}", f"mean rank of {RANKS}",
                  note=f"Ranks (midranks for ties) of our runs at {ber:.0e} as Iperf prints them (§5.2 item 11), "
                       f"one model for both write sizes (§5.2 item 4); with N = {n} runs here the score means are "
                       f"scaled to Lawson's N = {RANKS} (x {RANKS + 1}/{n + 1}). Lawson printed no spread: mean ranks "
                       f"more than {RANK_TOLERANCE:.0f} off, and an H more than {TOLERANCE:.0%} off, carry the cause.")
    ours_means = {t: cells[(ber, t)][0] for t in order if (ber, t) in cells}
    his_means = {t: m for t, (m, _) in published[(ber, size)].items()}
    orders = f"throughput order, ours: {_order(ours_means)}; Lawson's (Table {number + 1}): {_order(his_means)}"
    for tech in order:
        pub = KRUSKAL[(ber, size)][tech] / RUNS
        if tech not in part.index:
            table.rows.append(Row(tech, math.nan, pub, explanation="not run: the PEP testbed is missing"))
            continue
        ours = float(part.loc[tech, "score_mean"]) * (RANKS + 1) / (n + 1)
        why = f"the ranks follow the {orders}" if abs(ours - pub) > RANK_TOLERANCE else ""
        table.rows.append(Row(tech, ours, pub, explanation=why))
    h, h_pub = float(part.H.iloc[0]), KRUSKAL_H[(ber, size)]
    table.rows.append(Row("H, tie-corrected (not printed; 004.md §3.2 from Appendix C)", h, h_pub,
                          explanation=_h_why(h, h_pub, n, orders)))
    table.rows.append(Row(f"p (printed: < {P_PRINTED:g})", float(part.p.iloc[0]), None))
    return table


def _h_why(h: float, pub: float, n: int, orders: str) -> str:
    if n != RANKS:
        return (f"H grows with the number of runs: {n} here against {RANKS}; per run (H / (N - 1)) ours "
                f"{h / (n - 1):.2f}, Lawson's {pub / (RANKS - 1):.2f}")
    return "" if abs(h / pub - 1) <= TOLERANCE else f"H measures how far apart the ranks lie: {orders}"


def _differ(p: dict, kw: pd.DataFrame) -> Finding:
    ok = all(v < ALPHA for v in p.values())
    n = int(kw.groupby("ber").n.sum().min())
    weak = [b for b, v in p.items() if v >= ALPHA]
    return Finding(f"In every scenario Kruskal-Wallis finds that at least two techniques differ (p < {P_PRINTED:g})",
                   "004.md §3.2, §4.1 RQ5", ok,
                   ", ".join(f"{b:.0e} p {v:.2g}" for b, v in p.items())
                   + f" (N = {n} per BER; decided at Lawson's alpha {ALPHA}, §2.8 item 3)",
                   explanation="" if ok else
                   f"at {', '.join(f'{b:.0e}' for b in weak)} our techniques' runs overlap: see those BERs' "
                   "Kruskal-Wallis tables for the throughput order and Tables 12-30 for its causes")


def _ranks_close(tables: list[Table]) -> Finding:
    checked = [(t, r) for t in tables for r in t.rows if r.label in KRUSKAL[(1e-5, "128k")]]
    off = [(t, r) for t, r in checked if not abs(r.ours - r.published) <= RANK_TOLERANCE]
    worst = sorted(off, key=lambda tr: -abs(tr[1].ours - tr[1].published))[:4]
    evidence = f"{len(checked) - len(off)} of {len(checked)} mean ranks within {RANK_TOLERANCE:.0f} of Lawson's"
    if worst:
        evidence += "; largest gaps: " + ", ".join(f"{_scenario(t)} {r.label} {r.ours:.0f} against {r.published:.1f}"
                                                   for t, r in worst)
    causes = {_scenario(t): r.explanation for t, r in off}
    return Finding("The Kruskal-Wallis rank sums are reproduced approximately", "004.md §5.3 item 4, §3.2", not off,
                   evidence, explanation="" if not off else "Tables 12-30 give each throughput row's cause; "
                   + "; ".join(f"{s}: {c}" for s, c in causes.items()))


def _scenario(table: Table) -> str:
    return table.title.split(" — ")[1].split(":")[0].replace(" BER", "")
