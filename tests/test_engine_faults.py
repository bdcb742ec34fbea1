"""Faults done for real on a Dask deployment (issue 56): a ``dask scheduler`` and ``dask worker``
processes started from the command line on loopback (tests/dask_cluster.py).

- A worker process killed with SIGKILL while it reads a file of an ``add`` on the cluster: the
  add ends, each file is committed once or skipped saying its read failed, the committed numbers
  are an in-process add's, the store verifies, and adding again fills in what was skipped.
- Another process commits an ``add`` while a reduction, a distribution and a trend run on the
  cluster: each answers the store at the version it started on, the next sees the new profiles.
- Every worker killed, then the scheduler: a query or an add says so (``ClusterGone``: what was
  wrong, what to do) within a bounded time, instead of waiting forever.

Workers are held at a chosen function (``Gate``) until the test has done its fault, so the
fault lands while tasks run, every time."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import cctviz

from .profiles import inclusive_metric as _metric
from .profiles import mpi_scaling_files as _files
from .tables import assert_frames_close

distributed = pytest.importorskip("distributed")
# Dask's and the store's failures, the same under either Hatchet: run once (see pyproject.toml)
pytestmark = pytest.mark.once

REDUCERS = ("mean", "std", "min", "max", "median", "p95", "imbalance", "sum", "count")
REPO = Path(__file__).resolve().parents[1]
WAIT = 60  # seconds: longer than any step takes; a hang fails the test instead of holding it

# another process adding to the store: says "ready" once it has opened the store, then for each
# line (a file) adds it and says the store's version after its commit
WRITER = r"""
import sys
import cctviz
ens = cctviz.Ensemble(sys.argv[1])
print("ready", flush=True)
for line in sys.stdin:
    ens.add([line.strip()], progress=False, workers=1)
    print(ens.version, flush=True)
"""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A scheduler and two single-threaded workers (each a nanny and its worker process)."""
    from .dask_cluster import Cluster  # it imports distributed: after the skip above

    started = Cluster(workers=2)
    try:
        yield started
    finally:
        started.stop()


@contextmanager
def _gate(client: Any, targets: tuple[str, ...], when: str) -> Iterator[tuple[Any, Any]]:
    """The workers' ``targets`` held (tests/dask_cluster.py: ``Gate``): the Queue on which each
    held call says (worker process id, target, about), and the Event that lets them go."""
    from .dask_cluster import Gate

    name = f"cctviz-gate-{uuid.uuid4().hex[:8]}"
    client.register_plugin(Gate(name, targets, when), name=name)
    started = distributed.Queue(f"{name}-started", client=client)
    go = distributed.Event(f"{name}-go", client=client)
    try:
        yield started, go
    finally:
        if client.status == "running":
            go.set()
            client.unregister_worker_plugin(name)


def _in_thread(run: Callable[[], Any]) -> Future[Any]:
    """``run()`` in a daemon thread: waiting on it with a timeout fails a test that would hang,
    and a thread left hanging does not hold pytest's exit."""
    done: Future[Any] = Future()

    def target() -> None:
        try:
            done.set_result(run())
        except BaseException as error:
            done.set_exception(error)

    threading.Thread(target=target, daemon=True).start()
    return done


def _same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    try:
        assert_frames_close(a, b)
    except AssertionError:
        return False
    return True


def _in_process(path: Path, files: list[str]) -> cctviz.Ensemble:
    ens = cctviz.Ensemble(path)
    ens.add(sorted(files), progress=False, workers=1)
    return ens


def _gone_from_scheduler(client: Any, address: str) -> None:
    """Returns once the scheduler has removed the worker at ``address`` (it saw it die)."""
    deadline = time.monotonic() + WAIT
    while address in client.scheduler_info()["workers"]:
        assert time.monotonic() < deadline, f"the scheduler still lists {address}"
        time.sleep(0.05)  # polling what the scheduler says: it has no event for it


