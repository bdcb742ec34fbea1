"""A calling context tree built from what a profile format holds (stacks of frames with weights,
or spans with durations), turned into a Hatchet GraphFrame: the one builder every reader of
:mod:`cctviz.adapters.formats` feeds, so that each reader only parses its format.

A reader interns call sites (:meth:`CallTree.child`, :meth:`CallTree.path`) and adds values to
nodes (:meth:`CallTree.add`, per rank/thread when the format has them). Nodes are integers in
arrays (a 1 GB folded file has millions of lines but far fewer distinct stacks), so building is
linear in the input and Hatchet nodes are made once per distinct calling context at the end.

Each metric is declared with its kind as the format means it (:class:`Column`): ``exclusive``
values are summed into each node's own column, and the inclusive partner ``<name> (inc)`` is
derived as subtree sums (a sample's weight counts once in every frame of its stack, so a
recursive stack counts it once per recursion level, as Hatchet's own derivation does);
``inclusive`` values (a span's duration) come with an exclusive partner derived as the node's
value minus its children's. Kinds, partners and units are written into the GraphFrame's
metadata under :data:`KEY` so that cctviz reads each metric as the format means it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

#: The metadata key of a GraphFrame read by ``cctviz.read``: ``{metric: [kind, partner, unit]}``
#: as JSON text (partner and unit may be null).
KEY = "cctviz.format_metrics"
INC = " (inc)"
ROOT = -1


@dataclass(frozen=True)
class Site:
    """One frame of a call path as the format names it: a function (or region, kernel…),
    optionally its file, line and module (library, binary). ``type`` is Hatchet's frame type."""

    name: str
    file: str | None = None
    line: int | None = None
    module: str | None = None
    type: str = "function"

    def frame(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "name": self.name}
        if self.file is not None:
            out["file"] = self.file
        if self.line is not None:
            out["line"] = int(self.line)
        if self.module is not None:
            out["module"] = self.module
        return out


@dataclass(frozen=True)
class Column:
    """A metric as the format means it: its name, whether a value belongs to the node alone
    (``exclusive``: a sample's weight at the leaf) or to the node with everything it called
    (``inclusive``: a span's duration), and its unit (``"s"``, ``"ns"``, ``"samples"``,
    ``"bytes"``… or ``None``)."""

    name: str
    kind: Literal["exclusive", "inclusive"] = "exclusive"
    unit: str | None = None


