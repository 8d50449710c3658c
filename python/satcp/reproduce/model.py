"""What a reproduced study reports: tables of our numbers beside the published
ones, the study's qualitative findings each marked reproduced or not, figures,
and the rows only a real TCP stack can answer.

Every study module under ``satcp.reproduce.studies`` builds one
:class:`StudyReport`; ``satcp.reproduce.report`` renders it as Markdown and
as self-contained HTML. Published numbers are typed in once, with the table
they came from (``source``), from ``../shared/seed-notes/NNN.md``.
"""

from __future__ import annotations

import math
import pathlib
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["Row", "Table", "Finding", "Figure", "StudyReport", "Study"]


@dataclass
class Row:
    """One published number and ours for the same cell."""

    label: str                         # the row / cell as the study names it, e.g. "SACK, 1e-6, 128k"
    ours: float                        # our mean (in the table's unit)
    published: float | None            # the study's value; None where it printed none
    ours_ci: float | None = None       # half-width of our confidence interval
    published_spread: float | None = None  # the study's own sd or CI half-width, where it gave one
    explanation: str = ""              # why ours differs, when it differs beyond the spread

    @property
    def ratio(self) -> float | None:
        """ours / published, or None when there is nothing to divide by."""
        if self.published is None or self.published == 0 or not math.isfinite(self.ours):
            return None
        return self.ours / self.published

    @property
    def within_spread(self) -> bool | None:
        """True when ours is within the study's spread (plus our own CI) of
        the published value; None when the study gave no spread."""
        if self.published is None or self.published_spread is None:
            return None
        return abs(self.ours - self.published) <= self.published_spread + (self.ours_ci or 0.0)


@dataclass
class Table:
    """A table the study printed, re-run: same title, same unit."""

    title: str                         # e.g. "Table 12 — 1e-5 BER / 128kb: goodput"
    source: str                        # where the published numbers are, e.g. "004.md §3.3, thesis Table 12"
    unit: str                          # e.g. "kb/s", "s", "%"
    rows: list[Row] = field(default_factory=list)
    spread_kind: str = ""              # what published_spread is: "sd", "95% CI", ...
    note: str = ""                     # assumptions behind this table (cite the note's ambiguity list)


@dataclass
class Finding:
    """A qualitative finding the note lists, checked against our runs."""

    claim: str                         # as the study states it
    source: str                        # e.g. "004.md §3.4"
    reproduced: bool
    evidence: str                      # our numbers that decide it
    explanation: str = ""              # when not reproduced: the cause


@dataclass
class Figure:
    title: str
    path: pathlib.Path                 # a PNG written under the output directory


@dataclass
class StudyReport:
    study: str                         # registry name, e.g. "lawson2006"
    title: str                         # the study's citation
    quick: bool
    tables: list[Table] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    needs_real_stack: list[str] = field(default_factory=list)  # rows measured on a real Linux testbed
    notes: list[str] = field(default_factory=list)             # anything else the reader must know
    runs: int = 0                      # simulations behind this report
    wall_s: float = 0.0

    def finding(self, start: str) -> Finding:
        """The one finding whose claim begins with ``start``; KeyError naming
        the claims when none or several do."""
        matches = [f for f in self.findings if f.claim.startswith(start)]
        if len(matches) != 1:
            raise KeyError(f"{len(matches)} findings begin with {start!r}; claims: {[f.claim for f in self.findings]}")
        return matches[0]


class Study(Protocol):
    """A study module provides these names."""

    name: str        # registry name
    title: str       # full citation
    summary: str     # one line for `satcp reproduce --list`

    def run(self, out: pathlib.Path, *, quick: bool, workers: int | None) -> StudyReport: ...
