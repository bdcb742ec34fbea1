"""The one interface an ensemble's queries go through: ``Engine``, what both engines answer —
DuckDB in the notebook's process (``duckdb_engine.DuckEngine``) and a Dask cluster
(``dask_engine.DaskEngine``, which runs the same DuckDB queries as tasks on its workers, each
over its share of the call-path keys). ``tests/test_engines.py`` runs every query on both and
asserts they agree to 1e-9.

``Where`` is a checked profile filter (``where.check``: SQL conditions on the profiles' metadata,
or lists of profile ids, each passed as a parameter), never text from a page. ``KeyRange`` is an
inclusive range of node keys (64-bit hashes of call paths): how the Dask engine splits a query
among its tasks so that each node's values meet in one task and exact quantiles stay exact."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

import pandas as pd

from .sql import Filter

Where = tuple[Filter, ...]
KeyRange = tuple[int, int]
"""Node keys from the first to the second, both included."""
R = TypeVar("R")
Task = Callable[[Iterator[Any], KeyRange], R]
"""Work over one share of the node keys: given the values of those nodes as Arrow record batches
(``key``, ``profile``, ``value``) and the share's key range, it returns what the caller needs
(e.g. the change points found there): a module-level function, or a ``functools.partial`` of
one, so a Dask worker can run it."""


class Engine(Protocol):
    """The queries every engine answers, on the store at the version it reads."""

    def profiles(self, where: Where, copy: bool = True) -> pd.DataFrame:
        """The profiles passing ``where`` (index: profile id), with their metadata (``copy``
        False: the engine's own frame, which the caller only reads)."""
        ...

    def reduce(
        self, metric: str, reducers: tuple[str, ...], where: Where, keys: KeyRange | None = None
    ) -> pd.DataFrame:
        """One row per node key (``key``, ``count`` and one column per reducer) where a selected
        profile has a value of ``metric``; ``keys``: only those keys."""
        ...

    def distribution(self, key: int, metric: str, where: Where) -> pd.DataFrame:
        """The values of ``metric`` at node ``key`` (``value``), one row per selected profile,
        with its metadata (index: profile id)."""
        ...

    def totals(self, metric: str, keys: list[int], where: Where) -> pd.DataFrame:
        """Per selected profile holding any of ``keys``: ``value``, their sum of ``metric``."""
        ...

    def batches(
        self, metric: str, where: Where, nodes: tuple[str, ...] = ("TRUE",)
    ) -> Iterator[Any]:
        """The values of ``metric`` (not null) of the selected profiles as Arrow record batches
        of ``key``, ``profile`` and ``value``; ``nodes``: SQL conditions on ``key`` and
        ``parent`` (whole numbers only), each read on its own."""
        ...

    def by_parent(self) -> bool:
        """Whether every file of the values holds the parent's key (a node's children are then
        read from a few row groups)."""
        ...

    def values(self, where: Where) -> pd.DataFrame:
        """Every value row of the selected profiles (for a small subset: a Thicket)."""
        ...

    def per_keys(self, task: Task[R], metric: str, where: Where, shares: int = 1) -> list[R]:
        """``task`` run over the values of ``metric`` of the selected profiles, once per share
        of the node keys (at least ``shares``: fewer values held at once), the results in key
        order; on a cluster, each share is a task on a worker."""
        ...


def key_ranges(n: int) -> list[KeyRange]:
    """The 64-bit key space (signed) cut into ``n`` ranges of equal width, in order, covering
    it: node keys are hashes of call paths, spread evenly over it."""
    low, high = -(2**63), 2**63 - 1
    edges = [low + (high - low) * i // n for i in range(n + 1)]
    return [(int(edges[i]) if i == 0 else int(edges[i]) + 1, int(edges[i + 1])) for i in range(n)]
