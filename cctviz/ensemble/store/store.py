"""The store on disk: a folder of six Delta Lake tables (Parquet files underneath, a transaction
log beside them, read and written with ``deltalake``, delta-rs: atomic commits by a rename that
never replaces, on a local or shared file system, no server, no JVM). Every row carries the
``batch`` of the ``add`` that wrote it, and each table is partitioned by it.

- ``nodes``: one row per calling context (``key``, ``parent``, ``name``, ``file``, ``line``,
  ``module``, ``type``, ``frame`` as canonical JSON);
- ``values``: one row per (``profile``, ``key``) with the node's ``parent`` key and every
  numeric metric;
- ``profiles``: one row per profile: ``profile``, ``hash``, ``source``, ``nodes`` and every
  metadata value;
- ``ranks``: when asked at ingest, one row per (``profile``, ``key``, ``rank``[, ``thread``])
  with the measured metrics (``values`` holds the nodes reduced over ranks);
- ``metrics``: one row per metric and batch: ``metric``, ``kind``, ``partner``;
- ``sums``: per write of the values, one row per (``key``, ``metric``): ``count``, ``sum``,
  ``m2``, ``min``, ``max`` (cctviz.ensemble.store.summary: what a mean or a std reads instead of
  every value).

**The profiles table is the commit point.** An ``add`` writes its nodes, metrics, values (with
their summaries) and ranks first (each a Delta commit of its own), then its profile rows in one
last commit (cctviz.ensemble.store.commit). A reader takes the profiles table at one version
(``Snapshot``): the batches it holds are the committed ones, and only the other tables' files of
those batches are read. So a killed ``add`` (before or during its last commit) leaves files no
reader counts, and the store answers exactly as before it; ``ens.repair()`` removes them. The
store's version is the profiles table's: ``Ensemble(path, version=N)`` reads the store as it was at
that commit.
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

TABLES = ("nodes", "values", "profiles", "metrics", "ranks", "sums")
VERSION = 2  # the store's format: 1 was folders of Parquet parts (cctviz.ensemble.store.migrate)
FORMAT: dict[str, Any] = {"format": "cctviz-ensemble", "version": VERSION, "tables": "delta"}
MARKER = "cctviz-ensemble.json"
BATCH = "batch"  # the column (and partition) naming the add that wrote a row


class StoreError(ValueError):
    """The folder is not an ensemble store cctviz can use, or a file of it is damaged."""


def damaged(what: str, why: str) -> StoreError:
    """The error of a damaged part of the store: what, why, and how to recover."""
    return StoreError(
        f"{what} is damaged ({why}). ens.verify() lists what is damaged; ens.repair() drops it "
        "and the profiles that need it, which can then be added again"
    )


def read_marker(marker: Path) -> dict[str, Any]:
    try:
        found = json.loads(marker.read_text())
    except (OSError, ValueError) as error:
        raise StoreError(f"{marker} is not readable: {error}") from None
    if (
        not isinstance(found, dict)
        or found.get("format") != FORMAT["format"]
        or not isinstance(found.get("version"), int)
        or found["version"] > VERSION
    ):
        raise StoreError(
            f"{marker.parent} holds a store of format {found}; this cctviz reads {FORMAT}"
        )
    return found


def write_marker(root: Path, content: dict[str, Any]) -> None:
    """The marker written whole or not at all (two processes making one store write the same)."""
    tmp = root / f".{MARKER}.{uuid.uuid4().hex}"
    tmp.write_text(json.dumps(content))
    os.replace(tmp, root / MARKER)


def new_batch() -> str:
    """A batch id: its time first, to the microsecond (ids sort by age: the store's nodes are
    read in the order it met them; ``repair`` reads the age from it)."""
    return f"{pd.Timestamp.now('UTC').strftime('%Y%m%dT%H%M%S.%f')}-{uuid.uuid4().hex[:12]}"


def batch_time(batch: str) -> pd.Timestamp | None:
    try:
        return pd.Timestamp(batch.split("-", 1)[0], tz="UTC")
    except ValueError:
        return None


@dataclass(frozen=True)
class Part:
    """One Parquet file of a table, as the table's log lists it."""

    path: str
    batch: str
    size: int
    rows: int


@dataclass(frozen=True)
class Snapshot:
    """The store at one version: the committed batches and the files a reader reads."""

    version: int | None  # the profiles table's version; None: nothing was ever added
    batches: frozenset[str]
    parts: dict[str, tuple[Part, ...]]  # per table, the files of committed batches
    versions: tuple[int | None, ...]  # every table's version, the profiles' first

    def files(self, table: str) -> list[str]:
        return [p.path for p in self.parts.get(table, ())]


