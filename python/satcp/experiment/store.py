"""Results that survive interruption: a sweep's rows as a Parquet dataset.

``RESULTS.parquet`` is a directory (as Spark and Dask write them; pandas,
pyarrow, DuckDB and Polars read it as one table)::

    RESULTS.parquet/
        _design.json            the design's fingerprint, factors and levels
        part-<uuid>.parquet     rows, one per finished run

Rows are buffered briefly and written as a new part file: first to a hidden
``.tmp-*`` name, flushed and fsync'd, then renamed into place. A rename is
atomic, so a process killed at any moment leaves whole part files or none:
finished rows are never damaged, and readers skip the hidden names. At the
end of a sweep the parts are compacted into one; if that is interrupted the
rows exist twice for a moment, and reading keeps one copy of each
(point, replication), which is always the same row.
"""

from __future__ import annotations

import json
import os
import pathlib
import time
import uuid
from typing import Iterable

from .design import DesignError

__all__ = ["ResultsError", "Store", "read_table", "read_results", "KEY"]

KEY = ("point", "replication")
_META = "_design.json"
_FORMAT = "satcp-results-1"


class ResultsError(DesignError):
    """A results file or directory that cannot be read or written."""


class Store:
    """The results directory of one sweep."""

    def __init__(self, path: str | os.PathLike):
        self.path = pathlib.Path(path)
        self._buffer: list[dict] = []
        self._last_flush = time.monotonic()
        self.meta: dict | None = None

    # ------------------------------------------------------------ opening

    def open(self, meta: dict, *, resume: bool = False, overwrite: bool = False) -> set[tuple[int, int]]:
        """Prepares the directory for ``meta`` (fingerprint, factors, ...) and
        returns the (point, replication) pairs already done."""
        where = str(self.path)
        if self.path.exists() and not self.path.is_dir():
            raise ResultsError("exists and is not a results directory; choose another output", file=where)
        old = self._read_meta() if self.path.is_dir() else None
        parts = self.parts() if self.path.is_dir() else []
        if self.path.is_dir() and old is None and any(self.path.iterdir()):
            raise ResultsError("is a directory that satcp did not write; choose another output", file=where)
        if old is not None and overwrite:
            for p in parts + sorted(self.path.glob(".tmp-*")):
                p.unlink()
            (self.path / _META).unlink()
            old, parts = None, []
        if old is not None:
            if old.get("fingerprint") != meta["fingerprint"]:
                raise ResultsError(
                    "holds the results of a different design (factors, levels, seeds or scenario differ); "
                    "choose another output, or --overwrite to start again", file=where)
            done = self.done()
            if not resume and done:
                raise ResultsError(f"already holds {len(done)} of {meta['runs']} runs of this design; "
                                   "--resume runs only the missing ones, --overwrite starts again", file=where)
            self.meta = old
            return done
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            _atomic_write(self.path / _META, json.dumps({"format": _FORMAT, **meta}, indent=1).encode())
        except OSError as e:
            raise ResultsError(f"cannot write: {e.strerror or e}", file=where) from None
        self.meta = meta
        return set()

    def _read_meta(self) -> dict | None:
        try:
            return json.loads((self.path / _META).read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            raise ResultsError(f"unreadable {_META}: {e}", file=str(self.path)) from None

    def parts(self) -> list[pathlib.Path]:
        return sorted(self.path.glob("part-*.parquet"))

    def done(self) -> set[tuple[int, int]]:
        if not self.parts():
            return set()
        table = read_table(self.path, columns=list(KEY))
        return set(zip(table.column("point").to_pylist(), table.column("replication").to_pylist()))

    # ------------------------------------------------------------ writing

    def add(self, row: dict, *, flush_every: float = 1.0, max_rows: int = 512) -> None:
        """Buffers a finished run; writes a part file when a second has passed
        (so a hard kill loses at most about a second of runs) or the buffer is full."""
        self._buffer.append(row)
        if len(self._buffer) >= max_rows or time.monotonic() - self._last_flush >= flush_every:
            self.flush()

    def flush(self) -> None:
        if not self._buffer:
            return
        import pyarrow as pa

        table = pa.Table.from_pylist(self._buffer)
        self._write(table)
        self._buffer = []
        self._last_flush = time.monotonic()

    def _write(self, table) -> pathlib.Path:
        import pyarrow.parquet as pq

        table = table.replace_schema_metadata({b"satcp": json.dumps(_schema_meta(self.meta)).encode()})
        name = f"part-{uuid.uuid4().hex}.parquet"
        tmp = self.path / f".tmp-{name}"
        try:
            with open(tmp, "wb") as f:
                pq.write_table(table, f, compression="zstd")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path / name)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return self.path / name

    def compact(self) -> None:
        """Rewrites all parts as one (rows sorted by point and replication)."""
        self.flush()
        parts = self.parts()
        if len(parts) <= 1:
            return
        kept = self._write(read_table(self.path))
        for p in parts:
            if p != kept:
                p.unlink()


