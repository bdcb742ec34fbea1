"""The table pane's half in Python: the rows of its modes (calling contexts, functions, callers,
sandwich) within the view's scope, the callers and callees of a function as pandas, and the
pane's requests (``rows``, ``pick``, ``locate`` messages, each answered by a ``reply``)."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

import numpy as np
import traitlets as t

from ..contract import MESSAGES
from ..merged import Direction, Level, MergedTrees, merged_frame
from ..table import NodeTable

if TYPE_CHECKING:
    import pandas as pd

    from .. import selection as sel

ROWS, PICK, LOCATE = "rows", "pick", "locate"
for _kind in (ROWS, PICK, LOCATE):
    if _kind not in MESSAGES:
        raise KeyError(f"message kind {_kind!r} is not in cctviz/contract.json")

MODES = ("contexts", "functions", "callers", "callees")
"""What a ``rows`` request asks for (the sandwich's halves are ``callers`` and ``callees``)."""


class TablePane(t.HasTraits):
    """The table pane's half of ``CCT`` (a mixin: ``CCT`` holds the traits and the data)."""

    _table: NodeTable
    _data: Any
    focused: int | None
    visible_roots: tuple[int, ...] | None
    selection: tuple[int, ...]
    color_by: str
    table_mode: str
    sandwich: str

    if TYPE_CHECKING:

        def _resolver(self) -> sel.Resolver: ...
        def send(self, content: dict[str, Any], buffers: Any = None) -> None: ...

    # -- Python --------------------------------------------------------------------------------
    def callers(self, function: str, depth: int | None = None) -> pd.DataFrame:
        """The callers of ``function`` merged by name (the upper half of the sandwich): one row
        per call path up from it, ``path`` = (function, its caller, the caller's caller, ...),
        every metric summed over the contexts of ``function`` on that path (inclusive ones once
        under recursion), ``contexts`` and their ``ids``. Limited to the focused subtree."""
        trees = self._merged()
        return merged_frame(trees, trees.function(function, "callers"), "callers", depth)

    def callees(self, function: str, depth: int | None = None) -> pd.DataFrame:
        """What ``function`` calls, merged across all its contexts (the lower half of the
        sandwich): one row per call path down from it (from its outermost occurrence on each
        path), ``path`` = (function, callee, ...), every metric summed, ``contexts``, ``ids``."""
        trees = self._merged()
        return merged_frame(trees, trees.function(function, "callees"), "callees", depth)

    @t.validate("sandwich")
    def _valid_sandwich(self, proposal: t.Bunch) -> str:
        name = proposal["value"]
        if name and name not in self._table.names:
            close = difflib.get_close_matches(name, self._table.names, n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise t.TraitError(f"sandwich: no function named {name!r} in this profile{hint}")
        return str(name)

    @t.observe("sandwich")
    def _show_sandwich(self, change: t.Bunch) -> None:
        if change["new"] and self.table_mode != "sandwich":
            self.table_mode = "sandwich"

    @t.observe("table_mode")
    def _sandwich_of_selection(self, change: t.Bunch) -> None:
        # the sandwich with no function named shows the selected node's function
        if change["new"] == "sandwich" and not self.sandwich and self.selection:
            self.sandwich = self._table.name(int(self.selection[0]))

    # -- the scope ------------------------------------------------------------------------------
    def _scope(self) -> np.ndarray | None:
        """The nodes the pane takes into account: the focused subtree, the visible roots' trees."""
        table = self._table
        if self.focused is None and self.visible_roots is None:
            return None
        scope = np.zeros(table.size, dtype=bool)
        starts = [self.focused] if self.focused is not None else list(self.visible_roots or ())
        trees = self._merged_cache(None)
        for start in starts:
            scope[start : trees.end[start] + 1] = True
        return scope

    def _merged_cache(self, key: Any) -> MergedTrees:
        cache: dict[Any, MergedTrees] = self.__dict__.setdefault("_merged_trees", {})
        table_key = (id(self._table), key)
        if table_key not in cache:
            if len(cache) > 4:
                cache.clear()
            scope = None if key is None else self._scope()
            cache[table_key] = MergedTrees(self._table, scope)
        return cache[table_key]

    def _merged(self) -> MergedTrees:
        key = (
            None
            if self.focused is None and self.visible_roots is None
            else (
                self.focused,
                self.visible_roots,
            )
        )
        return self._merged_cache(key)

    def _where(self, ids: np.ndarray) -> list[str | None]:
        """Where each node's code is: its module (or file) without the directories, from the
        node's first dataframe row; None where the profile does not say."""
        key = ("_where", id(self._table))
        cached = self.__dict__.get("_where_cache")
        if cached is None or cached[0] != key:
            cached = (key, _where_of(self._table, self._data))
            self.__dict__["_where_cache"] = cached
        where: list[str | None] | None = cached[1]
        if where is None:
            return [None] * len(ids)
        return [where[int(i)] for i in ids]

    def _columns(self) -> list[str]:
        """The pane's value columns: the colour metric's exclusive and inclusive pair."""
        metric = self._table.metric(self.color_by)
        if metric.kind == "exclusive":
            return [metric.name, *([metric.partner] if metric.partner else [])]
        if metric.kind == "inclusive":
            return [*([metric.partner] if metric.partner else []), metric.name]
        return [metric.name]

    # -- requests ------------------------------------------------------------------------------
    def _rows(self, content: dict[str, Any]) -> dict[str, Any]:
        mode, path, node = _request(content)
        columns = self._columns()
        table, trees = self._table, self._merged()
        if mode == "contexts":
            if node is None:
                ids = np.flatnonzero(table.parent < 0) if trees.scope.all() else _tops(trees)
            else:
                _check_node(table, node)
                ids = trees.child_order[
                    trees.child_start[node] : trees.child_start[node] + trees.child_count[node]
                ]
            return {
                "columns": columns,
                "where": self._where(ids),
                "label": [table.name(int(i)) for i in ids],
                "values": [_json(table.metrics[c].values[ids]) for c in columns],
                "count": [1] * len(ids),
                "node": ids.tolist(),
                "more": (trees.child_count[ids] > 0).tolist(),
            }
        level = self._level(trees, mode, path, content.get("itself") is True)
        _, first = np.unique(level.row, return_index=True)
        return {
            "columns": columns,
            "where": self._where(level.at[first]),
            "label": [table.names[c] for c in level.name],
            "values": [_json(trees.values(level, c)) for c in columns],
            "count": trees.contexts(level).tolist(),
            "node": [-1] * level.size,
            "more": trees.has_more(level, _direction(mode)).tolist()
            if mode != "functions"
            else [False] * level.size,
        }

    def _level(self, trees: MergedTrees, mode: str, path: list[str], itself: bool) -> Level:
        """The rows below ``path``: every function (callers or functions with no path), a
        function alone (``itself``: the sandwich's halves), or a row's children."""
        if itself:
            if len(path) != 1 or mode not in ("callers", "callees"):
                raise ValueError("a row by itself is asked for one function: path [name]")
            return trees.function(path[0], _direction(mode))
        if mode in ("functions", "callers") and not path:
            return trees.functions()
        if mode == "functions":
            raise ValueError("the functions table has no child rows")
        direction = _direction(mode)
        if mode == "callees" and not path:
            raise ValueError("callees rows need the function's path, e.g. ['main']")
        start = trees.function(path[0], direction)
        return trees.follow(start, path, direction)

    def _pick_ids(self, content: dict[str, Any]) -> list[int]:
        """The node ids a row stands for: its context, or the contexts it merges."""
        mode, path, node = _request(content)
        if mode == "contexts":
            if node is None:
                raise ValueError("pick in the contexts table needs a node id")
            _check_node(self._table, node)
            return [node]
        if not path:
            raise ValueError(f"pick in the {mode} table needs the row's path of names")
        trees = self._merged()
        direction = _direction(mode)
        start = trees.function(path[0], direction)
        if mode == "functions" or len(path) == 1:
            return sorted(set(start.origin.tolist()))
        above = trees.follow(start, path[:-1], direction)
        rows = np.flatnonzero(above.name == trees.code_of(path[-1]))
        if rows.size == 0:
            raise ValueError(f"no row {' → '.join(path)} in the {mode} table")
        return sorted(set(above.origin[above.row == rows[0]].tolist()))

    def _locate(self, content: dict[str, Any]) -> dict[str, Any]:
        """For nodes the tree selected: their names and their paths of ids from their root."""
        ids = content.get("nodes")
        if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
            raise ValueError(f"locate needs a list of node ids; got {ids!r}")
        table = self._table
        paths = []
        for i in ids[:100]:
            _check_node(table, i)
            chain = []
            j = i
            while j >= 0:
                chain.append(j)
                j = int(table.parent[j])
            paths.append(chain[::-1])
        return {"names": [table.name(i) for i in ids[:100]], "paths": paths}

    def _on_pane_command(self, _widget: Any, content: Any, _buffers: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind not in (ROWS, PICK, LOCATE):
            return
        reply: dict[str, Any] = {"type": "reply", "id": content.get("id")}
        try:
            if kind == ROWS:
                reply.update(ok=True, rows=self._rows(content))
            elif kind == LOCATE:
                reply.update(ok=True, located=self._locate(content))
            else:
                ids = self._pick_ids(content)
                kept = list(self.selection) if content.get("add") else []
                self.selection = tuple(dict.fromkeys([*kept, *ids]))
                reply.update(ok=True, picked=len(ids))
        except (ValueError, KeyError) as error:
            reply.update(ok=False, error=str(error))
        self.send(reply)


WHERE_COLUMNS = ("module", "file")
"""Dataframe columns that say where a function's code is, in order of preference."""


def _where_of(table: NodeTable, data: Any) -> list[str | None] | None:
    """Each node's module (or file) name without its directories, or None if the profile has
    neither column with a useful value ("<unknown file>" is not one)."""
    df = getattr(data, "dataframe", None)
    if df is None:
        return None
    for column in WHERE_COLUMNS:
        if column not in df.columns:
            continue
        values = df[column].to_numpy(dtype=object)
        out: list[str | None] = [None] * table.size
        for i, row in enumerate(table.first_row.tolist()):
            value = values[row] if row >= 0 else None
            if isinstance(value, str) and value and not value.startswith("<unknown"):
                out[i] = value.rstrip("/").rsplit("/", 1)[-1]
        if any(out):
            return out
    return None


def _request(content: dict[str, Any]) -> tuple[str, list[str], int | None]:
    mode = content.get("mode")
    if mode not in MODES:
        raise ValueError(f"unknown table mode {mode!r}; accepted: {', '.join(map(repr, MODES))}")
    path = content.get("path") or []
    if not isinstance(path, list) or not all(isinstance(p, str) for p in path):
        raise ValueError(f"a row's path is a list of function names; got {path!r}")
    node = content.get("node")
    if node is not None and (isinstance(node, bool) or not isinstance(node, int)):
        raise ValueError(f"a row's node is a node id; got {node!r}")
    return mode, path, node


def _direction(mode: str) -> Direction:
    return "callees" if mode == "callees" else "callers"


def _check_node(table: NodeTable, node: int) -> None:
    if not 0 <= node < table.size:
        raise ValueError(f"no node {node}: ids run from 0 to {table.size - 1}")


def _tops(trees: MergedTrees) -> np.ndarray:
    """The topmost nodes of the scope (the focus, or the visible roots)."""
    parent = trees.table.parent
    inside = trees.scope
    top = inside & ((parent < 0) | ~inside[np.maximum(parent, 0)])
    return np.flatnonzero(top)


def _json(values: np.ndarray) -> list[float | None]:
    """Numbers for JSON: NaN and infinities become null (missing)."""
    return [None if not np.isfinite(v) else float(v) for v in values.tolist()]
