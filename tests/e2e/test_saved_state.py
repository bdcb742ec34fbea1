"""End to end: a notebook saved with its widget state (the test lab's ``saveState``) holds the
front-end bundle once, in the kernel's one FrontEnd model that every view names, and reopened
with no kernel behind those models its views draw from that state alone."""

from __future__ import annotations

from typing import Any

import pytest

from .lab import NotebookPage
from .test_static_picture import WIDGET_STATE, save

pytestmark = pytest.mark.e2e

CELLS = [
    "import cctviz\ngf = cctviz.examples.load('hpctoolkit-cpi')\nw = cctviz.CCT(gf)\nw",
    "w2 = cctviz.CCT(gf, color_by='time (inc)')\nw2",
    "w3 = cctviz.CCT(gf, size_by='time')\nw3",
]


def _drawn_views(page: Any, count: int) -> None:
    page.wait_for_function(
        """([selector, count]) => {
          const views = [...document.querySelectorAll('.cctviz')];
          return views.length === count && views.every((v) => v.querySelector(selector));
        }""",
        arg=["circle.cct-node", count],
        timeout=60_000,
    )


def test_saved_views_share_one_bundle_and_draw_from_saved_state(open_notebook, page) -> None:
    notebook = open_notebook(CELLS)
    _drawn_views(page, 3)
    models = save(notebook)["metadata"]["widgets"][WIDGET_STATE]["state"]
    views = {k: m for k, m in models.items() if "color_by" in m["state"]}
    assert len(views) == 3
    carriers = [k for k, m in models.items() if m["state"].get("_bundle")]
    assert len(carriers) == 1, "the bundle is stored once, not once per view"
    [front_end] = carriers
    assert {m["state"]["_front_end"] for m in views.values()} == {f"IPY_MODEL_{front_end}"}
    saved = (notebook.lab.root / notebook.name).stat().st_size
    bundle_size = len(models[front_end]["state"]["_bundle"])
    assert saved < 2 * bundle_size + 3 * 150_000  # three views once carried three bundles

    # reopened in a new page, the old kernel gone: JupyterLab restores the models from the
    # notebook's widget state (a new kernel knows none of them) and the views draw from it
    page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
    fresh = page.context.new_page()
    errors: list[str] = []
    fresh.on("pageerror", lambda error: errors.append(str(error)))
    reopened = NotebookPage(fresh, notebook.lab, notebook.name).open()
    assert reopened.python_json("'w' in globals()") is False  # nothing ran in this kernel
    _drawn_views(fresh, 3)
    counts = fresh.locator(".cctviz").evaluate_all(
        "(views) => views.map((v) => v.querySelectorAll('circle.cct-node').length)"
    )
    assert min(counts) > 5, counts
    assert not errors, errors
