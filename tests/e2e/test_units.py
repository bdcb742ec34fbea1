"""End to end in JupyterLab: units read from an HPCToolkit database (experiment.xml's
``CPUTIME (usec)``) printed in the tooltip and the legends with one SI prefix each; a derived
metric (w.derive) chosen in the colour picker sets ``w.color_by`` and titles the legend. (The kernel
imports the cctviz on its path: PYTHONPATH=. runs this checkout's.)"""

from __future__ import annotations

import re

import pytest

from .lab import page_position, pick_metric, shot

pytestmark = pytest.mark.e2e

CPI = [
    "import cctviz\n"
    "db = cctviz.examples.path('hpctoolkit-cpi')\n"
    "w = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'), source=str(db))\nw"
]
VALUE = re.compile(r"^\u2212?[\d.]+(e\u2212?\d+)? [µm]?s$")  # "347 ms", "1 s", "62.5 µs"


def test_tooltip_and_legends_print_values_with_their_unit(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    assert notebook.python_json("w.units") == {"time": "µs", "time (inc)": "µs"}
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    ticks = view.locator(".cct-legend-tick").evaluate_all("els => els.map((e) => e.textContent)")
    assert [t for t in ticks if t] and all(VALUE.match(t) for t in ticks if t), ticks
    main = notebook.python_json("next(i for i in range(w.table.size) if w.table.name(i) == 'main')")
    at = page_position(page, main)
    page.mouse.move(at["x"], at["y"])
    spread = view.locator(".cct-tooltip .cct-tooltip-spread")
    spread.wait_for()
    values = view.locator(".cct-tooltip .cct-value").all_inner_texts()
    assert values and all(VALUE.match(v) for v in values), values
    # min · mean · max · std over the ranks: one prefix for the four
    line = spread.inner_text()
    prefixes = set(re.findall(r"(?:min|mean|max|std) [\u2212\d.e]+ ([µm]?s)\b", line))
    assert len(prefixes) == 1, line
    shot(page, "units-tooltip")
    assert notebook.python_json("list(w.front_end_errors)") == []


TAU = [
    "import cctviz\n"
    "w = cctviz.CCT(cctviz.examples.load('tau-cpi'))\n"
    "w.derive('time per call', '`time (inc)` / `Calls`')\nw"
]


def test_a_derived_metric_is_chosen_in_the_colour_menu(open_notebook, page) -> None:
    """Issue 58.3 in the page: w.derive's metric is in the colour picker; choosing it there
    sets w.color_by in the kernel and the colour legend names it."""
    notebook = open_notebook(TAU)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    assert notebook.python_json("w.color_by") != "time per call"
    pick_metric(view, "colour", "time per call")
    notebook.wait_python("w.color_by", "time per call")
    title = view.locator(".cct-color-legend .cct-legend-title").first
    page.wait_for_function(
        "() => [...document.querySelectorAll('.cctviz .cct-color-legend .cct-legend-title')]"
        ".some(t => t.textContent.includes('time per call'))"
    )
    assert "colour: time per call" in (title.text_content() or "")
    # its ends are the derived values' range, printed without powers of ten
    ticks = view.locator(".cct-color-legend .cct-legend-tick").evaluate_all(
        "els => els.map((e) => e.textContent)"
    )
    assert [t for t in ticks if t] and not any("e" in t for t in ticks if t), ticks
    shot(page, "derived-colour")
    assert notebook.python_json("list(w.front_end_errors)") == []
