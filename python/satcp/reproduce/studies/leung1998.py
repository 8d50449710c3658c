"""Leung 1998, TCP RFC, Reno and Vegas over a GEO satellite link
(../shared/seed-notes/002.md, chapter 4): his MTWS, MAD and MSS sweeps
(Tables 4.2-4.4) and the optimised comparisons over PLR and end-to-end
delay (Tables 4.5, 4.6), re-run from scenarios/studies/leung1998/.

and, from the mobile chapter (002.md §4.2), Tables 5.1 and 5.3
(_leung_mobile.py)."""

from __future__ import annotations

import math
import pathlib
import time

from ..model import Figure, Finding, Row, StudyReport, Table
from . import _leung_mobile
from ._sim import DESIGNS, bar_figure, mean_ci, run_design, tied_why
from ._sim import near as is_near
from ._sim import series as _series

name = "leung1998"
title = ("E. Y. F. Leung, \"Modeling and analysis of TCP in satellite and mobile data networks "
         "interworking with the Internet\", MASc thesis, University of British Columbia, 1998 (OPNET)")
summary = "TCP RFC, Reno and Vegas over a lossy T1 GEO link: optimal window, ACK delay, segment size"

HERE = DESIGNS / "leung1998"
VARIANTS = {"vegas": "TCP Vegas", "reno": "TCP Reno", "rfc": "TCP RFC"}
PLR_LABEL = {"clear": "clear sky", "0.001": "PLR 0.001", "0.01": "PLR 0.01", "0.02": "PLR 0.02",
             "0.04": "PLR 0.04", "0.06": "PLR 0.06"}
KB = 1000   # Kbytes/sec as 1000 B/s (002.md §6.2 C.28 leaves the base open)

# ---- published numbers, typed in once (002.md §3.4, §4.1) ----
#: Table 4.2: (PLR, variant) -> (optimal MTWS in KB, throughput in Kbytes/s); MSS 512, MAD 10 ms.
#: The clear-sky Vegas 78.52 is likely a typo or swap (002.md §6.2 C.19): kept, not used in findings.
TABLE_4_2 = {("clear", "vegas"): (128, 78.52), ("clear", "reno"): (128, 130.15), ("clear", "rfc"): (24, 11.89),
             ("0.001", "vegas"): (88, 108.79), ("0.001", "reno"): (64, 34.19), ("0.001", "rfc"): (16, 8.27),
             ("0.01", "vegas"): (64, 42.76), ("0.01", "reno"): (16, 7.26), ("0.01", "rfc"): (8, 4.39)}
#: Table 4.3: (PLR, variant) -> (optimal MAD in ms, throughput in Kbytes/s); MTWS 128 KB, MSS 512.
TABLE_4_3 = {("clear", "vegas"): (20, 145.47), ("clear", "reno"): (2, 66.76), ("clear", "rfc"): (0.5, 17.67),
             ("0.001", "vegas"): (10, 102.55), ("0.001", "reno"): (1, 53.48), ("0.001", "rfc"): (0.1, 15.12),
             ("0.01", "vegas"): (10, 46.54), ("0.01", "reno"): (1, 15.57), ("0.01", "rfc"): (0.1, 5.82)}
#: Table 4.4: variant -> (MTWS KB, MAD ms, MSS B). RFC's MAD: the table's 0.5 ms, not the text's 0.1 (C.20).
TABLE_4_4 = {"vegas": (128, 10, 1458), "reno": (80, 2, 1458), "rfc": (16, 0.5, 1458)}
#: Table 4.5: (PLR, variant) -> Kbytes/s at the optimum (ETE 0.3 s: the text, not the title's 0.35, C.21)
TABLE_4_5 = {("clear", "vegas"): 170.31, ("clear", "reno"): 138.56, ("clear", "rfc"): 23.06,
             ("0.02", "vegas"): 63.61, ("0.02", "reno"): 25.66, ("0.02", "rfc"): 10.31,
             ("0.04", "vegas"): 37.42, ("0.04", "reno"): 14.31, ("0.04", "rfc"): 7.3,
             ("0.06", "vegas"): 26.16, ("0.06", "reno"): 10.26, ("0.06", "rfc"): 5.65}
