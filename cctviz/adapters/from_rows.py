"""The node table of a tree and the dataframe rows of its nodes: what every metric is (the reader's
lists, the data's semantics, ``metric_kinds``), each node's rows reduced to its value, inclusive
metrics derived where a profile has none, size companions, and the nodes' names and types.

``from_graphframe`` reads the tree and rows of a GraphFrame or Thicket; a compare view gives the
union tree of several runs' node tables and one row per node (``cctviz.compare``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core import progress
from ..core.table import NodeTable
from . import semantics
from .node_metrics import node_metrics
from .spanning import count_cycle_edges
from .text import text_column


@dataclass(frozen=True)
class Tree:
    """A tree in depth-first pre-order: its Hatchet nodes, each one's parent index (-1: a root)
    and depth, the (parent, child) edges not drawn (a DAG's other callers), and each node's
    ``_hatchet_nid``."""

    nodes: np.ndarray  # of Hatchet Nodes (an object array: see from_graphframe)
    parent: np.ndarray  # int32
    depth: np.ndarray  # int32
    extra: list[tuple[int, int]]
    nid: np.ndarray


def from_rows(
    tree: Tree,
    df: pd.DataFrame,
    keys: np.ndarray,
    listed: tuple[Sequence[Any], Sequence[Any]],
    data: Any,
    reducer: str,
    metric_kinds: Mapping[str, str] | None,
    size_reducer: str | None,
    source: str,
) -> NodeTable:
    """The node table of ``tree`` whose rows are ``df``'s (``keys``: the tree index of each
    row's node, -1 for none): ``listed`` are the reader's exclusive and inclusive metrics,
    ``data`` what gives metadata (the GraphFrame or Thicket); the rest as ``from_graphframe``."""
    progress.stage("reducing the metrics")
    gf, parent, n = data, tree.parent, len(tree.nodes)
    table_metrics, single, inner = node_metrics(
        tree.parent, tree.depth, df, keys, listed, data, reducer, metric_kinds, size_reducer
    )

    progress.stage("reading names")
    first_row = _first_rows(keys, n, single)
    del keys
    names = text_column(df, "name", first_row, tree.nodes)
    types = text_column(df, "type", first_row, tree.nodes)
    # a timeseries' records of one node are time steps: the reducer line says so
    steps = "time steps (iteration)" if semantics.is_timeseries(gf, df) else "iteration"
    reduced_over = tuple(
        steps if x == "iteration" else str(x) for x in df.index.names if x != "node"
    )
    if inner:  # "imbalance over rank (thread added up)"
        reduced_over = (f"{reduced_over[0]} ({', '.join(inner)} added up)",)
    # rows per node come from the other index levels (rank, thread, profile); a "node" index
    # that repeats without them is only nodes sharing a _hatchet_nid (told apart above)
    multi_rows = (
        bool(reduced_over) and len(df.index) > 0 and not df.index.get_level_values("node").is_unique
    )

    return NodeTable(
        parent=tree.parent,
        depth=tree.depth,
        name_text=names,
        type_text=types,
        nodes=tree.nodes,
        hatchet_nid=tree.nid,
        metrics=table_metrics,
        first_row=first_row,
        reducer=reducer if multi_rows else None,
        reduced_over=reduced_over if multi_rows else (),
        extra_edges=len(tree.extra),
        cycle_edges=count_cycle_edges(tree.extra, parent),
        callers=np.asarray(tree.extra, dtype=np.int32).reshape(-1, 2),
        source=source,
    )


def _first_rows(keys: np.ndarray, n: int, single: bool) -> np.ndarray:
    """Index of the first dataframe row of each node (-1 for a node with no row); ``single``: no
    node has more than one row (each node's row put in place)."""
    first = np.full(n, -1, dtype=np.int64)
    if single and keys.size and keys.min() >= 0:
        first[keys] = np.arange(keys.size)
        return first
    rows = np.flatnonzero(keys >= 0)
    # assigning in reverse leaves the first row of each node in place
    first[keys[rows][::-1]] = rows[::-1]
    return first
