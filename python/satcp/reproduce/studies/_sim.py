"""What the Omueti and Leung reproductions share: run one of a study's
designs with the sweep engine, and the mean with its t interval."""

from __future__ import annotations

import math
import pathlib

import numpy as np

from ...experiment.design import load_design
from ...experiment.store import ResultsError, read_results
from ...experiment.sweep import sweep
from ...stats.descriptive import t_interval

__all__ = ["DESIGNS", "run_design", "mean_ci", "series", "near", "tied_why", "bar_figure"]

def _designs_dir() -> pathlib.Path:
    """scenarios/studies/: beside the source (an editable install), else in
    the working directory (the checkout a wheel was installed from). The
    designs refer to the scenarios beside them, so they are not packaged."""
    for root in (pathlib.Path(__file__).resolve().parents[4], pathlib.Path.cwd()):
        if (root / "scenarios" / "studies").is_dir():
            return root / "scenarios" / "studies"
    return pathlib.Path.cwd() / "scenarios" / "studies"


#: scenarios/studies/ (designs refer to scenarios beside them)
DESIGNS = _designs_dir()


def run_design(path: pathlib.Path, out: pathlib.Path, *, overrides: list[str] | None = None,
               replications: int | None = None, workers: int | None = None):
    """Sweeps one design into ``out/runs/<stem>`` and returns its rows.
    ``overrides`` and ``replications`` shorten it for ``--quick``."""
    if not path.is_file():
        raise ResultsError("study design missing; run `satcp reproduce` from the satcp checkout "
                           "(it reads scenarios/studies/)", file=str(path))
    design = load_design(path, overrides or None)
    if replications is not None:
        design.replications = replications
    # Quick and full runs are different designs: separate stores, each
    # resumed where an interrupted reproduction left it.
    store = out / "runs" / (path.stem + ("-quick" if overrides or replications is not None else ""))
    try:
        report = sweep(design, store, workers=workers, resume=True, progress=False)
    except ResultsError:  # the design changed since: start its store again
        report = sweep(design, store, workers=workers, overwrite=True, progress=False)
    df = read_results(store)
    df.attrs["runs"] = report.total
    return df


def mean_ci(values, level: float = 0.95) -> tuple[float, float | None]:
    """Mean and the half width of its t interval (None for one value)."""
    x = np.asarray([float(v) for v in values], dtype=float)
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return math.nan, None
    mean = float(x.mean())
    if len(x) < 2:
        return mean, None
    low, high = t_interval(mean, float(x.std(ddof=1)), len(x), level)
    return mean, (high - low) / 2


#: Levels whose mean is within this fraction of the best are tied with it:
#: a difference under 1% could not be read off a study's figures.
TIED = 0.01


def series(df, factor: str, metric: str = "kbytes") -> dict:
    """level -> per-replication ``metric`` (averaged over any other rows), in replication order."""
    per = df.groupby([factor, "replication"], sort=False)[metric].mean()
    return {lvl: per[lvl].sort_index().to_numpy() for lvl in dict.fromkeys(df[factor])}


def near(series: dict, best, his) -> bool:
    """His level is next to our best on the grid, tied with it (within
    TIED), or not distinguishable from it: the paired (common random
    numbers) difference's 95% t interval holds 0."""
    levels = list(series)
    if his not in series:
        return False
    if abs(levels.index(his) - levels.index(best)) <= 1:
        return True
    if series[his].mean() >= (1 - TIED) * series[best].mean():
        return True
    diff, ci = mean_ci(series[best] - series[his])
    return ci is not None and abs(diff) <= ci


def tied_why(series: dict, best, his, name: str, unit: str, fmt: str = ".1f") -> str:
    """Why an optimum at another level than ours still counts as his (``near``
    said so): the curve is flat between the two. ``name`` labels his level."""
    if his == best:
        return ""
    return (f"{name} gives {series[his].mean():{fmt}} {unit} against our best's {series[best].mean():{fmt}}: "
            "next to it on our grid, within 1%, or not distinguishable from it (paired 95% interval), "
            "so the optimum is his within what the sweep resolves")


def bar_figure(title: str, groups: dict[str, dict[str, float]], ylabel: str, out: pathlib.Path) -> pathlib.Path:
    """Grouped bars: one group per key of ``groups``, one bar per inner key."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 4.8), dpi=110, layout="constrained")
    ax = fig.subplots()
    names = list(groups)
    labels = list(dict.fromkeys(k for g in groups.values() for k in g))
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        xs = [j + (i - (len(names) - 1) / 2) * width for j in range(len(labels))]
        ax.bar(xs, [groups[name].get(k, math.nan) for k in labels], width, label=name)
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))  # outside: never over a bar
    ax.grid(axis="y", alpha=0.3)
    fig.savefig(out, format="png", metadata={})
    return out
