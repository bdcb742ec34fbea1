"""A real Dask deployment for the tests (issue 56): a ``dask scheduler`` and ``dask worker``
processes started from the command line on loopback, as a centre starts them, the workers
importing this checkout's cctviz and this module; and ``Gate``, a worker plugin that holds chosen
functions on the workers until the test lets them go (so that a test kills a worker, or commits,
while tasks are known to be running). The workers import it (for ``Gate``): no pytest here."""

from __future__ import annotations

import functools
import importlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import distributed
from distributed import WorkerPlugin

REPO = Path(__file__).resolve().parents[1]
HOLD = 60.0  # seconds a held function waits at most for the test to let it go


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A scheduler and ``workers`` single-threaded workers (each a nanny with its worker
    process), each started by the ``dask`` command line beside this Python, and a client."""

    def __init__(self, workers: int = 2, env: dict[str, str] | None = None) -> None:
        dask = str(Path(sys.executable).with_name("dask"))
        port = free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        environ = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
            **(env or {}),
        }
        quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.scheduler = subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
            env=environ,
            **quiet,
        )
        worker = [dask, "worker", self.address, "--host", "127.0.0.1", "--nthreads", "1"]
        self.nannies = [
            subprocess.Popen(
                [*worker, "--memory-limit", "2GB", "--no-dashboard"], env=environ, **quiet
            )
            for _ in range(workers)
        ]
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    self.client = distributed.Client(self.address, timeout=5)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.3)  # the scheduler is still starting: nothing to wait on
            self.client.wait_for_workers(workers, timeout=60)
        except BaseException:
            self.stop()
            raise

    def worker_pids(self) -> dict[str, int]:
        """The process id of each worker (the process that runs tasks), by address."""
        return {k: int(v) for k, v in self.client.run(os.getpid).items()}

    def stop(self) -> None:
        """Closes the client, then stops the workers and the scheduler (in that order: ~1 s
        instead of ~8 s of workers trying to reach a scheduler that is going away)."""
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        for group in (self.nannies, [self.scheduler]):
            for p in group:
                p.terminate()
            for p in group:
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


def allowed_failures(dask_scheduler: Any, n: int) -> int:
    """On the scheduler (``client.run_on_scheduler``): how many workers may die running a task
    before it fails with ``KilledWorker`` (``distributed.scheduler.allowed-failures``) set to
    ``n``; returns what it was."""
    before = int(dask_scheduler.allowed_failures)
    dask_scheduler.allowed_failures = n
    return before


def task_keys(dask_scheduler: Any) -> list[str]:
    """On the scheduler: the keys of the tasks it knows."""
    return [str(k) for k in dask_scheduler.tasks]


class Gate(WorkerPlugin):
    """A worker plugin (``client.register_plugin(Gate(...))``; workers started later get it
    too): on each worker the functions ``targets`` names ("module:attribute" or
    "module:Class.method") put ``(worker process id, target, about)`` on the distributed Queue
    ``<name>-started`` and hold until the Event ``<name>-go`` is set (at most ``HOLD`` seconds)
    — ``when="before"`` their work, or ``"after"`` it, before they return. ``about``: the store
    version a DuckDB engine's method reads, else the first argument. Removing the plugin
    (``client.unregister_worker_plugin(name)``) puts the functions back."""

    def __init__(self, name: str, targets: tuple[str, ...], when: str = "before") -> None:
        self.name, self.targets, self.when = name, targets, when
        self._saved: list[tuple[Any, str, Any]] = []

    def setup(self, worker: Any = None) -> None:
        for target in self.targets:
            owner, attribute = _resolve(target)
            original = owner.__dict__[attribute]
            setattr(owner, attribute, _held(original, self.name, target, self.when))
            self._saved.append((owner, attribute, original))

    def teardown(self, worker: Any = None) -> None:
        for owner, attribute, original in reversed(self._saved):
            setattr(owner, attribute, original)
        self._saved.clear()


def _resolve(target: str) -> tuple[Any, str]:
    module, _, path = target.partition(":")
    owner: Any = importlib.import_module(module)
    *parents, attribute = path.split(".")
    for parent in parents:
        owner = getattr(owner, parent)
    return owner, attribute


def _held(original: Callable[..., Any], name: str, target: str, when: str) -> Callable[..., Any]:
    @functools.wraps(original)
    def held(*args: Any, **kwargs: Any) -> Any:
        first = args[0] if args else None
        tables = getattr(first, "tables", None)
        # a query's store version; an add's item read (its source); else the first argument
        about = (
            tables.snapshot().version
            if tables is not None
            else getattr(first, "source", None) or str(first)
        )
        out = original(*args, **kwargs) if when == "after" else None
        distributed.Queue(f"{name}-started").put((os.getpid(), target, about))
        distributed.Event(f"{name}-go").wait(timeout=HOLD)
        return out if when == "after" else original(*args, **kwargs)

    return held
