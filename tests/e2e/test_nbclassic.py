"""End to end in the classic Notebook (nbclassic 1.x, served beside JupyterLab and Notebook 7):
the view draws, its static picture's output is hidden, a click selects in Python, the tree's keys
stay out of the notebook's command mode ("d d" deletes no cell, "a" inserts none), Escape clears
the selection, a selection made in Python shows in the view, and the downloads work. The
ensemble view in nbclassic: ``test_ensemble_hosts.py``."""

from __future__ import annotations

import pytest

from .classic import ClassicNotebook
from .lab import downloads_svg_and_png, page_position

pytestmark = pytest.mark.e2e

CELLS = [
    "import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw",
    "answer = 42",
]
NOTE = "The interactive view is drawn by cctviz's JavaScript"


def test_the_classic_notebook_draws_shares_state_and_keeps_its_keys_out(lab, page) -> None:
    notebook = ClassicNotebook(page, lab, lab.write_notebook("classic.ipynb", CELLS)).open()
    notebook.run_all()
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    # the static picture's output is there, hidden where the view runs
    note = page.locator(".output_area", has_text=NOTE)
    note.wait_for(state="attached")
    assert not note.is_visible()
    cells = page.locator(".cell").count()
    main = notebook.python_json("next(i for i in range(w.table.size) if w.table.name(i) == 'main')")
    at = page_position(page, main)
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python("list(w.selection)", [main])
    # command mode's "d d" (delete the cell) and "a" (insert one above) do nothing here
    for key in ("d", "d", "a", "ArrowDown", "Enter"):
        page.keyboard.press(key)
    page.wait_for_timeout(400)
    assert page.locator(".cell").count() == cells
    assert notebook.python_json("answer") == 42
    # Enter collapsed the node under the tree's cursor, in Python too
    notebook.wait_python("len(w.collapsed)", 1)
    page.keyboard.press("Escape")
    notebook.wait_python("list(w.selection)", [])
    # Python → view
    notebook.execute("w.expand(); w.select('PMPI_Finalize')")
    selected = view.locator(".cct-nodes .cct-node.cct-selected")
    selected.first.wait_for()
    assert selected.count() == 1
    assert (selected.first.get_attribute("aria-label") or "").startswith("PMPI_Finalize")
    downloads_svg_and_png(page, view)
