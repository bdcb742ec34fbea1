"""Analyst views in Python: ``w.flat_profile()``, ``w.node_frame`` and a reducer switch on
synthetic trees, best of three runs. Target (issue 13): ``flat_profile`` at 100k nodes ≤ 0.5 s.

    python benchmarks/analyst.py               # 10k and 100k nodes
    python benchmarks/analyst.py --sizes 1000000
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import cctviz

TARGET_S = 0.5


def best(fn: Callable[[], Any], runs: int = 3) -> float:
    """The fastest of ``runs`` calls, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    print(f"{'nodes':>10} | {'flat_profile':>12} | {'node_frame':>10} | {'functions':>9} | target")
    print("-" * 62)
    for n in args.sizes:
        w = cctviz.CCT(cctviz.examples.synthetic(n))
        flat = best(w.flat_profile)
        frame = best(lambda w=w: w.node_frame)
        functions = len(w.flat_profile())
        ok = "ok" if flat <= TARGET_S or n > 100_000 else f"over {TARGET_S} s"
        print(f"{n:>10,} | {flat:>10.3f} s | {frame:>8.3f} s | {functions:>9,} | {ok}")


if __name__ == "__main__":
    main()
