"""The tree-table: the calling contexts as rows (indented by depth, children under their parent,
largest first) with one column per chosen metric, as the table pane's tree mode shows them and
a paper's table prints them. Which columns (``table_metrics``, else the colour and size metrics
with their partners), the total each column's shares divide by (``payload.share_base``'s rule),
the column rows sort by first, and the rows in the pane's order. Pure functions of a table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.table import NodeTable, UnknownMetricError
from .payload import share_base

DEFAULT_ROWS = 25
"""Rows of a tree-table figure when the caller does not say."""


def default_columns(table: NodeTable, color_by: str, size_by: str) -> list[str]:
    """The columns shown when none are chosen: the colour metric and its partner, then the size
    metric and its partner (exclusive before inclusive), each once."""
    out: list[str] = []
    for name in (color_by, size_by):
        metric = table.metrics.get(name)
        if metric is None:
            continue
        partner = metric.partner if metric.partner in table.metrics else None
        # under a reducer that makes a time a ratio (imbalance), the pair keeps its time's order
        inclusive = (metric.base_kind or metric.kind) == "inclusive"
        pair = [partner, name] if inclusive else [name, partner]
        out += [m for m in pair if m is not None and m not in out]
    return out


def check_columns(table: NodeTable, names: Sequence[Any], what: str) -> tuple[str, ...]:
    """``names`` as metric names of ``table`` (duplicates dropped), or an error naming the first
    that is not one and listing the metrics."""
    if isinstance(names, str):
        raise TypeError(f"{what} is a list of metric names, e.g. [{names!r}]; got a str")
    out: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{what} holds metric names (str); got {name!r}")
        if name not in table.metrics:
            raise UnknownMetricError(name, list(table.metrics))
        if name not in out:
            out.append(name)
    return tuple(out)


def share_totals(table: NodeTable, columns: Sequence[str]) -> list[float | None]:
    """Per column, the whole profile's total its shares divide by (the roots' values of its
    inclusive base, ``payload.share_base``), or None where a share means nothing (a ratio, a
    maximum, an imbalance or spread, ``other``) or the total is not positive."""
    out: list[float | None] = []
    for name in columns:
        base = share_base(table, table.metrics[name])
        if base is None:
            out.append(None)
            continue
        at_roots = table.metrics[base].values[table.roots]
        total = float(at_roots[np.isfinite(at_roots) & (at_roots > 0)].sum())
        out.append(total if total > 0 else None)
    return out


def first_sort(table: NodeTable, columns: Sequence[str], tree: bool) -> int:
    """The column rows sort by at first: in a tree of contexts the first inclusive column (a
    parent's value holds its children's), in a flat list the first exclusive one; else the
    first column (-1: none)."""
    wanted = "inclusive" if tree else "exclusive"
    kinds = [table.metrics[c].kind for c in columns]
    return kinds.index(wanted) if wanted in kinds else (0 if columns else -1)


def tree_rows(
    table: NodeTable, tops: np.ndarray, scope: np.ndarray | None, sort_by: str | None
) -> tuple[np.ndarray, np.ndarray]:
    """Every node under ``tops`` (within ``scope``, a mask; None: all) in the pane's order: pre-
    order, siblings by ``sort_by`` largest first (missing last, ties by name), and each row's
    depth below its top (0 for the tops). Returns (ids, depths)."""
    parent = table.parent
    inside = np.ones(table.size, bool) if scope is None else scope
    key = (
        np.zeros(table.size)
        if sort_by is None
        else np.nan_to_num(table.metrics[sort_by].values, nan=-np.inf)
    )
    # each node's name as its rank among the distinct names (ties go A to Z)
    rank = np.argsort(np.argsort(np.asarray(table.names, dtype=object), kind="stable"))
    by_name = rank[table.name_code] if table.size else np.zeros(0, np.int64)
    # children of each node, largest first: one sort of all nodes, grouped by parent
    order = np.lexsort((by_name, -key, parent))
    order = order[inside[order] & (parent[order] >= 0)]
    kids_of = parent[order]
    start = np.searchsorted(kids_of, np.arange(table.size), side="left")
    end = np.searchsorted(kids_of, np.arange(table.size), side="right")
    top_order = sorted(tops.tolist(), key=lambda i: (-key[i], by_name[i]))
    ids: list[int] = []
    depths: list[int] = []
    stack = [(i, 0) for i in reversed(top_order)]
    while stack:
        node, depth = stack.pop()
        ids.append(node)
        depths.append(depth)
        kids = order[start[node] : end[node]]
        stack.extend((int(k), depth + 1) for k in kids[::-1])
    return np.asarray(ids, dtype=np.int64), np.asarray(depths, dtype=np.int64)


def tree_frame(
    table: NodeTable, ids: np.ndarray, depths: np.ndarray, columns: Sequence[str]
) -> pd.DataFrame:
    """The rows as pandas: index ``id``, ``depth``, ``name`` and one column per metric (the
    values of ``w.node_frame``); ``attrs["totals"]``: what each column's shares divide by."""
    data: dict[str, Any] = {
        "depth": depths,
        "name": [table.name(int(i)) for i in ids],
    }
    for name in columns:
        data[name] = table.metrics[name].values[ids]
    frame = pd.DataFrame(data, index=pd.Index(ids, name="id"))
    frame.attrs["totals"] = dict(zip(columns, share_totals(table, columns), strict=True))
    return frame


