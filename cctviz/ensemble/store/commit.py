"""An ``add``'s writes, all or nothing across the store's tables, from any number of processes.

1. The batch's nodes, metrics, values (with their summaries) and ranks are appended to their
   Delta tables, each row tagged with the batch (cctviz.ensemble.store.store). Readers do not
   count them yet.
2. Its profile rows are committed to the profiles table by a Delta MERGE on the content hash
   (insert the rows whose hash the table lacks). A MERGE reads the table, so Delta's optimistic
   concurrency refuses it (``CommitFailedError``) when another process committed profiles since
   it read: then it reads again. If another process committed one of the same profiles, this
   batch is abandoned (its files stay uncounted until ``repair``) and the profiles still
   missing are written again as a new batch. Each profile is thus stored once, whoever wins.

``STEP_HOOK`` is called before and after each write (``"before values"``, ``"after values"``,
...): the fault-injection tests kill the process there.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from .ids import ID_COLUMNS, coded
from .profile import ProfileRows, value_frame
from .store import BATCH, StoreError, Tables, made
from .summary import summaries

STEP_HOOK: Callable[[str], None] | None = None
RETRIES = 100  # commits tried before giving up (concurrent adders each win one in turn)
ROW_GROUP = 64 * 1024  # rows per Parquet row group
NODE_TYPES = {"key": pa.int64(), "parent": pa.int64()}


def tables_of(root: Path, table: str) -> Any:
    """The Delta table ``table`` of the store at ``root`` as it is now (None: not made yet)."""
    from deltalake import DeltaTable

    if not made(root / table):
        return None
    return DeltaTable(str(root / table))


def step(name: str) -> None:
    if STEP_HOOK is not None:
        STEP_HOOK(name)


class Lost(Exception):
    """Another process committed some of this batch's profiles first."""


def arrow(table: str, df: pd.DataFrame, batch: str) -> pa.Table:
    """``df`` as the Arrow table Delta is given: the batch column, numbers of the values and
    ranks as float64, no column without a type, timestamps in microseconds."""
    out = df.copy()
    out[BATCH] = batch
    columns = {}
    for name in out.columns:
        column = out[name]
        if table in ("values", "ranks") and name not in (*ID_COLUMNS, "rank", "thread", BATCH):
            columns[name] = pa.array(pd.to_numeric(column, errors="coerce"), pa.float64())
            continue
        if name in NODE_TYPES or name in ("rank", "thread"):
            columns[name] = pa.array(column.to_numpy(np.int64), pa.int64())
            continue
        if column.dtype == object:
            column = _one_kind(column)
        array = pa.array(column, from_pandas=True)
        if pa.types.is_null(array.type) or (table in ("nodes", "metrics") and name != BATCH):
            array = (
                array.cast(pa.string())
                if not pa.types.is_null(array.type)
                else pa.nulls(len(array), pa.string())
            )
        elif pa.types.is_timestamp(array.type):
            array = array.cast(pa.timestamp("us", tz=array.type.tz), safe=False)
        elif pa.types.is_large_string(array.type):
            array = array.cast(pa.string())
        columns[name] = array
    return pa.table(columns)


def _one_kind(column: pd.Series) -> pd.Series:
    """An object column mixing kinds of values (numbers and text) as text."""
    kinds = {type(v) for v in column if v is not None and not (isinstance(v, float) and v != v)}
    if len(kinds) > 1 and not kinds <= {int, float}:
        return pd.Series([None if v is None else str(v) for v in column], index=column.index)
    return column


def append(root: Path, table: str, df: pd.DataFrame, batch: str) -> None:
    """Appends ``df`` to ``table`` (one Delta commit; the table is made by the first); the
    values with their summaries (one more commit, to ``sums``, before)."""
    step(f"before {table}")
    if df.empty:
        step(f"after {table}")
        return
    if table == "values":
        # sorted by parent, then node: a row group spans few of them, and a query of one node
        # (its distribution) or of a node's children (a trend) reads only the row groups whose
        # ranges hold them
        df = df.sort_values([c for c in ("parent", "key") if c in df.columns], kind="stable")
    data = arrow(table, df, batch)
    if table == "values":
        data = coded(data)  # each row's profile code (cctviz.ensemble.store.ids)
    if table == "values":  # its per-node summaries first (cctviz.ensemble.store.summary)
        sums = summaries(data)
        _write(root, "sums", sums.append_column(BATCH, pa.array([batch] * len(sums), pa.string())))
    _write(root, table, data)
    step(f"after {table}")


