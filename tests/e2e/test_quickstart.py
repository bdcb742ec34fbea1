"""End to end in a real JupyterLab 4 and Chromium: the quickstart notebook and basic gestures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .lab import NotebookPage

pytestmark = pytest.mark.e2e

QUICKSTART = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart.ipynb"
SMALL = ["import cctviz\ngf = cctviz.examples.load('hpctoolkit-cpi')\nw = cctviz.CCT(gf)\nw"]

_SI = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "m": 1e-3, "µ": 1e-6, "n": 1e-9}


def parse_si(text: str) -> float:
    match = re.fullmatch(r"(−?[\d.]+)([kMGTmµn]?)", text.strip())
    assert match, f"not an SI number: {text!r}"
    return float(match.group(1).replace("−", "-")) * _SI[match.group(2)]


def widget(page, index: int = 0):
    return page.locator(".cctviz").nth(index)


def test_quickstart_runs_and_draws_its_profiles(lab, page) -> None:
    notebook = NotebookPage(page, lab, lab.copy_notebook(QUICKSTART)).open()
    notebook.run_all()
    # cpi fits the cell: every node is drawn
    view = widget(page, 0)
    view.scroll_into_view_if_needed()
    view.locator("circle.cct-node").first.wait_for()
    assert view.locator("circle.cct-node").count() == notebook.python_json("len(gf.graph)")
    assert notebook.python_json("w.table.size") == notebook.python_json("len(gf.graph)")
    # sw4 (393 nodes) does not: its first picture folds small subtrees, says so, and draws
    # exactly the nodes its collapse state leaves, which Python holds
    view = widget(page, 1)
    view.scroll_into_view_if_needed()
    view.locator(".cct-fit-note:not([hidden])").wait_for()
    notebook.wait_python("len(w2.collapsed) > 0", True)
    drawn = view.locator(".cct-nodes .cct-node[data-id]").count()
    assert drawn == notebook.python_json(
        "len(cctviz.view.state.visible_nodes(w2.table, collapsed=w2.collapsed))"
    )
    assert notebook.python_json("len(sw4.graph)") == 393
    # the DAG example says what it left out
    widget(page, 2).scroll_into_view_if_needed()
    assert "extra call edges not drawn" in widget(page, 2).locator(".cct-status").inner_text()


def test_the_bundle_unpacks_with_and_without_native_base64(open_notebook, page) -> None:
    """The loader decodes the packed bundle with ``Uint8Array.fromBase64`` where the browser has
    it (this Chromium: every other test) and by its own loop where it does not (Chromium before
    140, as in VS Code's Electron, Firefox before 133): the view draws either way."""
    assert page.evaluate("() => typeof Uint8Array.fromBase64") == "function"
    page.add_init_script("delete Uint8Array.fromBase64")
    notebook = open_notebook(SMALL)
    assert page.evaluate("() => typeof Uint8Array.fromBase64") == "undefined"
    view = widget(page, 0)
    view.locator("circle.cct-node").first.wait_for()
    assert view.locator("circle.cct-node").count() == notebook.python_json("len(gf.graph)")


def test_hover_shows_name_and_value(open_notebook, page) -> None:
    notebook = open_notebook(SMALL)
    node_id = notebook.python_json(
        "next(i for i in range(w.table.size) if w.table.name(i) == 'main')"
    )
    expected = notebook.python_json(f"float(w.table.metrics['time'].values[{node_id}])")
    widget(page).locator(f'circle.cct-node[data-id="{node_id}"]').hover()
    tooltip = widget(page).locator(".cct-tooltip")
    tooltip.wait_for(state="visible")
    assert tooltip.locator(".cct-tooltip-name").inner_text() == "main"
    row = tooltip.locator("tr.cct-color-metric")
    assert row.locator("th").inner_text() == "time (colour)"
    assert parse_si(row.locator(".cct-value").inner_text()) == pytest.approx(expected, rel=0.01)
    assert "mean over rank" in tooltip.inner_text()


def test_click_selects_and_the_kernel_reads_it(open_notebook, page) -> None:
    notebook = open_notebook(SMALL)
    view = widget(page)
    view.locator('circle.cct-node[data-id="1"]').click()
    page.wait_for_function("() => document.querySelector('circle.cct-selected')")
    notebook.wait_python("list(w.selection)", [1])  # the comm is asynchronous: wait for it
    view.locator('circle.cct-node[data-id="2"]').click(modifiers=["Shift"])
    page.wait_for_function("() => document.querySelectorAll('circle.cct-selected').length === 2")
    notebook.wait_python("list(w.selection)", [1, 2])
    view.locator('circle.cct-node[data-id="1"]').click(modifiers=["Shift"])
    page.wait_for_function("() => document.querySelectorAll('circle.cct-selected').length === 1")
    notebook.wait_python("list(w.selection)", [2])


def test_setting_color_by_in_a_cell_recolours(open_notebook, page) -> None:
    notebook = open_notebook(SMALL)
    view = widget(page)
    view.locator("circle.cct-node").first.wait_for()  # drawn (a busy machine draws later)
    fills = view.locator("circle.cct-node").evaluate_all(
        "els => els.map(e => e.getAttribute('fill'))"
    )
    notebook.execute("w.color_by = 'time (inc)'")
    page.wait_for_function(
        "() => document.querySelector('.cct-color-legend .cct-legend-title')"
        ".textContent.includes('time (inc)')"
    )
    after = view.locator("circle.cct-node").evaluate_all(
        "els => els.map(e => e.getAttribute('fill'))"
    )
    assert len(after) == len(fills)
    assert sum(a != b for a, b in zip(after, fills, strict=True)) > len(fills) // 2


def test_selection_set_in_python_is_drawn(open_notebook, page) -> None:
    notebook = open_notebook(SMALL)
    notebook.execute("w.selection = (3, 4)")
    page.wait_for_function("() => document.querySelectorAll('circle.cct-selected').length === 2")
    ids = (
        widget(page)
        .locator("circle.cct-selected")
        .evaluate_all("els => els.map(e => +e.dataset.id)")
    )
    assert sorted(ids) == [3, 4]


def test_view_follows_the_cell_size(open_notebook, page) -> None:
    notebook = open_notebook(SMALL)
    svg = widget(page).locator("svg.cct-svg")

    def size() -> tuple[int, int]:
        return int(svg.get_attribute("width")), int(svg.get_attribute("height"))

    width, height = size()
    page.set_viewport_size({"width": 900, "height": 1000})
    page.wait_for_function(
        "(w) => +document.querySelector('.cctviz svg.cct-svg').getAttribute('width') < w",
        arg=width,
    )
    assert size()[0] < width
    notebook.execute("w.height = 700")
    page.wait_for_function(
        "(h) => +document.querySelector('.cctviz svg.cct-svg').getAttribute('height') > h",
        arg=height,
    )
    # the tree is fitted again: every node lies inside the view
    inside = (
        widget(page)
        .locator("circle.cct-node")
        .evaluate_all(
            """(els) => {
          const box = document.querySelector('.cctviz svg.cct-svg').getBoundingClientRect();
          return els.every((e) => {
            const r = e.getBoundingClientRect();
            return r.left >= box.left - 1 && r.right <= box.right + 1
              && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
          });
        }"""
        )
    )
    assert inside