#: Table 4.6: (ETE delay s, variant) -> Kbytes/s at the optimum, PLR 0.001
TABLE_4_6 = {(0.35, "vegas"): 147.82, (0.35, "reno"): 105.52, (0.35, "rfc"): 18.57,
             (0.65, "vegas"): 102.23, (0.65, "reno"): 69.13, (0.65, "rfc"): 8.87,
             (0.85, "vegas"): 81.69, (0.85, "reno"): 53.45, (0.85, "rfc"): 6.71}
#: No spread was published: a row further than this from his value (as a ratio) carries its cause.
OFF = 0.10


def run(out: pathlib.Path, *, quick: bool, workers: int | None) -> StudyReport:
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    # A 30 MB run takes about 0.05 s, so --quick keeps his transfer size and
    # cuts the replications from 5 to 3 (t intervals need at least 3 to mean much).
    reps = 3 if quick else None
    runs = {d: _kbytes(run_design(HERE / f"{d}.toml", out, replications=reps, workers=workers))
            for d in ("mtws", "mad", "mss", "optimal", "ete")}
    mobile = _leung_mobile.run(out, replications=reps, workers=workers)
    rep = StudyReport(study=name, title=title, quick=quick)
    rep.notes += [
        "Single-path model of his satellite network (002.md §6.2 A.9, A.10): the flow's own overflow of the "
        "bottleneck's 30 KB buffer stands in for his Internet congestion losses (tcplib background traffic is "
        "not modelled); the ETE delay is a constant; MAD is a delayed-ACK timer over two segments (B.16). "
        "Each assumption is commented beside its key in scenarios/studies/leung1998/. His congestion "
        "probability (0.04-0.05, C.23) cannot be a per-packet loss rate of his flow: at p = 0.04, MSS 512 and "
        "RTT 0.6 s Mathis's bound (MSS/RTT x 1.22/sqrt(p)) is about 5 Kbytes/s, against his clear-sky Reno "
        "of 130 Kbytes/s; so no per-packet congestion loss is added.",
        "P_D levels set BER_R by eq. (1) with b = 0.01, g = 0.05, BER_C = 1e-8 (A.3); the ACK channel has its "
        "own chain (A.4). MSS 1460 is not run: the simulator does not fragment IP datagrams (B.18).",
        "Mobile chapter: Tables 5.1 and 5.3 on scenarios/leung-mobile-cdpd.toml, our reading of his channel "
        "(fading at 850 MHz and -10 dB, a packet meeting the BER of the states its air time falls in, 50 ms "
        "delay: A.5-A.7). Not re-run: Table 5.2 (MAD, whose rows conflict, C.25), Table 5.4 (the joint "
        "optimum over MTWS x MAD x MSS) and P-TCP (§2.6).",
        "His optimum of Table 4.4 is over the PLR range; ours is the level with the highest mean throughput "
        "over PLR 0.001 and 0.01. 'Near' means within one level of our grid, or not distinguishable from our "
        "best: within 1% of it, or the paired difference's 95% t interval holds 0 (replications share their random "
        "numbers), as he calls close curves 'too close to be "
        "statistically different'.",
    ]
    if quick:
        rep.notes.append("--quick: 3 replications per point instead of 5; transfers keep his 30 MB.")
    optima = {"mtws": _optima(runs["mtws"], "flow.0.rwnd"), "mad": _optima(runs["mad"], "flow.0.delayed_ack_timeout"),
              "mss": _optima(runs["mss"], "flow.0.mss")}
    rep.tables += _sweep_tables(runs["mtws"], "flow.0.rwnd", TABLE_4_2, "Table 4.2", "MTWS", "KB", _kib)
    rep.tables += _sweep_tables(runs["mad"], "flow.0.delayed_ack_timeout", TABLE_4_3, "Table 4.3", "MAD", "ms", _ms)
    rep.tables.append(_optimum_table(optima))
    rep.tables += _optimal_tables(runs["optimal"], "plr", TABLE_4_5, "Table 4.5", "P_D")
    rep.tables += _optimal_tables(runs["ete"], "path.delay", TABLE_4_6, "Table 4.6", "ETE delay")
    rep.tables += _leung_mobile.tables(mobile)
    rep.findings += _vegas_findings(runs)
    rep.findings += _optimum_findings(optima)
    rep.findings += _sensitivity_findings(optima, runs["ete"])
    rep.findings += _leung_mobile.findings(mobile)
    rep.figures.append(_figure(runs["optimal"], out))
    rep.runs = sum(df.attrs["runs"] for df in [*runs.values(), *mobile.values()])
    rep.wall_s = time.perf_counter() - started
    return rep


