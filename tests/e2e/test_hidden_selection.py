"""End to end (issue 29, point 4): a node selected from Python inside a collapsed subtree or a
prune aggregate marks the glyph that hides it, on both backends, and the status line says so;
under level of detail too, where Python first sends the node it selects."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
CPI = "import cctviz\ngf = cctviz.examples.load('hpctoolkit-cpi')\nw = cctviz.CCT(gf)\nw"
# a node three levels down and its grandparent, by the table's parents
DEEP = (
    "deep = next(i for i in range(w.table.size) if w.table.depth[i] == 3)\n"
    "holder = int(w.table.parent[w.table.parent[deep]])"
)


def status(page) -> str:
    return page.locator(".cctviz .cct-status").inner_text()


@pytest.mark.parametrize("backend", ["svg", "canvas"])
def test_a_selection_inside_a_collapsed_subtree_marks_its_glyph(open_notebook, page, backend):
    notebook = open_notebook([CPI, DEEP])
    notebook.execute(f"w.backend = {backend!r}; w.collapsed = (holder,); w.selection = (deep,)")
    holder, name = notebook.python_json("[holder, w.table.name(holder)]")
    kind = "path.cct-node" if backend == "svg" else "circle.cct-ring"
    mark = page.locator(f".cctviz {kind}.cct-holds-selected[data-id='{holder}']")
    mark.wait_for()
    assert mark.get_attribute("data-holds-selected") == "1"
    assert mark.get_attribute("aria-description") == "holds 1 selected node"
    assert page.locator(".cctviz .cct-selected").count() == 0  # the node itself is not drawn
    page.wait_for_function(
        "(text) => document.querySelector('.cctviz .cct-status').textContent.includes(text)",
        arg=f"1 selected, hidden in {name} (collapsed)",
    )
    ARTIFACTS.mkdir(exist_ok=True)
    page.evaluate(f"() => document.querySelector('.cctviz').cctRenderer.centerOn({holder})")
    page.wait_for_timeout(400)
    page.locator(".cctviz").screenshot(path=str(ARTIFACTS / f"hidden-selection-{backend}.png"))
    # expanding shows the node selected, and the note goes
    notebook.execute("w.collapsed = ()")
    deep = notebook.python_json("deep")
    page.wait_for_selector(f".cctviz .cct-selected[data-id='{deep}']")
    assert page.locator(".cctviz .cct-holds-selected").count() == 0
    assert "selected" not in status(page)


def test_a_selection_in_a_prune_aggregate_marks_it(open_notebook, page) -> None:
    notebook = open_notebook([CPI])
    # keep only the nodes of the largest exclusive time: most fold into aggregates
    notebook.execute(
        "import numpy as np\n"
        "top = float(np.nanmax(w.table.metrics['time'].values))\n"
        "w.prune_range = (top, top)\n"
        "kept, i = set(), int(np.nanargmax(w.table.metrics['time'].values))\n"
        "while i >= 0: kept.add(i); i = int(w.table.parent[i])\n"
        "hidden = [i for i in range(w.table.size) if i not in kept]\n"
        "w.selection = (hidden[-1],)"
    )
    page.wait_for_selector(".cctviz path.cct-aggregate.cct-holds-selected")
    page.wait_for_function(
        "() => /1 selected, hidden in the \\d+ hidden (under|roots)/"
        ".test(document.querySelector('.cctviz .cct-status').textContent)"
    )


def test_under_level_of_detail_python_sends_the_node_and_the_glyph_is_marked(
    open_notebook, page
) -> None:
    notebook = open_notebook(
        [
            f"import sys; sys.path.insert(0, {str(BENCHMARKS)!r})\n"
            "import cctviz, synthetic\ngf = synthetic.graphframe(5000)\n"
            "w = cctviz.CCT(gf, budget=300, fold_to_fit=False)\nw"
        ]
    )
    page.wait_for_selector(".cctviz .cct-status")
    # a deep node not sent yet, under a root child that is: collapse that, then select it
    notebook.execute(
        "import numpy as np\nloaded = set(w.loaded.tolist())\n"
        "deep = max((i for i in range(w.table.size) if i not in loaded), "
        "key=lambda i: w.table.depth[i])\n"
        "path = [deep]\n"
        "while w.table.parent[path[-1]] >= 0: path.append(int(w.table.parent[path[-1]]))\n"
        "holder = path[-2]\n"
        "w.collapsed = (holder,)\nw.selection = (deep,)"
    )
    holder, deep, name = notebook.python_json("[holder, deep, w.table.name(holder)]")
    assert notebook.python_json("deep in set(w.loaded.tolist())")  # Python sent it
    page.wait_for_selector(f".cctviz .cct-holds-selected[data-id='{holder}']")
    page.wait_for_function(
        "(text) => document.querySelector('.cctviz .cct-status').textContent.includes(text)",
        arg=f"1 selected, hidden in {name} (collapsed)",
    )
    assert page.evaluate("() => document.querySelector('.cctviz').cctRenderer.selection") == [deep]
