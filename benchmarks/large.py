"""Big trees under level of detail: Python preparation, bytes sent, paint, heap and memory.

For synthetic trees of realistic shape (10k, 100k, 1M nodes, see synthetic.py) and the largest
real profiles in ../shared/data, with the default drawing budget:

* in this process: ``cctviz.CCT(gf)`` time (adapter, level of detail, encoding) and its ratio
  to a bare iterative walk over the same Hatchet Nodes (goal: at most 4×), bytes of the
  payload sent, Python's peak extra memory while building the widget (tracemalloc, a separate
  run) against the size of the node table it keeps;
* in a real JupyterLab and headless Chromium: cell run → first paint (every sent row drawn),
  cell → settled (drawn, then the page's main thread idle), and the page's JS heap after that
  (Chrome DevTools Protocol, after a garbage collection).

Prints two tables. Hover and click latency at 10k drawn nodes: benchmarks/interaction.py.

    python benchmarks/large.py                        # 10k, 100k, 1M and real profiles
    python benchmarks/large.py --sizes 10000 --no-real
    python benchmarks/large.py --smoke                # 10k only, no browser (CI)
    python benchmarks/large.py --sizes 1000000 --no-real --distinct-names   # 1M names
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import synthetic  # noqa: E402

import cctviz  # noqa: E402
from cctviz.view.lod import DEFAULT_BUDGET  # noqa: E402

REAL = ["hatchet/hpctoolkit-allgather-database", "hatchet/caliper-sw4-cuda-activity-profile-cali"]
DRAWN_TIMEOUT_MS = 300_000


def table_bytes(table: cctviz.NodeTable) -> int:
    """What the node table keeps: its columns, names, and the list of Hatchet Node references."""
    arrays = [table.parent, table.depth, table.name_code, table.type_code, table.hatchet_nid]
    arrays += [table.first_row, *(m.values for m in table.metrics.values())]
    names = sum(sys.getsizeof(s) for s in table.names)
    return sum(a.nbytes for a in arrays) + names + sys.getsizeof(table.nodes)


def payload_bytes(payload: dict[str, Any]) -> int:
    total = 0
    for value in payload.values():
        if isinstance(value, dict):
            total += payload_bytes(value)
        elif isinstance(value, list):
            total += sum(payload_bytes(v) for v in value if isinstance(v, dict))
        elif isinstance(value, (memoryview, bytes)):
            total += len(value) if isinstance(value, bytes) else value.nbytes
    return total


def bare_walk(gf: Any) -> float:
    """Seconds to visit every Hatchet Node once, iteratively: the floor for any adapter."""
    start = time.perf_counter()
    stack = list(gf.graph.roots)
    while stack:
        stack.extend(stack.pop().children)
    return time.perf_counter() - start


def python_side(label: str, gf: Any) -> tuple[str, int, float, float, int, int, int, int]:
    times, walks = [], []
    for _ in range(3):
        walks.append(bare_walk(gf))
        start = time.perf_counter()
        w = cctviz.CCT(gf)
        times.append(time.perf_counter() - start)
    sent = payload_bytes(w._payload)
    tracemalloc.start()
    w = cctviz.CCT(gf)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    kept = table_bytes(w.table)
    frame = int(gf.dataframe.memory_usage(index=False, deep=False).sum())
    walk = statistics.median(walks)
    return label, w.table.size, statistics.median(times), walk, sent, kept, peak, frame


def browser_side(cases: list[tuple[str, str]]) -> list[tuple[str, float, float, float]]:
    from playwright.sync_api import sync_playwright

    from tests.e2e.lab import NotebookPage, launch_browser, running_lab

    rows = []
    with running_lab() as lab, sync_playwright() as playwright:
        browser = launch_browser(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        for label, build in cases:
            name = lab.write_notebook(f"large-{len(rows)}.ipynb", [build, "w = cctviz.CCT(gf)\nw"])
            notebook = NotebookPage(page, lab, name).open()
            notebook.page.evaluate(
                "() => { const p = window.jupyterapp.shell.currentWidget;"
                " p.content.activeCellIndex = 0;"
                " return window.jupyterapp.commands.execute('notebook:run-cell'); }"
            )
            notebook.wait_python("'gf' in globals()", True, timeout_s=600)
            notebook.wait_idle()
            start = time.perf_counter()
            notebook.page.evaluate(
                "() => { const p = window.jupyterapp.shell.currentWidget;"
                " p.content.activeCellIndex = 1;"
                " return window.jupyterapp.commands.execute('notebook:run-cell'); }"
            )
            page.wait_for_function(
                "() => document.querySelector('.cctviz [data-node-count]')",
                timeout=DRAWN_TIMEOUT_MS,
                polling="raf",
            )
            painted = time.perf_counter() - start
            page.evaluate("() => new Promise((r) => requestIdleCallback(r, { timeout: 20000 }))")
            settled = time.perf_counter() - start
            cdp.send("HeapProfiler.collectGarbage")
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            rows.append((label, painted, settled, metrics["JSHeapUsedSize"] / 2**20))
            notebook.wait_idle()
        browser.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--no-real", action="store_true", help="synthetic trees only")
    parser.add_argument("--smoke", action="store_true", help="10k nodes, Python side only (CI)")
    parser.add_argument("--no-browser", action="store_true", help="the Python table only")
    parser.add_argument(
        "--distinct-names",
        action="store_true",
        help="every node of the synthetic trees has its own name (default: 5,000 names)",
    )
    args = parser.parse_args()
    sizes = [10_000] if args.smoke else args.sizes

    cases: list[tuple[str, Any, str]] = []
    for n in sizes:
        names = n if args.distinct_names else None
        build = synthetic.notebook_source(n, names=names)
        label = f"synthetic {n:,}" + (" (all names)" if names else "")
        cases.append((label, synthetic.graphframe(n, names=names), build))
    if not (args.no_real or args.smoke):
        from tests.profiles import readable

        for spec in readable():
            if spec.folder in REAL and spec.reader != "thicket":
                build = (
                    f"import sys; sys.path.insert(0, {str(REPO)!r})\nimport cctviz\n"
                    f"from tests.profiles import readable\n"
                    f"gf = next(p for p in readable() if p.id == {spec.id!r}).load()"
                )
                cases.append((spec.folder.split("/")[-1], spec.load(), build))

    print(f"budget {DEFAULT_BUDGET:,} nodes\n")
    head = f"{'tree':>28} | {'nodes':>9} | {'CCT(gf)':>8} | {'÷ walk':>6} | {'bytes sent':>11}"
    head += f" | {'table kept':>10} | {'peak extra':>10} | {'ratio':>5} | {'dataframe':>9}"
    print(head)
    print("-" * len(head))
    mb = 2**20
    for label, gf, _ in cases:
        label, n, prep, walk, sent, kept, peak, frame = python_side(label, gf)
        extra = max(0, peak - kept)
        print(
            f"{label[:28]:>28} | {n:>9,} | {prep:>6.2f} s | {prep / walk:>5.1f}× | {sent:>11,}"
            f" | {kept / mb:>7.1f} MB"
            f" | {extra / mb:>7.1f} MB | {extra / kept:>5.2f} | {frame / mb:>6.1f} MB"
        )
    if args.smoke or args.no_browser:
        return
    del gf
    print()
    head = f"{'tree':>28} | {'cell → first paint':>18} | {'cell → settled':>14} | {'JS heap':>9}"
    print(head)
    print("-" * len(head))
    for label, painted, settled, heap in browser_side([(c[0], c[2]) for c in cases]):
        print(f"{label[:28]:>28} | {painted:>16.2f} s | {settled:>12.2f} s | {heap:>6.0f} MB")


if __name__ == "__main__":
    main()
