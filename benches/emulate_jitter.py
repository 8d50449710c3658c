"""The emulator's timing, this build against another, in one run: 1000 B UDP
datagrams at 8 Mb/s through a 10 Mb/s, 250 ms link (never queued, so each
should take exactly 250.8 ms), and the added delay's percentiles, the
forwarder's late writes and the emulator's CPU time, per run.

    sudo .venv/bin/python benches/emulate_jitter.py --baseline OLD/satcp-emu [--rounds 5] [--seconds 10] [--load 0]

Builds compared are `satcp-emu` binaries (`cargo build --release -p
satcp-emu`; the baseline from a worktree of the older commit, with its own
CARGO_TARGET_DIR). Runs alternate between the two so that both see the same
machine. `--load N` keeps N busy processes (ordinary priority) running
meanwhile, as a loaded CI machine would.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
CURRENT = ROOT / "target" / "release" / "satcp-emu"


def request(seconds: float) -> str:
    scenario = {"duration": f"{seconds}s", "seed": 1,
                "path": {"rate": "10Mbps", "delay": "250ms", "queue": 1000},
                "flow": [{"variant": "reno"}]}
    return json.dumps({"scenario": scenario, "tcp": False, "probe": {"rate_bps": 8_000_000, "size": 1000}})


def one_run(binary: pathlib.Path, seconds: float) -> dict:
    """Added delay (min, p50, p99, max, us) and late writes (p50, p99, us) of one emulation."""
    proc = subprocess.Popen([str(binary), "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    out, _ = proc.communicate(request(seconds))
    if proc.returncode:
        raise SystemExit(f"{binary} exited with {proc.returncode}")
    r = json.loads(out)
    lo, p50, p99, hi = r["probe"]["added_delay_us"]
    late = r["emulator"]["late_write_us"]
    return {"min": lo, "p50": p50, "p99": p99, "max": hi, "late_p50": late["p50"], "late_p99": late["p99"],
            "received": r["probe"]["received"], "sent": r["probe"]["sent"]}


def cpu_seconds(binary: pathlib.Path, seconds: float) -> tuple[dict, float]:
    """One run, and the CPU time (user + system) the emulator process used."""
    before = os.times()
    row = one_run(binary, seconds)
    after = os.times()
    return row, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", type=pathlib.Path, required=True, help="the older satcp-emu binary")
    ap.add_argument("--current", type=pathlib.Path, default=CURRENT, help=f"default {CURRENT}")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--load", type=int, default=0, help="busy processes to run meanwhile")
    args = ap.parse_args()
    hogs = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(args.load)]
    try:
        rows = {"baseline": [], "current": []}
        for _ in range(args.rounds):
            for name, binary in [("baseline", args.baseline), ("current", args.current)]:
                rows[name].append(cpu_seconds(binary, args.seconds))
    finally:
        for h in hogs:
            h.kill()
    print(f"{args.rounds} runs each of {args.seconds:g} s, {args.load} busy processes, load {os.getloadavg()[0]:.1f}")
    print("| build | added delay min / p50 / p99 / max, us (median of runs) | worst run's p99, us "
          "| late writes p50 / p99, us | CPU s per run | lost |")
    print("|---|---|---:|---|---:|---:|")
    for name, runs in rows.items():
        med = {k: statistics.median(r[k] for r, _ in runs) for k in ("min", "p50", "p99", "max", "late_p50", "late_p99")}
        worst = max(r["p99"] for r, _ in runs)
        lost = sum(r["sent"] - r["received"] for r, _ in runs)
        cpu = statistics.mean(c for _, c in runs)
        print(f"| {name} | {med['min']:.0f} / {med['p50']:.0f} / {med['p99']:.0f} / {med['max']:.0f} | {worst:.0f} "
              f"| {med['late_p50']:.0f} / {med['late_p99']:.0f} | {cpu:.2f} | {lost} |")


if __name__ == "__main__":
    main()
