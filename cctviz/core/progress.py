"""Progress of long work: what cctviz is doing, shown once the work has taken a second.

Long work (reading a big GraphFrame into the widget, exporting a figure, the table pane over a
big tree) runs inside ``work(what, stages)``; the code doing it says where it is with
``stage(name)``, wherever it is (a no-op outside ``work``), so adapters need no reporter passed
down; work over many like things says how far it is with ``count(name, done, total, unit)``
("reading profiles: 40 of 150", a bar of profiles). Nothing shows for work that ends within
``DELAY`` seconds. After that a progress line appears and is redrawn in place: in a notebook an
output of the running cell (an IPython display handle: a bar and a line of text, emptied when
the work ends), on a terminal tqdm's line, nowhere when stderr is not a terminal (a batch job's
log is not filled with bars). It names the work, its stage, how many stages (or counted things)
are done and the time taken. Work interrupted (Ctrl-C, Jupyter's "interrupt kernel": a
``KeyboardInterrupt``), stopped (a generator closed early) or failing leaves the line saying
so; the exception goes on to the caller, and the callers clean up what they started.

The line is drawn by a thread (a stage may take seconds with no call to ``stage``); it runs in a
copy of the caller's context, so that Jupyter puts the line under the running cell.
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

DELAY = 1.0
"""Seconds of work before its progress shows."""

REDRAW = 0.5
"""Seconds between redraws of a shown line (its time taken goes on)."""

BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} {unit} [{elapsed}]"


class Line(Protocol):
    """Where progress shows: ``show`` draws it (again), ``end`` leaves ``text`` or nothing."""

    def show(
        self, description: str, done: int, total: int, elapsed: float, unit: str = "stages"
    ) -> None: ...

    def end(self, text: str | None) -> None: ...


class Work:
    """One piece of long work: its stages in order, the one it is in, its line once shown."""

    def __init__(self, what: str, stages: Sequence[str]) -> None:
        self.what = what
        self.stages = list(stages)
        self.done = 0  # stages finished
        self.current = ""
        self._counted: tuple[int, int, str] | None = None  # done, total, unit of a counted stage
        self._start = time.perf_counter()
        self._line: Line | None = None
        self._lock = threading.Lock()
        self._over = threading.Event()
        context = contextvars.copy_context()
        self._thread = threading.Thread(
            target=context.run, args=(self._draw,), name="cctviz-progress", daemon=True
        )

    def begin(self) -> None:
        if DELAY <= 0:  # shown at once, from the start
            self._line = new_line()
            self._show()
        self._thread.start()

    def stage(self, name: str) -> None:
        """Now doing ``name``: a listed stage counts the ones before it as done. During a
        counted stage, an unlisted one (done for each counted thing) leaves the count shown."""
        with self._lock:
            if self._counted is not None and name not in self.stages:
                return
            self._counted = None
            if name in self.stages:
                self.done = max(self.done, self.stages.index(name))
            self.current = name
            self._show()

    def count(self, name: str, done: int, total: int, unit: str) -> None:
        """Now doing ``name``, ``done`` of ``total`` ``unit`` so far: drawn at once when it
        starts or ends, else at the next redraw (counting each of 100,000 files costs nothing)."""
        with self._lock:
            if name in self.stages:
                self.done = max(self.done, self.stages.index(name))
            self.current = f"{name}: {done} of {total}"
            self._counted = (done, total, unit)
            if done in (0, total):
                self._show()

    def end(self, error: BaseException | None) -> None:
        """The work is over: finished (its line goes), or stopped by ``error`` (it stays)."""
        self._over.set()
        with self._lock:
            line, self._line = self._line, None
            if line is None:
                return
            if error is None:
                line.end(None)
                return
            outcome = (
                "interrupted" if isinstance(error, KeyboardInterrupt)
                else "stopped" if isinstance(error, GeneratorExit)
                else "failed"
            )  # fmt: skip
            seconds = time.perf_counter() - self._start
            line.end(f"{self._description(outcome)} (after {seconds:.1f} s)")

    def _description(self, outcome: str = "") -> str:
        doing = f"{outcome} while {self.current}" if outcome and self.current else outcome
        return f"cctviz: {self.what} — {doing or self.current or 'starting'}"

    def _show(self) -> None:
        if self._line is not None:
            elapsed = time.perf_counter() - self._start
            if self._counted is not None:
                done, total, unit = self._counted
                self._line.show(self._description(), done, total, elapsed, unit)
            else:
                self._line.show(self._description(), self.done, len(self.stages), elapsed)

    def _draw(self) -> None:
        if DELAY > 0:
            if self._over.wait(DELAY):
                return
            with self._lock:
                if self._over.is_set():
                    return
                self._line = new_line()
                self._show()
        while not self._over.wait(REDRAW):
            with self._lock:
                self._show()


_current: contextvars.ContextVar[Work | None] = contextvars.ContextVar(
    "cctviz_progress", default=None
)


@contextmanager
def work(what: str, stages: Sequence[str]) -> Iterator[None]:
    """Report the progress of the work in this block: ``what`` it is (``"reading the
    GraphFrame"``), its ``stages`` in the order they come. Inside other work, its stages are
    that work's (one line for the whole)."""
    if _current.get() is not None:
        yield
        return
    job = Work(what, stages)
    token = _current.set(job)
    job.begin()
    try:
        yield
    except BaseException as error:
        job.end(error)
        raise
    else:
        job.end(None)
    finally:
        _current.reset(token)


def stage(name: str) -> None:
    """Say which stage the current work is in (``"walking the tree"``); nothing outside
    ``work``."""
    job = _current.get()
    if job is not None:
        job.stage(name)


def count(name: str, done: int, total: int, unit: str) -> None:
    """Say how far the current work is in stage ``name``: ``done`` of ``total`` ``unit``
    (``count("reading profiles", 40, 150, "profiles")``); nothing outside ``work``."""
    job = _current.get()
    if job is not None:
        job.count(name, done, total, unit)


def new_line() -> Line | None:
    """Where progress shows now: the notebook's running cell, the terminal, or nowhere."""
    if _in_kernel():
        return NotebookLine()
    if sys.stderr is not None and sys.stderr.isatty():
        return TerminalLine()
    return None


class NotebookLine:
    """An output of the running cell, redrawn in place (an IPython display handle): one line of
    plain text, tqdm's bar and the stage; emptied when the work ends well.

    Text only, no HTML: an HTML output makes JupyterLab load MathJax to typeset it (16 scripts,
    ~180 ms of the page's main thread), which on a small machine slowed the very work the line
    reports and then the view's first picture (1M nodes: ~0.4 s)."""

    def __init__(self) -> None:
        from IPython.display import display

        self._handle = display({"text/plain": ""}, raw=True, display_id=True)  # type: ignore[no-untyped-call]

    def show(
        self, description: str, done: int, total: int, elapsed: float, unit: str = "stages"
    ) -> None:
        from tqdm.std import tqdm

        # tqdm's formatter, as on a terminal: the bar in block characters, the stages, the time
        line = tqdm.format_meter(
            done, total, elapsed, ncols=100, prefix=description, unit=unit, bar_format=BAR_FORMAT
        )
        self._handle.update({"text/plain": line}, raw=True)

    def end(self, text: str | None) -> None:
        # text None: an output with nothing to show (no line, no empty answer)
        self._handle.update({} if text is None else {"text/plain": text}, raw=True)


class TerminalLine:
    """tqdm's line on stderr, redrawn in place; cleared when the work ends well."""

    def __init__(self) -> None:
        self._bar: Any = None

    def show(
        self, description: str, done: int, total: int, elapsed: float, unit: str = "stages"
    ) -> None:
        from tqdm.std import tqdm

        if self._bar is None:  # made here, to draw its first line with the description
            self._bar = tqdm(
                total=total, initial=done, desc=description, bar_format=BAR_FORMAT,
                unit=unit, leave=False, file=sys.stderr,
            )  # fmt: skip
        self._bar.n, self._bar.total, self._bar.unit = done, total, unit
        self._bar.start_t = self._bar._time() - elapsed
        self._bar.set_description(description)

    def end(self, text: str | None) -> None:
        if self._bar is None:
            return
        self._bar.close()  # the line is cleared...
        if text is not None:  # ...and what stopped the work written in its place
            self._bar.write(text, file=sys.stderr)


def _in_kernel() -> bool:
    """Running in a Jupyter kernel (its cells show rich output), not a terminal's IPython."""
    shell = sys.modules.get("IPython")
    if shell is None or "ipykernel" not in sys.modules:
        return False
    ipython = shell.get_ipython()
    return ipython is not None and hasattr(ipython, "kernel")
