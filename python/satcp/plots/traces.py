"""Reading a trace directory (``satcp run SCENARIO --trace-dir DIR``) into
pandas DataFrames, and the small derivations the graphs share.

One set of files per flow N; times are seconds, sequence numbers are byte
offsets from 0 (the first payload byte), never wrapped:

- ``flow-N-segments.csv``  ``time_s,seq,len,retransmit``: every data segment sent
- ``flow-N-acks.csv``      ``time_s,ack,window,sack``: every ACK reaching the sender
- ``flow-N-cwnd.csv``      ``time_s,cwnd,ssthresh,flight,srtt_s,rto_s``: sender state
- ``drops.csv``            ``time_s,flow,link,seq,len,cause``: data lost in the network (optional)
- ``meta.json``            flows (id, variant, mss, sack), links, seed, duration_s (optional)

A frame's index is the line number of each row in its file, so that a later
complaint about a row (a bad SACK block) can say where it is.
"""

from __future__ import annotations

import functools
import json
import math
import pathlib
import re
import warnings
from typing import Iterable

import numpy as np
import pandas as pd

from . import TraceError

__all__ = [
    "FlowTrace", "load_flow", "flows_present", "load_meta",
    "dup_acks", "sack_blocks", "in_window", "steps_in_window", "check_window", "resolve_window",
]

# Column kinds: "time" is seconds (finite, >= 0); "count" a whole number >= 0;
# "flag" 0 or 1; "text" anything. A trailing "?" allows the field to be empty.
SCHEMAS: dict[str, dict[str, str]] = {
    "segments": {"time_s": "time", "seq": "count", "len": "count", "retransmit": "flag"},
    "acks": {"time_s": "time", "ack": "count", "window": "count", "sack": "text"},
    "cwnd": {"time_s": "time", "cwnd": "count", "ssthresh": "count?", "flight": "count",
             "srtt_s": "time?", "rto_s": "time"},
    "drops": {"time_s": "time", "flow": "count", "link": "text", "seq": "count", "len": "count", "cause": "text"},
}
FLOW_PARTS = ("segments", "acks", "cwnd")
DROP_CAUSES = ("queue", "error", "listed", "outage")

_FLOW_FILE = re.compile(r"^flow-(\d+)-(segments|acks|cwnd)\.csv$")
_WHOLE = re.compile(r"^\d+$")
_SACK_BLOCK = r"^(\d+)-(\d+)$"


def flow_file(directory: pathlib.Path, flow: int, part: str) -> pathlib.Path:
    return directory / f"flow-{flow}-{part}.csv"


def flows_present(directory: str | pathlib.Path) -> list[int]:
    """Ids of the flows that have at least one trace file in ``directory``."""
    found = set()
    for path in pathlib.Path(directory).iterdir():
        m = _FLOW_FILE.match(path.name)
        if m:
            found.add(int(m.group(1)))
    return sorted(found)


def load_meta(directory: str | pathlib.Path) -> dict:
    """``meta.json`` as a dict; ``{}`` when the run wrote none."""
    path = pathlib.Path(directory) / "meta.json"
    if not path.exists():
        return {}
    try:
        meta = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise TraceError(f"{path}: not readable JSON ({e})") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("flows", []), list):
        raise TraceError(f"{path}: expected an object with a list of flows")
    return meta


