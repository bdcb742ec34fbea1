"""Reading many profiles at once: GraphFrames already in memory and the first files are read in
this process; when what is left would take more than ``POOL_PAYS`` seconds here, in worker
processes (cctviz.ensemble.store.worker: ``python -m``, never ``multiprocessing``, so a batch script
without ``if __name__ == "__main__":``, ``python -c`` and ``python - < script`` work, and no
Jupyter kernel is forked).

Workers are sent one profile at a time once they are ready (have imported what they read with),
and hold at most ``DEPTH`` (the one they read and the next): a worker that gets big files, or
starts late, simply gets fewer, and none is left with the last minutes of work. A worker that
dies (killed, crashed, out of memory) costs the profile it was reading: it is skipped, saying
so (``Skipped(source, "the worker reading it died (killed by SIGKILL)...")``), not read again
here, where the same crash or lack of memory would take down the notebook's kernel; what it had
been sent and not started goes to the other workers, and a new worker takes its place.
Where workers cannot be started (a frozen application, no ``sys.executable``, a failed start),
the profiles are read in this process and a ``NoWorkersWarning`` says so, once. However
``read_all`` ends (done, Ctrl-C, the consumer stopping early), its workers are killed and
reaped.

Progress shows through cctviz.core.progress ("cctviz: adding profiles — reading profiles: 40 of
150"): in a notebook's cell, on a terminal, nowhere in a batch job's log.

Two environment variables help on a cluster: ``CCTVIZ_POOL_PAYS`` (seconds; ``0`` starts
workers after the first few files) overrides ``POOL_PAYS``, and ``CCTVIZ_INGEST_LOG=1`` writes
to stderr which worker processes started and ended, and how many profiles each side read.
"""

from __future__ import annotations

import os
import queue
import sys
import time
import warnings
from collections import deque
from collections.abc import Generator, Iterator
from contextlib import nullcontext
from typing import Any

from ...core import progress as _progress
from .profile import ProfileRows
from .sources import Item, Skipped, read_item

SERIAL_BELOW = 8  # fewer files than this are read in this process: starting workers costs more
POOL_PAYS = 4.0  # seconds of reading left in this process above which workers are started
DEPTH = 2  # profiles a worker holds: the one it reads and the next (it never waits for work)
TICK = 1.0  # seconds between checks that the workers are still there

Result = ProfileRows | Skipped


class NoWorkersWarning(UserWarning):
    """Worker processes could not be started: the profiles are read in this process."""


def pool_pays() -> float:
    """``POOL_PAYS``, or the seconds ``CCTVIZ_POOL_PAYS`` says."""
    text = os.environ.get("CCTVIZ_POOL_PAYS", "").strip()
    if not text:
        return POOL_PAYS
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"CCTVIZ_POOL_PAYS is a number of seconds, not {text!r}") from None


class _Report:
    """How far the reading is: the progress line (when shown) and the log (when asked)."""

    def __init__(self, total: int, show: bool) -> None:
        self.total, self.show = total, show
        self.log = os.environ.get("CCTVIZ_INGEST_LOG", "") not in ("", "0")
        self.here = self.there = self.started = 0
        self.name = "reading profiles"

    def one(self, here: bool) -> None:
        if here:
            self.here += 1
        else:
            self.there += 1
        if self.show:
            _progress.count(self.name, self.here + self.there, self.total, "profiles")

    def say(self, text: str) -> None:
        if self.log:
            print(f"cctviz ingest: {text}", file=sys.stderr, flush=True)


def read_all(
    items: list[Item],
    reducer: str,
    workers: int | None,
    progress: bool,
    ranks: bool = False,
    client: Any = None,
) -> Generator[Result, None, None]:
    """Each item read, in the order they finish (closing it early stops the workers). With a
    Dask ``client`` the files are read on its cluster (``_on_cluster``)."""
    files = [i for i in items if i.gf is None]
    in_memory = [i for i in items if i.gf is not None]
    count = workers if workers is not None else min(len(files), os.cpu_count() or 1)
    report = _Report(len(items), progress)
    shown = _progress.work("adding profiles", ("reading profiles",)) if progress else nullcontext()
    with shown:
        if progress:
            _progress.count(report.name, 0, len(items), "profiles")
        for item in in_memory:
            yield read_item(item, reducer, ranks)
            report.one(here=True)
        if client is not None and files:
            yield from _on_cluster(files, client, (reducer, ranks), report)
            files = []
        # files are read here until the rest would take longer than starting workers costs
        # (each imports pandas, Hatchet and cctviz: ~2 s); 100 region profiles never pay it
        start, done, pays = time.perf_counter(), 0, pool_pays()
        while done < len(files):
            if count > 1 and len(files) - done >= SERIAL_BELOW and done >= SERIAL_BELOW // 2:
                per_file = (time.perf_counter() - start) / done
                if per_file * (len(files) - done) > pays:
                    break
            yield read_item(files[done], reducer, ranks)
            done += 1
            report.one(here=True)
        if done < len(files):
            yield from _in_workers(files[done:], count, (reducer, ranks), report)
        report.say(
            f"{report.here} profiles read in this process, {report.there} in worker processes "
            f"({report.started} started)"
        )


