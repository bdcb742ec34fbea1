"""The view state as data: what is drawn, and a JSON form keyed by call paths.

``view_tree`` is the Python twin of ``js/src/cct/view-tree.js``: given a node table and the view
state in full-tree ids (collapsed, prune, focus, roots) it builds the same items in the same
order. ``tests/conformance/view-cases.json`` specifies both; ``tests/test_conformance.py`` runs it
against this module and ``js/test/conformance.test.js`` against the browser's code.
``visible_nodes`` is the ids of the nodes drawn, derived from ``view_tree``.

``to_json``/``from_json`` write and read node references as call paths with an occurrence
number (see :mod:`cctviz.core.callpath`), so saved state survives Hatchet operations that renumber
nodes and applies to another run of the same program. Which traits they carry, and how, comes
from ``cctviz/contract.json`` (traits marked ``saved``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..core import contract
from ..core.callpath import (
    ContextKeys,
    call_path,
    frames_to_json,
    saved_reference,
    saved_references,
)
from ..core.table import NodeTable

STATE_VERSION: int = contract.STATE_VERSION
SAVED: tuple[contract.TraitSpec, ...] = tuple(s for s in contract.TRAITS if s.saved)
"""The traits saved state carries, in contract order."""
NODE_LIST_TRAITS: tuple[str, ...] = tuple(s.trait for s in SAVED if s.kind == "node_ids")
"""Saved traits holding node ids (written as call paths)."""
NODE_TRAITS: tuple[str, ...] = tuple(s.trait for s in SAVED if s.kind == "node_id")
"""Saved traits holding one node id or None."""
ROOT_TRAITS: tuple[str, ...] = tuple(s.trait for s in SAVED if s.kind == "root_ids")
"""Saved traits holding root ids or None (None: every root; empty: no tree)."""
PLAIN_TRAITS: tuple[str, ...] = tuple(
    s.trait for s in SAVED if s.kind not in ("node_ids", "node_id", "root_ids")
)
"""Saved traits whose JSON value is the trait's value (a tuple as a list)."""
_METRIC_TRAITS = frozenset(s.trait for s in SAVED if s.kind == "metric")
ENSEMBLE_TRAITS: tuple[str, ...] = ("strip_x", "strip_y", "trend_by", "trend_log")
"""Saved settings of an Ensemble's view only (its strip's and trend pane's axes): a single
profile's state leaves them out, and restoring on one skips them; one this ensemble does not
offer (a column it lacks) is left out as a metric the table lacks is. ``where`` is not saved:
it chooses the profiles the numbers are reduced over, and is given on its own
(``CCT(ens, state=..., where=...)``)."""
_RANGE_TRAITS = frozenset(s.trait for s in SAVED if s.kind == "range")
_METRICS_TRAITS = frozenset(s.trait for s in SAVED if s.kind == "metrics")

ItemKind = Literal["node", "collapsed", "aggregate", "fold"]
_Step = tuple[Literal["visit", "fold", "aggregate"], int, list[int]]


@dataclass(frozen=True)
class Item:
    """One drawn item, in full-tree ids (``IdItem`` in view-tree.js)."""

    kind: ItemKind
    """"node"; "collapsed" (a node drawn as one glyph for its subtree); "aggregate" (the
    children, or roots, a prune hides under one parent); "fold" (a fold row of level of detail:
    nodes not sent to the browser)."""
    id: int | None
    """The node's id; None for an aggregate or a fold."""
    parent: int
    """Id of the node it is drawn under; -1 at the top level."""
    hidden: int
    """How many nodes it stands for (0 for a node)."""


@dataclass(frozen=True)
class ViewTree:
    """What is drawn: the items in pre-order, and how many nodes they hide in all."""

    items: tuple[Item, ...]
    hidden_count: int


