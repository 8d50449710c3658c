"""The allocation of variation of a full factorial design with replications
(R. Jain, *The Art of Computer Systems Performance Analysis*, 1991, ch. 22
"Two-factor full factorial design with replications" and ch. 23 "General
full factorial designs with k factors"; Carroll cites it as [Jai91]), printed as Carroll's
Tables 7 and 8 (000.md §4.4-4.5):

- SSY = sum y^2, SS0 = N ybar^2, SST = SSY - SS0 = the variation to explain;
- each main effect and interaction: its sum of squares, its share of SST
  (percentage of variation), degrees of freedom, F = (SS/df)/MSE and Prob>F;
  main effects and each order of interaction also as group totals;
- SSE, the variation within cells (experimental error).

The sums of squares, F and p come from statsmodels (OLS with sum-to-zero
contrasts, ``anova_lm``); for a balanced full factorial every type of sum of
squares is the same, and equals Jain's. The effects (Table 8) are deviations
from the grand mean, alpha_j = ybar_j - ybar and, for interactions, the
inclusion-exclusion of the marginal means (gamma_ij = ybar_ij - ybar_i -
ybar_j + ybar, and so on); their standard error is s_e sqrt(prod(a_k - 1) / N)
(Jain ch. 22: s_alpha = s_e sqrt((a-1)/(abr))), which gives Carroll's 305.81
for his two-level and 432.48 for his three-level terms.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
from scipy import stats

from .descriptive import StatsError, _need

__all__ = ["allocation_of_variation", "effects", "check_full_factorial"]

_ORDER = {1: "Main effects", 2: "First-order interactions", 3: "Second-order interactions",
          4: "Third-order interactions", 5: "Fourth-order interactions"}


def _group_name(order: int) -> str:
    return _ORDER.get(order, f"{order - 1}th-order interactions")


def check_full_factorial(df: pd.DataFrame, factors: list[str], metric: str) -> int:
    """The replications per cell, after checking that every combination of
    the factors' levels is present with the same number of observations."""
    _need(df, [*factors, metric])
    if not factors:
        raise StatsError("the allocation of variation needs at least one factor")
    data = df[[*factors, metric]].dropna()
    counts = data.groupby(factors, sort=False, dropna=False).size()
    cells = math.prod(data[f].nunique() for f in factors)
    if len(counts) < cells:
        levels = [list(pd.unique(data[f])) for f in factors]
        present = set(counts.index if len(factors) > 1 else [(i,) for i in counts.index])
        missing = next(c for c in itertools.product(*levels) if c not in present)
        hole = ", ".join(f"{f}={v}" for f, v in zip(factors, missing))
        raise StatsError(f"the allocation of variation needs a full factorial: {cells - len(counts)} of {cells} "
                         f"combinations have no runs (such as {hole}); narrow the data with --where "
                         "or choose the factors with --factors")
    if counts.nunique() != 1:
        raise StatsError(f"the allocation of variation needs the same number of runs in every cell "
                         f"(found {counts.min()} to {counts.max()})")
    r = int(counts.iloc[0])
    if r < 2:
        raise StatsError("the allocation of variation needs replications (2 or more runs per cell) "
                         "to estimate the experimental error")
    return r


def _terms(factors: list[str]) -> list[tuple[str, ...]]:
    return [t for k in range(1, len(factors) + 1) for t in itertools.combinations(factors, k)]


def _fit(df: pd.DataFrame, factors: list[str], metric: str):
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    names = {f: f"x{i}" for i, f in enumerate(factors)}
    data = pd.DataFrame({names[f]: df[f].astype(str).to_numpy() for f in factors})
    data["y"] = df[metric].astype(float).to_numpy()
    rhs = " * ".join(f"C({names[f]}, Sum)" for f in factors)
    model = smf.ols(f"y ~ {rhs}", data=data).fit()
    table = anova_lm(model, typ=2)
    return model, table, names


