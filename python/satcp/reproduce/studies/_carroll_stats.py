"""Carroll 2004's statistics tables beside ours (000.md §4.3-4.12): the paired
t-test (Table 6), the allocations of variation (Tables 7, 11, 15) and the
effects, deviations from the grand mean (Tables 8, 12, 16). The statistics
are satcp.stats'; this module types in the published numbers and says why
ours differ."""

from __future__ import annotations

import itertools

import pandas as pd
from scipy import stats

from ...stats.anova import allocation_of_variation, effects
from ...stats.descriptive import paired_t
from ..model import Row, Table

#: factor codes as Carroll's ANOVA tables abbreviate them (000.md §4.4, §4.11)
NAMES = {"N": "# Clients", "F": "TCP Flavor", "D": "Delay", "E": "Error Rate", "A": "CETEN-R"}
LEVELS = {"N": ("1", "4"), "F": ("newreno", "reno"), "D": ("320ms", "50ms"),
          "E": ("1e-05", "1e-06", "1e-07"), "A": ("Off", "On")}
#: an ANOVA share differs "beyond tolerance" when it is off by more than this many
#: percentage points and by more than this fraction of the published share
SHARE_POINTS, SHARE_FRACTION = 1.0, 0.10

# ---- published numbers, typed in once ----
#: Table 6 (§4.3): one client, New Reno, 320 ms, 1e-7, replications 1-5: (On, Off) b/s
TABLE6 = ((137847.00, 132562.30), (135952.40, 132253.60), (136665.10, 134581.60),
          (139072.80, 136032.10), (133091.10, 135810.40))
#: Tables 7 (§4.4), 11 (§4.8), 15 (§4.11): % of variation per component, in printed order
ANOVA = {
    7: {"Main effects": 79.240, "F": 0.048, "D": 40.382, "E": 38.700, "A": 0.110,
        "First-order interactions": 20.596, "FD": 0.023, "FE": 0.041, "FA": 0.099, "DE": 20.267,
        "DA": 0.062, "EA": 0.103, "Second-order interactions": 0.145, "FDE": 0.023, "FDA": 0.050,
        "FEA": 0.013, "DEA": 0.059, "Third-order interactions": 0.008, "FDEA": 0.008, "Errors": 0.012},
    11: {"Main effects": 87.504, "F": 0.042, "D": 44.333, "E": 42.909, "A": 0.220,
         "First-order interactions": 12.357, "FD": 0.006, "FE": 0.023, "FA": 0.050, "DE": 11.963,
         "DA": 0.098, "EA": 0.217, "Second-order interactions": 0.121, "FDE": 0.011, "FDA": 0.001,
         "FEA": 0.012, "DEA": 0.097, "Third-order interactions": 0.015, "FDEA": 0.015, "Errors": 0.003},
    15: {"Main effects": 73.306, "N": 3.733, "F": 0.039, "D": 35.866, "E": 33.545, "A": 0.122,
         "First-order interactions": 22.007, "NF": 0.005, "ND": 3.741, "NE": 4.491, "NA": 0.004,
         "FD": 0.014, "FE": 0.025, "FA": 0.070, "DE": 13.491, "DA": 0.063, "EA": 0.104,
         "Second-order interactions": 4.616, "NDE": 4.480, "All others": 0.136,
         "Third-order interactions": 0.053, "Fourth-order interactions": 0.011, "Errors": 0.010},
}
#: Tables 8 (§4.5), 12 (§4.9), 16 (§4.12): effect estimates in b/s, one level of each two-level
#: factor typed (the table prints the other level as its negative); Table 8's intercept is
#: 250555, not the text's "25055" (§6.3)
EFFECTS = {
    8: {"": {(): 250555}, "F": {("newreno",): 5966}, "D": {("320ms",): -173526}, "A": {("Off",): -9050},
        "E": {("1e-05",): -205142, ("1e-06",): -5703, ("1e-07",): 210846},
        "DE": {("320ms", "1e-05"): 148522, ("320ms", "1e-06"): 3998, ("320ms", "1e-07"): -152519}},
    12: {"": {(): 165922}, "F": {("newreno",): 2737}, "D": {("320ms",): -88806}, "A": {("Off",): -6250},
         "E": {("1e-05",): -121185, ("1e-06",): 39723, ("1e-07",): 81462},
         "DE": {("320ms", "1e-05"): 64432, ("320ms", "1e-06"): -41077, ("320ms", "1e-07"): -23355}},
    16: {"N": {("1",): 42317}, "D": {("320ms",): -131166},
         "E": {("1e-05",): -163164, ("1e-06",): 17010, ("1e-07",): 146154},
         "ND": {("1", "320ms"): -42360}, "NE": {("1", "1e-05"): -41979, ("1", "1e-06"): -22713,
                                                 ("1", "1e-07"): 64692},
         "DE": {("320ms", "1e-05"): 106477, ("320ms", "1e-06"): -18540, ("320ms", "1e-07"): -87937},
         "NDE": {("1", "320ms", "1e-05"): 42045, ("1", "320ms", "1e-06"): 22538,
                 ("1", "320ms", "1e-07"): -64582}},
}
#: their standard errors (terms without, with the three-level error rate) and error d.o.f.
EFFECT_SE = {8: (305.81, 432.48, 96), 12: (80.14, 113.34, 96), 16: (158, 224, 192)}


