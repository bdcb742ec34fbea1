"""Hatchet's `%cct` and cctviz side by side: cell run → picture painted and page idle, interleaved.

The anchor runs where it was made for: classic Notebook 6, IPython 7, ipykernel 6 and
llnl-hatchet, in a venv of its own that this script builds if it is missing (pins in
benchmarks/anchor-requirements.txt; hatchet.vis builds its JavaScript with npm on first import).
cctviz runs in JupyterLab from the project's venv, twice: the default view (`CCT(gf)`: what a user
gets, folded to fit) and the whole tree (`budget=None, fold_to_fit=False`: every node drawn, as
`%cct` draws). All draw the same synthetic trees (cctviz/examples/_synthetic.py, loaded by path in
the anchor's kernel) with a realistic count of distinct names (n^0.85: real profiles repeat MPI
calls and loops; 5,000 names is what the old benchmark used).

What a user feels: every run opens the notebook in a fresh browser context (a new page, nothing
cached from the last run), the clock starts when the cell is run and stops when the picture is
painted (every node for `%cct` and the whole view, the first picture for the default view) and
the page's main thread has been idle (no long task) for 300 ms; the end is the later of the
painted frame and the end of the last long task. Long tasks (over 50 ms) are reported before the
picture and in the 3 s after it. The table gives medians, the spread (min–max) and the ratio
`%cct` ÷ cctviz of each pair, the bytes each page received over its websocket for the cell,
and the load average before and after. Each repetition also times a trivial anywidget (one
element) with the same harness: no JupyterLab widget is drawn sooner, so `%cct` ÷ that is the
most any widget could be ahead. A first round at 100 nodes, not counted, warms both servers and
kernels.

    python benchmarks/vs_cct.py                     # 100, 1k, 10k nodes, 3 repetitions
    python benchmarks/vs_cct.py --sizes 10000 --repeat 5
    python benchmarks/vs_cct.py --smoke             # 100 nodes once: does everything run?
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import synthetic  # noqa: E402

from tests.e2e.lab import NotebookPage, launch_browser, running_lab  # noqa: E402

PINS = REPO / "benchmarks" / "anchor-requirements.txt"
SYNTHETIC = REPO / "cctviz" / "examples" / "_synthetic.py"
DRAWN_TIMEOUT_MS = 600_000
QUIET_MS = 300  # the page is idle once no long task has run for this long
AFTER_MS = 3000  # long tasks up to this long after the picture count as "after" it

# every page records its long tasks from its first script on
LONG_TASKS = """window.__cctLong = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__cctLong.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });"""
# the frame after the picture has been painted; then the main thread idle for `quiet` ms
PAINTED = (
    "() => new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now()))))"
)
SETTLED = """async (quiet) => {
  for (;;) {
    const ends = window.__cctLong.map(([s, d]) => s + d);
    const last = ends.length ? Math.max(...ends) : 0;
    if (performance.now() - last >= quiet) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
}"""


def names(n: int) -> int:
    """Distinct names of a realistic tree of ``n`` nodes: 50 of 100, 355 of 1k, 2.5k of 10k."""
    return max(1, round(n**0.85))


def ensure_anchor(venv: Path) -> Path:
    """The anchor's Python, its venv built first if missing; a clear error if that fails."""
    python = venv / "bin" / "python"
    steps = [
        [sys.executable, "-m", "venv", str(venv)],
        [str(python), "-m", "pip", "install", "-q", "-r", str(PINS)],
        [str(python), "-c", "import hatchet.vis"],  # builds hatchet.vis's bundle with npm
    ]
    if python.exists() and (venv / ".ready").exists():
        return python
    for step in steps:
        print("anchor:", " ".join(step[-3:]), flush=True)
        done = subprocess.run(step, capture_output=True, text=True, check=False)
        if done.returncode:
            raise SystemExit(f"building the anchor's venv failed at {step}:\n{done.stderr[-2000:]}")
    (venv / ".ready").touch()
    return python


@contextlib.contextmanager
def classic_notebook(python: Path) -> Iterator[tuple[str, Path]]:
    """A Notebook 6 server of the anchor's venv on a free loopback port: (url, its folder)."""
    base = Path(tempfile.mkdtemp(prefix="cctviz-anchor-"))
    root = base / "notebooks"
    root.mkdir()
    env = dict(os.environ)
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        env[var] = str(base / var.lower())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [str(python), "-m", "notebook", "--no-browser", "--allow-root",
           "--ip=127.0.0.1", f"--port={port}", "--NotebookApp.token=",
           "--NotebookApp.password=", f"--notebook-dir={root}"]  # fmt: skip
    with (base / "server.log").open("wb") as log:
        server = subprocess.Popen(
            cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            time.sleep(0.2)
        yield url, root
    finally:
        os.killpg(server.pid, 15)
        server.wait(10)


class Received:
    """Bytes the page receives over its websockets (the kernels' messages), counted from `start`."""

    def __init__(self, page: Any) -> None:
        self.total = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.total += len(payload.encode() if isinstance(payload, str) else payload)

    def since(self, start: int) -> int:
        return self.total - start


def write_notebook(folder: Path, name: str, cells: list[str]) -> str:
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}
    nb = {
        "cells": [{**cell, "source": src} for src in cells],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (folder / name).write_text(json.dumps(nb))
    return name


class Run:
    """One measured run: seconds to the picture painted and the page idle, the longest task
    before and after the picture (ms), bytes received."""

    def __init__(self, page: Any, got: Received, t0: float, painted: float, sent: int):
        settled = page.evaluate(SETTLED, QUIET_MS)
        # tasks "after the picture" are watched for AFTER_MS (the view's static picture is drawn
        # a second after it settles)
        wait = painted + AFTER_MS - page.evaluate("() => performance.now()")
        if wait > 0:
            page.wait_for_timeout(wait)
        longs = [(s, d) for s, d in page.evaluate("() => window.__cctLong") if s >= t0]
        self.seconds = (max(painted, settled) - t0) / 1000
        self.before = max((d for s, d in longs if s < painted), default=0.0)
        self.after = max((d for s, d in longs if s >= painted), default=0.0)
        self.sent = got.since(sent)


def fresh_page(browser: Any) -> tuple[Any, Any, Received]:
    """A new browser context and page (no cache from earlier runs) recording its long tasks."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.add_init_script(LONG_TASKS)
    page = context.new_page()
    return context, page, Received(page)


def time_cct(browser: Any, url: str, folder: Path, n: int, run: int) -> Run:
    """`%cct gf` in Notebook 6: cell run → its output holds n drawn nodes (`.node`), idle."""
    build = (
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('synthetic', {str(SYNTHETIC)!r})\n"
        "synthetic = importlib.util.module_from_spec(spec); spec.loader.exec_module(synthetic)\n"
        f"gf = synthetic.graphframe({n}, names={names(n)})\n%load_ext hatchet.vis.loader"
    )
    name = write_notebook(folder, f"cct-{n}-{run}.ipynb", [build, "%cct gf"])
    context, page, got = fresh_page(browser)
    try:
        page.goto(f"{url}/notebooks/{name}")
        page.wait_for_function(
            "() => window.Jupyter?.notebook?.kernel?.is_connected()", timeout=120_000
        )
        page.evaluate("() => Jupyter.notebook.execute_cells([0])")
        page.wait_for_function(
            "() => typeof Jupyter.notebook.get_cell(0).input_prompt_number === 'number'"
            " && !Jupyter.notebook.kernel_busy",
            timeout=DRAWN_TIMEOUT_MS,
        )
        page.evaluate(SETTLED, QUIET_MS)
        sent = got.total
        t0 = page.evaluate(
            "() => { const t = performance.now(); Jupyter.notebook.execute_cells([1]); return t; }"
        )
        page.wait_for_function(
            "(n) => document.querySelectorAll('.cell:nth-child(2) .output_area .node').length >= n",
            arg=n,
            timeout=DRAWN_TIMEOUT_MS,
            polling="raf",
        ).dispose()
        painted = page.evaluate(PAINTED)
        page.wait_for_function("() => !Jupyter.notebook.kernel_busy", timeout=DRAWN_TIMEOUT_MS)
        result = Run(page, got, t0, painted, sent)
        # its kernel ends: runs do not pile up kernels (memory) behind the later ones
        page.evaluate("() => Jupyter.notebook.session.delete()")
        return result
    finally:
        context.close()


def time_cctviz(browser: Any, lab: Any, n: int, run: int, whole: bool) -> Run:
    """cctviz in JupyterLab: cell run → the default view's first picture (`[data-node-count]`
    set once a picture is painted) with its labels (no `[data-labels]` waiting), or with
    ``whole`` every node drawn; then the page idle."""
    args = ", budget=None, fold_to_fit=False" if whole else ""
    drawn = f"[data-node-count='{n}']" if whole else "[data-node-count]"
    kind = "whole" if whole else "default"
    cells = [synthetic.notebook_source(n, names=names(n)), f"w = cctviz.CCT(gf{args})\nw"]
    return time_lab(browser, lab, f"cctviz-{kind}-{n}-{run}", cells, drawn)


# the least a widget can do: a module whose view appends one marked element (the floor of any
# JupyterLab widget: the kernel's reply, the widget manager making the model, loading the module)
FLOOR = """import anywidget
gf = None  # (what time_lab waits for)

class Floor(anywidget.AnyWidget):
    _esm = '''export default { render({ el }) {
      const box = document.createElement("div"); box.className = "cctviz";
      const mark = document.createElement("span"); mark.setAttribute("data-node-count", "1");
      box.append(mark); el.append(box); } }'''"""


def time_floor(browser: Any, lab: Any, run: int) -> Run:
    """A trivial anywidget in JupyterLab, timed as cctviz is: what no widget can go below."""
    return time_lab(browser, lab, f"floor-{run}", [FLOOR, "Floor()"], "[data-node-count]")


def time_lab(browser: Any, lab: Any, name: str, cells: list[str], drawn: str) -> Run:
    """Run ``cells[0]`` (builds ``gf``), then time ``cells[1]``: cell run → ``.cctviz {drawn}``
    in the page with no ``[data-labels]`` waiting, painted; then the page idle."""
    notebook_name = lab.write_notebook(f"{name}.ipynb", cells)
    context, page, got = fresh_page(browser)
    try:
        notebook = NotebookPage(page, lab, notebook_name).open()
        run_cell = (
            "(i) => { const p = window.jupyterapp.shell.currentWidget;"
            " p.content.activeCellIndex = i; const t = performance.now();"
            " window.jupyterapp.commands.execute('notebook:run-cell'); return t; }"
        )
        page.evaluate(run_cell, 0)
        notebook.wait_python("'gf' in globals()", True, timeout_s=600)
        notebook.wait_idle()
        page.evaluate(SETTLED, QUIET_MS)
        sent = got.total
        t0 = page.evaluate(run_cell, 1)
        # the picture with its labels (a big first picture's follow its frame: data-labels)
        page.wait_for_function(
            f'() => !!document.querySelector(".cctviz {drawn}")'
            ' && !document.querySelector(".cctviz [data-labels]")',
            timeout=DRAWN_TIMEOUT_MS,
            polling="raf",
        ).dispose()
        painted = page.evaluate(PAINTED)
        notebook.wait_idle()
        result = Run(page, got, t0, painted, sent)
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        return result
    finally:
        context.close()


def spread(xs: list[float], unit: str = "s", digits: int = 2) -> str:
    m = statistics.median(xs)
    return f"{m:.{digits}f} {unit} ({min(xs):.{digits}f}–{max(xs):.{digits}f})"


TOOLS = ("%cct", "cctviz default", "cctviz whole")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 1_000, 10_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--anchor-venv", type=Path, default=REPO / ".venv-anchor")
    parser.add_argument("--smoke", action="store_true", help="100 nodes, once")
    args = parser.parse_args()
    sizes, repeat = ([100], 1) if args.smoke else (args.sizes, args.repeat)
    python = ensure_anchor(args.anchor_venv)
    load_before = os.getloadavg()
    runs: dict[tuple[str, int], list[Run]] = {}
    floor: list[Run] = []
    from playwright.sync_api import sync_playwright

    with classic_notebook(python) as (url, folder), running_lab() as lab, sync_playwright() as pw:
        browser = launch_browser(pw)
        if not args.smoke:  # not counted: first kernels and imports on both sides
            time_cct(browser, url, folder, 100, -1)
            time_cctviz(browser, lab, 100, -1, whole=False)
        for run in range(repeat):
            floor.append(time_floor(browser, lab, run))
            print(f"run {run + 1}: a trivial anywidget {floor[-1].seconds:.2f} s", flush=True)
            for n in sizes:
                measured = (
                    time_cct(browser, url, folder, n, run),
                    time_cctviz(browser, lab, n, run, whole=False),
                    time_cctviz(browser, lab, n, run, whole=True),
                )
                for tool, result in zip(TOOLS, measured, strict=True):
                    runs.setdefault((tool, n), []).append(result)
                print(f"run {run + 1}, {n:,} nodes: " + ", ".join(
                    f"{t} {r.seconds:.2f} s" for t, r in zip(TOOLS, measured, strict=True)
                ), flush=True)  # fmt: skip
        browser.close()
    load_after = os.getloadavg()
    report(sizes, runs, floor, args.anchor_venv, load_before, load_after)


def report(
    sizes: list[int],
    runs: dict[tuple[str, int], list[Run]],
    floor: list[Run],
    anchor_venv: Path,
    load_before: tuple[float, float, float],
    load_after: tuple[float, float, float],
) -> None:
    print("\ncell run → picture painted and the page idle; median (min–max) over the repetitions")
    print(f"{'nodes':>8} | {'%cct':>20} | {'cctviz default':>20} | {'÷':>6} |"
          f" {'cctviz whole':>20} | {'÷':>6}")  # fmt: skip
    print("-" * 96)
    for n in sizes:
        secs = {t: [r.seconds for r in runs[t, n]] for t in TOOLS}
        ratio = {
            t: statistics.median(a / b for a, b in zip(secs["%cct"], secs[t], strict=True))
            for t in TOOLS[1:]
        }
        print(f"{n:>8,} | {spread(secs['%cct']):>20} | {spread(secs['cctviz default']):>20} |"
              f" {ratio['cctviz default']:>5.1f}× | {spread(secs['cctviz whole']):>20} |"
              f" {ratio['cctviz whole']:>5.1f}×")  # fmt: skip
    low = [r.seconds for r in floor]
    best = {
        n: statistics.median(r.seconds for r in runs["%cct", n]) / statistics.median(low)
        for n in sizes
    }
    print(
        f"\na trivial anywidget (one element, same harness): {spread(low)}; no JupyterLab widget"
        " is drawn sooner, so none is more than %cct ÷ that ahead: "
        + ", ".join(f"{n:,} nodes {best[n]:.1f}×" for n in sizes)
    )
    print(
        "\nlongest main-thread task (ms, median over the repetitions): before | after the picture"
    )
    print(f"{'nodes':>8} | " + " | ".join(f"{t:>20}" for t in TOOLS))
    print("-" * 76)
    for n in sizes:
        cells = [
            f"{statistics.median(r.before for r in runs[t, n]):>8.0f} | "
            f"{statistics.median(r.after for r in runs[t, n]):<9.0f}"
            for t in TOOLS
        ]
        print(f"{n:>8,} | " + " | ".join(f"{c:>20}" for c in cells))
    print("\nbytes the page received over the websocket from running the cell to the kernel idle")
    print(f"{'nodes':>8} | " + " | ".join(f"{t:>16}" for t in TOOLS))
    for n in sizes:
        print(f"{n:>8,} | " + " | ".join(f"{runs[t, n][-1].sent:>16,}" for t in TOOLS))
    bundle = (REPO / "cctviz/widget/static/widget.js").stat().st_size
    anchor_js = next(anchor_venv.glob("lib/python*/site-packages/hatchet/vis/static/cct_bundle.js"))
    print(
        f"\nJavaScript: %cct's cct_bundle.js {anchor_js.stat().st_size / 1024:.0f} KB,"
        f" cctviz's widget.js {bundle / 1024:.0f} KB (minified)"
    )
    print("load average before: " + " ".join(f"{x:.2f}" for x in load_before))
    print("load average after:  " + " ".join(f"{x:.2f}" for x in load_after))


if __name__ == "__main__":
    main()