class FlowTrace:
    """One flow's traces. The CSV files are read on first use (the
    time-sequence graph needs no cwnd file read, the cwnd graph no ACKs), but
    their presence is checked at once, so a wrong directory fails early."""

    def __init__(self, directory: pathlib.Path, flow: int, meta: dict):
        self.directory = directory
        self.flow = flow
        self.meta = meta
        entries = [f for f in meta.get("flows", []) if isinstance(f, dict) and f.get("id") == flow]
        #: This flow's entry in meta.json (``{}`` when absent).
        self.info: dict = entries[0] if entries else {}

    @functools.cached_property
    def segments(self) -> pd.DataFrame:
        return read_csv(flow_file(self.directory, self.flow, "segments"), SCHEMAS["segments"])

    @functools.cached_property
    def acks(self) -> pd.DataFrame:
        return read_csv(flow_file(self.directory, self.flow, "acks"), SCHEMAS["acks"])

    @functools.cached_property
    def cwnd(self) -> pd.DataFrame:
        return read_csv(flow_file(self.directory, self.flow, "cwnd"), SCHEMAS["cwnd"])

    @functools.cached_property
    def drops(self) -> pd.DataFrame:
        """This flow's rows of ``drops.csv`` (none when the file is absent or empty)."""
        path = self.directory / "drops.csv"
        if not path.exists() or path.stat().st_size == 0:
            return _empty(SCHEMAS["drops"])
        drops = read_csv(path, SCHEMAS["drops"])
        bad = ~drops["cause"].isin(DROP_CAUSES)
        if bad.any():
            line = drops.index[bad.to_numpy().argmax()]
            raise TraceError(f"{path}: line {line}: cause {drops.loc[line, 'cause']!r}; "
                             f"accepted: {', '.join(DROP_CAUSES)}")
        return drops[drops["flow"] == self.flow]

    @functools.cached_property
    def mss(self) -> int | None:
        """The flow's MSS: from meta.json, else the commonest segment length
        (most segments of a bulk transfer are full-sized)."""
        mss = self.info.get("mss")
        if isinstance(mss, int) and mss > 0:
            return mss
        lengths = self.segments["len"]
        return int(lengths.mode().iloc[0]) if len(lengths) else None

    def span(self, parts: Iterable[str] = FLOW_PARTS) -> tuple[float, float] | None:
        """First and last event time over ``parts``; None when all are empty."""
        times = [getattr(self, p)["time_s"] for p in parts]
        times = [t for t in times if len(t)]
        if not times:
            return None
        return min(float(t.iloc[0]) for t in times), max(float(t.iloc[-1]) for t in times)


def load_flow(directory: str | pathlib.Path, flow: int = 0) -> FlowTrace:
    """Flow ``flow`` of a trace directory; a :class:`TraceError` in one line
    when the directory or one of the flow's files is missing."""
    directory = pathlib.Path(directory)
    if not directory.exists():
        raise TraceError(f"{directory}: no such trace directory")
    if not directory.is_dir():
        raise TraceError(f"{directory}: not a directory; expected the DIR of satcp run --trace-dir DIR")
    present = flows_present(directory)
    if not present:
        raise TraceError(f"{directory}: no flow traces here (flow-N-segments.csv, -acks.csv, -cwnd.csv); "
                         f"write them with satcp run SCENARIO --trace-dir {directory}")
    if flow not in present:
        raise TraceError(f"{directory}: no traces of flow {flow}; flows present: {', '.join(map(str, present))}")
    missing = [flow_file(directory, flow, p).name for p in FLOW_PARTS if not flow_file(directory, flow, p).exists()]
    if missing:
        raise TraceError(f"{directory}: flow {flow} lacks {', '.join(missing)}")
    return FlowTrace(directory, flow, load_meta(directory))


def read_csv(path: pathlib.Path, schema: dict[str, str]) -> pd.DataFrame:
    """One trace file, checked against ``schema``, sorted by time (stably,
    so rows with equal times keep the order the simulator wrote them in).

    pandas parses the numbers itself (fast: 150,000 rows in a tenth of a
    second); only when that fails is the file read again as text, to name
    the first line that is wrong."""
    header = ",".join(schema)
    columns = _header(path)
    absent = [c for c in schema if c not in columns]
    if absent:
        raise TraceError(f"{path}: no column {', '.join(absent)}; expected the header {header}")
    optional = [name for name, kind in schema.items() if kind.endswith("?")]
    try:
        frame = _read(path, dtype={n: _DTYPES[k] for n, k in schema.items()},
                      keep_default_na=False, na_values={n: [""] for n in optional})
    except ValueError:  # a field pandas could not convert: find it
        raw = _read(path, dtype=str, keep_default_na=False, na_filter=False).fillna("")
        raw.index = pd.RangeIndex(2, len(raw) + 2)
        frame = pd.DataFrame({n: _column(path, raw[n], n, k) for n, k in schema.items()}, index=raw.index)
    frame.index = pd.RangeIndex(2, len(frame) + 2)  # line numbers: line 1 is the header
    frame = frame[list(schema)]  # a newer simulator may add columns
    for name, kind in schema.items():
        if kind == "text":
            frame[name] = frame[name].fillna("")  # a row that ends early
        _check(path, frame[name], name, kind)
    flags = [name for name, kind in schema.items() if kind == "flag"]
    frame = frame.astype({name: bool for name in flags})
    if not frame["time_s"].is_monotonic_increasing:
        frame = frame.sort_values("time_s", kind="stable")
    return frame


