"""The Hatchet GraphFrame of a calling context tree held as arrays (a parent and a
:class:`~cctviz.adapters.formats.calltree.Site` per node, each declared column's own values per
node and rank/thread), what :meth:`CallTree.graphframe
<cctviz.adapters.formats.calltree.CallTree.graphframe>` returns.

The partners are derived here (an exclusive column's inclusive partner as subtree sums, an
inclusive column's exclusive partner as the node's value minus its children's), level by level
in numpy, and the kinds, partners and units written into the metadata under :data:`KEY`.
Hatchet's ``Node`` and ``Frame`` objects, one each per calling context, are the one step in
Python per node: they are made in one pass, in pre-order. The cyclic garbage collector is
paused while the GraphFrame is built (each collection would walk every node made so far again:
at a million nodes, more time than making them).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ...core.extras import hatchet
from .treeorder import ROOT, depths, levels, preorder

if TYPE_CHECKING:
    from .calltree import Column, Site

#: The metadata key of a GraphFrame read by ``cctviz.read``: ``{metric: [kind, partner, unit]}``
#: as JSON text (partner and unit may be null).
KEY = "cctviz.format_metrics"
INC = " (inc)"


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off while millions of objects without cycles are made."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def graphframe(
    parent: np.ndarray,
    sites: Sequence[Site],
    columns: Sequence[Column],
    groups: Sequence[tuple[int, int]],
    own: np.ndarray,
    seen: np.ndarray,
    metadata: Mapping[str, Any] | None = None,
    dense: bool = False,
) -> Any:
    """The GraphFrame of nodes ``parent``/``sites`` whose ``own[node, group, column]`` values
    (``seen[node, group]``: a value was added) are those of ``columns`` in each (rank, thread)
    of ``groups`` (see :meth:`CallTree.graphframe
    <cctviz.adapters.formats.calltree.CallTree.graphframe>`)."""
    with gc_paused():
        return _graphframe(parent, sites, columns, groups, own, seen, metadata, dense)


def _graphframe(
    parent: np.ndarray,
    sites: Sequence[Site],
    columns: Sequence[Column],
    groups: Sequence[tuple[int, int]],
    own: np.ndarray,
    seen: np.ndarray,
    metadata: Mapping[str, Any] | None,
    dense: bool,
) -> Any:
    ht = hatchet("cctviz.read (it gives a Hatchet GraphFrame)")

    n = len(parent)
    depth = depths(parent)
    layers = levels(depth)
    order = preorder(parent, layers)
    graph, nodes = _graph(parent, sites, order, depth)
    # subtree sums only for the partners derived (a measured pair needs none)
    derives = any(c.partner is None and c.derive for c in columns)
    total, below = (own.copy(), np.zeros_like(own)) if derives else (own, own)
    held = seen.copy()
    if derives:
        inner = np.flatnonzero(parent != ROOT)
        np.add.at(below, parent[inner], own[inner])
    for layer in reversed(layers[1:]):  # children before parents, deepest level first
        if derives:
            np.add.at(total, parent[layer], total[layer])
        np.add.at(held, parent[layer], held[layer])
    exclusive = np.asarray([c.kind == "exclusive" for c in columns])
    derived_all = np.where(exclusive, total, own - below) if derives else own
    position = np.empty(n, np.int64)
    position[order] = np.arange(n)
    picked = [
        # one profile or dense: every node; else the nodes on a path holding values
        order if len(groups) == 1 or dense else order[held[order, k] > 0]
        for k in range(len(groups))
    ]
    rows = np.concatenate(picked)
    group = np.concatenate([np.full(len(at), k) for k, at in enumerate(picked)])
    data, exc_names, inc_names, pins = _columns(columns, own[rows, group], derived_all[rows, group])
    data["name"] = np.asarray([s.name for s in sites], dtype=object)[rows]
    frame = pd.DataFrame(data)
    levels_named = _levels(len({g[0] for g in groups}) > 1, len({g[1] for g in groups}) > 1)
    if len(levels_named) > 1:  # built from codes: no hashing of a million Hatchet nodes
        uniques, codes = [pd.Index(nodes, dtype=object)], [position[rows]]
        for level, part in (("rank", 0), ("thread", 1)):
            if level in levels_named:
                each = np.asarray([g[part] for g in groups], np.int64)
                unique, inverse = np.unique(each, return_inverse=True)
                uniques.append(pd.Index(unique, dtype=np.int64))
                codes.append(inverse[group])
        frame.index = pd.MultiIndex(levels=uniques, codes=codes, names=levels_named)
    else:
        frame.index = pd.Index(nodes[position[rows]], name="node")
    gf = ht.GraphFrame(graph, frame, exc_names, inc_names)
    # what gf.tree() shows first: the first inclusive
    gf.default_metric = (inc_names or exc_names)[0]
    gf.metadata = {**(metadata or {}), KEY: json.dumps(pins)}
    return gf


def _graph(
    parent: np.ndarray, sites: Sequence[Site], order: np.ndarray, depth: np.ndarray
) -> tuple[Any, np.ndarray]:
    """Hatchet's Graph and its nodes in pre-order (``_hatchet_nid`` and ``_depth`` set as
    ``Graph.enumerate_traverse`` sets them, without its recursion)."""
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node

    made: list[Any] = [None] * len(parent)
    roots: list[Any] = []
    steps = zip(order.tolist(), parent[order].tolist(), depth[order].tolist(), strict=True)
    for k, (i, p, d) in enumerate(steps):
        node = made[i] = Node(Frame(sites[i].frame()), None, k, d)
        if p == ROOT:
            roots.append(node)
        else:  # what Node.add_parent and add_child do, without their asserts
            above = made[p]
            node.parents.append(above)
            above.children.append(node)
    nodes = np.fromiter((made[i] for i in order.tolist()), object, len(made))
    return Graph(roots), nodes


def _columns(
    columns: Sequence[Column], given: np.ndarray, derived: np.ndarray
) -> tuple[dict[str, Any], list[str], list[str], dict[str, list[str | None]]]:
    """The dataframe's metric columns (each declared one and its partner: measured, derived or
    none), the exclusive and inclusive names, and the kinds, partners and units to pin."""
    index = {c.name: j for j, c in enumerate(columns)}
    data: dict[str, Any] = {}
    exc_names: list[str] = []
    inc_names: list[str] = []
    pins: dict[str, list[str | None]] = {}
    for j, column in enumerate(columns):
        if column.name in pins:  # the second of a measured pair
            continue
        if column.partner is not None:
            partner, values = column.partner, given[:, index[column.partner]]
        elif column.derive:
            partner = column.name + INC if column.kind == "exclusive" else _exc_name(column.name)
            values = derived[:, j]
        else:
            data[column.name] = given[:, j]
            pins[column.name] = [column.kind, None, column.unit]
            (exc_names if column.kind == "exclusive" else inc_names).append(column.name)
            continue
        if column.kind == "exclusive":
            data[column.name], data[partner] = given[:, j], values
            exc, inc = column.name, partner
        else:
            data[partner], data[column.name] = values, given[:, j]
            exc, inc = partner, column.name
        exc_names.append(exc)
        inc_names.append(inc)
        pins[exc] = ["exclusive", inc, column.unit]
        pins[inc] = ["inclusive", exc, column.unit]
    return data, exc_names, inc_names, pins


def _levels(ranks: bool, threads: bool) -> list[str]:
    return ["node", *(["rank"] if ranks else []), *(["thread"] if threads else [])]


def _exc_name(name: str) -> str:
    return name[: -len(INC)] if name.endswith(INC) else f"{name} (exc)"


__all__ = ["INC", "KEY", "gc_paused", "graphframe"]
