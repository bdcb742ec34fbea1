"""The spread of a trend's points: for each (node, value of the axis), the profiles' values
between two quantiles (default the quartiles), which the trend pane draws as a bar through each
point of a category axis (a compiler: one point per value, with its spread). A query of its own
beside ``trend.trend``, which it does not change: the same profiles, nodes and axis."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from . import series as se
from .trend import check_axis, gathered

if TYPE_CHECKING:
    from ..ensemble import Ensemble


def spread(
    ens: Ensemble,
    keys: list[int],
    metric: str,
    by: str | None,
    low: float = 0.25,
    high: float = 0.75,
) -> pd.DataFrame:
    """One row per (key, value of ``by``) of the nodes ``keys`` (store keys): ``key``, the axis,
    ``low`` and ``high`` (the ``low`` and ``high`` quantiles of ``metric`` over the profiles of
    ``ens`` with that value, linear interpolation as pandas' ``quantile``)."""
    if not 0 <= low <= high <= 1:
        raise ValueError(f"the spread's quantiles satisfy 0 ≤ low ≤ high ≤ 1; got {low}, {high}")
    metric = ens._metric(metric)
    profiles = ens._engine().profiles(ens._where, copy=False)  # read only
    by = check_axis(profiles, by)
    if not keys:
        return pd.DataFrame({"key": [], by: [], "low": [], "high": []})
    axis = se.axis_of(profiles, by)
    order = np.asarray(keys, np.int64)
    rows, cols, values = gathered(ens, metric, order, axis, ens.nodes)
    width = len(axis.values)
    groups = pd.Series(values).groupby(rows * width + cols, sort=True)
    lows, highs = groups.quantile(low), groups.quantile(high)
    cell = lows.index.to_numpy(np.int64)
    return pd.DataFrame(
        {
            "key": order[cell // width],
            by: axis.values[cell % width],
            "low": lows.to_numpy(np.float64),
            "high": highs.to_numpy(np.float64),
        }
    )