def _schema_meta(meta: dict | None) -> dict:
    meta = meta or {}
    return {k: meta[k] for k in ("factors", "levels", "metric_columns", "name", "replications") if k in meta}


def _atomic_write(path: pathlib.Path, data: bytes) -> None:
    tmp = path.with_name(f".tmp-{path.name}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


# ---------------------------------------------------------------- reading


def read_table(path: str | os.PathLike, columns: list[str] | None = None):
    """The rows of a results directory (or a single Parquet file) as a
    pyarrow Table: one row per (point, replication), sorted by them; the
    factors and their levels in ``schema.metadata[b"satcp"]``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    where = pathlib.Path(path)
    if where.is_dir():
        files = sorted(where.glob("part-*.parquet"))
        if not files and not (where / _META).exists():
            raise ResultsError("is not a satcp results directory (no part-*.parquet files)", file=str(path))
    elif where.exists():
        files = [where]
    else:
        raise ResultsError("no such file or directory", file=str(path))
    tables = []
    for f in files:
        try:
            tables.append(pq.read_table(f, columns=columns))
        except (OSError, pa.ArrowException) as e:
            raise ResultsError(f"unreadable Parquet: {' '.join(str(e).split())}", file=str(f)) from None
    meta = _meta_of(tables, where)
    if not tables:
        return pa.table({"point": pa.array([], pa.int64()), "replication": pa.array([], pa.int64())})
    table = pa.concat_tables(tables, promote_options="permissive") if len(tables) > 1 else tables[0]
    for k in KEY:
        if k not in table.column_names:
            raise ResultsError(f"has no `{k}` column: not satcp results", file=str(path))
    table = table.sort_by([(k, "ascending") for k in KEY])
    table = _drop_duplicates(table)
    if meta is not None:
        table = table.replace_schema_metadata({b"satcp": json.dumps(meta).encode()})
    return table


def _meta_of(tables, where: pathlib.Path) -> dict | None:
    for t in tables:
        raw = (t.schema.metadata or {}).get(b"satcp")
        if raw:
            return json.loads(raw)
    try:
        return _schema_meta(json.loads((where / _META).read_text())) if where.is_dir() else None
    except (OSError, ValueError):
        return None


def _drop_duplicates(table):
    """Keeps the first row of each (point, replication); the table is sorted."""
    import numpy as np

    if table.num_rows < 2:
        return table
    point = table.column("point").to_numpy()
    rep = table.column("replication").to_numpy()
    keep = np.ones(table.num_rows, dtype=bool)
    keep[1:] = (point[1:] != point[:-1]) | (rep[1:] != rep[:-1])
    return table if keep.all() else table.filter(keep)


def read_results(path: str | os.PathLike):
    """The rows as a pandas DataFrame, sorted by (point, replication), with
    ``df.attrs["factors"]`` (factor column names, design order) and
    ``df.attrs["levels"]`` (each factor's levels, design order)."""
    table = read_table(path)
    meta = json.loads((table.schema.metadata or {}).get(b"satcp", b"{}"))
    df = table.to_pandas()
    df.attrs["factors"] = list(meta.get("factors", []))
    df.attrs["levels"] = dict(meta.get("levels", {}))
    return df


def rows_equal(a: Iterable[dict], b: Iterable[dict]) -> bool:
    """Row-by-row equality (NaN equal to NaN), for tests and checks."""
    import math

    def same(x, y):
        if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
            return True
        if isinstance(x, list) and isinstance(y, list):
            return len(x) == len(y) and all(same(p, q) for p, q in zip(x, y))
        return x == y

    a, b = list(a), list(b)
    return len(a) == len(b) and all(ra.keys() == rb.keys() and all(same(ra[k], rb[k]) for k in ra)
                                     for ra, rb in zip(a, b))
