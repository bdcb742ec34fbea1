"""End to end in JupyterLab (issue 32, points 2 and 3): an Ensemble's changes in the widget. On a
synthetic nightly series with one injected change, the view asks the kernel for the changes
once the tree is drawn: the injected node gets a solid ring (its own change), its ancestors
dashed ones, the legend keys them; the table pane's Changes tab lists the injected change
first; a click on it selects the node in the kernel, and "compare runs" opens the difference
view of the runs around it in place of the tree, which is ``w.explained`` in the kernel."""

from __future__ import annotations

import pytest

from .lab import shot

pytestmark = pytest.mark.e2e

INJECTED = 28  # the synthetic tree's node (pre-order of the store) whose own time rises by 50 %
STORE = [
    "import tempfile\nfrom pathlib import Path\nimport cctviz\n"
    "from cctviz.ensemble.synthetic import Change\n"
    "ens = cctviz.examples.ensemble(Path(tempfile.mkdtemp()) / 'nightly', 60, 40, seed=3,\n"
    f"    changes=[Change({INJECTED}, 30, 1.5)], job_sizes=(64,), problem_sizes=(30,),\n"
    "    compilers=('gcc-12',))\n"
    "w = cctviz.CCT(ens, color_by='time (inc)')\nw"
]
# the injected node's id in the widget's tree, from what the kernel found
NODE = (
    f"int(w.changes.set_index('key').loc[int(ens.nodes.index[{INJECTED}]), 'node'])"
    " if w.table.change_metric else None"
)


MIXED = [
    "import tempfile\nfrom pathlib import Path\nimport cctviz\n"
    "from cctviz.ensemble.synthetic import Change\n"
    "version = ['12.3'] * 60 + ['13.1'] * 60\n"
    "ens = cctviz.examples.ensemble(Path(tempfile.mkdtemp()) / 'mixed', 120, 40, seed=5,\n"
    f"    changes=[Change({INJECTED}, 60, 1.5)], job_sizes=(64,), problem_sizes=(30,),\n"
    "    compilers=('gcc-12', 'clang-16'), levels={'clang-16': 1.3},\n"
    "    metadata={'compiler_version': version})\n"
    "w = cctviz.CCT(ens, table_mode='changes')\nw"
]


def test_runs_of_two_compilers_changes_within_each_said_beside_the_rings(
    open_notebook, page
) -> None:
    """Runs that alternate between two compilers (one 30 % slower), a change with a compiler
    upgrade: the ring key says the changes were looked for within 2 configurations, the Changes
    tab lists the change in each compiler with the upgrade that came with it; the kernel agrees."""
    notebook = open_notebook(MIXED)
    view = page.locator(".cctviz").first
    view.locator(".cct-change-ring").first.wait_for()
    within = view.locator(".cct-legends .cct-change-key .cct-change-within")
    assert within.text_content().startswith("within 2 configurations")
    assert notebook.python_json("w._payload['changes']['within']") == (
        "within 2 configurations: compiler"
    )
    first = view.locator(".cct-change-row").first
    first.wait_for()
    note = view.locator(".cct-changes .cct-pane-note").inner_text()
    assert "Note: these runs are 2 configurations (compiler)" in note
    rows = view.locator(".cct-change-row")
    configs = {rows.nth(i).locator(".cct-change-facts").inner_text() for i in range(rows.count())}
    kernel = notebook.python_json(
        "sorted({c['compiler'] for c, k in zip(w.changes['config'], w.changes['key'])"
        f" if k == int(ens.nodes.index[{INJECTED}])}})"
    )
    assert kernel == ["clang-16", "gcc-12"]
    for compiler in kernel:
        assert any(f"in compiler {compiler}" in text for text in configs), configs
    assert any("with compiler_version: 12.3 → 13.1" in text for text in configs), configs
    shot(page, "changes-within-configurations")


