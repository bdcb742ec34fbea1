"""The flat profile: one row per function (or per any grouping of dataframe columns) over every
calling context it appears in — what hpcviewer, Cube and ParaProf call the flat view.

Exclusive metrics are summed over the contexts. Inclusive metrics are counted once per call
path: a context whose caller chain already holds the same function (recursion) is inside the
outer one's inclusive value, so only the outermost occurrence counts.

Functions are functions: HPCToolkit's loops and statements are not rows of their own but parts
of the procedure holding them, whose exclusive value holds theirs (see ``lexical``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..core.table import NodeTable
from .lexical import function_names, lexical, own_exclusive


def group_keys(table: NodeTable, data: Any, by: str | Sequence[str]) -> pd.DataFrame:
    """The grouping columns of every node: ``name`` from the table (what the view shows), other
    columns from the node's first row of ``data.dataframe``."""
    columns = [by] if isinstance(by, str) else list(by)
    if not columns:
        raise ValueError("flat_profile needs at least one column to group by, e.g. by='name'")
    df = data.dataframe
    out: dict[str, Any] = {}
    for column in columns:
        if column == "name":  # the function's name (lexical.function_names)
            names = function_names(table)
            out[column] = [names[c] for c in table.name_code.tolist()]
            continue
        if column not in df.columns:
            text = [str(c) for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
            raise ValueError(
                f"flat_profile cannot group by {column!r}: no such column; the dataframe's "
                f"text columns are {', '.join(map(repr, ['name', *text]))}"
            )
        values = np.full(table.size, None, dtype=object)
        have = table.first_row >= 0
        values[have] = df[column].to_numpy(dtype=object)[table.first_row[have]]
        out[column] = values
    return pd.DataFrame(out)


def subtree_end(parent: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """The index of each node's last descendant (pre-order: a subtree is a run of indices)."""
    n = parent.shape[0]
    if n == 0:
        return np.zeros(0, np.int64)
    size = np.ones(n)
    order = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[order], np.arange(int(depth.max()) + 2))
    for d in range(int(depth.max()), 0, -1):
        level = order[bounds[d] : bounds[d + 1]]
        np.add.at(size, parent[level], size[level])  # linear: only this level's parents
    return np.arange(n) + size.astype(np.int64) - 1


def outside_earlier(starts: np.ndarray, ends: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Per subtree ``[starts[i], ends[i]]`` (pre-order indices) in group ``groups[i]``: whether no
    earlier subtree of its group contains it. Vectorised: the furthest end among a group's
    earlier subtrees (-1 for its first) must lie before the start."""
    if starts.size == 0:
        return np.ones(0, dtype=bool)
    order = np.lexsort((starts, groups))  # by group, then pre-order
    in_order = groups[order]
    reach = (
        pd.Series(ends[order]).groupby(in_order).cummax().groupby(in_order).shift(1, fill_value=-1)
    ).to_numpy()
    out = np.empty(starts.shape[0], dtype=bool)
    out[order] = starts[order] > reach
    return out


def outermost(parent: np.ndarray, depth: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Whether each node is the outermost occurrence of its group on its call path (no proper
    ancestor has the same code). ``parent``, ``depth``: the tree in pre-order; ``codes``: group
    per node."""
    nodes = np.arange(parent.shape[0])
    return outside_earlier(nodes, subtree_end(parent, depth), codes)


def flat_profile(
    table: NodeTable, data: Any, by: str | Sequence[str], sort_by: str | None
) -> pd.DataFrame:
    """One row per group of functions: the grouping columns, every metric (exclusive: summed
    over the contexts; inclusive: summed over outermost contexts; others: their maximum),
    ``contexts`` (how many nodes) and ``ids`` (their node ids, for ``w.select``), sorted by
    ``sort_by`` (largest first). Loops and statements count in the procedure holding them."""
    lex = lexical(table)
    functions = np.flatnonzero(~lex.part)
    keys = group_keys(table, data, by)
    names = list(keys.columns)
    if lex.any:
        keys = keys.iloc[functions].reset_index(drop=True)
    codes = keys.groupby(names, sort=False, dropna=False).ngroup().to_numpy()
    every = np.full(table.size, -1, dtype=np.int64)
    every[functions] = codes
    # a part's code is its owner's: it is never outermost where its owner is counted
    first = outermost(table.parent, table.depth, every[lex.owner])[functions]
    frame = keys.copy()
    for name, metric in table.metrics.items():
        values = metric.values
        if metric.kind == "exclusive":
            values = own_exclusive(table, values, lex)
        values = values[functions]
        if metric.kind == "inclusive":
            values = np.where(first, values, np.nan)
        frame[name] = values
    grouped = frame.groupby(names, sort=False, dropna=False)
    aggregations: dict[str, Any] = {
        name: ("sum" if metric.kind in ("exclusive", "inclusive") else "max")
        for name, metric in table.metrics.items()
    }
    result = grouped.agg(aggregations)
    # a function without any value stays missing, never 0
    counted = grouped[list(table.metrics)].count()
    result = result.where(counted > 0)
    result = result.reset_index()
    # each group's node ids, in tree order (groups are numbered in order of appearance, as
    # the groupby above lists them)
    by_group = functions[np.argsort(codes, kind="stable")]
    counts = np.bincount(codes, minlength=len(result))
    result["contexts"] = counts
    result["ids"] = [chunk.tolist() for chunk in np.split(by_group, np.cumsum(counts)[:-1])]
    if sort_by is not None:
        result = result.sort_values(sort_by, ascending=False, na_position="last", kind="stable")
    return result.reset_index(drop=True)
