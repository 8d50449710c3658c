"""What one run returns: the simulator's result JSON with attribute access,
tables (pandas) and a readable summary (rich)."""

from __future__ import annotations

import dataclasses
import io
import json

__all__ = ["Result", "FlowResult", "LinkResult", "human_rate", "human_bytes"]


def _split(cls, data: dict) -> dict:
    """Keyword arguments for ``cls``: its fields, and the rest under ``extra``."""
    names = {f.name for f in dataclasses.fields(cls)} - {"extra"}
    kwargs = {k: v for k, v in data.items() if k in names}
    kwargs["extra"] = {k: v for k, v in data.items() if k not in names}
    return kwargs


def _as_dict(obj) -> dict:
    out = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.name != "extra"}
    out.update(obj.extra)
    return out


class _Record:
    """A flat JSON object as a dataclass: named fields, the rest in ``extra``."""

    @classmethod
    def from_dict(cls, data: dict):
        return cls(**_split(cls, data))

    def to_dict(self) -> dict:
        return _as_dict(self)


@dataclasses.dataclass
class FlowResult(_Record):
    """One TCP flow. ``goodput_bps`` is unique payload bytes delivered in order,
    times 8, over the flow's active time; ``completion_time_s`` is None for a
    transfer that did not finish (or a bulk flow, which never does)."""

    id: int
    variant: str
    goodput_bps: float
    bytes_delivered: int
    retransmits: int
    timeouts: int
    completion_time_s: float | None = None
    fast_retransmits: int | None = None
    segments_sent: int | None = None
    start_s: float | None = None
    srtt_s: float | None = None
    final_cwnd_bytes: int | None = None
    #: Bytes a PEP acknowledged to the sender that the real receiver had not
    #: received at the end (0 end to end); goodput is at the real receiver.
    acked_undelivered_bytes: int | None = None
    #: Connections PEPs split the flow into (1 = end to end).
    split_legs: int | None = None
    #: Each split connection in path order (from, to, variant, bytes_delivered,
    #: segments_sent, retransmits, fast_retransmits, timeouts, srtt_s,
    #: final_cwnd_bytes); empty end to end.
    legs: list[dict] = dataclasses.field(default_factory=list)
    #: Fields a newer simulator adds that this version does not name.
    extra: dict = dataclasses.field(default_factory=dict, repr=False)

    def to_dict(self) -> dict:
        out = _as_dict(self)
        if not self.legs:
            del out["legs"]  # as the simulator writes it: no key end to end
        return out


@dataclasses.dataclass
class LinkResult(_Record):
    """One link direction: packets serialised (corrupted ones included), the
    fraction of the run it spent serialising, and what it dropped."""

    name: str
    packets: int
    utilization: float
    queue_drops: int
    error_drops: int
    rate_bps: int | None = None
    #: Packets sent while no satellite was in view (a LEO handover gap).
    outage_drops: int | None = None
    extra: dict = dataclasses.field(default_factory=dict, repr=False)


