"""A real JupyterLab 4 on 127.0.0.1 and a headless Debian Chromium driven by Playwright.

Shared by the end-to-end tests and ``benchmarks/render.py``. Nothing here is mocked: the server
is ``jupyter lab`` in its own process group, the browser is ``/usr/bin/chromium``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cctviz.figure.browser import ARGS as CHROMIUM_ARGS  # the flags figures launch with too

CHROMIUM = os.environ.get("CCTVIZ_CHROMIUM", "/usr/bin/chromium")
START_TIMEOUT_S = 90
KERNEL_IDLE_TIMEOUT_MS = 60_000


# the row of a view's static picture in JupyterLab: a PNG output (no HTML, which would load
# MathJax) right after the view's row, hidden there by the widget's stylesheet
PICTURE_ROW = ".jp-OutputArea-child:has(> .jp-OutputArea-output > .cctviz) + .jp-OutputArea-child"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Lab:
    """A running JupyterLab server with its own settings and a scratch notebook folder."""

    def __init__(self, root: Path, port: int, process: subprocess.Popen[bytes], log: Path):
        self.root = root
        self.port = port
        self.process = process
        self.log = log

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def notebook_url(self, name: str) -> str:
        # ?reset: start from an empty workspace, so notebooks of earlier tests do not reopen
        return f"{self.url}/lab/tree/{name}?reset"

    def notebook7_url(self, name: str) -> str:
        """The same notebook in Notebook 7 (the server runs both front ends)."""
        return f"{self.url}/notebooks/{name}"

    def write_notebook(self, name: str, cells: list[str]) -> str:
        """Write a notebook of code cells into the server's folder; return its name."""
        nb = {
            "cells": [
                {
                    "cell_type": "code",
                    "metadata": {},
                    "source": src,
                    "outputs": [],
                    "execution_count": None,
                }
                for src in cells
            ],
            "metadata": {
                "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
            },
            "nbformat": 4,
            "nbformat_minor": 5,
        }
        (self.root / name).write_text(json.dumps(nb))
        return name

    def shut_down(self, name: str) -> None:
        """Shut down the kernels of notebook ``name`` (a test's kernels would otherwise live as
        long as the server: ~90 of them, 100-200 MB each, by the end of the suite)."""
        with urllib.request.urlopen(f"{self.url}/api/sessions", timeout=10) as r:
            sessions = json.load(r)
        for session in sessions:
            if session.get("path") == name:
                request = urllib.request.Request(
                    f"{self.url}/api/sessions/{session['id']}", method="DELETE"
                )
                with contextlib.suppress(OSError), urllib.request.urlopen(request, timeout=10):
                    pass

    def copy_notebook(self, source: Path) -> str:
        shutil.copy(source, self.root / source.name)
        return source.name


@contextlib.contextmanager
def running_lab() -> Iterator[Lab]:
    """Start JupyterLab on a free loopback port with isolated config; stop its process group."""
    base = Path(tempfile.mkdtemp(prefix="cctviz-lab-"))
    root = base / "notebooks"
    root.mkdir()
    env = dict(os.environ)
    for var, sub in {
        "JUPYTER_CONFIG_DIR": "config",
        "JUPYTER_RUNTIME_DIR": "runtime",
        "JUPYTERLAB_SETTINGS_DIR": "settings",
        "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
        "IPYTHONDIR": "ipython",
    }.items():
        (base / sub).mkdir()
        env[var] = str(base / sub)
    # keep the "Jupyter news?" toast from covering the widget
    notify = base / "settings" / "@jupyterlab" / "apputils-extension"
    notify.mkdir(parents=True)
    (notify / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    # Notebook 7 (served by the same server) exposes its app to the tests as JupyterLab does
    (base / "config" / "jupyter_server_config.json").write_text(
        json.dumps({"JupyterNotebookApp": {"expose_app_in_browser": True}})
    )
    # save widget state into notebooks, so that a reloaded notebook shows its widgets
    widgets = base / "settings" / "@jupyter-widgets" / "jupyterlab-manager"
    widgets.mkdir(parents=True)
    (widgets / "plugin.jupyterlab-settings").write_text(json.dumps({"saveState": True}))
    port = _free_port()
    log = base / "jupyterlab.log"
    cmd = [
        sys.executable, "-m", "jupyter", "lab",
        "--allow-root", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        "--IdentityProvider.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
    ]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(
            cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    lab = Lab(root, port, process, log)
    try:
        _wait_ready(lab)
        yield lab
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
        shutil.rmtree(base, ignore_errors=True)


@contextlib.contextmanager
def serving(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """Run an app server (marimo, Voilà) on a free loopback port: ``cmd`` holds ``{port}``.
    Yields its URL once it answers; stops its process group after."""
    port = _free_port()
    log_path = cwd / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [part.format(port=port) for part in cmd],
            cwd=cwd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, **(env or {})},
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}/"
        try:
            deadline = time.monotonic() + START_TIMEOUT_S
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{cmd[2]} did not start:\n{log_path.read_text()[-2000:]}")
                with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=30) as r:
                    if r.status == 200:
                        break
                time.sleep(0.3)
            yield url
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)