_DTYPES = {"time": "float64", "time?": "float64", "count": "int64", "count?": "float64", "flag": "int64",
           "text": str}
_ACCEPTED = {"time": "seconds, 0 or more", "count": "a whole number of bytes, 0 or more", "flag": "0 or 1"}


def _header(path: pathlib.Path) -> list[str]:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            first = f.readline()
    except UnicodeDecodeError:
        raise TraceError(f"{path}: not UTF-8 text") from None
    except OSError as e:
        raise TraceError(f"{path}: cannot read ({e.strerror or e})") from None
    if not first.strip():
        raise TraceError(f"{path}: empty; expected a header line")
    return [c.strip() for c in first.strip().split(",")]


def _read(path: pathlib.Path, **options) -> pd.DataFrame:
    try:
        with warnings.catch_warnings():
            # index_col=False: never take a first column as the index because the
            # first row is one field too long; pandas warns instead, and we fail.
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return pd.read_csv(path, index_col=False, **options)
    except pd.errors.ParserWarning:
        raise TraceError(f"{path}: malformed CSV: a row has more fields than the header") from None
    except pd.errors.EmptyDataError:
        raise TraceError(f"{path}: empty; expected a header line") from None
    except pd.errors.ParserError as e:
        raise TraceError(f"{path}: malformed CSV: {str(e).strip().splitlines()[-1]}") from None
    except UnicodeDecodeError:
        raise TraceError(f"{path}: not UTF-8 text") from None
    except OSError as e:
        raise TraceError(f"{path}: cannot read ({e.strerror or e})") from None


def _check(path: pathlib.Path, values: pd.Series, name: str, kind: str) -> None:
    """Range checks on a parsed column; names the first bad line."""
    base = kind.rstrip("?")
    if base == "text":
        return
    v = values.to_numpy(dtype=float)
    ok = np.isfinite(v) & (v >= 0)
    if base == "flag":
        ok &= (v == 0) | (v == 1)
    if kind.endswith("?"):
        ok |= np.isnan(v)
    if not ok.all():
        line = values.index[int(np.argmin(ok))]
        value = values.loc[line].item()  # a Python number: repr 2, not np.int64(2)
        raise TraceError(f"{path}: line {line}: {name} {value!r}; accepted: {_ACCEPTED[base]}"
                         + (" or empty" if kind.endswith("?") else ""))


def _column(path: pathlib.Path, text: pd.Series, name: str, kind: str) -> pd.Series:
    """A column read as text, converted, or a TraceError naming the first
    field that is not what the column holds."""
    optional = kind.endswith("?")
    base = kind.rstrip("?")
    if base == "text":
        return text.astype(object)
    empty = (text == "").to_numpy()
    if base == "time":
        values = pd.to_numeric(text, errors="coerce").astype(float)
        ok = np.isfinite(values.to_numpy())
    else:
        ok = text.str.fullmatch(_WHOLE.pattern).fillna(False).to_numpy(dtype=bool)
        values = pd.to_numeric(text.where(ok, None), errors="coerce")
    if optional:
        ok = ok | empty
    if not ok.all():
        line = text.index[int(np.argmin(ok))]
        raise TraceError(f"{path}: line {line}: {name} {text.loc[line]!r}; accepted: {_ACCEPTED[base]}"
                         + (" or empty" if optional else ""))
    return values.astype(float) if optional or base == "time" else values.astype(np.int64)


def _empty(schema: dict[str, str]) -> pd.DataFrame:
    dtypes = {"time": float, "count": np.int64, "count?": float, "time?": float, "flag": bool, "text": object}
    return pd.DataFrame({name: pd.Series(dtype=dtypes[kind]) for name, kind in schema.items()})


def dup_acks(acks: pd.DataFrame) -> pd.Series:
    """True for a duplicate ACK: the same cumulative ACK and advertised window
    as the ACK before it (tcptrace's rule, 003.md §4.3 item 3). Computed over
    a flow's whole ACK stream, so the first ACK of a zoomed window is judged
    against the one before the window."""
    same_ack = acks["ack"].eq(acks["ack"].shift())
    same_window = acks["window"].eq(acks["window"].shift())
    return same_ack & same_window