@dataclasses.dataclass
class Result:
    """The result of one run. ``to_dict()`` / ``to_json()`` give the JSON that
    ``satcp run --json`` prints; ``scenario`` is the scenario that was run."""

    seed: int
    sim_time_s: float
    wall_s: float
    events: int
    flows: list[FlowResult]
    links: list[LinkResult]
    extra: dict = dataclasses.field(default_factory=dict, repr=False)
    scenario: dict | None = dataclasses.field(default=None, repr=False, compare=False)

    @classmethod
    def from_dict(cls, data: dict, scenario: dict | None = None) -> "Result":
        kwargs = _split(cls, {k: v for k, v in data.items() if k != "scenario"})
        kwargs["flows"] = [FlowResult.from_dict(f) for f in data.get("flows", [])]
        kwargs["links"] = [LinkResult.from_dict(link) for link in data.get("links", [])]
        return cls(**kwargs, scenario=scenario)

    @classmethod
    def from_json(cls, text: str, scenario: dict | None = None) -> "Result":
        return cls.from_dict(json.loads(text), scenario)

    def to_dict(self) -> dict:
        out = {
            "seed": self.seed,
            "sim_time_s": self.sim_time_s,
            "wall_s": self.wall_s,
            "events": self.events,
            "flows": [f.to_dict() for f in self.flows],
            "links": [link.to_dict() for link in self.links],
        }
        out.update(self.extra)
        return out

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    # ------------------------------------------------------------ tables

    def _run_columns(self) -> dict:
        return {"seed": self.seed, "sim_time_s": self.sim_time_s, "wall_s": self.wall_s, "events": self.events}

    def to_dataframe(self):
        """One row per flow: the run's seed, sim_time_s, wall_s and events,
        then every flow field."""
        import pandas as pd

        rows = [{**self._run_columns(), **f.to_dict()} for f in self.flows]
        for row in rows:
            row.pop("legs", None)  # one row per leg in legs_dataframe()
        columns = list(self._run_columns()) + [f.name for f in dataclasses.fields(FlowResult) if f.name not in ("extra", "legs")]
        for row in rows:
            columns += [k for k in row if k not in columns]
        return pd.DataFrame(rows, columns=columns)

    def legs_dataframe(self):
        """One row per connection of each PEP-split flow (flow, leg index in
        path order, then the leg's counters); empty when nothing was split."""
        import pandas as pd

        rows = [
            {**self._run_columns(), "flow": f.id, "leg": i, **leg}
            for f in self.flows for i, leg in enumerate(f.legs)
        ]
        return pd.DataFrame(rows)

    def links_dataframe(self):
        """One row per link, with the run's seed and sim_time_s."""
        import pandas as pd

        rows = [{**self._run_columns(), **link.to_dict()} for link in self.links]
        columns = list(self._run_columns()) + [f.name for f in dataclasses.fields(LinkResult) if f.name != "extra"]
        for row in rows:
            columns += [k for k in row if k not in columns]
        return pd.DataFrame(rows, columns=columns)

    # ------------------------------------------------------------ summary

    def __rich__(self):
        from rich.console import Group
        from rich.table import Table
        from rich.text import Text

        head = Text.assemble(
            ("satcp run", "bold"),
            f"  seed {self.seed}, {_seconds(self.sim_time_s)} simulated in {_seconds(self.wall_s)}"
            f" ({self.events:,} events)",
        )

        flows = Table(title="Flows", title_justify="left", title_style="bold")
        for name, justify in [
            ("flow", "right"), ("variant", "left"), ("goodput", "right"), ("delivered", "right"),
            ("retransmits", "right"), ("timeouts", "right"), ("completion", "right"),
        ]:
            flows.add_column(name, justify=justify)
        for f in self.flows:
            flows.add_row(
                str(f.id), f.variant, human_rate(f.goodput_bps), human_bytes(f.bytes_delivered),
                f"{f.retransmits:,}", f"{f.timeouts:,}",
                _seconds(f.completion_time_s) if f.completion_time_s is not None else "-",
            )

        links = Table(title="Links", title_justify="left", title_style="bold")
        for name, justify in [
            ("link", "left"), ("rate", "right"), ("utilisation", "right"), ("packets", "right"),
            ("queue drops", "right"), ("error drops", "right"),
        ]:
            links.add_column(name, justify=justify)
        for link in self.links:
            links.add_row(
                link.name, human_rate(link.rate_bps) if link.rate_bps is not None else "-",
                f"{100 * link.utilization:.1f} %", f"{link.packets:,}",
                f"{link.queue_drops:,}", f"{link.error_drops:,}",
            )
        parts = [head, flows, links]
        split = [f for f in self.flows if (f.split_legs or 1) > 1]
        if split:
            table = Table(title="Split by PEPs (end to end)", title_justify="left", title_style="bold")
            for name in ["flow", "legs", "goodput at receiver", "acked, not delivered"]:
                table.add_column(name, justify="right")
            for f in split:
                table.add_row(str(f.id), str(f.split_legs), human_rate(f.goodput_bps), human_bytes(f.acked_undelivered_bytes or 0))
            parts.append(table)
            parts.append(_legs_table(split))
        traffic = self.extra.get("traffic") or []
        if traffic:
            table = Table(title="Background traffic", title_justify="left", title_style="bold")
            for name in ["source", "kind", "throughput", "sent", "delivered"]:
                table.add_column(name, justify="left" if name == "kind" else "right")
            for t in traffic:
                table.add_row(str(t["id"]), t["kind"], human_rate(t["throughput_bps"]),
                              f"{t['packets_sent']:,}", f"{t['packets_delivered']:,}")
            parts.append(table)
        return Group(*parts)

    def summary(self, width: int = 100) -> str:
        """The readable summary as plain text: per-flow goodput, bytes
        delivered, retransmissions, timeouts and completion time; per-link
        utilisation, packets and drops."""
        from rich.console import Console

        buffer = io.StringIO()
        console = Console(file=buffer, width=width, no_color=True, color_system=None, force_terminal=False)
        console.print(self)
        return buffer.getvalue()

    def __str__(self) -> str:
        return self.summary()


def _legs_table(split: list[FlowResult]):
    from rich.table import Table

    table = Table(title="Split connections (per leg)", title_justify="left", title_style="bold")
    for name in ["flow", "leg", "variant", "delivered", "segments", "retransmits", "timeouts", "srtt", "final cwnd"]:
        table.add_column(name, justify="left" if name in ("leg", "variant") else "right")
    for f in split:
        for leg in f.legs:
            srtt = leg.get("srtt_s")
            table.add_row(
                str(f.id), f"{leg['from']} -> {leg['to']}", leg["variant"], human_bytes(leg["bytes_delivered"]),
                f"{leg['segments_sent']:,}", f"{leg['retransmits']:,}", f"{leg['timeouts']:,}",
                _seconds(srtt) if srtt is not None else "-", human_bytes(leg["final_cwnd_bytes"]),
            )
    return table


def _seconds(s: float) -> str:
    if s >= 100:
        return f"{s:,.0f} s"
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} us"


def human_rate(bps: float) -> str:
    """``9.48 Mb/s``, ``812 kb/s``: three significant figures, SI prefixes."""
    for factor, unit in [(1e9, "Gb/s"), (1e6, "Mb/s"), (1e3, "kb/s")]:
        if abs(bps) >= factor:
            return f"{_sig3(bps / factor)} {unit}"
    return f"{_sig3(bps)} b/s"


def human_bytes(n: float) -> str:
    """``231.9 MB``: SI prefixes, as scenario files write sizes."""
    for factor, unit in [(1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB")]:
        if abs(n) >= factor:
            return f"{n / factor:.1f} {unit}"
    return f"{n:.0f} B"


def _sig3(x: float) -> str:
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"