# ---------------------------------------------------------------- data


def _kbytes(df):
    df["kbytes"] = df["goodput_bps"] / 8 / KB
    return df


def _kib(level: str) -> float:
    return float(level.removesuffix("KiB"))


def _ms(level: str) -> float:
    return float(level.removesuffix("ms"))


def _seconds(level: str) -> float:
    return float(level.removesuffix("ms")) / 1000


def _cells(df, *by) -> dict:
    """(levels...) -> (mean Kbytes/s, 95% half width)."""
    return {k if isinstance(k, tuple) else (k,): mean_ci(g["kbytes"]) for k, g in df.groupby(list(by), sort=False)}


def _optima(df, factor: str) -> dict:
    """variant -> (best level, per-replication series by level) over the lossy
    PLRs (Table 4.4's range): each replication's mean over P_D 0.001 and 0.01."""
    lossy = df[df["plr"] != "clear"]
    out = {}
    for v, g in lossy.groupby("variant", sort=False):
        series = _series(g, factor)
        out[v] = (max(series, key=lambda lvl: series[lvl].mean()), series)
    return out


def _off(ours: float, pub: float) -> bool:
    return abs(ours / pub - 1) > OFF


# ---------------------------------------------------------------- tables


#: Why our throughput differs from his, by cause (002.md §6.2)
WHY = {
    "rfc-high": ("his TCP RFC was held down by Internet congestion losses even in clear sky (§4.1, Fig 4.4); "
                 "without his background traffic (A.9) ours meets only the channel's errors"),
    "low": ("at this P_D a 20-packet rain fade loses several segments of one window; with no SACK, recovery "
            "falls to the 500 ms coarse timer and its backoff (his Vegas backoff pauses, §2.4), so ours "
            "is lower; his per-packet chain may have stepped on data and ACKs together (A.4)"),
    "high": ("no background traffic competes for the bottleneck here (A.9), so the flow keeps more of the "
             "T1 than in his Internet model"),
    "clear": ("in clear sky only BER_C = 1e-8 and the 30 KB buffer cause losses (A.3, A.9); his Internet "
              "congestion losses are not modelled, and window growth from 64 KB at one segment per RTT "
              "(ACKs every second segment, B.16) takes most of the transfer"),
    "c19": "his clear-sky Vegas value is likely a typo or swap (002.md §6.2 C.19)",
}


def _why(variant: str, plr: str, ours: float, pub: float, *, timeouts: float, c19: bool = False) -> str:
    if c19:
        return WHY["c19"]
    if not _off(ours, pub):
        return ""
    if variant == "rfc" and ours > pub:
        return WHY["rfc-high"]
    if plr == "clear":
        return WHY["clear"]
    if ours < pub:
        return WHY["low"] + f" (these runs averaged {timeouts:.0f} coarse timeouts per transfer)"
    return WHY["high"]


def _timeouts(df, *by) -> dict:
    return {k if isinstance(k, tuple) else (k,): float(g["timeouts"].mean()) for k, g in df.groupby(list(by), sort=False)}


