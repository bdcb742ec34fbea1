"""End to end: scripting and the view share one state, in both directions, and it is saved."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

CPI = "import cctviz\ngf = cctviz.examples.load('hpctoolkit-cpi')\nw = cctviz.CCT(gf)\nw"


def view(page, index: int = 0):
    return page.locator(".cctviz").nth(index)


def test_gestures_become_pandas_and_hatchet_objects(open_notebook, page) -> None:
    notebook = open_notebook([CPI])
    main = notebook.python_json("w.select('main')[0]")
    notebook.execute("w.selection = ()")
    view(page).locator(f'.cct-node[data-id="{main}"]').click()
    notebook.wait_python("list(w.selection)", [main])
    # the rows of gf.dataframe for the clicked node, every rank
    assert notebook.python_json("len(w.selected_frame)") == 4
    assert notebook.python_json("w.selected_frame.equals(gf.dataframe.loc[w.selected_nodes])")
    query_nodes = notebook.python_json(
        "sorted(n.frame.get('name') for n in "
        "gf.filter(w.selection_query, squash=True, num_procs=1).graph.traverse())"
    )
    assert query_nodes == ["main"]


def test_python_calls_change_the_view(open_notebook, page) -> None:
    notebook = open_notebook([CPI])
    notebook.execute("w.select('PMPI_Init')")
    selected = notebook.python_json("list(w.selection)")
    page.wait_for_selector(f'.cctviz .cct-selected[data-id="{selected[0]}"]')
    notebook.execute("w.highlight(lambda row: row['time'] > 100_000)")
    count = notebook.python_json("len(w.highlighted)")
    page.wait_for_function(
        "(n) => document.querySelectorAll('.cctviz .cct-highlight').length === n", arg=count
    )
    notebook.execute("w.collapse('main')")
    page.wait_for_selector(".cctviz path.cct-collapsed")
    notebook.execute("w.expand(); w.focus('main')")
    page.wait_for_selector(".cctviz .cct-crumb")
    drawn = view(page).locator(".cct-nodes .cct-node").count()
    expected = notebook.python_json(
        "len(cctviz.view.state.visible_nodes(w.table, focused=w.focused))"
    )
    assert drawn == expected
    with pytest.raises(Exception, match="no node is named 'mian'"):
        notebook.execute("w.select('mian')")


def test_two_widgets_independent_linked_and_data_swap(open_notebook, page) -> None:
    notebook = open_notebook(
        [
            CPI,
            "v = cctviz.CCT(gf)\nv",
        ]
    )
    view(page, 0).locator('.cct-node[data-id="1"]').click()
    notebook.wait_python("[list(w.selection), list(v.selection)]", [[1], []])
    assert view(page, 1).locator(".cct-selected").count() == 0
    notebook.execute("import traitlets\nlink = traitlets.link((w, 'selection'), (v, 'selection'))")
    view(page, 1).locator('.cct-node[data-id="3"]').click()
    notebook.wait_python("list(w.selection)", [3])
    page.wait_for_selector('.cctviz >> nth=0 >> .cct-selected[data-id="3"]')
    # swap the data of one widget: it redraws, keeping what still applies; a new tree too big
    # for the cell gets its first picture folded to fit, and Python sees the folds
    notebook.execute("w.data = cctviz.examples.load('caliper-sw4-cuda')")
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz')[0]"
        ".querySelector('.cct-status').textContent.startsWith('393 nodes')"
    )
    notebook.wait_python("len(w.collapsed) > 0", True)
    drawn = view(page, 0).locator(".cct-nodes .cct-node[data-id]").count()
    assert drawn == notebook.python_json(
        "len(cctviz.view.state.visible_nodes(w.table, collapsed=w.collapsed))"
    )


def test_saved_notebook_reloads_the_same_view(lab, page) -> None:
    from .lab import NotebookPage

    name = lab.write_notebook("saved_state.ipynb", [CPI])
    notebook = NotebookPage(page, lab, name).open()
    notebook.run_all()
    notebook.execute("w.collapse('main'); w.palette = 'magma'")
    page.wait_for_selector(".cctviz path.cct-collapsed")
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_timeout(1000)
    # reopen the saved notebook: nothing is run, the widget comes from the saved state
    page.goto(lab.notebook_url(name))
    page.wait_for_selector(".cctviz path.cct-collapsed", timeout=30_000)
    assert page.locator(".cctviz select[aria-label=palette]").input_value() == "magma"
    assert page.locator(".jp-InputPrompt").first.inner_text().strip() in ("[1]:", "[ ]:")


def test_what_the_view_cannot_apply_shows_in_the_widget_and_in_python(open_notebook, page) -> None:
    notebook = open_notebook([CPI])
    view(page).locator(".cct-nodes .cct-node").first.wait_for()
    # Python refuses a bad value before sending it ...
    with pytest.raises(Exception, match="prune_range: the high bound inf is not a finite number"):
        notebook.execute("w.prune_range = (1.5, float('inf'))")
    # ... so send one past the checks, as a bug would: the widget says so, and so does Python
    notebook.execute(
        "w.comm.send({'method': 'update', 'state': {'prune_range': ['inf', 3]}, "
        "'buffer_paths': []})"
    )
    note = view(page).locator(".cct-error-note")
    note.wait_for()
    assert note.inner_text().startswith("cctviz: prune_range was not applied")
    notebook.wait_python("[e.split(':')[0] for e in w.front_end_errors]", ["trait"])
    assert view(page).locator(".cct-nodes .cct-node").count() > 0  # the view is still there
    note.locator(".cct-error-close").click()
    assert view(page).locator(".cct-error-note").count() == 0


def test_a_hundred_views_on_one_page_stay_independent(open_notebook, page) -> None:
    # 25 a cell: JupyterLab shows 50 outputs of a cell, and each view has two (its picture)
    build = (
        "import cctviz\nfrom IPython.display import display\n"
        "gf = cctviz.examples.load('hpctoolkit-cpi')\n"
        "ws = [cctviz.CCT(gf, height=260) for _ in range(100)]"
    )
    shows = [f"for w in ws[{k}:{k + 25}]:\n    display(w)" for k in range(0, 100, 25)]
    notebook = open_notebook([build, *shows])

    def cell_views(cell: int):
        """The views of code cell ``cell`` (1 to 4), scrolled into the page first: JupyterLab
        renders cells out of sight later (windowing), so the page never holds all at once."""
        page.evaluate("(i) => window.jupyterapp.shell.currentWidget.content.scrollToItem(i)", cell)
        return page.locator(".jp-Notebook .jp-Cell").nth(cell).locator(".cctviz")

    # every view draws: each reports its size to Python once drawn
    drawn = 0
    for step in range(60):
        drawn = notebook.python_json("sum(w._stage_size[0] > 0 for w in ws)")
        if drawn == 100:
            break
        cell_views(1 + step % 4).first.wait_for(state="attached")
        page.wait_for_timeout(2000)
    assert drawn == 100
    main = notebook.python_json("ws[0].select('main')[0]")
    notebook.execute("ws[0].selection = ()")
    # a click in view 57 (the 8th of cell 3) selects there only
    target = cell_views(3).nth(7)
    target.scroll_into_view_if_needed()
    target.locator(f'.cct-node[data-id="{main}"]').click()
    notebook.wait_python("[i for i, w in enumerate(ws) if w.selection]", [57])
    assert notebook.python_json("list(ws[57].selection)") == [main]
    assert page.locator(".cctviz .cct-selected").count() == target.locator(".cct-selected").count()
    # Python changes view 3 only: its legend, none of the others drawn beside it
    notebook.execute("ws[3].color_by = 'time (inc)'")
    first = cell_views(1)
    first.nth(3).scroll_into_view_if_needed()
    title = first.nth(3).locator(".cct-legend-title").first
    page.wait_for_function(
        "(el) => el.textContent.includes('time (inc)')", arg=title.element_handle()
    )
    titles = [
        first.nth(i).locator(".cct-legend-title").first.text_content() or "" for i in range(25)
    ]
    assert [i for i, t in enumerate(titles) if "(inc)" in t] == [3]
    assert notebook.python_json("[w.color_by for w in ws].count('time (inc)')") == 1
