"""Comparing two runs: their calling context trees aligned by call path, one row per calling
context in the union, with both values, their difference and ratio, and where the context exists.

Each run's rows (ranks, threads, Thicket profiles) are reduced per node first (``reducer``), so a
512-rank run and a 27-rank run compare as two trees of per-node values, which Hatchet's
``gf512 - gf27`` on raw multi-rank frames does not do. Contexts are matched by call path: the
frames (name, type, file, line, ...) from the root along first parents, and an occurrence number
where a tree repeats a call path, as saved view state names nodes.
"""

from __future__ import annotations

import array
import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..adapters.derived import SUFFIX
from ..adapters.from_rows import Tree, from_rows
from ..adapters.graphframe import from_graphframe
from ..adapters.metrics import table_defaults
from ..core.table import NodeTable
from . import scaling as sc
from .align import Union, align

PRESENCE = ("both", "only a", "only b")


def default_metric(table: NodeTable, reader_default: Any = None) -> str:
    """What runs are compared by when no metric is named: what the view sizes by (the inclusive
    partner of the reader's default metric, or of the first exclusive one) if the profile
    measured it, else the first measured inclusive metric, else the first metric; a Caliper
    statistic across ranks as its mean per rank ("Total time" grows with the process count
    where each rank's time does not: "Avg time/rank")."""
    metrics = table.metrics
    kinds = {k: v.kind for k, v in metrics.items()}
    size = table_defaults(table, reader_default)[1]
    if kinds[size] == "inclusive" and not size.endswith(SUFFIX):
        return sc.per_rank_mean(size, kinds)
    inclusive = [m for m, kind in kinds.items() if kind == "inclusive"]
    # one the profile measured before one cctviz derived (see adapters/derived.py)
    inclusive.sort(key=lambda m: m.endswith(SUFFIX))
    return sc.per_rank_mean(inclusive[0], kinds) if inclusive else next(iter(metrics))


def _values(table: NodeTable, ids: np.ndarray, metric: str) -> np.ndarray:
    values = np.full(ids.shape[0], np.nan)
    have = ids >= 0
    values[have] = table.metrics[metric].values[ids[have]]
    return values


def _nodes(table: NodeTable, ids: np.ndarray) -> list[Any]:
    return [table.nodes[i] if i >= 0 else None for i in ids.tolist()]


def _check_metric(metric: str, tables: list[NodeTable]) -> None:
    sides = ["a", "b"] if len(tables) == 2 else [str(k) for k in range(len(tables))]
    for side, table in zip(sides, tables, strict=True):
        if metric not in table.metrics:
            listed = ", ".join(map(repr, table.metrics))
            raise ValueError(f"run {side} has no metric {metric!r}; its metrics are {listed}")


def compare_tables(
    runs: list[Any], metric: str | None, reducer: str
) -> tuple[list[NodeTable], Union, str]:
    """Every run reduced per node, their union, and the metric compared."""
    tables = [from_graphframe(run, reducer=reducer) for run in runs]
    reader_default = getattr(runs[0], "default_metric", None)
    name = default_metric(tables[0], reader_default) if metric is None else metric
    _check_metric(name, tables)
    return tables, align(tables), name


