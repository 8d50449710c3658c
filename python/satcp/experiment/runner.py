"""Running a sweep's runs: one run into one row, and the engines that run
many (a local process pool, or a Dask cluster). Engines only schedule; the
row is a pure function of the task, so every engine gives the same rows."""

from __future__ import annotations

import dataclasses
import os
import signal
from typing import Iterator

__all__ = ["run_task", "make_row", "local_engine", "dask_engine", "RunFailed", "ENGINES"]

ENGINES = ("local", "dask")

#: Per-flow values summed into one column of the row.
_SUMMED = ("bytes_delivered", "retransmits", "timeouts", "fast_retransmits", "segments_sent")


class RunFailed(RuntimeError):
    """A run raised; carries the task so the message can name the point."""

    def __init__(self, task: dict, error: BaseException):
        self.task = task
        self.error = error
        super().__init__(f"{type(error).__name__}: {error}")


def run_task(task: dict) -> dict:
    """Runs one task (see :meth:`Design.runs`) and returns its row. Module
    level, so that processes and Dask workers can import it."""
    import satcp

    result = satcp.run(task["scenario"])
    return make_row(task, result)


def make_row(task: dict, result) -> dict:
    """One row per run: the point, replication and seed; the factor levels;
    run totals; per-flow means and sums; Jain's index over the flows; and
    every per-flow and per-link value as a list column (``flow_<field>``,
    ``link_<field>``), so that multi-flow runs keep all they measured."""
    from ..stats.jain import jain_index

    flows = [f.to_dict() for f in result.flows]
    links = [link.to_dict() for link in result.links]
    goodputs = [f["goodput_bps"] for f in flows]
    row = {"point": task["point"], "replication": task["replication"], "seed": task["seed"]}
    row.update(task["levels"])
    row.update({
        "sim_time_s": float(result.sim_time_s),
        "events": int(result.events),
        "flows": len(flows),
        # Carroll reports multi-client runs as the average per-client goodput (000.md §3.6).
        "goodput_bps": sum(goodputs) / len(goodputs) if goodputs else float("nan"),
        "goodput_total_bps": float(sum(goodputs)),
    })
    for name in _SUMMED:
        values = [f.get(name) for f in flows]
        row[name] = int(sum(v for v in values if v is not None))
    row["jain_index"] = jain_index(goodputs)
    # A PEP's per-leg records stay in `satcp run --json`; rows keep flat columns.
    row.update(_lists("flow", flows, skip={"id", "legs"}))
    row.update(_lists("link", links))
    return row


def _lists(prefix: str, records: list[dict], skip: set = frozenset()) -> dict:
    names: list[str] = []
    for r in records:
        names += [k for k in r if k not in names and k not in skip]
    out = {}
    for name in names:
        values = [r.get(name) for r in records]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) or v is None for v in values):
            # One numeric type per column whatever the run: floats, nulls kept.
            values = [None if v is None else float(v) for v in values]
        out[f"{prefix}_{name}"] = values
    return out


# ---------------------------------------------------------------- engines


def _quiet_worker() -> None:
    # Ctrl-C reaches the whole process group; the parent decides what to keep.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def local_engine(tasks: list[dict], workers: int | None = None) -> Iterator[dict]:
    """Yields rows as runs finish, on ``workers`` processes (all cores by default)."""
    workers = workers or os.cpu_count() or 1
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield _guarded(task)
        return
    import concurrent.futures as cf
    import multiprocessing

    # forkserver, not fork: the parent has threads (progress display).
    pool = cf.ProcessPoolExecutor(max_workers=min(workers, len(tasks)),
                                  mp_context=multiprocessing.get_context("forkserver"),
                                  initializer=_quiet_worker)
    try:
        futures = {pool.submit(run_task, task): task for task in tasks}
        for future in cf.as_completed(futures):
            try:
                yield future.result()
            except Exception as e:
                raise RunFailed(futures[future], e) from None
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def _guarded(task: dict) -> dict:
    try:
        return run_task(task)
    except Exception as e:
        raise RunFailed(task, e) from None


def dask_engine(tasks: list[dict], *, scheduler: str | None = None, client=None,
                workers: int | None = None) -> Iterator[dict]:
    """Yields rows as runs finish on a Dask cluster: ``client`` if given, else
    the scheduler at ``scheduler``, else a local cluster of ``workers``
    single-threaded processes (all cores by default)."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        from .design import DesignError

        raise DesignError("the Dask engine needs dask.distributed: pip install 'satcp[dask]'") from None
    import logging

    own_client = own_cluster = None
    try:
        if client is None:
            if scheduler:
                try:
                    own_client = client = Client(scheduler, timeout="10s")
                except (OSError, TimeoutError) as e:
                    from .design import DesignError

                    raise DesignError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
            else:
                own_cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                                           processes=True, dashboard_address=None, silence_logs=logging.ERROR)
                own_client = client = Client(own_cluster)
        futures = client.map(run_task, tasks, pure=False)
        by_key = {f.key: t for f, t in zip(futures, tasks)}
        try:
            for future in as_completed(futures):
                try:
                    yield future.result()
                except Exception as e:
                    raise RunFailed(by_key[future.key], e) from None
        finally:
            client.cancel(futures)
    finally:
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()


@dataclasses.dataclass
class EngineSpec:
    name: str = "local"
    workers: int | None = None
    scheduler: str | None = None
    client: object = None

    def rows(self, tasks: list[dict]) -> Iterator[dict]:
        if self.name == "local":
            return local_engine(tasks, self.workers)
        if self.name == "dask":
            return dask_engine(tasks, scheduler=self.scheduler, client=self.client, workers=self.workers)
        from .design import DesignError

        raise DesignError(f"unknown engine {self.name!r}; accepted: {', '.join(ENGINES)}")
