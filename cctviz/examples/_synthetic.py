"""Synthetic Hatchet GraphFrames of realistic shape, for trying cctviz at scale and benchmarks.

Deep call paths (depth up to ``max_depth``) and heavy-tailed fan-out: each new node hangs off a
recent node, at a Pareto-distributed distance back, so most parents have one or two children and a
few have hundreds. Built directly from Hatchet's Node/Graph/GraphFrame classes (either
distribution), so building a 1M-node frame takes seconds, not the minutes ``from_literal`` would.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def parents(n: int, max_depth: int = 40, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Parent index (-1 for the root) and depth of ``n`` nodes in pre-order-compatible order."""
    rng = np.random.default_rng(seed)
    back = np.minimum(rng.pareto(1.2, size=n).astype(np.int64), n)
    parent = np.full(n, -1, dtype=np.int64)
    depth = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        p = max(0, i - 1 - int(back[i]))
        while depth[p] >= max_depth:
            p = parent[p]
        parent[i] = p
        depth[i] = depth[p] + 1
    return parent, depth


def graphframe(n: int, max_depth: int = 40, seed: int = 0):
    """A GraphFrame of ``n`` nodes with exclusive ``time`` and inclusive ``time (inc)``."""
    from hatchet import GraphFrame
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node

    parent, _ = parents(n, max_depth, seed)
    rng = np.random.default_rng(seed + 1)
    exclusive = rng.lognormal(mean=0.0, sigma=2.0, size=n)
    inclusive = exclusive.copy()
    for i in range(n - 1, 0, -1):  # children come after parents: accumulate bottom-up
        inclusive[parent[i]] += inclusive[i]
    names = [f"function_{i % 5000}" for i in range(n)]
    nodes: list[Node] = []
    for i in range(n):
        p = nodes[parent[i]] if parent[i] >= 0 else None
        node = Node(Frame({"name": names[i], "type": "function"}), p, hnid=i, depth=0)
        if p is not None:
            p.add_child(node)
        nodes.append(node)
    graph = Graph([nodes[0]])
    graph.enumerate_traverse()
    df = pd.DataFrame(
        {"node": nodes, "name": names, "time": exclusive, "time (inc)": inclusive}
    ).set_index("node")
    return GraphFrame(graph, df, ["time"], ["time (inc)"])
