"""Shared helpers for the benchmark scripts: run ns-3's satlink and satcp's
Rust runner on the reference scenario, and read their JSON and peak memory."""

import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REFERENCE = ROOT / "scenarios" / "geo-10mbps.toml"


def build_ns3() -> str:
    """Builds ns-3's satlink (cached) and returns its path."""
    out = subprocess.run(["bash", str(SHARED / "bench" / "ns3" / "build.sh")],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip().splitlines()[-1]


def build_satcp() -> str:
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "satcp-core", "--bin", "satcp-sim"],
                   cwd=ROOT, check=True)
    return str(ROOT / "target" / "release" / "satcp-sim")


def timed(cmd: list[str]) -> tuple[dict, int]:
    """Runs a command printing one JSON line; returns it and the peak RSS in KiB."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], check=True, capture_output=True, text=True)
    peak_kib = int(out.stderr.strip().splitlines()[-1])
    return json.loads(out.stdout.strip().splitlines()[-1]), peak_kib


def satcp_scenario(tmp: pathlib.Path, *, ber: float, seconds: float, sack: bool | None = False,
                   variant: str = "newreno") -> pathlib.Path:
    """The reference scenario with the BER, duration and variant overridden."""
    text = REFERENCE.read_text()
    keys = [("duration", f'"{seconds}s"'), ("ber", repr(ber)), ("variant", f'"{variant}"')]
    if sack is not None:  # None: the variant decides (bbr is SACK recovery)
        keys.append(("sack", str(sack).lower()))
    for key, value in keys:
        text, n = re.subn(rf"^{key} = .*$", f"{key} = {value}", text, count=1, flags=re.M)
        if n == 0:  # not in the file: add it to the table where it belongs
            table = "[[flow]]" if key in ("variant", "sack") else "[path]"
            text = text.replace(table, f"{table}\n{key} = {value}", 1)
    path = tmp / f"ref-{variant}-{'sack' if sack else 'nosack'}-{ber}-{seconds}.toml"
    path.write_text(text)
    return path


def ns3_args(*, ber: float, seconds: float, run: int, sack: bool = False, tcp: str = "TcpNewReno") -> list[str]:
    return [f"--tcp={tcp}", f"--ber={ber}", f"--time={seconds}", f"--run={run}",
            f"--sack={'true' if sack else 'false'}"]


def say(*parts) -> None:
    print(*parts, flush=True, file=sys.stdout)
