"""End to end in JupyterLab: the reducer menu and the spread of a node's ranks in its tooltip,
checked in the page and in the kernel."""

from __future__ import annotations

import pytest

from .lab import close_more_controls, more_controls, page_position

pytestmark = pytest.mark.e2e

CPI = ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw"]


def test_reducer_menu_and_rank_spread(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    view = page.locator(".cctviz").first
    menu = view.locator('select[aria-label="over ranks"]')
    more_controls(view)  # the reducer menu is among the toolbar's less used controls
    menu.wait_for()
    assert menu.input_value() == "mean"
    close_more_controls(view)
    # hover main: its tooltip gains the spread over the 4 ranks and a strip of 4 bars
    main = notebook.python_json("next(i for i in range(w.table.size) if w.table.name(i) == 'main')")
    at = page_position(page, main)
    page.mouse.move(at["x"], at["y"])
    spread = view.locator(".cct-tooltip .cct-tooltip-spread")
    spread.wait_for()
    assert "over 4 ranks" in spread.inner_text()
    assert view.locator(".cct-tooltip .cct-strip-bar").count() == 4
    at_max = notebook.python_json(f"f'rank {{w.distribution({main}).idxmax()[1]}}'")
    assert f"({at_max})" in spread.inner_text()
    # the menu changes the reducer in Python, which sends the table again
    more_controls(view)
    menu.select_option("imbalance")
    notebook.wait_python("w.reducer", "imbalance")
    close_more_controls(view)
    status = "document.querySelector('.cctviz .cct-status').textContent"
    page.wait_for_function(f"() => {status}.includes('imbalance over rank')")
    # colour: the imbalance of the inclusive time; size: its mean over the ranks (issue 28.4),
    # in the kernel and in the menus, with no error on the way
    notebook.wait_python("w.size_by", "time (inc) (mean)")
    assert notebook.python_json("w.color_by") == "time (inc)"
    page.wait_for_function(
        "() => document.querySelector('.cctviz [data-picker=\"size\"]').dataset.value"
        " === 'time (inc) (mean)'"
    )
    options = view.locator('[role=listbox][aria-label="size"] [role=option]').evaluate_all(
        "os => os.map(o => o.dataset.value)"
    )
    assert {"time (mean)", "time (inc)"} <= set(options)
    assert notebook.python_json("list(w.front_end_errors)") == []
    # the tooltip now says so, and shows no sums of a ratio
    page.mouse.move(at["x"] + 200, at["y"] + 200)
    at = page_position(page, main)
    page.mouse.move(at["x"], at["y"])
    view.locator(".cct-tooltip .cct-tooltip-spread").wait_for()
    tip = view.locator(".cct-tooltip").inner_text()
    assert "values: imbalance over rank" in tip and "Σ" not in tip
    assert notebook.python_json(f"float(w.node_frame.loc[{main}, 'time (inc)'])") >= 1.0


def test_no_reducer_menu_for_one_row_per_node(open_notebook, page) -> None:
    open_notebook(["import cctviz\nw = cctviz.CCT(cctviz.examples.load('caliper-sw4-cuda'))\nw"])
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    more_controls(view)  # where the reducer menu would be
    assert view.locator('select[aria-label="over ranks"]').count() == 1
    assert not view.locator('select[aria-label="over ranks"]').is_visible()
    assert view.get_by_role("group", name="Ranks").is_hidden()
