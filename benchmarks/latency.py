"""Two-way latency at 10k nodes in a real JupyterLab: a click reaching the Python trait, and a
``w.select(...)`` from Python being drawn.

Both sides read the same wall clock (one machine): the page stamps the click, an observer in the
kernel stamps the trait change; the kernel stamps ``select`` and the page stamps the frame on which
the selection mark is in the DOM (checked every animation frame, so up to ~16 ms late). Prints
median and p95; target ≤ 100 ms each way.

    python benchmarks/latency.py [--nodes 10000] [--repeat 30]
"""

from __future__ import annotations

import argparse
import json
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

CLICK_JS = """
(id) => {
  const el = document.querySelector('.cctviz');
  const box = el.querySelector('.cct-stage').getBoundingClientRect();
  const p = el.cctRenderer.screenPosition(id);
  const target = document.elementFromPoint(box.left + p.x, box.top + p.y);
  const t = Date.now();
  const at = { bubbles: true, clientX: box.left + p.x, clientY: box.top + p.y };
  target.dispatchEvent(new MouseEvent('click', at));
  return t;
}
"""

# starts watching and returns at once (the promise waits on window for the second call)
DRAWN_JS = """
(id) => {
  window.__cctvizDrawn = new Promise((resolve) => {
    const check = () => {
      if (document.querySelector(`.cctviz .cct-selected[data-id="${id}"]`)) resolve(Date.now());
      else requestAnimationFrame(check);
    };
    check();
  });
}
"""


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with running_lab() as lab, sync_playwright() as playwright:
        browser = launch_browser(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        name = lab.write_notebook(
            "latency.ipynb",
            [
                synthetic.notebook_source(
                    args.nodes,
                    "import time\nw = cctviz.CCT(gf, budget=None, fold_to_fit=False, height=800)\n"
                    "seen = []\n"
                    "w.observe(lambda c: seen.append(time.time() * 1000), 'selection')\nw",
                )
            ],
        )
        notebook = NotebookPage(page, lab, name).open()
        notebook.run_all()
        page.wait_for_selector(f".cctviz [data-node-count='{args.nodes}']", timeout=120_000)
        ids = [(i * 7919) % args.nodes for i in range(1, args.repeat + 1)]
        sent = []
        for i in ids:  # browser → Python
            sent.append(page.evaluate(CLICK_JS, i))
            time.sleep(0.3)
        received = notebook.python_json("seen")
        if len(received) != len(sent):
            raise RuntimeError(
                f"{len(sent)} clicks but {len(received)} selection changes in Python"
            )
        to_python = [r - s for s, r in zip(sent, received, strict=True)]
        to_view = []
        notebook.execute("w.selection = ()")
        for i in ids:  # Python → browser
            page.evaluate(DRAWN_JS, i)
            stamp = json.loads(notebook.execute(f"t = time.time() * 1000; w.select({i}); print(t)"))
            drawn = page.evaluate("() => window.__cctvizDrawn")
            to_view.append(drawn - stamp)
        browser.close()
    print(f"{args.nodes:,} nodes, {args.repeat} round trips each way")
    print(f"{'direction':>22} | {'median':>8} | {'p95':>8}")
    print("-" * 46)
    for label, xs in (("click → Python trait", to_python), ("w.select → drawn", to_view)):
        print(f"{label:>22} | {statistics.median(xs):>5.0f} ms | {pct(xs, 0.95):>5.0f} ms")


if __name__ == "__main__":
    main()
