"""End to end in JupyterLab: each direct-manipulation gesture, checked in page and kernel."""

from __future__ import annotations

import pytest

from .lab import more_controls, pick_metric

pytestmark = pytest.mark.e2e

CPI = ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw"]
SW4 = ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('caliper-sw4-cuda'), height=700)\nw"]


def view(page):
    return page.locator(".cctviz").first


def button(page, label: str):
    """A toolbar button; those of the "⋯" menu once it is open."""
    b = view(page).get_by_role("button", name=label, exact=True)
    if not b.is_visible():
        more_controls(view(page))
    return b


def test_collapse_expand_and_undo(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    main = notebook.python_json("next(i for i in range(w.table.size) if w.table.name(i) == 'main')")
    view(page).locator(f'.cct-node[data-id="{main}"]').dblclick()
    notebook.wait_python("list(w.collapsed)", [main])
    glyph = view(page).locator(f'path.cct-collapsed[data-id="{main}"]')
    glyph.wait_for()
    glyph.hover()
    hidden = notebook.python_json(f"int((w.table.depth > w.table.depth[{main}]).sum())")
    assert f"collapsed: {hidden} hidden nodes" in view(page).locator(".cct-tooltip").inner_text()
    # undo from the keyboard, redo from the toolbar
    view(page).locator(".cct-stage").focus()
    page.keyboard.press("Control+z")
    notebook.wait_python("list(w.collapsed)", [])
    button(page, "Redo (Ctrl+Shift+Z)").click()
    notebook.wait_python("list(w.collapsed)", [main])
    button(page, "Expand every collapsed subtree").click()
    notebook.wait_python("list(w.collapsed)", [])
    more_controls(view(page))
    view(page).get_by_label("depth", exact=True).fill("2")
    button(page, "Collapse every subtree below this depth").click()
    expected = notebook.python_json(
        "[i for i in range(w.table.size) if w.table.depth[i] == 2 and (w.table.parent == i).any()]"
    )
    notebook.wait_python("sorted(w.collapsed)", expected)
    # Python sets the state: the view follows at once
    notebook.execute("w.collapsed = ()")
    page.wait_for_function("() => !document.querySelector('.cctviz .cct-collapsed')")
    assert view(page).locator(".cct-nodes .cct-node").count() == 34


def test_prune_by_range(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    notebook.execute("w.prune_range = (100000.0, 1e9)")
    view(page).locator(".cct-aggregate").first.wait_for()
    notebook.execute(
        "def _kept(lo, hi):\n"
        "    v, parent, out = w.table.metrics['time'].values, w.table.parent, set()\n"
        "    for i in range(w.table.size):\n"
        "        j = i if lo <= v[i] <= hi else -1\n"
        "        while j >= 0:\n"
        "            out.add(j)\n"
        "            j = int(parent[j])\n"
        "    return sorted(out)"
    )
    kept = notebook.python_json("_kept(1e5, 1e9)")
    drawn = (
        view(page)
        .locator(".cct-nodes circle.cct-node")
        .evaluate_all("els => els.map(e => +e.dataset.id).sort((a, b) => a - b)")
    )
    assert drawn == kept
    assert "hidden" in view(page).locator(".cct-status").inner_text()
    button(page, "Clear the prune range").click()
    notebook.wait_python("w.prune_range", None)
    # the slider: keep the upper part of the range
    more_controls(view(page))
    view(page).get_by_label("lowest value kept").fill("500")
    view(page).get_by_label("lowest value kept").dispatch_event("change")
    page.wait_for_function("() => document.querySelector('.cctviz .cct-aggregate')")
    low = notebook.python_json("w.prune_range[0]")
    assert low > notebook.python_json("float(w.table.metrics['time'].values.min())")


def test_search_focus_and_breadcrumb(open_notebook, page) -> None:
    notebook = open_notebook(SW4)
    search = view(page).get_by_label("Search node names")
    search.fill("cudaMalloc")
    notebook.wait_python("w.search", "cudaMalloc")
    expected = notebook.python_json("len(w.search_matches)")
    assert expected > 0
    # counted (typing opens nothing: matches inside folded subtrees are marked on their glyphs)
    page.wait_for_function(
        "(n) => document.querySelector('.cctviz .cct-search-info').textContent"
        ".startsWith(`${n} match`)",
        arg=expected,
    )
    # an invalid regular expression is an inline message; the kernel keeps the last valid search
    button(page, "Regular expression").click()
    notebook.wait_python("w.search_regex", True)
    search.fill("cuda(")
    page.wait_for_function(
        "() => document.querySelector('.cctviz .cct-search-info').textContent"
        ".includes('invalid regular expression')"
    )
    assert notebook.python_json("w.search") == "cudaMalloc"
    # focus on a node from Python; the breadcrumb leads back to all
    target = notebook.python_json("int(w.table.parent[w.search_matches[0]])")
    notebook.execute(f"w.focused = {target}")
    crumbs = view(page).locator(".cct-crumb")
    crumbs.first.wait_for()
    assert crumbs.first.inner_text() == "All"
    shown = view(page).locator(".cct-nodes .cct-node").count()
    assert shown < notebook.python_json("w.table.size")
    crumbs.first.click()
    notebook.wait_python("w.focused", None)


def test_brush_keyboard_and_roots(open_notebook, page) -> None:
    notebook = open_notebook(
        ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('cprofile-cycle'))\nw"]
    )
    assert "2 roots" in view(page).locator(".cct-status").inner_text()
    # brush a rectangle around the whole drawing
    button(page, "Select with a rectangle (shift adds)").click()
    box = view(page).locator(".cct-stage").bounding_box()
    page.mouse.move(box["x"] + 2, box["y"] + 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 2, box["y"] + box["height"] - 2, steps=5)
    page.mouse.up()
    notebook.wait_python("len(w.selection)", notebook.python_json("w.table.size"))
    button(page, "Select with a rectangle (shift adds)").click()
    # keyboard: Escape clears, arrows move, Space selects
    view(page).locator(".cct-stage").focus()
    page.keyboard.press("Escape")
    notebook.wait_python("list(w.selection)", [])
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    notebook.wait_python("list(w.selection)", [1])
    # show one of the two roots, then all again
    more_controls(view(page))
    view(page).locator("summary", has_text="roots").click()
    view(page).locator('.cct-roots-list input[data-root="0"]').click()
    notebook.wait_python("w.visible_roots", [notebook.python_json("int(w.table.roots[1])")])
    assert "1 of 2 roots" in view(page).locator(".cct-status").inner_text()
    view(page).locator('.cct-roots-list input[data-root="all"]').click()
    notebook.wait_python("w.visible_roots", None)


def test_toolbar_metric_palette_scale_legend(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    pick_metric(view(page), "colour", "time (inc)")
    notebook.wait_python("w.color_by", "time (inc)")
    more_controls(view(page))
    view(page).get_by_label("inclusive metrics").uncheck()
    notebook.wait_python("[w.color_by, w.size_by]", ["time", "time"])
    view(page).get_by_label("palette", exact=True).select_option("cividis")
    notebook.wait_python("w.palette", "cividis")
    view(page).get_by_label("scale", exact=True).select_option("log")
    notebook.wait_python("w.color_scale", "log")
    view(page).get_by_label("legend", exact=True).select_option("per-root")
    notebook.wait_python("w.legend", "per-root")
    notebook.execute("w.palette = 'magma'")
    page.wait_for_function(
        "() => document.querySelector('.cctviz select[aria-label=palette]').value === 'magma'"
    )
