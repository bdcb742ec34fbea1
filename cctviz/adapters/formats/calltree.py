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
value minus its children's. A format that measures both (TAU, HPCToolkit) declares the two
columns as each other's ``partner``, and nothing is derived for them; a value that has no
partner (a count of calls) says ``derive=False``. Kinds, partners and units are written into
the GraphFrame's metadata under :data:`KEY` so that cctviz reads each metric as the format
means it.
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
    ``"bytes"``… or ``None``). ``partner`` names the declared column of the other kind that
    the format measured for the same thing (nothing is derived for either of the pair);
    without one, the partner is derived unless ``derive`` is false."""

    name: str
    kind: Literal["exclusive", "inclusive"] = "exclusive"
    unit: str | None = None
    partner: str | None = None
    derive: bool = True


class CallTree:
    """Calling contexts interned as integers (``ROOT`` is the parent of a root), values per
    node, column and (optionally) rank and thread."""

    def __init__(self, columns: Sequence[Column]) -> None:
        names = [c.name for c in columns]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"a call tree needs distinct metric names, got {names}")
        for c in columns:
            other = next((o for o in columns if o.name == c.partner), c)
            if c.partner is not None and (other.partner != c.name or other.kind == c.kind):
                raise ValueError(
                    f"column {c.name!r} names partner {c.partner!r}: a partner is another "
                    "declared column of the other kind that names this one as its partner"
                )
        self.columns = tuple(columns)
        self._index = {c.name: j for j, c in enumerate(columns)}
        self.parent: list[int] = []
        self.site: list[Site] = []
        self._children: dict[tuple[int, Site], int] = {}
        self._indexed = 0  # nodes [0, _indexed) are in _children (extend() appends unindexed)
        # (node, rank, thread) → values per column
        self._values: dict[tuple[int, int, int], np.ndarray] = {}
        # (nodes, rank, thread, values: one row per node, one column per declared column)
        self._blocks: list[tuple[np.ndarray, int, int, np.ndarray]] = []
        self.ranks: set[int] = set()
        self.threads: set[int] = set()

    def __len__(self) -> int:
        return len(self.parent)

    def child(self, parent: int, site: Site, new: bool = False) -> int:
        """The node for ``site`` called from ``parent`` (``ROOT``: a root), made on first use
        (``new``: a node of its own even when ``parent`` has one for ``site``, for a format
        whose contexts are distinct though they name the same frame)."""
        if self._indexed < len(self.parent):
            for i in range(self._indexed, len(self.parent)):
                self._children.setdefault((self.parent[i], self.site[i]), i)
        key = (parent, site)
        node = None if new else self._children.get(key)
        if node is None:
            node = len(self.parent)
            self._children.setdefault(key, node)
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

    def add_many(
        self,
        nodes: Sequence[int] | np.ndarray,
        values: Mapping[str, np.ndarray] | np.ndarray,
        rank: int = 0,
        thread: int = 0,
    ) -> None:
        """Add ``values`` to the ``nodes``' own values in ``rank``/``thread``, for every node at
        once (a profile's thousands of nodes without a call per node): ``values[metric][k]``
        to ``nodes[k]``, or an array of one row per node and one column per declared column."""
        at = np.asarray(nodes, np.int64)
        if len(at) and (at.min() < 0 or at.max() >= len(self.parent)):
            raise ValueError("add_many needs nodes of the tree")
        if isinstance(values, Mapping):
            block = np.zeros((len(at), len(self.columns)))
            for name, column in values.items():
                j = self._index.get(name)
                if j is None:
                    raise KeyError(f"no metric {name!r}; declared: {list(self._index)}")
                block[:, j] = column
        else:
            block = np.asarray(values, np.float64).reshape(len(at), len(self.columns))
        if len(at):
            self._blocks.append((at, rank, thread, block))
            self.ranks.add(rank)
            self.threads.add(thread)

    def totals(self) -> dict[str, float]:
        """Each column's sum over every node, rank and thread as added (for an exclusive column:
        the file's own total, what the roots' inclusive values add up to)."""
        if not self._values and not self._blocks:
            return {c.name: 0.0 for c in self.columns}
        sums = np.sum([*self._values.values(), *(b[3].sum(axis=0) for b in self._blocks)], axis=0)
        return {c.name: float(s) for c, s in zip(self.columns, sums, strict=True)}

    def graphframe(self, metadata: Mapping[str, Any] | None = None, dense: bool = False) -> Any:
        """A Hatchet GraphFrame: one row per node (per node and ``rank``/``thread`` when values
        came in more than one: the nodes on a path holding values in each, or with ``dense``
        every node in every one, zeros where it was not reached), each column and its derived
        partner, the kinds, partners and units under :data:`KEY` in the metadata."""
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
        groups = sorted({(k[1], k[2]) for k in self._values} | {b[1:3] for b in self._blocks})
        at_group = {g: k for k, g in enumerate(groups)}
        width = len(self.columns)
        # values as one array (node, group, column): the sums below run once over the nodes
        own = np.zeros((n, len(groups), width))
        seen = np.zeros((n, len(groups)), np.int64)
        if self._values:
            keys = np.asarray([(k[0], at_group[k[1], k[2]]) for k in self._values], np.int64)
            own[keys[:, 0], keys[:, 1]] = np.stack(list(self._values.values()))
            seen[keys[:, 0], keys[:, 1]] = 1
        for at, rank, thread, block in self._blocks:
            k = at_group[rank, thread]
            np.add.at(own[:, k], at, block)
            seen[at, k] = 1
        # subtree sums only for the partners derived (a measured pair needs none)
        derives = any(c.partner is None and c.derive for c in self.columns)
        total, below = (own.copy(), np.zeros_like(own)) if derives else (own, own)
        held = seen.copy()
        # children before parents, level by level (vectorised: a million nodes in a second)
        inner = np.flatnonzero(parent != ROOT)
        by_depth = inner[np.argsort(-depth[inner], kind="stable")]
        cuts = np.flatnonzero(np.diff(depth[by_depth])) + 1
        if derives:
            np.add.at(below, parent[inner], own[inner])
        for layer in np.split(by_depth, cuts) if len(by_depth) else []:  # deepest first
            if derives:
                np.add.at(total, parent[layer], total[layer])
            np.add.at(held, parent[layer], held[layer])
        exclusive = np.asarray([c.kind == "exclusive" for c in self.columns])
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
        given, derived = own[rows, group], derived_all[rows, group]
        data: dict[str, Any] = {}
        exc_names: list[str] = []
        inc_names: list[str] = []
        pins: dict[str, list[str | None]] = {}
        for j, column in enumerate(self.columns):
            if column.name in pins:  # the second of a measured pair
                continue
            if column.partner is not None:
                partner, values = column.partner, given[:, self._index[column.partner]]
            elif column.derive:
                partner = (
                    column.name + INC if column.kind == "exclusive" else _exc_name(column.name)
                )
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
        data["name"] = np.asarray([s.name for s in self.site], dtype=object)[rows]
        frame = pd.DataFrame(data)
        nodes = pd.Index([made[i] for i in order.tolist()], dtype=object)
        if len(levels) > 1:  # built from codes: no hashing of a million Hatchet nodes
            uniques, codes = [nodes], [position[rows]]
            for level, part in (("rank", 0), ("thread", 1)):
                if level in levels:
                    each = np.asarray([g[part] for g in groups], np.int64)
                    unique, inverse = np.unique(each, return_inverse=True)
                    uniques.append(pd.Index(unique, dtype=np.int64))
                    codes.append(inverse[group])
            frame.index = pd.MultiIndex(levels=uniques, codes=codes, names=levels)
        else:
            frame.index = pd.Index(np.asarray(nodes, dtype=object)[position[rows]], name="node")
        gf = ht.GraphFrame(graph, frame, exc_names, inc_names)
        # what gf.tree() shows first: the first inclusive
        gf.default_metric = (inc_names or exc_names)[0]
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
