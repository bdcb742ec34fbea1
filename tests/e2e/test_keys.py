"""End to end in JupyterLab: keys typed in the tree are the tree's. JupyterLab's own shortcuts
(Lumino, command mode) used to take them: "d d" deleted the cell holding the widget, the arrows
moved the active cell."""

from __future__ import annotations

import pytest

from .lab import PICTURE_ROW, downloads_svg_and_png, page_position

pytestmark = pytest.mark.e2e

CELLS = [
    "import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw",
    "answer = 42",
]


def _cells(page) -> int:
    return page.locator(".jp-Notebook .jp-Cell").count()


def _active(page) -> int:
    return page.evaluate(
        "() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')]"
        ".findIndex(c => c.classList.contains('jp-mod-active'))"
    )


def test_notebook_shortcuts_do_not_fire_in_the_tree(open_notebook, page) -> None:
    notebook = open_notebook(CELLS)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    # the static picture's output is there, hidden with its row where the view runs
    row = page.locator(PICTURE_ROW)
    row.wait_for(state="attached")
    assert row.evaluate("(el) => getComputedStyle(el).display") == "none"
    cells = _cells(page)
    main = notebook.python_json("next(i for i in range(w.table.size) if w.table.name(i) == 'main')")
    at = page_position(page, main)
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python("list(w.selection)", [main])
    active = _active(page)  # the click made the widget's cell the active one
    # "d d" is JupyterLab's delete-cell in command mode: here it deletes nothing
    page.keyboard.press("d")
    page.keyboard.press("d")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(400)
    assert _cells(page) == cells and _active(page) == active
    assert notebook.python_json("answer if 'answer' in dir() else 'no cell 2 run'") == 42
    # the arrows moved the tree's cursor instead
    cursor = view.locator(".cct-cursor")
    assert cursor.count() == 1 and cursor.get_attribute("data-id") != str(main)
    # Escape clears the selection, then leaves the tree
    page.keyboard.press("Escape")
    notebook.wait_python("list(w.selection)", [])
    page.keyboard.press("Escape")
    inside = page.evaluate("() => !!document.activeElement.closest('.cctviz')")
    assert not inside


def test_notebook_7_draws_shares_state_and_keeps_its_keys_out(open_notebook, page) -> None:
    """Notebook 7 (its Lumino shortcuts run in the capture phase): the view draws, a click
    selects in Python, and the tree's keys do not reach the notebook."""
    notebook = open_notebook(CELLS, notebook7=True)
    assert "/notebooks/" in page.url
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    # the static picture's output is there, hidden with its row where the view runs
    row = page.locator(PICTURE_ROW)
    row.wait_for(state="attached")
    assert row.evaluate("(el) => getComputedStyle(el).display") == "none"
    cells = _cells(page)
    main = notebook.python_json("next(i for i in range(w.table.size) if w.table.name(i) == 'main')")
    at = page_position(page, main)
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python("list(w.selection)", [main])
    active = _active(page)
    for key in ("d", "d", "ArrowDown", "Enter", "z"):
        page.keyboard.press(key)
    page.wait_for_timeout(400)
    assert _cells(page) == cells and _active(page) == active
    # Enter collapsed the node under the tree's cursor (in Python too), not edited a cell
    notebook.wait_python("len(w.collapsed)", 1)
    downloads_svg_and_png(page, view)
    # Python → view
    notebook.execute("w.expand(); w.select('PMPI_Finalize')")
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz .cct-node.cct-selected').length === 1"
    )
