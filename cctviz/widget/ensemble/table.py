"""An ensemble's node table under the widget's reducers, built from the engine's rows: the
ensemble reduced per calling context (``reduced``: one engine query per metric, the widget's
reducer and ``size_reducer`` at once) goes to ``from_rows`` as one row per node, as a compare
view's union does — no GraphFrame and no second tree in between. What a GraphFrame's adapter
does with a reducer is done here to the same effect: under a reducer whose values do not add up
along the tree (median, std, imbalance) the metrics say so (a ``max`` or ``ratio`` kind, the
``reducer`` rule), and size gets companions reduced with ``size_reducer`` ("time (inc)
(mean)"), which do. The table's nodes are Hatchet Nodes (made from the stored frames), so that
``w.selected_nodes`` and saved state work as on one profile."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from ...adapters.from_rows import Tree, from_rows
from ...adapters.node_metrics import reduced_kind
from ...adapters.reduce import NOT_ADDITIVE
from ...adapters.rows import companion_name
from ...adapters.spanning import spanning_tree
from ...core import progress
from ...core.table import Metric, NodeTable

if TYPE_CHECKING:
    from ...ensemble.analysis.graphframe import Reduced
    from ...ensemble.ensemble import Ensemble

SOURCE = "Ensemble"


def ensemble_table(
    ens: Ensemble, reducer: str, size: str | None, kinds: dict[str, str]
) -> NodeTable:
    """``ens`` reduced with ``reducer`` as a node table; with ``size`` (a reducer, or None), the
    metrics that add up reduced that way too, as companions."""
    from ...ensemble.analysis.graphframe import reduced

    both = (reducer,) if size is None or size == reducer else (reducer, size)
    progress.stage(f"combining the profiles by {' and '.join(both)}")
    got = reduced(ens, both)
    tree, keys = _tree(got)
    table = _table(got, reducer, tree, keys, kinds)
    metrics = dict(table.metrics)
    if reducer in NOT_ADDITIVE:
        for name, m in table.metrics.items():
            kind = reduced_kind(m.kind, reducer)
            if kind != m.kind:
                detail = f"{m.detail}; under the {reducer} reducer its values do not add up"
                metrics[name] = dataclasses.replace(m, kind=kind, rule="reducer", detail=detail)  # type: ignore[arg-type]
    if size is not None and size != reducer:
        other = _table(got, size, tree, keys, kinds)
        metrics.update(_companions(other, size, set(metrics)))
    return dataclasses.replace(table, metrics=metrics, reducer=reducer, reduced_over=("profile",))


def _tree(got: Reduced) -> tuple[Tree, np.ndarray]:
    """The tree of the reduced rows as ``from_rows`` takes it (Hatchet Nodes made from the stored
    frames, walked as a GraphFrame's tree is), and the tree index of each row."""
    from ...ensemble.analysis.graphframe import build_graph

    graph, made = build_graph(got.tree)
    walked, parent, depth, extra = spanning_tree(list(graph.roots))
    nodes = np.fromiter(walked, dtype=object, count=len(walked))
    nid = np.fromiter((n._hatchet_nid for n in walked), dtype=np.int64, count=len(walked))
    at = {id(node): i for i, node in enumerate(walked)}
    keys = np.fromiter(
        (at[id(made[int(k)])] for k in got.tree.index), dtype=np.int64, count=len(got.tree)
    )
    return Tree(nodes, parent, depth, extra, nid), keys


def _table(
    got: Reduced, reducer: str, tree: Tree, keys: np.ndarray, kinds: dict[str, str]
) -> NodeTable:
    """The node table of the rows reduced by ``reducer`` (one row a node: nothing to reduce)."""
    frame = got.frame(reducer)
    return from_rows(tree, frame, keys, got.listed, got, "mean", kinds, None, SOURCE)


def _companions(other: NodeTable, size: str, taken: set[str]) -> dict[str, Metric]:
    additive = [m for m in other.metrics.values() if m.kind in ("exclusive", "inclusive")]
    named = {m.name: companion_name(m.name, size) for m in additive}
    if taken & set(named.values()):  # a metric already has that name: say it otherwise
        named = {m: f"{m} [{size}]" for m in named}
    return {
        named[m.name]: dataclasses.replace(
            m,
            name=named[m.name],
            partner=named.get(m.partner) if m.partner else None,
            detail=f"{m.detail}; profiles combined by {size} (size_reducer)",
        )
        for m in additive
    }