def compare_frame(
    a: Any,
    b: Any,
    *,
    metric: str | None = None,
    reducer: str = "mean",
    labels: tuple[str, str] = ("a", "b"),
) -> pd.DataFrame:
    """Two runs (GraphFrames or Thickets) aligned by call path: one row per calling context in
    their union, in tree order, with ``path`` (frame names from the root), ``a`` and ``b`` (the
    metric under ``reducer`` in each run; NaN where the context is absent), ``diff`` (b − a),
    ``ratio`` (b / a), ``change`` (diff / a), ``presence`` ("both", "only a", "only b") and the
    Hatchet nodes ``node_a`` and ``node_b`` (None where absent: the way back to each dataframe).
    ``metric`` defaults to the first inclusive metric. ``labels`` name the runs in
    ``frame.attrs["labels"]`` (and in ``cctviz.compare``'s legend)."""
    (ta, tb), union, name = compare_tables([a, b], metric, reducer)
    va, vb = _values(ta, union.in_a, name), _values(tb, union.in_b, name)
    paths: list[tuple[str, ...]] = []
    for i, parent in enumerate(union.parent.tolist()):
        paths.append((*(paths[parent] if parent >= 0 else ()), union.names[i]))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(va != 0, vb / va, np.nan)
    frame = pd.DataFrame(
        {
            "path": paths,
            "a": va,
            "b": vb,
            "diff": vb - va,
            "ratio": ratio,
            "change": ratio - 1,
            "presence": np.asarray(PRESENCE, dtype=object)[union.presence],
            "node_a": _nodes(ta, union.in_a),
            "node_b": _nodes(tb, union.in_b),
        }
    )
    frame.attrs.update(labels=tuple(str(x) for x in labels), metric=name, reducer=reducer)
    return frame


@dataclass(frozen=True)
class Columns:
    """The metric columns of a compare view, named after the runs and the metric: each run's
    values (``runs``, in order: the tooltip's series), and the last run against the first."""

    runs: tuple[str, ...]
    diff: str
    ratio: str
    log_ratio: str
    change: str
    larger: str
    efficiency: str | None
    scaling: str | None = None
    """"strong" or "weak" (a scaling study: how ``efficiency`` is computed), else None."""
    scaling_why: str = ""

    @property
    def a(self) -> str:
        return self.runs[0]

    @property
    def b(self) -> str:
        return self.runs[-1]

    @property
    def no_share(self) -> tuple[str, str]:
        """The columns that add up but whose share of their total means nothing: a difference
        (its total can be near 0 or negative: "420 % of total") and the largest run (each node's
        from whichever run was larger). The runs' own values have shares; ratios, Δ% and
        efficiencies are ratios (no share either)."""
        return (self.diff, self.larger)

    @classmethod
    def of(
        cls, metric: str, labels: tuple[str, ...], scaling: str | None, why: str = ""
    ) -> Columns:
        first, last = labels[0], labels[-1]
        efficiency = f"parallel efficiency ({first} → {last}, {scaling} scaling)"
        return cls(
            runs=tuple(f"{label}: {metric}" for label in labels),
            diff=f"Δ {metric} ({last} − {first})",
            ratio=f"{last} ÷ {first}",
            log_ratio=f"log₂ {last} ÷ {first}",
            change=f"Δ% ({last} vs {first})",
            larger=f"{metric} ({'larger' if len(labels) == 2 else 'largest'} run)",
            efficiency=efficiency if scaling is not None else None,
            scaling=scaling,
            scaling_why=why,
        )


def presence_texts(labels: tuple[str, ...]) -> tuple[str, str]:
    """What the two presence glyphs mean, for the legend and tooltips."""
    if len(labels) == 2:
        return f"only in {labels[0]}", f"only in {labels[1]}"
    return f"in {labels[0]}, not in every later run", f"not in {labels[0]}"


@dataclass(frozen=True)
class RunsUnion:
    """Runs compared as one tree: the union of their calling contexts (``union``, in pre-order),
    one row per context with every run's value of the metric and the compared ``columns``
    (``frame``), and that tree as a Hatchet GraphFrame (``graphframe``: its nodes are the
    table's, the way to Hatchet for the selection, queries and ``selected_frame``)."""

    graphframe: Any
    union: Union
    columns: Columns
    labels: tuple[str, ...]
    kinds: dict[str, str]
    """The compared columns' kinds: ratios, and what adds up as the metric compared does."""
    listed: tuple[list[str], list[str]]
    """The columns listed exclusive and inclusive (as a reader lists its metrics)."""
    tree: Tree

    def table(
        self, reducer: str, metric_kinds: dict[str, str], size_reducer: str | None
    ) -> NodeTable:
        """The node table of the union, from its rows (one a node), with where each context is
        (``presence``: by position, the union's order is the table's) and the runs' series;
        ``metric_kinds`` as ``from_graphframe`` takes it (``kinds`` and the user's)."""
        frame = self.graphframe.dataframe
        keys = np.arange(self.union.size, dtype=np.int64)
        table = from_rows(
            self.tree,
            frame,
            keys,
            self.listed,
            self.graphframe,
            reducer,
            metric_kinds,
            size_reducer,
            type(self.graphframe).__name__,
        )
        return dataclasses.replace(
            table,
            presence=self.union.presence.astype(np.int32),
            presence_labels=presence_texts(self.labels),
            series=tuple(zip(self.labels, self.columns.runs, strict=True)),
        )


