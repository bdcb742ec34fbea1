"""The spread of a trend's points: for each (node, value of the axis), the profiles' values
between two quantiles (default the quartiles), which the trend pane draws as a bar through each
point of a category axis (a compiler: one point per value, with its spread). A query of its own
beside ``trend.trend``, which it does not change: the same profiles, nodes and axis."""

from __future__ import annotations

from typing import Any

import pandas as pd

from . import reducers as red
from .trend import check_axis


def spread(
    ens: Any, keys: list[int], metric: str, by: str | None, low: float = 0.25, high: float = 0.75
) -> pd.DataFrame:
    """One row per (key, value of ``by``) of the nodes ``keys`` (store keys): ``key``, the axis,
    ``low`` and ``high`` (the ``low`` and ``high`` quantiles of ``metric`` over the profiles of
    ``ens`` with that value, linear interpolation as pandas' ``quantile``)."""
    if not 0 <= low <= high <= 1:
        raise ValueError(f"the spread's quantiles satisfy 0 ≤ low ≤ high ≤ 1; got {low}, {high}")
    metric = ens._metric(metric)
    by = check_axis(ens.profiles, by)
    if not keys:
        return pd.DataFrame({"key": [], by: [], "low": [], "high": []})
    duck = ens._shared.duck
    column, axis = red.quote(metric), red.quote(by)
    filter_ = f"AND v.profile IN ({duck.selected(ens.filters)})" if ens.filters else ""
    marks = ", ".join(str(int(k)) for k in keys)
    sql = (
        f"SELECT v.key, p.{axis} AS axis, quantile_cont(v.{column}, {float(low)!r}) AS low, "
        f"quantile_cont(v.{column}, {float(high)!r}) AS high FROM {duck._source('values')} v "
        f"JOIN {duck._source('profiles')} p ON p.profile = v.profile "
        f"WHERE v.key IN ({marks}) AND v.{column} IS NOT NULL {filter_} "
        f"GROUP BY v.key, p.{axis} ORDER BY v.key, axis"
    )
    return duck.query(sql).rename(columns={"axis": by})
