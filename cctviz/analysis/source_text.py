"""A node's source beside the tree: the text of its file around its line (``w.source_text``),
with the value of each line the profile measures (HPCToolkit's statements of the node's
procedure), as hpcviewer's source pane shows them. Finding and reading the file:
``source_file.py``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.table import NodeTable
from ..core.units import column_format
from . import source_file
from .lexical import lexical
from .source_file import (
    SourceError,
    SourceNotFoundError,
    call_sites,
    candidates,
    is_database,
    line_nodes,
    read_lines,
    recorded,
)

__all__ = ["SourceError", "SourceNotFoundError", "SourceText", "line_values", "source_text"]

MAX_CONTEXT = 200
"""At most this many lines around a node's line."""


@dataclass(frozen=True)
class SourceText:
    """A node's source: the lines ``first`` .. ``first + len(lines) - 1`` of ``path``, the
    node's ``line`` among them (None: the profile records no line: the file's first lines),
    and per line shown the value of ``metric`` of the statements on it (``values``, None where
    the profile measures none). Names and text are plain text."""

    node: int
    name: str
    path: str
    """The file read."""
    recorded: str
    """The file as the profile records it."""
    how: str
    """Where ``path`` came from: the database's src/ copy, ``source_paths``, as recorded."""
    line: int | None
    first: int
    lines: tuple[str, ...]
    values: tuple[float | None, ...]
    metric: str
    truncated: bool
    """The file is larger than what is read (``source_file.MAX_BYTES``)."""
    unit: str | None = None
    """The unit of ``metric`` (``w.units``): the listing prints values with it and one prefix."""

    def __str__(self) -> str:
        """The lines numbered, the node's marked ``>``, with the measured values."""
        width = len(str(self.first + len(self.lines)))
        shown_as = column_format([v for v in self.values if v is not None], self.unit)
        out = [f"{self.path} (node {self.node}: {self.name}; {self.metric} per line)"]
        for k, (text, value) in enumerate(zip(self.lines, self.values, strict=True)):
            number = self.first + k
            mark = ">" if number == self.line else " "
            shown = "" if value is None else shown_as(value)
            out.append(f"{mark}{number:>{width}} {shown:>12} | {text}")
        return "\n".join(out)

    def to_json(self) -> dict[str, Any]:
        """The ``source`` of the page's reply (``cctviz/contract.json``)."""
        return {
            "path": self.path,
            "recorded": self.recorded,
            "first": self.first,
            "line": self.line,
            "lines": list(self.lines),
            "values": list(self.values),
            "metric": self.metric,
            "how": self.how,
            "truncated": self.truncated,
        }


def line_values(
    table: NodeTable,
    data: Any,
    node: int,
    file: str,
    values: np.ndarray,
    inclusive: np.ndarray | None = None,
) -> dict[int, float]:
    """The value (of ``values``, one per node) of each line of ``file`` in the procedure of
    ``node``: its statements on that line and, as hpcviewer shows a call site, the value of
    ``inclusive`` (default ``values``) of each callee called from that line (in the procedure's
    file: ``source_file.call_sites``), added up (NaN ones skipped; none: left out)."""
    out: dict[int, float] = {}
    for i in line_nodes(table, node).tolist():
        where = recorded(table, data, i)
        value = float(values[i])
        if where is None or where.file != file or where.line is None or value != value:
            continue
        out[where.line] = out.get(where.line, 0.0) + value
    caller = recorded(table, data, int(lexical(table).owner[node]))
    if caller is None or caller.file != file:
        return out
    called = values if inclusive is None else inclusive
    for callee, line in call_sites(table, node):
        value = float(called[callee])
        if value == value:
            out[line] = out.get(line, 0.0) + value
    return out


def _inclusive(table: NodeTable, metric: str) -> np.ndarray:
    """The values a call site shows of ``metric``: its inclusive partner's for an exclusive
    metric (a call's cost is all its callee costs), else its own."""
    m = table.metric(metric)
    partner = table.metrics.get(m.partner) if m.partner else None
    if m.kind == "exclusive" and partner is not None and partner.kind == "inclusive":
        return partner.values
    return m.values


def source_text(
    table: NodeTable,
    data: Any,
    node: int,
    metric: str,
    *,
    context: int = 5,
    databases: list[Path] | None = None,
    folders: list[Path] | None = None,
    unit: str | None = None,
) -> SourceText:
    """The source of node ``node``: ``context`` lines before and after its line (see
    ``SourceText``). A ``SourceError`` when the profile records no file for it or the file is
    not text; a ``SourceNotFoundError`` lists every path tried. ``unit``: ``metric``'s, for
    the listing."""
    if not 0 <= node < table.size:
        raise SourceError(f"no node {node}: ids run from 0 to {table.size - 1}")
    if isinstance(context, bool) or not isinstance(context, int) or not 0 <= context <= MAX_CONTEXT:
        raise SourceError(f"context is a number of lines from 0 to {MAX_CONTEXT}; got {context!r}")
    name = table.name(node)
    where = recorded(table, data, node)
    if where is None:
        raise SourceError(
            f"node {node} ({name!r}) has no source file in the profile (its file is unknown, "
            "as for a library without debug information, or the format records none)"
        )
    folders = list(folders or [])
    dbs = [*(databases or []), *(f for f in folders if is_database(f))]
    paths = candidates(where.file, dbs, folders)
    found = next((k for k, (path, _) in enumerate(paths) if path.is_file()), None)  # regular
    if found is None:  # never a folder, a device or a pipe: is_file is a regular file's
        tried = [str(p) for p, _ in paths]
        listed = "\n  ".join(tried)
        raise SourceNotFoundError(
            f"the source of node {node} ({name!r}), {where.file!r}, is not at any path tried "
            f"(set w.source_paths to folders that hold it):\n  {listed}",
            tried,
        )
    path, how = paths[found]
    lines, truncated = read_lines(path)
    at = where.line
    if at is not None and at > len(lines):
        cut = f" (the file is cut at its first {source_file.MAX_BYTES} bytes)" if truncated else ""
        raise SourceError(f"{path} has {len(lines)} lines{cut}; node {node} is at line {at}")
    centre = at if at is not None else 1
    first = max(1, centre - context)
    last = min(len(lines), centre + context)
    values = table.metric(metric).values
    measured = line_values(table, data, node, where.file, values, _inclusive(table, metric))
    return SourceText(
        node=node,
        name=name,
        path=str(path),
        recorded=where.file,
        how=how,
        line=at,
        first=first,
        lines=tuple(lines[first - 1 : last]),
        values=tuple(measured.get(n) for n in range(first, last + 1)),
        metric=metric,
        truncated=truncated,
        unit=unit,
    )
