"""An ensemble's node table under the widget's reducers. The engine reduces each node over the
profiles (``to_graphframe``: one row per node); what a GraphFrame's adapter does with a reducer
is then done here to the same effect: under a reducer whose values do not add up along the tree
(median, std, imbalance) the metrics say so (a ``max`` or ``ratio`` kind, the ``reducer`` rule),
and size gets companions reduced with ``size_reducer`` ("time (inc) (mean)"), which do."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..adapters.from_rows import reduced_kind
from ..adapters.graphframe import from_graphframe
from ..adapters.reduce import NOT_ADDITIVE
from ..adapters.rows import companion_name
from ..core import progress
from ..core.table import Metric, NodeTable

if TYPE_CHECKING:
    from ..ensemble.ensemble import Ensemble


def ensemble_table(
    ens: Ensemble, reducer: str, size: str | None, kinds: dict[str, str]
) -> NodeTable:
    """``ens`` reduced with ``reducer`` as a node table; with ``size`` (a reducer, or None), the
    metrics that add up reduced that way too, as companions."""
    from ..ensemble.analysis.graphframe import to_graphframe

    progress.stage(f"combining the profiles by {reducer}")
    table = from_graphframe(to_graphframe(ens, reducer), reducer="mean", metric_kinds=kinds)
    metrics = dict(table.metrics)
    if reducer in NOT_ADDITIVE:
        for name, m in table.metrics.items():
            kind = reduced_kind(m.kind, reducer)
            if kind != m.kind:
                detail = f"{m.detail}; under the {reducer} reducer its values do not add up"
                metrics[name] = dataclasses.replace(m, kind=kind, rule="reducer", detail=detail)  # type: ignore[arg-type]
    if size is not None and size != reducer:
        progress.stage(f"combining the profiles by {size}")
        other = from_graphframe(to_graphframe(ens, size), reducer="mean", metric_kinds=kinds)
        if other.size == table.size:  # the same profiles: the same tree, node for node
            metrics.update(_companions(other, size, set(metrics)))
    return dataclasses.replace(table, metrics=metrics, reducer=reducer, reduced_over=("profile",))


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
