"""GraphFrame (either Hatchet distribution) or Thicket → :class:`cctviz.core.table.NodeTable`.

Only API that UMD ``hatchet`` and LLNL ``llnl-hatchet`` share is used: ``gf.graph.roots``,
``Node.children`` / ``frame`` / ``_hatchet_nid``, ``gf.dataframe`` indexed by ``node`` (plus
``rank``/``thread``/``profile`` levels), ``gf.exc_metrics``, ``gf.inc_metrics`` and
``gf.default_metric``. Nothing here imports ``hatchet``, so cctviz never forces one distribution.
"""

from __future__ import annotations

import ctypes
import operator
import sys
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..core import progress
from ..core.table import NodeTable
from .from_rows import Tree, from_rows
from .paths import path_hint
from .reduce import check_reducer
from .spanning import spanning_tree

ACCEPTED = "a Hatchet GraphFrame (UMD `hatchet` or LLNL `llnl-hatchet`) or a Thicket"

STAGES = ("walking the tree", "matching rows to nodes", "reducing the metrics", "reading names")
"""What ``from_graphframe`` reports doing (``cctviz.core.progress``), in order."""


def is_graphframe(obj: object) -> bool:
    """Duck-typed check for a Hatchet GraphFrame or Thicket (either distribution)."""
    graph = getattr(obj, "graph", None)
    return (
        isinstance(getattr(obj, "dataframe", None), pd.DataFrame)
        and graph is not None
        and hasattr(graph, "roots")
    )


def from_graphframe(
    gf: Any,
    reducer: str = "mean",
    metric_kinds: Mapping[str, str] | None = None,
    size_reducer: str | None = None,
) -> NodeTable:
    """Build the node table of a Hatchet GraphFrame or Thicket.

    Rows of one node (per rank, thread, or Thicket profile) are combined with ``reducer``
    (``"mean"``, ``"median"``, ``"sum"``, ``"min"``, ``"max"``, ``"std"`` or ``"imbalance"``:
    max ÷ mean);
    missing values stay NaN. An exclusive metric without an inclusive partner gets a derived one
    (see :mod:`cctviz.adapters.derived`). ``metric_kinds`` overrides what the reader says a metric
    is: ``{"imbalance": "ratio"}`` (``exclusive``, ``inclusive``, ``ratio``, ``max`` or ``other``;
    see :data:`cctviz.core.table.MetricKind`). ``size_reducer`` (another reducer): the table also
    holds each metric that adds up combined that way, named ``"time (inc) (mean)"``.
    """
    if not is_graphframe(gf):
        got = path_hint(gf) or f"{type(gf).__module__}.{type(gf).__name__}"
        raise TypeError(f"cctviz draws {ACCEPTED}; got {got}")
    check_reducer(reducer)
    roots = list(gf.graph.roots)
    if not roots:
        raise ValueError("the GraphFrame's graph is empty: it has no root node to draw")

    progress.stage("walking the tree")
    walked, parent, depth, extra = spanning_tree(roots)
    progress.stage("matching rows to nodes")
    nid = _nids(walked)
    # kept as an object array, not a list: the garbage collector does not look into an array,
    # while a young list of a million nodes costs every collection that finds it young (0.1 s
    # for the first, 0.3 s for the next older one, at 1M nodes, soon after this call)
    nodes = np.fromiter(walked, dtype=object, count=len(walked))
    del walked
    df = gf.dataframe
    repeated = df.columns[df.columns.duplicated()].unique().tolist()
    if repeated:
        raise ValueError(
            f"the GraphFrame's dataframe has repeated column names {repeated}; each metric "
            "needs its own name (rename or drop the copies)"
        )
    tree = Tree(nodes, parent, depth, extra, nid)
    listed = (getattr(gf, "exc_metrics", None) or [], getattr(gf, "inc_metrics", None) or [])
    # the row keys are passed on, not kept here: from_rows frees them before the names (1M nodes)
    return from_rows(
        tree,
        df,
        _row_keys(df, nodes, nid),
        listed,
        gf,
        reducer,
        metric_kinds,
        size_reducer,
        type(gf).__name__,
    )