def _write(root: Path, table: str, data: pa.Table, target_file_size: int | None = None) -> None:
    """One Delta commit appending ``data`` to ``table`` (made by the first), the table's schema
    evolved first where ``data`` brings new columns (in files of ``target_file_size`` bytes:
    Delta's default when None)."""
    from deltalake import WriterProperties, write_deltalake
    from deltalake.exceptions import CommitFailedError, DeltaError, SchemaMismatchError

    if not len(data):
        return
    # one chunk: Delta's writer takes several chunks in parallel and writes them in any order
    # (the values' sort by parent and node, and the profiles' order, would be lost)
    data = data.combine_chunks()
    for attempt in range(RETRIES):
        try:
            made = tables_of(root, table)
            if made is not None and not _evolve(made, data):
                _pause(attempt)
                continue
            write_deltalake(
                str(root / table),
                data,
                partition_by=[BATCH],
                mode="append",
                schema_mode="merge",
                target_file_size=target_file_size,
                writer_properties=WriterProperties(
                    max_row_group_size=ROW_GROUP, compression="SNAPPY"
                ),
            )
            break
        except SchemaMismatchError as error:
            raise StoreError(f"cannot add to table {table!r} of {root}: {error}") from None
        except (CommitFailedError, DeltaError) as error:
            # another writer changed the table's schema or made it first: try again
            if attempt == RETRIES - 1:
                raise StoreError(f"cannot add to table {table!r} of {root}: {error}") from None
            _pause(attempt)


def _evolve(table: Any, data: pa.Table) -> bool:
    """Adds the columns of ``data`` that ``table`` lacks, in ``data``'s order (a Delta schema
    merge appends them in an order of its own: the metadata and metric columns would come back
    shuffled). False when another process changed the table at the same moment: read again."""
    from deltalake import Schema
    from deltalake.exceptions import CommitFailedError, DeltaError

    have = set(pa.schema(table.schema().to_arrow()).names)
    new = [f for f in data.schema if f.name not in have]
    if not new:
        return True
    fields = pa.schema([pa.field(f.name, f.type, nullable=True) for f in new])
    try:
        table.alter.add_columns(list(Schema.from_arrow(fields).fields))
    except (CommitFailedError, DeltaError):
        return False
    return False  # added: read the table again


def commit_profiles(tables: Tables, rows: pd.DataFrame, batch: str) -> int:
    """Commits the profile rows (the add's commit point); raises ``Lost`` when another process
    committed one of them first. Returns how many were committed."""
    from deltalake.exceptions import CommitFailedError

    path = str(tables.root / "profiles")
    step("before profiles")
    for attempt in range(RETRIES):
        target = tables.table("profiles")
        if target is None:
            create_profiles(tables.root)
            continue
        have = set(
            pa.table(target.to_pyarrow_dataset().to_table(columns=["hash"]))["hash"].to_pylist()
        )
        if have & set(rows["hash"]):
            raise Lost()
        data = _like(arrow("profiles", rows, batch), target)
        if not _evolve(target, data):
            _pause(attempt)
            continue
        try:
            merged = (
                target.merge(
                    data, "t.hash = s.hash", source_alias="s", target_alias="t", merge_schema=True
                )
                .when_not_matched_insert_all()
                .execute()
            )
        except CommitFailedError:
            _pause(attempt)
            continue
        if merged.get("num_target_rows_inserted") != len(rows):  # pragma: no cover - Delta's job
            raise StoreError(f"the commit of {len(rows)} profiles to {path} inserted {merged}")
        break
    else:
        raise StoreError(f"{path}: no commit after {RETRIES} tries (too many concurrent adds)")
    step("after profiles")
    return len(rows)


