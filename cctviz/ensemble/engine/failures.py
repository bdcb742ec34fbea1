"""A DuckDB error as cctviz's: a profile filter's fault (a name or a type it got wrong) says so
with the columns it can name; anything else is a damaged file of the store, named, with the way
back (``ens.verify()``, ``ens.repair()``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.store import damaged
from .sql import Filter, said
from .where import WhereError

if TYPE_CHECKING:
    from .duckdb_engine import DuckEngine


def failed(engine: DuckEngine, where: tuple[Filter, ...], error: Exception) -> Exception:
    """A DuckDB error as cctviz's: the filter's (a name or a type it got wrong), else a
    damaged file of the store, named."""
    import duckdb

    filters_fault = (
        duckdb.BinderException,
        duckdb.ConversionException,
        duckdb.ParserException,
        duckdb.CatalogException,
        duckdb.TypeMismatchException,
    )
    if where and isinstance(error, filters_fault):
        return where_error(engine, where, error)
    text = str(error).splitlines()[0]
    named = [f for f in text.replace('"', "'").split("'") if f.startswith(str(engine.root))]
    return damaged(f"the store's file {named[0] if named else damaged_file(engine)}", text)


def damaged_file(engine: DuckEngine) -> str:
    """The first file of the snapshot that does not read (the error DuckDB gave named none)."""
    import pyarrow.parquet as pq

    snap = engine.snap()
    for table in ("profiles", "values", "nodes", "metrics", "ranks", "sums"):
        for f in snap.files(table):
            try:
                pq.read_table(f)
            except Exception:
                return f
    return str(engine.root)


def where_error(engine: DuckEngine, where: tuple[Filter, ...], error: Exception) -> WhereError:
    text = str(error).splitlines()[0]
    return WhereError(
        f"the profile filter {said(where)!r} does not run: {text}. It is a SQL "
        f"condition on the profiles' metadata; columns: {', '.join(engine.profile_columns())}"
    )
