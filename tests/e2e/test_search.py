"""End to end in JupyterLab: search on a real profile (HPCToolkit allgather, 1,474 nodes, the
largest shared profile with MPI names: "P" alone matches 1,427 of them) opens nothing as it is
typed or set from Python; Enter (``w.search_step``) opens one match's ancestors and shows it;
"all" (``w.search_show_all``) opens every match's."""

from __future__ import annotations

import re

import pytest

from ..profiles import data_root, require
from .lab import shot

pytestmark = pytest.mark.e2e

FOLDER = "hatchet/hpctoolkit-allgather-database"


def cells() -> list[str]:
    require(FOLDER)
    path = str(data_root(FOLDER))
    return [
        "import warnings\nimport cctviz, hatchet\nwarnings.simplefilter('ignore')\n"
        f"w = cctviz.CCT(hatchet.GraphFrame.from_hpctoolkit({path!r}))\n"
        "from cctviz.widget.code import drawn_ids\n\n\n"
        "def ancestors(n):\n"
        "    out, parent = set(), w.table.parent\n"
        "    n = int(parent[n])\n"
        "    while n >= 0:\n"
        "        out.add(n)\n"
        "        n = int(parent[n])\n"
        "    return out\n\n\n"
        "w"
    ]


def view(page):
    return page.locator(".cctviz").first


def drawn(page) -> list[int]:
    """Ids of the nodes drawn in the page."""
    return sorted(
        int(i)
        for i in view(page)
        .locator(".cct-nodes .cct-node[data-id]")
        .evaluate_all("(els) => els.map((e) => e.getAttribute('data-id'))")
    )


def first_picture(page, notebook) -> tuple[list[int], list[int]]:
    """Waits for the first picture, folded to fit, and for Python to have its collapsed set."""
    view(page).locator(".cct-nodes .cct-node").first.wait_for()
    page.wait_for_function(
        "() => document.querySelector('.cctviz').cctRenderer.state.collapsed.length > 0"
    )
    folded = sorted(
        page.evaluate("() => document.querySelector('.cctviz').cctRenderer.state.collapsed")
    )
    notebook.wait_python("sorted(w.collapsed)", folded)
    return folded, drawn(page)


def info(page) -> str:
    return str(view(page).locator(".cct-search-info").inner_text())


def test_typed_search_opens_nothing_enter_steps_all_shows(open_notebook, page) -> None:
    notebook = open_notebook(cells())
    folded, before = first_picture(page, notebook)
    shot(page, "search-0-first-picture")
    search = view(page).get_by_label("Search node names")
    # key by key, slower than the search waits for: "P", "PM", ... are each searched
    search.press_sequentially("PMPI_", delay=250)
    notebook.wait_python("w.search", "PMPI_")
    matches = notebook.python_json("w.search_matches")
    assert len(matches) == 5
    page.wait_for_function(
        "() => /^5 matches/.test(document.querySelector('.cct-search-info').textContent)"
    )
    assert drawn(page) == before  # nothing opened, in the page...
    assert sorted(notebook.python_json("list(w.collapsed)")) == folded  # ...or in Python
    assert info(page) == "5 matches"
    shot(page, "search-1-typed-PMPI_")
    # a pattern with matches inside folded subtrees: counted, marked on their glyphs, not opened
    search.fill("")
    search.press_sequentially("MPI", delay=60)
    notebook.wait_python("w.search", "MPI")
    matches = notebook.python_json("w.search_matches")
    hidden = [m for m in matches if m not in before]
    assert hidden
    page.wait_for_function(
        "(text) => document.querySelector('.cct-search-info').textContent === text",
        arg=f"{len(matches)} matches, {len(hidden)} hidden",
    )
    assert drawn(page) == before
    assert sorted(notebook.python_json("list(w.collapsed)")) == folded
    holders = view(page).locator(".cct-node.cct-holds-match")
    counts = holders.evaluate_all("(els) => els.map((e) => Number(e.dataset.holdsMatch))")
    assert sum(counts) == len(hidden)
    shot(page, "search-2-typed-MPI")

    # Enter steps through the matches in tree order, up to the first hidden one: shown, with
    # exactly the ancestors of the matches stepped to opened
    steps = matches.index(hidden[0]) + 1
    for _ in range(steps):
        search.press("Enter")
    page.wait_for_function(
        "(id) => document.querySelector('.cctviz').cctRenderer.cursor === id", arg=hidden[0]
    )
    assert hidden[0] in drawn(page)
    assert info(page) == f"{steps} of {len(matches)}"
    visited = matches[:steps]
    notebook.wait_python(
        f"sorted(w.collapsed) == sorted(set({folded}) - set().union(*map(ancestors, {visited})))",
        True,
    )
    assert len(drawn(page)) < len(before) + 40  # the paths to the matches, not the tree
    shot(page, "search-3-enter")

    view(page).get_by_role("button", name=re.compile("^Show all matches \\(opens")).click()
    page.wait_for_function(
        '(ids) => ids.every((id) => document.querySelector(`.cctviz .cct-node[data-id="${id}"]`))',
        arg=matches,
    )
    notebook.wait_python(f"set({matches}) <= set(drawn_ids(w))", True)
    assert re.fullmatch(r"\d+ matches; opened \d+ nodes", info(page))
    shot(page, "search-4-show-all")