class CallTree:
    """Calling contexts interned as integers (``ROOT`` is the parent of a root), values per
    node, column and (optionally) rank and thread."""

    def __init__(self, columns: Sequence[Column]) -> None:
        names = [c.name for c in columns]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"a call tree needs distinct metric names, got {names}")
        self.columns = tuple(columns)
        self._index = {c.name: j for j, c in enumerate(columns)}
        self.parent: list[int] = []
        self.site: list[Site] = []
        self._children: dict[tuple[int, Site], int] = {}
        self._indexed = 0  # nodes [0, _indexed) are in _children (extend() appends unindexed)
        # (node, rank, thread) → values per column
        self._values: dict[tuple[int, int, int], np.ndarray] = {}
        # values added at once (add_many): (nodes, rank, thread, values per node and column)
        self._bulk: list[tuple[np.ndarray, int, int, np.ndarray]] = []
        self.ranks: set[int] = set()
        self.threads: set[int] = set()

    def __len__(self) -> int:
        return len(self.parent)

    def child(self, parent: int, site: Site) -> int:
        """The node for ``site`` called from ``parent`` (``ROOT``: a root), made on first use."""
        if self._indexed < len(self.parent):
            for i in range(self._indexed, len(self.parent)):
                self._children.setdefault((self.parent[i], self.site[i]), i)
        key = (parent, site)
        node = self._children.get(key)
        if node is None:
            node = len(self.parent)
            self._children[key] = node
            self.parent.append(parent)
            self.site.append(site)
        self._indexed = len(self.parent)
        return node

    def extend(self, parent: Sequence[int], site: Sequence[Site]) -> None:
        """Append nodes at once (a reader that interned its calling contexts itself): each
        ``(parent, site)`` new and distinct, each parent before its children."""
        if len(parent) != len(site):
            raise ValueError(f"{len(parent)} parents for {len(site)} sites")
        start = len(self.parent)
        if any(not ROOT <= p < start + i for i, p in enumerate(parent)):
            raise ValueError("a parent must be ROOT or a node before its child")
        self.parent.extend(parent)
        self.site.extend(site)

    def add_many(
        self, nodes: np.ndarray, values: np.ndarray, rank: int = 0, thread: int = 0
    ) -> None:
        """Add ``values`` (one row per node, one column per metric, in the columns' order) to
        the distinct ``nodes``' own values in ``rank``/``thread``: :meth:`add` for many."""
        nodes = np.asarray(nodes, np.int64)
        values = np.asarray(values, np.float64).reshape(len(nodes), len(self.columns))
        inside = not len(nodes) or (nodes.min() >= 0 and nodes.max() < len(self.parent))
        if len(np.unique(nodes)) != len(nodes) or not inside:
            raise ValueError("add_many needs distinct nodes of the tree")
        self._bulk.append((nodes, rank, thread, values))
        self.ranks.add(rank)
        self.threads.add(thread)

    def path(self, sites: Iterable[Site], parent: int = ROOT) -> int:
        """The node at the end of ``sites`` (outermost first) below ``parent``."""
        node = parent
        for site in sites:
            node = self.child(node, site)
        if node == ROOT:
            raise ValueError("an empty call path has no node")
        return node

    def add(self, node: int, values: Mapping[str, float], rank: int = 0, thread: int = 0) -> None:
        """Add ``values`` (metric name → number) to ``node``'s own values in ``rank``/``thread``."""
        key = (node, rank, thread)
        row = self._values.get(key)
        if row is None:
            row = self._values[key] = np.zeros(len(self.columns))
            self.ranks.add(rank)
            self.threads.add(thread)
        for name, value in values.items():
            j = self._index.get(name)
            if j is None:
                raise KeyError(f"no metric {name!r}; declared: {list(self._index)}")
            row[j] += value

    def totals(self) -> dict[str, float]:
        """Each column's sum over every node, rank and thread as added (for an exclusive column:
        the file's own total, what the roots' inclusive values add up to)."""
        _, values = self._keyed()
        sums = values.sum(axis=0) if len(values) else np.zeros(len(self.columns))
        return {c.name: float(s) for c, s in zip(self.columns, sums, strict=True)}

    def _keyed(self) -> tuple[np.ndarray, np.ndarray]:
        """(node, rank, thread) per row and the rows' values, from add and add_many."""
        width = len(self.columns)
        keys = [np.asarray(list(self._values), np.int64).reshape(-1, 3)]
        values = [np.asarray(list(self._values.values()), np.float64).reshape(-1, width)]
        for nodes, rank, thread, rows in self._bulk:
            keys.append(
                np.column_stack([nodes, np.full_like(nodes, rank), np.full_like(nodes, thread)])
            )
            values.append(rows)
        return np.concatenate(keys), np.concatenate(values)

    def graphframe(self, metadata: Mapping[str, Any] | None = None) -> Any:
        """A Hatchet GraphFrame: one row per node (per node and ``rank``/``thread`` when values
        came in more than one), each column and its derived partner, the kinds, partners and
        units under :data:`KEY` in the metadata."""
        import hatchet as ht
        from hatchet.frame import Frame
        from hatchet.graph import Graph
        from hatchet.node import Node

        if not self.parent:
            raise ValueError("the profile holds no call path with a value")
        n = len(self.parent)
        parent = np.asarray(self.parent, np.int64)
        order = _preorder(parent)
        made: list[Any] = [None] * n
        roots: list[Any] = []
        for i in order.tolist():
            p = int(parent[i])
            node = Node(Frame(self.site[i].frame()), made[p] if p != ROOT else None)
            if p == ROOT:
                roots.append(node)
            else:
                made[p].add_child(node)
            made[i] = node
        graph = Graph(roots)
        # what Graph.enumerate_traverse sets, without its recursion (a stack thousands of
        # frames deep): ids in pre-order, depths from the parents
        depth = np.zeros(n, np.int64)
        for k, i in enumerate(order.tolist()):
            p = int(parent[i])
            depth[i] = depth[p] + 1 if p != ROOT else 0
            made[i]._hatchet_nid = k
            made[i]._depth = int(depth[i])
        levels = _levels(len(self.ranks) > 1, len(self.threads) > 1)
        width = len(self.columns)
        keys, values = self._keyed()
        groups = sorted({(int(r), int(t)) for r, t in np.unique(keys[:, 1:], axis=0).tolist()})
        # children before parents, level by level (vectorised: a million nodes in a second)
        inner = np.flatnonzero(parent != ROOT)
        by_depth = inner[np.argsort(-depth[inner], kind="stable")]
        cuts = np.flatnonzero(np.diff(depth[by_depth])) + 1
        level_nodes = np.split(by_depth, cuts) if len(by_depth) else []
        parts: list[tuple[np.ndarray, int, int, np.ndarray, np.ndarray]] = []
        for rank, thread in groups:
            mine = (keys[:, 1] == rank) & (keys[:, 2] == thread)
            own = np.zeros((n, width))
            np.add.at(own, keys[mine, 0], values[mine])
            seen = np.zeros(n, np.int64)
            seen[keys[mine, 0]] = 1
            total, below, held = own.copy(), np.zeros((n, width)), seen.copy()
            np.add.at(below, parent[inner], own[inner])
            for level in level_nodes:  # deepest first
                np.add.at(total, parent[level], total[level])
                np.add.at(held, parent[level], held[level])
            # one profile: every node; per rank or thread: the nodes on a path holding values
            at = order if len(groups) == 1 else order[held[order] > 0]
            parts.append(
                (
                    at,
                    rank,
                    thread,
                    own[at],
                    np.where(
                        np.asarray([c.kind == "exclusive" for c in self.columns]),
                        total[at],
                        own[at] - below[at],
                    ),
                )
            )
        rows = np.concatenate([p[0] for p in parts])
        given = np.concatenate([p[3] for p in parts])
        derived = np.concatenate([p[4] for p in parts])
        data: dict[str, Any] = {}
        exc_names, inc_names, pins = [], [], {}
        for j, column in enumerate(self.columns):
            if column.kind == "exclusive":
                partner = column.name + INC
                data[column.name], data[partner] = given[:, j], derived[:, j]
                exc, inc = column.name, partner
            else:
                partner = _exc_name(column.name)
                data[partner], data[column.name] = derived[:, j], given[:, j]
                exc, inc = partner, column.name
            exc_names.append(exc)
            inc_names.append(inc)
            pins[exc] = ["exclusive", inc, column.unit]
            pins[inc] = ["inclusive", exc, column.unit]
        data["name"] = [self.site[i].name for i in rows.tolist()]
        index: list[Any] = [[made[i] for i in rows.tolist()]]
        if "rank" in levels:
            index.append(np.concatenate([np.full(len(p[0]), p[1]) for p in parts]))
        if "thread" in levels:
            index.append(np.concatenate([np.full(len(p[0]), p[2]) for p in parts]))
        frame = pd.DataFrame(data)
        frame.index = (
            pd.MultiIndex.from_arrays(index, names=levels)
            if len(levels) > 1
            else pd.Index(index[0], name="node")
        )
        gf = ht.GraphFrame(graph, frame, exc_names, inc_names)
        gf.default_metric = inc_names[0]  # what gf.tree() shows first: the first inclusive
        gf.metadata = {**(metadata or {}), KEY: json.dumps(pins)}
        return gf


def _levels(ranks: bool, threads: bool) -> list[str]:
    return ["node", *(["rank"] if ranks else []), *(["thread"] if threads else [])]


def _exc_name(name: str) -> str:
    return name[: -len(INC)] if name.endswith(INC) else f"{name} (exc)"


def _preorder(parent: np.ndarray) -> np.ndarray:
    """Nodes in pre-order (children in the order they were first seen), without recursion."""
    n = len(parent)
    kids: list[list[int]] = [[] for _ in range(n)]
    roots: list[int] = []
    for i, p in enumerate(parent.tolist()):
        (roots if p == ROOT else kids[p]).append(i)
    out: list[int] = []
    stack = roots[::-1]
    while stack:
        i = stack.pop()
        out.append(i)
        stack.extend(kids[i][::-1])
    return np.asarray(out, np.int64)


__all__ = ["INC", "KEY", "ROOT", "CallTree", "Column", "Site"]
