"""``satcp summarize``: the statistics of a results file in one report,
printed as readable tables, CSV or Markdown.

>>> from satcp.stats import summarize
>>> s = summarize("out/carroll.parquet", level=0.9, compare="enhancement")
>>> s["per point"]          # a DataFrame per section
>>> print(s.to_markdown())
"""

from __future__ import annotations

import dataclasses
import io
import math
import os

import pandas as pd

from .anova import allocation_of_variation, check_full_factorial, effects
from .descriptive import StatsError, _levels, _match_level, _need, compare as compare_levels, describe
from .jain import fairness as fairness_table
from .nonparametric import kruskal_wallis

__all__ = ["summarize", "Summary", "Section", "FORMATS"]

FORMATS = ("table", "csv", "markdown")


@dataclasses.dataclass
class Section:
    name: str
    title: str
    table: pd.DataFrame | None
    note: str = ""
    hide: tuple = ()          # columns left out of the readable table (CSV and Markdown keep them)
    factors: tuple = ()       # factor columns; those with one value move into the note

    def shown(self, readable: bool) -> tuple[pd.DataFrame, str]:
        """The table to display and its note: factor columns holding one
        value become ``factor=value`` in the note; ``hide`` goes in a terminal."""
        table, note = self.table, self.note
        fixed = [c for c in self.factors if c in table and table[c].nunique(dropna=False) == 1 and len(table) > 1]
        if fixed:
            where = ", ".join(f"{c}={table[c].iloc[0]}" for c in fixed)
            note = f"{note}; {where}" if note else where
            table = table.drop(columns=fixed)
        if readable:
            table = table.drop(columns=[c for c in self.hide if c in table])
        return table, note


@dataclasses.dataclass
class Summary:
    sections: list[Section]
    source: str

    def __getitem__(self, name: str) -> pd.DataFrame:
        for s in self.sections:
            if s.name == name:
                return s.table
        raise KeyError(f"no section {name!r}; sections: {', '.join(s.name for s in self.sections)}")

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.sections]

    def to_csv(self) -> str:
        """Each section as ``# title`` and its CSV (full precision), a blank line between."""
        out = io.StringIO()
        for i, s in enumerate(self.sections):
            out.write(("\n" if i else "") + f"# {s.title}\n")
            if s.note:
                out.write(f"# {s.note}\n")
            if s.table is not None:
                s.table.to_csv(out, index=False, lineterminator="\n")
        return out.getvalue()

    def to_markdown(self) -> str:
        parts = []
        for s in self.sections:
            parts.append(f"### {s.title}\n")
            table, note = s.shown(False) if s.table is not None else (None, s.note)
            if note:
                parts.append(f"{note}\n")
            if table is not None:
                parts.append(_formatted(table).to_markdown(index=False, disable_numparse=True) + "\n")
        return "\n".join(parts)

    def __rich__(self):
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        items = []
        for s in self.sections:
            if s.table is None:
                items.append(Text.assemble((s.title, "bold"), "\n", s.note, "\n"))
                continue
            data, note = s.shown(True)
            table = Table(title=Text(s.title), title_justify="left", title_style="bold", caption=Text(note) if note else None,
                          caption_justify="left")
            shown = _formatted(data)
            for c in shown.columns:
                numeric = pd.api.types.is_numeric_dtype(data[c]) and not pd.api.types.is_bool_dtype(data[c])
                table.add_column(str(c), justify="right" if numeric else "left")
            for row in shown.itertuples(index=False):
                table.add_row(*(Text(cell) for cell in row))  # `[level]` is text, not rich markup
            items.append(table)
        return Group(*items)

    def to_text(self, width: int = 120) -> str:
        from rich.console import Console

        buffer = io.StringIO()
        Console(file=buffer, width=width, no_color=True, color_system=None, force_terminal=False).print(self)
        return buffer.getvalue()

    def render(self, fmt: str = "table", width: int = 120) -> str:
        if fmt == "csv":
            return self.to_csv()
        if fmt == "markdown":
            return self.to_markdown()
        return self.to_text(width)


def _formatted(table: pd.DataFrame) -> pd.DataFrame:
    """Strings for display: p-values as JMP prints them (<0.0001), large
    sums of squares in full with thousands separators, the rest to 6
    significant figures. CSV keeps full precision."""
    out = pd.DataFrame(index=table.index)
    for c in table.columns:
        out[str(c)] = [_cell(c, v) for v in table[c]]
    return out


