"""Combine the rows of one node (one per rank, thread or profile) into one value per node."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.table import REDUCERS


def check_reducer(reducer: str) -> str:
    """Return ``reducer`` if it is one of :data:`cctviz.core.table.REDUCERS`, else raise
    ValueError."""
    if reducer not in REDUCERS:
        raise ValueError(
            f"unknown reducer {reducer!r}; accepted: {', '.join(repr(r) for r in REDUCERS)}"
        )
    return reducer


def per_node(
    values: np.ndarray, keys: np.ndarray, n: int, reducer: str, single: bool | None = None
) -> np.ndarray:
    """Reduce the rows of ``values`` (rows × metrics, float64) grouped by ``keys`` (node index per
    row, ``-1`` for rows to ignore) into an ``n`` × metrics array.

    NaN is missing, never zero: a node with no value, or only NaN values, stays NaN (``sum`` of
    nothing is NaN, not 0); NaN rows are skipped by every reducer. ``single``: whether no node has
    more than one row, if the caller knows (None: counted here).
    """
    check_reducer(reducer)
    keep = keys >= 0
    if not keep.all():
        keys, values = keys[keep], values[keep]
    if keys.size == 0:
        return np.full((n, values.shape[1]), np.nan)
    # one row per node: nothing to combine (a count per node: linear, unlike a sort or hash)
    if single is None:
        single = bool(np.bincount(keys, minlength=n).max() <= 1)
    if single:
        if reducer == "std":  # of one value: undefined (ddof=1), as pandas says; stays NaN
            return np.full((n, values.shape[1]), np.nan)
        # column by column into a column-major array: a scatter of single values (1M rows:
        # half the time of scattering rows); each metric's column is then contiguous
        by_column = np.full((values.shape[1], n), np.nan)
        for j in range(values.shape[1]):
            if reducer == "imbalance":  # max ÷ mean of one value
                with np.errstate(divide="ignore", invalid="ignore"):
                    by_column[j, keys] = values[:, j] / values[:, j]
            else:
                by_column[j, keys] = values[:, j]
        return by_column.T
    grouped = pd.DataFrame(values).groupby(keys, sort=False)
    if reducer == "sum":
        reduced = grouped.sum(min_count=1)
    elif reducer == "imbalance":
        reduced = grouped.max() / grouped.mean()
    else:  # mean, median, min, max, std (pandas' ddof=1)
        reduced = getattr(grouped, reducer)()
    out = np.full((n, values.shape[1]), np.nan)
    out[reduced.index.to_numpy()] = reduced.to_numpy(dtype=np.float64)
    return out


#: Reducers whose per-node values do not add up along the tree (no sums of them are shown).
NOT_ADDITIVE = frozenset({"median", "std", "imbalance"})
#: Reducers that compare a node's ranks: each rank's threads are added up first (the others,
#: median too, combine every (rank, thread) row).
COMPARES_RANKS = frozenset({"std", "imbalance"})
