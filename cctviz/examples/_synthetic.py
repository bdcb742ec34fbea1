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


_SPACES = ("solver", "mesh", "io", "comm", "physics", "util", "linalg")
_CLASSES = ("Domain", "Kernel", "Halo", "Field", "Stencil", "Reducer", "Timer", "Grid", "Pool")
_VERBS = ("apply", "update", "exchange", "compute", "pack", "unpack", "reduce", "advance", "init")


def name_of(k: int) -> str:
    """The ``k``-th of the synthetic trees' function names, C++-like: ``mesh::Halo::pack_42``."""
    return f"{_SPACES[k % 7]}::{_CLASSES[k // 7 % 9]}::{_VERBS[k // 63 % 9]}_{k}"


def graphframe(n: int, max_depth: int = 40, seed: int = 0, names: int | None = None):
    """A GraphFrame of ``n`` nodes with exclusive ``time`` and inclusive ``time (inc)``; its
    nodes are named ``function_{i % 5000}``, or with ``names`` (a count of distinct names)
    C++-like names (``name_of``) drawn so that a few recur often, as in real profiles."""
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
    if names is None:
        labels = [f"function_{i % 5000}" for i in range(n)]
    else:  # every name at least once, then a heavy tail: a few (MPI calls, loops) recur often
        pick = (names * rng.random(n) ** 2).astype(np.int64)  # name k: density ~ 1/sqrt(k)
        pick[: min(n, names)] = np.arange(min(n, names))
        table = [name_of(k) for k in range(min(n, names))]
        labels = [table[k] for k in rng.permutation(pick).tolist()]
    nodes: list[Node] = []
    for i in range(n):
        p = nodes[parent[i]] if parent[i] >= 0 else None
        node = Node(Frame({"name": labels[i], "type": "function"}), p, hnid=i, depth=0)
        if p is not None:
            p.add_child(node)
        nodes.append(node)
    graph = Graph([nodes[0]])
    graph.enumerate_traverse()
    # rows sorted by node, as Hatchet's readers leave them (`sort_index`: by _hatchet_nid)
    order = np.argsort([node._hatchet_nid for node in nodes], kind="stable").tolist()
    df = pd.DataFrame(
        {
            "node": [nodes[i] for i in order],
            "name": [labels[i] for i in order],
            "time": exclusive[order],
            "time (inc)": inclusive[order],
        }
    ).set_index("node")
    return GraphFrame(graph, df, ["time"], ["time (inc)"])
