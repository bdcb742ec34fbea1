"""``ens.compact()``: the values of many adds rewritten as few files, switched in one commit.

Every ``add`` writes at least one file per table, so a store fed every night holds hundreds of
value files after a year, and a query of one node (a trend, a distribution) opens every one of
them (about 1.5 ms each in DuckDB, the most of a trend at 10⁵ profiles). ``compact`` regroups the
committed adds, in the store's order, into new batches of about ``rows`` value rows each (an add
bigger than that is split between whole profiles), each batch written as ONE file per table,
its values sorted by (parent, key) so that a query of one node reads one row group per file.
Batches, not only files: a filter of recent runs still reads only the new batches holding them
(cctviz.ensemble.engine.pruning).

**Commit.** The new batches' nodes, metrics, values (with their summaries, recomputed) and
ranks are written first, uncounted; then ONE Delta MERGE of the profiles table moves each
profile from its old batch to its new one (cctviz.ensemble.store.commit's protocol: the
profiles table is the commit point). Killed before it, nothing changed (the new files are
uncommitted: ``repair`` drops them); after it, every query reads the new batches and the old
files are uncommitted in turn. A MERGE reads the table, so Delta refuses it when an ``add`` (or
another ``compact``) committed meanwhile: it checks again that every profile is still where it
read it, and commits, or gives up with nothing changed when another process moved them.

The old files stay on disk (``Ensemble(path, version=N)`` of an older version still reads them)
until ``ens.repair()`` drops them as the uncommitted files they are.
"""

from __future__ import annotations

import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from .commit import RETRIES, _pause, _write, step
from .ids import CODE, coded
from .store import BATCH, Part, Snapshot, StoreError, Tables
from .summary import summaries

# value rows per compacted batch (~8.4 M: a file of ~250 MB). Compacting holds a batch about
# three times over (read, sorted, written: ~0.4 KB a row, 3.2 GB at this size, 5.3 GB at twice it)
ROWS = 1 << 23
COPIED = ("nodes", "metrics")  # written once, with the first new batch
FILE = 1 << 40  # no size limit per file: one file per table and batch
MEMORY = "1GB"  # DuckDB's memory while it reads and sorts a batch's values


@dataclass(frozen=True)
class Compaction:
    """What ``ens.compact()`` did."""

    adds: int  # batches rewritten
    batches: int  # new batches written
    files_before: int  # value files read by a query of every profile, before and after
    files_after: int
    profiles: int  # profiles moved to a new batch
    seconds: float

    def __repr__(self) -> str:
        if not self.profiles:
            return f"<Compaction: nothing to do ({self.files_before} value files)>"
        return (
            f"<Compaction: {self.profiles:,} profiles of {self.adds} adds rewritten as "
            f"{self.batches} batches; value files {self.files_before} → {self.files_after}; "
            f"{self.seconds:.1f} s. The old files stay until ens.repair()>"
        )


@dataclass
class Chunk:
    """One new batch: its profiles (id, hash, old batch) in the store's order."""

    batch: str
    ids: list[str]
    hashes: list[str]
    old: list[str]
    rows: int = 0


def compact(tables: Tables, rows: int = ROWS) -> Compaction:
    """Rewrites the store's committed adds as batches of about ``rows`` value rows each."""
    if isinstance(rows, bool) or not isinstance(rows, int) or rows < 1:
        raise ValueError(f"rows is a whole number ≥ 1 (value rows per file); got {rows!r}")
    started = time.perf_counter()
    snap = tables.snapshot()
    before = len(snap.files("values"))
    chunks = plan(snap, rows)
    if not chunks:
        return Compaction(0, 0, before, before, 0, time.perf_counter() - started)
    sources = {b for c in chunks for b in c.old}
    for i, chunk in enumerate(chunks):
        step("before compacted values")
        write_chunk(tables, snap, chunk, sources, first=i == 0)
        step("after compacted values")
    moved = switch(tables, snap, chunks)
    tables.forget()
    after = len(tables.snapshot().files("values"))
    return Compaction(
        len(sources), len(chunks), before, after, moved, time.perf_counter() - started
    )


