"""Hatchet's `%cct` and cctviz side by side: cell run → every node drawn, interleaved.

The anchor runs where it was made for: classic Notebook 6, IPython 7, ipykernel 6 and
llnl-hatchet, in a venv of its own that this script builds if it is missing (pins in
benchmarks/anchor-requirements.txt; hatchet.vis builds its JavaScript with npm on first import).
cctviz runs in JupyterLab from the project's venv, with every node drawn (`budget=None,
fold_to_fit=False`), as benchmarks/render.py. Both draw the same synthetic trees
(cctviz/examples/_synthetic.py, loaded by path in the anchor's kernel). Each repetition measures
`%cct` then cctviz, size by size; the table gives medians, the spread (min–max) and the ratio
`%cct` ÷ cctviz of each pair, the bytes each page received over its websocket for the cell, and
the load average before and after. A first round at 100 nodes,
not counted, warms both servers, kernels and browser caches.

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


def time_cct(
    page: Any, got: Received, url: str, folder: Path, n: int, run: int
) -> tuple[float, int]:
    """`%cct gf` in Notebook 6: cell run → its output holds n drawn nodes (`.node`)."""
    build = (
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('synthetic', {str(SYNTHETIC)!r})\n"
        "synthetic = importlib.util.module_from_spec(spec); spec.loader.exec_module(synthetic)\n"
        f"gf = synthetic.graphframe({n})\n%load_ext hatchet.vis.loader"
    )
    name = write_notebook(folder, f"cct-{n}-{run}.ipynb", [build, "%cct gf"])
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
    start, bytes_before = time.perf_counter(), got.total
    page.evaluate("() => Jupyter.notebook.execute_cells([1])")
    page.wait_for_function(
        "(n) => document.querySelectorAll('.cell:nth-child(2) .output_area .node').length >= n",
        arg=n,
        timeout=DRAWN_TIMEOUT_MS,
        polling="raf",
    ).dispose()
    took = time.perf_counter() - start
    notebook_idle = "() => !Jupyter.notebook.kernel_busy"
    page.wait_for_function(notebook_idle, timeout=DRAWN_TIMEOUT_MS)  # every message received
    sent = got.since(bytes_before)
    # its kernel ends: runs do not pile up kernels (memory) behind the later ones
    page.evaluate("() => Jupyter.notebook.session.delete()")
    return took, sent


def time_cctviz(page: Any, got: Received, lab: Any, n: int, run: int) -> tuple[float, int]:
    """`w = cctviz.CCT(gf, budget=None, fold_to_fit=False); w` in JupyterLab: cell run → every
    node drawn (`[data-node-count]` is set once the whole tree is painted)."""
    show = "w = cctviz.CCT(gf, budget=None, fold_to_fit=False)\nw"
    name = lab.write_notebook(f"cctviz-{n}-{run}.ipynb", [synthetic.notebook_source(n), show])
    notebook = NotebookPage(page, lab, name).open()
    run_cell = (
        "(i) => { const p = window.jupyterapp.shell.currentWidget; p.content.activeCellIndex = i;"
        " return window.jupyterapp.commands.execute('notebook:run-cell'); }"
    )
    page.evaluate(run_cell, 0)
    notebook.wait_python("'gf' in globals()", True, timeout_s=600)
    notebook.wait_idle()
    start, bytes_before = time.perf_counter(), got.total
    page.evaluate(run_cell, 1)
    page.wait_for_function(
        f"() => !!document.querySelector(\".cctviz [data-node-count='{n}']\")",
        timeout=DRAWN_TIMEOUT_MS,
        polling="raf",
    ).dispose()
    took = time.perf_counter() - start
    notebook.wait_idle()
    sent = got.since(bytes_before)
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    return took, sent


def spread(xs: list[float], unit: str = "s") -> str:
    return f"{statistics.median(xs):.2f} {unit} ({min(xs):.2f}–{max(xs):.2f})"


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
    times: dict[tuple[str, int], list[float]] = {}
    received: dict[tuple[str, int], int] = {}  # bytes the page received for the cell (last run)
    from playwright.sync_api import sync_playwright

    with classic_notebook(python) as (url, folder), running_lab() as lab, sync_playwright() as pw:
        browser = launch_browser(pw)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        got = Received(page)
        if not args.smoke:  # not counted: first kernels, imports and bundle loads on both sides
            time_cct(page, got, url, folder, 100, -1)
            time_cctviz(page, got, lab, 100, -1)
        for run in range(repeat):
            for n in sizes:
                for tool, (took, sent) in (
                    ("%cct", time_cct(page, got, url, folder, n, run)),
                    ("cctviz", time_cctviz(page, got, lab, n, run)),
                ):
                    times.setdefault((tool, n), []).append(took)
                    received[tool, n] = sent
                print(f"run {run + 1}, {n:,} nodes: %cct {times['%cct', n][-1]:.2f} s,"
                      f" cctviz {times['cctviz', n][-1]:.2f} s", flush=True)  # fmt: skip
        browser.close()
    load_after = os.getloadavg()
    print("\ncell run → every node drawn; median (min–max) over the repetitions")
    print(f"{'nodes':>8} | {'%cct':>22} | {'cctviz':>22} | {'%cct ÷ cctviz':>22}")
    print("-" * 84)
    for n in sizes:
        anchor, ours = times["%cct", n], times["cctviz", n]
        ratios = [a / b for a, b in zip(anchor, ours, strict=True)]
        print(f"{n:>8,} | {spread(anchor):>22} | {spread(ours):>22} | {spread(ratios, '×'):>22}")
    print("\nbytes the page received over the websocket from running the cell to the kernel idle")
    print("(the first view of a kernel: cctviz's includes its packed bundle, sent once a kernel)")
    print(f"{'nodes':>8} | {'%cct':>14} | {'cctviz':>14} | {'%cct ÷ cctviz':>14}")
    print("-" * 60)
    for n in sizes:
        anchor_bytes, our_bytes = received["%cct", n], received["cctviz", n]
        ratio = f"{anchor_bytes / our_bytes:.1f} ×"
        print(f"{n:>8,} | {anchor_bytes:>14,} | {our_bytes:>14,} | {ratio:>14}")
    bundle = (REPO / "cctviz/widget/static/widget.js").stat().st_size
    anchor_js = next(
        args.anchor_venv.glob("lib/python*/site-packages/hatchet/vis/static/cct_bundle.js")
    )
    print(
        f"\nJavaScript: %cct's cct_bundle.js {anchor_js.stat().st_size / 1024:.0f} KB,"
        f" cctviz's widget.js {bundle / 1024:.0f} KB (minified)"
    )
    print("load average before: " + " ".join(f"{x:.2f}" for x in load_before))
    print("load average after:  " + " ".join(f"{x:.2f}" for x in load_after))


if __name__ == "__main__":
    main()
