"""The ensemble's queries on a Dask cluster (``distributed``): a ``LocalCluster`` on one machine,
a scheduler and workers started from the command line, or a cluster from ``dask-jobqueue`` on
SLURM, every worker reading the store from a shared file system at the same path.

Each query runs as tasks on the workers, and each task runs the DuckDB engine's own SQL
(``duckdb_engine.DuckEngine``) over the store at the version the notebook reads (its files are
sent with the task: a commit made meanwhile is not half seen). A reduction is split by node key:
the 64-bit key space is cut into one range per task (``KeyRange``), so every node's values meet
in one task and its exact median and percentiles are DuckDB's, with no shuffle; the results are
put together in the notebook. A node's distribution and the runs' totals are one task each (they
read one or a few nodes). The profile filter (``where``) is applied by DuckDB in each task, as
in the notebook's process.

Why DuckDB in the tasks and not Dask's own grouped aggregations: a grouped quantile in
``dask.dataframe`` gathers each node's values by a shuffle of the whole table; DuckDB over one
key range reads only that range's row groups (the values are written sorted by key).

A cluster that goes away is said, not waited on forever (cctviz.ensemble.store.cluster: the query
raises ``ClusterGone``, saying what to do)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from ..store.cluster import QUERY, check_client, ended
from ..store.store import Snapshot, Tables
from .duckdb_engine import DuckEngine
from .interface import KeyRange, Task, Where, key_ranges

R = TypeVar("R")
TASKS_PER_THREAD = 2
"""Key ranges a reduction is cut into, per worker thread (some slack for uneven ranges)."""


class DaskEngine:
    """The queries of one store, run as tasks on the cluster of ``client`` (a
    ``distributed.Client``)."""

    def __init__(self, client: Any, tables: Tables) -> None:
        if not hasattr(client, "submit") or not hasattr(client, "scheduler_info"):
            raise TypeError(
                "engine= takes a dask.distributed Client (or None / 'duckdb' for the embedded "
                f"engine); got {type(client).__name__}"
            )
        self.client = client
        self.tables = tables
        self._profiles: dict[tuple[Any, ...], pd.DataFrame] = {}

    # -- the queries (``interface.Engine``) ----------------------------------------------------
    def profiles(self, where: Where, copy: bool = True) -> pd.DataFrame:
        snap = self.tables.snapshot()
        seen = (where, snap.versions, snap.version)  # files never change: read once
        if seen not in self._profiles:
            if len(self._profiles) >= 16:
                self._profiles.pop(next(iter(self._profiles)))
            self._profiles[seen] = self._one(snap, "profiles", (where,))
        return self._profiles[seen].copy() if copy else self._profiles[seen]

    def reduce(
        self, metric: str, reducers: tuple[str, ...], where: Where, keys: KeyRange | None = None
    ) -> pd.DataFrame:
        snap = self.tables.snapshot()
        ranges = [keys] if keys is not None else key_ranges(self._tasks())
        futures = [self._submit(snap, "reduce", (metric, reducers, where, r)) for r in ranges]
        for _ in ended(self.client, futures, QUERY):
            pass
        parts = [p for p in self.client.gather(futures) if len(p)]
        if not parts:
            return self._one(snap, "reduce", (metric, reducers, where, (0, -1)))  # no rows
        return pd.concat(parts, ignore_index=True)

    def distribution(self, key: int, metric: str, where: Where) -> pd.DataFrame:
        return self._one(self.tables.snapshot(), "distribution", (key, metric, where))

    def totals(self, metric: str, keys: list[int], where: Where) -> pd.DataFrame:
        return self._one(self.tables.snapshot(), "totals", (metric, keys, where))

    def batches(
        self, metric: str, where: Where, nodes: tuple[str, ...] = ("TRUE",)
    ) -> Iterator[Any]:
        """Values of a few nodes (``nodes`` names them: a trend) in one task; of every node, one
        task per key range, each part sent back as its task ends (one part held at a time)."""
        snap = self.tables.snapshot()
        ranges: list[KeyRange | None] = (
            list(key_ranges(self._tasks())) if nodes == ("TRUE",) else [None]
        )
        futures = [self._submit(snap, "table", (metric, where, nodes, r)) for r in ranges]
        for future in ended(self.client, futures, QUERY):  # the rest cancelled if stopped early
            table = future.result()
            future.release()
            yield from table.to_batches()

    def values(self, where: Where) -> pd.DataFrame:
        """Every value row of the selected profiles (a small subset: a Thicket), in one task."""
        return self._one(self.tables.snapshot(), "values", (where,))

    def by_parent(self) -> bool:
        return bool(self._one(self.tables.snapshot(), "by_parent", ()))

    def per_keys(self, task: Task[R], metric: str, where: Where, shares: int = 1) -> list[R]:
        """``task`` as one Dask task per share of the keys (at least one per worker thread
        and two per thread as for a reduction), each on its worker over its share's values:
        only what ``task`` returns comes back."""
        snap = self.tables.snapshot()
        ranges = key_ranges(max(shares, self._tasks()))
        check_client(self.client, QUERY)
        futures = [
            self.client.submit(_per_keys, self._root(), snap, task, metric, where, r)
            for r in ranges
        ]
        for _ in ended(self.client, futures, QUERY):
            pass
        return [future.result() for future in futures]

    # -- tasks ---------------------------------------------------------------------------------
    def _root(self) -> str:
        return str(self.tables.root)

    def _submit(self, snap: Snapshot, method: str, args: tuple[Any, ...]) -> Any:
        check_client(self.client, QUERY)  # a closed client's tasks would never run
        return self.client.submit(_query, self._root(), snap, method, args)

    def _one(self, snap: Snapshot, method: str, args: tuple[Any, ...]) -> Any:
        future = self._submit(snap, method, args)
        for _ in ended(self.client, [future], QUERY):
            pass
        return future.result()

    def _tasks(self) -> int:
        check_client(self.client, QUERY)
        workers = self.client.scheduler_info().get("workers", {})
        threads = sum(int(w.get("nthreads", 1)) for w in workers.values())
        return max(1, TASKS_PER_THREAD * threads)


class _Frozen:
    """The store as a task reads it: at the snapshot the notebook took (``Tables``' reads)."""

    def __init__(self, root: str, snap: Snapshot) -> None:
        self.root = Path(root)
        self.pinned = snap.version
        self._snap = snap

    def snapshot(self) -> Snapshot:
        return self._snap


_engines: dict[tuple[str, Any], DuckEngine] = {}
_engines_lock = threading.Lock()


def _engine(root: str, snap: Snapshot) -> DuckEngine:
    """On a worker: the DuckDB engine of the store ``root`` at ``snap`` (an engine per store and
    version, kept: DuckDB caches the files' footers)."""
    at = (root, snap.versions)
    with _engines_lock:
        engine = _engines.get(at)
        if engine is None:
            if len(_engines) >= 8:
                _engines.pop(next(iter(_engines)))
            engine = _engines[at] = DuckEngine(_Frozen(root, snap))  # type: ignore[arg-type]
    return engine


def _query(root: str, snap: Snapshot, method: str, args: tuple[Any, ...]) -> Any:
    """On a worker: the DuckDB engine's ``method`` over the store ``root`` at ``snap``."""
    result = getattr(_engine(root, snap), method)(*args)
    return result if not isinstance(result, np.ndarray) else result.copy()


def _per_keys(
    root: str, snap: Snapshot, task: Task[R], metric: str, where: Where, keys: KeyRange
) -> R:
    """On a worker: ``task`` over the values of ``metric`` at the nodes of ``keys``."""
    engine = _engine(root, snap)
    return task(engine.batches(metric, where, ("TRUE",), keys), keys)
