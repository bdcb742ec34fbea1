"""Queries of the store on DuckDB, in process (no server): every read goes through views over
the Parquet parts, so a store another process appended to is read as it is now."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import reducers as red
from .store import glob_of, parts

ID_COLUMNS = ("profile", "key", "parent")
"""The value table's columns that are no metric: the profile, the node and its parent's key."""
BATCH = 1 << 20  # rows per batch when values are streamed

EMPTY_NODES = pd.DataFrame(
    {"key": np.empty(0, np.int64), "parent": np.empty(0, np.int64), "name": []}
)


class WhereError(ValueError):
    """A profile filter DuckDB could not run: what it said, and the columns there are."""


class DuckEngine:
    """The embedded engine of one store."""

    def __init__(self, root: Path) -> None:
        import duckdb

        self.root = root
        self.con = duckdb.connect(database=":memory:")
        self.con.execute("SET enable_progress_bar = false")  # no bar printed into notebooks
        # a part is written once and never changed (add renames it into place), so the footers
        # DuckDB read stay true: a query of a few nodes does not read 50 footers again
        self.con.execute("SET parquet_metadata_cache = true")
        self._lock = threading.Lock()
        self._columns_of: dict[Path, list[str]] = {}
        self._profiles: dict[tuple[Any, ...], pd.DataFrame] = {}
        self._duck_error = duckdb.Error

    def _source(self, table: str) -> str:
        return f"read_parquet('{glob_of(self.root, table)}', union_by_name = true)"

    def has(self, table: str) -> bool:
        return bool(parts(self.root, table))

    def query(self, sql: str, params: list[Any] | None = None) -> pd.DataFrame:
        # one query at a time: a widget's messages and the notebook's code can come in on
        # different threads of the kernel, and a DuckDB connection refuses a second caller
        with self._lock:
            return self.con.execute(sql, params or []).df()

    def columns(self, sql: str, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
        """The result of ``sql`` as numpy columns, with ``tables`` (small DataFrames) registered
        under their names for the query only."""
        with self._lock:
            for name, frame in tables.items():
                self.con.register(name, frame)
            try:
                return dict(self.con.execute(sql).fetchnumpy())
            finally:
                for name in tables:
                    self.con.unregister(name)

    def selected(self, where: tuple[str, ...]) -> str:
        """SQL selecting the profile ids that pass every filter of ``where``."""
        clause = " AND ".join(f"({w})" for w in where) or "TRUE"
        return f"SELECT profile FROM {self._source('profiles')} WHERE {clause}"

    def profiles(self, where: tuple[str, ...]) -> pd.DataFrame:
        if not self.has("profiles"):
            return pd.DataFrame({"profile": [], "hash": [], "source": [], "nodes": []})
        # parts never change: the same parts (also another process's appends are new parts)
        # and filters give the same rows, read once
        seen = (where, tuple(parts(self.root, "profiles")))
        if seen not in self._profiles:
            clause = " AND ".join(f"({w})" for w in where) or "TRUE"
            try:
                df = self.query(f"SELECT * FROM {self._source('profiles')} WHERE {clause}")
            except self._duck_error as error:
                raise self._where_error(where, error) from None
            if len(self._profiles) >= 16:
                self._profiles.pop(next(iter(self._profiles)))
            self._profiles[seen] = df.drop_duplicates("profile").set_index("profile")
        return self._profiles[seen].copy()  # the caller may change its copy

    def _where_error(self, where: tuple[str, ...], error: Exception) -> WhereError:
        columns = self.query(f"DESCRIBE SELECT * FROM {self._source('profiles')}")["column_name"]
        text = str(error).splitlines()[0]
        return WhereError(
            f"the profile filter {' and '.join(where)!r} does not run: {text}. It is a SQL "
            f"condition on the profiles' metadata; columns: {', '.join(map(str, columns))}"
        )

    def hashes(self) -> set[str]:
        if not self.has("profiles"):
            return set()
        return set(self.query(f"SELECT hash FROM {self._source('profiles')}")["hash"])

    def node_keys(self) -> set[int]:
        if not self.has("nodes"):
            return set()
        return set(self.query(f"SELECT key FROM {self._source('nodes')}")["key"].tolist())

    def nodes(self) -> pd.DataFrame:
        """Every calling context once, in the order the store met them (parents first)."""
        if not self.has("nodes"):
            return EMPTY_NODES.copy()
        df = self.query(f"SELECT * FROM {self._source('nodes')}")
        return df.drop_duplicates("key").reset_index(drop=True)

    def metrics(self) -> pd.DataFrame:
        if not self.has("metrics"):
            return pd.DataFrame({"kind": [], "partner": []}, index=pd.Index([], name="metric"))
        df = self.query(f"SELECT * FROM {self._source('metrics')}")
        return df.drop_duplicates("metric").set_index("metric")

    def reduce(
        self, metric: str, reducers: tuple[str, ...], where: tuple[str, ...]
    ) -> pd.DataFrame:
        """One row per node key where a selected profile has a value of ``metric``: ``count``
        (such profiles) and one column per reducer."""
        column = red.quote(metric)
        aggregates = ", ".join(f"{red.sql(r, 'v.' + column)} AS {red.quote(r)}" for r in reducers)
        filter_ = f"AND v.profile IN ({self.selected(where)})" if where else ""
        sql = (
            f"SELECT v.key, count(v.{column}) AS count, {aggregates} "
            f"FROM {self._source('values')} v WHERE v.{column} IS NOT NULL {filter_} GROUP BY v.key"
        )
        try:
            return self.query(sql)
        except self._duck_error as error:
            raise self._where_error(where, error) from None

    def distribution(self, key: int, metric: str, where: tuple[str, ...]) -> pd.DataFrame:
        column = red.quote(metric)
        filter_ = f"AND v.profile IN ({self.selected(where)})" if where else ""
        sql = (
            f"SELECT p.*, v.{column} AS value FROM {self._source('values')} v "
            f"JOIN {self._source('profiles')} p ON p.profile = v.profile "
            f"WHERE v.key = ? AND v.{column} IS NOT NULL {filter_} ORDER BY v.profile"
        )
        try:
            df = self.query(sql, [key])
        except self._duck_error as error:
            raise self._where_error(where, error) from None
        return df.drop_duplicates("profile").set_index("profile")

    def ranks(self, key: int, metric: str, where: tuple[str, ...]) -> pd.DataFrame:
        column = red.quote(metric)
        filter_ = f"AND r.profile IN ({self.selected(where)})" if where else ""
        described = self.query(f"DESCRIBE SELECT * FROM {self._source('ranks')}")["column_name"]
        if metric not in set(described):
            raise KeyError(
                f"no per-rank values of {metric!r}: the per-rank rows hold "
                f"{', '.join(c for c in described if c not in (*ID_COLUMNS, 'rank', 'thread'))}"
            )
        levels = ", ".join(f"r.{c}" for c in ("rank", "thread") if c in set(described))
        sql = (
            f"SELECT r.profile, {levels}, r.{column} AS value, p.* EXCLUDE (profile) "
            f"FROM {self._source('ranks')} r JOIN {self._source('profiles')} p "
            f"ON p.profile = r.profile WHERE r.key = ? AND r.{column} IS NOT NULL {filter_} "
            f"ORDER BY r.profile, {levels}"
        )
        try:
            return self.query(sql, [key]).reset_index(drop=True)
        except self._duck_error as error:
            raise self._where_error(where, error) from None

    def totals(self, metric: str, keys: list[int], where: tuple[str, ...]) -> pd.DataFrame:
        """Per selected profile holding any of the nodes ``keys``: ``value``, the sum of
        ``metric`` over them (over the roots: a run's total of an inclusive metric)."""
        column = red.quote(metric)
        filter_ = f"AND v.profile IN ({self.selected(where)})" if where else ""
        marks = ", ".join("?" for _ in keys) or "NULL"
        sql = (
            f"SELECT v.profile, sum(v.{column}) AS value FROM {self._source('values')} v "
            f"WHERE v.key IN ({marks}) AND v.{column} IS NOT NULL {filter_} GROUP BY v.profile"
        )
        try:
            return self.query(sql, [int(k) for k in keys])
        except self._duck_error as error:
            raise self._where_error(where, error) from None

    def values(self, where: tuple[str, ...]) -> pd.DataFrame:
        """Every value row of the selected profiles (for a small subset: a Thicket)."""
        filter_ = f"WHERE profile IN ({self.selected(where)})" if where else ""
        return self.query(f"SELECT * FROM {self._source('values')} {filter_}")

    def _schemas(self) -> list[list[str]]:
        """The column names of each part of the values (read once per part: parts never
        change)."""
        import pyarrow.parquet as pq

        files = parts(self.root, "values")
        for f in files:
            if f not in self._columns_of:
                self._columns_of[f] = pq.read_schema(f).names
        return [self._columns_of[f] for f in files]

    def value_columns(self) -> list[str]:
        """The metrics, in the order the parts first name them."""
        seen: dict[str, None] = {}
        for names in self._schemas():
            seen.update((n, None) for n in names if n not in ID_COLUMNS)
        return list(seen)

    def by_parent(self) -> bool:
        """True when every part of the values holds the parent's key (stores written since
        2026-11-26: sorted by parent, so a node's children are read from a few row groups)."""
        schemas = self._schemas()
        return bool(schemas) and all("parent" in names for names in schemas)

    def batches(
        self, metric: str, where: tuple[str, ...], nodes: tuple[str, ...] = ("TRUE",)
    ) -> Iterator[Any]:
        """The values of ``metric`` (not null) of the selected profiles, streamed as Arrow record
        batches of columns ``key``, ``profile`` and ``value``: at most ``BATCH`` rows are held at
        once, whatever the ensemble's size. ``nodes``: SQL conditions on ``key`` and ``parent``,
        each read on its own (DuckDB skips row groups for one equality, not for an OR)."""
        column = red.quote(metric)
        filter_ = f"AND profile IN ({self.selected(where)})" if where else ""
        sql = " UNION ALL ".join(
            f"SELECT key, profile, {column} AS value FROM {self._source('values')} "
            f"WHERE {column} IS NOT NULL AND ({condition}) {filter_}"
            for condition in nodes
        )
        with self._lock:
            try:
                reader = self.con.sql(sql).to_arrow_reader(BATCH)
            except self._duck_error as error:
                raise self._where_error(where, error) from None
            yield from reader
