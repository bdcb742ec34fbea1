"""What the view shows, as pandas: one row per node with the values drawn under the current
reducer, and the per-row values (ranks, threads, Thicket profiles) behind one node's value."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .table import NodeTable


def node_frame(table: NodeTable) -> pd.DataFrame:
    """One row per node id (index ``id``, the ids of ``w.selection``): the Hatchet ``node``, its
    ``name`` and every metric as drawn (reduced over ranks, threads or profiles; NaN kept)."""
    columns: dict[str, Any] = {
        "node": table.nodes,
        "name": [table.name(i) for i in range(table.size)],
    }
    for name, metric in table.metrics.items():
        columns[name] = metric.values
    frame = pd.DataFrame(columns, index=pd.RangeIndex(table.size, name="id"))
    return frame


def distribution(table: NodeTable, data: Any, node: int, metric: str) -> pd.Series:
    """The rows of ``data.dataframe`` behind node id ``node``'s value of ``metric``: one per rank,
    thread or Thicket profile, indexed like the dataframe."""
    df = data.dataframe
    if metric not in df.columns:
        derived = table.metrics.get(metric)
        what = (
            "derived by cctviz from the dataframe" if derived is not None else "not a metric here"
        )
        columns = [str(c) for c in table.metrics if c in df.columns]
        raise ValueError(
            f"{metric!r} is {what}; per-row values exist for the dataframe's metric columns: "
            + ", ".join(repr(c) for c in columns)
        )
    first = int(table.first_row[node]) if node < table.first_row.shape[0] else -1
    if first < 0:
        return df[metric].iloc[0:0]
    # rows of that node: compare the node level with the node object itself (identity, as
    # Hatchet's own .loc does by its hash)
    levels = df.index.get_level_values("node")
    target = levels[first]
    rows = np.flatnonzero(levels == target)
    return df[metric].iloc[rows]