def factor_frame(df: pd.DataFrame) -> pd.DataFrame:
    """Rows with columns clients, flavour, path.delay, ber, ceten (bool) and
    goodput_bps, as Carroll's factors with string levels (LEVELS)."""
    return pd.DataFrame({NAMES["N"]: df.clients.astype(int).astype(str), NAMES["F"]: df.flavour,
                         NAMES["D"]: df["path.delay"], NAMES["E"]: df.ber.map(lambda b: f"{b:.0e}"),
                         NAMES["A"]: df.ceten.map({True: "On", False: "Off"}),
                         "goodput_bps": df.goodput_bps.astype(float), "replication": df.get("replication", 0)})


# ---- Table 6 ----

def paired_table(ours: pd.DataFrame) -> tuple[Table, dict]:
    """Table 6 from ``ours``: one-client New Reno, 320 ms, 1e-7 runs, paired by replication."""
    cell = ours[(ours[NAMES["N"]] == "1") & (ours[NAMES["F"]] == "newreno") & (ours[NAMES["D"]] == "320ms")
                & (ours[NAMES["E"]] == "1e-07")]
    on, off = (cell[cell[NAMES["A"]] == lv].sort_values("replication").goodput_bps.to_numpy()
               for lv in ("On", "Off"))
    o = paired_t(on, off, level=0.90)
    p = paired_t(*zip(*TABLE6), level=0.90)
    table = Table("Table 6 — paired t-test, one client, New Reno, 320 ms, BER 1e-7: CETEN-R On − Off",
                  "000.md §4.3, thesis Table 6", "b/s", spread_kind="90% CI",
                  note="Replication i On paired with replication i Off, as Carroll pairs them. His statistics "
                       "are recomputed from his five pairs: SD 3027.02 (the text's 3072.02 is a typo) and the "
                       "exact CI (−608.46, 5163.82), not the text's (−607.45, 5164.81) (000.md §6.3).")
    half = lambda t: (t["ci_high"] - t["ci_low"]) / 2
    rows = [Row("Mean difference", o["mean_diff"], p["mean_diff"], ours_ci=half(o), published_spread=half(p)),
            Row("SD of the differences", o["sd_diff"], p["sd_diff"]),
            Row("t (paired)", o["t"], p["t"]),
            Row("90% CI, low", o["ci_low"], p["ci_low"]), Row("90% CI, high", o["ci_high"], p["ci_high"])]
    gain, his_gain = o["mean_diff"] / off.mean(), p["mean_diff"] / (sum(b for _, b in TABLE6) / len(TABLE6))
    for row in rows:
        if row.within_spread is False or (row.within_spread is None and not 0.5 < (row.ratio or 0) < 2):
            row.explanation = _why_paired(row.label, gain, his_gain, o, p)
    table.rows += rows
    return table, o


