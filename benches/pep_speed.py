"""Lawson's T1 GEO link end to end and split by SCPS gateways: goodput,
events and wall time per run.

    python3 benches/pep_speed.py [--seconds 300] [--repeat 3]

Runs scenarios/lawson-t1-geo.toml (the `[path]` form), lawson-testbed.toml
(routers) and lawson-pep.toml (two PEPs) at BER 1e-9, 1e-7 and 1e-5 on the
satellite hop both ways, seed 1, through satcp.run; prints the best
`wall_s` (the simulator's own time) of --repeat runs as a Markdown table.
"""

import argparse

import satcp

SCENARIOS = {
    "lawson-t1-geo": ("path.ber", "path.return_ber"),
    "lawson-testbed": ("link.0.ber", "link.0.return_ber"),
    "lawson-pep": ("link.0.ber", "link.0.return_ber"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("| scenario | BER | goodput kb/s | events | wall s |")
    print("|---|---|---|---|---|")
    for ber in [1e-9, 1e-7, 1e-5]:
        for name, keys in SCENARIOS.items():
            overrides = {key: ber for key in keys}
            runs = [satcp.run(f"scenarios/{name}.toml", seed=1, duration=f"{args.seconds}s", **overrides)
                    for _ in range(args.repeat)]
            r = runs[0]
            print(f"| {name} | {ber:g} | {r.flows[0].goodput_bps / 1e3:,.1f} | {r.events:,} | "
                  f"{min(x.wall_s for x in runs):.4f} |")


if __name__ == "__main__":
    main()