def _cell(column, v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if column in ("p",):
            return "<0.0001" if v < 1e-4 else f"{v:.4f}"
        if column in ("pct_variation", "pct_diff"):
            return f"{v:.3f}"
        if abs(v) >= 1e6 and column == "sum_sq":
            return f"{v:,.0f}"
        return f"{v:.6g}"
    return str(v)


def _load(source) -> tuple[pd.DataFrame, str]:
    if isinstance(source, pd.DataFrame):
        return source, "data"
    from ..experiment.store import read_results

    return read_results(source), os.fspath(source)


def _filter(df: pd.DataFrame, where: dict | None) -> pd.DataFrame:
    if not where:
        return df
    attrs = dict(df.attrs)
    for factor, wanted in where.items():
        _need(df, [factor])
        levels = _levels(df, factor)
        wanted = wanted if isinstance(wanted, (list, tuple, set)) else [wanted]
        keep = [_match_level(w, levels, factor) for w in wanted]
        df = df[df[factor].isin(keep)]
    df = df.copy()
    df.attrs.update(attrs)
    return df


def summarize(source, *, metric: str = "goodput_bps", level: float = 0.95, by: list[str] | None = None,
              where: dict | None = None, compare: str | None = None, baseline=None,
              anova: bool | None = None, factors: list[str] | None = None, min_share: float = 1.0,
              kruskal: str | None = None, fairness: bool | None = None) -> Summary:
    """The statistics of a results file (or DataFrame) as a :class:`Summary`.

    Always the per-point summary (``by``: the factors). ``compare=FACTOR``
    adds percentage differences and paired t-tests against ``baseline``;
    ``anova`` the allocation of variation over ``factors`` (by default those
    that vary; ``None`` adds it when the data are a replicated full
    factorial); ``kruskal=FACTOR`` the Kruskal-Wallis test across its levels;
    ``fairness`` Jain's index (``None``: when runs have several flows).
    ``where`` keeps only some levels: ``{"clients": "1"}``."""
    df, name = _load(source)
    df = _filter(df, where)
    if df.empty:
        raise StatsError("no runs left to summarize" + (" after --where" if where else ""))
    _need(df, [metric])
    pct = f"{100 * level:g}%"
    factor_cols = tuple(df.attrs.get("factors", [])) if by is None else tuple(by)
    sections = [Section("per point", f"{metric} per design point: mean, sd, se, {pct} t-based CI",
                        describe(df, metric, by, level), hide=("var", "half_width"), factors=factor_cols)]
    if compare:
        table = compare_levels(df, compare, metric, baseline, level=level)
        base = table["baseline"].iloc[0]
        sections.append(Section("compare", f"{metric}: each level of {compare} against {compare}={base}: "
                                f"% difference, paired t-test ({pct} CI of the mean difference)", table,
                                hide=("baseline", "var_diff", "se_diff"), factors=factor_cols))
    if anova or anova is None:
        try:
            chosen = factors
            if chosen is None:
                chosen = [f for f in df.attrs.get("factors", []) if f in df and df[f].nunique() > 1]
            check_full_factorial(df, chosen, metric)
            allocation = allocation_of_variation(df, chosen, metric)
            fx = effects(df, chosen, metric, min_share=min_share)
        except StatsError as e:
            if anova:
                raise
            sections.append(Section("anova", "Allocation of variation", None, f"not computed: {e}"))
        else:
            sections.append(Section("anova", f"Allocation of variation of {metric} (ANOVA, Jain ch. 22-23)",
                                    allocation, hide=("order",)))
            sections.append(Section("effects", f"Effects: deviation from the grand mean, main effects and "
                                    f"interactions explaining >= {min_share:g}% of the variation", fx))
            fixed = [f for f in df.attrs.get("factors", []) if f in df and df[f].nunique() == 1]
            if fixed:
                sections[-2].note = "with " + ", ".join(f"{f}={df[f].iloc[0]}" for f in fixed)
    if kruskal:
        sections.append(Section("kruskal", f"Kruskal-Wallis test of {metric} across {kruskal}",
                                kruskal_wallis(df, kruskal, metric), factors=factor_cols))
    multi = "flow_goodput_bps" in df and df["flow_goodput_bps"].map(lambda v: v is not None and len(v) > 1).any()
    if fairness or (fairness is None and multi):
        if not multi:
            raise StatsError("no run has more than one flow; Jain's index needs several")
        sections.append(Section("fairness", f"Jain's fairness/friendliness index over each run's flows "
                                f"(goodput), {pct} CI", fairness_table(df, by, level), factors=factor_cols))
    return Summary(sections, name)
