"""Which files of the values a filtered query reads: only those of the adds (batches) holding a
profile the filter keeps. A nightly store of thousands of adds, read for a month of runs, opens
that month's files; the per-batch counts also tell the summaries (cctviz.ensemble.engine
.summarised) which adds a filter keeps whole."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.store import Snapshot
from .sql import EMPTY

if TYPE_CHECKING:
    from .duckdb_engine import DuckEngine
    from .interface import Where

FILE = "cctviz_file"  # the column naming each row's Parquet file


def file_column(columns: list[str]) -> str:
    """A name for the column of each row's file that no column of the profiles has (a metadata
    column may be called anything, even ``cctviz_file``)."""
    name, taken = FILE, set(columns)
    while name in taken:
        name += "_"
    return name


def parquet(files: list[str], table: str, same: bool = False) -> str:
    """The relation of ``files`` of ``table`` (an empty one when there are none). ``same``: the
    files have the same columns in the same order, so DuckDB need not match them by name (a
    query of one node over 50 files: a quarter sooner)."""
    if not files:
        return f"(SELECT * FROM ({EMPTY[table]}) WHERE FALSE)"
    listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
    union = "false" if same else "true"
    return f"read_parquet([{listed}], union_by_name = {union}, hive_partitioning = false)"


def values(engine: DuckEngine, files: list[str]) -> str:
    """``parquet`` of value files, matched by name only where their columns differ."""
    first = engine.columns_of(files[0]) if files else []
    return parquet(files, "values", all(engine.columns_of(f) == first for f in files[1:]))


def kept_batches(engine: DuckEngine, where: Where, snap: Snapshot) -> dict[str, tuple[int, int]]:
    """Per batch: how many profiles it holds, and how many of them ``where`` keeps."""
    parts = snap.parts.get("profiles", ())
    listed = ", ".join("'" + p.path.replace("'", "''") + "'" for p in parts)
    file = file_column(engine.profile_columns())
    counted = engine.run_filtered(
        where,
        f'SELECT "{file}", count(*) AS n, count(*) FILTER (WHERE {engine.clause(where)}) AS kept '
        f"FROM read_parquet([{listed}], union_by_name = true, hive_partitioning = false, "
        f"filename = '{file}') GROUP BY \"{file}\"",
    )
    batch_of = {p.path: p.batch for p in parts}
    out: dict[str, tuple[int, int]] = {}
    for path, n, kept in zip(counted[file], counted["n"], counted["kept"], strict=True):
        batch = batch_of.get(str(path), "")
        had = out.get(batch, (0, 0))
        out[batch] = (had[0] + int(n), had[1] + int(kept))
    return out


def values_relation(engine: DuckEngine, where: Where, snap: Snapshot, metric: str | None) -> str:
    """The values' files of the batches ``where`` keeps a profile of, as a relation; a file
    holding ``metric`` is kept too, so that the column is known whatever the filter keeps (its
    rows are not the filter's: the query's own condition on the profiles still applies)."""
    parts = snap.parts.get("values", ())
    if not where or not parts:
        return values(engine, [p.path for p in parts])
    kept = engine.kept_per_batch(where, snap)
    files = [p.path for p in parts if kept.get(p.batch, (0, 0))[1] > 0]
    if metric is not None and not any(metric in engine.columns_of(f) for f in files):
        files += [p.path for p in parts if metric in engine.columns_of(p.path)][:1]
    return values(engine, files or [parts[0].path])