def view_tree(
    table: NodeTable,
    *,
    collapsed: Iterable[int] = (),
    prune_range: tuple[float, float] | None = None,
    color_values: npt.ArrayLike | None = None,
    focused: int | None = None,
    visible_roots: Iterable[int] | None = None,
    node_id: npt.ArrayLike | None = None,
    folded: npt.ArrayLike | None = None,
) -> ViewTree:
    """The items drawn for ``table`` and a view state in full-tree ids, as the browser draws them.

    ``table`` is either the full tree (rows are ids) or what level of detail sends
    (``cctviz.view.lod.Drawn``: its ``table``, with ``node_id`` per row, -1 for a fold row, and the
    ``folded`` count of each fold row). ``color_values`` are by row of ``table``; ``prune_range``
    keeps the nodes whose value is in it (inclusive; NaN never is; a fold row never is by
    itself) and their ancestors. State ids the table does not have are ignored; ``focused`` wins
    over ``visible_roots``; the roots are drawn in tree order; ``visible_roots=()`` draws nothing.
    """
    n = table.size
    parent: list[int] = np.asarray(table.parent, dtype=np.int64).tolist()
    ids: list[int] = (
        list(range(n)) if node_id is None else np.asarray(node_id, dtype=np.int64).tolist()
    )
    fold_counts: list[int] = (
        [0] * n if folded is None else np.asarray(folded, dtype=np.int64).tolist()
    )
    if len(ids) != n or len(fold_counts) != n:
        raise ValueError(f"node_id and folded need one value per row ({n} rows)")
    is_fold = [c > 0 for c in fold_counts]
    row_of = {i: r for r, i in enumerate(ids) if i >= 0}

    children: list[list[int]] = [[] for _ in range(n)]
    roots: list[int] = []
    for r, p in enumerate(parent):
        (children[p] if p >= 0 else roots).append(r)
    # nodes each row stands for (a fold row: its count), over its subtree; pre-order, so one
    # backward pass
    size = [c if f else 1 for c, f in zip(fold_counts, is_fold, strict=True)]
    for r in range(n - 1, -1, -1):
        if parent[r] >= 0:
            size[parent[r]] += size[r]

    keep = [True] * n
    if prune_range is not None and color_values is not None:
        lo, hi = prune_range
        values = np.asarray(color_values, dtype=np.float64)
        if values.shape != (n,):
            raise ValueError(f"color_values needs one value per row ({n} rows)")
        in_range: list[bool] = ((values >= lo) & (values <= hi)).tolist()  # NaN: False
        keep = [v and not f for v, f in zip(in_range, is_fold, strict=True)]
        for r in range(n - 1, -1, -1):  # ancestors of kept nodes stay, for context
            if keep[r] and parent[r] >= 0:
                keep[parent[r]] = True

    folded_rows = {row_of[i] for i in collapsed if i in row_of}
    focus_row = row_of.get(focused) if focused is not None else None
    if focus_row is not None:
        starts = [focus_row]
    elif visible_roots is None:
        starts = roots
    else:
        chosen = (row_of.get(i) for i in visible_roots)
        starts = sorted({r for r in chosen if r is not None and parent[r] < 0})

    items: list[Item] = []

    def id_of(row: int) -> int:
        return ids[row] if row >= 0 else -1

    # the children of ``owner`` (-1: the top level) as what is drawn for each, in order: a fold
    # row, a subtree to visit, or, last, one aggregate for those the prune hides
    def steps(owner: int, rows: list[int]) -> list[_Step]:
        out: list[_Step] = []
        hidden: list[int] = []
        for c in rows:
            if is_fold[c]:
                out.append(("fold", owner, [c]))
            elif not keep[c]:
                hidden.append(c)
            else:
                out.append(("visit", owner, [c]))
        if hidden:
            out.append(("aggregate", owner, hidden))
        return out

    stack = steps(-1, starts)[::-1]
    while stack:
        what, owner, rows = stack.pop()
        up = id_of(owner)
        if what == "fold":
            items.append(Item("fold", None, up, fold_counts[rows[0]]))
        elif what == "aggregate":
            items.append(Item("aggregate", None, up, sum(size[h] for h in rows)))
        else:
            r = rows[0]
            if r in folded_rows and children[r]:
                items.append(Item("collapsed", ids[r], up, size[r] - 1))
            else:
                items.append(Item("node", ids[r], up, 0))
                stack.extend(steps(r, children[r])[::-1])
    return ViewTree(tuple(items), sum(it.hidden for it in items if it.kind != "node"))


def visible_nodes(
    table: NodeTable,
    *,
    collapsed: Iterable[int] = (),
    prune_range: tuple[float, float] | None = None,
    color_values: npt.ArrayLike | None = None,
    focused: int | None = None,
    visible_roots: Iterable[int] | None = None,
    node_id: npt.ArrayLike | None = None,
    folded: npt.ArrayLike | None = None,
) -> list[int]:
    """Ids of the nodes drawn as nodes (collapsed glyphs included; aggregates and folds not), in
    pre-order. See ``view_tree`` for the arguments."""
    tree = view_tree(
        table,
        collapsed=collapsed,
        prune_range=prune_range,
        color_values=color_values,
        focused=focused,
        visible_roots=visible_roots,
        node_id=node_id,
        folded=folded,
    )
    return [it.id for it in tree.items if it.id is not None]


