"""What the readers of profiles stored as SQLite databases (Nsight Systems' ``nsys export
--type sqlite``; rocprofv3's rocpd, once a reader of it exists) share: the file opened
read-only through the standard library's :mod:`sqlite3` (never written, never made), its tables
and columns checked with errors that name what was found and what is needed, and text that is
not UTF-8 replaced and counted.

A file is opened as an ``file:…?mode=ro`` URI with ``immutable=1`` (no lock files, no journal
replayed), so reading a profile leaves it byte for byte as it was."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from cctviz.adapters.formats.source import FormatError
from cctviz.adapters.formats.untrusted import Repairs

MAGIC = b"SQLite format 3\x00"
SHOWN = 25  # table names a message lists at most


def is_sqlite(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes) starts with SQLite's magic string."""
    return head.startswith(MAGIC)


def _uri(path: Path) -> str:
    return f"file:{quote(str(Path(path).resolve()))}?mode=ro&immutable=1"


def tables_of(path: Path) -> set[str]:
    """The names of ``path``'s tables and views (empty when it is no readable SQLite file)."""
    try:
        with connected(path, None) as db:
            return tables(db)
    except (FormatError, sqlite3.Error, OSError):
        return set()


@contextmanager
def connected(path: Path, repairs: Repairs | None, what: str = "") -> Iterator[sqlite3.Connection]:
    """``path`` opened read-only; a file that is not SQLite (or is damaged) is a
    :class:`FormatError` saying so and what is needed (``what``). Text that is not UTF-8 is
    replaced (U+FFFD) and counted in ``repairs``."""
    path = Path(path)
    with open(path, "rb") as f:
        first = f.read(len(MAGIC))
    if not is_sqlite(first):
        raise FormatError(
            f"{path}: not an SQLite database (it starts with {first[:16]!r}, not "
            f"{MAGIC!r}); {what or 'an SQLite database'} is needed"
        )
    db = sqlite3.connect(_uri(path), uri=True)

    def text(raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            if repairs is not None:
                repairs.add("texts that were not UTF-8, with U+FFFD for the bad bytes")
            return raw.decode("utf-8", "replace")

    db.text_factory = text
    try:
        yield db
    except sqlite3.DatabaseError as error:
        raise FormatError(
            f"{path}: the SQLite database cannot be read ({error}: damaged or cut short?); "
            f"{what or 'an SQLite database'} is needed"
        ) from None
    finally:
        db.close()


def tables(db: sqlite3.Connection) -> set[str]:
    """The names of the database's tables and views."""
    rows = db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    return {str(name) for (name,) in rows}


def columns(db: sqlite3.Connection, table: str) -> set[str]:
    """The column names of ``table`` (which must be one of :func:`tables`)."""
    return {str(row[1]) for row in db.execute(f'PRAGMA table_info("{table}")')}


def listed(names: Iterable[str]) -> str:
    """Names for a message: sorted, at most :data:`SHOWN` of them, the rest counted."""
    names = sorted(names)
    more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return (", ".join(names[:SHOWN]) or "none") + more


def need(path: Path, found: set[str], needed: Iterable[str], what: str) -> None:
    """A :class:`FormatError` naming the tables found and those missing unless every one of
    ``needed`` is in ``found``."""
    missing = [n for n in needed if n not in found]
    if missing:
        raise FormatError(
            f"{path}: the SQLite database has no table {listed(missing)}; it holds "
            f"{listed(found)}; {what} is needed"
        )


def need_columns(db: sqlite3.Connection, path: Path, table: str, needed: Iterable[str]) -> None:
    """A :class:`FormatError` naming ``table``'s missing columns unless it has all of
    ``needed``."""
    have = columns(db, table)
    missing = [c for c in needed if c not in have]
    if missing:
        raise FormatError(
            f"{path}: table {table} has no column {listed(missing)} (it has {listed(have)})"
        )


__all__ = [
    "MAGIC",
    "columns",
    "connected",
    "is_sqlite",
    "listed",
    "need",
    "need_columns",
    "tables",
    "tables_of",
]
