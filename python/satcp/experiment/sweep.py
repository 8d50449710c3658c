"""``satcp sweep``: expand a design, check it, run what is missing, store
rows as they finish, show progress, and keep finished rows when stopped."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import sys
import time

from .design import Design, DesignError, load_design
from .runner import EngineSpec, RunFailed
from .store import Store

__all__ = ["sweep", "SweepReport", "check_design"]


@dataclasses.dataclass
class SweepReport:
    path: str
    total: int          # runs in the design
    skipped: int        # already in the store (resume)
    ran: int            # run now
    wall_s: float

    def line(self) -> str:
        rate = self.ran / self.wall_s if self.wall_s > 0 else 0.0
        resumed = f", {self.skipped} already done" if self.skipped else ""
        return (f"{self.ran} runs in {self.wall_s:.1f} s ({rate:.1f} runs/s){resumed}; "
                f"{self.total} rows in {self.path}")


def check_design(design: Design, runs) -> None:
    """Runs each design point for one simulated millisecond, so that a bad
    key or level (which only the simulator knows) stops the sweep before it
    starts, with one line naming the design file, the point and the key."""
    import satcp

    seen = set()
    for run in runs:
        if run.point in seen:
            continue
        seen.add(run.point)
        probe = dict(run.scenario, duration="1ms")
        try:
            satcp.run(probe)
        except satcp.ScenarioError as e:
            where = ", ".join(f"{k}={_show(v)}" for k, v in run.levels.items())
            raise DesignError(f"design point {run.point} ({where}): {e.message}", key=e.key,
                              file=design.file) from None


def _show(v) -> str:
    return f'"{v}"' if isinstance(v, str) else str(v)


def sweep(design: Design | str | os.PathLike, out: str | os.PathLike, *, engine: str = "local",
          workers: int | None = None, scheduler: str | None = None, client=None, resume: bool = False,
          overwrite: bool = False, progress: bool | None = None, overrides=None) -> SweepReport:
    """Runs a design and stores one row per run in the results directory
    ``out``; returns what it did. ``engine`` is "local" (a process pool of
    ``workers``, all cores by default) or "dask" (``client``, or the
    scheduler at ``scheduler``, or a local cluster). With ``resume`` only
    the runs missing from ``out`` are run. Interrupted (Ctrl-C, SIGTERM),
    it keeps every finished row and raises KeyboardInterrupt."""
    if not isinstance(design, Design):
        design = load_design(design, overrides)
    elif overrides:
        raise TypeError("overrides apply when the design is read; pass them to load_design")
    runs = design.runs()
    check_design(design, runs)
    store = Store(out)
    meta = {
        "fingerprint": design.fingerprint(runs),
        "runs": len(runs),
        "name": design.name,
        "design_file": design.file,
        "design_text": design.text,
        "replications": design.replications,
        "factors": design.factor_names,
        "levels": design.levels(),
        "seeds": "common" if design.common_random_numbers else "independent",
        "design_seed": design.seed,
    }
    done = store.open(meta, resume=resume, overwrite=overwrite)
    todo = [r.task() for r in runs if (r.point, r.replication) not in done]
    spec = EngineSpec(engine, workers, scheduler, client)
    started = time.perf_counter()
    finished = 0
    show = sys.stderr.isatty() if progress is None else progress
    with _stop_on_sigterm(), _progress(show, len(runs), len(done)) as advance:
        try:
            for row in spec.rows(todo) if todo else ():
                store.add(row)
                finished += 1
                advance()
        except RunFailed as e:
            store.flush()
            raise _explain(e, design) from None
        except BaseException:
            store.flush()  # whatever stopped us, keep what finished
            raise
        store.compact()
    return SweepReport(str(out), len(runs), len(done), finished, time.perf_counter() - started)


def _explain(failure: RunFailed, design: Design) -> Exception:
    import satcp

    t = failure.task
    where = ", ".join(f"{k}={_show(v)}" for k, v in t["levels"].items())
    text = f"design point {t['point']} ({where}), replication {t['replication']}, seed {t['seed']}"
    if isinstance(failure.error, satcp.ScenarioError):
        return DesignError(f"{text}: {failure.error.message}", key=failure.error.key, file=design.file)
    return satcp.SimulationError(f"{text}: {failure}")


@contextlib.contextmanager
def _stop_on_sigterm():
    """SIGTERM (a batch system's kill) stops a sweep as Ctrl-C does."""
    def handler(signum, frame):
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _progress(show: bool, total: int, already: int):
    """A progress bar on stderr: runs done, rate and time left."""
    if not show:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                               TimeRemainingColumn)
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            speed = task.speed
            return Text("" if speed is None else f"{speed:.1f} runs/s")

    with Progress(TextColumn("sweep"), BarColumn(), MofNCompleteColumn(), Rate(),
                  TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True),
                  transient=False) as bar:
        task = bar.add_task("sweep", total=total, completed=already)
        yield lambda: bar.advance(task)
