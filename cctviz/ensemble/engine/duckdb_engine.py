"""Queries of the store on DuckDB, in process (no server). Each query reads the files of one
snapshot of the store (cctviz.ensemble.store.store: the committed batches' Parquet files, listed by
the Delta tables' logs), taken as the query starts: what another process committed is seen by the
next query, what it has not committed yet never is."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from ..store.ids import CODE, codes
from ..store.store import Snapshot, Tables, damaged
from . import pruning, summarised
from . import reducers as red
from .failures import failed
from .interface import Task, Where, key_ranges
from .sql import BATCH, EMPTY_NODES, ID_COLUMNS, Filter, params
from .where import harden

R = TypeVar("R")


class DuckEngine:
    """The embedded engine of one store."""

    def __init__(self, tables: Tables) -> None:
        import duckdb

        self.tables = tables
        self.root: Path = tables.root
        self.con = duckdb.connect(database=":memory:")
        self.con.execute("SET enable_progress_bar = false")  # no bar printed into notebooks
        # a Parquet file of a Delta table is written once and never changed, so the footers
        # DuckDB read stay true: a query of a few nodes does not read 50 footers again
        self.con.execute("SET parquet_metadata_cache = true")
        # nothing outside the store is read or written, whatever a query says; locked
        harden(self.con, [str(self.root)])
        self._lock = threading.Lock()
        self._columns_of: dict[str, list[str]] = {}
        self._profiles: dict[tuple[Any, ...], pd.DataFrame] = {}
        self._kept: dict[tuple[Any, ...], dict[str, tuple[int, int]]] = {}
        self._described: tuple[Any, list[str]] = (None, [])
        self._coded: dict[tuple[Any, ...], bool] = {}
        self._duck_error = duckdb.Error

    def snap(self) -> Snapshot:
        return self.tables.snapshot()

    def _source(self, table: str, snap: Snapshot | None = None) -> str:
        return pruning.parquet((snap or self.snap()).files(table), table)

    def kept_per_batch(
        self, where: tuple[Filter, ...], snap: Snapshot
    ) -> dict[str, tuple[int, int]]:
        """Per batch of the store: its profiles, and how many of them ``where`` keeps (read once
        per filter and version)."""
        seen = ("kept", where, snap.versions, snap.version)
        if seen not in self._kept:
            if len(self._kept) >= 16:
                self._kept.pop(next(iter(self._kept)))
            self._kept[seen] = pruning.kept_batches(self, where, snap)
        return self._kept[seen]

    def has(self, table: str) -> bool:
        return bool(self.snap().files(table))

    def query(self, sql: str, values: dict[str, Any] | None = None) -> pd.DataFrame:
        # one query at a time: a widget's messages and the notebook's code can come in on
        # different threads of the kernel, and a DuckDB connection refuses a second caller
        with self._lock:
            df = self.con.execute(sql, values or None).df()
        for name in df.columns:  # Delta keeps microseconds; pandas code here counts in ns
            if pd.api.types.is_datetime64_any_dtype(df[name]) and df[name].dtype != "M8[ns]":
                df[name] = df[name].astype("datetime64[ns]")
        return df

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

    @staticmethod
    def clause(where: tuple[Filter, ...]) -> str:
        """``where`` as one SQL condition on the profiles (id filters as parameters)."""
        return (
            " AND ".join(
                f"({w})" if isinstance(w, str) else f"(profile IN (SELECT unnest($ids{i})))"
                for i, w in enumerate(where)
            )
            or "TRUE"
        )

    def selected(self, where: tuple[Filter, ...], snap: Snapshot) -> str:
        """SQL selecting the profile ids that pass every filter of ``where``."""
        return f"SELECT profile FROM {self._source('profiles', snap)} WHERE {self.clause(where)}"

    def _filter(self, where: tuple[Filter, ...], snap: Snapshot, alias: str = "") -> str:
        return f"AND {alias}profile IN ({self.selected(where, snap)})" if where else ""

    def run_filtered(
        self, where: tuple[Filter, ...], sql: str, more: dict[str, Any] | None = None
    ) -> pd.DataFrame:
        """``sql`` run with ``where``'s parameters (and ``more``); errors as cctviz's."""
        try:
            return self.query(sql, {**params(where), **(more or {})})
        except self._duck_error as error:
            raise failed(self, where, error) from None

    def profiles(self, where: tuple[Filter, ...], copy: bool = True) -> pd.DataFrame:
        snap = self.snap()
        if not snap.files("profiles"):
            return pd.DataFrame({"profile": [], "hash": [], "source": [], "nodes": []}).set_index(
                "profile"
            )
        # files never change: the same snapshot and filters give the same rows, read once
        seen = (where, snap.versions, snap.version)
        if seen not in self._profiles:
            clause = self.clause(where)
            df = self.run_filtered(
                where, f"SELECT * FROM {self._source('profiles', snap)} WHERE {clause}"
            )
            if len(self._profiles) >= 16:
                self._profiles.pop(next(iter(self._profiles)))
            self._profiles[seen] = df.drop_duplicates("profile").set_index("profile")
        # the caller may change its copy (``copy=False``: the engine's own, to read only)
        return self._profiles[seen].copy() if copy else self._profiles[seen]

    def profile_columns(self) -> list[str]:
        """The profiles' columns (metadata and the store's own), as a filter can name them."""
        snap = self.snap()
        if self._described[0] != snap.versions:
            described = self.query(f"DESCRIBE SELECT * FROM {self._source('profiles', snap)}")
            self._described = (snap.versions, [str(c) for c in described["column_name"]])
        return list(self._described[1])

    def hashes(self) -> set[str]:
        return set(self.run_filtered((), f"SELECT hash FROM {self._source('profiles')}")["hash"])

    def node_keys(self) -> set[int]:
        return set(
            self.run_filtered((), f"SELECT key FROM {self._source('nodes')}")["key"].tolist()
        )

    def nodes(self) -> pd.DataFrame:
        """Every calling context once, in the order the store met them (parents first)."""
        snap = self.snap()
        if not snap.files("nodes"):
            return EMPTY_NODES.copy()
        df = self.run_filtered((), f"SELECT * FROM {self._source('nodes', snap)}")
        return df.drop_duplicates("key").reset_index(drop=True)

    def metrics(self) -> pd.DataFrame:
        snap = self.snap()
        if not snap.files("metrics"):
            return pd.DataFrame({"kind": [], "partner": []}, index=pd.Index([], name="metric"))
        df = self.run_filtered((), f"SELECT * FROM {self._source('metrics', snap)}")
        return df.drop_duplicates("metric").set_index("metric")

    def reduce(
        self,
        metric: str,
        reducers: tuple[str, ...],
        where: tuple[Filter, ...],
        keys: tuple[int, int] | None = None,
    ) -> pd.DataFrame:
        """One row per node key where a selected profile has a value of ``metric``: ``count``
        (such profiles) and one column per reducer; ``keys``: only the keys from the first to
        the second (a Dask task's share)."""
        snap = self.snap()
        if summarised.applies(reducers, snap):  # a mean or a std: the summaries kept at ingest
            return summarised.reduce(self, metric, reducers, where, keys, snap)
        column = red.quote(metric)
        aggregates = ", ".join(f"{red.sql(r, 'v.' + column)} AS {red.quote(r)}" for r in reducers)
        share = "AND v.key BETWEEN $low AND $high" if keys is not None else ""
        bounds = {"low": int(keys[0]), "high": int(keys[1])} if keys is not None else None
        values = pruning.values_relation(self, where, snap, metric)
        return self.run_filtered(
            where,
            f"SELECT v.key, count(v.{column}) AS count, {aggregates} "
            f"FROM {values} v WHERE v.{column} IS NOT NULL {share} "
            f"{self._filter(where, snap, 'v.')} GROUP BY v.key",
            bounds,
        )

    def distribution(self, key: int, metric: str, where: tuple[Filter, ...]) -> pd.DataFrame:
        snap = self.snap()
        column = red.quote(metric)
        values = pruning.values_relation(self, where, snap, metric)
        sql = (
            f"SELECT p.*, v.{column} AS value FROM {values} v "
            f"JOIN {self._source('profiles', snap)} p ON p.profile = v.profile "
            f"WHERE v.key = $key AND v.{column} IS NOT NULL {self._filter(where, snap, 'v.')} "
            "ORDER BY v.profile"
        )
        return (
            self.run_filtered(where, sql, {"key": int(key)})
            .drop_duplicates("profile")
            .set_index("profile")
        )

    def ranks(self, key: int, metric: str, where: tuple[Filter, ...]) -> pd.DataFrame:
        snap = self.snap()
        column = red.quote(metric)
        source = self._source("ranks", snap)
        described = self.run_filtered((), f"DESCRIBE SELECT * FROM {source}")["column_name"]
        if metric not in set(described):
            raise KeyError(
                f"no per-rank values of {metric!r}: the per-rank rows hold "
                f"{', '.join(c for c in described if c not in (*ID_COLUMNS, 'rank', 'thread'))}"
            )
        levels = ", ".join(f"r.{c}" for c in ("rank", "thread") if c in set(described))
        sql = (
            f"SELECT r.profile, {levels}, r.{column} AS value, p.* EXCLUDE (profile) "
            f"FROM {source} r JOIN {self._source('profiles', snap)} p "
            f"ON p.profile = r.profile WHERE r.key = $key AND r.{column} IS NOT NULL "
            f"{self._filter(where, snap, 'r.')} ORDER BY r.profile, {levels}"
        )
        return self.run_filtered(where, sql, {"key": int(key)}).reset_index(drop=True)

    def totals(self, metric: str, keys: list[int], where: tuple[Filter, ...]) -> pd.DataFrame:
        """Per selected profile holding any of the nodes ``keys``: ``value``, the sum of
        ``metric`` over them (over the roots: a run's total of an inclusive metric)."""
        snap = self.snap()
        column = red.quote(metric)
        marks = ", ".join(str(int(k)) for k in keys) or "NULL"  # whole numbers only
        sql = (
            f"SELECT v.profile, sum(v.{column}) AS value "
            f"FROM {pruning.values_relation(self, where, snap, metric)} v "
            f"WHERE v.key IN ({marks}) AND v.{column} IS NOT NULL "
            f"{self._filter(where, snap, 'v.')} GROUP BY v.profile"
        )
        return self.run_filtered(where, sql)

    def values(self, where: tuple[Filter, ...]) -> pd.DataFrame:
        """Every value row of the selected profiles (for a small subset: a Thicket)."""
        snap = self.snap()
        filter_ = f"WHERE profile IN ({self.selected(where, snap)})" if where else ""
        values = pruning.values_relation(self, where, snap, None)
        return self.run_filtered(where, f"SELECT * FROM {values} {filter_}")

    def per_keys(self, task: Task[R], metric: str, where: Where, shares: int = 1) -> list[R]:
        """``task`` over each of ``shares`` ranges of the node keys in turn, in this process."""
        return [
            task(self.batches(metric, where, ("TRUE",), keys), keys) for keys in key_ranges(shares)
        ]

    def table(
        self,
        metric: str,
        where: tuple[Filter, ...],
        nodes: tuple[str, ...] = ("TRUE",),
        keys: tuple[int, int] | None = None,
    ) -> Any:
        """What ``batches`` streams, as one Arrow table (what a Dask task sends back)."""
        import pyarrow as pa

        got = list(self.batches(metric, where, nodes, keys))
        if got:
            return pa.Table.from_batches(got)
        schema = pa.schema([("key", pa.int64()), ("profile", pa.string()), ("value", pa.float64())])
        return schema.empty_table()

    def _schemas(self) -> list[list[str]]:
        """The column names of each file of the values (read once per file: files never
        change)."""

        return [self.columns_of(f) for f in self.snap().files("values")]

    def columns_of(self, file: str) -> list[str]:
        """The column names of one Parquet file of the store (read once: files never change)."""
        import pyarrow.parquet as pq

        if file not in self._columns_of:
            try:
                self._columns_of[file] = pq.read_schema(file).names
            except (OSError, ValueError) as error:
                raise damaged(f"the store's file {file}", str(error).splitlines()[0]) from None
        return self._columns_of[file]

    def value_columns(self) -> list[str]:
        """The metrics, in the order the files first name them."""
        seen: dict[str, None] = {}
        for names in self._schemas():
            seen.update((n, None) for n in names if n not in ID_COLUMNS)
        return list(seen)

    def by_parent(self) -> bool:
        """True when every file of the values holds the parent's key (stores written since
        2026-11-26: sorted by parent, so a node's children are read from a few row groups)."""
        schemas = self._schemas()
        return bool(schemas) and all("parent" in names for names in schemas)

    def coded(self, snap: Snapshot) -> bool:
        """True when every value file holds the profiles' codes (cctviz.ensemble.store.ids) and
        no two of the store's profiles share one: values may then be told apart by code."""
        files = snap.files("values")
        seen = (snap.versions, snap.version)
        if seen not in self._coded:
            ok = bool(files) and all(CODE in self.columns_of(f) for f in files)
            if ok:
                ids = self.profiles(()).index
                ok = len(np.unique(codes(ids))) == len(ids)
            self._coded = {seen: ok}  # the latest version only: a bool per version
        return self._coded[seen]

    def batches(
        self,
        metric: str,
        where: tuple[Filter, ...],
        nodes: tuple[str, ...] = ("TRUE",),
        keys: tuple[int, int] | None = None,
    ) -> Iterator[Any]:
        """The values of ``metric`` (not null) of the selected profiles, streamed as Arrow record
        batches of columns ``key``, ``profile`` (its code, an integer, where the store has
        codes: :meth:`coded`) and ``value``: at most ``BATCH`` rows are held at
        once, whatever the ensemble's size. ``nodes``: SQL conditions on ``key`` and ``parent``,
        each read on its own (DuckDB skips row groups for one equality, not for an OR); ``keys``:
        only the keys from the first to the second (a Dask task's share)."""
        snap = self.snap()
        column = red.quote(metric)
        filter_ = self._filter(where, snap)
        if keys is not None:  # whole numbers only: written into the SQL
            filter_ += f" AND key BETWEEN {int(keys[0])} AND {int(keys[1])}"
        source = pruning.values_relation(self, where, snap, metric)
        profile = CODE if self.coded(snap) else "profile"
        sql = " UNION ALL ".join(
            f"SELECT key, {profile} AS profile, {column} AS value FROM {source} "
            f"WHERE {column} IS NOT NULL AND ({condition}) {filter_}"
            for condition in nodes
        )
        with self._lock:
            try:
                reader = self.con.sql(sql, params=params(where) or None).to_arrow_reader(BATCH)
            except self._duck_error as error:
                raise failed(self, where, error) from None
            yield from reader
