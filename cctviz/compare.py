"""Comparing two runs: their calling context trees aligned by call path, one row per calling
context in the union, with both values, their difference and ratio, and where the context exists.

Each run's rows (ranks, threads, Thicket profiles) are reduced per node first (``reducer``), so a
512-rank run and a 27-rank run compare as two trees of per-node values, which Hatchet's
``gf512 - gf27`` on raw multi-rank frames does not do. Contexts are matched by call path: the
frames (name, type, file, line, ...) from the root along first parents, and an occurrence number
where a tree repeats a call path, as saved view state names nodes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .adapters import from_graphframe
from .adapters.derived import SUFFIX
from .callpath import _plain
from .table import NodeTable

PRESENCE = ("both", "only a", "only b")


@dataclass(frozen=True)
class Union:
    """The union tree of two runs, in pre-order: per node its parent (union index), its name, the
    Hatchet frame of its first occurrence, and its node id in each run (-1: absent)."""

    parent: np.ndarray
    names: list[str]
    frames: list[Any]
    in_a: np.ndarray
    in_b: np.ndarray

    @property
    def size(self) -> int:
        return int(self.parent.shape[0])

    @property
    def presence(self) -> np.ndarray:
        """0 both, 1 only in a, 2 only in b."""
        return np.where(self.in_a < 0, 2, np.where(self.in_b < 0, 1, 0))


def _frame_keys(table: NodeTable, interned: dict[Any, int]) -> list[int]:
    """An integer per node for its frame (shared between runs through ``interned``). Hatchet's
    ``Frame`` hashes and compares by its attributes, in both distributions; a frame that cannot
    be hashed is keyed by its attributes as saved state writes them."""
    out = []
    for node in table.nodes:
        frame = node.frame
        try:
            code = interned.setdefault(frame, len(interned))
        except TypeError:
            key = tuple(sorted((str(k), _plain(v)) for k, v in frame.attrs.items()))
            code = interned.setdefault(key, len(interned))
        out.append(code)
    return out


def _context_ids(table: NodeTable, frames: list[int], interned: dict[Any, int]) -> list[int]:
    """An integer per node for its calling context: (its parent's context, its frame, how many
    earlier siblings had the same frame), interned so both runs share the numbers."""
    out = [0] * table.size
    seen: dict[tuple[int, int], int] = {}
    parent = table.parent.tolist()
    for i in range(table.size):  # pre-order: a parent's context is known before its children's
        up = out[parent[i]] if parent[i] >= 0 else -1
        sibling = (up, frames[i])
        occurrence = seen.get(sibling, 0)
        seen[sibling] = occurrence + 1
        out[i] = interned.setdefault((up, frames[i], occurrence), len(interned))
    return out


def align(ta: NodeTable, tb: NodeTable) -> Union:
    """The union of two node tables by calling context, a's order first, b's extra contexts
    after their earlier siblings."""
    frame_ids: dict[Any, int] = {}
    contexts: dict[Any, int] = {}
    ca = _context_ids(ta, _frame_keys(ta, frame_ids), contexts)
    cb = _context_ids(tb, _frame_keys(tb, frame_ids), contexts)
    n = len(contexts)
    in_a = np.full(n, -1, np.int64)
    in_b = np.full(n, -1, np.int64)
    in_a[ca] = np.arange(ta.size)
    in_b[cb] = np.arange(tb.size)
    up = np.full(n, -1, np.int64)
    for key, c in contexts.items():
        up[c] = key[0]
    # pre-order of the union: children in the order their contexts were first met
    children: dict[int, list[int]] = {}
    for c in range(n):
        children.setdefault(int(up[c]), []).append(c)
    order: list[int] = []
    stack = list(reversed(children.get(-1, [])))
    while stack:
        c = stack.pop()
        order.append(c)
        stack.extend(reversed(children.get(c, [])))
    position = np.empty(n, np.int64)
    position[order] = np.arange(n)
    idx = np.asarray(order, dtype=np.int64)
    parent = np.where(up[idx] >= 0, position[np.maximum(up[idx], 0)], -1)
    names, frames = [], []
    for c in order:
        table, i = (ta, in_a[c]) if in_a[c] >= 0 else (tb, in_b[c])
        names.append(table.name(int(i)))
        frames.append(table.nodes[int(i)].frame)
    return Union(parent=parent, names=names, frames=frames, in_a=in_a[idx], in_b=in_b[idx])


def default_metric(table: NodeTable) -> str:
    """What runs are compared by when no metric is named: an inclusive metric (the time of a
    context with its callees), else the first metric."""
    inclusive = [m for m, v in table.metrics.items() if v.kind == "inclusive"]
    # one the profile measured before one cctviz derived (see adapters/derived.py)
    inclusive.sort(key=lambda m: m.endswith(SUFFIX))
    return inclusive[0] if inclusive else next(iter(table.metrics))


def _values(table: NodeTable, ids: np.ndarray, metric: str) -> np.ndarray:
    values = np.full(ids.shape[0], np.nan)
    have = ids >= 0
    values[have] = table.metrics[metric].values[ids[have]]
    return values


def _nodes(table: NodeTable, ids: np.ndarray) -> list[Any]:
    return [table.nodes[i] if i >= 0 else None for i in ids.tolist()]


def _check_metric(metric: str, ta: NodeTable, tb: NodeTable) -> None:
    for side, table in (("a", ta), ("b", tb)):
        if metric not in table.metrics:
            listed = ", ".join(map(repr, table.metrics))
            raise ValueError(f"run {side} has no metric {metric!r}; its metrics are {listed}")


def compare_tables(
    a: Any, b: Any, metric: str | None, reducer: str
) -> tuple[NodeTable, NodeTable, Union, str]:
    """Both runs reduced per node, their union, and the metric compared."""
    ta = from_graphframe(a, reducer=reducer)
    tb = from_graphframe(b, reducer=reducer)
    name = default_metric(ta) if metric is None else metric
    _check_metric(name, ta, tb)
    return ta, tb, align(ta, tb), name


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
    ta, tb, union, name = compare_tables(a, b, metric, reducer)
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
    """The metric columns of a compare view, named after the runs and the metric."""

    a: str
    b: str
    diff: str
    ratio: str
    log_ratio: str
    change: str
    larger: str

    @classmethod
    def of(cls, metric: str, labels: tuple[str, str]) -> Columns:
        la, lb = labels
        return cls(
            a=f"{la}: {metric}",
            b=f"{lb}: {metric}",
            diff=f"Δ {metric} ({lb} − {la})",
            ratio=f"{lb} ÷ {la}",
            log_ratio=f"log₂ {lb} ÷ {la}",
            change=f"Δ% ({lb} vs {la})",
            larger=f"{metric} (larger run)",
        )


def union_graphframe(
    a: Any, b: Any, metric: str | None, reducer: str, labels: tuple[str, str]
) -> tuple[Any, Union, Columns, dict[str, str]]:
    """A Hatchet GraphFrame of the union of two runs: one node per calling context (its frame
    from the run that has it, a's first), one row per node with both runs' values of the metric,
    their difference, ratio, log₂ ratio and relative change, and the larger of the two (what
    the view sizes nodes by). Returns it with the union, the column names and their kinds."""
    import hatchet
    from hatchet.graph import Graph
    from hatchet.node import Node

    ta, tb, union, name = compare_tables(a, b, metric, reducer)
    columns = Columns.of(name, labels)
    kind = ta.metrics[name].kind
    nodes: list[Any] = []
    depth: list[int] = []
    for i, frame in enumerate(union.frames):
        up = int(union.parent[i])
        parent = nodes[up] if up >= 0 else None
        depth.append(0 if up < 0 else depth[up] + 1)
        node = Node(frame, parent=parent, hnid=i, depth=depth[i])
        if parent is not None:
            parent.add_child(node)
        nodes.append(node)
    va, vb = _values(ta, union.in_a, name), _values(tb, union.in_b, name)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(va != 0, vb / va, np.nan)
        log_ratio = np.where(ratio > 0, np.log2(ratio), np.nan)
    frame = pd.DataFrame(
        {
            "name": union.names,
            columns.a: va,
            columns.b: vb,
            columns.diff: vb - va,
            columns.ratio: ratio,
            columns.log_ratio: log_ratio,
            columns.change: 100 * (ratio - 1),
            columns.larger: np.fmax(va, vb),
        },
        index=pd.Index(nodes, name="node"),
    )
    additive = [columns.a, columns.b, columns.diff, columns.larger]
    ratios = [columns.ratio, columns.log_ratio, columns.change]
    graph = Graph([n for n in nodes if not n.parents])
    graph.enumerate_traverse()
    # listed where the compared metric is (readers list every metric as one or the other);
    # the ratios are declared ratios below
    gf = hatchet.GraphFrame(
        graph,
        frame,
        exc_metrics=additive + ratios if kind != "inclusive" else [],
        inc_metrics=additive + ratios if kind == "inclusive" else [],
        default_metric=columns.diff,
    )
    kinds = dict.fromkeys(ratios, "ratio")
    kinds.update({c: kind for c in additive if kind in ("exclusive", "inclusive")})
    return gf, union, columns, kinds
