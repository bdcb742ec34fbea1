"""GraphFrame (either Hatchet distribution) or Thicket → :class:`cctviz.table.NodeTable`.

Only API that UMD ``hatchet`` and LLNL ``llnl-hatchet`` share is used: ``gf.graph.roots``,
``Node.children`` / ``frame`` / ``_hatchet_nid``, ``gf.dataframe`` indexed by ``node`` (plus
``rank``/``thread``/``profile`` levels), ``gf.exc_metrics``, ``gf.inc_metrics`` and
``gf.default_metric``. Nothing here imports ``hatchet``, so cctviz never forces one distribution.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..table import Metric, NodeTable
from . import metrics as metric_rules
from .reduce import check_reducer, per_node

ACCEPTED = "a Hatchet GraphFrame (UMD `hatchet` or LLNL `llnl-hatchet`) or a Thicket"


def is_graphframe(obj: object) -> bool:
    """Duck-typed check for a Hatchet GraphFrame or Thicket (either distribution)."""
    graph = getattr(obj, "graph", None)
    return (
        isinstance(getattr(obj, "dataframe", None), pd.DataFrame)
        and graph is not None
        and hasattr(graph, "roots")
    )


def from_graphframe(gf: Any, reducer: str = "mean") -> NodeTable:
    """Build the node table of a Hatchet GraphFrame or Thicket.

    Rows of one node (per rank, thread, or Thicket profile) are combined with ``reducer``
    (``"mean"``, ``"sum"``, ``"min"`` or ``"max"``); missing values stay NaN.
    """
    if not is_graphframe(gf):
        raise TypeError(f"cctviz draws {ACCEPTED}; got {type(gf).__module__}.{type(gf).__name__}")
    check_reducer(reducer)
    roots = list(gf.graph.roots)
    if not roots:
        raise ValueError("the GraphFrame's graph is empty: it has no root node to draw")

    nodes, parent, depth, extra = _spanning_tree(roots)
    n = len(nodes)
    nid = np.fromiter((node._hatchet_nid for node in nodes), dtype=np.int64, count=n)
    df = gf.dataframe
    keys = _row_keys(df, nodes, nid)

    metric_names, kind, partner = metric_rules.discover(
        df, getattr(gf, "exc_metrics", None) or [], getattr(gf, "inc_metrics", None) or []
    )
    if not metric_names:
        raise ValueError(
            "the GraphFrame has no numeric metric column; columns: "
            + ", ".join(repr(c) for c in df.columns)
        )
    block = df[metric_names].to_numpy(dtype=np.float64, na_value=np.nan)
    values = per_node(block, keys, n, reducer)
    table_metrics = {
        str(m): Metric(
            name=str(m),
            values=np.ascontiguousarray(values[:, j]),
            kind=kind[m],  # type: ignore[arg-type]
            partner=str(partner[m]) if m in partner else None,
        )
        for j, m in enumerate(metric_names)
    }

    attributes = _attributes(df, keys, n, metric_names)
    names = _labels(attributes.get("name"), nodes, "name")
    types = _labels(attributes.get("type"), nodes, "type")
    name_code, name_table = pd.factorize(pd.Series(names, dtype=object), use_na_sentinel=False)
    type_code, type_table = pd.factorize(pd.Series(types, dtype=object), use_na_sentinel=False)
    reduced_over = tuple(str(x) for x in df.index.names if x != "node")
    multi_rows = len(df.index) > 0 and not df.index.get_level_values("node").is_unique

    return NodeTable(
        parent=np.asarray(parent, dtype=np.int32),
        depth=np.asarray(depth, dtype=np.int32),
        name_code=name_code.astype(np.int32),
        names=[str(x) for x in name_table],
        type_code=type_code.astype(np.int32),
        types=[str(x) for x in type_table],
        nodes=nodes,
        hatchet_nid=nid,
        metrics=table_metrics,
        attributes=attributes,
        reducer=reducer if multi_rows else None,
        reduced_over=reduced_over if multi_rows else (),
        extra_edges=len(extra),
        cycle_edges=_count_cycle_edges(extra, parent),
        source=type(gf).__name__,
    )


to_node_table = from_graphframe


def _spanning_tree(roots: list[Any]) -> tuple[list[Any], list[int], list[int], list[tuple[int, int]]]:
    """Depth-first pre-order over the graph, each node once, under the first parent reached.

    Returns nodes, parent index, depth, and the (parent, child) index pairs of the edges not drawn.
    Iterative, so deep trees do not hit the recursion limit, and cycles end (a node is visited once).
    """
    position: dict[int, int] = {}
    nodes: list[Any] = []
    parent: list[int] = []
    depth: list[int] = []
    extra: list[tuple[int, int]] = []
    stack: list[tuple[Any, int, int]] = [(r, -1, 0) for r in reversed(roots)]
    while stack:
        node, par, d = stack.pop()
        key = id(node)
        seen = position.get(key)
        if seen is not None:
            if par >= 0:
                extra.append((par, seen))
            continue
        i = len(nodes)
        position[key] = i
        nodes.append(node)
        parent.append(par)
        depth.append(d)
        children = node.children
        if children:
            d1 = d + 1
            stack.extend([(c, i, d1) for c in reversed(children)])
    return nodes, parent, depth, extra


def _count_cycle_edges(extra: list[tuple[int, int]], parent: list[int]) -> int:
    """How many undrawn edges point from a node to one of its drawn ancestors (close a cycle)."""
    count = 0
    for src, dst in extra:
        p = src
        while p >= 0 and p != dst:
            p = parent[p]
        count += p == dst
    return count


def _row_keys(df: pd.DataFrame, nodes: list[Any], nid: np.ndarray) -> np.ndarray:
    """Table index of the node of each dataframe row (-1 for rows whose node is not drawn)."""
    if "node" not in df.index.names:
        raise TypeError(
            f"the GraphFrame's dataframe must be indexed by 'node'; its index levels are "
            f"{list(df.index.names)}"
        )
    if np.unique(nid).size == nid.size:  # normal case: map through _hatchet_nid
        lookup: dict[Any, int] = {int(v): i for i, v in enumerate(nid)}

        def key_of(node: Any) -> int:
            return lookup.get(int(node._hatchet_nid), -1)
    else:  # a graph whose nids collide: fall back to object identity
        lookup = {id(node): i for i, node in enumerate(nodes)}

        def key_of(node: Any) -> int:
            return lookup.get(id(node), -1)

    index = df.index
    if isinstance(index, pd.MultiIndex):
        level = index.names.index("node")
        uniques = index.levels[level]
        codes = index.codes[level]
        mapped = np.fromiter((key_of(u) for u in uniques), dtype=np.int64, count=len(uniques))
        return np.where(codes >= 0, mapped[codes], -1)
    return np.fromiter((key_of(u) for u in index), dtype=np.int64, count=len(index))


def _labels(column: np.ndarray | None, nodes: list[Any], key: str) -> list[str]:
    """Per-node text from the dataframe column ``key`` (what users see in ``gf.dataframe``),
    falling back to the node's frame, whose attributes differ between readers."""
    out: list[str] = []
    for i, node in enumerate(nodes):
        value = column[i] if column is not None else None
        if value is None or (isinstance(value, float) and value != value):
            frame = node.frame
            value = frame.get(key) if hasattr(frame, "get") else None
            if value is None and key == "name":
                value = str(frame)
        out.append("" if value is None else str(value))
    return out


def _attributes(
    df: pd.DataFrame, keys: np.ndarray, n: int, metric_names: list[Any]
) -> dict[str, np.ndarray]:
    """Non-metric columns, one value per node (the first row of the node)."""
    rest = [c for c in df.columns if c not in set(metric_names)]
    if not rest:
        return {}
    first = np.full(n, -1, dtype=np.int64)
    rows = np.arange(keys.size)
    valid = keys >= 0
    # reversed assignment leaves the first row of each node in place
    first[keys[valid][::-1]] = rows[valid][::-1]
    have = first >= 0
    out: dict[str, np.ndarray] = {}
    for c in rest:
        col = np.full(n, None, dtype=object)
        col[have] = df[c].to_numpy(dtype=object)[first[have]]
        out[str(c)] = col
    return out
