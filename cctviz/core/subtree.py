"""Sums and maxima over each node's subtree (numpy, one tree level at a time) and over groups
of nodes (numpy over the group numbers): no Python loop over nodes. What the level of detail
ranks by and what its folds carry. NaN is missing: a sum or maximum over nothing but NaN is NaN."""

from __future__ import annotations

import numpy as np


def by_level(depth: np.ndarray) -> list[np.ndarray]:
    """Node ids by depth, shallowest first (views of one int32 array)."""
    order = np.argsort(depth, kind="stable").astype(np.int32)
    bounds = np.searchsorted(depth[order], np.arange(int(depth.max(initial=0)) + 2))
    return [order[bounds[d] : bounds[d + 1]] for d in range(len(bounds) - 1)]


def subtree_sum(parent: np.ndarray, levels: list[np.ndarray], values: np.ndarray) -> np.ndarray:
    """Sums over each node's subtree, one level at a time from the deepest. ``np.add.at`` touches
    only a level's parents (a ``bincount`` of the whole table per level would cost nodes × depth:
    seconds for a deep tree of a million nodes)."""
    out = values.astype(np.float64)  # a copy
    for level in reversed(levels[1:]):
        np.add.at(out, parent[level], out[level])
    return out


def subtree_nansum(parent: np.ndarray, levels: list[np.ndarray], values: np.ndarray) -> np.ndarray:
    """Subtree sums with NaN as missing: NaN only where the whole subtree is NaN."""
    missing = np.isnan(values)
    if not missing.any():
        return subtree_sum(parent, levels, values)
    present = subtree_sum(parent, levels, (~missing).astype(np.float64))
    sums = subtree_sum(parent, levels, np.where(missing, 0.0, values))
    sums[present == 0] = np.nan
    return sums


def subtree_nanmax(parent: np.ndarray, levels: list[np.ndarray], values: np.ndarray) -> np.ndarray:
    """The largest value in each node's subtree, NaN only where the whole subtree is NaN."""
    out = values.astype(np.float64)  # a copy
    for level in reversed(levels[1:]):
        np.fmax.at(out, parent[level], out[level])
    return out


def group_nanmax(values: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    """The largest value of each group, NaN where all of its values are."""
    out = np.full(groups, np.nan)
    np.fmax.at(out, group, values)
    return out


def group_nansum(values: np.ndarray, group: np.ndarray, groups: int) -> np.ndarray:
    """The sum of each group's values, NaN where all of them are."""
    missing = np.isnan(values)
    if not missing.any():  # every group holds a value (a group is a fold's owner: not empty)
        return np.bincount(group, weights=values, minlength=groups).astype(float)
    # (as floats: a bincount of nothing is of ints)
    out = np.bincount(group, weights=np.where(missing, 0.0, values), minlength=groups).astype(float)
    out[np.bincount(group, weights=~missing, minlength=groups) == 0] = np.nan
    return out
