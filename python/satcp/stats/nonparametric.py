"""The Kruskal-Wallis H-test as Lawson reports it (004.md §2.8, §3.2): per
level the count, score sum and score mean (rank sums with midranks for
ties, which JMP prints), and the test's H (tie-corrected), degrees of
freedom and p-value, from scipy."""

from __future__ import annotations

import math

import pandas as pd
from scipy import stats

from .descriptive import StatsError, _levels, _need

__all__ = ["kruskal_wallis"]


def kruskal_wallis(df: pd.DataFrame, factor: str, metric: str = "goodput_bps",
                   by: list[str] | None = None) -> pd.DataFrame:
    """One row per level of ``factor`` within each combination of ``by``
    (the other factors, by default): n, score_sum, score_mean; and the
    group's H, dof and p."""
    by = [f for f in df.attrs.get("factors", []) if f != factor] if by is None else list(by)
    _need(df, [factor, metric, *by])
    levels = _levels(df, factor)
    rows = []
    groups = df.groupby(by, sort=False, dropna=False) if by else [((), df)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        g = g[[factor, metric]].dropna()
        ranks = stats.rankdata(g[metric].astype(float).to_numpy())   # midranks for ties
        samples = [g[metric][g[factor] == lv].astype(float).to_numpy() for lv in levels]
        present = [(lv, s) for lv, s in zip(levels, samples) if len(s)]
        if len(present) < 2:
            continue
        try:
            h, p = stats.kruskal(*(s for _, s in present))
        except ValueError:   # every value identical: no ranking to test
            h, p = math.nan, math.nan
        for lv, sample in present:
            mask = (g[factor] == lv).to_numpy()
            total = float(ranks[mask].sum())
            rows.append({**dict(zip(by, key)), factor: lv, "n": int(mask.sum()), "score_sum": total,
                         "score_mean": total / mask.sum(), "H": float(h), "dof": len(present) - 1, "p": float(p)})
    if not rows:
        raise StatsError(f"Kruskal-Wallis needs runs at two or more levels of `{factor}`")
    return pd.DataFrame(rows)