def _context(keys: ContextKeys, node: Any) -> dict[str, Any]:
    (_, occurrence) = keys.key(node)
    return {"path": frames_to_json(call_path(node)), "occurrence": occurrence}


def to_json(widget: Any) -> dict[str, Any]:
    """The widget's whole view state, JSON-serialisable, nodes given by call path."""
    from .._version import __version__

    table: NodeTable = widget.table
    keys = ContextKeys()

    def ref(i: int) -> dict[str, Any]:
        return _context(keys, table.nodes[i])

    state: dict[str, Any] = {"version": STATE_VERSION, "cctviz": __version__}
    ensemble = getattr(widget, "_ensemble", None) is not None
    for spec in SAVED:
        if spec.trait in ENSEMBLE_TRAITS and not ensemble:
            continue
        value = getattr(widget, spec.trait)
        if spec.trait in NODE_LIST_TRAITS:
            state[spec.trait] = [ref(i) for i in value]
        elif spec.trait in NODE_TRAITS:
            state[spec.trait] = None if value is None else ref(value)
        elif spec.trait in ROOT_TRAITS:
            state[spec.trait] = None if value is None else [ref(i) for i in value]
        else:
            state[spec.trait] = list(value) if isinstance(value, tuple) else value
    return state


def from_json(state: dict[str, Any], table: NodeTable, metrics: list[str]) -> dict[str, Any]:
    """Trait values for ``table`` from a saved state; node references that do not exist in this
    tree, and metrics it does not have, are left out (the rest still applies). Saved roots of
    which none exists here give None (every root); a saved empty list stays empty (no tree)."""
    if not isinstance(state, dict):
        raise TypeError(f"state must be a dict from w.view_state; got {type(state).__name__}")
    known = {"version", "cctviz", *(s.trait for s in SAVED)}
    unknown = sorted(set(state) - known)
    if unknown:
        raise ValueError(f"unknown view state keys {unknown}; accepted: {sorted(known)}")
    if state.get("version", STATE_VERSION) != STATE_VERSION:
        raise ValueError(f"view state version {state['version']} is not {STATE_VERSION}")
    index: dict[tuple[Any, int], int] = {}

    def ids(name: str, refs: list[dict[str, Any]]) -> list[int]:
        if not index and refs:  # keyed once, and only when the state names nodes
            keys = ContextKeys()
            index.update((keys.key(n), i) for i, n in enumerate(table.nodes))
        wanted = (saved_reference(name, r) for r in refs)
        found = (index.get(k) for k in wanted)
        return [i for i in found if i is not None]

    out: dict[str, Any] = {}
    for spec in SAVED:
        name = spec.trait
        if name not in state:
            continue
        value = state[name]
        if name in NODE_LIST_TRAITS:
            out[name] = tuple(ids(name, saved_references(name, value, none=False)))
        elif name in NODE_TRAITS:
            found = ids(name, [value]) if value is not None else []
            out[name] = found[0] if found else None
        elif name in ROOT_TRAITS:
            kept = ids(name, saved_references(name, value, none=True))
            out[name] = tuple(kept) if kept or value == [] else None
        elif name in _METRIC_TRAITS and (not isinstance(value, str) or value not in metrics):
            if not isinstance(value, str):
                raise TypeError(f"state[{name!r}] must be a metric name; got {value!r:.80}")
            continue
        elif name in _METRICS_TRAITS:  # the metrics this table has (the rest still apply)
            if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
                wrong = f"{value!r:.80}"
                raise TypeError(f"state[{name!r}] must be a list of metric names; got {wrong}")
            out[name] = tuple(m for m in value if m in metrics)
        elif name in ENSEMBLE_TRAITS:
            kind = bool if name == "trend_log" else str
            if not isinstance(value, kind):
                raise TypeError(f"state[{name!r}] must be a {kind.__name__}; got {value!r:.80}")
            out[name] = value
        elif name in _RANGE_TRAITS:
            if value is not None and not (isinstance(value, (list, tuple)) and len(value) == 2):
                raise TypeError(f"state[{name!r}] must be [low, high] or None; got {value!r:.80}")
            out[name] = tuple(value) if value is not None else None
        else:
            out[name] = value
    return out
