"""``cctviz.Ensemble``: many profiles of one code (nightly runs, scaling studies, sweeps) in a
columnar store on disk, reduced per calling context by an engine: DuckDB in process by default,
Dask on a cluster when given a client. Nothing holds the whole ensemble in memory."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..adapters.reduce import check_reducer
from .engine import reducers as red
from .engine.duckdb_engine import DuckEngine
from .engine.interface import Engine
from .engine.sql import Filter
from .engine.tree import find_key, preorder
from .engine.where import WhereError
from .store.folder import open_folder
from .store.sources import Skipped, items
from .store.store import StoreError, Tables
from .views import Views

MAX_BINS = 100_000  # a histogram's bins at most: more is no picture, and memory grows with them


@dataclass
class _Shared:
    """What the sub-ensembles of one store share: the store, the engines, the skipped files."""

    root: Path
    tables: Tables
    duck: DuckEngine
    dask: Engine | None = None
    skipped: list[Skipped] = field(default_factory=list)
    tree: pd.DataFrame | None = None  # the union tree of the node files ``tree_parts``
    tree_parts: tuple[str, ...] = ()


class Ensemble(Views):
    """An ensemble store in the folder ``path`` (created if missing), queried with DuckDB, or
    with Dask when ``engine`` is a ``distributed.Client``. ``version``: the store as it was at
    that commit (see ``version``; read only).

    >>> ens = cctviz.Ensemble("runs.cctviz")
    >>> ens.add("nightly/**/*.cali")                       # paths, globs, GraphFrames, a Thicket
    >>> ens.where("problem_size == 30").reduce("Avg time/rank")
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        engine: Any = None,
        *,
        create: bool = True,
        version: int | None = None,
    ):
        root = open_folder(path, create and version is None)
        tables = Tables(root, version)
        self._shared = _Shared(root, tables, DuckEngine(tables), _dask_engine(engine, tables))
        self._where: tuple[Filter, ...] = ()

    # -- what it holds ---------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self._shared.root

    @property
    def version(self) -> int | None:
        """The store's version: the number of its profiles table's last commit (an ``add`` that
        adds profiles makes at least one, per ~2 million values for a large one; numbers may
        skip: new metadata columns are a commit of their own), or the version it was opened
        at (``Ensemble(path, version=N)``). Figures and ``w.describe()`` record it."""
        return self._shared.tables.snapshot().version

    @property
    def filters(self) -> tuple[str, ...]:
        """The profile filters of this (sub-)ensemble, all of which a profile passes, as
        conditions (``select``'s ids as ``profile IN ('...', ...)``: what a figure records)."""
        return tuple(
            f if isinstance(f, str) else "profile IN ({})".format(", ".join(map(_quoted, f)))
            for f in self._where
        )

    @property
    def profiles(self) -> pd.DataFrame:
        """One row per profile (index: the profile id), with its metadata, ``hash``, ``source``
        and ``nodes`` (calling contexts with a value)."""
        return self._engine().profiles(self._where)

    def __len__(self) -> int:
        return len(self.profiles)

    @property
    def skipped(self) -> pd.DataFrame:
        """Sources that ``add`` could not read, and why (this session's adds)."""
        rows = [(s.source, s.reason) for s in self._shared.skipped]
        return pd.DataFrame(rows, columns=["source", "reason"])

    @property
    def metrics(self) -> pd.DataFrame:
        """The numeric metrics in the store, with their ``kind`` and ``partner`` (as the reader
        and cctviz's rules decided them at ingest)."""
        return self._shared.duck.metrics()

    @property
    def nodes(self) -> pd.DataFrame:
        """Every calling context of the store (the union of the trees), in pre-order, indexed by
        key: ``parent`` (key), ``name``, ``path``, ``depth``, ``file``, ``line``, ``module``,
        ``type`` and ``frame`` (the frame's attributes as JSON)."""
        shared = self._shared
        now = tuple(shared.tables.snapshot().files("nodes"))  # another process may have added
        if shared.tree is None or shared.tree_parts != now:
            shared.tree, shared.tree_parts = preorder(shared.duck.nodes()), now
        return shared.tree

    def __repr__(self) -> str:
        where = f", where {' and '.join(self.filters)}" if self._where else ""
        pinned = self._shared.tables.pinned
        at = f" at version {pinned}" if pinned is not None else ""
        return f"<cctviz.Ensemble {self.path}{at}: {len(self)} profiles{where}>"

    # -- adding ----------------------------------------------------------------------------
    def add(
        self,
        source: Any,
        metadata: Any = None,
        *,
        reducer: str = "mean",
        workers: int | None = None,
        progress: bool = True,
        ranks: bool = False,
    ) -> int:
        """Adds profiles; returns how many were new. ``source``: a path or glob (Caliper
        .cali/.json, cProfile, HPCToolkit databases, folders of them), a list of paths, a
        GraphFrame, a list of GraphFrames, or a Thicket. ``metadata``: a dict for every profile,
        or one per profile (a list of dicts, a DataFrame); it adds to and overrides what the
        profile's own metadata says. A profile already in the store (same content hash) is not
        added again; one that cannot be read is named in ``skipped``. Ranks and threads of a node
        are combined with ``reducer`` at ingest (mean, sum, min, max, std, imbalance); with
        ``ranks=True`` the per-rank rows are kept as well (see ``ranks``)."""
        check_reducer(reducer)
        shared = self._shared
        if shared.tables.pinned is not None:
            raise StoreError(
                f"{self!r} is the store as it was at version {shared.tables.pinned}: read only. "
                f"Add to cctviz.Ensemble({str(self.path)!r})"
            )
        from .store.verify import check_writable

        check_writable(shared.tables)  # nothing is written into a store that does not verify
        found, unreadable = items(source, metadata)
        before = len(shared.skipped)
        shared.skipped += unreadable
        known = shared.duck.hashes()
        todo = []
        for item in found:
            if item.content_hash not in known:
                known.add(item.content_hash)
                todo.append(item)
        from ..core.extras import warn_skipped
        from .store.adding import add

        added = add(shared, todo, reducer, workers, progress, ranks)
        warn_skipped(s.reason for s in shared.skipped[before:])  # no Hatchet: said once
        return added

    def verify(self, *, deep: bool = False) -> Any:
        """What the store holds and whether every file of it reads: a ``Verification`` (its
        ``ok``, ``problems`` and one row per file in ``parts``). ``deep=True`` reads every file
        whole, not only its footer."""
        from .store.verify import verify

        return verify(self._shared.tables, deep=deep)

    def repair(self, *, grace: float = 3600.0) -> Any:
        """Drops what no reader counts and what cannot be read: files of adds that never
        committed (killed; older than ``grace`` seconds, so that an add running now is left
        alone), files no table lists, and the batches holding a damaged file (their profiles
        are then missing: add them again). Returns what it dropped (a ``Verification`` of the
        store after, with ``dropped``)."""
        from .store.verify import repair

        shared = self._shared
        if shared.tables.pinned is not None:
            raise StoreError(f"{self!r} is read only: repair cctviz.Ensemble({str(self.path)!r})")
        report = repair(shared.tables, grace)
        shared.tree = None
        return report

    def compact(self, *, rows: int | None = None) -> Any:
        """Rewrites the adds as few files (batches of about ``rows`` value rows, values sorted
        by node; by default 8,388,608, about 3 GB of memory while one is written), switched in
        one commit: a store fed by many adds answers a node's trend or a
        filter sooner. Concurrent queries and adds are safe; ``repair()`` then drops the old
        files (older versions cannot be read after that). Returns what it did."""
        from .store.compact import compact
        from .store.verify import check_writable

        shared = self._shared
        if shared.tables.pinned is not None:
            raise StoreError(f"{self!r} is read only: compact cctviz.Ensemble({str(self.path)!r})")
        check_writable(shared.tables)
        done = compact(shared.tables) if rows is None else compact(shared.tables, rows)
        shared.tree = None
        return done

    @classmethod
    def from_thicket(cls, tk: Any, path: str | os.PathLike[str], **kwargs: Any) -> Ensemble:
        """A store at ``path`` holding the profiles of Thicket ``tk`` (with its metadata)."""
        ens = cls(path)
        ens.add(tk, **kwargs)
        return ens

    # -- queries -----------------------------------------------------------------------------
    def where(self, condition: str) -> Ensemble:
        """The sub-ensemble of the profiles whose metadata pass ``condition``, a SQL condition
        (DuckDB) such as ``"problem_size == 30 and launchdate >= '2023-09-06'"``. Lazy: nothing
        is read until a query; conditions add up (``ens.where(a).where(b)``)."""
        from .engine.where import check

        condition = check(condition, self._shared.duck.profile_columns())
        return self._sub(condition, f"{condition!r}")

    def select(self, profiles: Any) -> Ensemble:
        """The sub-ensemble of the profiles with these ids (an id, or a list of ids as in
        ``profiles``' index); an id the ensemble lacks is a KeyError."""
        ids = [profiles] if isinstance(profiles, str) else list(profiles)
        if not ids or not all(isinstance(i, str) for i in ids):
            raise TypeError(
                f"select() takes profile ids (text), as ens.profiles.index; got {ids!r:.80}"
            )
        missing = sorted(set(ids) - set(self.profiles.index))
        if missing:
            raise KeyError(f"no profile {missing[0]!r} in {self!r} ({len(missing)} ids missing)")
        return self._sub(tuple(dict.fromkeys(ids)), f"{len(ids)} profile ids")

    def _sub(self, condition: Filter, said: str) -> Ensemble:
        sub = object.__new__(Ensemble)
        sub._shared = self._shared
        sub._where = (*self._where, condition)
        sub._configuration = self._configuration
        if not len(sub.profiles):  # runs the filter once: a bad condition fails here, clearly
            raise WhereError(
                f"no profile passes {said}: {len(self)} profiles do not "
                "(ens.profiles shows their metadata)"
            )
        return sub

    @property
    def metric_names(self) -> list[str]:
        """The metrics the store holds values of."""
        return self._shared.duck.value_columns()

    def _metric(self, metric: str) -> str:
        columns = self._shared.duck.value_columns()
        if metric not in columns:
            # a Caliper time statistic by the name the other Hatchet gives it (LLNL's spot alias
            # "Avg time/rank", UMD's attribute "avg#inclusive#sum#time.duration"): one script
            # runs under both
            other = SPOT_NAMES.get(metric) or next(
                (a for a, n in SPOT_NAMES.items() if n == metric), None
            )
            if other in columns:
                return str(other)
            raise KeyError(f"no metric {metric!r} in the ensemble; metrics: {', '.join(columns)}")
        return metric

    def reduce(self, metric: str, reducers: Any = red.DEFAULT) -> pd.DataFrame:
        """One row per calling context held by a selected profile (index: key), in pre-order:
        ``path``, ``name``, ``parent`` (key), ``count`` (profiles with a value) and one column
        per reducer (see cctviz.ensemble.engine.reducers)."""
        wanted = red.check(reducers)
        metric = self._metric(metric)
        reduced = self._engine().reduce(metric, wanted, self._where)
        tree = self.nodes
        out = tree.loc[tree.index.isin(reduced["key"]), ["path", "name", "parent"]]
        reduced = reduced.set_index("key").reindex(out.index)
        out = out.join(reduced)
        out["count"] = out["count"].astype(np.int64)
        return out

    def _engine(self) -> Engine:
        """Where the queries run: the cluster given as ``engine=``, else DuckDB in process."""
        shared = self._shared
        return shared.dask if shared.dask is not None else shared.duck

    def distribution(self, node: Any, metric: str) -> pd.DataFrame:
        """The values of ``metric`` at ``node`` (a key, a path or a unique name), one row per
        selected profile holding it, with the profile's metadata; column ``value``."""
        metric = self._metric(metric)
        return self._engine().distribution(find_key(self.nodes, node), metric, self._where)

    def ranks(self, node: Any, metric: str) -> pd.DataFrame:
        """The values of ``metric`` at ``node`` per rank (and thread) of each selected profile
        added with ``ranks=True``: columns ``profile``, ``rank`` (``thread``), ``value`` and the
        profile's metadata. The other tables hold each node reduced over its ranks."""
        metric = self._metric(metric)
        duck = self._shared.duck
        if not duck.has("ranks"):
            raise ValueError(
                f"{self!r} keeps no per-rank rows: add profiles with ens.add(..., ranks=True)"
            )
        return duck.ranks(find_key(self.nodes, node), metric, self._where)

    def totals(self, metric: str) -> pd.Series:
        """Per selected profile (index: the profile id), ``metric`` summed over the roots of
        the tree: a run's total of an inclusive metric (NaN: the profile has no value)."""
        metric = self._metric(metric)
        tree = self.nodes
        roots = tree.index[tree["depth"] == 0].tolist()
        got = self._engine().totals(metric, roots, self._where).set_index("profile")["value"]
        return got.reindex(self.profiles.index).astype(np.float64).rename(metric)

    def histogram(self, node: Any, metric: str, bins: int = 16) -> pd.DataFrame:
        """``bins`` equal bins of ``metric`` at ``node`` over the selected profiles: columns
        ``low``, ``high`` and ``count``."""
        if (
            not isinstance(bins, (int, np.integer))
            or isinstance(bins, bool)
            or not 1 <= bins <= MAX_BINS
        ):
            raise ValueError(f"bins is a whole number from 1 to {MAX_BINS:,}; got {bins!r}")
        bins = int(bins)
        values = self.distribution(node, metric)["value"].to_numpy(np.float64)
        values = values[np.isfinite(values)]
        counts, edges = (
            np.histogram(values, bins=bins)
            if values.size
            else (np.zeros(bins, int), np.zeros(bins + 1))
        )
        return pd.DataFrame({"low": edges[:-1], "high": edges[1:], "count": counts})


# Caliper's spot channel: the aliases of its time statistics, and the attributes they name
SPOT_NAMES = {
    "Min time/rank": "min#inclusive#sum#time.duration",
    "Max time/rank": "max#inclusive#sum#time.duration",
    "Avg time/rank": "avg#inclusive#sum#time.duration",
    "Total time": "sum#inclusive#sum#time.duration",
}


def _quoted(text: str) -> str:
    """Text as a SQL literal, for showing and recording a filter (queries get parameters)."""
    return "'" + text.replace("'", "''") + "'"


def _dask_engine(engine: Any, tables: Tables) -> Engine | None:
    if engine is None or engine == "duckdb":
        return None
    from .engine.dask_engine import DaskEngine

    return DaskEngine(engine, tables)
