"""What the table pane's requests ask for: a request checked, the merged rows below a row of the
functions, callers or callees table (a function's loops and lines among them), the node ids a
row stands for, and the small helpers the pane's answers are made with."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..analysis.merged import Direction, Level, MergedTrees
from ..core.table import NodeTable

MODES = ("contexts", "functions", "callers", "callees")
"""What a ``rows`` request asks for (the sandwich's halves are ``callers`` and ``callees``)."""


class Request(NamedTuple):
    mode: str
    path: list[str]  # names from the first level down to the row
    node: int | None  # contexts: the row's node id
    part: int  # how many of the path's last names are loops or lines of path[0]


class Rows(NamedTuple):
    level: Level
    more: np.ndarray  # per row: it has child rows
    part: bool  # the rows are loops or lines of the row above


def request(content: dict[str, Any]) -> Request:
    """A request's fields, checked: a ValueError says what is wrong."""
    mode = content.get("mode")
    if mode not in MODES:
        raise ValueError(f"unknown table mode {mode!r}; accepted: {', '.join(map(repr, MODES))}")
    path = content.get("path") or []
    if not isinstance(path, list) or not all(isinstance(p, str) for p in path):
        raise ValueError(f"a row's path is a list of function names; got {path!r}")
    node = content.get("node")
    if node is not None and (isinstance(node, bool) or not isinstance(node, int)):
        raise ValueError(f"a row's node is a node id; got {node!r}")
    part = content.get("part") or 0
    if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part < max(len(path), 1):
        raise ValueError(f"a row's part counts the loops and lines ending its path; got {part!r}")
    if part and (mode not in ("functions", "callers") or len(path) != part + 1):
        raise ValueError("loops and lines are rows below a function (functions or callers table)")
    return Request(mode, path, node, part)


def merged_rows(trees: MergedTrees, req: Request, itself: bool) -> list[Rows]:
    """The rows below ``req.path``: every function (callers or functions with no path), a
    function alone (``itself``: the sandwich's halves), or a row's children (a function's
    callers, or callees, and its loops and lines; a loop's loops and lines)."""
    mode, path = req.mode, req.path
    if itself:
        if len(path) != 1 or mode not in ("callers", "callees"):
            raise ValueError("a row by itself is asked for one function: path [name]")
        level = trees.function(path[0], direction(mode))
        return [Rows(level, trees.has_more(level, direction(mode)), False)]
    if mode in ("functions", "callers") and not path:
        top = trees.functions()
        more = trees.has_parts(top)
        if mode == "callers":
            more |= trees.has_more(top, "callers")
        return [Rows(top, more, False)]
    out = []
    if req.part or (len(path) == 1 and mode in ("functions", "callers")):
        parts = trees.parts(trees.within(path[0], path[1:]))
        out.append(Rows(parts, trees.has_parts(parts), True))
        if req.part or mode == "functions":
            return out
    elif mode == "functions":
        raise ValueError("a function's rows below it are its loops and lines: path [name]")
    if mode == "callees" and not path:
        raise ValueError("callees rows need the function's path, e.g. ['main']")
    way = direction(mode)
    level = trees.follow(trees.function(path[0], way), path, way)
    return [Rows(level, trees.has_more(level, way), False), *out]


def pick_ids(trees: MergedTrees, req: Request) -> list[int]:
    """The node ids a merged row stands for: the contexts it merges."""
    mode, path = req.mode, req.path
    if not path:
        raise ValueError(f"pick in the {mode} table needs the row's path of names")
    if req.part:
        return sorted(set(trees.within(path[0], path[1:]).origin.tolist()))
    way = direction(mode)
    start = trees.function(path[0], way)
    if mode == "functions" or len(path) == 1:
        return sorted(set(start.origin.tolist()))
    above = trees.follow(start, path[:-1], way)
    rows = np.flatnonzero(above.name == trees.code_of(path[-1]))
    if rows.size == 0:
        raise ValueError(f"no row {' → '.join(path)} in the {mode} table")
    return sorted(set(above.origin[above.row == rows[0]].tolist()))


def direction(mode: str) -> Direction:
    return "callees" if mode == "callees" else "callers"


def check_node(table: NodeTable, node: int) -> None:
    if not 0 <= node < table.size:
        raise ValueError(f"no node {node}: ids run from 0 to {table.size - 1}")


def tops(trees: MergedTrees) -> np.ndarray:
    """The topmost nodes of the scope (the focus, or the visible roots)."""
    parent = trees.table.parent
    inside = trees.scope
    top = inside & ((parent < 0) | ~inside[np.maximum(parent, 0)])
    return np.flatnonzero(top)


def as_json(values: np.ndarray) -> list[float | None]:
    """Numbers for JSON: NaN and infinities become null (missing)."""
    return [None if not np.isfinite(v) else float(v) for v in values.tolist()]


WHERE_COLUMNS = ("module", "file")
"""Dataframe columns that say where a function's code is, in order of preference."""


def where_of(table: NodeTable, data: Any) -> list[str | None] | None:
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
