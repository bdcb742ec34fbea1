"""The drawn tree of a Hatchet graph: a depth-first pre-order walk that visits each node once,
under the first parent it is reached from, and the edges it leaves out (a DAG's other callers,
cycles). Iterative, so call paths of any depth walk without recursion."""

from __future__ import annotations

import array
from typing import Any

import numpy as np


def spanning_tree(
    roots: list[Any],
) -> tuple[list[Any], np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """Depth-first pre-order over the graph, each node once, under the first parent reached
    (Hatchet keeps ``parents`` and ``children`` of its nodes consistent).

    Returns nodes, parent index and depth (int32 arrays), and the (parent, child) index pairs of
    the edges not drawn. Iterative, so deep trees do not hit the recursion limit; cycles end (each
    node is visited once).
    """
    position: dict[int, int] = {}
    nodes: list[Any] = []
    extra: list[tuple[int, int]] = []
    # each node with children: where its subtree opens (itself) and closes (the first node after
    # it); depths and parents come from those spans afterwards, with numpy
    opened, closed = array.array("i"), array.array("i")
    # This loop is the adapter's hot path (1M nodes): a stack of children iterators, one per open
    # node, not a stack of nodes (no reversed copy and parent list per node), bound methods, and
    # nothing appended per node but the node (a parent appended per node cost ~0.1 s at 1M nodes;
    # the numpy pass after it ~0.05 s). 1M nodes: ~0.25 s (a bare walk: ~0.22 s).
    iterators, owners = [iter(roots)], [-1]
    top, owner = iterators[-1], -1
    add_node = nodes.append
    add_opened, add_closed = opened.append, closed.append
    while True:
        node = next(top, _END)
        if node is _END:  # the open node's children are done: back to its parent's
            iterators.pop()
            add_opened(owners.pop())
            add_closed(len(nodes))
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
        add_node(node)
        children = node.children
        if children:
            top, owner = iter(children), len(nodes) - 1
            iterators.append(top)
            owners.append(owner)
    spans = (np.frombuffer(opened, dtype=np.int32), np.frombuffer(closed, dtype=np.int32))
    depth = _depths(*spans, len(nodes))
    return nodes, _parents(depth), depth, extra


_END: Any = object()  # what `next` gives at the end of a children list (a sentinel, not None)


def _depths(opened: np.ndarray, closed: np.ndarray, n: int) -> np.ndarray:
    """Each node's depth: how many subtrees it is strictly inside. In pre-order the subtree of
    ``opened[k]`` is nodes ``opened[k]`` to ``closed[k] - 1``: +1 after its first node, -1 at its
    end, summed up (the walk's own spans: one numpy pass, where pointer doubling over the
    parents took ~0.1 s at 1M nodes). ``opened`` -1 is the roots' span (depth 0)."""
    inner = opened >= 0
    starts = np.bincount(opened[inner] + 1, minlength=n + 1)
    ends = np.bincount(closed[inner], minlength=n + 1)
    return np.cumsum(starts[:n] - ends[:n]).astype(np.int32)


def _parents(depth: np.ndarray) -> np.ndarray:
    """Each node's parent (-1: a root) in a pre-order of these depths: the last node before it
    one level up. Nodes sorted by (depth, index); each node's parent is the entry just below
    (its depth - 1, its index) there: a rank found by merging that sorted list with itself
    shifted one level up (two sorted runs: a linear merge, where a binary search of each node
    took longer). Few temporaries, each filled in place: at 1M nodes a fresh array costs as
    much in page faults as the work done in it."""
    n = depth.shape[0]
    order = np.argsort(depth, kind="stable")
    ranked = depth[order].astype(np.int64)  # the keys depth * (n + 1) + index, ascending
    ranked *= n + 1
    ranked += order
    # the shifted keys (queries) first; no key equals a query (a node has one depth). Both runs
    # ascending and the sort stable, so the k-th query in the merge is query k
    merged = np.argsort(np.concatenate([ranked - (n + 1), ranked]), kind="stable")
    below = np.flatnonzero(merged < n)
    below -= np.arange(1, n + 1)  # keys below query k: its place minus the k queries before it
    parent = np.empty(n, dtype=np.int32)
    parent[order] = order[below]
    parent[depth == 0] = -1  # (their `below` is -1: the last node, not a parent)
    return parent


def count_cycle_edges(extra: list[tuple[int, int]], parent: np.ndarray) -> int:
    """How many undrawn edges point from a node to one of its drawn ancestors (close a cycle)."""
    count = 0
    for src, dst in extra:
        p = src
        while p >= 0 and p != dst:
            p = int(parent[p])
        count += p == dst
    return count
