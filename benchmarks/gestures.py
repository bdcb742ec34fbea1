"""Gestures and settling on big views, in a real JupyterLab and headless Chromium.

* collapse / expand of a 10k-node tree drawn whole (``budget=None, fold_to_fit=False``): the
  node whose subtree is nearest 54 % of the tree, at the fitted view and zoomed in (a
  double-click), and the node with the most children (a fan of 9,110) at the fitted view;
* zoom: wheel steps over the default level-of-detail view of a 1M-node tree, in the middle of
  the view and over its largest fold;
  each timed from the event until what a user feels ends: the later of the next painted frame
  and the end of the last long task (a PerformanceObserver) that started after it, once 300 ms
  pass without one (goal: median ≤ 33 ms, p95 ≤ 50 ms), with the longest such task;
* long tasks once the picture is drawn: main-thread tasks over 50 ms from the first paint to
  3 s after it (goal: none), for 10k nodes drawn whole and the default views of 10k–1M;
* memory on re-run: the display cell run again 20 times at 10k nodes, JS heap and ArrayBuffer
  backing stores after a garbage collection (goal: no growth);
* a hundred views on one page: the page's memory per view.

    python benchmarks/gestures.py                 # everything (builds a 1M-node tree: ~1 min)
    python benchmarks/gestures.py --only collapse --events 30
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import synthetic  # noqa: E402

from tests.e2e.lab import Lab, NotebookPage, launch_browser, running_lab  # noqa: E402

TIMEOUT_MS = 600_000

# The node whose subtree is nearest 54 % of the tree (the 5,400 of 10,000).
PICK_SUBTREE = """
import numpy as _np
_p = w.table.parent
_size = _np.ones(len(_p), dtype=_np.int64)
for _i in range(len(_p) - 1, 0, -1):
    if _p[_i] >= 0:
        _size[_p[_i]] += _size[_i]
