"""A node's rows (ranks, threads, Thicket profiles) beyond the one reducer: their sums per node
(the tree check), threads added up within each rank (what a spread or an imbalance compares), and
the size companions (each metric that adds up combined by another reducer, for size)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..core.table import Metric
from . import semantics
from .reduce import check_reducer, per_node


def companion_name(metric: str, reducer: str) -> str:
    """The name of ``metric`` combined by another reducer for size: ``time (inc) (mean)``."""
    return f"{metric} ({reducer})"


def companions(
    block: np.ndarray,
    keys: np.ndarray,
    n: int,
    reducer: str,
    names: list[Any],
    kind: dict[Any, str],
    partner: dict[Any, Any],
    decisions: dict[Any, semantics.Decision],
) -> dict[str, Metric]:
    """The metrics that add up, their rows combined by ``reducer`` (``size_reducer``): what size
    shows while colour shows an imbalance or a spread. Partners pair among themselves."""
    check_reducer(reducer)
    additive = [j for j, m in enumerate(names) if kind[m] in ("exclusive", "inclusive")]
    if not additive:
        return {}
    taken = {str(m) for m in names}
    named = {names[j]: companion_name(str(names[j]), reducer) for j in additive}
    if taken & set(named.values()):  # a column already has that name: say it otherwise
        named = {m: f"{m} [{reducer}]" for m in named}
    values = per_node(block[:, additive], keys, n, reducer)
    out: dict[str, Metric] = {}
    for k, j in enumerate(additive):
        m, d = names[j], decisions[names[j]]
        out[named[m]] = Metric(
            name=named[m],
            values=np.ascontiguousarray(values[:, k]),
            kind=kind[m],  # type: ignore[arg-type]
            partner=named.get(partner.get(m)),
            rule=d.rule,
            detail=f"{d.detail}; rows combined by {reducer} (size_reducer)",
        )
    return out


def inner_levels(df: pd.DataFrame) -> list[str]:
    """The index levels inside the first one after ``node`` (thread within rank), if any."""
    others = [str(x) for x in df.index.names if x != "node"]
    return others[1:]


def summed_within(
    block: np.ndarray, keys: np.ndarray, df: pd.DataFrame
) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``block`` added up within (node, outer level): one row per node and rank, its
    threads summed (NaN where all of them are); returns (rows, node key of each row)."""
    index = df.index
    assert isinstance(index, pd.MultiIndex)  # node plus at least two other levels
    outer = next(x for x in index.names if x != "node")
    cells, _ = pd.factorize(
        pd.MultiIndex.from_arrays([keys, index.get_level_values(outer)]), sort=False
    )
    keep = keys >= 0
    frame = pd.DataFrame(block[keep]).groupby(cells[keep], sort=True)
    summed = frame.sum(min_count=1)
    first = pd.Series(keys[keep]).groupby(cells[keep], sort=True).first()
    return summed.to_numpy(dtype=np.float64), first.to_numpy(dtype=np.int64)


def one_row_each(keys: np.ndarray, n: int) -> bool:
    """Whether no node has more than one row (``keys``: node index per row, -1 for none): a
    single profile's frame, where a node's sum or reduction is its one row's value."""
    kept = keys if keys.size == 0 or keys.min() >= 0 else keys[keys >= 0]
    return kept.size == 0 or (kept.size <= n and int(np.bincount(kept, minlength=n).max()) <= 1)


def node_sums(values: np.ndarray, keys: np.ndarray, n: int, single: bool = False) -> np.ndarray:
    """Per node, the sum of its rows' values (ranks, threads, profiles; NaN without any): linear,
    so an inclusive metric's sums still hold each parent at least its children's sum. ``single``
    (:func:`one_row_each` is true): each node's one row is its sum, put in place."""
    keep = (keys >= 0) & ~np.isnan(values)
    if single:
        out = np.full(n, np.nan)
        if keep.all():
            out[keys] = values
        else:
            out[keys[keep]] = values[keep]
        return out
    # float64 always: bincount of no rows at all gives integers
    out = np.bincount(keys[keep], weights=values[keep], minlength=n).astype(np.float64)
    out[np.bincount(keys[keep], minlength=n) == 0] = np.nan
    return out