def _why_paired(label: str, gain: float, his_gain: float, o: dict, p: dict) -> str:
    if label == "SD of the differences" and o["sd_diff"] < p["sd_diff"]:
        return ("our On and Off runs share their random numbers (seeds = \"common\"), so the pairs differ "
                "in CETEN-R only; Carroll's CETEN-R draws from OPNET's one uniform stream, which unpairs "
                "his runs (000.md §6.1 item 8)")
    return (f"CETEN-R gains {gain:+.1%} here in ours against {his_gain:+.1%} in Carroll's: our window-limited "
            "New Reno (20 x 536 B) loses more to a single corruption loss than OPNET's, so not halving "
            "the window is still worth something at 1e-7 (Table 5), which moves the mean, t and the CI"
            + ("; our pairs' smaller SD (common random numbers) narrows the CI" if o["sd_diff"] < p["sd_diff"] else ""))


# ---- Tables 7, 11, 15 ----

def anova_table(number: int, ours: pd.DataFrame, published: pd.DataFrame, codes: str) -> tuple[Table, dict]:
    """Carroll's Table ``number`` from ``ours`` (the observations) over the
    factors ``codes``; ``published`` are his cell means for the explanations."""
    factors = [NAMES[c] for c in codes]
    aov = allocation_of_variation(ours, factors)
    shares = {c: float(v) for c, v in zip(aov.component, aov.pct_variation)}
    shares["All others"] = shares["Second-order interactions"] - shares.get(_name("NDE"), 0.0)
    who = "one-client" if number == 7 else "four-client" if number == 11 else "all homogeneous"
    table = Table(f"Table {number} — ANOVA, {who} experiments: % of variation", _source(number), "%",
                  note="Allocation of variation (Jain 1991). Carroll gives no spread for a share; a row "
                       f"is explained when ours is off by more than {SHARE_POINTS:g} percentage point and "
                       f"{SHARE_FRACTION:.0%} of his share. F ratios are not compared (Table 15's "
                       "fourth-order F does not follow from its own SS, 000.md §6.3).")
    o, p = _profile(ours), _profile(published)
    for key, pub in ANOVA[number].items():
        name = _name(key) if key.isupper() else key
        label = key if name == key else name
        if key == "All others":
            label = "Second-order: all others"
        row = Row(label, shares[name], pub)
        if abs(row.ours - pub) > max(SHARE_POINTS, SHARE_FRACTION * pub):
            row.explanation = _cause(key, o, p)
        table.rows.append(row)
    return table, {(_code(k) or k): v for k, v in shares.items()}


def _name(code: str) -> str:
    return " x ".join(NAMES[c] for c in code)


def _code(name: str) -> str:
    back = {v: k for k, v in NAMES.items()}
    parts = name.split(" x ")
    return "".join(back[x] for x in parts) if all(x in back for x in parts) else ""


def _source(number: int) -> str:
    section = {6: "4.3", 7: "4.4", 8: "4.5", 11: "4.8", 12: "4.9", 15: "4.11", 16: "4.12"}[number]
    return f"000.md §{section}, thesis Table {number}"


def _profile(df: pd.DataFrame) -> dict:
    """What moves the shares and effects: level-mean differences (b/s), CETEN-R's and four clients' ratios."""
    m = {c: df.groupby(NAMES[c]).goodput_bps.mean() for c in NAMES if df[NAMES[c]].nunique() > 1}
    out = {"mean": df.goodput_bps.mean(), "D": m["D"]["50ms"] - m["D"]["320ms"],
           "E": m["E"]["1e-07"] - m["E"]["1e-05"], "A": m["A"]["On"] / m["A"]["Off"] - 1,
           "F": m["F"]["newreno"] - m["F"]["reno"]}
    if "N" in m:
        out["N"] = m["N"]["4"] / m["N"]["1"]
    return out