def _wait_ready(lab: Lab) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if lab.process.poll() is not None:
            raise RuntimeError(f"jupyter lab exited early:\n{lab.log.read_text()[-3000:]}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{lab.url}/api/status", timeout=2) as r,
        ):
            if r.status == 200:
                return
        time.sleep(0.3)
    raise TimeoutError(
        f"jupyter lab not ready after {START_TIMEOUT_S}s:\n{lab.log.read_text()[-3000:]}"
    )


# an ensemble of 60 nightly runs of an 80-node tree, in a notebook: what the ensemble e2e tests open
ENSEMBLE_CELL = [
    "import tempfile\nfrom pathlib import Path\nimport cctviz\n"
    "ens = cctviz.examples.ensemble(Path(tempfile.mkdtemp()) / 'runs', 60, 80, seed=1)\n"
    "w = cctviz.CCT(ens)\nw"
]


# the page's model of the widget: JupyterLab's widget manager, found through the output that
# shows it; `run(model)` then does what a forged page would
WITH_MODEL = """async ([id, run]) => {
  const cells = window.jupyterapp.shell.currentWidget.content.widgets;
  for (const cell of cells) {
    for (const child of cell.outputArea?.widgets ?? []) {
      for (const part of child.widgets ?? []) {
        if (!part._manager) continue; // a widget's output: its manager, once it has one
        const manager = await part._manager.promise;
        const model = await manager.get_model(id);
        return new Function('model', run)(model);
      }
    }
  }
  throw new Error('no widget output');
}"""


def shot(page: Any, name: str) -> None:
    """A screenshot of the first view to look at, where CCTVIZ_SCREENSHOTS says (none otherwise)."""
    folder = os.environ.get("CCTVIZ_SCREENSHOTS")
    if folder:
        page.locator(".cctviz").first.screenshot(path=str(Path(folder) / f"{name}.png"))


def page_position(page: Any, target: int | dict[str, int]) -> dict[str, float]:
    """Page coordinates of a drawn node (its full-tree id), or of the level-of-detail fold under
    a node (``{"fold": id}``), from the renderer's own transform."""
    return dict(
        page.evaluate(
            """(target) => {
              const el = document.querySelector('.cctviz');
              const r = el.cctRenderer;
              const p = typeof target === 'number'
                ? r.screenPosition(target) : r.foldPosition(target.fold);
              const box = el.querySelector('.cct-stage').getBoundingClientRect();
              return { x: box.left + p.x, y: box.top + p.y };
            }""",
            target,
        )
    )


def more_controls(view: Any) -> None:
    """Opens the toolbar's "⋯" menu of ``view`` (a locator), where the less used controls are."""
    more = view.get_by_role("button", name="More controls")
    if more.get_attribute("aria-expanded") != "true":
        more.click()
    view.locator(".cct-menu").wait_for()


def close_more_controls(view: Any) -> None:
    """Closes the toolbar's "⋯" menu of ``view`` if it is open (it covers the top of the tree)."""
    more = view.get_by_role("button", name="More controls")
    if more.get_attribute("aria-expanded") == "true":
        more.click()
    view.locator(".cct-menu").wait_for(state="hidden")


def pick_metric(view: Any, picker: str, metric: str) -> None:
    """Chooses ``metric`` in the toolbar's ``picker`` ("colour" or "size") of ``view``."""
    button = view.locator(f'[data-picker="{picker}"]')
    if not button.is_visible():  # a narrow toolbar keeps the pickers in its menu
        more_controls(view)
    button.click()
    options = view.locator(f'[role=listbox][aria-label="{picker}"] [role=option]')
    options.and_(view.locator(f'[data-value="{metric}"]')).click()


def downloads_svg_and_png(page: Any, view: Any) -> None:
    """The toolbar's SVG and PNG buttons of ``view`` (a locator) download the figure of the view
    (an SVG of its marks) and its picture (a PNG at twice the stage's size)."""
    from PIL import Image

    more_controls(view)
    with page.expect_download(timeout=15_000) as download:
        view.get_by_role("button", name="Save the view as an SVG file").click()
    assert download.value.suggested_filename == "cctviz.svg"
    path = download.value.path()
    text = Path(path).read_text(encoding="utf-8")
    assert "<svg" in text[:300] and "cct-node" in text
    more_controls(view)
    with page.expect_download(timeout=15_000) as download:
        view.get_by_role("button", name="Save the view as a PNG file").click()
    assert download.value.suggested_filename == "cctviz.png"
    stage = view.locator(".cct-stage").bounding_box()
    with Image.open(download.value.path()) as image:
        assert image.format == "PNG"
        assert image.size == (round(stage["width"]) * 2, round(stage["height"]) * 2)


