"""Experiments: factorial designs, replications and seeds (:mod:`.design`),
engines that run them locally or on Dask (:mod:`.runner`), results stored as
Parquet as runs finish (:mod:`.store`), and the sweep that ties them
together (:mod:`.sweep`).

>>> from satcp.experiment import sweep, read_results
>>> sweep("scenarios/studies/carroll2004/homogeneous.toml", "out/carroll.parquet")
>>> df = read_results("out/carroll.parquet")     # one row per run
"""

from .design import Design, DesignError, Factor, Run, load_design, run_seed
from ..stats.jain import jain_index
from .runner import make_row, run_task
from .store import ResultsError, Store, read_results, read_table
from .sweep import SweepReport, check_design, sweep

__all__ = [
    "Design", "DesignError", "Factor", "Run", "load_design", "run_seed", "jain_index", "make_row", "run_task",
    "ResultsError", "Store", "read_results", "read_table", "SweepReport", "check_design", "sweep",
]