def plan(snap: Snapshot, rows: int) -> list[Chunk]:
    """The new batches: runs of committed adds, in the store's order, cut into chunks of about
    ``rows`` value rows between whole profiles. An add already written as one file of at least
    a quarter of ``rows`` is left as it is (and ends a run); so is a run that would not lose a
    file."""
    import pyarrow.parquet as pq

    files: dict[str, list[Part]] = {}
    for part in snap.parts.get("values", ()):
        files.setdefault(part.batch, []).append(part)
    runs: list[list[tuple[str, str, str, int]]] = [[]]
    for part in snap.parts.get("profiles", ()):
        held = files.get(part.batch, [])
        if len(held) == 1 and held[0].rows >= rows // 4:
            runs.append([])  # compact already
            continue
        listed = pq.read_table(part.path, columns=["profile", "hash", "nodes"]).to_pydict()
        runs[-1] += [
            (str(p), str(h), part.batch, int(n or 0))
            for p, h, n in zip(listed["profile"], listed["hash"], listed["nodes"], strict=True)
        ]
    chunks: list[Chunk] = []
    for run in runs:
        cut = list(_cut(run, rows))
        adds = {b for _, _, b, _ in run}
        if cut and len(cut) < sum(len(files.get(b, [])) for b in adds):
            chunks += cut
    _name(chunks)
    return chunks


def _cut(run: list[tuple[str, str, str, int]], rows: int) -> Iterator[Chunk]:
    chunk = Chunk("", [], [], [])
    for profile, hash_, batch, n in run:
        if chunk.ids and chunk.rows + n > rows:
            yield chunk
            chunk = Chunk("", [], [], [])
        chunk.ids.append(profile)
        chunk.hashes.append(hash_)
        chunk.old.append(batch)
        chunk.rows += n
    if chunk.ids:
        yield chunk


def _name(chunks: list[Chunk]) -> None:
    """Each new batch named for the time of its first profile's add, so that the store's order
    (batch ids sort by age: nodes read parents first) stays what it was; numbered within it."""
    tag = uuid.uuid4().hex[:6]
    for k, chunk in enumerate(chunks):
        made = chunk.old[0].split("-", 1)[0]
        chunk.batch = f"{made}-c{k:05d}{tag}"


def write_chunk(
    tables: Tables, snap: Snapshot, chunk: Chunk, sources: set[str], first: bool
) -> None:
    """Writes the new batch ``chunk.batch``: its profiles' values (sorted by parent and key, with
    their summaries) and ranks, and with the first batch, the nodes and metrics of every add
    compacted."""
    old = set(chunk.old)
    for table in ("values", "ranks", *(COPIED if first else ())):
        of = sources if table in COPIED else old
        parts = [p.path for p in snap.parts.get(table, ()) if p.batch in of]
        schema = _schema(tables, table)
        if not parts or schema is None:
            continue
        data = _read(parts, schema, chunk.ids if table not in COPIED else None, table)
        if table == "values":
            if CODE not in data.column_names or data.column(CODE).null_count:  # older stores
                data = coded(data)
            sums = summaries(data)
            _write(tables.root, "sums", sums.append_column(BATCH, _repeat(chunk.batch, len(sums))))
        if len(data):
            data = data.append_column(BATCH, _repeat(chunk.batch, len(data)))
            _write(tables.root, table, data, target_file_size=FILE)
        del data  # before the next table's read


def _repeat(text: str, n: int) -> pa.Array:
    return pa.repeat(pa.scalar(text, pa.string()), n)


def _schema(tables: Tables, table: str) -> pa.Schema | None:
    found = tables.table(table)
    if found is None:
        return None
    schema = pa.schema(found.schema().to_arrow())
    return pa.schema([f for f in schema if f.name != BATCH])


def _read(files: list[str], schema: pa.Schema, ids: list[str] | None, table: str) -> pa.Table:
    """The rows of ``files`` (of the profiles ``ids``; None: all, each key once) in the table's
    columns and types: values sorted by parent and key. DuckDB is closed before the rows are
    written, its memory given back (a batch would otherwise be held once more)."""
    import duckdb

    with tempfile.TemporaryDirectory(prefix="cctviz-compact-") as spill:
        con = duckdb.connect(":memory:")
        try:
            con.execute("SET enable_progress_bar = false")
            # a batch's sort spills to disk beyond this: the compacting kernel stays small
            con.execute(f"SET memory_limit = '{MEMORY}'")
            con.execute(f"SET temp_directory = {_text(spill)}")
            data = _query(con, files, schema, ids, table)
        finally:
            con.close()
    return data


