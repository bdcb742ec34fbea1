"""What the widget's trend pane is sent: one node's series along a metadata axis and its
children's (the largest ``MAX_CHILDREN``), small multiples on one y scale, each with its share of
its parent, the path from the root for the breadcrumb, and the axes the pane offers. The values
are ``ens.trend``'s (``cctviz/ensemble/analysis/trend.py``); a category axis adds each point's
spread (``cctviz/ensemble/analysis/trend_spread.py``). A long series is thinned to at most
``MAX_POINTS`` of its own points."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ...core.table import NodeTable
from ...ensemble.analysis.trend import trend_of
from ...ensemble.analysis.trend_spread import spread

if TYPE_CHECKING:
    from ...ensemble.ensemble import Ensemble

MAX_CHILDREN = 12
"""Children drawn at most (the largest by the tree's value); the pane says how many are left."""
MAX_CATEGORIES = 24  # a category axis of more values than this is a text, not a trend
MAX_POINTS = 480
"""Points of one series sent at most: a longer one keeps, in each of ``MAX_POINTS / 4`` runs of
its points, the first, the last, the lowest and the highest (its shape, in its own values)."""
NOT_AXES = ("hash", "source", "nodes")
"""Columns cctviz adds to every profile: not offered as axes."""


def axes(profiles: pd.DataFrame) -> list[dict[str, str]]:
    """The axes the pane offers: each metadata column with its kind, ``"date"``, ``"number"``
    or ``"category"`` (text, booleans); first the dates, then the numbers and the categories of
    a few values that vary, last what cannot make a trend (one value for every profile, texts
    such as command lines)."""
    ranked = []
    for column in profiles.columns:
        name = str(column)
        if name in NOT_AXES:
            continue
        kind = axis_kind(profiles[column])
        try:
            distinct = profiles[column].nunique()
        except TypeError:  # lists: no axis to speak of
            distinct = 0
        useful = distinct > 1 and (kind != "category" or distinct <= MAX_CATEGORIES)
        rank = (0 if useful else 1, ("date", "number", "category").index(kind))
        ranked.append((rank, {"name": name, "kind": kind}))
    return [axis for _, axis in sorted(ranked, key=lambda r: r[0])]  # stable: store order kept


def profiles_of(ens: Ensemble) -> dict[str, Any]:
    """What the pane says of the profiles of ``ens`` (one query: a view keeps it while its data
    stay): the axes offered, with their kinds, and how many profiles there are."""
    profiles = ens.profiles
    return {"axes": axes(profiles), "profiles": len(profiles), "where": " and ".join(ens.filters)}


def axis_kind(column: pd.Series) -> str:
    dtype = column.dtype
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "date"
    if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype):
        return "number"
    return "category"


def _number(value: Any) -> float | None:
    """A finite float, else None (JSON has no NaN)."""
    number = float(value)
    return number if math.isfinite(number) else None


def _kept(values: np.ndarray) -> np.ndarray:
    """Positions of ``values`` kept: all, or per run the first, last, lowest and highest."""
    n = values.size
    if n <= MAX_POINTS:
        return np.arange(n)
    runs = MAX_POINTS // 4
    bounds = np.linspace(0, n, runs + 1).astype(np.int64)
    run = np.repeat(np.arange(runs), np.diff(bounds))
    finite = np.isfinite(values)
    low = np.lexsort((np.where(finite, values, np.inf), run))  # per run, lowest first
    high = np.lexsort((np.where(finite, -values, np.inf), run))  # per run, highest first
    firsts = bounds[:-1][np.diff(bounds) > 0]
    keep = np.concatenate([firsts, bounds[1:] - 1, low[firsts], high[firsts]])
    # a run without a finite value keeps only its ends (its "lowest" is any of its points)
    keep = keep[finite[keep] | np.isin(keep, np.concatenate([firsts, bounds[1:] - 1]))]
    return np.unique(keep)


def path_to(table: NodeTable, node: int) -> list[dict[str, Any]]:
    """The breadcrumb: each node from the root down to ``node``, id and name."""
    chain = []
    at = node
    while at >= 0:
        chain.append({"id": int(at), "name": table.name(at)})
        at = int(table.parent[at])
    return chain[::-1]


def payload(
    ens: Ensemble,
    table: NodeTable,
    keys: np.ndarray,
    node: int,
    metric: str,
    by: str,
    reducer: str,
    share_of: str | None,
    profiles: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The pane of node ``node`` (an id of ``table``, the tree of ``ens``; ``keys`` the store
    key of each of its nodes): ``metric`` reduced with ``reducer`` along ``by``. Children are
    ordered and capped by the tree's value of ``share_of`` (else of ``metric``); each series'
    ``share`` is its value of ``share_of`` in the tree over its parent's (None without one).
    ``profiles``: ``profiles_of(ens)``, when the caller kept it."""
    about = profiles_of(ens) if profiles is None else profiles
    kind = next((a["kind"] for a in about["axes"] if a["name"] == by), None)
    if kind is None:
        raise KeyError(f"no metadata column {by!r}; the trend pane offers {about['axes']}")
    children = np.flatnonzero(table.parent == node)
    weight = table.metrics[share_of or metric].values
    order = sorted(children.tolist(), key=lambda c: -np.nan_to_num(weight[c], nan=-np.inf))
    shown = [node, *order[:MAX_CHILDREN]]
    # only the series shown are read (the root of a wide tree has a hundred children)
    rows = trend_of(ens, int(keys[node]), [int(keys[i]) for i in shown[1:]], metric, by, reducer)
    by_key = {int(keys[i]): i for i in shown}
    values = table.metrics[share_of].values if share_of else None

    def share(i: int) -> float | None:
        parent = int(table.parent[i])
        if values is None or parent < 0 or not values[parent]:
            return None
        return _number(values[i] / values[parent])

    categories: list[str] = []
    if kind == "category":
        categories = sorted({str(v) for v in rows[by]})
    # each point's spread where points combine profiles: a category's, or a number axis that
    # mixes runs (a job size run at several problem sizes)
    spreads = kind == "category" or (kind == "number" and bool((rows["count"] > 1).any()))
    if spreads:
        bounds = spread(ens, list(by_key), metric, by).set_index(["key", by])
    series = []
    thinned = False
    for i in shown:
        mine = rows[rows["key"] == int(keys[i])]
        ys = mine["value"].to_numpy(np.float64)
        kept = _kept(ys)
        thinned |= kept.size < ys.size
        at = mine[by].iloc[kept]
        if kind == "date":
            xs = [_number(pd.Timestamp(v).value / 1e6) for v in at]
        elif kind == "number":
            xs = [_number(v) for v in at]
        else:
            xs = [float(categories.index(str(v))) for v in at]
        one: dict[str, Any] = {
            "id": int(i),
            "name": table.name(i),
            "share": share(i),
            "x": xs,
            "y": [_number(v) for v in ys[kept]],
            "count": [int(c) for c in mine["count"].to_numpy()[kept]],
        }
        if spreads:
            spans = [
                bounds.loc[(int(keys[i]), v)] if (int(keys[i]), v) in bounds.index else None
                for v in at
            ]
            one["low"] = [None if s is None else _number(s["low"]) for s in spans]
            one["high"] = [None if s is None else _number(s["high"]) for s in spans]
        series.append(one)
    return {
        "by": by,
        "kind": kind,
        **about,
        "metric": metric,
        "reducer": reducer,
        "categories": categories,
        "path": path_to(table, node),
        "children": int(children.size),
        "left_out": int(max(0, children.size - MAX_CHILDREN)),
        "thinned": bool(thinned),
        "series": series,
    }
