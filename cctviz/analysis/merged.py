"""Merged trees: calling contexts merged by function name, the bottom-up and caller/callee views.

A row of a merged tree stands for a set of calling contexts, its *origins*, whose values it sums:

- **callers** (bottom-up, inverted): the row ``(f, g, h)`` is the time of ``f`` when called from
  ``g`` called from ``h``; its origins are those ``f`` nodes. The first level lists every
  function (the flat profile); a row's children are its callers, merged by name.
- **callees** (top-down from one function): the row ``(f, a, b)`` holds the ``b`` nodes called by
  an ``a`` called by ``f``, its origins, merged across every context of ``f`` (starting from the
  outermost ``f`` of each call path, so recursion is not counted twice).

Exclusive metrics are summed over a row's origins. Inclusive ones are summed over the origins not
inside another origin of the same row (recursion counts once). Other kinds show their maximum.
A *scope* (the focused subtree, the visible roots) limits the nodes taken into account.

Functions are functions: HPCToolkit's loops and statements are no rows of these trees; a caller
is the procedure holding the call (``lexical``). A function's *parts* (``parts``) are its loops
and lines, merged by name across its contexts; a loop's parts are the loops and lines in it.

Every level is built for all its rows at once with numpy; a single row is reached by walking its
path level by level and keeping the origins that follow it.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from ..core.table import NodeTable
from .flat import outside_earlier, subtree_end
from .lexical import function_names, lexical, own_exclusive

Direction = Literal["callers", "callees"]


@dataclass(frozen=True)
class Level:
    """One level of a merged tree: its rows and the (row, origin, at) pairs behind them.

    ``at`` is the node each pair has reached: the origin's ancestor named by the row's last name
    (callers), or the origin itself (callees)."""

    parent_row: np.ndarray  # the row's parent in the level above (0 on the first level)
    name: np.ndarray  # canonical name code of each row
    row: np.ndarray  # per pair: its row
    origin: np.ndarray  # per pair: the node whose values count
    at: np.ndarray  # per pair: the node reached

    @property
    def size(self) -> int:
        return int(self.name.shape[0])


class MergedTrees:
    """The merged trees of one node table within a scope (None: the whole table)."""

    def __init__(self, table: NodeTable, scope: np.ndarray | None = None):
        self.table = table
        n = table.size
        self.scope = np.ones(n, dtype=bool) if scope is None else np.asarray(scope, dtype=bool)
        # one code per function name (the table may hold a name more than once, and the XML
        # reader puts the call site's line before a procedure's name: lexical.function_names)
        self.names = function_names(table)
        first: dict[str, int] = {}
        canon = np.array([first.setdefault(name, i) for i, name in enumerate(self.names)])
        self._canon = canon
        self.code = canon[table.name_code] if n else np.zeros(0, np.int64)
        self.end = subtree_end(table.parent, table.depth)
        self.lexical = lex = lexical(table)
        self.part = lex.part
        # children of every node, grouped by parent (CSR)
        self.child_order, self.child_start, self.child_count = _children(table.parent, self.scope)
        # a function's callees: the functions whose parent is it or one of its parts
        self.caller = lex.call_parent(table.parent) if lex.any else table.parent
        self.call_order, self.call_start, self.call_count = (
            _children(np.where(self.part, -1, self.caller), self.scope)
            if lex.any
            else (self.child_order, self.child_start, self.child_count)
        )
        self._exclusive: dict[str, np.ndarray] = {}

    def code_of(self, name: str) -> int:
        """The canonical code of a function name; a ValueError if no node in scope has it."""
        # a function's name, or the name one of its contexts has ("296:psm_progress_wait")
        named = (i for i, shown in enumerate(self.table.names) if name in (shown, self.names[i]))
        at = next(named, -1)
        code = int(self._canon[at]) if at >= 0 else -1
        if code < 0 or not np.any(self.scope & ~self.part & (self.code == code)):
            shown = np.unique(self.code[self.scope & ~self.part]).tolist()
            close = difflib.get_close_matches(name, [self.names[c] for c in shown], n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise ValueError(f"no function named {name!r} in the nodes shown{hint}")
        return code

    # -- the first level ---------------------------------------------------------------------
    def functions(self) -> Level:
        """Every function in scope, each with all its contexts: the callers tree's first level."""
        nodes = np.flatnonzero(self.scope & ~self.part)
        return _group(np.zeros(nodes.shape[0], np.int64), nodes, nodes, self.code[nodes])

    def function(self, name: str, direction: Direction) -> Level:
        """One function as a single row: all its contexts (callers), or the outermost ones on
        each call path (callees)."""
        code = self.code_of(name)
        nodes = np.flatnonzero(self.scope & ~self.part & (self.code == code))
        if direction == "callees":
            rows = np.zeros(nodes.shape[0], np.int64)
            nodes = nodes[self.outermost(rows, nodes)]
        return _group(np.zeros(nodes.shape[0], np.int64), nodes, nodes, self.code[nodes])

    # -- one step down the merged tree -------------------------------------------------------
    def step(self, level: Level, direction: Direction) -> Level:
        """The next level: every row's callers (or callees), merged by name."""
        if direction == "callers":
            up = self.caller[level.at]
            keep = up >= 0
            keep[keep] = self.scope[up[keep]]
            return _group(level.row[keep], level.origin[keep], up[keep], self.code[up[keep]])
        kids, rows = _kids_of(level, self.call_order, self.call_start, self.call_count)
        keep = self.scope[kids]
        return _group(rows[keep], kids[keep], kids[keep], self.code[kids[keep]])

    def parts(self, level: Level) -> Level:
        """The loops and lines in each row's contexts (its origins' parts: a function's or a
        loop's), merged by name; none without HPCToolkit's loops and statements."""
        if not self.lexical.any:
            return _group(*(np.zeros(0, np.int64),) * 4)
        kids, rows = _kids_of(level, self.child_order, self.child_start, self.child_count)
        keep = self.scope[kids] & self.part[kids]
        return _group(rows[keep], kids[keep], kids[keep], self.code[kids[keep]])

    def has_more(self, level: Level, direction: Direction) -> np.ndarray:
        """Whether each row of ``level`` has children (callers, or callees)."""
        if direction == "callers":
            up = self.caller[level.at]
            go = up >= 0
            go[go] = self.scope[up[go]]
        else:
            go = self.call_count[level.at] > 0
        return np.bincount(level.row, weights=go, minlength=level.size) > 0

    def has_parts(self, level: Level) -> np.ndarray:
        """Whether each row of ``level`` has loops or lines."""
        if not self.lexical.any:
            return np.zeros(level.size, dtype=bool)
        parts = self.parts(level)
        return np.bincount(parts.parent_row, minlength=level.size) > 0

    def follow(self, start: Level, path: Sequence[str], direction: Direction) -> Level:
        """The children of the row reached from ``start``'s row ``path[0]`` through ``path[1:]``
        (each a function name): the level below that one row."""
        level = start
        for depth, name in enumerate(path):
            code = self.code_of(name) if depth else None
            if depth:
                level = self.step(level, direction)
            wanted = np.flatnonzero(level.name == (code if depth else self.code_of(path[0])))
            if wanted.size == 0:
                raise ValueError(f"no {direction[:-1]} path {' → '.join(map(str, path))}")
            level = _only(level, int(wanted[0]))
        return self.step(level, direction)

    def within(self, function: str, parts: Sequence[str]) -> Level:
        """One row: ``function``'s part reached through ``parts`` (names of its loops and lines,
        from the function down), or the function itself (no parts), over all its contexts."""
        level = self.function(function, "callers")
        for name in parts:
            level = self.parts(level)
            code = self.names.index(name) if name in self.names else -1
            wanted = np.flatnonzero(level.name == code)
            if wanted.size == 0:
                raise ValueError(f"no loop or line {' → '.join([function, *parts])}")
            level = _only(level, int(wanted[0]))
        return level

    # -- values ------------------------------------------------------------------------------
    def outermost(self, row: np.ndarray, origin: np.ndarray) -> np.ndarray:
        """Per pair: whether its origin is not inside another origin of the same row."""
        return outside_earlier(origin, self.end[origin], row)

    def values(self, level: Level, metric: str) -> np.ndarray:
        """One value per row of ``level``: the metric over the row's origins (NaN: none)."""
        m = self.table.metrics[metric]
        values = m.values
        if m.kind == "exclusive":  # a procedure's holds its loops' and statements'
            if metric not in self._exclusive:
                self._exclusive[metric] = own_exclusive(self.table, values, self.lexical)
            values = self._exclusive[metric]
        values = values[level.origin]
        if m.kind == "inclusive":
            values = np.where(self.outermost(level.row, level.origin), values, np.nan)
        have = ~np.isnan(values)
        counted = np.bincount(level.row[have], minlength=level.size)
        if m.kind in ("exclusive", "inclusive"):
            out = np.bincount(level.row[have], weights=values[have], minlength=level.size)
        else:
            out = np.full(level.size, -np.inf)
            np.fmax.at(out, level.row[have], values[have])
        return np.where(counted > 0, out, np.nan)

    def contexts(self, level: Level) -> np.ndarray:
        """How many origins each row has."""
        return np.bincount(level.row, minlength=level.size)

    def ids(self, level: Level) -> list[list[int]]:
        """Each row's origins (node ids), in tree order."""
        order = np.lexsort((level.origin, level.row))
        origins = level.origin[order].tolist()
        bounds = np.concatenate(([0], np.cumsum(self.contexts(level)))).tolist()
        return [origins[a:b] for a, b in itertools.pairwise(bounds)]


