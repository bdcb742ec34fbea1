"""Memory of the ensemble's calls on a store of 10^5 profiles: each call runs in a fresh process,
which prints its peak resident memory after opening the store and after the call (Linux
``ru_maxrss``). Issue 53 asks that no call hold more than ~1 GB in the kernel.

    .venv/bin/python benchmarks/ensemble_memory.py                      # 100,000 × 200
    .venv/bin/python benchmarks/ensemble_memory.py --profiles 20000 --nodes 100
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cctviz

CALLS = {
    "open, len(ens)": "len(ens)",
    "ens.profiles": "ens.profiles",
    "ens.reduce (mean, std, min, max, p95)": "ens.reduce('time (inc)')",
    "ens.where(jobsize >= 256).reduce": "ens.where('jobsize >= 256').reduce('time (inc)')",
    "ens.distribution(root)": "ens.distribution(root, 'time (inc)')",
    "ens.histogram(root, bins=100,000)": "ens.histogram(root, 'time (inc)', bins=100_000)",
    "ens.totals": "ens.totals('time (inc)')",
    "ens.trend(root, children=True)": "ens.trend(root, 'time (inc)', children=True)",
    "ens.verify()": "ens.verify()",
    "cctviz.CCT(ens)": "cctviz.CCT(ens)",
}

CHILD = """
import resource, sys, time
import cctviz
ens = cctviz.Ensemble(sys.argv[1], create=False)
root = int(ens.nodes.index[0])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
start = time.perf_counter()
{call}
took = time.perf_counter() - start
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6, took)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=100_000)
    parser.add_argument("--nodes", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        store = Path(work) / "big.cctviz"
        start = time.perf_counter()
        # a launch date a day from 1700 on: 10^5 days end before pandas' last date (2262)
        cctviz.examples.ensemble(store, args.profiles, args.nodes, start="1700-01-01")
        print(f"## {args.profiles:,} profiles × {args.nodes:,} nodes")
        print(f"\nwritten in {time.perf_counter() - start:.1f} s\n")
        print("| call | seconds | peak after opening (GB) | peak after the call (GB) |")
        print("|---|---:|---:|---:|")
        for name, call in CALLS.items():
            out = subprocess.run(
                [sys.executable, "-c", CHILD.format(call=call), str(store)],
                capture_output=True,
                text=True,
                check=False,
            )
            if out.returncode:
                print(f"| {name} | failed: {out.stderr.strip().splitlines()[-1]} | | |")
                continue
            before, after, took = map(float, out.stdout.split())
            print(f"| {name} | {took:.2f} | {before:.2f} | {after:.2f} |")


if __name__ == "__main__":
    main()
