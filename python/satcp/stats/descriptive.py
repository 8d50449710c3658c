"""Per design point: mean, standard deviation, standard error and a t-based
confidence interval; percentage differences between the levels of a factor
and the paired t-test of each level against a baseline."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["describe", "t_interval", "paired_t", "compare", "StatsError"]


class StatsError(ValueError):
    """A request the data cannot answer (a missing column, too few runs)."""


def _need(df: pd.DataFrame, columns) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise StatsError(f"no column `{missing[0]}`; columns: {', '.join(map(str, df.columns))}")


def t_interval(mean: float, sd: float, n: int, level: float) -> tuple[float, float]:
    """mean +- t_{(1+level)/2; n-1} sd / sqrt(n): the interval Carroll (000.md
    §3.6: t_{0.95;4} = 2.132 for 90 %) and Lawson (t with 29 df, 95 %) print."""
    if n < 2 or not math.isfinite(sd):
        return (math.nan, math.nan)
    if sd == 0:
        return (mean, mean)
    return tuple(float(x) for x in stats.t.interval(level, n - 1, loc=mean, scale=sd / math.sqrt(n)))


def describe(df: pd.DataFrame, metric: str = "goodput_bps", by: list[str] | None = None,
             level: float = 0.95) -> pd.DataFrame:
    """One row per combination of ``by`` (the factors, by default) in the
    order they first appear: n, mean, sd, var, se (sd/sqrt n), the
    ``level`` confidence interval and its half width."""
    by = list(df.attrs.get("factors", [])) if by is None else list(by)
    _need(df, [*by, metric])
    _check_level(level)
    rows = []
    groups = df.groupby(by, sort=False, dropna=False) if by else [((), df)]
    for key, g in groups:
        values = g[metric].astype(float).to_numpy()
        values = values[~np.isnan(values)]
        n = len(values)
        mean = float(values.mean()) if n else math.nan
        sd = float(values.std(ddof=1)) if n > 1 else math.nan
        low, high = t_interval(mean, sd, n, level)
        key = key if isinstance(key, tuple) else (key,)
        rows.append({**dict(zip(by, key)), "n": n, "mean": mean, "sd": sd, "var": sd * sd,
                     "se": sd / math.sqrt(n) if n > 1 else math.nan,
                     "ci_low": low, "ci_high": high, "half_width": (high - low) / 2})
    return pd.DataFrame(rows)


def _check_level(level: float) -> None:
    if not 0 < level < 1:
        raise StatsError(f"confidence level {level}; accepted: between 0 and 1, such as 0.9 or 0.95")


def paired_t(a, b, level: float = 0.95) -> dict:
    """The paired t-test of ``a`` against ``b`` (equal-length sequences,
    pair i being replication i of each), as Carroll's Table 6: the
    differences' mean, variance, sd, the ``level`` CI of their mean, and
    scipy's t statistic and two-sided p."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise StatsError(f"paired samples differ in size ({len(a)} and {len(b)})")
    d = a - b
    n = len(d)
    mean = float(d.mean()) if n else math.nan
    var = float(d.var(ddof=1)) if n > 1 else math.nan
    sd = math.sqrt(var) if n > 1 else math.nan
    low, high = t_interval(mean, sd, n, level)
    if n > 1 and sd > 0:
        test = stats.ttest_rel(a, b)
        t, p = float(test.statistic), float(test.pvalue)
    else:
        t = p = math.nan
    return {"n": n, "mean_diff": mean, "var_diff": var, "sd_diff": sd,
            "se_diff": sd / math.sqrt(n) if n > 1 else math.nan,
            "ci_low": low, "ci_high": high, "t": t, "p": p}


def compare(df: pd.DataFrame, factor: str, metric: str = "goodput_bps", baseline=None,
            by: list[str] | None = None, level: float = 0.95, pair_on: str = "replication") -> pd.DataFrame:
    """Each level of ``factor`` against ``baseline`` (its first level by
    default), within each combination of the other factors: both means, the
    percentage difference 100 (mean/baseline - 1) (as Carroll's "+77.5 %"
    and Lawson's improvement over TCP, 004.md §2.8), and the paired t-test
    with replication i of one level paired with replication i of the other."""
    factors = list(df.attrs.get("factors", []))
    by = [f for f in factors if f != factor] if by is None else list(by)
    _need(df, [factor, metric, pair_on, *by])
    _check_level(level)
    levels = _levels(df, factor)
    if baseline is None:
        baseline = levels[0]
    else:
        baseline = _match_level(baseline, levels, factor)
    rows = []
    groups = df.groupby(by, sort=False, dropna=False) if by else [((), df)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        base = g[g[factor] == baseline].set_index(pair_on)[metric].astype(float)
        for lv in levels:
            if lv == baseline:
                continue
            other = g[g[factor] == lv].set_index(pair_on)[metric].astype(float)
            if other.empty or base.empty:
                continue
            common = base.index.intersection(other.index).sort_values()
            base_mean, mean = float(base.mean()), float(other.mean())
            test = paired_t(other.loc[common].to_numpy(), base.loc[common].to_numpy(), level)
            rows.append({**dict(zip(by, key)), factor: lv, "baseline": baseline, "mean": mean,
                         "baseline_mean": base_mean,
                         "pct_diff": 100 * (mean / base_mean - 1) if base_mean else math.nan,
                         **{("pairs" if k == "n" else k): v for k, v in test.items()},
                         "differs": bool(test["ci_low"] > 0 or test["ci_high"] < 0)})
    if not rows:
        raise StatsError(f"nothing to compare: `{factor}` has no level besides {baseline!r} with runs")
    return pd.DataFrame(rows)


def _levels(df: pd.DataFrame, factor: str) -> list:
    declared = df.attrs.get("levels", {}).get(factor)
    present = list(pd.unique(df[factor]))
    if declared:
        return [lv for lv in declared if any(lv == p for p in present)] + [
            p for p in present if not any(p == lv for lv in declared)]
    return present


def _match_level(text, levels: list, factor: str):
    for lv in levels:
        if lv == text or str(lv) == str(text):
            return lv
    for lv in levels:
        try:
            if float(lv) == float(text):
                return lv
        except (TypeError, ValueError):
            pass
    raise StatsError(f"`{factor}` has no level {text!r}; accepted: {', '.join(map(str, levels))}")