@pytest.mark.parametrize("notebook7", [False, True], ids=["lab", "notebook7"])
def test_a_change_is_ringed_listed_first_and_compared(open_notebook, page, notebook7) -> None:
    notebook = open_notebook(STORE, notebook7=notebook7)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    # the view asked for the changes after drawing: the kernel found them and sent the rings
    view.locator(".cct-change-ring").first.wait_for()
    node = notebook.python_json(NODE)
    assert isinstance(node, int) and node >= 0
    own = view.locator(".cct-change-ring.cct-change-own")
    assert own.count() == 1 and own.get_attribute("data-change") == str(node)
    ancestors = notebook.python_json(
        "sorted(int(i) for i in range(w.table.size) if w.table.change_cause[i] == 2)"
    )
    dashed = sorted(
        int(r.get_attribute("data-change")) for r in view.locator(".cct-change-below").all()
    )
    assert dashed == ancestors and 0 in dashed  # the path down to it, from the root
    assert "ring: own change" in view.locator(".cct-legends .cct-change-key").text_content()
    shot(page, f"{'nb7-' if notebook7 else ''}changes-rings")

    # the table pane's Changes tab lists the injected change first
    notebook.execute("w.table_mode = 'contexts'")
    tab = view.get_by_role("tab", name="Changes")
    tab.click()
    notebook.wait_python("w.table_mode", "changes")
    first = view.locator(".cct-change-row").first
    first.wait_for()
    assert first.get_attribute("data-node") == str(node)
    name = notebook.python_json(f"w.table.name({node})")
    assert first.locator(".cct-pane-name").inner_text() == name
    assert first.locator(".cct-change-pct").inner_text().startswith("+")
    assert "own change" in first.inner_text()
    shot(page, f"{'nb7-' if notebook7 else ''}changes-tab")

    # a click on it selects its node in the kernel
    first.click()
    notebook.wait_python("list(w.selection)", [node])

    # "compare runs": the difference view of the runs around it, in place of the tree
    first.get_by_role("button", name="Compare the runs around").click()
    panel = view.locator(".cct-compare-panel")
    panel.locator(".cctviz .cct-nodes .cct-node").first.wait_for()
    assert view.locator(".cct-body").first.is_hidden()
    notebook.wait_python("type(w.explained).__name__", "Compare")
    assert panel.get_attribute("data-model") == notebook.python_json("w.explained.model_id")
    labels = notebook.python_json("list(w.explained.labels)")
    assert labels == [  # the medians of five nightly runs each side
        "launchdate 2025-01-26 … 2025-01-30 (median of 5)",
        "launchdate 2025-01-31 … 2025-02-04 (median of 5)",
    ]
    # the changed node (by call path) selected, and focused (a leaf: under its caller), shown
    # coloured by the difference
    path = notebook.python_json(f"list(w.changes.set_index('node').loc[{node}, 'path'])")
    explained_path = notebook.python_json(
        "(lambda t, i: (lambda walk: walk(walk, i))("
        "lambda walk, j: [] if j < 0 else [*walk(walk, int(t.parent[j])), t.name(j)]))"
        "(w.explained.table, w.explained.selection[0])"
    )
    assert explained_path == path
    focused = notebook.python_json("w.explained.table.name(w.explained.focused)")
    assert focused in path[-2:]
    compared = panel.locator(".cctviz").first
    assert compared.locator(".cct-breadcrumb").inner_text().strip().endswith(focused)
    assert "Δ time (inc)" in compared.locator(".cct-legends").text_content()
    shot(page, f"{'nb7-' if notebook7 else ''}changes-compare")

    # back to the ensemble: the tree again
    panel.get_by_role("button", name="← back to the ensemble").click()
    panel.wait_for(state="detached")
    assert view.locator(".cct-change-ring.cct-change-own").count() == 1
    shot(page, f"{'nb7-' if notebook7 else ''}changes-back")


def test_the_rings_arriving_keep_the_zoom_the_user_set(lab, page, request) -> None:
    from .lab import NotebookPage

    # the kernel sleeps after showing the view: the view's request for the changes waits, and
    # the user zooms meanwhile
    cells = [STORE[0] + "\nimport time\ndisplay(w)\ntime.sleep(6)"]
    name = lab.write_notebook(f"{request.node.name}.ipynb", cells)
    notebook = NotebookPage(page, lab, name).open()
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    assert view.locator(".cct-change-ring").count() == 0
    fitted = page.evaluate("() => document.querySelector('.cctviz').cctRenderer.transform.k")
    box = view.locator(".cct-stage").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.6)
    page.mouse.wheel(0, -400)
    page.wait_for_timeout(400)  # the zoom ends
    zoomed = page.evaluate("() => document.querySelector('.cctviz').cctRenderer.transform")
    assert zoomed["k"] > fitted * 1.2
    assert view.locator(".cct-change-ring").count() == 0  # the kernel still sleeps
    view.locator(".cct-change-ring").first.wait_for(timeout=30_000)
    notebook.wait_idle()
    after = page.evaluate("() => document.querySelector('.cctviz').cctRenderer.transform")
    assert after == pytest.approx(zoomed)
