"""The view state as data: which nodes are drawn, and a JSON form keyed by call paths.

``visible_nodes`` is the Python twin of ``js/src/cct/view-tree.js`` (tests check they agree through
the browser). ``to_json``/``from_json`` write and read node references as call paths with an
occurrence number (see :mod:`cctviz.callpath`), so saved state survives Hatchet operations that
renumber nodes and applies to another run of the same program.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .callpath import ContextKeys, call_path, frames_to_json, json_key
from .table import NodeTable

STATE_VERSION = 1
NODE_LIST_TRAITS = ("selection", "collapsed", "highlighted")
PLAIN_TRAITS = (
    "color_by",
    "size_by",
    "color_scale",
    "palette",
    "legend",
    "reducer",
    "backend",
    "search",
    "search_regex",
    "search_case",
    "prune_range",
)


def visible_nodes(
    table: NodeTable,
    *,
    collapsed: tuple[int, ...] = (),
    prune_range: tuple[float, float] | None = None,
    color_values: np.ndarray | None = None,
    focused: int | None = None,
    visible_roots: tuple[int, ...] | None = None,
) -> list[int]:
    """Ids of the nodes drawn as nodes (collapsed glyphs included, aggregates not), pre-order."""
    n = table.size
    children: list[list[int]] = [[] for _ in range(n)]
    for i, p in enumerate(table.parent.tolist()):
        if p >= 0:
            children[p].append(i)
    keep = np.ones(n, dtype=bool)
    if prune_range is not None and color_values is not None:
        lo, hi = prune_range
        keep = (color_values >= lo) & (color_values <= hi)
        for i in range(n - 1, -1, -1):  # ancestors of kept nodes stay
            if keep[i] and table.parent[i] >= 0:
                keep[table.parent[i]] = True
    starts = [focused] if focused is not None else list(visible_roots or table.roots.tolist())
    folded = set(collapsed)
    out: list[int] = []
    stack = [s for s in reversed(starts) if keep[s]]
    while stack:
        i = stack.pop()
        out.append(i)
        if i in folded and children[i]:
            continue
        stack.extend(c for c in reversed(children[i]) if keep[c])
    return out


def _context(keys: ContextKeys, node: Any) -> dict[str, Any]:
    (_, occurrence) = keys.key(node)
    return {"path": frames_to_json(call_path(node)), "occurrence": occurrence}


def to_json(widget: Any) -> dict[str, Any]:
    """The widget's whole view state, JSON-serialisable, nodes given by call path."""
    from ._version import __version__

    table, keys = widget.table, ContextKeys()
    ref = lambda i: _context(keys, table.nodes[i])  # noqa: E731
    state: dict[str, Any] = {"version": STATE_VERSION, "cctviz": __version__}
    for name in PLAIN_TRAITS:
        value = getattr(widget, name)
        state[name] = list(value) if isinstance(value, tuple) else value
    for name in NODE_LIST_TRAITS:
        state[name] = [ref(i) for i in getattr(widget, name)]
    state["focused"] = None if widget.focused is None else ref(widget.focused)
    roots = widget.visible_roots
    state["visible_roots"] = None if roots is None else [ref(i) for i in roots]
    return state


def from_json(state: dict[str, Any], table: NodeTable, metrics: list[str]) -> dict[str, Any]:
    """Trait values for ``table`` from a saved state; node references that do not exist in this
    tree, and metrics it does not have, are left out (the rest still applies)."""
    if not isinstance(state, dict):
        raise TypeError(f"state must be a dict from w.view_state; got {type(state).__name__}")
    known = {"version", "cctviz", "focused", "visible_roots", *PLAIN_TRAITS, *NODE_LIST_TRAITS}
    unknown = sorted(set(state) - known)
    if unknown:
        raise ValueError(f"unknown view state keys {unknown}; accepted: {sorted(known)}")
    if state.get("version", STATE_VERSION) != STATE_VERSION:
        raise ValueError(f"view state version {state['version']} is not {STATE_VERSION}")
    keys = ContextKeys()
    index = {keys.key(node): i for i, node in enumerate(table.nodes)}

    def ids(refs: list[dict[str, Any]]) -> list[int]:
        found = (index.get((json_key(r["path"]), int(r.get("occurrence", 0)))) for r in refs)
        return [i for i in found if i is not None]

    out: dict[str, Any] = {}
    for name in PLAIN_TRAITS:
        if name not in state:
            continue
        value = state[name]
        if name in ("color_by", "size_by") and value not in metrics:
            continue
        out[name] = tuple(value) if name == "prune_range" and value is not None else value
    for name in NODE_LIST_TRAITS:
        if name in state:
            out[name] = tuple(ids(state[name]))
    if "focused" in state:
        found = ids([state["focused"]]) if state["focused"] is not None else []
        out["focused"] = found[0] if found else None
    if "visible_roots" in state:
        roots = state["visible_roots"]
        kept = ids(roots) if roots is not None else None
        out["visible_roots"] = tuple(kept) if kept else None
    return out
