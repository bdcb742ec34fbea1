"""End to end in JupyterLab: the toolbar is one compact row at the cell widths of a usual
JupyterLab (668 and 920 px), every control is reached with Tab and worked from the keyboard
(the kernel sees what was chosen), and a narrow JupyterLab (480 px window, file browser open)
leaves the tree the width of the view (issue 33, points 1 and 7)."""

from __future__ import annotations

from typing import Any

import pytest

from .lab import shot

pytestmark = pytest.mark.e2e

SW4 = ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('caliper-sw4-cuda'))\nw"]
FIRST = "colour: sum#scale#cupti.activity.duration (exc)"  # the picker's name: its full choice
LONG = "inclusive#scale#sum#cupti.host.duration"

# the toolbar's controls the keyboard can reach (enabled, shown), each as a short description
CONTROLS_JS = """(scope) => [...document.querySelector('.cctviz').querySelectorAll(scope)]
  .filter((e) => e.matches('button, input, select, summary') && !e.disabled
    && e.getClientRects().length && !e.closest('.cct-pop')
    && (e.matches('summary') || !e.closest('details:not([open])')))
  .map((e) => e.getAttribute('aria-label') || e.textContent)"""
FOCUSED_JS = """() => {
  const e = document.activeElement;
  return e.closest('.cct-toolbar') ? (e.getAttribute('aria-label') || e.textContent) : null;
}"""
# the row's boxes, relative to the widget
ROW_JS = """() => {
  const el = document.querySelector('.cctviz');
  const box = el.getBoundingClientRect();
  const bar = el.querySelector('.cct-toolbar').getBoundingClientRect();
  const items = [...el.querySelectorAll('.cct-toolbar-row button, .cct-toolbar-row input')]
    .filter((e) => e.getClientRects().length)
    .map((e) => { const r = e.getBoundingClientRect();
      return { name: e.getAttribute('aria-label'), top: r.top - bar.top, bottom: r.bottom - bar.top,
               left: r.left - box.left, right: r.right - box.left }; });
  return { width: box.width, height: bar.height, items };
}"""


def _view(page: Any) -> Any:
    return page.locator(".cctviz").first


def _cell_width(page: Any, width: int) -> None:
    """Resizes the window until the widget is ``width`` pixels wide."""
    for _ in range(3):
        now = _view(page).evaluate("(e) => e.getBoundingClientRect().width")
        if round(now) == width:
            return
        size = page.viewport_size
        page.set_viewport_size({"width": size["width"] + width - round(now), "height": 1000})
        page.wait_for_timeout(400)
    assert round(_view(page).evaluate("(e) => e.getBoundingClientRect().width")) == width


def _tab_until_out(page: Any, limit: int = 60) -> list[str]:
    """Presses Tab until the focus leaves the toolbar; what it reached, in order."""
    reached = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        name = page.evaluate(FOCUSED_JS)
        if name is None:
            return reached
        reached.append(name)
    raise AssertionError(f"the focus never left the toolbar: {reached}")


@pytest.mark.parametrize("width", [668, 920])
def test_one_row_at_most_40_px_at_usual_cell_widths(open_notebook, page, width: int) -> None:
    open_notebook(SW4)
    _view(page).locator(".cct-nodes .cct-node").first.wait_for()
    _cell_width(page, width)
    row = page.evaluate(ROW_JS)
    assert row["height"] <= 40, row["height"]
    # one row: every control of it side by side, none cut at the widget's right end
    tops = {round(i["top"]) for i in row["items"]}
    assert max(tops) - min(tops) <= 2, row["items"]
    assert all(i["bottom"] <= row["height"] for i in row["items"])
    assert all(i["right"] <= row["width"] for i in row["items"]), row["items"]
    names = [i["name"] for i in row["items"]]
    for name in (FIRST, "Search node names", "More controls"):
        assert name in names
    # the metric picker shows the full name in its tooltip and in its list
    picker = _view(page).locator('[data-picker="colour"]')
    assert picker.get_attribute("title") == FIRST
    picker.click()
    option = _view(page).locator('[role=listbox][aria-label="colour"] [role=option]').nth(1)
    assert option.inner_text() == LONG
    assert option.evaluate("(e) => e.scrollWidth <= e.clientWidth")  # not cut
    shot(page, f"toolbar-{width}-picker")
    page.keyboard.press("Escape")


