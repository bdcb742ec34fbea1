"""Every query of an ensemble on both engines (issue 56): DuckDB in process and a real Dask
deployment — a ``dask scheduler`` and two ``dask worker`` processes started from the command line
on loopback, as a centre starts them — on a synthetic ensemble and on real Caliper runs, with and
without a profile filter. The answers agree to 1e-9 (medians and percentiles exactly: each
node's values meet in one task), and each query on the cluster runs as tasks there."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cctviz

from .profiles import data_root, require
from .tables import assert_frames_close

REDUCERS = ("mean", "std", "min", "max", "median", "p95", "imbalance", "sum", "count")
SUMMED = ("mean", "std", "min", "max", "imbalance", "sum", "count")

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A client of a scheduler and two single-threaded workers, each its own process started
    by the ``dask`` command line (tests/dask_cluster.py); the workers import this checkout's
    cctviz."""
    from .dask_cluster import Cluster  # it imports distributed: after the skip above

    cluster = Cluster(workers=2)
    try:
        yield cluster.client
    finally:
        cluster.stop()


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[cctviz.Ensemble, str]]:
    root = tmp_path_factory.mktemp("engines")
    synthetic = cctviz.examples.ensemble(root / "synthetic", 30, 120, seed=5, outliers=0.01)
    require("thicket/mpi_scaling_cali")
    real = cctviz.Ensemble(root / "mpi")
    files = sorted(data_root("thicket/mpi_scaling_cali").rglob("*.cali"))
    real.add(files, progress=False)
    # one add per file, then compacted into one batch of one file per table (ens.compact)
    compacted = cctviz.Ensemble(root / "compacted")
    for f in files:
        compacted.add([f], progress=False, workers=1)
    done = compacted.compact()
    assert (done.adds, done.batches, done.files_after) == (len(files), 1, 1)
    return [
        (synthetic, "jobsize >= 64"),
        (real, '"mpi.world.size" >= 64'),
        (compacted, '"mpi.world.size" >= 64'),
    ]


def _inclusive(ens: cctviz.Ensemble) -> str:
    """An inclusive metric of the store (its name depends on the Hatchet that read the files)."""
    kinds = ens.metrics["kind"]
    return str(next(iter(kinds[kinds == "inclusive"].index), kinds.index[0]))


def _tasks(client: Any, run: Any, kind: str = "_query") -> tuple[Any, int]:
    """What ``run()`` gives, and how many of cctviz's tasks of ``kind`` the workers ran for it
    (``_query``: a query's; ``_per_keys``: work on a share of the nodes' values)."""
    with distributed.get_task_stream(client=client) as stream:
        out = run()
    return out, sum(str(t.get("key", "")).startswith(f"{kind}-") for t in stream.data)


def test_every_query_agrees_on_both_engines_and_runs_on_the_cluster(
    client: Any, stores: list[tuple[cctviz.Ensemble, str]]
) -> None:
    threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
    for ens, condition in stores:
        on_dask = cctviz.Ensemble(ens.path, engine=client, create=False)
        metric = _inclusive(ens)
        for duck, dask in ((ens, on_dask), (ens.where(condition), on_dask.where(condition))):
            dask._shared.dask._profiles.clear()  # type: ignore[union-attr]  # read anew
            profiles, ran = _tasks(client, lambda d=dask: d.profiles)
            assert_frames_close(profiles, duck.profiles)
            assert len(profiles) > 0 and ran == 1
            reduced, ran = _tasks(client, lambda d=dask, m=metric: d.reduce(m, REDUCERS))
            assert_frames_close(reduced, duck.reduce(metric, REDUCERS))
            assert ran == 2 * threads  # one task per key range
            # mean, std, min, max...: read from the summaries kept at ingest, in each key range
            summed, ran = _tasks(client, lambda d=dask, m=metric: d.reduce(m, SUMMED))
            assert_frames_close(summed, duck.reduce(metric, SUMMED))
            assert ran == 2 * threads
            node = int(duck.reduce(metric, ("max",))["max"].idxmax())
            values, ran = _tasks(client, lambda d=dask, n=node, m=metric: d.distribution(n, m))
            assert_frames_close(values, duck.distribution(node, metric))
            assert ran == 1
            totals, ran = _tasks(client, lambda d=dask, m=metric: d.totals(m))
            np.testing.assert_allclose(totals, duck.totals(metric), rtol=1e-9, equal_nan=True)
            assert ran == 1
            assert_frames_close(dask.histogram(node, metric, 8), duck.histogram(node, metric, 8))
            rows, ran = _tasks(client, lambda d=dask: d._engine().values(d._where))  # to_thicket
            order = ["profile", "key"]
            mine = duck._engine().values(duck._where)
            assert_frames_close(
                rows.sort_values(order, ignore_index=True)[list(mine.columns)],
                mine.sort_values(order, ignore_index=True),
            )
            assert ran == 1
            root = int(duck.nodes.index[0])
            trend, ran = _tasks(
                client, lambda d=dask, n=root, m=metric: d.trend(n, m, children=True)
            )
            assert_frames_close(trend, duck.trend(root, metric, children=True))
            assert ran >= 2  # whether values hold parents' keys, then the values: tasks there


