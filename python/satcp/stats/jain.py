"""Jain's fairness index over the flows of a run (R. Jain, D. Chiu, W. Hawe
1984; Chiu & Jain 1989, as the TCP-ADaLR slides use it, 001.md §2.7):
FI = (sum t_j)^2 / (n sum t_j^2), t_j the throughput of connection j;
1/n <= FI <= 1, 1 when all get the same. The slides call it the *fairness*
index when the connections run the same TCP variant and the *friendliness*
index when they run different ones; the formula is the same."""

from __future__ import annotations

import math

__all__ = ["jain_index", "fairness"]


def jain_index(throughputs) -> float:
    """(sum x)^2 / (n sum x^2); NaN for no flows or all zero. Plain Python:
    the simulator's workers compute it for every run."""
    x = [float(v) for v in throughputs]
    square = math.fsum(v * v for v in x)
    if not x or square == 0:
        return math.nan
    return math.fsum(x) ** 2 / (len(x) * square)


def fairness(df: pd.DataFrame, by: list[str] | None = None, level: float = 0.95,
             column: str = "flow_goodput_bps"):
    """Per design point (``by``: the factors) with more than one flow: the
    index's mean over the replications with its t-based CI, and whether it is
    a fairness (one variant) or friendliness (several) index."""
    import numpy as np
    import pandas as pd

    from .descriptive import _need, t_interval

    by = list(df.attrs.get("factors", [])) if by is None else list(by)
    _need(df, [*by, column])
    data = df[df[column].map(lambda v: v is not None and len(v) > 1)]
    rows = []
    groups = data.groupby(by, sort=False, dropna=False) if by else [((), data)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        index = np.array([jain_index(v) for v in g[column]])
        variants = set()
        if "flow_variant" in g:
            for v in g["flow_variant"]:
                variants.update(v)
        n = len(index)
        mean = float(index.mean())
        sd = float(index.std(ddof=1)) if n > 1 else math.nan
        low, high = t_interval(mean, sd, n, level)
        rows.append({**dict(zip(by, key)), "index": "friendliness" if len(variants) > 1 else "fairness",
                     "flows": int(max(len(v) for v in g[column])), "n": n, "mean": mean, "sd": sd,
                     "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)