def sack_blocks(acks: pd.DataFrame) -> pd.DataFrame:
    """One row per SACK block: ``time_s, ack, left, right, rank`` (right
    exclusive; rank 0 is the ACK's first, most recent block). The index is
    the ACK's line number in its file."""
    with_sack = acks.loc[acks["sack"] != "", ["time_s", "ack", "sack"]]
    if with_sack.empty:
        return pd.DataFrame({"time_s": pd.Series(dtype=float), "ack": pd.Series(dtype=np.int64),
                             "left": pd.Series(dtype=np.int64), "right": pd.Series(dtype=np.int64),
                             "rank": pd.Series(dtype=np.int64)})
    blocks = with_sack["sack"].str.split().explode()
    rank = blocks.groupby(level=0).cumcount()
    edges = blocks.str.extract(_SACK_BLOCK)
    bad = edges[0].isna().to_numpy()
    left = pd.to_numeric(edges[0]).fillna(0).astype(np.int64)
    right = pd.to_numeric(edges[1]).fillna(0).astype(np.int64)
    bad = bad | (left >= right).to_numpy()
    if bad.any():
        at = int(np.argmax(bad))
        raise TraceError(f"sack block {blocks.iloc[at]!r} at line {blocks.index[at]} of the ACK trace; "
                         "accepted: LEFT-RIGHT byte offsets with LEFT < RIGHT, separated by spaces")
    return pd.DataFrame({"time_s": with_sack["time_s"].reindex(blocks.index).to_numpy(),
                         "ack": with_sack["ack"].reindex(blocks.index).to_numpy(),
                         "left": left.to_numpy(), "right": right.to_numpy(), "rank": rank.to_numpy()},
                        index=blocks.index)


def check_window(start: float | None, end: float | None) -> None:
    for name, value in (("start", start), ("end", end)):
        if value is not None and not (math.isfinite(value) and value >= 0):
            raise TraceError(f"{name} {value}; accepted: seconds, 0 or more")
    if start is not None and end is not None and start >= end:
        raise TraceError(f"start {start:g} s is not before end {end:g} s")


def resolve_window(span: tuple[float, float], start: float | None, end: float | None,
                   what: str) -> tuple[float, float]:
    """The time window to draw: ``[start, end]`` with an open side filled
    from ``span`` (the first and last time of ``what``); a TraceError when
    the window misses the span altogether."""
    check_window(start, end)
    t0 = span[0] if start is None else float(start)
    t1 = span[1] if end is None else float(end)
    if t0 > span[1] or t1 < span[0]:
        asked = (f"between {start:g} s and {end:g} s" if start is not None and end is not None
                 else f"from {start:g} s on" if start is not None else f"up to {end:g} s")
        raise TraceError(f"nothing to draw {asked}: {what} span {span[0]:g} s to {span[1]:g} s")
    return t0, (t1 if t1 > t0 else t0 + 1e-3)  # a trace of one instant still gets a width


def in_window(frame: pd.DataFrame, start: float | None, end: float | None) -> pd.DataFrame:
    """Rows with ``start <= time_s <= end`` (an open side when None)."""
    times = frame["time_s"]
    lo = 0 if start is None else times.searchsorted(start, side="left")
    hi = len(frame) if end is None else times.searchsorted(end, side="right")
    return frame.iloc[lo:hi]


def steps_in_window(frame: pd.DataFrame, start: float | None, end: float | None) -> pd.DataFrame:
    """The rows of a state trace (each row holds until the next) that matter
    in ``[start, end]``: the row in force at ``start`` moved to ``start``, the
    rows inside, and the last value repeated at ``end``, so that a step line
    drawn from them fills the window."""
    rows = in_window(frame, start, end)
    parts = []
    if start is not None:
        before = frame.iloc[: frame["time_s"].searchsorted(start, side="left")]
        if len(before) and (rows.empty or rows["time_s"].iloc[0] > start):
            parts.append(before.iloc[[-1]].assign(time_s=float(start)))
    parts.append(rows)
    steps = pd.concat(parts) if len(parts) > 1 else rows
    if end is not None and len(steps) and steps["time_s"].iloc[-1] < end:
        steps = pd.concat([steps, steps.iloc[[-1]].assign(time_s=float(end))])
    return steps
