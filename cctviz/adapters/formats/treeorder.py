"""Depths, levels and pre-order of a forest held as one parent per node (``ROOT`` for a root,
each parent numbered before its children, siblings in the order they were first seen), in numpy:
a million nodes take a second with no Python per node and no recursion (a stack thousands of
frames deep costs a numpy step per level, not a Python frame)."""

from __future__ import annotations

import numpy as np

#: The parent of a root.
ROOT = -1


def depths(parent: np.ndarray) -> np.ndarray:
    """Each node's depth (a root's is 0), by pointer jumping: ``log2`` of the deepest path
    passes over the nodes not yet at a root."""
    up = np.asarray(parent, np.int64).copy()
    depth = (up != ROOT).astype(np.int64)  # the distance from each node to ``up``
    live = np.flatnonzero(up != ROOT)
    while len(live):
        above = up[live]
        depth[live] += depth[above]  # read before written: each step uses the last one's values
        up[live] = up[above]
        live = live[up[live] != ROOT]
    return depth


def levels(depth: np.ndarray) -> list[np.ndarray]:
    """The nodes of each depth, the roots first (nodes in number order within a level)."""
    by_depth = np.argsort(depth, kind="stable")
    cuts = np.flatnonzero(np.diff(depth[by_depth])) + 1
    return np.split(by_depth, cuts) if len(by_depth) else []


def preorder(parent: np.ndarray, layers: list[np.ndarray]) -> np.ndarray:
    """The nodes in pre-order (each node before its subtree, siblings in number order), from
    their ``levels``: subtree sizes summed deepest level first, then each node placed after its
    parent and its earlier siblings' subtrees, shallowest level first."""
    n = len(parent)
    size = np.ones(n, np.int64)
    for layer in reversed(layers[1:]):
        np.add.at(size, parent[layer], size[layer])
    up = np.where(parent == ROOT, n, parent)  # the roots are the children of a node ``n``
    siblings = np.argsort(up, kind="stable")
    sizes = size[siblings]
    before = np.cumsum(sizes) - sizes
    first = np.flatnonzero(np.r_[True, up[siblings][1:] != up[siblings][:-1]])
    before -= np.repeat(before[first], np.diff(np.r_[first, n]))
    offset = np.empty(n, np.int64)
    offset[siblings] = before
    position = np.empty(n + 1, np.int64)
    position[n] = -1
    for layer in layers:
        position[layer] = position[up[layer]] + 1 + offset[layer]
    order = np.empty(n, np.int64)
    order[position[:n]] = np.arange(n)
    return order


__all__ = ["ROOT", "depths", "levels", "preorder"]