@pytest.mark.parametrize(
    "allowed_failures", [0, 3], ids=["the-killed-read-fails", "the-killed-read-is-retried"]
)
def test_a_worker_killed_mid_read_during_an_add_on_the_cluster(
    cluster: Any, allowed_failures: int, tmp_path: Path
) -> None:
    from .dask_cluster import allowed_failures as set_allowed

    client = cluster.client
    client.wait_for_workers(2, timeout=WAIT)  # the one killed by an earlier test is back
    files = [str(f) for f in _files()]
    # 0: the scheduler gives up on a task at the first worker that dies running it (the files
    # that worker held are skipped); 3, distributed's default: it runs it again elsewhere
    before = client.run_on_scheduler(set_allowed, n=allowed_failures)
    try:
        ens = cctviz.Ensemble(tmp_path / "there", engine=client)
        # each worker reads a file and is held before its task returns
        with _gate(client, ("cctviz.ensemble.store.sources:read_item",), "after") as (started, go):
            adding = _in_thread(lambda: ens.add(files, progress=False))
            pid, _, source = started.get(timeout=WAIT)  # a worker has read `source`, held
            workers = cluster.worker_pids()
            (address,) = [a for a, p in workers.items() if p == pid]
            os.kill(pid, signal.SIGKILL)  # a real worker process, mid-task
            _gone_from_scheduler(client, address)
            assert not adding.done()  # the add was still reading when the worker died
            go.set()
            added = adding.result(timeout=WAIT)  # the add ends: no hang
    finally:
        client.run_on_scheduler(set_allowed, n=before)

    committed = ens.profiles
    skipped = ens.skipped
    # nothing counted twice: each profile once, each file committed or skipped, not both
    assert added == len(committed) and committed["hash"].is_unique
    assert committed["source"].is_unique and skipped["source"].is_unique
    assert set(committed["source"]).isdisjoint(skipped["source"])
    assert set(committed["source"]) | set(skipped["source"]) == set(files)
    for reason in skipped["reason"]:
        assert reason.startswith("the Dask worker reading it died (KilledWorker"), reason
        assert reason.endswith("add it again to try again"), reason
    if allowed_failures == 0:
        assert source in set(skipped["source"])  # the file the killed worker was reading
    else:
        assert skipped.empty and source in set(committed["source"])  # read again elsewhere
    assert ens.verify().ok
    # the numbers of what it committed are an in-process add's of the same files
    metric = _metric(ens)
    here = _in_process(tmp_path / "here", list(committed["source"]))
    assert_frames_close(
        ens.reduce(metric, REDUCERS).sort_index(), here.reduce(metric, REDUCERS).sort_index()
    )

    # adding the same files again fills in what was skipped, and only that
    client.wait_for_workers(2, timeout=WAIT)
    assert ens.add(files, progress=False) == len(skipped)
    assert len(ens) == len(files) and ens.profiles["hash"].is_unique and ens.verify().ok
    every = _in_process(tmp_path / "every", files)
    # (by key: which profile the store met first, whose children come first, may differ)
    assert_frames_close(
        ens.reduce(metric, REDUCERS).sort_index(), every.reduce(metric, REDUCERS).sort_index()
    )


def test_a_commit_by_another_process_during_queries_on_the_cluster(
    cluster: Any, tmp_path: Path
) -> None:
    client = cluster.client
    client.wait_for_workers(2, timeout=WAIT)
    files = [str(f) for f in _files()]
    store = tmp_path / "store"
    _in_process(store, files[:2])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(store)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert writer.stdin is not None and writer.stdout is not None
        assert writer.stdout.readline() == "ready\n"
        on = cctviz.Ensemble(store, engine=client, create=False)
        metric = _metric(on)
        node = int(on.reduce(metric, ("count",))["count"].idxmax())
        root = int(on.nodes.index[0])
        queries: dict[str, Callable[[cctviz.Ensemble], pd.DataFrame]] = {
            "reduce": lambda e: e.reduce(metric, REDUCERS),
            "distribution": lambda e: e.distribution(node, metric),
            "table": lambda e: e.trend(root, metric, children=True),  # a trend's values
        }
        for n, (method, query) in enumerate(queries.items()):
            version = on.version
            assert version is not None and len(on) == 2 + n
            target = f"cctviz.ensemble.engine.duckdb_engine:DuckEngine.{method}"
            with _gate(client, (target,), "before") as (started, go):
                answer = _in_thread(lambda q=query: q(on))
                _, _, at = started.get(timeout=WAIT)  # a task of it runs, held before it reads
                assert at == version
                writer.stdin.write(files[2 + n] + "\n")  # another process commits meanwhile
                writer.stdin.flush()
                committed = int(writer.stdout.readline())
                assert committed > version
                assert not answer.done()  # the overlap happened: the query still runs
                go.set()
                got = answer.result(timeout=WAIT)
                # every task of the query that ran held read the version it started on
                held = started.get(batch=True)
                assert all(a == version for _, _, a in held), (method, held)
            # the store as it was when the query started (DuckDB, pinned at that version) ...
            assert_frames_close(got, query(cctviz.Ensemble(store, version=version)))
            # ... which is not the store after the commit (so the test can tell them apart)
            now = query(cctviz.Ensemble(store))
            assert not _same(got, now), method
            # the next query sees the new profiles
            assert on.version == committed and len(on) == 3 + n
            assert_frames_close(query(on), now)
    finally:
        writer.kill()
        writer.wait()


