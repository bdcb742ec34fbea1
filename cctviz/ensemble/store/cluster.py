"""Waiting on a Dask cluster's tasks without waiting forever (the Dask engine's queries and an add
whose files are read on the cluster): while tasks run, every ``TICK`` seconds the client must
still reach its scheduler and the scheduler must have a worker (or have had one within
``NO_WORKERS_WAIT`` seconds); otherwise ``ClusterGone``, saying what was wrong and what to do.
In the store's layer because an add (cctviz.ensemble.store.ingest) waits this way too."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from typing import Any

TICK = 1.0
"""Seconds between checks, while tasks run, that the cluster is still there."""
NO_WORKERS_WAIT = 60.0
"""Seconds tasks wait on a cluster without a worker (a restarted worker, a queued dask-jobqueue
job) before ``ClusterGone``."""
QUERY = "run this query"  # what ``ClusterGone`` says could not be done
RESTART = (
    "Start the cluster again and open the ensemble with a client of it (cctviz.Ensemble(path, "
    "engine=Client(ADDRESS))), or without engine= to run in this process"
)


class ClusterGone(RuntimeError):
    """The Dask cluster given as ``engine=`` cannot run the tasks: the client lost its scheduler,
    or the scheduler has had no worker for ``NO_WORKERS_WAIT`` seconds."""


def check_client(client: Any, what: str) -> None:
    """``ClusterGone`` unless ``client`` is connected to its scheduler."""
    if client.status != "running":
        raise ClusterGone(
            _gone(
                client,
                what,
                f"the client is not connected to its scheduler (it is {client.status}): the "
                "scheduler was stopped or killed, or its job ended",
            )
        )


def ended(client: Any, futures: list[Any], what: str) -> Iterator[Any]:
    """``futures`` of ``client``, each as its task ends (done or failed), in that order. Every
    ``TICK`` seconds without one, checks that the cluster can still run them: ``ClusterGone``
    when the client lost its scheduler (its tasks are cancelled then) or when the cluster has
    had no worker for ``NO_WORKERS_WAIT`` seconds. Those not ended when it stops are
    cancelled."""
    ends: queue.SimpleQueue[Any] = queue.SimpleQueue()
    waiting = {id(f): f for f in futures}
    for future in futures:
        future.add_done_callback(ends.put)  # done, failed or cancelled
    alone: float | None = None  # since when the cluster has had no worker
    try:
        while waiting:
            try:
                future = ends.get(timeout=TICK)
            except queue.Empty:
                future = None
            if future is None:  # (not in the except: ClusterGone is said without queue.Empty)
                alone = _workers_there(client, what, alone)
                continue
            if future.status == "cancelled":  # the client lost its scheduler (or someone
                check_client(client, what)  # cancelled them)
                raise ClusterGone(_gone(client, what, "its tasks were cancelled"))
            del waiting[id(future)]
            yield future
    finally:
        if waiting and client.status == "running":
            client.cancel(list(waiting.values()))


def _workers_there(client: Any, what: str, alone: float | None) -> float | None:
    """After a tick in which no task ended: since when the cluster has had no worker (None: it
    has one); ``ClusterGone`` when the scheduler is gone or that was ``NO_WORKERS_WAIT`` ago."""
    check_client(client, what)
    try:
        workers = client.nthreads()
    except OSError as error:  # the scheduler went away just now
        why = f"its scheduler cannot be reached ({error})"
        raise ClusterGone(_gone(client, what, why)) from None
    if workers:
        return None
    now = time.monotonic()
    alone = now if alone is None else alone
    if now - alone >= NO_WORKERS_WAIT:
        raise ClusterGone(
            _gone(
                client,
                what,
                f"it has had no worker for {NO_WORKERS_WAIT:g} s (they were stopped or killed, "
                "or their jobs ended)",
                "Start workers for its scheduler (dask worker ADDRESS; cluster.scale(n) with "
                "dask-jobqueue) and try again",
            )
        )
    return alone


def _gone(client: Any, what: str, why: str, todo: str = RESTART) -> str:
    """What went wrong with the cluster of ``client`` and what to do, in one message."""
    address = getattr(getattr(client, "scheduler", None), "address", None)
    if address is None:  # a closed client has forgotten it
        address = getattr(client, "_scheduler_identity", {}).get("address")
    at = f"the Dask cluster at {address}" if address else "its Dask cluster"
    return f"cctviz cannot {what} on {at}: {why}. {todo}"
