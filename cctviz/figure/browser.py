"""Headless Chromium for figures, through Playwright (an optional dependency).

Figures are drawn by the widget's own renderer, so they look exactly as the widget does; that
needs a browser. One Chromium is started on first use and kept for the life of the process. All
Playwright calls run on one worker thread: Playwright's sync API refuses to run inside a running
asyncio loop, which is where a Jupyter kernel executes cells.
"""

from __future__ import annotations

import atexit
import os
import pathlib
import queue
import shutil
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

# the flags Debian's Chromium needs to run headless in containers and CI
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
ENV = "CCTVIZ_CHROMIUM"

NO_PLAYWRIGHT = (
    "exporting figures needs Playwright and a Chromium browser, which draw the figure with the "
    "widget's own renderer: pip install 'cctviz[export]', then either `playwright install "
    f"chromium` or a system Chromium (e.g. apt-get install chromium); set {ENV} to its path if "
    "it is not on PATH"
)


class BrowserUnavailableError(RuntimeError):
    """No Chromium could be found or started for exporting figures."""


def find_chromium(playwright: Any) -> str | None:
    """The Chromium to launch: ``$CCTVIZ_CHROMIUM``, Playwright's own, or one on PATH.
    ``None``: let Playwright decide (and report)."""
    configured = os.environ.get(ENV)
    if configured:
        if not pathlib.Path(configured).is_file():
            raise BrowserUnavailableError(f"{ENV}={configured!r} is not a file")
        return configured
    own = playwright.chromium.executable_path
    if own and pathlib.Path(own).is_file():
        return str(own)
    for name in SYSTEM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise BrowserUnavailableError(
        "no Chromium found for exporting figures: run `playwright install chromium`, install a "
        f"system Chromium (e.g. apt-get install chromium), or set {ENV} to a Chromium binary"
    )


class Browser:
    """A lazily started headless Chromium, used from one worker thread.

    A plain daemon thread rather than a ThreadPoolExecutor: executors refuse work once the
    interpreter starts to exit, and Chromium has to be closed from this thread at exit."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[Any], Any], Future[Any]]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._playwright: Any = None
        self._browser: Any = None

    @property
    def started(self) -> bool:
        """Whether Chromium runs (else the next job starts it: a second or two)."""
        return self._browser is not None

    def run(self, job: Callable[[Any], T]) -> T:
        """Run ``job(browser)`` on the browser's thread and return its result. Interrupted
        (``KeyboardInterrupt`` while waiting), Chromium is stopped once the job ends: it cannot
        be stopped in the middle, and none is left running for a figure nobody waits for."""
        future = self._submit(lambda: job(self._ready()))
        try:
            return future.result()
        except KeyboardInterrupt:
            self._submit(self._stop)
            raise

    def close(self) -> None:
        """Stop Chromium (it starts again on the next figure)."""
        if self._thread is not None and self._thread.is_alive():
            self._submit(self._stop).result()

    def _submit(self, call: Callable[[], T]) -> Future[T]:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._serve, name="cctviz-browser", daemon=True
                )
                self._thread.start()
        future: Future[T] = Future()
        self._jobs.put((lambda _: call(), future))
        return future

    def _serve(self) -> None:
        while True:
            call, future = self._jobs.get()
            try:
                future.set_result(call(None))
            except BaseException as error:
                future.set_exception(error)

    def _ready(self) -> Any:
        if self._browser is None or not self._browser.is_connected():
            self._start()
        return self._browser

    def _start(self) -> None:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError as error:
            raise ImportError(NO_PLAYWRIGHT) from error
        if self._playwright is None:
            self._playwright = sync_playwright().start()
        path = find_chromium(self._playwright)
        try:
            self._browser = self._playwright.chromium.launch(executable_path=path, args=ARGS)
        except Exception as error:
            raise BrowserUnavailableError(
                f"Chromium at {path} did not start for exporting figures: {error}"
            ) from None

    def _stop(self) -> None:
        if self._browser is not None:
            self._browser.close()
            self._browser = None
        if self._playwright is not None:
            self._playwright.stop()
            self._playwright = None


_shared: Browser | None = None
_shared_lock = threading.Lock()


def shared() -> Browser:
    """The process's browser for figures (started on first use, stopped at exit)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Browser()
            atexit.register(_shared.close)
        return _shared
