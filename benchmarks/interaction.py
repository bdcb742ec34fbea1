"""Hover and click latency at 10k drawn nodes, in a real JupyterLab and headless Chromium.

Dispatches pointer events at nodes of a synthetic tree and times, in the page, the handler's own
work and the time from the event to the following animation frame (style and layout included):
"within one frame" when the latter stays at ~16.7 ms. Prints median and p95 per gesture/backend.
Hover never re-renders the tree; there are no transitions to wait for.

    python benchmarks/interaction.py [--nodes 10000] [--events 200]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.e2e.lab import NotebookPage, launch_browser, running_lab  # noqa: E402

sys.path.insert(0, str(REPO / "benchmarks"))
import synthetic  # noqa: E402

MEASURE_JS = """
async ({ kind, count }) => {
  const el = document.querySelector('.cctviz');
  const r = el.cctRenderer;
  const target = el.querySelector('svg.cct-svg');
  const box = el.querySelector('.cct-stage').getBoundingClientRect();
  // node marks only (full-tree ids); level-of-detail folds and aggregates have no data-id
  const ids = [...el.querySelectorAll('.cct-nodes [data-id]')].map((e) => +e.dataset.id);
  const n = ids.length || Number(el.querySelector('[data-node-count]').dataset.nodeCount);
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const times = [];
  const handler = [];
  for (let i = 0; i < count; i++) {
    const id = ids.length ? ids[(i * 7919) % ids.length] : (i * 7919) % n;
    const p = r.screenPosition(id);
    const init = { bubbles: true, clientX: box.left + p.x, clientY: box.top + p.y };
    await frame();
    const t0 = performance.now();
    target.dispatchEvent(new MouseEvent(kind === 'hover' ? 'pointermove' : 'click', init));
    handler.push(performance.now() - t0);
    await frame();
    times.push(performance.now() - t0);
  }
  const stats = (xs) => {
    xs.sort((a, b) => a - b);
    return { median: xs[Math.floor(xs.length / 2)], p95: xs[Math.floor(xs.length * 0.95)] };
  };
  return { frame: stats(times), handler: stats(handler) };
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=200)
    args = parser.parse_args()
    rows = []
    with running_lab() as lab, sync_playwright() as playwright:
        browser = launch_browser(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        for backend in ("canvas", "svg"):
            name = lab.write_notebook(
                f"interaction-{backend}.ipynb",
                [
                    synthetic.notebook_source(
                        args.nodes,
                        f"w = cctviz.CCT(gf, budget=None, fold_to_fit=False, backend={backend!r},"
                        " height=800)\nw",
                    )
                ],
            )
            notebook = NotebookPage(page, lab, name).open()
            notebook.run_all()
            page.wait_for_selector(f".cctviz [data-node-count='{args.nodes}']", timeout=120_000)
            for kind in ("hover", "click"):
                result = page.evaluate(MEASURE_JS, {"kind": kind, "count": args.events})
                rows.append((backend, kind, result["handler"], result["frame"]))
        browser.close()
    print(f"{args.nodes:,} drawn nodes, {args.events} events each")
    print("handler: the event's own work; next frame: event → the following frame (16.7 ms = 1)")
    head = f"{'backend':>8} | {'gesture':>7} | {'handler median':>14} | {'handler p95':>11}"
    print(f"{head} | {'next frame p95':>14}")
    print("-" * 68)
    for backend, kind, handler, frame in rows:
        print(
            f"{backend:>8} | {kind:>7} | {handler['median']:>11.2f} ms | {handler['p95']:>8.2f} ms"
            f" | {frame['p95']:>11.1f} ms"
        )


if __name__ == "__main__":
    main()
