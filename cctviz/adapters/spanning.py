"""The drawn tree of a Hatchet graph: a depth-first pre-order walk that visits each node once,
under the first parent it is reached from, and the edges it leaves out (a DAG's other callers,
cycles). Iterative, so call paths of any depth walk without recursion."""

from __future__ import annotations

import array
from typing import Any

import numpy as np


def spanning_tree(
    roots: list[Any],
) -> tuple[list[Any], array.array[int], array.array[int], list[tuple[int, int]]]:
    """Depth-first pre-order over the graph, each node once, under the first parent reached
    (Hatchet keeps ``parents`` and ``children`` of its nodes consistent).

    Returns nodes, parent index, depth, and the (parent, child) index pairs of the edges not drawn.
    Iterative, so deep trees do not hit the recursion limit; cycles end (each node is visited once).
    """
    position: dict[int, int] = {}
    nodes: list[Any] = []
    # int32 arrays, not lists: a list holds an int object per entry (a few times the memory)
    parent = array.array("i")
    extra: list[tuple[int, int]] = []
    # This loop is the adapter's hot path (1M nodes): a stack of children iterators, one per open
    # node, not a stack of nodes (no reversed copy and parent list per node), and bound methods;
    # depths are computed afterwards with numpy. 1M nodes: ~0.26 s, against ~0.45 s before.
    iterators, owners = [iter(roots)], [-1]
    top, owner = iterators[-1], -1
    add_node, add_parent = nodes.append, parent.append
    while True:
        node = next(top, _END)
        if node is _END:  # the open node's children are done: back to its parent's
            iterators.pop()
            owners.pop()
            if not iterators:
                break
            top, owner = iterators[-1], owners[-1]
            continue
        # only a node with more parents than the edge it was reached by can be reached again
        # (a DAG, or a cycle through a root): recording every node would cost ~80 bytes each
        if len(node.parents) > (owner >= 0):
            key = id(node)
            seen = position.get(key)
            if seen is not None:
                if owner >= 0:
                    extra.append((owner, seen))
                continue
            position[key] = len(nodes)
        i = len(nodes)
        add_node(node)
        add_parent(owner)
        children = node.children
        if children:
            top, owner = iter(children), i
            iterators.append(top)
            owners.append(i)
    depth = array.array("i")
    depth.frombytes(_depths(np.frombuffer(parent, dtype=np.int32)).tobytes())
    return nodes, parent, depth, extra


_END: Any = object()  # what `next` gives at the end of a children list (a sentinel, not None)


def _depths(parent: np.ndarray) -> np.ndarray:
    """Each node's depth from its parent index (-1: a root), by pointer doubling: log2 of the
    deepest path rounds of numpy gathers, so deep call paths cost no Python loop a level."""
    depth = (parent >= 0).astype(np.int32)
    ancestor = parent.astype(np.int64)
    live = np.flatnonzero(ancestor >= 0)
    while live.size:
        up = ancestor[live]
        depth[live] += depth[up]  # the right side is gathered before the assignment
        ancestor[live] = ancestor[up]
        live = live[ancestor[live] >= 0]
    return depth


def count_cycle_edges(extra: list[tuple[int, int]], parent: array.array[int]) -> int:
    """How many undrawn edges point from a node to one of its drawn ancestors (close a cycle)."""
    count = 0
    for src, dst in extra:
        p = src
        while p >= 0 and p != dst:
            p = parent[p]
        count += p == dst
    return count
