"""Statistics of sweep results (one row per run; see satcp.experiment):

- :func:`describe` per design point: mean, sd, se, t-based CI;
- :func:`compare` percentage differences between levels and paired t-tests;
- :func:`allocation_of_variation` and :func:`effects`: Jain's ANOVA
  allocation of variation as Carroll's Tables 7 and 8;
- :func:`kruskal_wallis` as Lawson's Tables 11-29;
- :func:`jain_index`, :func:`fairness`: Jain's fairness/friendliness index;
- :func:`summarize`: all of it for a results file, as a table, CSV or Markdown.

Names load on first use (PEP 562), so that the simulator's workers, which
only need :func:`jain_index`, do not import scipy and statsmodels.
"""

from __future__ import annotations

import importlib

_WHERE = {
    "describe": "descriptive", "t_interval": "descriptive", "paired_t": "descriptive", "compare": "descriptive",
    "StatsError": "descriptive", "allocation_of_variation": "anova", "effects": "anova",
    "check_full_factorial": "anova", "kruskal_wallis": "nonparametric", "jain_index": "jain",
    "fairness": "jain", "summarize": "summary", "Summary": "summary",
}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
