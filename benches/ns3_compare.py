"""Cross-validation of satcp against ns-3 on the reference scenario.

    python3 benches/ns3_compare.py [--seeds 10] [--bers 0,1e-7,1e-6] [--sack]

For each BER, runs ns-3's satlink (TcpNewReno, SACK off unless --sack) and
satcp's scenarios/geo-10mbps.toml (newreno; with --sack, sack = true, which
is RFC 6675 recovery as in ns-3) over the same number of seeds and
prints mean goodput, standard deviation, the ratio satcp/ns-3, and whether
the two means lie within the spread of the replications (the larger
standard deviation).
"""

import argparse
import pathlib
import statistics
import tempfile
from concurrent.futures import ThreadPoolExecutor

from common import build_ns3, build_satcp, ns3_args, satcp_scenario, say, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--bers", default="0,1e-7,1e-6")
    parser.add_argument("--seconds", type=float, default=200.0)
    parser.add_argument("--sack", action="store_true", help="SACK on in both simulators")
    parser.add_argument("--sack-recovery", default="rfc6675", choices=["rfc6675", "prr"],
                        help="satcp's SACK recovery with --sack (ns-3 always runs PRR)")
    args = parser.parse_args()
    ns3, satcp = build_ns3(), build_satcp()
    tmp = pathlib.Path(tempfile.mkdtemp())

    say(f"reference scenario, NewReno {'with' if args.sack else 'without'} SACK, {args.seconds:g} s, {args.seeds} seeds")
    say(f"{'BER':>7} {'ns-3 Mb/s':>10} {'sd':>7} {'satcp Mb/s':>11} {'sd':>7} {'ratio':>6} {'within spread':>14}")
    for ber in [float(b) for b in args.bers.split(",")]:
        seeds = range(1, args.seeds + 1)
        with ThreadPoolExecutor(max_workers=2) as pool:
            ns = list(pool.map(lambda s: timed([ns3, *ns3_args(ber=ber, seconds=args.seconds, run=s, sack=args.sack)])[0], seeds))
        scenario = satcp_scenario(tmp, ber=ber, seconds=args.seconds, sack=args.sack)
        if args.sack:
            text = scenario.read_text().replace("[[flow]]", f'[[flow]]\nsack_recovery = "{args.sack_recovery}"', 1)
            scenario.write_text(text)
        ours = [timed([satcp, str(scenario), str(s)])[0] for s in seeds]
        ns_bps = [r["goodput_bps"] / 1e6 for r in ns]
        our_bps = [r["flows"][0]["goodput_bps"] / 1e6 for r in ours]
        ns_mean, our_mean = statistics.mean(ns_bps), statistics.mean(our_bps)
        ns_sd = statistics.stdev(ns_bps) if len(ns_bps) > 1 else 0.0
        our_sd = statistics.stdev(our_bps) if len(our_bps) > 1 else 0.0
        within = abs(our_mean - ns_mean) <= max(ns_sd, our_sd)
        say(f"{ber:7.0e} {ns_mean:10.3f} {ns_sd:7.3f} {our_mean:11.3f} {our_sd:7.3f} "
            f"{our_mean / ns_mean:6.2f} {'yes' if within else 'no':>14}")


if __name__ == "__main__":
    main()
