"""The union tree of an ensemble from its nodes table: pre-order, and each node's path (frame
names from the root, as ``cctviz.compare_frame`` gives it)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..store.keys import ROOT


def preorder(nodes: pd.DataFrame) -> pd.DataFrame:
    """``nodes`` (key, parent, name, ...) in pre-order, children in the order the store met
    them, with ``path`` and ``depth`` added and ``key`` as the index."""
    keys = nodes["key"].to_numpy(np.int64)
    parents = nodes["parent"].to_numpy(np.int64)
    names = nodes["name"].astype(str).tolist()
    known = set(keys.tolist())
    children: dict[int, list[int]] = {}
    for i, p in enumerate(parents.tolist()):
        children.setdefault(p if p in known else ROOT, []).append(i)
    order: list[int] = []
    paths: list[tuple[str, ...]] = [()] * len(keys)
    depth = np.zeros(len(keys), np.int32)
    stack: list[tuple[int, tuple[str, ...], int]] = [
        (i, (), 0) for i in reversed(children.get(ROOT, []))
    ]
    while stack:
        i, up, d = stack.pop()
        order.append(i)
        paths[i] = (*up, names[i])
        depth[i] = d
        stack.extend((c, paths[i], d + 1) for c in reversed(children.get(int(keys[i]), [])))
    out = nodes.iloc[order].copy()
    out["path"] = [paths[i] for i in order]
    out["depth"] = depth[order]
    return out.set_index("key")


def find_key(tree: pd.DataFrame, node: Any) -> int:
    """The key of ``node``: a key, a path (tuple of names from the root) or a name held by one
    node only; a clear error otherwise."""
    if isinstance(node, (int, np.integer)) and not isinstance(node, bool):
        if int(node) in tree.index:
            return int(node)
        raise KeyError(f"no node with key {node} in the ensemble")
    if isinstance(node, (tuple, list)):
        wanted = tuple(str(n) for n in node)
        hits = tree.index[[p == wanted for p in tree["path"]]]
        if len(hits):
            return int(hits[0])
        raise KeyError(f"no node with path {wanted} in the ensemble")
    if isinstance(node, str):
        hits = tree.index[tree["name"] == node]
        if len(hits) == 1:
            return int(hits[0])
        if not len(hits):
            raise KeyError(f"no node named {node!r} in the ensemble")
        shown = "; ".join(" / ".join(p) for p in tree.loc[hits[:3], "path"])
        raise KeyError(
            f"{len(hits)} nodes are named {node!r} ({shown}...): give a path (a tuple of names "
            "from the root) or a key"
        )
    raise TypeError(
        f"a node is a key (int), a path (tuple of names) or a name; got {type(node).__name__}"
    )