def _sweep_tables(df, factor: str, published: dict, source: str, what: str, unit: str, value) -> list[Table]:
    levels = list(dict.fromkeys(df[factor]))
    cells = _cells(df, "plr", "variant", factor)
    tos = _timeouts(df, "plr", "variant", factor)
    best_rows, tput_rows = [], []
    for (plr, v), (his_level, his_tput) in published.items():
        mine = {lvl: cells[(plr, v, lvl)] for lvl in levels}
        series = _series(df[(df["plr"] == plr) & (df["variant"] == v)], factor)
        best = max(mine, key=lambda lvl: mine[lvl][0])
        label = f"{VARIANTS[v]}, {PLR_LABEL[plr]}"
        his = _level_of(levels, his_level, value)
        near = his is not None and is_near(series, best, his)
        best_rows.append(Row(f"{label}: optimal {what}", value(best), his_level,
                             explanation=tied_why(series, best, his, f"his {his_level:g} {unit}", "Kbytes/s") if near
                             else _optimum_why(v, what, series)))
        if his is None:   # a level he names that our grid lacks
            continue
        mean, ci = mine[his]
        tput_rows.append(Row(f"{label}, {what} {his_level:g} {unit}", mean, his_tput, ours_ci=ci,
                             explanation=_why(v, plr, mean, his_tput, timeouts=tos[(plr, v, his)], c19=(source == "Table 4.2" and
                                                                          (plr, v) == ("clear", "vegas")))))
    cite = f"002.md §4.1, thesis {source}"
    return [Table(f"{source} — optimal {what} per condition", cite, unit, best_rows,
                  note="Ours: the level with the highest mean throughput at that condition."),
            Table(f"{source} — throughput at his optimal {what}", cite, "Kbytes/s", tput_rows,
                  spread_kind="95% CI", note="Kbytes = 1000 bytes (002.md §6.2 C.28).")]


def _level_of(levels: list, his: float, value):
    for lvl in levels:
        if math.isclose(value(lvl), his):
            return lvl
    return None


def _optimum_why(variant: str, what: str, series: dict | None = None) -> str:
    if what == "MAD" and series:
        means = [s.mean() for s in series.values()]
        return (f"our throughput hardly depends on the MAD ({min(means):.1f} to {max(means):.1f} Kbytes/s over "
                "0.1-20 ms): as a delayed-ACK timer (B.16) a MAD below the segment spacing (2.9 ms at MSS 512) "
                "ACKs every segment and a longer one every second segment, nothing between; his receiver's "
                "per-ACK delay, and the out-of-order arrivals his Internet delay model made (§1.4), are not modelled")
    if variant == "rfc" and what == "MTWS":
        return ("his TCP RFC gained nothing above 16 KB because Internet congestion losses cut its window to "
                "one segment (§4.1); without them (A.9) ours keeps gaining from a larger window")
    return ("our throughput curve differs in shape from his (lost) figure: his Internet section, whose "
            "congestion losses and delays shaped it, is not modelled here (A.9, A.10)")


def _optimum_table(optima: dict) -> Table:
    rows = []
    conv = {"mtws": _kib, "mad": _ms, "mss": float}
    for v, (mtws, mad, mss) in TABLE_4_4.items():
        for key, what, unit, his in (("mtws", "MTWS", "KB", mtws), ("mad", "MAD", "ms", mad), ("mss", "MSS", "bytes", mss)):
            best, series = optima[key][v]
            lvl = _level_of(list(series), his, conv[key])
            near = lvl is not None and is_near(series, best, lvl)
            rows.append(Row(f"{VARIANTS[v]}: {what} ({unit})", conv[key](best), his,
                            explanation=tied_why(series, best, lvl, f"his {his:g} {unit}", "Kbytes/s") if near
                            else _optimum_why(v, what, series)))
    return Table("Table 4.4 — the suggested optimal TCP parameters", "002.md §3.4, thesis Table 4.4",
                 "KB / ms / bytes, as each row says", rows,
                 note="Ours: the best mean over P_D 0.001 and 0.01 in the MTWS (MSS 512, MAD 10 ms), MAD "
                      "(MTWS 128 KB, MSS 512) and MSS (each variant at his optimal MTWS and MAD) sweeps.")


