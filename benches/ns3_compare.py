"""Cross-validation of satcp against ns-3 on the reference scenario.

    python3 benches/ns3_compare.py [--variants newreno,cubic,...] [--seeds 10]
                                   [--bers 0,1e-7,1e-6] [--seconds 200]
                                   [--ber0-seconds 100] [--sack] [--rack]
                                   [--flow KEY=VALUE ...] [--cc KEY=VALUE ...]

For each variant and BER, runs ns-3's satlink (the variant's TypeId, SACK
off unless --sack; BBR always with SACK, as satcp's bbr) and satcp's
scenarios/geo-10mbps.toml with the same variant over the same number of
seeds, and prints mean goodput, standard deviation, the ratio satcp/ns-3,
and whether the two means lie within the spread of the replications (the
larger standard deviation). --ber0-seconds shortens the BER 0 runs, where
ns-3 is slowest. ns-3 results are cached in ~/.cache/satcp-ns3/results.json.
"""

import argparse
import json
import pathlib
import statistics
import tempfile
from concurrent.futures import ThreadPoolExecutor

from common import build_ns3, build_satcp, ns3_args, satcp_scenario, say, timed

#: satcp variant -> ns-3 congestion-control TypeId (ns-3 has no ADaLR or CETEN-R).
NS3_TYPE = {
    "newreno": "TcpNewReno",
    "vegas": "TcpVegas",
    "hybla": "TcpHybla",
    "westwood": "TcpWestwoodPlus",
    "cubic": "TcpCubic",
    "bbr": "TcpBbr",
}
CACHE = pathlib.Path.home() / ".cache" / "satcp-ns3" / "results.json"


def ns3_runs(ns3: str, tcp: str, ber: float, seconds: float, sack: bool, seeds: range) -> list[float]:
    cache = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    def one(seed: int) -> float:
        key = f"{tcp}/{ber}/{seconds}/{sack}/{seed}"
        if key not in cache:
            cache[key] = timed([ns3, *ns3_args(ber=ber, seconds=seconds, run=seed, sack=sack, tcp=tcp)])[0]["goodput_bps"]
        return cache[key]
    with ThreadPoolExecutor(max_workers=2) as pool:
        out = list(pool.map(one, seeds))
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    CACHE.write_text(json.dumps(cache))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="newreno")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--bers", default="0,1e-7,1e-6")
    parser.add_argument("--seconds", type=float, default=200.0)
    parser.add_argument("--ber0-seconds", type=float, default=None)
    parser.add_argument("--sack", action="store_true", help="SACK on in both simulators")
    parser.add_argument("--sack-recovery", default="rfc6675", choices=["rfc6675", "prr"],
                        help="satcp's SACK recovery with --sack (ns-3 always runs PRR)")
    parser.add_argument("--rack", action="store_true", help="satcp with RACK-TLP (flow key rack) under --sack")
    parser.add_argument("--flow", action="append", default=[], metavar="KEY=VALUE",
                        help="a [[flow]] key for satcp's flow, e.g. byte_counting=true (repeatable)")
    parser.add_argument("--cc", action="append", default=[], metavar="KEY=VALUE",
                        help="a [flow.cc] key for satcp's flow, e.g. hybla_rtt0='\"1s\"' (repeatable)")
    args = parser.parse_args()
    ns3, satcp = build_ns3(), build_satcp()
    tmp = pathlib.Path(tempfile.mkdtemp())

    say(f"reference scenario, {args.seeds} seeds, SACK {'on' if args.sack else 'off'} (bbr: on)"
        f"{', RACK-TLP in satcp' if args.rack else ''}{', satcp [flow.cc] ' + ', '.join(args.cc) if args.cc else ''}"
        f"{', satcp [[flow]] ' + ', '.join(args.flow) if args.flow else ''}")
    say(f"| variant | BER | s | ns-3 Mb/s (sd) | satcp Mb/s (sd) | satcp / ns-3 | within spread |")
    say(f"|---|---|---|---:|---:|---:|:---:|")
    for variant in args.variants.split(","):
        sack = args.sack or variant == "bbr"
        for ber in [float(b) for b in args.bers.split(",")]:
            seconds = args.ber0_seconds if ber == 0 and args.ber0_seconds else args.seconds
            seeds = range(1, args.seeds + 1)
            ns_bps = [g / 1e6 for g in ns3_runs(ns3, NS3_TYPE[variant], ber, seconds, sack, seeds)]
            scenario = satcp_scenario(tmp, ber=ber, seconds=seconds, sack=None if variant == "bbr" else sack, variant=variant)
            if sack and variant != "bbr":
                text = scenario.read_text().replace("[[flow]]", f'[[flow]]\nsack_recovery = "{args.sack_recovery}"', 1)
                if args.rack:
                    text = text.replace("[[flow]]", "[[flow]]\nrack = true", 1)
                scenario.write_text(text)
            for kv in args.flow:
                scenario.write_text(scenario.read_text().replace("[[flow]]", "[[flow]]\n" + " = ".join(kv.split("=", 1)), 1))
            if args.cc:  # the flow's controller table comes last in the file
                scenario.write_text(scenario.read_text() + "\n[flow.cc]\n" + "\n".join(
                    " = ".join(kv.split("=", 1)) for kv in args.cc) + "\n")
            our_bps = [timed([satcp, str(scenario), str(s)])[0]["flows"][0]["goodput_bps"] / 1e6 for s in seeds]
            ns_mean, our_mean = statistics.mean(ns_bps), statistics.mean(our_bps)
            ns_sd = statistics.stdev(ns_bps) if len(ns_bps) > 1 else 0.0
            our_sd = statistics.stdev(our_bps) if len(our_bps) > 1 else 0.0
            within = abs(our_mean - ns_mean) <= max(ns_sd, our_sd)
            say(f"| {variant} | {ber:.0e} | {seconds:g} | {ns_mean:.3f} ({ns_sd:.3f}) | {our_mean:.3f} ({our_sd:.3f}) | "
                f"{our_mean / ns_mean:.2f} | {'yes' if within else 'no'} |")


if __name__ == "__main__":
    main()
