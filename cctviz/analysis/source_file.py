"""Where a node's source is, and its text: the file and line the profile records for a node, the
paths that file may be found at (an HPCToolkit database's ``src/`` copy, folders the user names,
the path as recorded), and a file read as text with a bound.

What the readers record: Hatchet's HPCToolkit XML reader has ``file`` and ``line`` columns (a
procedure's file and first line, a statement's line; ``./src/...`` names the database's copy,
``<unknown file>`` none); UMD's v4 reader also, and loops carry them in their frame; LLNL's v4
reader only names its lines and loops ``line /path/cpi.c:62``. A call site is in the callee's
name (``27:MPI_Init``, Hatchet's XML reader): the line before the colon, in the caller's file
(:func:`call_sites`). A procedure that records no file
of its own takes that of its first statement. A file is only ever read, never run: text with
undecodable bytes replaced, at most ``MAX_BYTES`` of it, and a file with NUL bytes is refused
as not text. File names and text are text for the caller to show as text, never markup.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.table import NodeTable
from .lexical import lexical

MAX_BYTES = 4 * 1024 * 1024
"""At most this much of a source file is read (a larger one is cut: its later lines not shown)."""
MAX_LINE = 2000
"""A line longer than this many characters is cut (with an ellipsis)."""
DATABASE_FILES = ("experiment.xml", "meta.db")
"""A folder holding one of these is an HPCToolkit database (its sources are copied into src/)."""
STATEMENTS = frozenset({"S", "statement", "line"})
"""Node types of source lines (HPCToolkit statements; the v4 readers' lines)."""
_NAMED = re.compile(r"^(?:line|loop)\s+(.+):(\d+)$")
_CALL_SITE = re.compile(r"^(\d{1,9}):\S")


class SourceError(ValueError):
    """A node's source cannot be shown: what was wrong, and what was looked for."""


class SourceNotFoundError(SourceError):
    """The node's file is at none of the paths tried (``tried`` lists them, in order)."""

    def __init__(self, message: str, tried: list[str]) -> None:
        super().__init__(message)
        self.tried = tried


@dataclass(frozen=True)
class Recorded:
    """The file and line a profile records for a node."""

    file: str
    line: int | None  # None: no line (0 in the profile)


def _file(value: Any) -> str | None:
    """A recorded file name, or None for what names none (``<unknown file>``, ``[libc.so]``)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not text or text.startswith(("<unknown", "[")) or text == "None":
        return None
    return text


def _line(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number > 0 else None


def _own(table: NodeTable, data: Any, node: int) -> Recorded | None:
    """What the profile records for ``node`` itself: dataframe columns, frame, name."""
    df = getattr(data, "dataframe", None)
    row = int(table.first_row[node]) if node < table.first_row.shape[0] else -1
    if df is not None and row >= 0 and "file" in df.columns:
        found = _file(df["file"].iat[row])
        if found is not None:
            line = df["line"].iat[row] if "line" in df.columns else None
            return Recorded(found, _line(line))
    frame = getattr(table.nodes[node], "frame", None)
    attrs = getattr(frame, "attrs", None)
    if isinstance(attrs, dict) and _file(attrs.get("file")) is not None:
        return Recorded(str(_file(attrs.get("file"))), _line(attrs.get("line")))
    named = _NAMED.match(table.name(node))
    if named and _file(named.group(1)) is not None:
        return Recorded(named.group(1), _line(named.group(2)))
    return None


def recorded(table: NodeTable, data: Any, node: int) -> Recorded | None:
    """The file and line of ``node``: its own, else (a procedure recording none) the file of
    its first statement, at the first line its statements have in that file."""
    own = _own(table, data, node)
    if own is not None:
        return own
    found = [r for r in (_own(table, data, i) for i in line_nodes(table, node).tolist()) if r]
    if not found:
        return None
    numbers = [r.line for r in found if r.file == found[0].file and r.line is not None]
    return Recorded(found[0].file, min(numbers) if numbers else None)


def line_nodes(table: NodeTable, node: int) -> np.ndarray:
    """The statements (source lines) of the procedure ``node`` belongs to (itself, or the
    procedure owning it when it is a loop or a statement), in tree order."""
    lex = lexical(table)
    owner = int(lex.owner[node])
    kinds = np.array([t in STATEMENTS for t in table.types], dtype=bool)
    if not kinds.any():
        return np.empty(0, dtype=np.int64)
    return np.flatnonzero((lex.owner == owner) & lex.part & kinds[table.type_code])


def call_sites(table: NodeTable, node: int) -> list[tuple[int, int]]:
    """The calls the procedure ``node`` belongs to makes, as ``(callee, line)``: its callees (the
    children of it and of its loops and statements) whose name starts with the call site's line
    and a colon (``27:MPI_Init``, as Hatchet's HPCToolkit XML reader names them); the line is
    in the caller's file. A name such as ``<unknown file>:0`` (a statement) is none."""
    lex = lexical(table)
    owner = int(lex.owner[node])
    callers = np.flatnonzero(lex.owner == owner)  # the procedure, its loops and statements
    out: list[tuple[int, int]] = []
    for i in np.flatnonzero(np.isin(table.parent, callers) & ~lex.part).tolist():
        site = _CALL_SITE.match(table.name(i))
        if site is not None and int(site.group(1)) > 0 and int(lex.owner[i]) != owner:
            out.append((i, int(site.group(1))))
    return out


def is_database(folder: Path) -> bool:
    """Whether ``folder`` is an HPCToolkit database."""
    return any((folder / name).is_file() for name in DATABASE_FILES)


def candidates(file: str, databases: list[Path], folders: list[Path]) -> list[tuple[Path, str]]:
    """The paths ``file`` (as recorded) may be at, in the order they are tried, each with where
    it comes from: each database's ``src/`` copy, then each folder (the recorded path's longest
    tail first), then the path as recorded."""
    norm = posixpath.normpath(file.replace("\\", "/"))
    copied = file.startswith(("./src/", "src/"))
    out: list[tuple[Path, str]] = []
    for db in databases:
        inside = norm if copied else posixpath.join("src", norm.lstrip("/"))
        out.append((db / inside, f"the database's src/ copy ({db})"))
    parts = [p for p in norm.split("/") if p not in ("", ".")]
    if copied:
        parts = parts[1:]  # ./src/ is the database's copy, not part of the original path
    for folder in folders:
        for k in range(len(parts)):
            out.append((folder.joinpath(*parts[k:]), f"source_paths ({folder})"))
    out.append((Path(file), "the path as recorded"))
    first: dict[Path, str] = {}
    for path, how in out:
        first.setdefault(path, how)
    return list(first.items())


def read_lines(path: Path) -> tuple[list[str], bool]:
    """The lines of the text file ``path`` (at most ``MAX_BYTES`` read: whether it was cut),
    undecodable bytes replaced; a file with NUL bytes is a ``SourceError`` (not text)."""
    bound = MAX_BYTES
    with path.open("rb") as f:
        raw = f.read(bound + 1)
    truncated = len(raw) > bound
    if b"\0" in raw[:8192]:
        raise SourceError(f"{path} is not a text file (it has NUL bytes): not shown")
    text = raw[:bound].decode("utf-8", errors="replace")
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if truncated:
        lines = lines[:-1]  # the last one read is cut short
    elif lines and lines[-1] == "":
        lines.pop()  # the newline ending the file
    return [line if len(line) <= MAX_LINE else line[:MAX_LINE] + "…" for line in lines], truncated
