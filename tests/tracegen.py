"""Synthetic trace directories in the format ``satcp run --trace-dir`` writes,
from a deliberately small TCP: one flow over a link with a fixed RTT and a
serialisation gap, an ACK per segment with SACK blocks, fast retransmit on
the third duplicate ACK, NewReno partial ACKs, and an RTO with go-back-N.
It only has to make plausible, self-consistent traces for the plot tests and
the render benchmark, not to be right about TCP."""

from __future__ import annotations

import heapq
import json
import pathlib

import pandas as pd


def write_trace(directory: pathlib.Path, *, segments: int = 300, mss: int = 1000, rtt: float = 0.5,
                gap: float = 0.002, window: int = 64, lost: set[int] | frozenset = frozenset({40, 150, 153}),
                tail_lost_from: int | None = 285, flow: int = 0) -> pathlib.Path:
    """Writes flow ``flow``'s trace files, ``drops.csv`` and ``meta.json``.

    ``lost``: segment numbers whose first transmission is lost (a single
    loss, then two in one window); ``tail_lost_from``: the first
    transmission of every segment from this one to the end is lost too, so
    no duplicate ACKs come back and only the retransmission timer recovers."""
    directory.mkdir(parents=True, exist_ok=True)
    out = _Sim(segments, mss, rtt, gap, window, set(lost), tail_lost_from).run()
    pd.DataFrame(out.sends, columns=["time_s", "seq", "len", "retransmit"]).to_csv(
        directory / f"flow-{flow}-segments.csv", index=False)
    pd.DataFrame(out.acks, columns=["time_s", "ack", "window", "sack"]).to_csv(
        directory / f"flow-{flow}-acks.csv", index=False)
    # object columns, so that an empty ssthresh or srtt is written "" and a number with no ".0"
    pd.DataFrame(out.states, columns=["time_s", "cwnd", "ssthresh", "flight", "srtt_s", "rto_s"], dtype=object).to_csv(
        directory / f"flow-{flow}-cwnd.csv", index=False)
    drops = pd.DataFrame(out.drops, columns=["time_s", "flow", "link", "seq", "len", "cause"])
    drops["flow"] = flow
    drops.to_csv(directory / "drops.csv", index=False)
    (directory / "meta.json").write_text(json.dumps({
        "flows": [{"id": flow, "variant": "newreno", "mss": mss, "sack": True}],
        "links": [{"name": "forward"}, {"name": "return"}], "seed": 1, "duration_s": out.now}))
    return directory


