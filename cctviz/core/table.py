"""The columnar node table: the one internal representation every other part of cctviz reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

import numpy as np

from .contract import REDUCERS
from .text_column import TextColumn

__all__ = ["REDUCERS", "Metric", "MetricKind", "NodeTable", "UnknownMetricError"]

MetricKind = Literal["exclusive", "inclusive", "other", "ratio", "max"]
"""``exclusive`` and ``inclusive`` add up along the tree (glyphs show sums); ``ratio`` and ``max``
do not: a glyph shows the largest value it hides (``metric_kinds``, and every metric under the
``std`` and ``imbalance`` reducers); ``other``: no aggregate at all."""

Nodes: TypeAlias = np.ndarray | list[Any]
"""A table's Hatchet nodes by table index: an object array (the garbage collector does not
traverse it: a young list of a million nodes costs every collection a visit to each), or a list
where a table is built from few rows."""

#: What ``metric_kinds`` accepts.
DECLARED_KINDS = ("exclusive", "inclusive", "ratio", "max", "other")


@dataclass(frozen=True)
class Metric:
    """One numeric metric column of the node table."""

    name: str
    values: np.ndarray  # float64, one value per node, NaN where the profile has no value
    kind: MetricKind
    partner: str | None = None  # the inclusive partner of an exclusive metric, and vice versa
    rule: str = "reader"  # which rule decided ``kind`` (cctviz.adapters.semantics.RULES)
    detail: str = ""  # that rule's reason, in a sentence
    base_kind: MetricKind | None = None
    """The kind the reducer made ``kind`` from (a spread of a time is drawn as a maximum, the time
    is still exclusive); None: ``kind`` is the metric's own."""
    share: bool = True
    """False: a share of its total means nothing although it adds up (a compare view's
    difference); cctviz.view.payload.share_base says which metrics get shares and of what."""


@dataclass(frozen=True)
class NodeTable:
    """A calling context tree as columns, in depth-first pre-order (a parent precedes its children).

    Node ``i`` of the table is drawn once, under ``parent[i]`` (``-1`` for a root). In a DAG, a
    node with several parents is drawn under the first parent reached in that traversal; the
    other parent edges are counted in ``extra_edges`` (``cycle_edges`` of them close a cycle).
    """

    parent: np.ndarray  # int32
    depth: np.ndarray  # int32
    name_text: TextColumn  # each node's name (``name_code``, ``names``), read when first needed
    type_text: TextColumn  # each node's type (``type_code``, ``types``)
    nodes: Nodes  # the Hatchet Node objects, by table index (Python side only)
    hatchet_nid: np.ndarray  # int64 ``_hatchet_nid`` of each node
    metrics: dict[str, Metric]
    first_row: np.ndarray = field(default_factory=lambda: np.empty(0, np.int64))
    """Position in ``gf.dataframe`` of each node's first row (-1 if none): the way to its
    non-metric columns (file, line, module, ...)."""
    reducer: str | None = None  # how rows of one node (ranks, threads, profiles) were combined
    reduced_over: tuple[str, ...] = ()  # the index levels that were reduced
    extra_edges: int = 0
    cycle_edges: int = 0
    source: str = ""
    callers: np.ndarray = field(default_factory=lambda: np.empty((0, 2), np.int32))
    """The call edges not drawn (a DAG's other callers), as (caller, callee) rows of full-tree
    node ids: also in a level-of-detail table, whose rows are not ids."""
    presence: np.ndarray = field(default_factory=lambda: np.empty(0, np.int32))
    """A compare view's nodes: 0 in both runs, 1 only in the first, 2 only in the second (empty
    for a single profile); ``presence_labels`` names the two runs."""
    presence_labels: tuple[str, str] | None = None
    series: tuple[tuple[str, str], ...] = ()
    """A compare view's runs in order: (label, metric with that run's values), for the tooltip's
    series across runs."""
    change_cause: np.ndarray = field(default_factory=lambda: np.empty(0, np.int32))
    """An ensemble's nodes with a change of level (``Ensemble.regressions``): 0 none, 1 the
    node's own (exclusive), 2 in what it calls (inclusive only); empty when none were looked
    for. ``change_metric`` names the metric holding each node's relative change (%)."""
    change_metric: str | None = None

    @property
    def size(self) -> int:
        """Number of nodes."""
        return int(self.parent.shape[0])

    @property
    def name_code(self) -> np.ndarray:
        """Each node's name as an int32 index into ``names``."""
        return self.name_text.codes

    @property
    def names(self) -> list[str]:
        """The distinct names."""
        return self.name_text.table

    @property
    def type_code(self) -> np.ndarray:
        """Each node's type as an int32 index into ``types``."""
        return self.type_text.codes

    @property
    def types(self) -> list[str]:
        """The distinct types."""
        return self.type_text.table

    @property
    def roots(self) -> np.ndarray:
        """Table indices of the roots."""
        return np.flatnonzero(self.parent < 0)

    def name(self, i: int) -> str:
        """The name of node ``i``."""
        return self.names[int(self.name_code[i])]

    def metric(self, name: str) -> Metric:
        """The metric called ``name``; a ``KeyError`` lists the available ones."""
        try:
            return self.metrics[name]
        except KeyError:
            raise UnknownMetricError(name, list(self.metrics)) from None


class UnknownMetricError(KeyError, ValueError):
    """A metric name that the profile does not have."""

    def __init__(self, name: str, available: list[str]):
        self.metric = name
        self.available = available
        super().__init__(name)

    def __str__(self) -> str:
        listed = ", ".join(repr(m) for m in self.available) or "none"
        said = f"no metric {self.metric!r} in this profile; available metrics: {listed}"
        # the metric menus add the kind to a name ("time (exc)"): say which name that is
        name, _, mark = str(self.metric).rpartition(" (")
        if mark in ("exc)", "inc)", "ratio)", "max)") and name in self.available:
            said += f" (the menus show {self.metric!r} for {name!r}: its kind after the name)"
        return said


def name_paths(table: NodeTable) -> list[tuple[str, ...]]:
    """Each node's call path as the names from its root (parents come before children)."""
    paths: list[tuple[str, ...]] = []
    for i, p in enumerate(table.parent.tolist()):
        paths.append((*(paths[p] if p >= 0 else ()), table.name(i)))
    return paths
