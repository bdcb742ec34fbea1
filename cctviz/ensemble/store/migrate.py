"""A store of format 1 (folders of Parquet parts, cctviz before the store moved to Delta Lake)
made a store of the current format in place, the first time it is opened.

Format 1 had no commit: a killed or concurrent add left values that no profile row listed, or
values twice. The migration keeps what a correct store would hold: each profile once (its first
row per content hash), its values once per node, and nothing of a profile that was never
listed. The tables are written as one add (cctviz.ensemble.store.commit: profiles last), then the
marker says format 2, then the old parts are removed. A migration killed before the marker
changes starts again from the old parts; one process migrates at a time (a lock file).
"""

from __future__ import annotations

import fcntl
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from .commit import append, commit_profiles
from .store import FORMAT, MARKER, TABLES, StoreError, Tables, new_batch, read_marker, write_marker


def _old_parts(root: Path, table: str) -> list[Path]:
    return sorted((root / table).glob("*.parquet"))


def _read(path: Path) -> pd.DataFrame:
    try:
        return pq.read_table(path).to_pandas()
    except Exception as error:
        raise StoreError(
            f"{path} (a part of a store of format 1) cannot be read: {str(error)[:200]}; move it "
            "out of the folder and open the store again (its profiles can be added again)"
        ) from None


def migrate(root: Path) -> None:
    try:
        lock = open(root / ".migrate.lock", "a")  # noqa: SIM115 - held until the end
    except OSError as error:
        raise StoreError(
            f"{root} is a store of format 1 that this cctviz migrates when it opens it, and the "
            f"folder cannot be written ({error}): open it once where it can be"
        ) from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if read_marker(root / MARKER).get("version") != 1:
            return  # another process migrated it while this one waited
        for table in TABLES:  # what a killed migration left of the new tables
            for leftover in (root / table).glob("_delta_log"):
                shutil.rmtree(leftover)
            for leftover in (root / table).glob("batch=*"):
                shutil.rmtree(leftover)
        _write(root)
        write_marker(root, FORMAT)
        for table in TABLES:
            for part in _old_parts(root, table):
                part.unlink()


def _write(root: Path) -> None:
    batch = new_batch()
    profiles = [_read(p) for p in _old_parts(root, "profiles")]
    if not profiles:
        return
    listed = pd.concat(profiles, ignore_index=True).drop_duplicates("hash")
    listed = listed.drop_duplicates("profile")
    keep = set(listed["profile"])
    nodes = [_read(p) for p in _old_parts(root, "nodes")]
    if nodes:
        append(root, "nodes", pd.concat(nodes, ignore_index=True).drop_duplicates("key"), batch)
    metrics = [_read(p) for p in _old_parts(root, "metrics")]
    if metrics:
        kinds = pd.concat(metrics, ignore_index=True).drop_duplicates("metric")
        append(root, "metrics", kinds, batch)
    for table in ("values", "ranks"):
        seen: set[tuple[object, ...]] = set()
        for part in _old_parts(root, table):  # a part at a time: memory stays bounded
            df = _read(part)
            df = df[df["profile"].isin(keep)]
            # a node's row of one profile (and rank) once: format 1 could write it twice
            keys = [c for c in ("profile", "key", "rank", "thread") if c in df.columns]
            rows = list(zip(*(df[k] for k in keys), strict=True))
            fresh = [r not in seen for r in rows]
            seen.update(rows)
            append(root, table, df[fresh].drop_duplicates(keys), batch)
    commit_profiles(Tables(root), listed.reset_index(drop=True), batch)