class _Sim:
    def __init__(self, total, mss, rtt, gap, window, lost, tail_lost_from):
        self.total, self.mss, self.rtt, self.gap, self.window = total, mss, rtt, gap, window
        self.lost, self.tail = lost, tail_lost_from
        self.events: list = []
        self.order = 0
        self.now = 0.0
        self.link_free = 0.0
        # Sender, in segment numbers.
        self.una = self.nxt = self.max_sent = 0
        self.cwnd, self.ssthresh = 1.0, None
        self.dups, self.recover, self.in_recovery = 0, 0, False
        self.srtt, self.rto, self.timer = None, 1.0, 0
        self.sent_at: dict[int, float] = {}
        self.ever_sent: set[int] = set()
        # Receiver.
        self.rcv_nxt, self.ooo = 0, set()
        self.sends, self.acks, self.states, self.drops = [], [], [], []

    def at(self, t, kind, *args):
        self.order += 1
        heapq.heappush(self.events, (t, self.order, kind, args))

    def run(self):
        self.transmit()
        self.arm()
        self.note()
        while self.events:
            self.now, _, kind, args = heapq.heappop(self.events)
            getattr(self, kind)(*args)
            self.note()
        return self

    # Sender.
    def transmit(self):
        while self.nxt < self.total and self.nxt - self.una < min(int(self.cwnd), self.window):
            self.send(self.nxt)
            self.nxt += 1
            self.max_sent = max(self.max_sent, self.nxt)

    def send(self, n):
        again = n in self.ever_sent
        self.ever_sent.add(n)
        self.sent_at[n] = None if again else self.now  # Karn: no samples from retransmissions
        self.sends.append((self.now, n * self.mss, self.mss, int(again)))
        self.link_free = max(self.link_free, self.now) + self.gap
        if not again and (n in self.lost or (self.tail is not None and n >= self.tail)):
            self.drops.append((self.link_free, 0, "forward", n * self.mss, self.mss, "error"))
            return
        self.at(self.link_free + self.rtt / 2, "arrive", n)

    def on_ack(self, ack):
        if ack > self.una:
            sample = self.sent_at.get(ack - 1)
            if sample is not None:
                self.srtt = self.now - sample if self.srtt is None else 0.875 * self.srtt + 0.125 * (self.now - sample)
                self.rto = max(1.0, 2 * self.srtt)
            self.una, self.dups = ack, 0
            self.nxt = max(self.nxt, self.una)
            if self.in_recovery and ack >= self.recover:
                self.in_recovery, self.cwnd = False, float(self.ssthresh)
            elif self.in_recovery:
                self.send(self.una)  # NewReno: a partial ACK retransmits the next hole
            elif self.ssthresh is None or self.cwnd < self.ssthresh:
                self.cwnd += 1
            else:
                self.cwnd += 1 / self.cwnd
            self.arm()
        elif ack == self.una and self.nxt > self.una:
            self.dups += 1
            if self.dups == 3 and not self.in_recovery:
                self.ssthresh = max((self.nxt - self.una) // 2, 2)
                self.cwnd, self.recover, self.in_recovery = float(self.ssthresh), self.max_sent, True
                self.send(self.una)
        self.transmit()

    def arm(self):
        self.timer += 1
        if self.una < self.max_sent:
            self.at(self.now + self.rto, "timeout", self.timer)

    def timeout(self, generation):
        if generation != self.timer or self.una >= self.max_sent:
            return
        self.ssthresh = max((self.nxt - self.una) // 2, 2)
        self.cwnd, self.nxt, self.dups, self.in_recovery = 1.0, self.una, 0, False
        self.rto *= 2
        self.transmit()
        self.arm()

    # Receiver: an ACK per segment, SACK blocks most recent first.
    def arrive(self, n):
        if n == self.rcv_nxt:
            self.rcv_nxt += 1
            while self.rcv_nxt in self.ooo:
                self.ooo.remove(self.rcv_nxt)
                self.rcv_nxt += 1
        elif n > self.rcv_nxt:
            self.ooo.add(n)
        blocks = _runs(sorted(self.ooo))
        blocks.sort(key=lambda b: not (b[0] <= n < b[1]))
        sack = " ".join(f"{a * self.mss}-{b * self.mss}" for a, b in blocks[:3])
        self.at(self.now + self.rtt / 2, "ack_back", self.rcv_nxt, sack)

    def ack_back(self, ack, sack):
        self.acks.append((self.now, ack * self.mss, self.window * self.mss, sack))
        self.on_ack(ack)

    def note(self):
        row = (int(self.cwnd) * self.mss, None if self.ssthresh is None else self.ssthresh * self.mss,
               (self.max_sent - self.una) * self.mss, self.srtt, self.rto)
        if not self.states or self.states[-1][1:] != row:
            self.states.append((self.now, *row))


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n:
            runs[-1][1] = n + 1
        else:
            runs.append([n, n + 1])
    return [tuple(r) for r in runs]


def write_bulk_trace(directory: pathlib.Path, *, segments: int, duration: float = 200.0, mss: int = 1448,
                     rtt: float = 0.55, every: int = 997, flow: int = 0) -> pathlib.Path:
    """A big trace built with numpy, for speed tests: ``segments`` new
    segments evenly over ``duration`` s; every ``every``-th is lost and
    retransmitted after three duplicate ACKs carrying a SACK block; one
    state row per ACK."""
    import numpy as np

    directory.mkdir(parents=True, exist_ok=True)
    gap = duration / segments
    n = np.arange(segments)
    sent = n * gap
    lost = n[(n % every == every // 2) & (n + 4 < segments)]
    again = sent[lost] + rtt + 3 * gap
    seg = pd.DataFrame({"time_s": np.concatenate([sent, again]), "seq": np.concatenate([n, lost]) * mss,
                        "len": mss, "retransmit": np.r_[np.zeros(segments, int), np.ones(len(lost), int)]})
    seg.sort_values("time_s", kind="stable").to_csv(directory / f"flow-{flow}-segments.csv", index=False)

    ack = (n + 1) * mss
    sack = np.full(segments, "", dtype=object)
    for k in (1, 2, 3):  # the three ACKs after a loss repeat the hole's left edge
        after = lost + k
        ack[after] = lost * mss
        sack[after] = [f"{(a + 1) * mss}-{(a + k + 1) * mss}" for a in lost]
    ack[lost] = lost * mss  # the lost segment's own slot: the ACK of the one before it
    acks = pd.DataFrame({"time_s": sent + rtt, "ack": ack, "window": 16_000_000, "sack": sack})
    acks.to_csv(directory / f"flow-{flow}-acks.csv", index=False)

    cwnd = 10 + (n % every) * 2
    pd.DataFrame({"time_s": sent + rtt, "cwnd": cwnd * mss, "ssthresh": 600 * mss, "flight": cwnd * mss,
                  "srtt_s": rtt, "rto_s": 1.0}).to_csv(directory / f"flow-{flow}-cwnd.csv", index=False)
    (directory / "meta.json").write_text(json.dumps({
        "flows": [{"id": flow, "variant": "newreno", "mss": mss, "sack": True}], "links": [], "seed": 1,
        "duration_s": duration}))
    return directory
