"""Comparing two runs on synthetic trees of the same shape with other values, best of three:
``cctviz.compare_frame`` and the ``cctviz.compare`` widget, and the part of it that reads the two
GraphFrames (``from_graphframe`` of each). Target (issue 14): two 100k-node trees in ≤ 1 s.

    python benchmarks/compare.py               # 10k and 100k nodes
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from analyst import best  # benchmarks/ is on the path when a script runs

import cctviz

TARGET_S = 1.0


def other_run(gf: Any, seed: int) -> Any:
    """The same tree with its times scaled by a random factor per node (a second run)."""
    run = gf.deepcopy()
    rng = np.random.default_rng(seed)
    for column in ("time", "time (inc)"):
        run.dataframe[column] = run.dataframe[column] * rng.uniform(0.5, 1.5, len(run.dataframe))
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    header = f"{'nodes':>10} | {'read both':>9} | {'compare_frame':>13} | {'compare()':>9} | target"
    print(header)
    print("-" * len(header))
    for n in args.sizes:
        a = cctviz.examples.synthetic(n)
        b = other_run(a, 1)
        read = best(lambda a=a, b=b: (cctviz.from_graphframe(a), cctviz.from_graphframe(b)))
        frame = best(lambda a=a, b=b: cctviz.compare_frame(a, b))
        widget = best(lambda a=a, b=b: cctviz.compare(a, b))
        ok = "ok" if frame <= TARGET_S else f"over {TARGET_S:g} s"
        print(f"{n:>10,} | {read:>7.2f} s | {frame:>11.2f} s | {widget:>7.2f} s | {ok}")


if __name__ == "__main__":
    main()
