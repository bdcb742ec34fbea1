"""End to end in JupyterLab: the compare view's legend, presence glyphs and tooltip, a scaling
series' tooltip by the widget's edge, an HPCToolkit profile's shares, and two widgets of different
trees linked by call path, checked in the page and in the kernel."""

from __future__ import annotations

import pytest

from ..profiles import data_root, distribution
from .lab import page_position, pick_metric, shot

pytestmark = pytest.mark.e2e

PAIR = (
    "import cctviz\n"
    "gf = cctviz.examples.load('hpctoolkit-cpi')\n"
    "sub = gf.filter(lambda r: r['name'] != '27:MPI_Init', squash=True, num_procs=1)\n"
)


def test_compare_view_marks_what_only_one_run_has(open_notebook, page) -> None:
    notebook = open_notebook([PAIR + "w = cctviz.compare(gf, sub, labels=('full', 'filtered'))\nw"])
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    counts = notebook.python_json("[int((w.table.presence == k).sum()) for k in (1, 2)]")
    assert counts[0] > 0 and counts[1] > 0
    # the glyphs as many as Python's presence says (every node is drawn at this size)
    assert view.locator(".cct-nodes .cct-only-a").count() == counts[0]
    assert view.locator(".cct-nodes .cct-only-b").count() == counts[1]
    key = view.locator(".cct-presence-key text").all_text_contents()
    assert key == ["only in full", "only in filtered"]
    # the colour legend is the difference, on a diverging palette
    assert "Δ time (inc) (filtered − full)" in view.locator(".cct-legends").text_content()
    assert notebook.python_json("w.palette") == "rdbu"
    # the tooltip of a context only in the full run says so, with both values
    only = notebook.python_json("int(next(i for i, p in enumerate(w.table.presence) if p == 1))")
    at = page_position(page, only)
    page.mouse.move(at["x"], at["y"])
    tip = view.locator(".cct-tooltip")
    tip.locator(".cct-tooltip-presence").wait_for()
    assert tip.locator(".cct-tooltip-presence").inner_text() == "only in full"
    shot(page, "compare")
    assert "full: time (inc)" in tip.inner_text() and "filtered: time (inc)" in tip.inner_text()
    # the colour menu switches to a run's own values
    pick_metric(view, "colour", "filtered: time (inc)")
    notebook.wait_python("(w.color_by, w.palette)", ["filtered: time (inc)", "auto"])


def test_two_linked_widgets_select_the_same_context(open_notebook, page) -> None:
    notebook = open_notebook(
        [PAIR + "a, b = cctviz.CCT(gf), cctviz.CCT(sub)\nlink = cctviz.link(a, b)\na", "b"]
    )
    page.locator(".cctviz").nth(1).locator(".cct-nodes .cct-node").first.wait_for()
    # a node after the removed subtree: its id differs between the two trees
    name = "62:MPI_Finalize"
    ids = notebook.python_json(
        f"[next(i for i in range(w.table.size) if w.table.name(i) == {name!r}) for w in (a, b)]"
    )
    assert ids[0] != ids[1]
    at = page_position(page, ids[0])  # the first view on the page
    page.mouse.click(at["x"], at["y"])
    notebook.wait_python("[list(a.selection), list(b.selection)]", [[ids[0]], [ids[1]]])
    second = page.locator(".cctviz").nth(1)
    page.wait_for_function(
        "id => document.querySelectorAll('.cctviz')[1]"
        '.querySelector(`.cct-node.cct-selected[data-id="${id}"]`) !== null',
        arg=ids[1],
    )
    assert second.locator(".cct-node.cct-selected").count() == 1
    # a node only the first tree has: skipped in the second, and reported
    notebook.execute("a.select('27:MPI_Init')")
    notebook.wait_python("(list(b.selection), link.skipped['selection'])", [[], ["27:MPI_Init"]])


def _inside(page, selector: str, box: str) -> bool:
    """Whether the first ``selector`` element's box (its transform included) is inside ``box``'s."""
    return bool(
        page.evaluate(
            """([selector, box]) => {
              const a = document.querySelector(selector).getBoundingClientRect();
              const b = document.querySelector(box).getBoundingClientRect();
              return a.left >= b.left - 0.5 && a.top >= b.top - 0.5
                && a.right <= b.right + 0.5 && a.bottom <= b.bottom + 0.5;
            }""",
            [selector, box],
        )
    )


def test_a_series_tooltip_by_the_edge_stays_inside_the_widget(open_notebook, page) -> None:
    notebook = open_notebook(
        [
            "import cctviz\nruns = cctviz.examples.runs()\n"
            "w = cctviz.compare(list(runs.values()), labels=list(runs), height=300)\nw"
        ]
    )
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    assert notebook.python_json("w.columns.scaling") == "weak"
    # the node drawn furthest right, then the lowest one: the tooltip would pass those edges
    ids = view.locator(".cct-nodes .cct-node").evaluate_all("els => els.map(e => +e.dataset.id)")
    spots = {i: page_position(page, i) for i in ids}
    for name, node in (
        ("right", max(spots, key=lambda i: spots[i]["x"])),
        ("bottom", max(spots, key=lambda i: spots[i]["y"])),
    ):
        page.mouse.move(spots[node]["x"], spots[node]["y"])
        tip = view.locator(".cct-tooltip")
        tip.locator(".cct-tooltip-series").wait_for()
        assert _inside(page, ".cctviz .cct-tooltip", ".cctviz .cct-root"), name
        shot(page, f"compare-series-tooltip-{name}")
        page.mouse.move(0, 0)
    assert "weak scaling" in tip.inner_text()


def test_an_hpctoolkit_exclusive_share_is_of_the_program_time(open_notebook, page) -> None:
    path = data_root("hatchet/hatchet_cpi_v4_database")
    reader = "from_hpctoolkit" if distribution() == "umd" else "from_hpctoolkit_latest"
    load = f"gf = hatchet.GraphFrame.{reader}({str(path)!r})\n"
    notebook = open_notebook(
        [f"import cctviz, hatchet, numpy as np\n{load}w = cctviz.CCT(gf, fold_to_fit=False)\nw"]
    )
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    # the node with the most exclusive time (a line, and the loops that repeat it): exclusive =
    # inclusive there, the same share of the program's time (not of Σ exclusive, 2.3 × larger)
    notebook.execute(
        "t = w.table\nexc, inc = (t.metrics[m].values for m in ('time', 'time (inc)'))\n"
        "program = np.nansum(inc[t.roots])"
    )
    node, want = notebook.python_json(
        "(int(np.nanargmax(exc)), f'{100 * np.nanmax(exc) / program:.0f} %')"
    )
    at = page_position(page, node)
    page.mouse.move(at["x"], at["y"])
    tip = view.locator(".cct-tooltip")
    tip.locator(".cct-share").first.wait_for()
    shares = tip.locator(".cct-share").all_inner_texts()
    assert shares == [f"{want} of total", f"{want} of total"]
    shot(page, "hpctoolkit-v4-tooltip")
