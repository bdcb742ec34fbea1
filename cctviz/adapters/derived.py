"""Derived inclusive metrics: for an exclusive metric without an inclusive partner (Caliper and
CUDA activity profiles have none), its subtree sum, as Hatchet's ``update_inclusive_columns``
computes it — per dataframe row, that is per rank, thread or Thicket profile, before the rows of
a node are reduced — so that every reducer (``max``, ``std``, ``imbalance``…) is applied to
inclusive values exactly as to the reader's own inclusive columns.

The subtree is the drawn tree's (in a DAG, each node under its first caller, so a node reached
by several call paths counts once, under the caller it is drawn under).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: How a derived metric is named: ``time`` → ``time (inc, derived)``.
SUFFIX = " (inc, derived)"


def derived_name(exclusive: str) -> str:
    """The name of the inclusive metric derived from ``exclusive``."""
    return f"{exclusive}{SUFFIX}"


def row_groups(df: pd.DataFrame) -> tuple[np.ndarray, int]:
    """The code of each row's non-node index levels (rank, thread, profile…) and how many there
    are: rows with the same code belong to the same run of the program."""
    others = [name for name in df.index.names if name != "node"]
    if not others:
        return np.zeros(len(df.index), dtype=np.int64), 1
    index = df.index
    assert isinstance(index, pd.MultiIndex)  # "node" plus other levels
    levels = [index.names.index(name) for name in others]
    combined = pd.MultiIndex.from_arrays([index.get_level_values(i) for i in levels])
    codes, uniques = pd.factorize(combined)
    return codes.astype(np.int64), max(1, len(uniques))


def subtree_sums(
    values: np.ndarray,
    keys: np.ndarray,
    groups: np.ndarray,
    n_groups: int,
    parent: np.ndarray,
    depth: np.ndarray,
) -> np.ndarray:
    """Per row, the sum of ``values`` (one exclusive metric, per row) over the subtree of the row's
    node within the same group (rank…). Missing (NaN) values are skipped, so a node without a
    value of its own (a host function in a GPU activity profile) gets its descendants' sum; a
    subtree with no value at all stays NaN, never 0. Rows of undrawn nodes (key -1) stay NaN.
    ``parent``/``depth``: the drawn tree.

    (Hatchet's ``update_inclusive_columns`` differs on such nodes: UMD's leaves them NaN, LLNL's
    1.x gives values that are not subtree sums; see tests/test_analyst.py.)"""
    n = parent.shape[0]
    out = np.full(values.shape[0], np.nan)
    keep = (keys >= 0) & (groups >= 0)
    if not keep.any():
        return out
    cells = keys[keep] * n_groups + groups[keep]
    # node × group sums of the exclusive values (several rows of one cell add up)
    inc = np.bincount(cells, weights=np.nan_to_num(values[keep]), minlength=n * n_groups)
    inc = inc.reshape(n, n_groups)
    measured = np.bincount(cells, weights=~np.isnan(values[keep]), minlength=n * n_groups)
    measured = measured.reshape(n, n_groups)
    # bottom-up, one depth at a time: each level adds into its parents
    order = np.argsort(depth, kind="stable")
    bounds = np.searchsorted(depth[order], np.arange(int(depth.max(initial=0)) + 2))
    for d in range(int(depth.max(initial=0)), 0, -1):
        level = order[bounds[d] : bounds[d + 1]]
        # every group at once, touching only this level's parents (linear in the nodes)
        np.add.at(inc, parent[level], inc[level])
        np.add.at(measured, parent[level], measured[level])
    inc[measured == 0] = np.nan
    out[keep] = inc[keys[keep], groups[keep]]
    return out
