"""Scrolling the table pane in headless Chromium: the pane (js/src/cct/pane/table-pane.js,
bundled by esbuild) holds N function rows from a stand-in for Python and is scrolled in steps
of a few rows
and in jumps; each step's time is from setting ``scrollTop`` to the next painted frame. Target
(issue 13): 100,000 rows scroll smoothly, every step within a frame (≤ 16.7 ms) at the median.

    python benchmarks/table_scroll.py                  # 1k, 10k and 100k rows
    python benchmarks/table_scroll.py --rows 1000000
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from cctviz.figure.browser import ARGS  # the flags Debian's Chromium needs headless

ROOT = Path(__file__).resolve().parent.parent

PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>{css}</style></head>
<body><div class="cctviz" style="width:520px;height:600px;display:flex"></div>
<script>{bundle}</script></body></html>"""

SCROLL = """async ([rows, steps]) => {
  const parent = document.querySelector('.cctviz');
  const names = Array.from({ length: rows }, (_, i) => `function_${i}`);
  const reply = { columns: ['time', 'time (inc)'], label: names,
    values: [names.map((_, i) => i), names.map((_, i) => 2 * i)],
    count: names.map(() => 1), node: names.map(() => -1), more: names.map(() => false) };
  const pane = TablePane.createTablePane(parent, { fetchRows: async () => reply, pick() {},
    focus() {}, sandwich() {}, setMode() {}, search() {} });
  const shown = performance.now();
  await pane.show('functions', '');
  const load = performance.now() - shown;
  const body = parent.querySelector('.cct-pane-body');
  const long = [];
  const observer = new PerformanceObserver(
    (list) => long.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: 'longtask' });
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const time = async (top) => {
    const start = performance.now();
    body.scrollTop = top;
    await frame();
    await frame();
    return performance.now() - start;
  };
  const small = [], jumps = [];
  for (let i = 0; i < steps; i++) small.push(await time(i * 66));
  for (let i = 0; i < steps; i++) jumps.push(await time(Math.floor(Math.random() * rows) * 22));
  await frame();
  observer.disconnect();
  return { load, small, jumps, drawn: pane.drawn, long };
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--steps", type=int, default=120)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        bundle = Path(tmp) / "pane.js"
        subprocess.run(
            [
                "npx",
                "esbuild",
                str(ROOT / "js/src/cct/pane/table-pane.js"),
                "--bundle",
                "--format=iife",
                "--global-name=TablePane",
                f"--outfile={bundle}",
            ],
            check=True,
            cwd=ROOT,
            capture_output=True,
        )
        page_file = Path(tmp) / "pane.html"
        css = (ROOT / "js/src/widget.css").read_text()
        page_file.write_text(PAGE.format(css=css, bundle=bundle.read_text()))
        chromium = os.environ.get("CCTVIZ_CHROMIUM", "/usr/bin/chromium")
        print(
            f"{'rows':>10} | {'load':>8} | {'step median':>11} | {'step p95':>8} | "
            f"{'jump median':>11} | {'jump p95':>8} | {'in page':>7} | "
            f"{'tasks > 50 ms':>13} | load avg"
        )
        print("-" * 108)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            for rows in args.rows:
                page = browser.new_page(viewport={"width": 560, "height": 640})
                page.goto(page_file.as_uri())
                r = page.evaluate(SCROLL, [rows, args.steps])
                page.close()

                def q(xs: list[float], at: float) -> float:
                    return sorted(xs)[min(len(xs) - 1, int(at * len(xs)))]

                tasks = f"{len(r['long'])} (max {max(r['long'], default=0):.0f} ms)"
                cells = [
                    f"{rows:>10,}",
                    f"{r['load']:>5.0f} ms",
                    f"{statistics.median(r['small']):>8.1f} ms",
                    f"{q(r['small'], 0.95):>5.1f} ms",
                    f"{statistics.median(r['jumps']):>8.1f} ms",
                    f"{q(r['jumps'], 0.95):>5.1f} ms",
                    f"{r['drawn']:>7}",
                    f"{tasks:>13}",
                    f"{os.getloadavg()[0]:.2f}",
                ]
                print(" | ".join(cells))
            browser.close()
    print("A step is two animation frames (scroll, then the pane's repaint): ~33 ms at 60 Hz")
    print("is the floor; the rows in the page stay the same few dozen at any size. Tasks over")
    print("50 ms are counted while scrolling (the first load is not a scroll).")


if __name__ == "__main__":
    main()
