"""The node table as binary columns for the browser.

Every column crosses the comm as its own buffer (``memoryview`` of a contiguous little-endian
numpy array, described by ``dtype`` and ``length``); string tables are one UTF-8 blob plus offsets.
The only JSON is the small header (metric names and kinds, counts). ``js/src/cct/decode.js`` is
the other half of this format; ``PAYLOAD_VERSION`` (``cctviz/contract.json``) changes when either
side changes it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.contract import PAYLOAD_VERSION
from ..core.table import Metric, NodeTable

__all__ = ["PAYLOAD_VERSION", "column", "encode", "share_base", "strings"]
_DTYPES: dict[str, np.dtype[Any]] = {
    "int32": np.dtype("<i4"),
    "uint32": np.dtype("<u4"),
    "float64": np.dtype("<f8"),
}


def column(values: np.ndarray, dtype: str) -> dict[str, Any]:
    """One binary column: ``{"dtype", "length", "buffer"}``."""
    arr = np.ascontiguousarray(values, dtype=_DTYPES[dtype])
    buffer = memoryview(arr.data).cast("B")
    return {"dtype": dtype, "length": int(arr.shape[0]), "buffer": buffer}


def strings(values: list[str]) -> dict[str, Any]:
    """A string table: the UTF-8 bytes of all strings back to back, and ``len + 1`` offsets."""
    encoded = [s.encode("utf-8", "surrogatepass") for s in values]
    offsets = np.zeros(len(encoded) + 1, dtype=np.uint32)
    np.cumsum([len(b) for b in encoded], out=offsets[1:])
    return {"count": len(encoded), "blob": b"".join(encoded), "offsets": column(offsets, "uint32")}


def share_base(table: NodeTable, metric: Metric) -> str | None:
    """The metric whose value at the roots (the whole profile) or at the focused node is the base
    of ``metric``'s shares ("12 % of total", labels' "42%", the legend's ends), or None where a
    share means nothing. The one rule for shares; the front end only divides.

    Only what adds up along the tree has shares (exclusive and inclusive metrics; not ratios,
    spreads, imbalance, maxima or ``other``), and not a metric that says a share of its total means
    nothing (``Metric.share``: a compare view's difference or largest run). The base is always an
    inclusive value: an inclusive metric's own; an exclusive metric's inclusive partner's
    (measured, or derived by cctviz: ``x (inc, derived)``). Never a sum of exclusive values: in
    HPCToolkit's profiles a procedure's exclusive time is repeated by its loops and lines, so that
    sum is not the program's time (cpi v4: 2.3 times it)."""
    if not metric.share or metric.kind not in ("exclusive", "inclusive"):
        return None
    if metric.kind == "inclusive":
        return metric.name
    partner = table.metrics.get(metric.partner) if metric.partner is not None else None
    return partner.name if partner is not None and partner.kind == "inclusive" else None


def encode(
    table: NodeTable,
    *,
    node_id: np.ndarray | None = None,
    folded: np.ndarray | None = None,
    total: int | None = None,
    tree: str | None = None,
) -> dict[str, Any]:
    """The payload of ``table``, ready to be a synced widget trait.

    Under level of detail (cctviz.view.lod) ``table`` holds only what is drawn: ``node_id`` maps its
    rows to ids of the full tree (-1 for a fold row), ``folded`` counts the nodes each fold row
    stands for, and ``total`` is the size of the full tree. ``tree`` names the full tree: the
    same for every payload of one tree (expansions, another reducer), another for other data, so
    that the front end knows when its undo history names nodes of another tree."""
    extra: dict[str, Any] = {"total": table.size if total is None else int(total)}
    if tree is not None:
        extra["tree"] = tree
    if table.callers.size:  # a DAG's call edges not drawn: (caller, callee) full-tree ids
        extra["callers"] = {
            "caller": column(table.callers[:, 0], "int32"),
            "callee": column(table.callers[:, 1], "int32"),
        }
    if table.presence.size and table.presence_labels is not None:  # a compare view's nodes
        extra["presence"] = column(table.presence, "int32")
        extra["presence_labels"] = list(table.presence_labels)
    if table.change_cause.size and table.change_metric is not None:  # an ensemble's changes
        extra["changes"] = {
            "metric": table.change_metric,
            "cause": column(table.change_cause, "int32"),
        }
    if table.series:
        extra["series"] = [list(run) for run in table.series]
    if node_id is not None and folded is not None:
        extra["node_id"] = column(node_id, "int32")
        extra["folded"] = column(folded, "int32")
    return {
        **extra,
        "version": PAYLOAD_VERSION,
        "size": table.size,
        "parent": column(table.parent, "int32"),
        "depth": column(table.depth, "int32"),
        "name": column(table.name_code, "int32"),
        "names": strings(table.names),
        "type": column(table.type_code, "int32"),
        "types": strings(table.types),
        "metrics": [
            {
                "name": m.name,
                "kind": m.kind,
                "partner": m.partner,
                "rule": m.rule,  # which rule decided the kind, and why (the status line)
                "why": m.detail,
                "share": share_base(table, m),
                "values": column(m.values, "float64"),
            }
            for m in table.metrics.values()
        ],
        "reducer": table.reducer,
        "reduced_over": list(table.reduced_over),
        "extra_edges": table.extra_edges,
        "cycle_edges": table.cycle_edges,
    }
