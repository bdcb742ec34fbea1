"""Cell execution → every node drawn, in a real JupyterLab and headless Chromium.

For synthetic trees of 1k, 10k and 100k nodes, runs
``w = cctviz.CCT(gf, budget=None, fold_to_fit=False); w`` (every node sent, none folded into a
glyph to fit the view) in a notebook cell and times, from the moment the cell is run to the
moment every node is drawn (SVG elements in the page, or painted on the canvas backend that
``backend="auto"`` picks above 4,000 nodes): Python preparation, the comm transfer, decoding,
layout and drawing. The GraphFrame is built in an earlier cell and not timed. Prints a table
(median and max of the repeats).

    python benchmarks/render.py             # 1k, 10k, 100k
    python benchmarks/render.py --sizes 10000 --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.lab import NotebookPage, launch_browser, running_lab  # noqa: E402

sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402

DRAWN_TIMEOUT_MS = 300_000


def run_cell(notebook: NotebookPage, index: int) -> None:
    notebook.page.evaluate(
        """(index) => {
          const panel = window.jupyterapp.shell.currentWidget;
          panel.content.activeCellIndex = index;
          return window.jupyterapp.commands.execute('notebook:run-cell');
        }""",
        index,
    )


def time_to_drawn(notebook: NotebookPage, n: int) -> float:
    page = notebook.page
    # clear the previous widget so the count below sees only the new one
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.wait_for_function("() => !document.querySelector('.cctviz')")
    start = time.perf_counter()
    run_cell(notebook, 1)
    # set by either backend once all n nodes are drawn (SVG elements, or painted on canvas)
    page.wait_for_function(
        "(n) => document.querySelector(`.cctviz [data-node-count='${n}']`)",
        arg=n,
        timeout=DRAWN_TIMEOUT_MS,
        polling="raf",
    )
    elapsed = time.perf_counter() - start
    notebook.wait_idle()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    rows = []
    with running_lab() as lab, sync_playwright() as playwright:
        browser = launch_browser(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        for n in args.sizes:
            name = lab.write_notebook(
                f"render-{n}.ipynb",
                [
                    synthetic.notebook_source(n),
                    "w = cctviz.CCT(gf, budget=None, fold_to_fit=False)\nw",
                ],
            )
            notebook = NotebookPage(page, lab, name).open()
            run_cell(notebook, 0)
            notebook.page.wait_for_function(
                "() => window.jupyterapp.shell.currentWidget.content.widgets[0].model"
                ".executionCount",
                timeout=DRAWN_TIMEOUT_MS,
            )
            notebook.wait_idle()
            times = [time_to_drawn(notebook, n) for _ in range(args.repeat)]
            rows.append((n, statistics.median(times), max(times)))
        browser.close()

    print(f"{'nodes':>9} | {'cell → all drawn (median)':>25} | {'max':>8}")
    print("-" * 50)
    for n, median, worst in rows:
        print(f"{n:>9,} | {median:>23.3f} s | {worst:>6.3f} s")


if __name__ == "__main__":
    main()
