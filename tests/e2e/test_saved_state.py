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


RUN_CELL = """(i) => { const panel = window.jupyterapp.shell.currentWidget;
  panel.content.activeCellIndex = i;
  return window.jupyterapp.commands.execute('notebook:run-cell'); }"""


def test_the_front_end_model_unpacks_the_bundle_before_any_view(lab, page) -> None:
    """The kernel's FrontEnd model carries the views' loader: made on its own (as it is, just
    before a kernel's first view), it unpacks and imports the bundle with no view yet, so that
    the first view finds it under way; the view then draws with that one import."""
    cells = [
        "from cctviz.widget.bundle import shared_front_end\nfe = shared_front_end()",
        "import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw",
    ]
    notebook = NotebookPage(page, lab, lab.write_notebook("front-end-first.ipynb", cells)).open()
    page.evaluate(RUN_CELL, 0)
    notebook.wait_python("'fe' in globals()", True)
    key = notebook.python_json("fe._bundle_key")
    assert key.startswith("cctviz-")
    page.wait_for_function(
        """async (key) => {
          const loading = globalThis.__cctvizBundles?.get(key);
          return !!loading && typeof (await loading).render === 'function';
        }""",
        arg=key,
        timeout=60_000,
    )
    assert page.locator(".cctviz").count() == 0  # no view was made
    page.evaluate(RUN_CELL, 1)
    _drawn_views(page, 1)
    assert page.evaluate("() => [...globalThis.__cctvizBundles.keys()]") == [key]
