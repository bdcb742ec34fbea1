"""End to end in JupyterLab: the view keeps its place. A double-click collapse in a fitted view
fits the smaller tree (it used to leave it a cramped cluster until Fit), and the pinned spread of
a selected node sits in a corner free of the tree, never over the node (it covered ~15 % of a
narrow view)."""

from __future__ import annotations

import pytest

from .lab import shot

pytestmark = pytest.mark.e2e

CPI = ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'), height=560)\nw"]
# the node below the root's child with the most descendants (a collapse changes the picture most)
BIGGEST = (
    "t = w.table\nbelow = [0] * t.size\n"
    "for i in range(t.size):\n"
    "    j = t.parent[i]\n"
    "    while j >= 0:\n"
    "        below[j] += 1\n"
    "        j = t.parent[j]\n"
    "big = max((i for i in range(t.size) if t.depth[i] >= 2), key=lambda i: below[i])"
)
# short: the whole tree fills the stage from top to bottom
CROWDED = [
    "import cctviz\n"
    "w = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'), height=300, fold_to_fit=False)\nw"
]
TRANSFORM = "() => document.querySelector('.cctviz').cctRenderer.transform"


def test_a_collapse_in_a_fitted_view_fits_the_smaller_tree(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    notebook.execute(BIGGEST)
    big = notebook.python_json("int(big)")
    before = page.evaluate(TRANSFORM)
    view.locator(f'.cct-node[data-id="{big}"]').dblclick()
    notebook.wait_python("list(w.collapsed)", [big])
    page.mouse.move(0, 0)
    page.wait_for_timeout(800)  # the glide ends
    after = page.evaluate(TRANSFORM)
    shot(page, "collapse-refits")
    assert abs(after["k"] - before["k"]) > 0.01 * before["k"], (before, after)
    fitted = page.evaluate(
        "() => { const r = document.querySelector('.cctviz').cctRenderer;"
        " r.fitToView(); return r.transform; }"
    )
    for axis in "xyk":
        assert after[axis] == pytest.approx(fitted[axis], rel=1e-6, abs=1e-6), (after, fitted)


def test_the_pinned_spread_keeps_off_the_tree(open_notebook, page) -> None:
    page.set_viewport_size({"width": 930, "height": 1000})
    open_notebook(CROWDED)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    width = page.evaluate("() => document.querySelector('.cctviz').cctRenderer.size.width")
    assert width < 600  # a narrow view: the legends on top, the tree from edge to edge
    ids = view.locator(".cct-nodes .cct-node").evaluate_all("els => els.map(e => +e.dataset.id)")
    # the node marks the pinned box covers where it is, and in each corner of the stage
    covered = """(selected) => {
      const box = (el) => el.getBoundingClientRect();
      const pin = box(document.querySelector('.cctviz .cct-pinned'));
      const stage = box(document.querySelector('.cctviz .cct-stage'));
      const marks = [...document.querySelectorAll('.cctviz .cct-nodes .cct-node[data-id]')];
      const count = (left, top) => marks.filter((m) => {
        const b = box(m);
        return b.left < left + pin.width && left < b.right
          && b.top < top + pin.height && top < b.bottom;
      }).length;
      const [x0, x1] = [stage.left + 8, stage.right - 8 - pin.width];
      // legends on top: the top corners are under them (pin-place.js)
      const legends = box(document.querySelector('.cctviz .cct-legends'));
      const [y0, y1] = [Math.max(stage.top, legends.bottom) + 8, stage.bottom - 8 - pin.height];
      const node = box(marks.find((m) => +m.dataset.id === selected));
      return {
        here: count(pin.left, pin.top),
        corners: [count(x0, y1), count(x1, y1), count(x0, y0), count(x1, y0)],
        selected: node.left < pin.right && pin.left < node.right
          && node.top < pin.bottom && pin.top < node.bottom,
      };
    }"""
    for i, node in enumerate(ids[:: max(1, len(ids) // 6)]):
        view.locator(f'.cct-node[data-id="{node}"]').click()
        page.mouse.move(0, 0)
        view.locator(".cct-pinned").wait_for()
        page.wait_for_timeout(100)
        seen = page.evaluate(covered, node)
        if i == 0:
            shot(page, "pinned-spread-narrow")
        assert not seen["selected"], (node, seen)
        # the fewest of any corner (a corner with the selected node in it is not a choice)
        assert seen["here"] <= min(seen["corners"]) or not seen["here"], (node, seen)