def union_of(
    runs: list[Any],
    metric: str | None,
    reducer: str,
    labels: tuple[str, ...],
    scaling: str | None = "auto",
) -> RunsUnion:
    """The union of the runs: one node per calling context (its frame from the first run that
    has it), one row per node with every run's value of the metric, the last run against the
    first (difference, ratio, log₂ ratio, relative change; parallel efficiency of a scaling
    study, strong or weak: ``cctviz.analysis.scaling.decide``), and the largest value (what the view
    sizes nodes by)."""
    import hatchet
    from hatchet.graph import Graph
    from hatchet.node import Node

    how, counts, why = sc.decide(runs, labels, scaling)
    tables, union, name = compare_tables(runs, metric, reducer)
    columns = Columns.of(name, labels, how, why)
    kind = tables[0].metrics[name].kind
    nodes: list[Any] = []
    depth = array.array("i")
    for i, frame in enumerate(union.frames):
        up = int(union.parent[i])
        parent = nodes[up] if up >= 0 else None
        depth.append(0 if up < 0 else depth[up] + 1)
        node = Node(frame, parent=parent, hnid=i, depth=depth[i])
        if parent is not None:
            parent.add_child(node)
        nodes.append(node)
    values = [_values(t, union.ids[k], name) for k, t in enumerate(tables)]
    va, vb = values[0], values[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(va != 0, vb / va, np.nan)
        log_ratio = np.where(ratio > 0, np.log2(ratio), np.nan)
        data = {
            "name": union.names,
            **dict(zip(columns.runs, values, strict=True)),
            columns.diff: vb - va,
            columns.ratio: ratio,
            columns.log_ratio: log_ratio,
            columns.change: 100 * (ratio - 1),
            columns.larger: np.fmax.reduce(np.vstack(values), axis=0),
        }
    if columns.efficiency is not None and how is not None:
        # 1 = perfect; a time summed over the ranks is made per rank first
        ends = (counts[0], counts[-1])
        summed = sc.summed_over_ranks(name)
        data[columns.efficiency] = sc.efficiency(va, vb, ends, how, summed)
    frame = pd.DataFrame(data, index=pd.Index(nodes, name="node"))
    additive = [*columns.runs, columns.diff, columns.larger]
    ratios = [columns.ratio, columns.log_ratio, columns.change]
    if columns.efficiency is not None:
        ratios.append(columns.efficiency)
    graph = Graph([n for n in nodes if not n.parents])
    graph.enumerate_traverse()
    # listed where the compared metric is (readers list every metric as one or the other);
    # the ratios are declared ratios below
    listed = (additive + ratios, []) if kind != "inclusive" else ([], additive + ratios)
    gf = hatchet.GraphFrame(
        graph, frame, exc_metrics=listed[0], inc_metrics=listed[1], default_metric=columns.diff
    )
    listed = (list(gf.exc_metrics or []), list(gf.inc_metrics or []))
    kinds = dict.fromkeys(ratios, "ratio")
    kinds.update({c: kind for c in additive if kind in ("exclusive", "inclusive")})
    parent = np.array(union.parent, dtype=np.int32)  # a copy: the table's own
    nid = np.fromiter((n._hatchet_nid for n in nodes), np.int64, len(nodes))
    nodes_np = np.fromiter(nodes, dtype=object, count=len(nodes))
    tree = Tree(nodes_np, parent, np.array(depth, dtype=np.int32), [], nid)
    return RunsUnion(gf, union, columns, labels, kinds, listed, tree)