def _optimal_tables(df, factor: str, published: dict, source: str, what: str) -> list[Table]:
    cells = _cells(df, factor, "variant")
    tos = _timeouts(df, factor, "variant")
    tput, ratio = [], []
    to_key = (lambda lvl: lvl) if factor == "plr" else _seconds
    for lvl in dict.fromkeys(df[factor]):
        key = to_key(lvl)
        label = PLR_LABEL[lvl] if factor == "plr" else f"ETE {key:g} s"
        for v in VARIANTS:
            mean, ci = cells[(lvl, v)]
            pub = published[(key, v)]
            tput.append(Row(f"{VARIANTS[v]}, {label}", mean, pub, ours_ci=ci,
                            explanation=_why(v, lvl if factor == "plr" else "0.001", mean, pub, timeouts=tos[(lvl, v)])))
            ours_r = mean / cells[(lvl, "rfc")][0]
            pub_r = pub / published[(key, "rfc")]
            ratio.append(Row(f"{VARIANTS[v]} / TCP RFC, {label}", ours_r, pub_r,
                             explanation="" if not _off(ours_r, pub_r) else
                             "the ratios inherit the causes in the throughput rows; TCP RFC's in particular"))
    cite = f"002.md §4.1, thesis {source}"
    return [Table(f"{source} — throughput at the optimal parameters, by {what}", cite, "Kbytes/s", tput,
                  spread_kind="95% CI", note="Each variant at its Table 4.4 MTWS and MAD, MSS 1458."),
            Table(f"{source} — throughput ratio to TCP RFC, by {what}", cite, "x", ratio)]


# ---------------------------------------------------------------- findings


def _vegas_findings(runs: dict) -> list[Finding]:
    out = []
    lossy = []   # (where, vegas, reno, rfc)
    for design, factor in (("optimal", "plr"), ("ete", "path.delay")):
        cells = _cells(runs[design], factor, "variant")
        for lvl in dict.fromkeys(runs[design][factor]):
            if lvl == "clear":
                continue
            where = PLR_LABEL.get(lvl, f"ETE {lvl}")
            lossy.append((where, *(cells[(lvl, v)][0] for v in VARIANTS)))
    ok = all(vg > rn and vg > rf for _, vg, rn, rf in lossy)
    ev = "; ".join(f"{w}: Vegas {vg:.1f}, Reno {rn:.1f}, RFC {rf:.1f}" for w, vg, rn, rf in lossy)
    out.append(Finding("At its optimal parameters TCP Vegas has the highest throughput of the three on the lossy "
                       "satellite link, over P_D and ETE delay", "002.md §4.1 (Tables 4.5, 4.6), §6.1", ok,
                       ev + " Kbytes/s",
                       "" if ok else "Vegas was not ahead everywhere: " + WHY["low"]))
    ratios = [vg / rn for _, vg, rn, _ in lossy]
    ok = all(1.23 <= r for r in ratios)
    out.append(Finding("Vegas is about 23% to 100% better than Reno for PLR 0.001-0.06 and about 40% better over "
                       "the ETE range, after optimisation", "002.md §6.1, Tables 4.5-4.6", ok,
                       "Vegas / Reno: " + ", ".join(f"{w} {r:.2f}" for (w, *_), r in zip(lossy, ratios)),
                       "" if ok else "Vegas's margin over Reno is smaller than his: " + WHY["low"]))
    # Tables 4.2 / 4.3 at PLR 0.001 and 0.01: each variant at its own best level of the sweep
    for design, factor, table, src in (("mtws", "flow.0.rwnd", TABLE_4_2, "Table 4.2"),
                                       ("mad", "flow.0.delayed_ack_timeout", TABLE_4_3, "Table 4.3")):
        cells = _cells(runs[design], "plr", factor, "variant")
        levels = list(dict.fromkeys(runs[design][factor]))
        best = {(plr, v): max(cells[(plr, lvl, v)][0] for lvl in levels) for (plr, v) in table}
        cond = ("0.001", "0.01")
        ok = all(best[(p, "vegas")] > best[(p, "reno")] and best[(p, "vegas")] > best[(p, "rfc")] for p in cond)
        out.append(Finding(f"Vegas's best throughput is above Reno's and TCP RFC's at PLR 0.001 and 0.01 "
                           f"({'MTWS' if design == 'mtws' else 'MAD'} sweep)", f"002.md §4.1, thesis {src}", ok,
                           "; ".join(f"{PLR_LABEL[p]}: " + ", ".join(f"{VARIANTS[v]} {best[(p, v)]:.1f}"
                                                                    for v in VARIANTS) for p in cond) + " Kbytes/s",
                           "" if ok else WHY["low"]))
    return out


