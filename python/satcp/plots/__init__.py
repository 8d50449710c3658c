"""Plots of satcp results, one module per kind (``goodput``: a metric
against a factor with confidence intervals). ``satcp plot KIND ...`` finds
its command in :mod:`.cli`; a new kind is a module with ``add_arguments``
and ``run`` listed in ``cli.KINDS``."""

from .goodput import plot_goodput

__all__ = ["plot_goodput"]