class Tables:
    """The Delta tables of one store, loaded once and brought up to date on each snapshot."""

    def __init__(self, root: Path, version: int | None = None) -> None:
        self.root = root
        self.pinned = version
        self._tables: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._last: Snapshot | None = None
        if version is not None:
            if not isinstance(version, int) or isinstance(version, bool) or version < 0:
                raise ValueError(
                    f"version is a whole number ≥ 0 (see ens.version); got {version!r}"
                )
            latest = self.table("profiles")
            newest = None if latest is None else latest.version()
            if newest is None or version > newest:
                raise StoreError(
                    f"{root} has no version {version}: its versions are "
                    + ("none (nothing added yet)" if newest is None else f"0 to {newest}")
                )

    def table(self, name: str) -> Any:
        """The Delta table ``name`` brought up to date (None: not written yet)."""
        from deltalake import DeltaTable

        found = self._tables.get(name)
        try:
            if found is None:
                if not made(self.root / name):
                    return None
                found = self._tables[name] = DeltaTable(str(self.root / name))
            else:
                found.update_incremental()
        except Exception as error:  # a damaged or half-removed transaction log
            self._tables.pop(name, None)
            raise damaged(
                f"the transaction log of table {name!r} ({self.root / name})", _first(error)
            ) from None
        return found

    def snapshot(self) -> Snapshot:
        """The store as it is now (or at the pinned version): the files readers read. Only the
        profiles table's log is read when nothing was committed since the last snapshot: the
        other tables' committed files change only with a commit of the profiles."""
        with self._lock:
            last = self._last
            if last is not None and last.versions[0] is not None:
                if self.pinned is not None:
                    return last  # its batches' files were all written before it was
                # a stat, not a read of the log: no next version, no new commit (~1 ms saved
                # per query: a widget's gestures and a trend make several)
                log = self.root / "profiles" / "_delta_log"
                if not (log / f"{last.versions[0] + 1:020d}.json").exists():
                    return last
            profiles = self.table("profiles")
            version = None if profiles is None else profiles.version()
            if last is not None and last.versions[0] == version:
                return last
            tables = {name: self.table(name) for name in TABLES if name != "profiles"}
            versions = (version, *(None if t is None else t.version() for t in tables.values()))
            committed: tuple[Part, ...] = ()
            if profiles is not None:
                if self.pinned is not None:
                    from deltalake import DeltaTable

                    at = DeltaTable(str(self.root / "profiles"), version=self.pinned)
                    version, committed = self.pinned, listed(at)
                else:
                    committed = listed(profiles)
            batches = frozenset(p.batch for p in committed)
            parts = {"profiles": committed}
            for name, table in tables.items():
                every = () if table is None else listed(table)
                parts[name] = tuple(p for p in every if p.batch in batches)
            if self.pinned is not None:
                gone(self.root, self.pinned, batches, parts)
            self._last = Snapshot(version, batches, parts, versions)
            return self._last

    def forget(self) -> None:
        """After a commit of this process: the next snapshot reads the logs again."""
        with self._lock:
            self._last = None


def gone(root: Path, version: int, batches: frozenset[str], parts: dict[str, Any]) -> None:
    """Raises when a batch of an old version has no file left (rewritten by ``compact``, then
    dropped by ``repair``): that version cannot be read any more."""
    held = {p.batch for name in ("values", "metrics") for p in parts.get(name, ())}
    if batches - held:
        raise StoreError(
            f"version {version} of {root} cannot be read any more: its files were rewritten by "
            "ens.compact() and then dropped by ens.repair(). Versions after that compaction read"
        )


def made(folder: Path) -> bool:
    """Whether the Delta table at ``folder`` has a first commit (another process may be making
    it at this moment: its log folder exists before its first version does)."""
    return any((folder / "_delta_log").glob("0*.json"))


def listed(table: Any) -> tuple[Part, ...]:
    """The files a Delta table's current version lists, with their batch, size and rows."""
    import pyarrow as pa

    actions = pa.table(table.get_add_actions(flatten=True)).to_pydict()
    base = str(Path(table.table_uri.removeprefix("file://")))
    batches = actions.get(f"partition.{BATCH}") or [""] * len(actions["path"])
    rows = actions.get("num_records") or [0] * len(actions["path"])
    found = [
        Part(os.path.join(base, path), str(batch), int(size), int(n or 0))
        for path, batch, size, n in zip(
            actions["path"], batches, actions["size_bytes"], rows, strict=True
        )
    ]
    # oldest batch first (a batch id starts with its time): the store's nodes in the order
    # it met them, parents before children
    return tuple(sorted(found, key=lambda p: (p.batch, p.path)))


def _first(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return (lines[0] if lines else type(error).__name__)[:300]
