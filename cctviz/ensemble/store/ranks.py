"""Per-rank rows, kept when asked (``Ensemble.add(..., ranks=True)``): a profile whose GraphFrame
has a ``rank`` level (and perhaps ``thread``) also writes one row per (node, rank[, thread]) with
its measured metrics into the store's ``ranks`` table. The ``values`` table still holds each node
reduced over its ranks, so every reduction, trend and change point reads what it read before;
``Ensemble.ranks`` gives the rows back for load-imbalance questions across runs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ...core.table import Nodes

LEVELS = ("rank", "thread")


def rank_rows(
    gf: Any,
    nodes: Nodes,
    keys: np.ndarray,
    parents: np.ndarray,
    profile: str,
    metrics: list[str],
) -> pd.DataFrame | None:
    """The rows of ``gf``'s dataframe with a rank level, as the store keeps them (None: the
    profile has no per-rank rows). ``nodes``: the node table's Hatchet nodes, whose ``keys``
    and ``parents`` are known; rows of other nodes are left out, as the table leaves them."""
    df = gf.dataframe
    names = list(df.index.names)
    if "rank" not in names or len(nodes) == 0:
        return None
    row_of = {id(n): i for i, n in enumerate(nodes)}
    at = np.fromiter(
        (row_of.get(id(n), -1) for n in df.index.get_level_values("node")), np.int64, len(df)
    )
    keep = at >= 0
    out: dict[str, Any] = {
        "profile": profile,
        "key": keys[at[keep]],
        "parent": parents[at[keep]],
    }
    for level in LEVELS:
        if level in names:
            out[level] = np.asarray(df.index.get_level_values(level))[keep].astype(np.int64)
    for metric in metrics:
        if metric in df.columns and pd.api.types.is_numeric_dtype(df[metric]):
            out[metric] = df[metric].to_numpy(np.float64)[keep]
    return pd.DataFrame(out)