def test_every_control_is_reached_by_tab_and_worked_by_keyboard(open_notebook, page) -> None:
    notebook = open_notebook(SW4)
    view = _view(page)
    view.locator(".cct-nodes .cct-node").first.wait_for()
    _cell_width(page, 668)
    # a collapse enables undo (a disabled button takes no focus)
    folded = notebook.python_json("sorted(w.collapsed)")  # small subtrees folded to fit
    main = notebook.python_json("next(i for i in range(w.table.size) if w.table.name(i) == 'main')")
    view.locator(f'.cct-node[data-id="{main}"]').dblclick()
    notebook.wait_python("sorted(w.collapsed)", sorted([*folded, main]))
    # Tab from the colour picker through the row, into the open menu, and out
    picker = view.locator('[data-picker="colour"]')
    picker.focus()
    in_row = [page.evaluate(FOCUSED_JS), *_tab_until_out(page)]
    assert in_row == page.evaluate(CONTROLS_JS, ".cct-toolbar-row *")
    more = view.get_by_role("button", name="More controls")
    more.focus()
    page.keyboard.press("Enter")
    assert more.get_attribute("aria-expanded") == "true"
    shown = page.evaluate(CONTROLS_JS, ".cct-menu *")
    in_menu = _tab_until_out(page)
    assert len(shown) >= 20 and in_menu == shown  # every one of them, in order
    assert more.get_attribute("aria-expanded") == "false"  # Tab past its end closed it

    # the colour metric: open with Enter, narrow the list by typing, choose with Enter
    picker.focus()
    page.keyboard.press("Enter")
    page.keyboard.type("host")
    page.keyboard.press("Enter")
    notebook.wait_python("w.color_by", LONG)
    assert page.evaluate("() => document.activeElement.dataset.picker") == "colour"
    assert picker.get_attribute("title") == f"colour: {LONG}"
    # the size metric: ↓ opens the list at the choice (the last), ↑ moves, Enter chooses;
    # Escape leaves it as it was
    size = notebook.python_json("w.size_by")
    view.locator('[data-picker="size"]').focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    assert notebook.python_json("w.size_by") == size
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    notebook.wait_python("w.size_by", LONG)
    # undo with Enter: the size choice is undone
    view.get_by_role("button", name="Undo (Ctrl+Z)").focus()
    page.keyboard.press("Enter")
    notebook.wait_python("w.size_by", size)
    # search: typed in its box
    view.get_by_label("Search node names").focus()
    page.keyboard.type("cudaLaunch")
    notebook.wait_python("w.search", "cudaLaunch")

    # the menu: Space opens it; a select changes with the arrow keys; Escape closes it, the
    # focus back on "⋯"
    more.focus()
    page.keyboard.press("Space")
    view.get_by_label("palette", exact=True).focus()
    page.keyboard.press("ArrowDown")
    notebook.wait_python("w.palette != 'auto'", True)
    page.keyboard.press("Escape")
    assert more.get_attribute("aria-expanded") == "false"
    assert page.evaluate(FOCUSED_JS) == "More controls"
    # a button of the menu: Space acts, the menu closes, the focus is back on "⋯"
    page.keyboard.press("Enter")
    view.get_by_label("depth", exact=True).focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("1")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED_JS) == "Collapse every subtree below this depth"
    page.keyboard.press("Space")
    expected = notebook.python_json(
        "[i for i in range(w.table.size) if w.table.depth[i] == 1 and (w.table.parent == i).any()]"
    )
    notebook.wait_python("sorted(w.collapsed)", expected)
    assert more.get_attribute("aria-expanded") == "false"
    assert page.evaluate(FOCUSED_JS) == "More controls"
    # the keys stayed in the view: JupyterLab did not take them (no cell added, none deleted)
    assert page.locator(".jp-Notebook .jp-Cell").count() == 1


def test_a_narrow_jupyterlab_leaves_the_tree_the_width(open_notebook, page) -> None:
    page.set_viewport_size({"width": 480, "height": 1000})
    notebook = open_notebook(SW4)
    page.evaluate("() => window.jupyterapp.commands.execute('filebrowser:activate')")
    view = _view(page)
    view.scroll_into_view_if_needed()
    view.locator(".cct-nodes .cct-node").first.wait_for()
    page.wait_for_timeout(800)
    sizes = view.evaluate(
        """(el) => {
          const box = el.getBoundingClientRect();
          const stage = el.querySelector('.cct-stage').getBoundingClientRect();
          const marks = [...el.querySelectorAll('.cct-nodes .cct-node')]
            .map((e) => e.getBoundingClientRect());
          const row = el.querySelector('.cct-toolbar-row');
          const controls = [...row.querySelectorAll('button, input')]
            .filter((e) => e.getClientRects().length)
            .map((e) => e.getBoundingClientRect().right - box.left);
          return { width: box.width, stage: stage.width, height: box.height,
                   stageHeight: stage.height, right: Math.max(...controls),
                   tree: Math.max(...marks.map((r) => r.right))
                     - Math.min(...marks.map((r) => r.left)) };
        }"""
    )
    assert sizes["width"] < 300  # the file browser takes most of the window
    assert sizes["stage"] >= 0.6 * sizes["width"]
    assert sizes["tree"] >= 0.6 * sizes["width"], sizes
    assert sizes["stageHeight"] >= 0.7 * sizes["height"], sizes
    assert sizes["right"] <= sizes["width"] + 0.5, sizes  # the toolbar folds, nothing cut
    # the toolbar folded: the pickers went into the menu, and still work
    assert view.locator(".cct-toolbar").evaluate("(e) => e.classList.contains('cct-narrow')")
    assert view.locator('.cct-menu [data-picker="colour"]').count() == 1
    view.get_by_role("button", name="More controls").click()
    view.locator('[data-picker="colour"]').click()
    view.locator('[role=listbox][aria-label="colour"] [role=option]').nth(1).click()
    notebook.wait_python("w.color_by", LONG)
    shot(page, "toolbar-narrow")