def _query(
    con: Any, files: list[str], schema: pa.Schema, ids: list[str] | None, table: str
) -> pa.Table:
    listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
    source = f"read_parquet([{listed}], union_by_name = true, hive_partitioning = false)"
    have = {str(r[0]) for r in con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()}
    columns = ", ".join(
        _quote(f.name) if f.name in have else f"NULL AS {_quote(f.name)}" for f in schema
    )
    where, order, args = "", "", None
    if ids is not None:
        where, args = "WHERE profile IN (SELECT unnest($ids))", {"ids": ids}
    if table == "values":
        order = "ORDER BY parent, key"
    sql = f"SELECT {columns} FROM {source} {where} {order}"
    data = con.sql(sql, params=args).to_arrow_table()
    if table in COPIED:  # the first row of each node, or of each metric, as the store reads it
        unique = data.column("key" if table == "nodes" else "metric").to_pandas()
        data = data.take(pa.array(np.flatnonzero(~unique.duplicated().to_numpy()), pa.int64()))
    # one chunk (Delta's writer would reorder several), in the table's types
    return pa.table(
        [data.column(f.name).cast(f.type) for f in schema], schema=pa.schema(list(schema))
    ).combine_chunks()


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def switch(tables: Tables, snap: Snapshot, chunks: list[Chunk]) -> int:
    """The commit: the profiles' rows of the old batches replaced by the same rows, in the same
    order, in the new batches, in one Delta commit (an overwrite of exactly those partitions).
    Delta refuses it when another process committed meanwhile: then it checks again that every
    profile is still where it was read, and tries again or gives up."""
    from deltalake import write_deltalake
    from deltalake.exceptions import CommitFailedError, DeltaError

    expected = {h: b for c in chunks for h, b in zip(c.hashes, c.old, strict=True)}
    new = {h: c.batch for c in chunks for h in c.hashes}
    named = sorted({*expected.values(), *new.values()})
    predicate = f"{BATCH} IN ({', '.join(_text(b) for b in named)})"
    step("before profiles")
    for attempt in range(RETRIES):
        target = tables.table("profiles")
        now = pa.table(target.to_pyarrow_dataset().to_table(columns=["hash", BATCH]))
        where = dict(zip(now["hash"].to_pylist(), now[BATCH].to_pylist(), strict=True))
        if any(where.get(h) != b for h, b in expected.items()):
            raise StoreError(
                f"{tables.root} changed while it was compacted (another compact or a repair "
                "moved or dropped some of its profiles): nothing was changed; compact again"
            )
        data = _profile_rows(target, snap, set(expected.values()), new)
        try:
            write_deltalake(
                target, data, mode="overwrite", predicate=predicate, partition_by=[BATCH]
            )
        except (CommitFailedError, DeltaError):
            _pause(attempt)
            continue
        step("after profiles")
        return len(data)
    raise StoreError(f"{tables.root}: no commit after {RETRIES} tries (too many concurrent adds)")


def _profile_rows(target: Any, snap: Snapshot, old: set[str], new: dict[str, str]) -> pa.Table:
    """The profiles' rows of the batches ``old``, in the store's order, each in its new batch
    and in the table's columns and types."""
    import pyarrow.parquet as pq

    schema = pa.schema(target.schema().to_arrow())
    parts = []
    for part in snap.parts.get("profiles", ()):
        if part.batch not in old:
            continue
        read = pq.read_table(part.path)
        hashes = read["hash"].to_pylist()
        columns = [
            pa.array([new[h] for h in hashes], pa.string())
            if f.name == BATCH
            else read[f.name].cast(f.type)
            if f.name in read.column_names
            else pa.nulls(len(read), f.type)
            for f in schema
        ]
        parts.append(pa.table(columns, schema=schema))
    return pa.concat_tables(parts).combine_chunks()  # one chunk: written in this order


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
