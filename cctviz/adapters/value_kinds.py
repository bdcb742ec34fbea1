"""What a metric's values say it is where neither its name nor the metadata does: the rules
``parameter`` and ``fraction`` (:data:`cctviz.adapters.semantics.RULES`), tried on the metrics
only the reader's list decided, before the tree check.

A reader lists every column of a Caliper file as exclusive (LLNL's), and without the
``spot.metrics`` metadata nothing says that RAJAPerf's per-kernel ``ProblemSize``, ``Reps``,
``Bytes/Rep``… are parameters recorded with each region, or that ``Retiring``, ``Frontend bound``…
are fractions of a top-down analysis. Summed over a subtree they are numbers of nothing.

- **parameter**: a value Caliper keeps as the largest of a region's records (``any#…#max#``) is,
  at each parent, the largest of its children's: where at least ``MIN_PARENTS`` parents have
  children of different values and every one of them holds exactly their largest, the metric is
  such a maximum (an exclusive time or count almost never is). A value the same at every node
  (``BlockSize`` 0 or 128 everywhere) says nothing by itself: it is a parameter only where its
  name is one of a run's sizes or repetition counts as well.
- **fraction**: named as top-down analysis names its categories (``Retiring``, ``Frontend
  bound``, ``Backend bound``, ``Bad speculation``, ``Memory bound``, ``Core bound``, ``L1 bound``…)
  and every value, on every row, a share of the pipeline's slots: within [-1, 1] (below 0 only
  where counters read at different moments disagree: ``Bad speculation``, issued minus retired
  micro-ops, is -0.17 on one node of thicket/simple-cali).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from .semantics import Decision

MIN_PARENTS = 3
"""Parents with children of different values that must all hold the largest of them."""

TOPDOWN = re.compile(
    r"^(topdown[._#])?(retiring|heavy[ _]operations|light[ _]operations|frontend[ _]bound|"
    r"fetch[ _](latency|bandwidth)|backend[ _]bound|bad[ _]speculation|branch[ _]mispredicts|"
    r"machine[ _]clears|memory[ _]bound|core[ _]bound|(l[123]|dram|store|pmm)[ _]bound)$",
    re.I,
)
"""The categories of Yasin's top-down analysis, as Caliper's topdown service and Thicket name
them."""

PARAMETER_NAME = re.compile(
    r"(problem|block|grid|tile|team|chunk|vector|mesh)[ _]?size$|^(reps|repetitions|[^/]+/rep)$",
    re.I,
)
"""Names of a run's parameters (RAJAPerf's ``ProblemSize``, ``BlockSize``, ``Reps``, ``…/Rep``):
only together with values that are the same at every node."""


def largest_of_children(values: np.ndarray, parent: np.ndarray) -> tuple[int, int]:
    """(parents whose children's values differ, those of them holding exactly the largest):
    NaN children and parents left out."""
    n = parent.shape[0]
    has = ~np.isnan(values)
    child = np.flatnonzero((parent >= 0) & has)
    if not child.size:
        return 0, 0
    up = parent[child].astype(np.intp)
    high = np.full(n, -np.inf)
    np.maximum.at(high, up, values[child])
    low = np.full(n, np.inf)
    np.minimum.at(low, up, values[child])
    varied = (high > low) & has
    return int(varied.sum()), int((varied & (values == high)).sum())


def _constant(values: np.ndarray) -> bool:
    finite = values[np.isfinite(values)]
    return finite.size >= MIN_PARENTS and bool(np.all(finite == finite[0]))


def by_values(
    decisions: dict[Any, Decision],
    per_node: Mapping[Any, np.ndarray],
    rows: Mapping[Any, np.ndarray],
    parent: np.ndarray,
) -> dict[Any, Decision]:
    """``decisions`` with the metrics that only the reader's list decided (``per_node``: each
    one's value per node, ``rows``: its values on every dataframe row) made parameters or
    fractions where their values say so."""
    out = dict(decisions)
    for m, d in decisions.items():
        if d.rule != "reader" or m not in per_node:
            continue
        name, values = str(m), per_node[m]
        kind = "ratio" if "/" in name else "max"
        raw = rows.get(m, values)
        raw = raw[~np.isnan(raw)]
        if TOPDOWN.match(name) and raw.size and np.abs(raw).max() <= 1:
            why = f"{name!r} is a top-down fraction (every value a share, within [-1, 1]): no sums"
            out[m] = Decision("ratio", "fraction", why)
            continue
        varied, largest = largest_of_children(values, parent)
        if varied >= MIN_PARENTS and largest == varied:
            why = (
                f"each of the {varied} parents whose children differ in {name!r} holds the "
                "largest of their values, as a parameter recorded with each region does: no sums"
            )
            out[m] = Decision(kind, "parameter", why)
        elif PARAMETER_NAME.search(name) and _constant(values):
            why = f"{name!r} names a parameter and is the same at every node: no sums"
            out[m] = Decision(kind, "parameter", why)
    return out
