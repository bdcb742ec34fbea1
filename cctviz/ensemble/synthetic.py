"""A synthetic ensemble written straight into a store, for tests and benchmarks: one calling
context tree of ``n_nodes`` (realistic names: main, solver phases, MPI calls, kernels), and
``n_profiles`` runs of it with realistic metadata (a launch date per run, job sizes, compilers,
problem sizes), noise, and optional injected changes at known runs and nodes."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .store.adding import FLUSH_ROWS  # value rows per write, as an add writes them
from .store.commit import append, commit_profiles
from .store.folder import open_folder
from .store.keys import ROOT, frame_text, key_of
from .store.store import Tables, new_batch

PHASES = ("init", "setup", "solve", "exchange", "output", "finalize")
KERNELS = ("CalcForce", "Integrate", "ApplyBC", "Reduce", "Gather", "Scatter", "Pack", "Unpack")
MPI = ("MPI_Allreduce", "MPI_Isend", "MPI_Irecv", "MPI_Wait", "MPI_Barrier", "MPI_Bcast")
COMPILERS = ("gcc-12", "clang-16", "intel-2023")
JOB_SIZES = (64, 128, 256, 512, 1024)
BATCH = 200  # profiles made at a time (numpy arrays of BATCH × n_nodes)


@dataclass(frozen=True)
class Change:
    """From run ``at`` on (in launch order), node ``node``'s exclusive time × ``factor``; in the
    runs whose metadata match ``where`` only (e.g. ``{"compiler": "gcc-12"}``; empty: all)."""

    node: int
    at: int
    factor: float
    where: Mapping[str, Any] = field(default_factory=dict)


def _tree(n: int, rng: np.random.Generator) -> tuple[np.ndarray, list[str]]:
    """A random pre-order tree of ``n`` nodes: parents and names (siblings named apart)."""
    parent = np.full(n, -1, np.int64)
    depth = np.zeros(n, np.int64)
    names = ["main"]
    used: dict[int, set[str]] = {0: set()}
    for i in range(1, n):
        # pre-order: the parent is an earlier node on the current path, mostly the last one
        p = i - 1
        while p > 0 and (depth[p] >= 12 or rng.random() < 0.45):
            p = int(parent[p])
        parent[i], depth[i] = p, depth[p] + 1
        pool = PHASES if depth[i] == 1 else MPI if rng.random() < 0.2 else KERNELS
        base = pool[int(rng.integers(len(pool)))]
        name, k = base, 1
        while name in used[p]:
            k += 1
            name = f"{base}_{k}"
        used[p].add(name)
        used[i] = set()
        names.append(name)
    return parent, names


CENTURY = 36_525
"""Days of launch dates, at most: more runs are launched several a day."""


def launch_dates(start: str, n: int) -> pd.DatetimeIndex:
    """The launch dates of ``n`` runs from ``start``: a day apart; more runs than a century of
    days are launched several a day, evenly (a date a day for 10^5 runs would pass pandas' last
    date, in 2262)."""
    step = pd.Timedelta(days=1) if n <= CENTURY else pd.Timedelta(days=CENTURY) / n
    return pd.DatetimeIndex(pd.Timestamp(start) + step * np.arange(n))


def ensemble(
    path: str | os.PathLike[str],
    n_profiles: int = 100,
    n_nodes: int = 200,
    *,
    seed: int = 0,
    changes: Sequence[Change] = (),
    noise: float = 0.05,
    outliers: float = 0.0,
    job_sizes: Sequence[int] = JOB_SIZES,
    problem_sizes: Sequence[int] = (20, 30, 40),
    start: str = "2025-01-01",
    compilers: Sequence[str] = COMPILERS,
    levels: Mapping[str, float] | None = None,
    sweep: int = 0,
    metadata: Mapping[str, Sequence[Any]] | None = None,
) -> Any:
    """Writes a synthetic ensemble into a new store at ``path`` and returns it (an Ensemble).
    Each run is one profile launched a day after the previous one (more runs than a century of
    days: several a day, evenly spread over a century); its exclusive ``time`` per
    node is a base cost × (job size / 64)^-0.8 (strong scaling) × lognormal noise of ``noise``,
    with ``changes`` applied and a fraction ``outliers`` of (run, node) values tripled (single-run
    outliers); ``time (inc)`` is the subtree sum. One job size and problem size
    (``job_sizes=(64,), problem_sizes=(30,)``) make a nightly series of one configuration.

    Each run's job size, problem size and compiler are drawn at random, unless ``sweep`` > 0:
    then the runs are a study launched one configuration after another (problem sizes, then job
    sizes, then compilers, ``sweep`` runs of each, over and over). ``levels``: a time factor per
    compiler (e.g. ``{"clang-16": 1.3}``); ``metadata``: more columns, one value per run."""
    from .ensemble import Ensemble

    if n_profiles < 1 or n_nodes < 1:
        raise ValueError("an ensemble has at least one profile and one node")
    rng = np.random.default_rng(seed)
    root = open_folder(path, create=True)
    parent, names = _tree(n_nodes, rng)
    frames = [frame_text({"name": nm, "type": "function"}) for nm in names]
    keys = np.zeros(n_nodes, np.int64)
    for i in range(n_nodes):
        keys[i] = key_of(int(keys[parent[i]]) if parent[i] >= 0 else ROOT, frames[i], 0)
    parent_keys = np.where(parent >= 0, keys[np.maximum(parent, 0)], ROOT)
    nodes = pd.DataFrame(
        {
            "key": keys,
            "parent": parent_keys,
            "name": names,
            "file": None,
            "line": None,
            "module": None,
            "type": "function",
            "frame": frames,
        }
    )
    batch = new_batch()  # one add: committed at the end, all or nothing
    append(root, "nodes", nodes, batch)
    kinds = pd.DataFrame(
        {
            "metric": ["time", "time (inc)"],
            "kind": ["exclusive", "inclusive"],
            "partner": ["time (inc)", "time"],
        }
    )
    append(root, "metrics", kinds, batch)
    base = rng.lognormal(mean=0.0, sigma=1.5, size=n_nodes)
    dates = launch_dates(start, n_profiles)
    jobs, built, sizes = _configurations(
        rng, n_profiles, job_sizes, problem_sizes, compilers, sweep
    )
    factor = np.asarray([(levels or {}).get(str(c), 1.0) for c in built])
    extra = {name: list(values) for name, values in (metadata or {}).items()}
    for name, values in extra.items():
        if len(values) != n_profiles:
            raise ValueError(f"metadata {name!r} has {len(values)} values for {n_profiles} runs")
    columns: dict[str, Any] = {"jobsize": jobs, "compiler": built, "problem_size": sizes, **extra}
    ids = [f"synthetic-{seed}-{i:06d}" for i in range(n_profiles)]
    order = np.argsort(-np.arange(n_nodes))  # children before parents, for subtree sums
    listed = []
    held: list[pd.DataFrame] = []
    for lo in range(0, n_profiles, BATCH):
        hi = min(lo + BATCH, n_profiles)
        m = hi - lo
        scale = (jobs[lo:hi] / 64.0) ** -0.8 * (sizes[lo:hi] / 30.0) ** 3 * factor[lo:hi]
        exc = base[None, :] * scale[:, None] * rng.lognormal(0.0, noise, size=(m, n_nodes))
        for c in changes:
            runs = np.arange(lo, hi) >= c.at
            for name, value in c.where.items():
                runs &= np.asarray(columns[name][lo:hi]) == value
            exc[runs, c.node] *= c.factor
        if outliers > 0:
            exc[rng.random(exc.shape) < outliers] *= 3.0
        inc = exc.copy()
        for i in order:
            if parent[i] >= 0:
                inc[:, parent[i]] += inc[:, i]
        values = pd.DataFrame(
            {
                "profile": np.repeat(ids[lo:hi], n_nodes),
                "key": np.tile(keys, m),
                "parent": np.tile(parent_keys, m),
                "time": exc.ravel(),
                "time (inc)": inc.ravel(),
            }
        )
        profiles = pd.DataFrame(
            {
                "profile": ids[lo:hi],
                "hash": ids[lo:hi],
                "source": "cctviz.examples.ensemble",
                "nodes": n_nodes,
                "launchdate": dates[lo:hi],
                "jobsize": jobs[lo:hi],
                "compiler": built[lo:hi],
                "problem_size": sizes[lo:hi],
                "run": np.arange(lo, hi),
                **{name: values[lo:hi] for name, values in extra.items()},
            }
        )
        held.append(values)
        listed.append(profiles)
        if sum(len(v) for v in held) >= FLUSH_ROWS or hi == n_profiles:
            # a few large files, as an add writes: a query of one node opens each file once
            append(root, "values", pd.concat(held, ignore_index=True), batch)
            held = []
    commit_profiles(Tables(root), pd.concat(listed, ignore_index=True), batch)
    return Ensemble(root, create=False)


def _configurations(
    rng: np.random.Generator,
    n: int,
    job_sizes: Sequence[int],
    problem_sizes: Sequence[int],
    compilers: Sequence[str],
    sweep: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each run's job size, compiler and problem size: drawn at random, or a sweep (see
    ``ensemble``)."""
    if sweep <= 0:
        return (
            rng.choice(np.asarray(job_sizes), size=n),
            rng.choice(np.asarray(compilers), size=n),
            rng.choice(np.asarray(problem_sizes), size=n),
        )
    step = np.arange(n) // sweep
    j, c = len(job_sizes), len(compilers)
    return (
        np.asarray(job_sizes)[(step // c) % j],
        np.asarray(compilers)[step % c],
        np.asarray(problem_sizes)[(step // (c * j)) % len(problem_sizes)],
    )