_best = int(_np.abs(_size - 0.54 * len(_p)).argmin())
print(_best, int(_size[_best]))
"""

# The node with the most children (the 9,110-child fan of the 10k tree).
PICK_FAN = """
import numpy as _np
_c = _np.bincount(w.table.parent[w.table.parent >= 0], minlength=len(w.table.parent))
print(int(_c.argmax()), int(_c.max()))
"""

# Every page records its long tasks from the start (an init script), so that a gesture is
# timed until what a user feels ends: the frame drawn and the main thread idle.
LONG_TASK_OBSERVER = """
window.__long = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
}).observe({ type: 'longtask', buffered: true });
"""

# Each gesture: settle, dispatch, then the later of the next painted frame and the end of the
# last long task that started after the event, once 300 ms have passed with none; `at` is
# "zoomed" (a double-click on the node, zoomed in to a full row height), "fit" (the same
# command at the fitted view, where a double-click cannot aim among 10k rows) or a wheel.
GESTURE_JS = """
async ({ kind, count, node, at }) => {
  const el = document.querySelector('.cctviz');
  const r = el.cctRenderer;
  const box = el.querySelector('.cct-stage').getBoundingClientRect();
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const settle = async () => { for (let i = 0; i < 25; i++) await frame(); await sleep(300); };
  const out = { a: [], b: [], longest: 0 };
  // the largest level-of-detail fold drawn (SVG backend; the canvas draws them unnamed)
  const folds = [...el.querySelectorAll('[data-fold]')].map((f) => f.getBoundingClientRect());
  const big = folds.sort((a, b) => b.width * b.height - a.width * a.height)[0];
  const fold = big && { x: big.x + big.width / 2 - box.left, y: big.y + big.height / 2 - box.top };
  for (let i = 0; i < count; i++) {
    for (const side of ['a', 'b']) {
      let event = null;
      if (kind === 'collapse' && at === 'fit') {
        r.fitToView();
        await settle();
      } else if (kind === 'collapse') {
        // the node in the middle, zoomed in (rows a full row height apart) so that a
        // double-click can aim at it among 10k others; expanding glides the view away
        const t = r.transform;
        const q = r.screenPosition(node);
        const [x, y] = [(q.x - t.x) / t.k, (q.y - t.y) / t.k];
        r.setTransform({ k: 1, x: box.width / 2 - x, y: box.height / 2 - y });
        await settle();
        const p = r.screenPosition(node);
        const where = { bubbles: true, clientX: box.left + p.x, clientY: box.top + p.y };
        event = new MouseEvent('dblclick', where);
      } else {
        await settle();
        const p = kind === 'fold' && fold ? fold : { x: box.width / 2, y: box.height / 2 };
        const deltaY = side === 'a' ? -120 : 120;
        event = new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY,
          clientX: box.left + p.x, clientY: box.top + p.y });
      }
      const k0 = r.transform.k;
      const t0 = performance.now();
      if (event) {
        // what is under the pointer (backend "auto" changes the surface with the number drawn)
        const under = document.elementFromPoint(event.clientX, event.clientY);
        (under ?? el.querySelector('svg.cct-svg')).dispatchEvent(event);
      } else r.dispatch({ type: 'collapse', id: node });
      await frame();
      // after the frame's own drawing (canvas painting runs in animation frames too)
      await sleep(0);
      const painted = performance.now();
      let end = painted;
      let longest = 0;
      for (;;) {
        await sleep(50);
        const after = window.__long.filter(([s]) => s >= t0 - 1);
        end = Math.max(painted, ...after.map(([s, d]) => s + d));
        longest = Math.max(0, ...after.map(([, d]) => d));
        if (performance.now() - end >= 300) break;
      }
      out[side].push(end - t0);
      out.longest = Math.max(out.longest, longest);
      const folded = r.state.collapsed.includes(node);
      if (kind !== 'collapse' && r.transform.k === k0) throw new Error('the wheel did not zoom');
      if (kind === 'collapse' && folded !== (side === 'a')) throw new Error('missed the node');
    }
  }
  return out;
}
"""

WATCH_LONG_TASKS = "() => performance.now()"


def stats(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(len(xs) * 0.95))]


def run_cell(notebook: NotebookPage, index: int) -> None:
    notebook.page.evaluate(
        "(i) => { const p = window.jupyterapp.shell.currentWidget;"
        " p.content.activeCellIndex = i;"
        " return window.jupyterapp.commands.execute('notebook:run-cell'); }",
        index,
    )


def open_view(lab: Lab, page: Any, n: int, call: str) -> NotebookPage:
    """A notebook whose first cell builds ``gf`` and whose second shows ``call``; both run."""
    name = lab.write_notebook(
        f"gestures-{n}-{abs(hash(call))}.ipynb", [synthetic.notebook_source(n), f"w = {call}\nw"]
    )
    notebook = NotebookPage(page, lab, name).open()
    run_cell(notebook, 0)
    notebook.wait_python("'gf' in globals()", True, timeout_s=900)
    notebook.wait_idle()
    return notebook


def drawn(page: Any) -> None:
    handle = page.wait_for_function(
        "() => !!document.querySelector('.cctviz [data-node-count]')",
        timeout=TIMEOUT_MS,
        polling="raf",
    )
    handle.dispose()  # a handle keeps what it points to alive (the heap rows count it)


def collapse_rows(
    lab: Lab, page: Any, n: int, events: int, profile: Path | None = None
) -> list[tuple[str, list[float], float]]:
    """Collapse and expand of the subtree of ~54 % at the fitted view and zoomed in, and of the
    node with the most children at the fitted view."""
    notebook = open_view(lab, page, n, "cctviz.CCT(gf, budget=None, fold_to_fit=False)")
    run_cell(notebook, 1)
    drawn(page)
    notebook.wait_idle()
    node, size = (int(v) for v in notebook.execute(PICK_SUBTREE).split())
    fan, children = (int(v) for v in notebook.execute(PICK_FAN).split())
    cdp = page.context.new_cdp_session(page) if profile else None
    if cdp:  # a sampling CPU profile of the gestures (open it in Chromium's DevTools)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 100})
        cdp.send("Profiler.start")
    rows = []
    cases = [
        (node, "fit", f"subtree of {size:,}"),
        (node, "zoomed", f"subtree of {size:,}"),
        (fan, "fit", f"{children:,} children"),
    ]
    for target, at, what in cases:
        args = {"kind": "collapse", "count": events, "node": target, "at": at}
        result = page.evaluate(GESTURE_JS, args)
        label = f"{n:,}, {what}, {at}"
        rows.append((f"collapse | {label}", result["a"], result["longest"]))
        rows.append((f"expand | {label}", result["b"], result["longest"]))
    if cdp and profile:
        profile.write_text(json.dumps(cdp.send("Profiler.stop")["profile"]))
        print(f"CPU profile of the collapse and expand events: {profile}")
    return rows


def zoom_rows(
    lab: Lab, page: Any, n: int, call: str, events: int
) -> list[tuple[str, list[float], float]]:
    notebook = open_view(lab, page, n, call)
    run_cell(notebook, 1)
    drawn(page)
    notebook.wait_idle()
    rows = []
    options = call.removeprefix("cctviz.CCT(gf").strip(", )") or "default"
    for where in ("middle", "fold") if options == "default" else ("middle",):
        args = {"kind": where, "count": events, "node": -1, "at": ""}
        result = page.evaluate(GESTURE_JS, args)
        label = f"wheel | {n:,} nodes, {options}, {where}"
        rows.append((label, result["a"] + result["b"], result["longest"]))
    return rows


def long_task_rows(lab: Lab, page: Any, cases: list[tuple[int, str]]) -> list[tuple[str, Any]]:
    """Per view: durations of the tasks over 50 ms from the cell's run to the first paint, and
    of those after it (3 s)."""
    rows = []
    for n, call in cases:
        notebook = open_view(lab, page, n, call)
        start = page.evaluate(WATCH_LONG_TASKS)
        run_cell(notebook, 1)
        drawn(page)
        painted = page.evaluate("() => performance.now()")
        page.wait_for_timeout(3000)
        split = page.evaluate(
            """([start, painted]) => {
              const ends = window.__long.filter(([s]) => s >= start).map(([s, d]) => [s + d, d]);
              return [ends.filter(([e]) => e <= painted).map(([, d]) => d),
                      ends.filter(([e]) => e > painted).map(([, d]) => d)];
            }""",
            [start, painted],
        )
        options = call.removeprefix("cctviz.CCT(gf").strip(", )") or "default"
        rows.append((f"{n:,} nodes, {options}", split))
        notebook.wait_idle()
    return rows


def heap_rows(lab: Lab, page: Any, n: int, runs: int, call: str) -> list[tuple[int, float, float]]:
    """After runs 1, 2, 5, 10, 20, 30 and the last, after a garbage collection: the JS heap
    in use and the ArrayBuffer backing stores (the payloads' buffers live there), MB."""
    cdp = page.context.new_cdp_session(page)
    notebook = open_view(lab, page, n, call)
    rows = []
    for i in range(1, runs + 1):
        run_cell(notebook, 1)
        drawn(page)
        notebook.wait_idle()
        page.wait_for_timeout(500)
        if i in (1, 2, 5, 10, 20, 30, runs):
            for _ in range(2):
                cdp.send("HeapProfiler.collectGarbage")
            usage = cdp.send("Runtime.getHeapUsage")
            rows.append((i, usage["usedSize"] / 2**20, usage["backingStorageSize"] / 2**20))
    return rows


def hundred_views(lab: Lab, page: Any) -> tuple[float, float, float, float]:
    """JS heap and ArrayBuffer backing stores (MB, after a garbage collection) of a notebook
    whose 100 views of the cpi profile (in 4 cells of 25) have all drawn, and of the same
    notebook before it shows them."""
    build = (
        "import cctviz\nfrom IPython.display import display\n"
        "gf = cctviz.examples.load('hpctoolkit-cpi')\n"
        "ws = [cctviz.CCT(gf, height=260) for _ in range(100)]"
    )
    shows = [f"for w in ws[{k}:{k + 25}]:\n    display(w)" for k in range(0, 100, 25)]
    name = lab.write_notebook("gestures-hundred.ipynb", [build, *shows])
    notebook = NotebookPage(page, lab, name).open()
    cdp = page.context.new_cdp_session(page)

    def usage() -> tuple[float, float]:
        for _ in range(2):
            cdp.send("HeapProfiler.collectGarbage")
        u = cdp.send("Runtime.getHeapUsage")
        return u["usedSize"] / 2**20, u["backingStorageSize"] / 2**20

    run_cell(notebook, 0)
    notebook.wait_python("len(ws)", 100, timeout_s=120)
    notebook.wait_idle()
    before = usage()
    for cell in range(1, 5):
        run_cell(notebook, cell)
        notebook.wait_idle()
    for step in range(90):  # JupyterLab renders cells out of sight later: scroll through them
        if notebook.python_json("sum(w._stage_size[0] > 0 for w in ws)") == 100:
            break
        page.evaluate(
            "(i) => window.jupyterapp.shell.currentWidget.content.scrollToItem(i)", 1 + step % 4
        )
        page.wait_for_timeout(1000)
    else:
        raise SystemExit("the 100 views did not all draw")
    page.wait_for_timeout(2000)  # their static pictures, 1 s after drawing
    return (*before, *usage())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", choices=["collapse", "zoom", "long", "heap", "hundred"], nargs="*"
    )
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--zoom-nodes", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--long-only-whole", action="store_true", help="long tasks: only the views drawn whole"
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="write a CPU profile of the collapse and expand events here (.cpuprofile; build "
        "the bundle with `node js/build.mjs --names` to read function names)",
    )
    args = parser.parse_args()
    only = set(args.only or ["collapse", "zoom", "long", "heap", "hundred"])
    started = time.perf_counter()
    with running_lab() as lab:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = launch_browser(playwright)
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.add_init_script(LONG_TASK_OBSERVER)
            timed: list[tuple[str, list[float], float]] = []
            if "collapse" in only:
                timed += collapse_rows(lab, page, 10_000, args.events, args.profile)
            if "zoom" in only:
                whole = "cctviz.CCT(gf, budget=None, fold_to_fit=False)"
                timed += zoom_rows(lab, page, 10_000, whole, args.events)
                timed += zoom_rows(lab, page, args.zoom_nodes, "cctviz.CCT(gf)", args.events)
            if timed:
                print("event → frame drawn and main thread idle (16.7 ms = 1 frame)")
                head = f"{'gesture':>52} | {'median':>8} | {'p95':>8} | {'max':>8} | {'task':>8}"
                print(head + f" (load {os.getloadavg()[0]:.2f})")
                print("-" * 92)
                for label, xs, longest in timed:
                    med, p95 = stats(xs)
                    times = f"{med:>5.1f} ms | {p95:>5.1f} ms | {max(xs):>5.1f} ms"
                    print(f"{label:>52} | {times} | {longest:>5.0f} ms")
            if "long" in only:
                whole = "cctviz.CCT(gf, budget=None, fold_to_fit=False)"
                cases = [(10_000, whole), (10_000, "cctviz.CCT(gf)")]
                cases += [(100_000, "cctviz.CCT(gf)"), (100_000, "cctviz.CCT(gf, budget=None)")]
                cases += [(100_000, whole)]
                cases += [(args.zoom_nodes, "cctviz.CCT(gf)")]
                if args.long_only_whole:
                    cases = [case for case in cases if case[1] == whole]
                print("\nmain-thread tasks over 50 ms: from the cell's run to the first paint, and")
                print("in the 3 s after it (count, longest)")
                print(f"{'view':>46} | {'before paint':>16} | {'after paint':>16}")
                print("-" * 86)
                for label, split in long_task_rows(lab, page, cases):
                    cols = [f"{len(t):>3} ({max(t, default=0):>5.0f} ms)" for t in split]
                    print(f"{label:>46} | {cols[0]:>16} | {cols[1]:>16}")
            if "heap" in only:
                print(
                    f"\nJS heap after re-running the display cell (10,000 nodes, {args.runs} runs)"
                )
                closing = "(w.close() if 'w' in globals() else None, cctviz.CCT(gf))[1]"
                plain = heap_rows(lab, page, 10_000, args.runs, "cctviz.CCT(gf)")
                closed = heap_rows(lab, page, 10_000, args.runs, closing)
                print("JS heap in use + ArrayBuffer backing stores, after a garbage collection")
                print(f"{'run':>5} | {'w = CCT(gf); w':>22} | {'w.close() first':>22}")
                for (i, a, ab), (_, b, bb) in zip(plain, closed, strict=True):
                    print(f"{i:>5} | {a:>7.1f} + {ab:>5.1f} MB | {b:>7.1f} + {bb:>5.1f} MB")
            if "hundred" in only:
                heap0, stores0, heap1, stores1 = hundred_views(lab, page)
                print("\n100 views of the cpi profile on one page (4 cells of 25), after a GC:")
                print(f"  before they show: JS heap {heap0:.1f} MB + buffers {stores0:.1f} MB")
                print(f"  all 100 drawn:    JS heap {heap1:.1f} MB + buffers {stores1:.1f} MB")
                per = (heap1 + stores1 - heap0 - stores0) / 100 * 1024
                print(f"  a view: {per:.0f} KB")
            browser.close()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\n({time.perf_counter() - started:.0f} s; load average at the end {load})")


if __name__ == "__main__":
    main()
