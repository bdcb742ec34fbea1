"""Per-rank values: one node's rows of the dataframe (one per rank and thread, or per Thicket
profile) as a table with the index levels as columns, and the data of one rank alone (the rows
of that rank, for a tree whose metrics are the reducer over them: ``w.rank``)."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pandas as pd

from ..core.table import NodeTable
from .frames import distribution

RANK = "rank"
"""The index level that names a rank (Hatchet's HPCToolkit, Caliper, TAU, Score-P readers)."""


def levels_beyond_node(data: Any) -> list[str]:
    """The dataframe's index levels other than ``node`` (rank, thread, profile...)."""
    names = [str(n) for n in data.dataframe.index.names]
    return [n for n in names if n != "node"]


def ranks_of(table: NodeTable, data: Any, node: int, metric: str) -> pd.DataFrame:
    """Node ``node``'s rows of ``metric``, one per rank and thread (or Thicket profile), the
    index levels other than ``node`` as columns (in the dataframe's order), then ``metric``.
    A profile with one row per node, and an id not in the tree, are ``ValueError``s that say
    what there is."""
    if not 0 <= node < table.size:
        raise ValueError(f"no node {node}: ids run from 0 to {table.size - 1}")
    levels = levels_beyond_node(data)
    if not levels:
        names = ", ".join(str(n) for n in data.dataframe.index.names)
        raise ValueError(
            f"this profile has one value per node: the dataframe's index has only `node` "
            f"(its levels: {names}), no rank, thread or profile to list"
        )
    series = distribution(table, data, node, metric)
    frame = series.reset_index()
    return frame[[*levels, metric]].reset_index(drop=True)


def ranks_in(data: Any) -> np.ndarray:
    """The ranks of ``data``'s dataframe (sorted), or a ``ValueError`` when it has none."""
    index = data.dataframe.index
    if RANK not in [str(n) for n in index.names]:
        names = ", ".join(str(n) for n in index.names)
        raise ValueError(
            f"rank: this profile has no ranks: the dataframe's index levels are {names} (a "
            "view of one rank needs a 'rank' level, as HPCToolkit, Caliper-MPI or TAU data has)"
        )
    return np.unique(index.get_level_values(RANK).to_numpy())


def check_rank(data: Any, rank: Any) -> int:
    """``rank`` as one of ``data``'s ranks, or a ``ValueError`` naming them."""
    ranks = ranks_in(data)
    if isinstance(rank, bool) or not hasattr(rank, "__index__"):
        raise ValueError(f"rank is a rank number or None (every rank); got {rank!r}")
    value = int(rank.__index__())
    if value not in set(ranks.tolist()):
        raise ValueError(f"no rank {value} in this profile; its ranks are {_listed(ranks)}")
    return value


def _listed(ranks: np.ndarray) -> str:
    values = ranks.tolist()
    contiguous = values == list(range(values[0], values[0] + len(values))) if values else False
    if contiguous and len(values) > 3:
        return f"{values[0]} to {values[-1]}"
    shown = ", ".join(map(str, values[:20]))
    return shown + (f", ... ({len(values)} in all)" if len(values) > 20 else "")


def of_rank(data: Any, rank: int) -> tuple[Any, np.ndarray]:
    """``data`` seen through rank ``rank``'s rows only (a shallow copy sharing the graph, so the
    nodes are the same objects), and the positions of those rows in the full dataframe."""
    df = data.dataframe
    mask = np.asarray(df.index.get_level_values(RANK) == rank)
    one = copy.copy(data)
    one.dataframe = df.iloc[np.flatnonzero(mask)]
    return one, np.flatnonzero(mask)
