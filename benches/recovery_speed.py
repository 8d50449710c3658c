"""Speed of the SACK-based recoveries and the cost of traces.

    python3 benches/recovery_speed.py [--seconds 200]

On the reference scenario (scenarios/geo-10mbps.toml, BER 0), times satcp's
Rust runner with each loss recovery (NewReno; NewReno + SACK, RFC 6675;
sack, Fall & Floyd; fack) against ns-3 with SACK on, which does about the
same work (~160,000 data segments in 200 s), in one session, as ratios.
Then times satcp.run with --trace-dir and --pcap against the same run
without, to show what traces cost when asked for.
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

    ns, ns_kib = timed([ns3, *ns3_args(ber=0, seconds=args.seconds, run=1, sack=True)])
    say(f"reference scenario, BER 0, {args.seconds:g} s")
    say(f"{'':24} {'wall s':>7} {'data segs':>10} {'Mb/s':>6} {'peak MiB':>8} {'ns-3 SACK / satcp':>18}")
    say(f"{'ns-3, SACK on':24} {ns['wall_s']:7.3f} {'':>10} {ns['goodput_bps'] / 1e6:6.3f} {ns_kib / 1024:8.1f}")
    for label, variant, sack in [("satcp newreno", "newreno", False), ("satcp newreno + sack", "newreno", True),
                                 ("satcp sack (Fall-Floyd)", "sack", True), ("satcp fack", "fack", True)]:
        scenario = satcp_scenario(tmp, ber=0, seconds=args.seconds, variant=variant, sack=sack)
        runs = [timed([satcp, str(scenario), "1"]) for _ in range(3)]
        (r, kib) = min(runs, key=lambda x: x[0]["wall_s"])
        f = r["flows"][0]
        say(f"{label:24} {r['wall_s']:7.3f} {f['segments_sent']:10,} {f['goodput_bps'] / 1e6:6.3f} {kib / 1024:8.1f}"
            f" {ns['wall_s'] / r['wall_s']:17.0f}x")

    import satcp as api  # traces go through the Python API, as users call them

    scenario = satcp_scenario(tmp, ber=0, seconds=args.seconds, variant="newreno", sack=True)
    plain = min(api.run(scenario).wall_s for _ in range(3))
    traced = []
    for i in range(3):
        r = api.run(scenario, trace_dir=tmp / f"t{i}", pcap=tmp / f"t{i}.pcap")
        traced.append(r.wall_s)
    say(f"traces (BER 0, newreno + sack): {plain * 1e3:.1f} ms plain, {min(traced) * 1e3:.1f} ms with "
        f"--trace-dir and --pcap ({min(traced) / plain:.1f}x)")


if __name__ == "__main__":
    main()
