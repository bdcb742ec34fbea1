"""End to end in JupyterLab (issue 32, point 1): the trend pane of an Ensemble's view. Below the
tree it shows the root's series and its children's; selecting a node in the tree shows that
node's; a click on a child's chart selects the child in the tree and in Python (and the pane
drills down to it), the breadcrumb goes back up, and the pane's menu sets ``w.trend_by``."""

from __future__ import annotations

from pathlib import Path

import pytest

from .lab import ENSEMBLE_CELL, page_position, shot

pytestmark = pytest.mark.e2e

STORE = ENSEMBLE_CELL


def _pane_shows(page, node: int) -> None:
    """Wait until the pane's first chart is node ``node``'s."""
    page.wait_for_function(
        "id => document.querySelector('.cctviz .cct-trend-node')?.dataset.id === String(id)",
        arg=node,
    )


def _tree_selection(page) -> list[int]:
    return list(page.evaluate("() => document.querySelector('.cctviz').cctRenderer.selection"))


def test_selecting_a_node_shows_its_trend_and_a_chart_click_drills_down(
    open_notebook, page
) -> None:
    notebook = open_notebook(STORE)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    pane = view.locator(".cct-trend")
    pane.wait_for()
    root = notebook.python_json("int(w.table.roots[0])")
    _pane_shows(page, root)
    # below the tree, which keeps its width
    box, stage = pane.bounding_box(), view.locator(".cct-stage").bounding_box()
    assert box["y"] >= stage["y"] + stage["height"] - 1 and stage["width"] > 500
    assert view.locator(".cct-trend select").input_value() == "launchdate"
    shown = notebook.python_json("[s['id'] for s in w._trend['series']]")
    charts = view.locator(".cct-trend-chart")
    assert charts.evaluate_all("cs => cs.map((c) => Number(c.dataset.id))") == shown
    assert view.locator(".cct-trend-node .cct-trend-line").count() == 1
    shot(page, "trend-root")

    # a click in the tree: the pane shows that node, its path and its children
    node = notebook.python_json(
        "int(max((i for i in range(w.table.size) if w.table.parent[i] == w.table.roots[0]), "
        "key=lambda i: sum(w.table.parent == i)))"
    )
    at = page_position(page, node)
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python("list(w.selection)", [node])
    _pane_shows(page, node)
    crumbs = view.locator(".cct-trend-path button")
    assert crumbs.count() == 1 and crumbs.first.inner_text() == notebook.python_json(
        "w.table.name(int(w.table.roots[0]))"
    )
    shot(page, "trend-node")

    # a click on a child's chart selects it in the tree and in Python, and the pane drills down
    child = int(view.locator(".cct-trend-chart[role='button']").first.get_attribute("data-id"))
    assert notebook.python_json(f"int(w.table.parent[{child}])") == node
    view.locator(f".cct-trend-chart[data-id='{child}']").click()
    notebook.wait_python("list(w.selection)", [child])
    assert _tree_selection(page) == [child]
    page.wait_for_selector(f".cctviz .cct-node.cct-selected[data-id='{child}']")
    _pane_shows(page, child)
    assert view.locator(".cct-trend-path button").count() == 2

    # the breadcrumb goes back up: the root selected, in the tree and in Python
    view.locator(".cct-trend-path button").first.click()
    notebook.wait_python("list(w.selection)", [root])
    _pane_shows(page, root)
    assert _tree_selection(page) == [root]

    # the pane's menu sets the axis: a category draws points with their spread
    view.locator(".cct-trend select").select_option("compiler")
    notebook.wait_python("w.trend_by", "compiler")
    view.locator(".cct-trend-node .cct-trend-point").first.wait_for()
    assert view.locator(".cct-trend-node .cct-trend-point").count() == 3
    assert view.locator(".cct-trend-node .cct-trend-spread").count() == 3
    shot(page, "trend-compiler")
    # the toolbar's SVG download draws the pane below the tree, as w.save does
    more = view.get_by_role("button", name="More controls")
    if more.is_visible():  # a narrow toolbar (the strip beside the tree) keeps it in its menu
        more.click()
    with page.expect_download(timeout=15_000) as download:
        view.get_by_role("button", name="Save the view as an SVG file").click()
    svg = Path(download.value.path()).read_text(encoding="utf-8")
    assert "cct-node" in svg and "by compiler" in svg
    drawn = notebook.python_json("[s['id'] for s in w._trend['series']]")
    assert svg.count('class="cct-trend-figure-chart"') == len(drawn)
    # and from Python: a number axis, with log axes
    notebook.execute("w.trend_by = 'jobsize'; w.trend_log = True")
    page.wait_for_function(
        "() => !document.querySelector('.cctviz .cct-trend-log').hidden"
        " && document.querySelector('.cctviz .cct-trend-log input').checked"
    )
    shot(page, "trend-jobsize-log")


@pytest.mark.parametrize("viewport", [760, 1100])  # cells of about 390 and 670 pixels
def test_the_pane_stays_readable_in_a_narrow_cell(open_notebook, page, viewport) -> None:
    page.set_viewport_size({"width": viewport, "height": 1100})
    notebook = open_notebook(STORE)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    _pane_shows(page, notebook.python_json("int(w.table.roots[0])"))
    width = view.bounding_box()["width"]
    stage = view.locator(".cct-stage").bounding_box()
    pane = view.locator(".cct-trend").bounding_box()
    assert stage["width"] > 0.9 * width  # the tree keeps the cell's width
    assert pane["y"] >= stage["y"] + stage["height"] - 1 and pane["width"] <= width + 1
    # the charts fit the cell, several to a row
    boxes = view.locator(".cct-trend-chart").evaluate_all(
        "cs => cs.map((c) => c.getBoundingClientRect()).map((r) => [r.left, r.right, r.top])"
    )
    assert all(right <= pane["x"] + pane["width"] + 1 for _, right, _ in boxes)
    assert len({top for _, _, top in boxes}) < len(boxes)
    shot(page, f"trend-narrow-{viewport}")