def test_a_query_on_a_cluster_that_is_gone_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cctviz.ensemble.store import cluster  # where the waiting on the cluster is
    from cctviz.ensemble.store.cluster import ClusterGone

    from .dask_cluster import Cluster, task_keys

    files = [str(f) for f in _files()]
    store = tmp_path / "store"
    _in_process(store, files[:2])
    own = Cluster(workers=1)  # its own: this test kills it
    try:
        client, address = own.client, own.address
        on = cctviz.Ensemble(store, engine=client, create=False)
        metric = _metric(on)
        node = int(on.nodes.index[0])

        def said(error: BaseException | None, *words: str) -> None:
            """``error`` is ClusterGone, says where and what, and its traceback is cctviz's."""
            assert isinstance(error, ClusterGone), repr(error)
            text = str(error)
            assert all(w in text for w in (address, "Start ", *words)), text
            frames = traceback.extract_tb(error.__traceback__)
            assert frames[-1].filename.endswith(os.path.join("store", "cluster.py"))
            assert not any(os.sep + "distributed" + os.sep in f.filename for f in frames)
            assert error.__cause__ is None and (
                error.__context__ is None or error.__suppress_context__
            )

        # every worker killed while a query's tasks run: the query waits NO_WORKERS_WAIT for
        # one to come back (a restarted worker, a queued job), then says so
        monkeypatch.setattr(cluster, "NO_WORKERS_WAIT", 2.0)
        monkeypatch.setattr(cluster, "TICK", 0.25)
        reduce = ("cctviz.ensemble.engine.duckdb_engine:DuckEngine.reduce",)
        with _gate(client, reduce, "before") as (started, _):
            answer = _in_thread(lambda: on.reduce(metric, REDUCERS))
            pid, _, _ = started.get(timeout=WAIT)
            for nanny in own.nannies:  # first the nannies, or they start the worker again
                nanny.kill()
                nanny.wait()
            with contextlib.suppress(ProcessLookupError):  # it may have ended with its nanny
                os.kill(pid, signal.SIGKILL)
            gone = time.monotonic()
            error = answer.exception(timeout=WAIT)
            waited = time.monotonic() - gone
        said(error, "no worker for 2 s", "dask worker")
        assert 2.0 <= waited < 2.0 + 10, waited
        # an add on it says the same, once that has been so for NO_WORKERS_WAIT
        adding = cctviz.Ensemble(tmp_path / "added", engine=client)
        error = _in_thread(lambda: adding.add(files[2:], progress=False)).exception(timeout=WAIT)
        said(error, "cannot read these profiles", "no worker for 2 s")
        here = cctviz.Ensemble(tmp_path / "added")  # (DuckDB: the cluster cannot say)
        assert len(here) == 0 and here.verify().ok  # nothing committed

        # the scheduler killed while a query waits for its task: said at once
        monkeypatch.setattr(cluster, "NO_WORKERS_WAIT", 600.0)
        known = set(client.run_on_scheduler(task_keys))
        answer = _in_thread(lambda: on.distribution(node, metric))
        deadline = time.monotonic() + WAIT
        while not any("_query" in k for k in set(client.run_on_scheduler(task_keys)) - known):
            assert time.monotonic() < deadline and not answer.done(), answer
            time.sleep(0.05)  # polling the scheduler's tasks: no event says one arrived
        assert not answer.done()  # its task is on the scheduler, waiting for a worker
        own.scheduler.kill()
        own.scheduler.wait()
        error = answer.exception(timeout=WAIT)
        said(error)
        assert any(  # whether it lost the scheduler while waiting for the task, or a check
            lost in str(error)  # between ticks found it gone
            for lost in ("not connected to its scheduler", "its scheduler cannot be reached")
        ), error
        # and a query or an add on it afterwards: at once, not after a wait
        for run in (
            lambda: on.reduce(metric, REDUCERS),
            lambda: on.trend(node, metric, children=True),
            lambda: adding.add(files[2:], progress=False),
        ):
            t = time.monotonic()
            error = _in_thread(run).exception(timeout=WAIT)
            said(error, "not connected to its scheduler")
            assert time.monotonic() - t < 5
    finally:
        own.stop()