def top_rows(ids: np.ndarray, parent: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """At most ``count`` of the rows ``ids`` (in their order) for a table that fits a page: the
    largest by ``values`` each with its ancestors among ``ids``, so the rows stay a tree."""
    if count < 1:
        raise ValueError(f"rows must be at least 1; got {count}")
    among = set(ids.tolist())
    chosen: set[int] = set()
    ranked = ids[np.argsort(-np.nan_to_num(values[ids], nan=-np.inf), kind="stable")]
    for node in ranked.tolist():
        if len(chosen) >= count:
            break
        path = []
        j = node
        while j >= 0 and j in among and j not in chosen:
            path.append(j)
            j = int(parent[j])
        if len(chosen) + len(path) <= count:
            chosen.update(path)
    return np.asarray([i for i in ids.tolist() if i in chosen], dtype=np.int64)


def figure_rows(table: NodeTable, frame: pd.DataFrame, rows: Any) -> list[int]:
    """The ids of a figure's rows among ``frame``'s (``tree_frame``), in its order: ``rows``
    (a number) largest by the first sort column with their ancestors, or the node ids ``rows``
    lists; an id not among them is an error saying why."""
    ids = frame.index.to_numpy()
    if isinstance(rows, int) and not isinstance(rows, bool):
        columns = [c for c in frame.columns if c not in ("depth", "name")]
        first = first_sort(table, columns, tree=True)
        if first < 0:
            return [int(i) for i in ids[: max(rows, 1)]]
        top = top_rows(ids, table.parent, table.metrics[columns[first]].values, rows)
        return [int(i) for i in top]
    if isinstance(rows, (str, bytes)) or not hasattr(rows, "__iter__"):
        raise TypeError(
            "rows is a number of rows (the largest, with their ancestors) or a list of node "
            f"ids; got {rows!r}"
        )
    wanted = list(rows)
    for i in wanted:
        if isinstance(i, bool) or not hasattr(i, "__index__") or not 0 <= int(i) < table.size:
            raise ValueError(f"no node {i!r}: ids run from 0 to {table.size - 1}")
    shown = set(ids.tolist())
    outside = [int(i) for i in wanted if int(i) not in shown]
    if outside:
        raise ValueError(
            f"node {outside[0]} is not in the table: it is outside the focus or the visible "
            "roots (w.focused, w.visible_roots); w.table_frame lists the rows there are"
        )
    keep = {int(i) for i in wanted}
    return [i for i in ids.tolist() if i in keep]
