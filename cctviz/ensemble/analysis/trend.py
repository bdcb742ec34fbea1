"""Trends: a node's metric against a metadata axis (a date, a number such as the job size, or a
category such as the compiler), reduced over the profiles that share each value of the axis."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..engine import reducers as red
from ..engine.tree import find_key
from . import series as se

if TYPE_CHECKING:
    from ..ensemble import Ensemble

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
    ens: Ensemble, node: Any, metric: str, by: str | None, reducer: str, children: bool
) -> pd.DataFrame:
    """One row per (node, value of ``by``): ``key``, ``path``, ``name``, the axis, ``value``
    (``reducer`` over the profiles with that value) and ``count``; the node first, then its
    children (when asked) in tree order. Profiles without a value of ``by`` are left out."""
    tree = ens.nodes
    key = find_key(tree, node)
    kids = tree.index[tree["parent"] == key] if children else tree.index[:0]
    return _trend(ens, np.asarray([key, *kids], np.int64), metric, by, reducer)


def _trend(
    ens: Ensemble, keys: np.ndarray, metric: str, by: str | None, reducer: str
) -> pd.DataFrame:
    (reducer,) = red.check((reducer,))
    metric = ens._metric(metric)
    profiles = ens._engine().profiles(ens._where, copy=False)  # read only: no copy of 10⁵ rows
    by = check_axis(profiles, by)
    tree = ens.nodes
    axis = se.axis_of(profiles, by)
    rows, cols, values = gathered(ens, metric, keys, axis, tree)
    width = len(axis.values)
    cell, value, count = _reduced(rows * width + cols, values, reducer)
    at = keys[cell // width]
    out = pd.DataFrame({"key": at})
    out["path"] = tree["path"].to_numpy()[tree.index.get_indexer(at)] if len(at) else []
    out["name"] = tree["name"].to_numpy()[tree.index.get_indexer(at)] if len(at) else []
    out[by] = axis.values[cell % width]
    out["value"], out["count"] = value, count
    return out


def trend_of(
    ens: Ensemble, node: int, children: list[int], metric: str, by: str, reducer: str
) -> pd.DataFrame:
    """``trend`` of ``node`` and only the children ``children`` (store keys; the trend pane's
    largest few): the same rows as ``trend(..., children=True)`` gives for them, read alone."""
    return _trend(ens, np.asarray([node, *children], np.int64), metric, by, reducer)


def gathered(
    ens: Ensemble, metric: str, keys: np.ndarray, axis: se.Axis, tree: pd.DataFrame
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(row in ``keys``, axis position, value) of every value of the nodes ``keys``. When they
    are a node and some of its children (a trend), a store sorted by parent reads the row groups
    of the node's parent and of the node only."""
    first = int(keys[0])
    parent = int(tree.loc[first, "parent"])
    family = all(int(tree.loc[int(k), "parent"]) == first for k in keys[1:])
    if family and ens._engine().by_parent():
        own = f"parent = {parent} AND key = {first}"
        kids = ", ".join(str(int(k)) for k in keys[1:])
        nodes = (own, f"parent = {first} AND key IN ({kids})") if len(keys) > 1 else (own,)
    else:  # other nodes, or a store written before values held the parent's key
        nodes = (f"key IN ({', '.join(str(int(k)) for k in keys)})",)
    got = list(se.cells(ens, metric, keys, axis, nodes))
    if not got:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0)
    rows, cols, values = (np.concatenate(part) for part in zip(*got, strict=True))
    return rows.astype(np.int64), cols, values


def _reduced(flat: np.ndarray, values: np.ndarray, reducer: str) -> tuple[Any, Any, Any]:
    """Per cell (node row × width + axis position) holding values, in order: the cell, the
    values combined with ``reducer`` (the definitions of cctviz.ensemble.engine.reducers) and their
    count."""
    counts = np.bincount(flat) if len(flat) else np.zeros(0, np.int64)
    cell = np.flatnonzero(counts)
    n = counts[cell]
    if reducer in ("mean", "sum", "count"):
        sums = np.bincount(flat, weights=values)[cell]
        value = {"mean": sums / n, "sum": sums, "count": n.astype(float)}[reducer]
        return cell, value, n
    if len(n) and n.max() == 1:  # one profile per cell (a nightly series): its own value
        own = values[np.argsort(flat, kind="stable")]
        if reducer == "std":
            own = np.full(len(own), np.nan)  # ddof 1 of one value
        elif reducer == "imbalance":
            own = np.where(own != 0, 1.0, np.nan)  # max ÷ mean of one value
        return cell, own, n
    groups = pd.Series(values).groupby(flat, sort=True)
    q = red.quantile(reducer)
    if q is not None or reducer == "median":
        value = groups.quantile(0.5 if q is None else q)
    elif reducer == "imbalance":
        mean = groups.mean()
        value = groups.max() / mean.where(mean != 0)
    else:  # std (ddof 1), min, max
        value = getattr(groups, reducer)()
    return value.index.to_numpy(np.int64), value.to_numpy(float), groups.size().to_numpy()
