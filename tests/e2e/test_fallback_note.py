"""End to end: the static picture's note ("no view? install anywidget") never shows beside a live
view, in JupyterLab and Notebook 7: several views at once, one in a container, one shown twice,
a cell run again; and when anywidget gives up initialising the views' models (its 2 s limit,
"[anywidget] Failed to initialize model.", which on a busy page left the note beside the view
and the view deaf to Python, issue 59), the views hide the note, draw their picture and get
Python's messages back (js/src/widget/deafness.js)."""

from __future__ import annotations

from typing import Any

import pytest

from .lab import NotebookPage

pytestmark = pytest.mark.e2e

CELLS = [
    "import cctviz, ipywidgets\ngf = cctviz.examples.load('hpctoolkit-cpi')\nw = cctviz.CCT(gf)\nw",
    "v = cctviz.CCT(gf, height=300)\nipywidgets.VBox([v])",
    "u = cctviz.CCT(gf, height=300)\ndisplay(u)\ndisplay(u)",
]
VIEWS = 4  # w, v in its box, u twice
GAVE_UP = "Failed to initialize model"

# anywidget's limit on initialising a model (AbortSignal.timeout(2000) in its runtime) cut to
# 1 ms, for anywidget only: every model is given up on at once, as on a page too busy for 2 s
GIVE_UP_AT_ONCE = """(() => {
  const timeout = AbortSignal.timeout.bind(AbortSignal);
  AbortSignal.timeout = (ms) =>
    timeout(ms === 2000 && /anywidget/.test(new Error().stack ?? '') ? 1 : ms);
})();"""

# each output row beside a view: its text, and whether it shows
ROWS = """() => [...document.querySelectorAll('.jp-OutputArea-child')].map((row) => ({
  view: row.querySelector('.cctviz') !== null,
  nodes: row.querySelectorAll('.cctviz circle.cct-node').length,
  text: row.innerText.trim().slice(0, 200),
  shown: getComputedStyle(row).display !== 'none' && row.getBoundingClientRect().height > 0,
}))"""


def _console(page: Any) -> list[str]:
    lines: list[str] = []
    page.on("console", lambda message: lines.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: lines.append(f"pageerror: {error}"))
    return lines


def _views_drawn(page: Any) -> list[dict[str, Any]]:
    page.wait_for_function(
        f"""() => {{
          const views = [...document.querySelectorAll('.cctviz')];
          return views.length === {VIEWS}
            && views.every((v) => v.querySelector('circle.cct-node'));
        }}""",
        timeout=30_000,
    )
    rows: list[dict[str, Any]] = page.evaluate(ROWS)
    return rows


def _no_note_shown(rows: list[dict[str, Any]]) -> None:
    """No row that shows holds the static picture's note (or its label): only views show."""
    assert sum(1 for row in rows if row["view"] and row["nodes"]) == VIEWS, rows
    shown = [row["text"] for row in rows if row["shown"] and not row["view"]]
    notes = [t for t in shown if t.startswith("cctviz: ") or "cannot run Jupyter widgets" in t]
    assert notes == [], rows


def test_no_note_beside_live_views_in_notebook7(open_notebook, page) -> None:
    """(JupyterLab: the next test, whose views all lose their first messages.)"""
    console = _console(page)
    notebook = open_notebook(CELLS, notebook7=True)
    _no_note_shown(_views_drawn(page))
    # the first cell run again: its new view, no note
    page.evaluate(
        "() => { const app = window.jupyterapp; app.shell.currentWidget.content.activeCellIndex"
        " = 0; return app.commands.execute('notebook:run-cell'); }"
    )
    notebook.wait_idle()
    _no_note_shown(_views_drawn(page))
    assert not [line for line in console if GAVE_UP in line], console


def test_views_whose_models_anywidget_gave_up_on_recover(lab, page, request) -> None:
    page.add_init_script(GIVE_UP_AT_ONCE)
    console = _console(page)
    name = lab.write_notebook(f"{request.node.name}.ipynb", CELLS)
    notebook = NotebookPage(page, lab, name).open()
    notebook.run_all()
    rows = _views_drawn(page)
    assert any(GAVE_UP in line for line in console), console  # the fault did happen
    _no_note_shown(rows)
    # no view says it is deaf: each took its messages back, and the first one's picture came
    page.wait_for_function(
        "() => document.querySelector('.cctviz')?.dataset.cctSnapshot", timeout=20_000
    )
    assert page.locator(".cctviz .cct-error-note").count() == 0
    # once a model: w, v and u (shown twice)
    assert sum("its messages are taken back" in line for line in console) == 3, console
    # what Python changes reaches the views again: a collapse, and the trait that says a
    # picture follows (which the stylesheet and the pictures go by)
    notebook.execute("w.collapse(w.table.roots[0] + 2)")
    page.locator(".cctviz").first.locator(".cct-collapsed").wait_for(timeout=10_000)
    assert notebook.python_json("[w._static_follows, u._static_follows]") == [True, True]
    _no_note_shown(page.evaluate(ROWS))
    # the picture Python keeps is the view's PNG, not the note
    notebook.wait_python("w._static.png is not None", True, timeout_s=20)