def test_python_search_is_typing_step_and_show_all_from_python(open_notebook, page) -> None:
    notebook = open_notebook(cells())
    folded, before = first_picture(page, notebook)
    notebook.execute("w.search = 'PMPI_'")
    page.wait_for_function(
        "() => document.querySelector('.cct-search-info').textContent === '5 matches'"
    )
    notebook.execute("w.search = 'MPI'")
    matches = notebook.python_json("w.search_matches")
    hidden = [m for m in matches if m not in before]
    page.wait_for_function(
        "(text) => document.querySelector('.cct-search-info').textContent === text",
        arg=f"{len(matches)} matches, {len(hidden)} hidden",
    )
    assert drawn(page) == before
    assert sorted(notebook.python_json("list(w.collapsed)")) == folded
    shot(page, "search-5-python-search")
    steps = matches.index(hidden[0]) + 1
    at = notebook.python_json(f"[w.search_step() for _ in range({steps})][-1]")
    assert at == hidden[0]
    page.wait_for_function(
        "(id) => document.querySelector('.cctviz').cctRenderer.cursor === id", arg=at
    )
    assert at in drawn(page)
    shot(page, "search-6-python-step")
    opened = notebook.python_json("w.search_show_all()")
    assert opened > 0
    page.wait_for_function(
        '(ids) => ids.every((id) => document.querySelector(`.cctviz .cct-node[data-id="${id}"]`))',
        arg=matches,
    )
    assert len(drawn(page)) == notebook.python_json("len(drawn_ids(w))")


def test_level_of_detail_counts_from_python_and_loads_what_enter_steps_to(open_notebook, page):
    notebook = open_notebook(
        [
            "import cctviz\nimport numpy as np\n"
            "w = cctviz.CCT(cctviz.examples.synthetic(20_000, seed=3), budget=500)\n"
            "hidden = np.flatnonzero(~w._lod.revealed)\n"
            "name = w.table.name(int(hidden[-1]))\nw"
        ]
    )
    view(page).locator(".cct-nodes .cct-node").first.wait_for()
    name = notebook.python_json("name")
    search = view(page).get_by_label("Search node names")
    search.fill(name)
    notebook.wait_python("w.search", name)
    matches = notebook.python_json("w.search_matches")
    have = notebook.python_json("[m for m in w.search_matches if w._lod.revealed[m]]")
    assert len(have) < len(matches)
    # the view has only some matches: the rest are counted from Python's count
    page.wait_for_function(
        "(n) => document.querySelector('.cct-search-info').textContent.includes(`${n} not loaded`)",
        arg=len(matches) - len(have),
    )
    assert notebook.python_json("len(w.loaded)") <= 500 + 200  # nothing loaded by the search
    assert matches[0] not in have
    search.press("Enter")  # Python finds the first match, loads its path; the view opens it
    page.wait_for_function(
        "(id) => document.querySelector('.cctviz').cctRenderer.cursor === id", arg=matches[0]
    )
    page.wait_for_function(
        '(id) => document.querySelector(`.cctviz .cct-node[data-id="${id}"]`)', arg=matches[0]
    )
    assert notebook.python_json(f"bool(w._lod.revealed[{matches[0]}])")
    shot(page, "search-7-level-of-detail-enter")
