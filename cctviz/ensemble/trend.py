"""Trends: a node's metric against a metadata axis (a date, a number such as the job size, or a
category such as the compiler), reduced over the profiles that share each value of the axis."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from . import reducers as red
from .tree import find_key

TIME_AXES = ("launchdate", "launchday", "date", "run")


def axis_text(at: Any) -> str:
    """A point of an axis as text: a date without its midnight time."""
    if isinstance(at, (pd.Timestamp, np.datetime64)):
        stamp = pd.Timestamp(at)
        return stamp.date().isoformat() if stamp == stamp.normalize() else str(stamp)
    return str(at)


def default_axis(profiles: pd.DataFrame) -> str:
    """The axis a trend is drawn against when none is given: a launch date, else the run."""
    for name in TIME_AXES:
        if name in profiles.columns:
            return name
    raise ValueError(
        "the profiles have no launch date or run number to order them by: give by= (a metadata "
        f"column: {', '.join(map(str, profiles.columns))})"
    )


def check_axis(profiles: pd.DataFrame, by: str | None) -> str:
    if by is None:
        return default_axis(profiles)
    if by not in profiles.columns:
        raise KeyError(
            f"no metadata column {by!r}; columns: {', '.join(map(str, profiles.columns))}"
        )
    return by


def trend(
    ens: Any, node: Any, metric: str, by: str | None, reducer: str, children: bool
) -> pd.DataFrame:
    """One row per (node, value of ``by``): ``key``, ``path``, ``name``, the axis, ``value``
    (``reducer`` over the profiles with that value) and ``count``; the node first, then its
    children (when asked) in tree order."""
    (reducer,) = red.check((reducer,))
    metric = ens._metric(metric)
    by = check_axis(ens.profiles, by)
    tree = ens.nodes
    key = find_key(tree, node)
    keys = [key, *(tree.index[tree["parent"] == key] if children else [])]
    duck = ens._shared.duck
    column, axis = red.quote(metric), red.quote(by)
    filter_ = f"AND v.profile IN ({duck.selected(ens.filters)})" if ens.filters else ""
    # the keys inline (whole numbers): a parameter list keeps DuckDB from skipping row groups
    marks = ", ".join(str(int(k)) for k in keys)
    sql = (
        f"SELECT v.key, p.{axis} AS axis, {red.sql(reducer, 'v.' + column)} AS value, "
        f"count(v.{column}) AS count FROM {duck._source('values')} v "
        f"JOIN {duck._source('profiles')} p ON p.profile = v.profile "
        f"WHERE v.key IN ({marks}) AND v.{column} IS NOT NULL {filter_} "
        f"GROUP BY v.key, p.{axis} ORDER BY axis"
    )
    rows = duck.query(sql).rename(columns={"axis": by})
    order = {int(k): i for i, k in enumerate(keys)}
    rows["_order"] = rows["key"].map(order)
    rows = rows.sort_values(["_order", by], kind="stable").drop(columns="_order")
    rows.insert(1, "path", tree["path"].reindex(rows["key"]).to_numpy())
    rows.insert(2, "name", tree["name"].reindex(rows["key"]).to_numpy())
    return rows.reset_index(drop=True)
