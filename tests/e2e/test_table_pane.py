"""End to end in JupyterLab: the table pane beside the tree (functions, calling contexts, callers
and the caller/callee sandwich), its selection shared with the tree and the kernel both ways."""

from __future__ import annotations

import pytest

from .lab import close_more_controls, more_controls, page_position, shot

pytestmark = pytest.mark.e2e

CPI = ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw"]


def _rows(view) -> list[str]:
    return view.locator(".cct-pane-body .cct-pane-row .cct-pane-label").all_inner_texts()


def test_functions_table_selects_every_context(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    more_controls(view)
    view.locator('select[aria-label="table"]').select_option("functions")
    notebook.wait_python("w.table_mode", "functions")
    close_more_controls(view)
    view.locator(".cct-pane-body .cct-pane-row").first.wait_for()
    # the pane sits beside the tree, and lists functions by exclusive time as pandas does
    pane = view.locator(".cct-pane").bounding_box()
    stage = view.locator(".cct-stage").bounding_box()
    assert pane["x"] >= stage["x"] + stage["width"] - 1
    flat = notebook.python_json("w.flat_profile()[['name', 'contexts']].values.tolist()")
    # (functions with time of their own: the rest tie at 0 and are ordered by name)
    ranked = notebook.python_json("w.flat_profile().query('time > 0').name.tolist()")
    names = [name.strip() for name in _rows(view)]
    assert len(ranked) >= 2 and names[: len(ranked)] == ranked
    shot(page, "pane-functions")
    # a function called from several contexts: clicking its row selects all of them in Python
    name, contexts = next((n, c) for n, c in flat if c > 1)
    view.locator(".cct-pane-row", has_text=name).first.click()
    ids = f"w.flat_profile().set_index('name').loc[{name!r}, 'ids']"
    expected = notebook.python_json(f"sorted({ids})")
    notebook.wait_python("sorted(w.selection)", expected)
    assert len(expected) == contexts
    # the tree marks them
    page.wait_for_function(
        "n => document.querySelectorAll('.cctviz .cct-node.cct-selected').length >= n",
        arg=min(contexts, 2),
    )
    # Python → table: selecting another function's node marks that function's row
    other = flat[1][0] if flat[1][0] != name else flat[2][0]
    notebook.execute(f"w.select({other!r})")
    row = view.locator(".cct-pane-row.cct-row-selected")
    page.wait_for_function(
        "t => [...document.querySelectorAll('.cctviz .cct-row-selected')]"
        ".some(r => r.textContent.includes(t))",
        arg=other,
    )
    assert row.count() >= 1
    # sorting by the name column (in the browser's collation), then by contexts
    view.locator(".cct-pane-columns button", has_text="name").click()
    names = [n.strip() for n in _rows(view)]
    assert names != [n.strip() for n in _rows(view)][::-1]
    assert page.evaluate("ns => ns.every((n, i) => !i || ns[i - 1].localeCompare(n) <= 0)", names)
    view.locator(".cct-pane-columns button", has_text="contexts").click()
    counts = view.locator(".cct-pane-body .cct-pane-row .cct-pane-num:last-child").all_inner_texts()
    assert [int(c) for c in counts] == sorted((int(c) for c in counts), reverse=True)
    assert int(counts[0]) == max(c for _, c in flat)


def test_contexts_table_and_tree_share_selection_and_focus(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    notebook.execute("w.table_mode = 'contexts'")
    view.locator(".cct-pane-body .cct-pane-row").first.wait_for()
    # a deep node selected from Python: the contexts table opens its path and marks its row
    deep = notebook.python_json("int(w.table.depth.argmax())")
    name = notebook.python_json(f"w.table.name({deep})")
    notebook.execute(f"w.select({deep})")
    selected = view.locator(".cct-pane-row.cct-row-selected")
    selected.wait_for()
    assert selected.inner_text().startswith(name)
    level = int(selected.get_attribute("aria-level"))
    assert level == notebook.python_json(f"int(w.table.depth[{deep}])") + 1
    shot(page, "pane-contexts")
    # a click on another row selects that context; a double click focuses it
    view.locator(".cct-pane-body").evaluate("body => body.scrollTo(0, 0)")
    view.locator('.cct-pane-row[data-index="0"]').click()
    root = notebook.python_json("int(w.table.roots[0])")
    notebook.wait_python("list(w.selection)", [root])
    second = view.locator('.cct-pane-row[data-index="1"]')
    second_name = second.locator(".cct-pane-label").inner_text().strip()
    second.dblclick()
    notebook.wait_python("w.table.name(w.focused) if w.focused is not None else None", second_name)
    # the focus scopes the table: its top row is the focused node
    page.wait_for_function(
        "t => document.querySelector('.cctviz .cct-pane-body .cct-pane-row .cct-pane-label')"
        "?.textContent.trim() === t",
        arg=second_name,
    )
    # a tree click selects the row back
    notebook.execute("w.focused = None")
    at = page_position(page, deep)
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python("list(w.selection)", [deep])
    view.locator(".cct-pane-row.cct-row-selected").wait_for()


def test_callers_and_sandwich(open_notebook, page) -> None:
    notebook = open_notebook(CPI)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    notebook.execute("w.table_mode = 'callers'")
    first = view.locator(".cct-pane-body .cct-pane-row").first
    first.wait_for()
    top = first.locator(".cct-pane-label").inner_text().strip()
    # open the first function: its callers, merged by name, as pandas has them
    first.locator(".cct-pane-toggle").click()
    callers = notebook.python_json(
        f"sorted(p[1] for p in w.callers({top!r}, depth=1).path if len(p) == 2)"
    )
    # and its lines (HPCToolkit's statements: parts of it, in italics), as Python has them
    lines = notebook.python_json(
        f"sorted({{w.table.name(j) for j in range(w.table.size) if w.table.parent[j] in "
        f"w.flat_profile().set_index('name').loc[{top!r}, 'ids'] and "
        f"w.table.types[w.table.type_code[j]] == 'S'}})"
    )
    page.wait_for_function(
        "n => document.querySelectorAll('.cctviz .cct-pane-row[aria-level=\"2\"]').length === n",
        arg=len(callers) + len(lines),
    )
    caller_rows = '.cct-pane-row[aria-level="2"]:not(.cct-pane-part) .cct-pane-label'
    shown = view.locator(caller_rows).all_inner_texts()
    assert sorted(s.strip() for s in shown) == callers
    parts = view.locator('.cct-pane-row.cct-pane-part[aria-level="2"] .cct-pane-label')
    assert lines and sorted(s.strip() for s in parts.all_inner_texts()) == lines
    shot(page, "pane-callers-lines")
    # a double click opens that function's callers and callees
    first.dblclick()
    notebook.wait_python("(w.table_mode, w.sandwich)", ["sandwich", top])
    sections = view.locator('.cct-pane-row[aria-level="1"] .cct-pane-label')
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz .cct-pane-row[aria-level=\"1\"]').length === 2"
    )
    texts = sections.all_inner_texts()
    assert texts[0].strip().startswith("callers of") and texts[1].strip().endswith("calls ▼")
    shot(page, "pane-sandwich")
    # a caller row selects the contexts of the function on that call path
    row = view.locator('.cct-pane-row[aria-level="2"]').first
    caller = row.locator(".cct-pane-label").inner_text().strip()
    row.click()
    expected = notebook.python_json(
        f"sorted(w.callers({top!r}, depth=1).set_index('path')"
        f".loc[[({top!r}, {caller!r})], 'ids'].iloc[0])"
    )
    notebook.wait_python("sorted(w.selection)", expected)
    # a click on a tree node shows that node's function in the sandwich
    main = notebook.python_json("next(i for i in range(w.table.size) if w.table.name(i) == 'main')")
    at = page_position(page, main)
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python("w.sandwich", "main")
    # the table closes from its own button
    view.locator('.cct-pane-head button[aria-label="Close the table"]').click()
    notebook.wait_python("w.table_mode", "off")
    assert view.locator(".cct-pane").is_hidden()


def test_pane_goes_below_the_tree_in_a_narrow_cell(open_notebook, page) -> None:
    notebook = open_notebook(
        [
            "import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'), "
            "table_mode='callers')\nw"
        ]
    )
    view = page.locator(".cctviz").first
    view.locator(".cct-pane-body .cct-pane-row").first.wait_for()
    page.set_viewport_size({"width": 700, "height": 900})
    page.wait_for_function("() => document.querySelector('.cctviz .cct-body-narrow') !== null")
    page.wait_for_timeout(300)  # the tree is drawn again at its new size
    pane = view.locator(".cct-pane").bounding_box()
    stage = view.locator(".cct-stage").bounding_box()
    assert pane["y"] >= stage["y"] + stage["height"] - 1
    assert pane["width"] >= stage["width"] - 2  # full width, under the tree
    assert notebook.python_json("w._stage_size[0]") <= stage["width"] + 1
    shot(page, "pane-narrow")


def test_metric_columns_follow_table_metrics(open_notebook, page) -> None:
    notebook = open_notebook(
        [
            "import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'), "
            "reducer='imbalance', table_mode='contexts')\nw"
        ]
    )
    view = page.locator(".cctviz").first
    view.locator(".cct-pane-body .cct-pane-row").first.wait_for()
    heads = view.locator(".cct-pane-columns [role=columnheader]")
    # by default: the colour and size metrics with their partners, sorted by the first inclusive
    default = notebook.python_json("w.table_columns")
    assert [h.strip(" ▼") for h in heads.all_inner_texts()] == ["name", *default]
    # Python chooses three columns: the page asks for the rows again and shows them
    chosen = ["time (inc)", "time (inc) (mean)", "time (mean)"]
    notebook.execute(f"w.table_metrics = {chosen!r}")
    page.wait_for_function(
        "n => document.querySelectorAll('.cctviz .cct-pane-columns [role=columnheader]').length"
        " === n",
        arg=len(chosen) + 1,
    )
    assert heads.all_inner_texts() == ["name", "time (inc)", "time (inc) (mean) ▼", "time (mean)"]
    first = view.locator(".cct-pane-body .cct-pane-row").first
    cells = first.locator("[role=gridcell]")
    assert cells.count() == 4
    # the imbalance has no share; the means add up, so they show one (the root: all of it)
    assert first.locator(".cct-pane-num").nth(0).locator(".cct-pane-share").count() == 0
    assert first.locator(".cct-pane-num").nth(1).locator(".cct-pane-share").inner_text() == "100 %"
    # the rows are what Python says: top rows of the tree, in the pane's order
    top = notebook.python_json("w.table_frame.query('depth == 0').name.tolist()")
    labels = view.locator('.cct-pane-row[aria-level="1"] .cct-pane-label').all_inner_texts()
    assert [s.strip() for s in labels] == top
    shot(page, "pane-metric-columns")
    # a header sorts by its column
    heads.nth(1).click()
    assert heads.nth(1).get_attribute("aria-sort") == "descending"
    notebook.execute("w.table_metrics = []")
    page.wait_for_function(
        "n => document.querySelectorAll('.cctviz .cct-pane-columns [role=columnheader]').length"
        " === n",
        arg=len(default) + 1,
    )


def test_columns_menu_sets_table_metrics_and_headers_say_units(open_notebook, page) -> None:
    notebook = open_notebook(
        [
            "import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'), "
            "table_mode='contexts', units={'time (inc)': 'usec'})\n"
            "w.derive('half', '`time (inc)` / 2')\nw"  # a metric no column shows at first
        ]
    )
    view = page.locator(".cctviz").first
    view.locator(".cct-pane-body .cct-pane-row").first.wait_for()
    heads = view.locator(".cct-pane-columns [role=columnheader]")
    # the unit once, in the header, with the prefix the column's values fit (usec: in seconds)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.cctviz .cct-pane-columns [role=columnheader]')]"
        ".some(h => /^time \\(inc\\) \\[\\S*s\\]/.test(h.textContent))"
    )
    plain = [h for h in heads.all_inner_texts() if h.strip(" ▼▲") == "time"]
    assert plain  # "time" has no unit given: its header says none
    shown = notebook.python_json("w.table_columns")
    # the Columns menu: the shown metrics checked; checking another sets w.table_metrics
    view.locator(".cct-pane-chooser button").click()
    items = view.locator(".cct-pane-chooser-item")
    items.first.wait_for()
    checked = [items.nth(i).locator("input").is_checked() for i in range(items.count())]
    names = [n.strip() for n in items.all_inner_texts()]
    assert [n for n, c in zip(names, checked, strict=True) if c] == [n for n in names if n in shown]
    other = next(n for n, c in zip(names, checked, strict=True) if not c)
    items.nth(names.index(other)).locator("input").press("Space")  # by keyboard
    notebook.wait_python("list(w.table_metrics)", [*shown, other])
    page.wait_for_function(
        "n => document.querySelectorAll('.cctviz .cct-pane-columns [role=columnheader]').length"
        " === n",
        arg=len(shown) + 2,
    )
    page.keyboard.press("Escape")
    shot(page, "pane-columns-units")
