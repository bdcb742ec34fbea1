"""``ens.verify()`` and ``ens.repair()``: what the store holds and whether it reads, and the way
back from a damaged file or a killed add.

A file of a table is one of: ``ok``; ``missing`` or ``damaged`` (its footer, or with
``deep=True`` its pages, do not read; its size is not the one the log wrote); ``uncommitted``
(written by an add that never committed: killed, or running now); ``unlisted`` (on disk in a
table's folder, in no version of its log: a write killed before its commit). Only committed,
readable files are ever read by a query (cctviz.ensemble.store.store), so the last two are harmless
and ``repair`` removes them once older than its ``grace``; a damaged file of a committed batch
makes the queries that read it fail with an error naming it, and ``repair`` drops its batch
(profiles and all), which can then be added again.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .store import TABLES, Part, Snapshot, StoreError, Tables, batch_time, listed

COLUMNS = ["table", "file", "batch", "rows", "bytes", "state"]


@dataclass
class Verification:
    """What ``ens.verify()`` found: ``ok`` when every committed file reads."""

    ok: bool
    version: int | None
    profiles: int
    parts: pd.DataFrame  # one row per file: table, file, batch, rows, bytes, state
    problems: list[str]
    dropped: list[str] = field(default_factory=list)  # what repair() dropped

    def __repr__(self) -> str:
        states = self.parts["state"].str.split(":").str[0].value_counts().to_dict()
        said = ", ".join(f"{n} {s}" for s, n in sorted(states.items())) or "no files"
        lines = [
            f"<Verification {'ok' if self.ok else 'NOT OK'}: version {self.version}, "
            f"{self.profiles} profiles; files: {said}>",
            *(f"  problem: {p}" for p in self.problems),
            *(f"  dropped: {d}" for d in self.dropped),
        ]
        return "\n".join(lines)


def _state(part: Part, committed: bool, deep: bool) -> str:
    import pyarrow.parquet as pq

    if not committed:
        return "uncommitted"
    sized = _size(part)
    if sized != "ok":
        return sized
    try:
        if deep:
            pq.read_table(part.path)
        else:
            pq.read_metadata(part.path)
    except Exception as error:
        return f"damaged: {str(error).splitlines()[0][:200]}"
    return "ok"


def _unlisted(table: Any) -> list[str]:
    """Files in the table's folder that no version of its log lists."""
    options = {"dry_run": True, "retention_hours": 0, "enforce_retention_duration": False}
    every = set(table.vacuum(full=True, **options))
    return sorted(every - set(table.vacuum(**options)))


def verify(tables: Tables, *, deep: bool = False) -> Verification:
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    snap: Snapshot | None = None
    try:
        snap = tables.snapshot()
    except StoreError as error:
        problems.append(str(error))
    for name in TABLES:
        try:
            table = tables.table(name)
        except StoreError as error:
            if str(error) not in problems:
                problems.append(str(error))
            continue
        if table is None:
            continue
        committed = snap.batches if snap is not None else frozenset()
        for part in listed(table):
            state = _state(part, name == "profiles" or part.batch in committed, deep)
            rows.append(
                {
                    "table": name,
                    "file": part.path,
                    "batch": part.batch,
                    "rows": part.rows,
                    "bytes": part.size,
                    "state": state,
                }
            )
        base = Path(table.table_uri.removeprefix("file://"))
        for stray in _unlisted(table):
            path = base / stray
            rows.append(
                {
                    "table": name,
                    "file": str(path),
                    "batch": "",
                    "rows": 0,
                    "bytes": path.stat().st_size if path.exists() else 0,
                    "state": "unlisted",
                }
            )
    parts = pd.DataFrame(rows, columns=COLUMNS)
    bad = parts[parts["state"].str.startswith(("damaged", "missing"))]
    problems += [f"{r.table}: {r.file} is {r.state}" for r in bad.itertuples()]
    profiles = int(parts.loc[parts["table"] == "profiles", "rows"].sum())
    version = snap.version if snap is not None else None
    return Verification(not problems, version, profiles, parts, problems)