def _cause(key: str, o: dict, p: dict) -> str:
    """Why a share or an effect of the term ``key`` differs from Carroll's, with the numbers that show it."""
    if "A" in key and key.isupper():
        return (f"CETEN-R raises the mean goodput by {o['A']:+.0%} in ours against {p['A']:+.0%} in Carroll's: "
                "our CETEN-R flows keep their window through most losses at 1e-6 and 1e-5 (Tables 4-5, 9-10); "
                "its gain alpha and the routers' sampling are not given (000.md §6.1)")
    if "N" in key and key.isupper():
        return (f"four clients get {o['N']:.0%} of one client's mean per-client goodput in ours against "
                f"{p['N']:.0%} in Carroll's (Tables 13-14): our one window-limited client and the four "
                "sharing one 1.544 Mb/s link differ from his as Tables 4-5 and 9-10 explain")
    if key == "F":
        return (f"New Reno minus Reno: ours {o['F']:+,.0f} b/s against Carroll's {p['F']:+,.0f}: satcp's CETEN-R "
                "grows and backs off as Reno whichever flavour it extends (tcp/cc/ceten.rs), so our flavours "
                "differ only without it")
    if key == "Errors":
        return ("the spread between replications relative to the total: each cell's own spread is compared "
                "row by row in Tables 4-5 and 9-10 (ours vary only in the error seed, as his did, §3.5)")
    return (f"50 ms minus 320 ms: ours {o['D']:,.0f} b/s against Carroll's {p['D']:,.0f}; 1e-7 minus 1e-5: ours "
            f"{o['E']:,.0f} against {p['E']:,.0f}; grand mean ours {o['mean']:,.0f} against {p['mean']:,.0f}. "
            "The shares are relative, so CETEN-R's larger part in ours and our cells' differences from his "
            "(Tables 4-5, 9-10, explained there) move variation between delay and error rate")


# ---- Tables 8, 12, 16 ----

def effects_table(number: int, ours: pd.DataFrame, published: pd.DataFrame, codes: str) -> Table:
    """Carroll's Table ``number``: the effects he printed, ours beside them with 90% CIs from the SEs."""
    factors = [NAMES[c] for c in codes]
    terms = [k for k in EFFECTS[number] if k]
    est = effects(ours, factors, terms=[tuple(NAMES[c] for c in k) for k in terms]).set_index("term")
    se1, se2, dof = EFFECT_SE[number]
    t_pub, t_ours = (float(stats.t.ppf(0.95, d)) for d in (dof, len(ours) - ours.groupby(factors).ngroups))
    who = {8: "one-client", 12: "four-client", 16: "all homogeneous"}[number]
    table = Table(f"Table {number} — {who} effects: deviation from the grand mean", _source(number), "b/s",
                  spread_kind="90% CI",
                  note=f"Jain's effects (satcp.stats.effects); the 90% CIs are t(0.95; d.o.f. of the error) x "
                       f"SE, his SE {se1:g} ({se2:g} for terms with the error rate) on {dof} d.o.f.")
    o, p = _profile(ours), _profile(published)
    for key, typed in EFFECTS[number].items():
        for levels, pub in _expand(key, typed):
            name = " x ".join(f"{NAMES[c]}[{lv}]" for c, lv in zip(key, levels)) or "Intercept"
            row = Row(name, float(est.loc[name, "estimate"]), pub, ours_ci=t_ours * float(est.loc[name, "se"]),
                      published_spread=t_pub * (se2 if "E" in key else se1))
            if row.within_spread is False:
                row.explanation = _cause(key or "mean", o, p)
            table.rows.append(row)
    return table


def _expand(key: str, typed: dict):
    """(levels, estimate) for every level combination of the term, in printed order: a two-level
    factor's other level has the typed estimate's sign flipped (effects sum to zero)."""
    base = next(iter(typed))
    for combo in itertools.product(*(LEVELS[c] for c in key)):
        flips = sum(len(LEVELS[c]) == 2 and lv != b for c, lv, b in zip(key, combo, base))
        typed_key = tuple(b if len(LEVELS[c]) == 2 else lv for c, lv, b in zip(key, combo, base))
        yield combo, (-1) ** flips * typed[typed_key]
