"""A worker process that reads profiles for ``read_all``: both ends of its pipes.

The parent starts it as ``python -m cctviz.ensemble.store.worker`` (``start``), never through
``multiprocessing``: spawned workers re-run the caller's ``__main__``, which breaks every batch
script without ``if __name__ == "__main__":`` (and ``python -c``, ``python - < script``) with
``BrokenProcessPool``. It runs with the parent's ``sys.path`` (as ``PYTHONPATH``: a notebook's
cwd-imported cctviz works) and no file descriptor but its pipes and stderr.

The pipes carry frames: an 8-byte big-endian length, then a pickle. The parent sends the
settings ``(reducer, ranks)``, then ``(index, Item)`` frames, and closes the worker's stdin when
done. The worker answers ``MAGIC`` once it has imported what it reads with (it is ready), then one
``(index, ProfileRows | Skipped)`` frame per item, in the order sent. It writes them to a private
copy of its stdout: fd 1 and ``sys.stdout`` point at stderr, so what a reader prints never
corrupts the stream. It ignores Ctrl-C (the terminal sends it to the whole process group; the
parent decides) and exits when its stdin closes.
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
from collections import deque
from typing import IO, Any

MAGIC = b"cctviz-worker 1\n"
HEADER = struct.Struct("!Q")


class CannotStart(Exception):
    """Worker processes cannot be started here (the reason is the message)."""


def pack(message: object) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


def unpack(stream: IO[bytes]) -> Any:
    """The next frame's message; EOFError at the end of the stream (also mid-frame)."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        raise EOFError
    (size,) = HEADER.unpack(head)
    body = stream.read(size)
    if len(body) < size:
        raise EOFError
    return pickle.loads(body)


def command() -> list[str]:
    """How to start a worker; CannotStart where this is no plain Python (a frozen app)."""
    if getattr(sys, "frozen", False):
        raise CannotStart("this Python is a frozen application")
    if not sys.executable:
        raise CannotStart("sys.executable is empty: the Python interpreter is unknown")
    # -P (3.11+): the worker's cwd is not put first on its path (the parent's path is given)
    safe = ["-P"] if sys.version_info >= (3, 11) else []
    return [sys.executable, *safe, "-m", "cctviz.ensemble.store.worker"]


def environment() -> dict[str, str]:
    """The parent's environment, with its ``sys.path`` as ``PYTHONPATH``."""
    paths = [os.path.abspath(p or os.curdir) for p in sys.path if isinstance(p, str)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(dict.fromkeys(paths))}


class Worker:
    """A worker process as the parent sees it: ``sent``, the indices sent and not yet answered
    (the first is the one it reads); its answers go to ``inbox`` as ``(worker, kind, value)``:
    ``("ready", None)``, ``("result", (index, result))``, then ``("end", why)`` (why: None at
    the end of its output, else what was wrong with it)."""

    def __init__(self, settings: tuple[str, bool], inbox: queue.SimpleQueue[Any]) -> None:
        try:
            self.proc = subprocess.Popen(
                command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                close_fds=True, env=environment(),
            )  # fmt: skip
        except (OSError, ValueError) as error:
            raise CannotStart(f"{type(error).__name__}: {error}") from error
        self.pid = self.proc.pid
        self.sent: deque[int] = deque()
        self.ready = False
        self._inbox = inbox
        self._reader = threading.Thread(target=self._read, name="cctviz-worker", daemon=True)
        self._reader.start()
        self.send(pack(settings))

    def send(self, frame: bytes) -> None:
        """Sends a frame (``pack``); a worker that is gone says so on its output (its end)."""
        pipe = self.proc.stdin
        if pipe is None or pipe.closed:
            return
        try:
            pipe.write(frame)
            pipe.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass  # it died: its reader sees the end of its output

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        why: str | None = None
        try:
            head = out.read(len(MAGIC))
            if head == MAGIC:
                self._inbox.put((self, "ready", None))
                while True:
                    self._inbox.put((self, "result", unpack(out)))
            elif head:
                why = f"it wrote {head!r} to its output instead of cctviz's frames"
        except EOFError:
            pass
        except Exception as error:  # a frame that cannot be read: the worker cannot be trusted
            why = f"its output could not be read ({type(error).__name__}: {error})"
        self._inbox.put((self, "end", why))

    def stop(self) -> None:
        """Kills the process and reaps it (it holds no work worth waiting for), then closes its
        pipes (in this order: closing its output waits for the thread reading it)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._reader.join(timeout=5)
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass

    def how_it_ended(self) -> str:
        """Its exit, in words (after ``stop``)."""
        code = self.proc.returncode
        if code is None:
            return "it stopped answering"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"


def main() -> None:
    """The worker: reads the items it is sent until its stdin closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    data_out = os.fdopen(os.dup(1), "wb")
    data_in = os.fdopen(os.dup(0), "rb")
    os.dup2(2, 1)  # what readers print (Python or C) goes to stderr, never into the frames
    sys.stdout = sys.stderr
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)

    from .sources import Skipped, read_item

    # the input is read as it comes, so that the parent never blocks sending while this one
    # blocks sending it a result
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def receive() -> None:
        try:
            while True:
                inbox.put(unpack(data_in))
        except Exception:  # the end of the input (EOFError), or input that is not frames
            inbox.put(None)

    threading.Thread(target=receive, daemon=True).start()
    try:
        data_out.write(MAGIC)
        data_out.flush()
        settings = inbox.get()
        if settings is None:
            return
        reducer, ranks = settings
        while (message := inbox.get()) is not None:
            index, item = message
            result = read_item(item, reducer, ranks)
            try:
                frame = pack((index, result))
            except Exception as error:
                reason = f"its rows could not be sent back ({type(error).__name__}: {error})"
                frame = pack((index, Skipped(item.source, reason)))
            data_out.write(frame)
            data_out.flush()
    except (BrokenPipeError, OSError):
        pass  # the parent is gone


if __name__ == "__main__":
    main()
    sys.stderr.flush()
    os._exit(0)  # no interpreter teardown (pandas, Hatchet): nothing here needs it
