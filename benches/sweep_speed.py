"""Times Carroll's full design as a sweep: 60 cases x 5 replications = 300
runs of 600 simulated seconds (scenarios/studies/carroll2004/homogeneous.toml), on
the local engine with all cores, from `satcp sweep` start to the last row
stored. Usage: python3 benches/sweep_speed.py [--engine dask]"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
DESIGN = ROOT / "scenarios" / "studies" / "carroll2004" / "homogeneous.toml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", default="local", choices=("local", "dask"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    satcp = pathlib.Path(sys.executable).parent / "satcp"
    print(f"{DESIGN.relative_to(ROOT)}: engine {args.engine}, {os.cpu_count()} cores")
    for i in range(args.repeat):
        out = pathlib.Path(tempfile.mkdtemp()) / "carroll.parquet"
        started = time.perf_counter()
        p = subprocess.run([str(satcp), "sweep", str(DESIGN), "-o", str(out), "--engine", args.engine, "--quiet"],
                           capture_output=True, text=True, check=True)
        wall = time.perf_counter() - started
        print(f"  run {i + 1}: {wall:.1f} s wall, command included; satcp says: {p.stdout.strip()}")
        shutil.rmtree(out.parent)


if __name__ == "__main__":
    main()