def _children(parent: np.ndarray, scope: np.ndarray) -> tuple[np.ndarray, ...]:
    """The children of every node, grouped by ``parent`` (CSR): order, start, count (0 for a
    node out of ``scope``)."""
    n = parent.shape[0]
    kids = np.flatnonzero(parent >= 0)
    order = kids[np.argsort(parent[kids], kind="stable")]
    counts = np.bincount(parent[kids], minlength=n) if n else np.zeros(0, np.int64)
    start = np.concatenate(([0], np.cumsum(counts)[:-1])) if n else counts
    return order, start, np.where(scope, counts, 0)


def _kids_of(
    level: Level, order: np.ndarray, start: np.ndarray, count: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The children (by a CSR) of every pair's node reached, and the pair's row for each."""
    counts = count[level.at]
    total = int(counts.sum())
    offsets = np.repeat(start[level.at] - np.cumsum(counts) + counts, counts)
    return order[offsets + np.arange(total)], np.repeat(level.row, counts)


def _group(rows: np.ndarray, origin: np.ndarray, at: np.ndarray, code: np.ndarray) -> Level:
    """Merge pairs by (their row, the name reached): the rows of the next level."""
    span = int(code.max()) + 1 if code.size else 1
    unique, inverse = np.unique(rows.astype(np.int64) * span + code, return_inverse=True)
    return Level(
        parent_row=unique // span,
        name=unique % span,
        row=np.asarray(inverse, dtype=np.int64).reshape(-1),
        origin=origin,
        at=at,
    )


def _only(level: Level, row: int) -> Level:
    """The level cut down to one of its rows (renumbered 0)."""
    keep = level.row == row
    return Level(
        parent_row=np.array([level.parent_row[row]]),
        name=np.array([level.name[row]]),
        row=np.zeros(int(keep.sum()), np.int64),
        origin=level.origin[keep],
        at=level.at[keep],
    )


def merged_frame(
    trees: MergedTrees, start: Level, direction: Direction, depth: int | None
) -> pd.DataFrame:
    """The merged tree below ``start`` as a DataFrame, one row per merged path in breadth-first
    order: ``path`` (names from the first level down), every metric, ``contexts`` and ``ids``."""
    frames = []
    level, levels = start, 0
    parents: list[tuple[str, ...]] = [()]
    names = trees.names
    while level.size and (depth is None or levels <= depth):
        paths = [
            (*parents[p], names[c])
            for p, c in zip(level.parent_row.tolist(), level.name, strict=True)
        ]
        frame = pd.DataFrame({"path": paths})
        for metric in trees.table.metrics:
            frame[metric] = trees.values(level, metric)
        frame["contexts"] = trees.contexts(level)
        frame["ids"] = trees.ids(level)
        frames.append(frame)
        parents, levels = paths, levels + 1
        level = trees.step(level, direction)
    if not frames:
        return pd.DataFrame(columns=["path", *trees.table.metrics, "contexts", "ids"])
    return pd.concat(frames, ignore_index=True)
