"""``satcp reproduce``: each study's experiment re-run, our numbers beside the
published ones. A study is a module in ``satcp.reproduce.studies`` exposing
``name``, ``title``, ``summary`` and ``run(out, quick=, workers=)`` (see
``model.Study``); its design lives under ``scenarios/studies/``."""

from __future__ import annotations

import importlib

from .model import Figure, Finding, Row, StudyReport, Table

__all__ = ["STUDIES", "study", "Figure", "Finding", "Row", "StudyReport", "Table"]

#: registry name -> module under satcp.reproduce.studies, in the seeds' order
STUDIES = {
    "carroll2004": "carroll2004",
    "omueti-adalr": "omueti_adalr",
    "leung1998": "leung1998",
    "hayes1997": "hayes1997",
    "lawson2006": "lawson2006",
}


def study(name: str):
    """The study module registered as ``name``; KeyError naming the choices."""
    if name not in STUDIES:
        raise KeyError(f"unknown study {name!r}; accepted: {', '.join(STUDIES)}")
    return importlib.import_module(f"{__name__}.studies.{STUDIES[name]}")
