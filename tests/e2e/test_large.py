"""End to end on a 100,000-node tree: level of detail, expanding a fold, nodes not sent at first."""

from __future__ import annotations

from pathlib import Path

import pytest

from .lab import page_position

pytestmark = pytest.mark.e2e

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
CELLS = [
    f"import sys; sys.path.insert(0, {str(BENCHMARKS)!r})\n"
    "import cctviz, synthetic\ngf = synthetic.graphframe(100_000)",
    "w = cctviz.CCT(gf, fold_to_fit=False)\nw",
]


def zoom_onto(page, target: int | dict[str, int]) -> dict:
    """Bring a node (full-tree id) or a fold (``{"fold": parent id}``) to the middle, then
    wheel-zoom on it as a user would until nodes are at their full size; return where it is."""
    page.evaluate("(t) => document.querySelector('.cctviz').cctRenderer.centerOn(t)", target)
    for _ in range(20):
        zoom = page.evaluate("() => document.querySelector('.cctviz').cctRenderer.transform.k")
        if zoom >= 1:
            break
        at = page_position(page, target)
        page.mouse.move(at["x"], at["y"])
        page.mouse.wheel(0, -400)
        page.wait_for_timeout(60)
    # the last wheel step may still be gliding (a loaded machine draws frames late): read the
    # place once the view has stood still for a few frames, not where it is passing through
    page.wait_for_function(
        """() => new Promise((done) => {
          const k = () => JSON.stringify(document.querySelector('.cctviz').cctRenderer.transform);
          const first = k();
          let frames = 0;
          const step = () => (++frames < 4 ? requestAnimationFrame(step) : done(k() === first));
          requestAnimationFrame(step);
        })""",
        polling=100,
    )
    return page_position(page, target)


def test_hundred_thousand_nodes_draw_expand_and_select(open_notebook, page) -> None:
    notebook = open_notebook(CELLS)
    sent = notebook.python_json("w._payload['size']")
    budget = notebook.python_json("cctviz.view.lod.DEFAULT_BUDGET")
    size, loaded = notebook.python_json("[w.table.size, len(w.loaded)]")
    assert size == 100_000 and budget <= loaded < budget + 200
    page.wait_for_selector(f".cctviz [data-node-count='{sent}']", timeout=60_000)
    status = page.locator(".cctviz .cct-status")
    assert f"100,000 nodes · {loaded:,} loaded" in status.inner_text()
    # the first picture, in a real front end, read only its drawn nodes' names (core/text_column.py)
    assert notebook.python_json("w.table.name_text.factorised") is False

    # the fold that holds the most nodes: zoom onto it and click it
    owner, hidden = notebook.python_json(
        "(lambda d: (lambda r: [int(d.node_id[d.table.parent[r]]), int(d.folded[r])])"
        "(int(d.folded.argmax())))(w._lod.drawn())"
    )
    at = zoom_onto(page, {"fold": owner})
    page.mouse.move(at["x"], at["y"])
    tooltip = page.locator(".cctviz .cct-tooltip")
    tooltip.wait_for(state="visible")
    assert f"{hidden:,} nodes not loaded" in tooltip.inner_text()
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python(f"len(w.loaded) >= {loaded + 200}", True, timeout_s=20)
    loaded = notebook.python_json("len(w.loaded)")
    page.wait_for_function(
        "(n) => document.querySelector('.cctviz .cct-status').textContent"
        ".includes(`${n.toLocaleString('en-US')} loaded`)",
        arg=loaded,
    )
    # the largest child loaded by the click was not sent at first: click it, read it in Python
    child = notebook.python_json(
        f"(lambda kids: int(kids[w.table.metrics['time (inc)'].values[kids].argmax()]))"
        f"(__import__('numpy').flatnonzero(w.table.parent == {owner})"
        f"[w._lod.revealed[__import__('numpy').flatnonzero(w.table.parent == {owner})]])"
    )
    assert notebook.python_json(f"bool(w._lod.revealed[{child}])")
    at = zoom_onto(page, child)
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python("list(w.selection)", [child])
    assert notebook.python_json("w.selected_nodes[0] is w.table.nodes[w.selection[0]]")

    # Python selects a node deep in a fold: it is loaded, drawn selected, and read back
    deep = notebook.python_json("int(__import__('numpy').flatnonzero(~w._lod.revealed)[-1])")
    notebook.execute(f"w.select([{deep}])")
    page.wait_for_function(
        "(id) => document.querySelector('.cctviz').cctRenderer.selection.includes(id)"
        " && !!document.querySelector(`.cctviz .cct-selected[data-id='${id}']`)",
        arg=deep,
        timeout=20_000,
    )
    assert notebook.python_json("list(w.selection)") == [deep]
    assert notebook.python_json(
        f"w.selected_frame.index.get_level_values(0)[0] is w.table.nodes[{deep}]"
    )


def test_a_10000_deep_call_path_draws_and_selects_its_deepest_node(open_notebook, page) -> None:
    """Every walk of the tree is iterative: a path 10,000 levels deep draws, with no error."""
    notebook = open_notebook(
        [
            f"import sys; sys.path.insert(0, {str(BENCHMARKS)!r})\n"
            "import cctviz, deep\ngf = deep.chain(10_000)\nw = cctviz.CCT(gf)\nw"
        ]
    )
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    assert view.locator(".cct-error").count() == 0
    # the first picture folds the path to fit; expanded, all 10,000 levels are drawn
    assert "15 shown, 9,985 hidden" in view.locator(".cct-status").inner_text()
    notebook.execute("w.expand(); w.select([9999])")
    page.wait_for_function(
        """() => {
          const v = document.querySelector('.cctviz');
          const canvas = v.querySelector('[data-node-count]');
          const drawn = canvas
            ? Number(canvas.dataset.nodeCount)
            : v.querySelectorAll('.cct-node').length;
          return drawn === 10000 && v.cctRenderer.selection.includes(9999);
        }""",
        timeout=60_000,
    )
    assert view.locator(".cct-error, .cct-error-note").count() == 0
    assert notebook.python_json("w.front_end_errors") == []
    assert notebook.python_json("list(w.selection)") == [9999]
