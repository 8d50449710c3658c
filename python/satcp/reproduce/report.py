"""A reproduced study as a report: Markdown beside its figures, and one
self-contained HTML file (figures embedded) to mail or archive.

Every table shows our value, the published value and their ratio, with our
confidence interval and the study's own spread where there is one; a row
outside the spread shows its explanation. Findings are marked reproduced
(✓) or not (✗), with the cause when not.
"""

from __future__ import annotations

import base64
import html
import math
import pathlib

from .model import Finding, Row, StudyReport, Table

__all__ = ["markdown", "html_page", "write"]


def _num(x: float | None) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    magnitude = abs(x)
    if magnitude >= 100:
        return f"{x:,.1f}"
    if magnitude >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def _with_spread(value: float | None, spread: float | None) -> str:
    return _num(value) if spread is None or value is None else f"{_num(value)} ± {_num(spread)}"


def _ratio(row: Row) -> str:
    r = row.ratio
    return "–" if r is None else f"{r:.2f}"


def _verdict(row: Row) -> str:
    within = row.within_spread
    return "" if within is None else ("yes" if within else "no")


def _row_cells(row: Row) -> list[str]:
    return [row.label, _with_spread(row.ours, row.ours_ci), _with_spread(row.published, row.published_spread),
            _ratio(row), _verdict(row), row.explanation]


def _headers(table: Table) -> list[str]:
    spread = f" (± {table.spread_kind})" if table.spread_kind else ""
    return ["", f"ours, {table.unit} (± CI)", f"published, {table.unit}{spread}", "ours / published",
            "within spread", "why it differs"]


def _mark(f: Finding) -> str:
    return "✓" if f.reproduced else "✗"


def _link(path: pathlib.Path, base: pathlib.Path | None) -> str:
    if base is None:
        return path.name
    try:
        return str(path.resolve().relative_to(base.resolve()))
    except ValueError:
        return str(path.resolve())


def markdown(report: StudyReport, figure_dir: pathlib.Path | None = None) -> str:
    """The report as Markdown; figures are linked relative to `figure_dir`."""
    found = sum(f.reproduced for f in report.findings)
    lines = [f"# {report.study}: our re-run beside the published numbers", "", report.title, "",
             f"Mode: {'--quick (fewer replications, shorter transfers)' if report.quick else 'full (the study’s own counts)'}"
             f"; {report.runs:,} simulations in {report.wall_s:.1f} s. "
             f"Findings reproduced: {found} of {len(report.findings)}.", ""]
    if report.findings:
        lines += ["## Findings", ""]
        for f in report.findings:
            lines.append(f"- {_mark(f)} **{f.claim}** ({f.source}) — {f.evidence}"
                         + (f" *Why not:* {f.explanation}" if f.explanation and not f.reproduced else ""))
        lines.append("")
    for t in report.tables:
        lines += [f"## {t.title}", "", f"Published numbers: {t.source}.", ""]
        if t.note:
            lines += [t.note, ""]
        headers = _headers(t)
        lines.append("| " + " | ".join(headers) + " |")
        lines.append("|" + "|".join(["---"] + ["---:"] * 4 + ["---"]) + "|")
        for row in t.rows:
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in _row_cells(row)) + " |")
        lines.append("")
    if report.figures:
        lines += ["## Figures", ""]
        for fig in report.figures:
            target = _link(pathlib.Path(fig.path), figure_dir)
            lines += [f"![{fig.title}]({target})", "", f"*{fig.title}*", ""]
    if report.needs_real_stack:
        lines += ["## Rows measured on a real Linux stack", "",
                  "The study measured these on real TCP stacks through a link emulator; the numbers above "
                  "are the simulator's. To run them on this machine's kernel over satcp's emulator (root, "
                  "/dev/net/tun):", ""]
        lines += [f"- {item}" for item in report.needs_real_stack]
        lines.append("")
    if report.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in report.notes] + [""]
    return "\n".join(lines)


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.92rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; vertical-align: top; }
th { background: #f3f3f3; } td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.off td { background: #fff4e5; } .ok { color: #1a7f37; } .no { color: #b42318; }
img { max-width: 100%; } code { background: #f3f3f3; padding: 0 0.2rem; }
"""


def _embedded(path: pathlib.Path) -> str:
    data = base64.b64encode(pathlib.Path(path).read_bytes()).decode("ascii")
    kind = "svg+xml" if str(path).endswith(".svg") else "png"
    return f"data:image/{kind};base64,{data}"


def html_page(report: StudyReport) -> str:
    """The report as one HTML file with every figure embedded."""
    e = html.escape
    found = sum(f.reproduced for f in report.findings)
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(report.study)} — satcp reproduce</title>"
             f"<style>{_STYLE}</style></head><body>",
             f"<h1>{e(report.study)}: our re-run beside the published numbers</h1><p>{e(report.title)}</p>",
             f"<p>Mode: {'--quick' if report.quick else 'full'}; {report.runs:,} simulations in {report.wall_s:.1f} s. "
             f"Findings reproduced: <b>{found} of {len(report.findings)}</b>.</p>"]
    if report.findings:
        parts.append("<h2>Findings</h2><ul>")
        for f in report.findings:
            why = f" <i>Why not:</i> {e(f.explanation)}" if f.explanation and not f.reproduced else ""
            parts.append(f"<li><span class='{'ok' if f.reproduced else 'no'}'>{_mark(f)}</span> <b>{e(f.claim)}</b> "
                         f"({e(f.source)}) — {e(f.evidence)}{why}</li>")
        parts.append("</ul>")
    for t in report.tables:
        parts.append(f"<h2>{e(t.title)}</h2><p>Published numbers: {e(t.source)}.</p>")
        if t.note:
            parts.append(f"<p>{e(t.note)}</p>")
        parts.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in _headers(t)) + "</tr>")
        for row in t.rows:
            cells = _row_cells(row)
            off = " class='off'" if row.within_spread is False else ""
            parts.append(f"<tr{off}><td>{e(cells[0])}</td>" + "".join(f"<td class='n'>{e(c)}</td>" for c in cells[1:5])
                         + f"<td>{e(cells[5])}</td></tr>")
        parts.append("</table>")
    if report.figures:
        parts.append("<h2>Figures</h2>")
        for fig in report.figures:
            parts.append(f"<figure><img alt='{e(fig.title)}' src='{_embedded(fig.path)}'><figcaption>{e(fig.title)}"
                         "</figcaption></figure>")
    if report.needs_real_stack:
        parts.append("<h2>Rows measured on a real Linux stack</h2><p>The study measured these on real TCP stacks "
                     "through a link emulator; the numbers above are the simulator's. To run them on this "
                     "machine's kernel over satcp's emulator (root, /dev/net/tun):</p><ul>")
        parts += [f"<li><code>{e(item)}</code></li>" for item in report.needs_real_stack]
        parts.append("</ul>")
    if report.notes:
        parts.append("<h2>Notes</h2><ul>" + "".join(f"<li>{e(n)}</li>" for n in report.notes) + "</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)


def write(report: StudyReport, out: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """Writes out/report.md and out/report.html; returns their paths."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    md, page = out / "report.md", out / "report.html"
    md.write_text(markdown(report, figure_dir=out), encoding="utf-8")
    page.write_text(html_page(report), encoding="utf-8")
    return md, page