def views_drawn(page: Any, timeout_ms: int = 15_000) -> None:
    """Wait until every view on the page drew its first picture (or says why it cannot): the
    kernel is idle before the page has drawn what it sent. A page without a view waits
    ``timeout_ms`` and goes on (what a test expects of it, it checks itself)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            """() => {
              const views = [...document.querySelectorAll('.cctviz')];
              return views.length > 0 && views.every(
                (v) => v.querySelector('.cct-node, canvas.cct-canvas, .cct-error'));
            }""",
            timeout=timeout_ms,
        )


def luminance(css: str) -> float:
    """The luminance (0–255) of a CSS ``rgb(…)``/``rgba(…)`` colour."""
    r, g, b = (float(v) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def brush_strip(page: Any, view: Any) -> tuple[dict[str, float], float]:
    """A flat drag with the mouse over the middle of ``view``'s profile strip: a range of its x
    axis (launch dates, by default). Returns the plot's box and the drag's height."""
    plot = view.locator(".cct-profiles-plot").bounding_box()
    y = plot["y"] + plot["height"] * 0.5
    page.mouse.move(plot["x"] + plot["width"] * 0.40, y)
    page.mouse.down()
    page.mouse.move(plot["x"] + plot["width"] * 0.55, y + 1, steps=4)
    page.mouse.move(plot["x"] + plot["width"] * 0.72, y + 1, steps=4)
    page.mouse.up()
    return plot, y


def launch_browser(playwright: Any) -> Any:
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"Chromium not found at {CHROMIUM}: apt-get install -y chromium")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


# JavaScript run in the page (window.jupyterapp exists thanks to expose_app_in_browser).
_EXECUTE_JS = """
async (code) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, store_history: false });
  let out = "";
  let error = null;
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === "stream") out += msg.content.text;
    if (msg.header.msg_type === "error") error = msg.content.ename + ": " + msg.content.evalue;
  };
  await future.done;
  if (error) throw new Error(error);
  return out;
}
"""


class NotebookPage:
    """One open notebook in the browser, with helpers to run cells and read kernel state."""

    def __init__(self, page: Any, lab: Lab, name: str, *, notebook7: bool = False):
        self.page = page
        self.lab = lab
        self.name = name
        self.notebook7 = notebook7

    def open(self) -> NotebookPage:
        url = self.lab.notebook7_url if self.notebook7 else self.lab.notebook_url
        self.page.goto(url(self.name))
        self.page.wait_for_function(
            """(name) => {
              const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
              return w && w.context && w.context.path === name && w.sessionContext
                && w.sessionContext.session && w.sessionContext.session.kernel;
            }""",
            arg=self.name,
            timeout=KERNEL_IDLE_TIMEOUT_MS,
        )
        self.wait_idle()
        return self

    def wait_idle(self) -> None:
        self.page.wait_for_function(
            "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
            " === 'idle'",
            timeout=KERNEL_IDLE_TIMEOUT_MS,
        )

    def run_all(self) -> None:
        """Run every cell and wait until each has an execution count (stops at the first error)."""
        self.page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        self.page.wait_for_function(
            """() => {
              const nb = window.jupyterapp.shell.currentWidget.content;
              return nb.widgets.every((c) => c.model.type !== 'code' || c.model.executionCount);
            }""",
            timeout=KERNEL_IDLE_TIMEOUT_MS,
        )
        self.wait_idle()
        tracebacks = self.page.locator(
            ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']"
        )
        if tracebacks.count():
            raise AssertionError(f"a cell raised:\n{tracebacks.first.inner_text()}")

    def execute(self, code: str) -> str:
        """Run ``code`` on the notebook's kernel without touching the UI; return its stdout."""
        return str(self.page.evaluate(_EXECUTE_JS, code))

    def python_json(self, expression: str) -> Any:
        """Evaluate a Python expression in the kernel and return it through JSON."""
        out = self.execute(f"import json as _j; print(_j.dumps({expression}))")
        return json.loads(out.strip().splitlines()[-1])

    def wait_python(self, expression: str, expected: Any, timeout_s: float = 10.0) -> None:
        """Poll a kernel expression until it equals ``expected`` (comm messages are
        asynchronous); assert on the last value when time runs out."""
        deadline = time.monotonic() + timeout_s
        while True:
            value = self.python_json(expression)
            if value == expected or time.monotonic() > deadline:
                assert value == expected, f"{expression} = {value!r}, expected {expected!r}"
                return
            time.sleep(0.2)
