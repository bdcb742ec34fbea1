"""What the view shows, as pandas: one row per node with the values drawn under the current
reducer, and the per-row values (ranks, threads, Thicket profiles) behind one node's value."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..core.table import NodeTable


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
    # the rows of that node: those sharing its code in the index's node level (integer codes,
    # not a comparison of Node objects row by row: this runs on every hover)
    index = df.index
    if isinstance(index, pd.MultiIndex):
        codes = index.codes[index.names.index("node")]
        rows = np.flatnonzero(codes == codes[first])
    else:
        rows = np.sort(index.get_indexer_for([index[first]]))
    return df[metric].iloc[rows]


#: At most this many sorted values go to the front end for a node's strip.
STRIP_POINTS = 64


def spread(series: pd.Series) -> dict[str, Any]:
    """A node's per-row values summarised for its tooltip: count, min, mean, max, std (ddof=1),
    which row holds the max (``"rank 3"``, ``"rank 3, thread 0"``), what a row is, and the sorted
    values (quantiles when there are more than ``STRIP_POINTS``). Missing values are skipped;
    JSON-safe (None for what is undefined)."""
    names = [str(n) for n in series.index.names if n != "node"]
    values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    measured = ~np.isnan(values)
    finite = np.sort(values[measured])

    def number(x: float) -> float | None:
        return float(x) if np.isfinite(x) else None

    at_max = None
    if finite.size:
        entry = series.index[int(np.flatnonzero(measured)[np.argmax(values[measured])])]
        parts = entry if isinstance(entry, tuple) else (entry,)
        levels = list(series.index.names)
        at_max = ", ".join(
            f"{name} {value}" for name, value in zip(levels, parts, strict=True) if name != "node"
        )
    if finite.size > STRIP_POINTS:
        finite = np.quantile(finite, np.linspace(0, 1, STRIP_POINTS))
    return {
        "count": int(measured.sum()),
        "min": number(finite[0]) if finite.size else None,
        "mean": number(values[measured].mean()) if finite.size else None,
        "max": number(finite[-1]) if finite.size else None,
        "std": number(values[measured].std(ddof=1)) if measured.sum() > 1 else None,
        "at_max": at_max or None,
        "over": " × ".join(names) or "row",
        "quantiles": [float(x) for x in finite],
    }
