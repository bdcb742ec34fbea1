"""Deep trees: call paths thousands of levels deep. Every step must be linear in the number of
nodes and need no deep recursion (issue: a 2,000-deep chain took 19.6 s in `CCT(gf, state={})`,
10,000 deep ran past 60 s). Target: a 10,000-deep chain builds, restores state and exports in
≤ 2 s in all.

    python benchmarks/deep.py          # prints a table
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import synthetic

import cctviz


def chain(depth: int):
    """A GraphFrame that is one call path ``depth`` deep, built without recursion."""
    import pandas as pd
    from hatchet import GraphFrame
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node

    nodes: list[Node] = []
    for i in range(depth):
        parent = nodes[-1] if nodes else None
        node = Node(Frame({"name": f"f{i}", "type": "function"}), parent, hnid=i, depth=i)
        if parent is not None:
            parent.add_child(node)
        nodes.append(node)
    df = pd.DataFrame(
        {
            "node": nodes,
            "name": [f"f{i}" for i in range(depth)],
            "time": 1.0,
            "time (inc)": np.arange(depth, 0, -1, dtype=float),
        }
    )
    return GraphFrame(Graph([nodes[0]]), df.set_index("node"), ["time"], ["time (inc)"])


def timed(f, *args, **kwargs):
    start = time.perf_counter()
    value = f(*args, **kwargs)
    return value, time.perf_counter() - start


def main() -> None:
    cases = [
        ("chain 2,000 deep", lambda: chain(2_000)),
        ("chain 10,000 deep", lambda: chain(10_000)),
        ("20k nodes, depth ≤ 264", lambda: synthetic.graphframe(20_000, max_depth=264)),
    ]
    cctviz.CCT(chain(10)).to_svg()  # start the browser once, outside the timings
    print(
        f"{'tree':>24} | {'mean depth':>10} | {'CCT(gf)':>8} | {'state={}':>8} | "
        f"{'view_state':>10} | {'restore':>8} | {'to_svg':>7} | {'all':>6}"
    )
    print("-" * 100)
    for label, build in cases:
        gf = build()
        w, t_build = timed(cctviz.CCT, gf)
        _, t_empty = timed(cctviz.CCT, gf, state={})
        w.select([int(np.argmax(w.table.depth))])
        state, t_state = timed(getattr, w, "view_state")
        again, t_restore = timed(cctviz.CCT, gf, state=state)
        _, t_svg = timed(again.to_svg)
        total = t_build + t_restore + t_svg
        print(
            f"{label:>24} | {w.table.depth.mean():>10.0f} | {t_build:>7.2f}s | {t_empty:>7.2f}s | "
            f"{t_state:>9.2f}s | {t_restore:>7.2f}s | {t_svg:>6.2f}s | {total:>5.2f}s"
        )


if __name__ == "__main__":
    main()