def create_profiles(root: Path) -> None:
    """The profiles table, empty: made once, before any profile is committed to it, because
    the first write to a Delta table is a create, and two creates at once both succeed (the
    second as an append of its rows: a profile twice). Two empty creates are harmless. It
    takes timestamps without a time zone (launch dates: Delta's ``timestampNtz`` feature)."""
    from deltalake import DeltaTable, TableFeatures, write_deltalake
    from deltalake.exceptions import CommitFailedError, DeltaError

    path = str(root / "profiles")
    empty = pa.table(
        {
            **{name: pa.array([], pa.string()) for name in ("profile", "hash", "source")},
            "nodes": pa.array([], pa.int64()),
            BATCH: pa.array([], pa.string()),
        }
    )
    for attempt in range(RETRIES):
        try:
            write_deltalake(path, empty, partition_by=[BATCH], mode="ignore")
            table = DeltaTable(path)
            if "timestampNtz" in (table.protocol().writer_features or []):
                return
            table.alter.add_feature(
                TableFeatures.TimestampWithoutTimezone, allow_protocol_versions_increase=True
            )
        except (CommitFailedError, DeltaError):
            _pause(attempt)  # another process made it, or changed it, at the same moment
    raise StoreError(f"cannot make the profiles table of {root}")


def _like(data: pa.Table, target: Any) -> pa.Table:
    """The new rows with each column the table has in the table's type (a jobsize given as
    text "64" stored as a number), or a clear error when a value cannot be."""
    have = {f.name: f.type for f in pa.schema(target.schema().to_arrow())}
    columns = {}
    for name in data.column_names:
        column, wanted = data[name], have.get(name)
        if wanted is not None and column.type != wanted and not pa.types.is_null(wanted):
            try:
                column = column.cast(wanted, safe=True)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                raise StoreError(
                    f"metadata {name!r} is stored as {wanted} in this store; these profiles give "
                    f"it as {column.type} ({column.to_pylist()[:3]}): give it the stored kind "
                    "(ens.add(..., metadata={...}) overrides a profile's own value) or a new name"
                ) from None
        columns[name] = column
    return pa.table(columns)


def _pause(attempt: int) -> None:
    time.sleep(random.uniform(0.01, 0.05) * min(attempt + 1, 10))


def case_names(names: list[str], have: list[str]) -> dict[str, str]:
    """New names for columns that Delta and DuckDB, which match names whatever their case, would
    take for one another: a name the table has in another case takes the table's (``Tuning`` in
    one file, ``tuning`` in another: one column), and the second of two names of one frame that
    differ only in case gets a number (``Time (2)``)."""
    known = {n.casefold(): n for n in have}
    out: dict[str, str] = {}
    for name in names:
        found = known.get(name.casefold())
        if found is not None and found != name and name not in have and found not in names:
            out[name] = found
    taken = {n.casefold() for n in have}
    seen: set[str] = set()
    for name in names:
        folded = out.get(name, name).casefold()
        if name in out or folded in taken:
            continue
        if folded in seen:
            k = 2
            while f"{name} ({k})".casefold() in seen | taken:
                k += 1
            out[name] = f"{name} ({k})"
            seen.add(out[name].casefold())
        else:
            seen.add(folded)
    return out


def _columns(root: Path, table: str) -> list[str]:
    made = tables_of(root, table)
    return [] if made is None else list(pa.schema(made.schema().to_arrow()).names)


def write_batch(root: Path, rows: list[ProfileRows], batch: str, known: set[int]) -> None:
    """Appends the nodes (those not in ``known``, which grows), metrics, values and ranks of
    ``rows`` to the store as part of ``batch``: counted by no query until ``commit_profiles``."""
    nodes = pd.concat([r.nodes for r in rows], ignore_index=True).drop_duplicates("key")
    nodes = nodes[~nodes["key"].isin(known)]
    append(root, "nodes", nodes, batch)
    known.update(int(k) for k in nodes["key"])
    values = value_frame(rows)
    renamed = case_names(list(values.columns), _columns(root, "values"))
    kinds = pd.concat([r.kinds for r in rows], ignore_index=True).drop_duplicates("metric")
    kinds = kinds.assign(
        metric=kinds["metric"].replace(renamed), partner=kinds["partner"].replace(renamed)
    )
    append(root, "metrics", kinds, batch)
    append(root, "values", values.rename(columns=renamed), batch)
    per_rank = [r.ranks for r in rows if r.ranks is not None]
    if per_rank:
        ranks = pd.concat(per_rank, ignore_index=True).rename(columns=renamed)
        append(root, "ranks", ranks, batch)


def profile_rows(root: Path, metas: list[dict[str, Any]]) -> pd.DataFrame:
    """The profiles' rows as the profiles table takes them (names matched case-blind)."""
    profiles = pd.DataFrame(metas)
    return profiles.rename(columns=case_names(list(profiles.columns), _columns(root, "profiles")))