def test_changes_along_the_runs_agree_and_read_their_values_on_the_cluster(
    client: Any, tmp_path: Path
) -> None:
    from cctviz.ensemble.synthetic import Change

    ens = cctviz.examples.ensemble(
        tmp_path / "nightly", 40, 60, seed=2, changes=[Change(10, 20, 1.5), Change(30, 25, 0.7)],
        job_sizes=(64,), problem_sizes=(30,), compilers=("gcc-12",),
    )  # fmt: skip
    on_dask = cctviz.Ensemble(ens.path, engine=client, create=False)
    threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
    # the screening of every node runs on the workers, a task per share of the nodes: only
    # the candidate changes come back, never the nodes × runs matrix
    found, screened = _tasks(client, lambda: on_dask.regressions("time"), "_per_keys")
    expected = ens.regressions("time")
    assert screened == 2 * threads and len(expected) >= 2 and len(found) == len(expected)
    plain = [c for c in expected.columns if c not in ("config", "environment", "previous")]
    assert_frames_close(found[plain], expected[plain])
    # an inclusive metric: the changes' causes read the exclusive values of a few nodes
    found, queried = _tasks(client, lambda: on_dask.regressions("time (inc)"))
    assert_frames_close(found[plain], ens.regressions("time (inc)")[plain])
    assert queried >= 1


def test_a_reduction_cut_by_key_covers_every_key_once() -> None:
    from cctviz.ensemble.engine.dask_engine import key_ranges

    for n in (1, 2, 3, 7, 64):
        ranges = key_ranges(n)
        assert ranges[0][0] == -(2**63) and ranges[-1][1] == 2**63 - 1 and len(ranges) == n
        assert all(hi + 1 == lo for (_, hi), (lo, _) in itertools.pairwise(ranges))
        assert all(lo <= hi for lo, hi in ranges)


def test_an_add_on_the_cluster_reads_the_files_there_and_stores_the_same_numbers(
    client: Any, stores: list[tuple[cctviz.Ensemble, str]], tmp_path: Path
) -> None:
    real = stores[1][0]  # the MPI runs, added in this process
    files = sorted(data_root("thicket/mpi_scaling_cali").rglob("*.cali"))
    there = cctviz.Ensemble(tmp_path / "added-there", engine=client)
    broken = tmp_path / "broken.cali"
    broken.write_text("not a Caliper file\n")
    with distributed.get_task_stream(client=client) as stream:
        added = there.add([*files, broken], progress=False)
    reads = [t for t in stream.data if str(t.get("key", "")).startswith("cctviz-read-")]
    assert added == len(files) and len({t["key"] for t in reads}) == len(files) + 1  # one each
    assert there.skipped["source"].tolist() == [str(broken)]  # read there, skipped, said
    metric = _inclusive(real)
    assert_frames_close(there.reduce(metric, REDUCERS), real.reduce(metric, REDUCERS))
    assert set(there.profiles["hash"]) == set(real.profiles["hash"])
