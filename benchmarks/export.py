"""Figure export time: ``w.save(path)`` as SVG, PDF and PNG for synthetic trees, every node drawn.

Times each format from the call to the file on disk (the renderer lays out and draws the view in
headless Chromium; PDF and PNG then print or screenshot it). Chromium is started once per
process and kept: its start is timed on its own. Prints a table (median of the repeats).

    python benchmarks/export.py                     # 1k, 10k, 100k nodes
    python benchmarks/export.py --sizes 10000 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import synthetic  # noqa: E402

import cctviz  # noqa: E402
from cctviz.figure.browser import shared  # noqa: E402

FORMATS = (".svg", ".pdf", ".png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    start = time.perf_counter()
    shared().run(lambda browser: browser.version)
    print(f"Chromium start (once per process): {time.perf_counter() - start:.2f} s\n")
    columns = [f"{'nodes':>9}", f"{'format':>6}", f"{'save (median)':>13}", f"{'max':>8}"]
    header = " | ".join([*columns, f"{'file size':>12}"])
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            # every node drawn: all sent (budget=None), none folded into glyphs to fit the view
            w = cctviz.CCT(synthetic.graphframe(n), budget=None, fold_to_fit=False)
            for fmt in FORMATS:
                path = Path(tmp) / f"cct{fmt}"
                times = []
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    w.save(path, width=1200, height=800, dpi=150)
                    times.append(time.perf_counter() - t0)
                size = path.stat().st_size
                print(
                    f"{n:>9,} | {fmt:>6} | {statistics.median(times):>11.2f} s"
                    f" | {max(times):>6.2f} s | {size:>12,}"
                )


if __name__ == "__main__":
    main()
