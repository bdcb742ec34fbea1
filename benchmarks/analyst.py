"""Analyst views in Python on synthetic trees, best of three runs: ``w.flat_profile()``,
``w.node_frame``, and the table pane's bottom-up tree as the pane builds it (its first level:
every function, then one function's callers) and whole (``w.callers`` of the largest function).
Targets (issue 13): ``flat_profile`` and the bottom-up build at 100k nodes ≤ 0.5 s.

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
    header = (
        f"{'nodes':>10} | {'flat_profile':>12} | {'node_frame':>10} | {'functions':>9} | "
        f"{'bottom-up rows':>14} | {'callers open':>12} | {'w.callers':>9} | target"
    )
    print(header)
    print("-" * len(header))
    for n in args.sizes:
        w = cctviz.CCT(cctviz.examples.synthetic(n))
        flat = best(w.flat_profile)
        frame = best(lambda w=w: w.node_frame)
        functions = w.flat_profile()
        top = str(functions["name"][0])
        # what the pane asks for: the first level of the bottom-up tree, then one row opened
        # (a fresh widget state each time: no cached merged trees)
        first = best(lambda w=w: _ask(w, mode="callers", path=[]))
        opened = best(lambda w=w, top=top: _ask(w, mode="callers", path=[top]))
        whole = best(lambda w=w, top=top: w.callers(top))
        worst = max(flat, first + opened)
        ok = "ok" if worst <= TARGET_S or n > 100_000 else f"over {TARGET_S} s"
        print(
            f"{n:>10,} | {flat:>10.3f} s | {frame:>8.3f} s | {len(functions):>9,} | "
            f"{first:>12.3f} s | {opened:>10.3f} s | {whole:>7.3f} s | {ok}"
        )


def _ask(w: Any, **request: Any) -> dict[str, Any]:
    """One ``rows`` request of the table pane, answered as the widget answers it."""
    w._derived.merged.clear()
    replies: list[dict[str, Any]] = []
    w.send = lambda content, buffers=None: replies.append(content)
    w._on_message(w, {"type": "rows", "id": 1, **request}, [])
    if not replies or not replies[-1].get("ok"):
        raise RuntimeError(f"the rows request failed: {replies}")
    return replies[-1]


if __name__ == "__main__":
    main()