def check_writable(tables: Tables) -> None:
    """Refuses to write into a store that does not verify (cheaply: every log reads, every
    committed file is there with the size its log wrote, and the profiles' footers read)."""
    snap = tables.snapshot()
    for name, parts in snap.parts.items():
        for part in parts:
            state = _state(part, True, False) if name == "profiles" else _size(part)
            if state != "ok":
                raise StoreError(
                    f"{tables.root} does not verify, so nothing is added to it: table {name!r} "
                    f"file {part.path} is {state}. ens.verify() lists what is wrong; ens.repair() "
                    "drops it and the profiles that need it, which can then be added again"
                )


def _size(part: Part) -> str:
    try:
        size = os.path.getsize(part.path)
    except OSError:
        return "missing"
    return "ok" if size == part.size else f"damaged: {size} bytes, the log says {part.size}"


def repair(tables: Tables, grace: float) -> Verification:
    """Drops damaged committed batches, uncommitted batches and unlisted files older than
    ``grace`` seconds; returns the store's verification after, with what was dropped."""
    before = verify(tables)
    if any("transaction log" in p for p in before.problems):
        raise StoreError(
            "a transaction log of the store is damaged; repair cannot rebuild it: "
            + "; ".join(p for p in before.problems if "transaction log" in p)
            + ". Restore the store from a copy, or add the profiles to a new store"
        )
    parts, dropped = before.parts, []
    now = pd.Timestamp.now("UTC")

    newest: dict[str, float] = {}  # per batch, its newest file's time (a compaction's new
    for row in parts.itertuples():  # batches are named for their oldest add's time)
        try:
            newest[row.batch] = max(newest.get(row.batch, 0.0), os.path.getmtime(row.file))
        except OSError:
            continue

    def old(batch: str) -> bool:
        made = batch_time(batch)
        written = time.time() - newest.get(batch, 0.0)
        return (made is None or (now - made).total_seconds() >= grace) and written >= grace

    bad = set(parts.loc[parts["state"].str.startswith(("damaged", "missing")), "batch"])
    if bad:
        dropped += _sources(parts, bad)
        _delete(tables, ["profiles", *(t for t in TABLES if t != "profiles")], bad)
    stale = {b for b in parts.loc[parts["state"] == "uncommitted", "batch"] if old(b)} - bad
    if stale:
        _delete(tables, [t for t in TABLES if t != "profiles"], stale)
        dropped.append(
            f"{len(stale)} uncommitted batches (files no query reads: of adds killed before "
            "their commit, or rewritten by compact)"
        )
    strays = parts[parts["state"] == "unlisted"]
    removed = 0
    for path in strays["file"]:
        try:
            if time.time() - os.path.getmtime(path) >= grace:
                os.remove(path)
                removed += 1
        except OSError:
            continue
    if removed:
        dropped.append(f"{removed} unlisted files (writes killed before their commit)")
    tables.forget()
    after = verify(tables)
    after.dropped = dropped
    return after


def _sources(parts: pd.DataFrame, batches: set[str]) -> list[str]:
    """What dropping ``batches`` drops, in words: the profiles' sources where they read."""
    import pyarrow.parquet as pq

    out = []
    files = parts[(parts["table"] == "profiles") & parts["batch"].isin(batches)]
    for row in files.itertuples():
        try:
            listed_ = pq.read_table(row.file, columns=["profile", "source"]).to_pylist()
            out += [f"profile {r['profile']} ({r['source']}): add it again" for r in listed_]
        except Exception:
            out.append(f"the profiles of add {row.batch} (their file is damaged: add them again)")
    return out or [f"adds {', '.join(sorted(batches))} (no profile of them was committed)"]


def _delete(tables: Tables, names: list[str], batches: set[str]) -> None:
    listed_ = ", ".join("'" + b.replace("'", "''") + "'" for b in sorted(batches))
    for name in names:
        table = tables.table(name)
        if table is not None:
            table.delete(f"batch IN ({listed_})")  # whole partitions: no file is read