def _row_keys(df: pd.DataFrame, nodes: np.ndarray, nid: np.ndarray) -> np.ndarray:
    """Table index of the node of each dataframe row (-1 for rows whose node is not drawn)."""
    if "node" not in df.index.names:
        raise TypeError(
            f"the GraphFrame's dataframe must be indexed by 'node'; its index levels are "
            f"{list(df.index.names)}"
        )
    index = df.index
    if isinstance(index, pd.MultiIndex):
        level = index.names.index("node")
        uniques, codes = index.levels[level], index.codes[level]
    else:
        uniques, codes = index, None
    if len(uniques) and not hasattr(uniques[0], "_hatchet_nid"):
        raise TypeError(
            f"the GraphFrame's dataframe index 'node' holds {type(uniques[0]).__name__} values "
            f"such as {uniques[0]!r:.40}; it must hold the graph's hatchet Nodes"
        )
    n = len(nid)
    # Hatchet numbers nodes 0..n-1 (enumerate_traverse): a lookup array beats a sort
    dense = n > 0 and int(nid.min()) >= 0 and int(nid.max()) < 2 * n + 1024
    if dense:
        at = np.full(int(nid.max()) + 1, -1, dtype=np.int64)
        at[nid] = np.arange(n)
        numbered = at >= 0
        unique_nids = int(np.count_nonzero(numbered)) == n  # a repeated nid fills one slot
    else:
        order = np.argsort(nid, kind="stable")
        sorted_nid = nid[order]
        unique_nids = bool(np.all(sorted_nid[1:] != sorted_nid[:-1]))
    by_nid = at[numbered] if dense else order  # the tree's positions in _hatchet_nid order
    if unique_nids and _same_objects(uniques, nodes, by_nid):
        mapped = by_nid  # the usual frame: every node once, sorted (Node orders by nid)
    elif unique_nids:  # map through _hatchet_nid (Hatchet's own equality of nodes)
        row_nid = _nids(uniques.to_numpy(dtype=object))
        if dense:
            inside = (row_nid >= 0) & (row_nid < at.size)
            mapped = np.where(inside, at[np.where(inside, row_nid, 0)], -1)
        else:
            pos = np.minimum(np.searchsorted(sorted_nid, row_nid), n - 1)
            mapped = np.where(sorted_nid[pos] == row_nid, order[pos], -1)
    else:  # a graph whose nids collide: fall back to object identity
        lookup = {id(node): i for i, node in enumerate(nodes)}
        mapped = np.fromiter((lookup.get(id(u), -1) for u in uniques), np.int64, len(uniques))
    if codes is None:
        return mapped
    return np.where(codes >= 0, mapped[codes], -1)


_NID = operator.attrgetter("_hatchet_nid")


def _same_objects(uniques: pd.Index, nodes: np.ndarray, by_nid: np.ndarray) -> bool:
    """Whether ``uniques[k] is nodes[by_nid[k]]`` for every k: then row k's node is that tree
    node (the same object has the same nid). Compared by address, read from the object arrays'
    buffers: reading every row node's ``_hatchet_nid`` instead touches 1M objects spread over
    memory (0.4 s on the 2-core machine, a fifth of ``CCT(gf)`` at 1M nodes; 0.04 s here)."""
    if len(uniques) != len(nodes) or not len(nodes):
        return False
    row_nodes = uniques.to_numpy(dtype=object)  # kept while its addresses are read
    rows = _addresses(row_nodes)
    tree = _addresses(nodes)
    return rows is not None and tree is not None and bool(np.array_equal(rows, tree[by_nid]))


def _addresses(objects: np.ndarray) -> np.ndarray | None:
    """Each object's address (CPython's ``id``) in a 1-D object array, read from its buffer of
    object pointers without touching the objects; None where that layout is not CPython's.
    (numpy refuses ``objects.view(np.intp)`` for arrays of references, hence ctypes.) A view of
    that buffer, not a copy: read it while ``objects`` is alive and unchanged."""
    if (
        sys.implementation.name != "cpython"
        or objects.dtype != object
        or objects.ndim != 1
        or objects.itemsize != ctypes.sizeof(ctypes.c_void_p)
        or not objects.flags.c_contiguous
    ):
        return None
    raw = (ctypes.c_size_t * len(objects)).from_address(objects.ctypes.data)
    out = np.ctypeslib.as_array(raw)
    if out[0] != id(objects[0]) or out[-1] != id(objects[-1]):
        return None
    return out


def _nids(nodes: list[Any]) -> np.ndarray:
    """Each node's ``_hatchet_nid``, or a ``TypeError`` naming a node whose nid is not an int."""
    try:
        return np.fromiter(map(_NID, nodes), dtype=np.int64, count=len(nodes))
    except (TypeError, ValueError, OverflowError, AttributeError) as error:
        failure = error
    for node in nodes:  # which node, and why
        value = getattr(node, "_hatchet_nid", None)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(
                f"node {node.frame.get('name')!r} has _hatchet_nid {value!r}; Hatchet numbers "
                "nodes with whole numbers (gf.graph.enumerate_traverse() numbers a graph built "
                "by hand)"
            ) from None
        if not -(2**63) <= int(value) < 2**63:
            raise TypeError(f"node {node.frame.get('name')!r} has _hatchet_nid {value}: too big")
    raise TypeError(f"the nodes' _hatchet_nid could not be read: {failure}")
