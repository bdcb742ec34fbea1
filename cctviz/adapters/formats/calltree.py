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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .treeframe import INC, KEY, graphframe
from .treeorder import ROOT


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
        partner, the kinds, partners and units under :data:`KEY` in the metadata (made by
        :func:`cctviz.adapters.formats.treeframe.graphframe`)."""
        if not self.parent:
            raise ValueError("the profile holds no call path with a value")
        groups, own, seen = self._arrays()
        parent = np.asarray(self.parent, np.int64)
        return graphframe(parent, self.site, self.columns, groups, own, seen, metadata, dense)

    def _arrays(self) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
        """The (rank, thread) groups values came in, and the values as one array (node, group,
        column) with whether each node got a value in each group."""
        groups = sorted({(k[1], k[2]) for k in self._values} | {b[1:3] for b in self._blocks})
        at_group = {g: k for k, g in enumerate(groups)}
        own = np.zeros((len(self.parent), len(groups), len(self.columns)))
        seen = np.zeros((len(self.parent), len(groups)), np.int64)
        if self._values:
            keys = np.asarray([(k[0], at_group[k[1], k[2]]) for k in self._values], np.int64)
            own[keys[:, 0], keys[:, 1]] = np.stack(list(self._values.values()))
            seen[keys[:, 0], keys[:, 1]] = 1
        for at, rank, thread, block in self._blocks:
            k = at_group[rank, thread]
            np.add.at(own[:, k], at, block)
            seen[at, k] = 1
        return groups, own, seen


__all__ = ["INC", "KEY", "ROOT", "CallTree", "Column", "Site"]