def _on_cluster(
    files: list[Item], client: Any, settings: tuple[str, bool], report: _Report
) -> Iterator[Result]:
    """The files read as tasks on a Dask cluster (``read_item`` on the workers, which must see
    the files at the same paths), each yielded as it comes. A task that fails — its worker died
    (distributed gives up on a task that took down several workers), or reading raised past
    ``read_item`` — costs that profile, skipped and said, as with worker processes here. A
    cluster that is gone (no scheduler, no worker for a while) is ``ClusterGone``: nothing is
    committed."""
    from .cluster import check_client, ended

    reducer, ranks = settings
    what = "read these profiles"
    check_client(client, what)  # a closed client's tasks would never run
    report.say(f"reading {len(files)} profiles on the Dask cluster")
    futures = {
        client.submit(
            read_item, item, reducer, ranks, key=f"cctviz-read-{i}-{item.content_hash}"
        ): item
        for i, item in enumerate(files)
    }
    for future in ended(client, list(futures), what):  # those left are cancelled if stopped
        item = futures[future]
        try:
            result = future.result()
        except Exception as error:  # a worker died, or the task could not run
            result = Skipped(item.source, _failed(error))
        future.release()  # the workers forget the rows once they are here
        report.one(here=False)
        yield result


def _failed(error: Exception) -> str:
    """Why a file read on the cluster was skipped: a worker died running it (distributed's
    ``KilledWorker``: as many workers as it allows died), or its task failed."""
    from distributed import KilledWorker

    if isinstance(error, KilledWorker):
        return (
            "the Dask worker reading it died (KilledWorker: the workers' logs may say why); "
            "add it again to try again"
        )
    return f"the Dask task reading it failed: {error!r}"[:300]


def _in_workers(
    rest: list[Item], count: int, settings: tuple[str, bool], report: _Report
) -> Iterator[Result]:
    """``rest`` read by ``count`` worker processes (here if none can start)."""
    # imported here: ``python -m cctviz.ensemble.store.worker`` imports this package first, and
    # runpy warns about a module it runs that the package has imported already
    from . import worker as _worker

    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()  # its get() takes Ctrl-C cleanly
    pending = deque(range(len(rest)))
    live: list[_worker.Worker] = []
    failed = ""  # why a worker could not start

    def start() -> None:
        nonlocal failed
        try:
            new = _worker.Worker(settings, inbox)
        except _worker.CannotStart as error:
            failed = str(error)
            return
        live.append(new)
        report.started += 1
        report.say(f"started worker process {new.pid}")

    def ended(gone: _worker.Worker, why: str | None) -> Iterator[Result]:
        """A worker's output ended while it had work: its first profile skipped (it was reading
        it), the rest sent to others, a new worker in its place."""
        nonlocal failed
        live.remove(gone)
        gone.stop()
        how = why or gone.how_it_ended()
        report.say(f"worker process {gone.pid} ended ({how})")
        if gone.ready and gone.sent:
            first = gone.sent.popleft()
            report.one(here=False)
            reason = f"the worker reading it died ({how}); add it again to try again"
            yield Skipped(rest[first].source, reason)
        pending.extendleft(reversed(gone.sent))
        gone.sent.clear()
        if not gone.ready:
            failed = f"a worker process ended before it was ready ({how}; see its stderr)"
        elif pending:
            start()

    try:
        for _ in range(min(count, len(rest))):
            start()
        if live:
            report.name = f"reading profiles in {len(live)} worker processes"
        exited: dict[_worker.Worker, float] = {}
        while live and (pending or any(w.sent for w in live)):
            for w in live:
                while w.ready and pending and len(w.sent) < DEPTH:
                    index = pending.popleft()
                    try:
                        frame = _worker.pack((index, rest[index]))
                    except Exception:  # metadata that cannot be pickled: read here
                        yield read_item(rest[index], *settings)
                        report.one(here=True)
                        continue
                    w.sent.append(index)
                    w.send(frame)
            try:
                w, kind, value = inbox.get(timeout=TICK)
            except queue.Empty:
                # a worker whose process exited without its output ending (a child of it holds
                # the pipe) is given up after a tick
                now = time.monotonic()
                for w in list(live):
                    if w.proc.poll() is not None and now - exited.setdefault(w, now) >= TICK:
                        yield from ended(w, None)
                continue
            if w not in live:
                continue  # a last word from a worker already given up
            if kind == "ready":
                w.ready = True
            elif kind == "result":
                index, result = value
                if index in w.sent:
                    w.sent.remove(index)
                    report.one(here=False)
                    yield result
            else:
                yield from ended(w, value)
        if pending:  # no worker could start (or start again): the rest is read here
            report.name = "reading profiles"
            warnings.warn(
                f"cctviz could not start worker processes to read the profiles ({failed}); "
                f"the {len(pending)} left are read in this process",
                NoWorkersWarning,
                stacklevel=2,
            )
            while pending:
                yield read_item(rest[pending.popleft()], *settings)
                report.one(here=True)
    finally:
        for w in live:
            w.stop()
