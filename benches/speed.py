"""Speed and memory of satcp against ns-3 on the reference scenario.

    python3 benches/speed.py [--seconds 200]

Runs ns-3's satlink (../shared/bench/ns3) and satcp's Rust runner on
scenarios/geo-10mbps.toml (NewReno, BER 0) one after the other in the same
session, and prints the ratio of their simulation wall times (each program
times its own event loop), events per second and peak memory. ns-3 runs
twice: with SACK off, the same configuration as satcp (which then carries
fewer segments: see benches/README.md), and with SACK on, which carries about
160,000 data segments in 200 s like satcp does; the per-segment ratio
compares equal work. Then checks that satcp's memory stays flat as the
simulated duration grows (100 s against 1000 s, at BER 0).
"""

import argparse
import pathlib
import tempfile

from common import build_ns3, build_satcp, ns3_args, satcp_scenario, say, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=200.0)
    args = parser.parse_args()
    ns3, satcp = build_ns3(), build_satcp()
    tmp = pathlib.Path(tempfile.mkdtemp())

    scenario = satcp_scenario(tmp, ber=0, seconds=args.seconds)
    ours, our_kib = timed([satcp, str(scenario)])
    our_segments = ours["flows"][0]["segments_sent"]
    say(f"reference scenario, NewReno, BER 0, {args.seconds:g} simulated seconds")
    say(f"{'':14} {'wall s':>9} {'segments':>9} {'goodput Mb/s':>13} {'events/s':>10} {'peak MiB':>9} {'satcp faster':>13}")
    say(f"{'satcp':14} {ours['wall_s']:9.3f} {our_segments:9d} {ours['flows'][0]['goodput_bps'] / 1e6:13.3f} "
        f"{ours['events'] / ours['wall_s']:10.3g} {our_kib / 1024:9.1f}")
    for sack in (False, True):
        ns, ns_kib = timed([ns3, *ns3_args(ber=0, seconds=args.seconds, run=1, sack=sack)])
        segments = ns["bytes"] / 1448
        per_segment = (ns["wall_s"] / segments) / (ours["wall_s"] / our_segments)
        say(f"{'ns-3 SACK ' + ('on' if sack else 'off'):14} {ns['wall_s']:9.3f} {segments:9.0f} "
            f"{ns['goodput_bps'] / 1e6:13.3f} {'':>10} {ns_kib / 1024:9.1f} "
            f"{ns['wall_s'] / ours['wall_s']:6.0f}x wall, {per_segment:.0f}x per segment")

    rss = {}
    for seconds in (100, 1000):
        path = satcp_scenario(tmp, ber=0, seconds=seconds)
        _, rss[seconds] = timed([satcp, str(path)])
    say(f"satcp peak memory at BER 0: 100 s {rss[100] / 1024:.1f} MiB, 1000 s {rss[1000] / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
