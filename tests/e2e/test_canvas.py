"""End to end: a 10,000-node tree draws on the canvas backend and answers hover and click."""

from __future__ import annotations

from pathlib import Path

import pytest

from .lab import page_position

pytestmark = pytest.mark.e2e

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
LARGE = [
    f"import sys; sys.path.insert(0, {str(BENCHMARKS)!r})\n"
    "import cctviz, synthetic\ngf = synthetic.graphframe(10_000)\n"
    "w = cctviz.CCT(gf, budget=None, fold_to_fit=False)\nw"
]


def test_large_tree_draws_on_canvas_and_answers_gestures(open_notebook, page) -> None:
    notebook = open_notebook(LARGE)
    page.wait_for_selector(".cctviz canvas.cct-canvas[data-node-count='10000']")
    assert page.locator(".cctviz circle.cct-node").count() == 0  # no SVG element per node
    assert notebook.python_json("w.table.size") == 10_000
    # zoom in on the root so that nodes are big enough to point at
    page.evaluate("() => document.querySelector('.cctviz').cctRenderer.fitToView()")
    root = page_position(page, 0)
    page.mouse.move(root["x"], root["y"])
    tooltip = page.locator(".cctviz .cct-tooltip")
    tooltip.wait_for(state="visible")
    assert tooltip.locator(".cct-tooltip-name").inner_text() == notebook.python_json(
        "w.table.name(0)"
    )
    page.mouse.click(root["x"], root["y"])
    page.wait_for_selector(".cctviz circle.cct-selected[data-id='0']")
    notebook.wait_python("list(w.selection)", [0])  # the comm is asynchronous


def test_backend_trait_switches_the_drawing(open_notebook, page) -> None:
    notebook = open_notebook(
        ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw"]
    )
    assert page.locator(".cctviz circle.cct-node").count() == 34
    notebook.execute("w.backend = 'canvas'")
    page.wait_for_selector(".cctviz canvas.cct-canvas[data-node-count='34']")
    assert page.locator(".cctviz circle.cct-node").count() == 0