def allocation_of_variation(df: pd.DataFrame, factors: list[str] | None = None,
                            metric: str = "goodput_bps") -> pd.DataFrame:
    """Carroll's Table 7: rows y, ybar, y - ybar, then each order's group
    total followed by its terms, then Errors; columns component, order,
    sum_sq, pct_variation, dof, F, p."""
    factors = _factors(df, factors)
    check_full_factorial(df, factors, metric)
    data = df[[*factors, metric]].dropna()
    y = data[metric].astype(float).to_numpy()
    n = len(y)
    ssy = float(np.sum(y * y))
    ss0 = n * float(y.mean()) ** 2
    sst = ssy - ss0
    model, table, names = _fit(data, factors, metric)
    back = {v: k for k, v in names.items()}

    def label(index: str) -> tuple[str, ...]:
        return tuple(back[part.split(",")[0].removeprefix("C(")] for part in index.split(":"))

    sse = float(table.loc["Residual", "sum_sq"])
    dfe = int(round(table.loc["Residual", "df"]))
    rows = [
        {"component": "y", "order": 0, "sum_sq": ssy, "pct_variation": math.nan, "dof": n},
        {"component": "ybar", "order": 0, "sum_sq": ss0, "pct_variation": math.nan, "dof": 1},
        {"component": "y - ybar", "order": 0, "sum_sq": sst, "pct_variation": 100.0, "dof": n - 1},
    ]
    terms = {label(i): table.loc[i] for i in table.index if i != "Residual"}
    for order in range(1, len(factors) + 1):
        members = [t for t in _terms(factors) if len(t) == order]
        ss = sum(float(terms[t]["sum_sq"]) for t in members)
        dof = sum(int(round(terms[t]["df"])) for t in members)
        rows.append({"component": _group_name(order), "order": order, "sum_sq": ss,
                     "pct_variation": 100 * ss / sst if sst else math.nan, "dof": dof})
        for t in members:
            row = terms[t]
            rows.append({"component": " x ".join(t), "order": order, "sum_sq": float(row["sum_sq"]),
                         "pct_variation": 100 * float(row["sum_sq"]) / sst if sst else math.nan,
                         "dof": int(round(row["df"])), "F": float(row["F"]), "p": float(row["PR(>F)"])})
    rows.append({"component": "Errors", "order": -1, "sum_sq": sse,
                 "pct_variation": 100 * sse / sst if sst else math.nan, "dof": dfe})
    out = pd.DataFrame(rows, columns=["component", "order", "sum_sq", "pct_variation", "dof", "F", "p"])
    out.attrs["factors"] = factors
    return out


def effects(df: pd.DataFrame, factors: list[str] | None = None, metric: str = "goodput_bps",
            min_share: float = 1.0, terms: list[tuple[str, ...]] | None = None) -> pd.DataFrame:
    """Carroll's Table 8: the intercept (grand mean), every main effect's
    level estimates, and the interactions that explain at least
    ``min_share`` percent of the variation (or exactly ``terms``); each with
    its standard error, t ratio and Prob>|t| on the error's degrees of freedom."""
    factors = _factors(df, factors)
    r = check_full_factorial(df, factors, metric)
    data = df[[*factors, metric]].dropna()
    y = data[metric].astype(float)
    n = len(y)
    grand = float(y.mean())
    levels = {f: list(pd.unique(data[f])) for f in factors}
    cells = data.groupby(factors, sort=False)[metric].agg(["mean", "var"])
    mse = float(cells["var"].mean())   # pooled within-cell variance: SSE/(N - cells) when balanced
    dfe = n - len(cells)
    if terms is None:
        shares = allocation_of_variation(df, factors, metric).set_index("component")["pct_variation"]
        terms = [t for t in _terms(factors) if len(t) == 1 or shares.get(" x ".join(t), 0) >= min_share]
    marginal = {(): pd.Series({(): grand})}
    for t in _terms(factors):
        if any(len(term) >= len(t) and set(t) <= set(term) for term in terms):
            means = data.groupby(list(t), sort=False)[metric].mean()
            if len(t) == 1:
                means.index = [(i,) for i in means.index]
            marginal[t] = means
    rows = [{"term": "Intercept", "estimate": grand, "se": math.sqrt(mse / n)}]
    for term in terms:
        se = math.sqrt(mse * math.prod(len(levels[f]) - 1 for f in term) / n)
        for combo in itertools.product(*(levels[f] for f in term)):
            # inclusion-exclusion over the term's subsets (Jain ch. 22-23)
            estimate = 0.0
            for k in range(len(term) + 1):
                for sub in itertools.combinations(range(len(term)), k):
                    key = tuple(combo[i] for i in sub)
                    sub_term = tuple(term[i] for i in sub)
                    estimate += (-1) ** (len(term) - k) * float(marginal[sub_term][key] if sub_term else grand)
            name = " x ".join(f"{f}[{v}]" for f, v in zip(term, combo))
            rows.append({"term": name, "estimate": estimate, "se": se})
    out = pd.DataFrame(rows)
    out["t"] = out["estimate"] / out["se"]
    out["p"] = 2 * stats.t.sf(out["t"].abs(), dfe)
    out.attrs["replications"] = r
    return out


def _factors(df: pd.DataFrame, factors: list[str] | None) -> list[str]:
    if factors is None:
        factors = [f for f in df.attrs.get("factors", []) if f in df.columns and df[f].nunique() > 1]
    if not factors:
        raise StatsError("no factor varies in these data; nothing to allocate")
    return list(factors)
