"""Simulator against the real Linux stack over satcp's link emulator, on the
reference GEO scenario (scenarios/geo-10mbps.toml, with SACK on as Linux
has it), BER 0 and 1e-6, and the emulator's delay jitter at 10 Mb/s.

    sudo .venv/bin/python benches/emulate_compare.py [--duration 30] [--seeds 3] [--parallel 1]
                                                     [--variants newreno,cubic,bbr] [--bers 0,1e-6] [--rack]

Runs in real time (about duration x runs / parallel); prints a Markdown
table for benches/README.md. `--parallel N` runs N emulations at once, each
in its own namespaces (at 10 Mb/s an emulator needs a few per cent of a
core). The emulator needs root, /dev/net/tun and `ip`.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import pathlib
import statistics

import satcp

ROOT = pathlib.Path(__file__).resolve().parent.parent
GEO = ROOT / "scenarios" / "geo-10mbps.toml"


def mean_sd(xs):
    return statistics.mean(xs), (statistics.stdev(xs) if len(xs) > 1 else 0.0)


def one_run(over: dict, sim_only: dict) -> tuple[float, int, float, int]:
    """(simulator Mb/s, retransmissions, Linux Mb/s, retransmissions) for one seed."""
    s = satcp.run(GEO, **over, **sim_only)
    e = satcp.emulate(GEO, **over)
    return (s.flows[0].goodput_bps / 1e6, s.flows[0].retransmits,
            e.flows[0].goodput_bps / 1e6, e.flows[0].retransmits)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--duration", type=float, default=30)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--parallel", type=int, default=1)
    ap.add_argument("--variants", default="newreno,cubic,bbr")
    ap.add_argument("--bers", default="0,1e-6")
    ap.add_argument("--byte-counting", action="store_true",
                    help="simulate Reno with RFC 3465 byte counting, as Linux grows (its kernel always does)")
    ap.add_argument("--rack", action="store_true",
                    help="RACK-TLP on both sides (flow key rack; the kernel's tcp_recovery and tcp_early_retrans)")
    ap.add_argument("--jitter", action=argparse.BooleanOptionalAction, default=True,
                    help="also measure the emulator's added-delay jitter (default on)")
    args = ap.parse_args()
    base = {"duration": f"{args.duration}s", "flow.0.sack": True, "flow.0.rack": args.rack}
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print("| variant | BER | simulator Mb/s (sd) | Linux Mb/s (sd) | Linux / sim | sim retx | Linux retx |")
    print("|---|---|---:|---:|---:|---:|---:|")
    with concurrent.futures.ProcessPoolExecutor(args.parallel) as pool:
        for variant in args.variants.split(","):
            for ber in [float(b) for b in args.bers.split(",")]:
                overs = [{**base, "flow.0.variant": variant, "path.ber": ber, "seed": seed}
                         for seed in range(1, args.seeds + 1)]
                sim_only = {"flow.0.byte_counting": True} if args.byte_counting and variant == "newreno" else {}
                sims, sim_rx, emus, emu_rx = zip(*pool.map(one_run, overs, [sim_only] * len(overs)))
                sm, ssd = mean_sd(sims)
                em, esd = mean_sd(emus)
                print(f"| {variant} | {ber:g} | {sm:.3f} ({ssd:.3f}) | {em:.3f} ({esd:.3f}) | {em / sm:.2f} "
                      f"| {statistics.mean(sim_rx):.0f} | {statistics.mean(emu_rx):.0f} |", flush=True)
    if not args.jitter:
        return
    r = satcp.emulate(GEO, duration="10s", probe={"rate_bps": 8e6, "size": 1000}, tcp=False)
    p, late = r.extra["probe"], r.extra["emulator"]["late_write_us"]
    lo, p50, p99, hi = p["added_delay_us"]
    print(f"\njitter at 10 Mb/s, 1000 B datagrams at 8 Mb/s, {p['sent']} sent, {p['received']} received: "
          f"added delay min {lo:.0f} us, p50 {p50:.0f} us, p99 {p99:.0f} us, max {hi:.0f} us; "
          f"late writes p50 {late['p50']:.0f} p99 {late['p99']:.0f} max {late['max']:.0f} us; "
          f"{r.extra['emulator']['scheduler']}; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