def _optimum_findings(optima: dict) -> list[Finding]:
    out = []
    conv = {"mtws": _kib, "mad": _ms, "mss": float}
    for key, what, unit, idx in (("mtws", "window (MTWS)", "KB", 0), ("mad", "ACK delay (MAD)", "ms", 1),
                                 ("mss", "segment size (MSS)", "B", 2)):
        for v in VARIANTS:
            best, series = optima[key][v]
            his = TABLE_4_4[v][idx]
            lvl = _level_of(list(series), his, conv[key])
            ok = lvl is not None and is_near(series, best, lvl)
            curve = ", ".join(f"{conv[key](level):g}: {s.mean():.1f}" for level, s in series.items())
            out.append(Finding(f"The optimal {what} of {VARIANTS[v]} is {his:g} {unit}", "002.md §3.4, thesis Table 4.4",
                               ok, f"ours {conv[key](best):g} {unit}; mean Kbytes/s over P_D 0.001 and 0.01: {curve}",
                               "" if ok else _optimum_why(v, "MTWS" if key == "mtws" else key.upper(), series)))
    return out


def _spread(series: dict) -> float:
    """How much a parameter matters: (best - worst) / best of the mean curve."""
    means = [s.mean() for s in series.values()]
    return (max(means) - min(means)) / max(means)


def _sensitivity_findings(optima: dict, ete) -> list[Finding]:
    out = []
    for key, what, claim, source in (
            ("mtws", "MTWS", "The MTWS matters more for Vegas than for Reno", "002.md §4.1 (§4.6.1)"),
            ("mad", "MAD", "The MAD affects Vegas most and TCP RFC least", "002.md §4.1 (after Table 4.3)"),
            ("mss", "MSS", "The MSS affects Vegas more than Reno", "002.md §4.1 (§4.6.3)")):
        s = {v: _spread(optima[key][v][1]) for v in VARIANTS}
        ok = s["vegas"] > s["reno"] and (key != "mad" or s["reno"] > s["rfc"])
        out.append(Finding(claim, source, ok,
                           f"throughput range over the {what} levels, as a share of the best (P_D 0.001 and 0.01): "
                           + ", ".join(f"{VARIANTS[v]} {x:.0%}" for v, x in s.items()),
                           "" if ok else _sensitivity_why(key)))
    cells = _cells(ete, "variant", "path.delay")
    delays = list(dict.fromkeys(ete["path.delay"]))
    falls = all(cells[(v, a)][0] > cells[(v, b)][0] for v in VARIANTS for a, b in zip(delays, delays[1:]))
    out.append(Finding("Throughput falls as the end-to-end delay grows, for all three", "002.md §4.1 (§4.5, Table 4.6)",
                       falls, "; ".join(f"{VARIANTS[v]}: " + ", ".join(f"{cells[(v, d)][0]:.1f}" for d in delays)
                                        for v in VARIANTS) + f" Kbytes/s at ETE {', '.join(delays)}",
                       "" if falls else "a longer delay did not lower some variant's throughput"))
    return out


def _sensitivity_why(key: str) -> str:
    if key == "mad":
        return ("our Vegas hardly depends on the MAD: as a delayed-ACK timer it only switches between ACKing every "
                "segment and every second one (B.16), and our Vegas sizes its window from RTT measurements "
                "(alpha..beta segments queued), not from the ACK count that moves Reno's and TCP RFC's growth")
    return ("not established: our Reno gains more from larger segments than his did (at one segment per RTT of "
            "growth a larger segment is a larger step); his Internet section, which limited his Reno (A.9), "
            "is not modelled")


# ---------------------------------------------------------------- figure


def _figure(df, out: pathlib.Path) -> Figure:
    cells = _cells(df, "plr", "variant")
    groups = {}
    for v in VARIANTS:
        groups[f"{VARIANTS[v]} (ours)"] = {PLR_LABEL[p]: cells[(p, v)][0] for p in dict.fromkeys(df["plr"])}
        groups[f"{VARIANTS[v]} (Leung)"] = {PLR_LABEL[p]: TABLE_4_5[(p, v)] for p in dict.fromkeys(df["plr"])}
    path = bar_figure("Leung Table 4.5: throughput at the optimal parameters", groups, "Kbytes/s",
                      out / "leung-table-4-5.png")
    return Figure("Throughput of Vegas, Reno and TCP RFC at their optimal parameters, ours beside Leung's", path)
