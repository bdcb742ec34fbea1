"""End to end: the first picture of a real profile is readable in a JupyterLab cell (marks at
least 4 px across, labels clear of each other, of the marks and of the edges, the hot path named),
folded to fit as ordinary state that Python sees; two widgets on one page keep their own legends."""

from __future__ import annotations

from typing import Any

import pytest

from .lab import more_controls

pytestmark = pytest.mark.e2e

SW4 = "import cctviz\ngf = cctviz.examples.load('caliper-sw4-cuda')\nw = cctviz.CCT(gf)\nw"

# boxes of the marks and labels of the first widget on the page, relative to its stage
MEASURE_JS = """() => {
  const el = document.querySelector('.cctviz');
  const stage = el.querySelector('.cct-stage').getBoundingClientRect();
  const rel = (r) => ({ l: r.left - stage.left, r: r.right - stage.left, t: r.top - stage.top,
                        b: r.bottom - stage.top, w: r.width, h: r.height });
  const marks = [...el.querySelectorAll('.cct-nodes .cct-node[data-id]')]
    .map((e) => ({ id: e.getAttribute('data-id'), ...rel(e.getBoundingClientRect()) }));
  const labels = [...el.querySelectorAll('.cct-labels text')]
    .map((e) => ({ text: e.textContent, ...rel(e.getBoundingClientRect()) }));
  return { marks, labels, width: stage.width, height: stage.height };
}"""


HOT_PATH = """
def _hot_path(w, steps=3):
    t, v = w.table, w.table.metrics[w.size_by].values
    i = max((int(r) for r in t.roots), key=lambda r: v[r])
    path = [t.name(i)]
    while len(path) < steps:
        kids = [int(c) for c in (t.parent == i).nonzero()[0]]
        if not kids:
            break
        i = max(kids, key=lambda c: v[c])
        path.append(t.name(i))
    return path
"""


def hot_path(notebook: Any) -> list[str]:
    """Names of the first nodes of the hot path by the size metric: the largest root, then the
    largest child, repeatedly (computed in the kernel from the node table)."""
    notebook.execute(HOT_PATH)
    return list(notebook.python_json("_hot_path(w)"))


def assert_readable(m: dict[str, Any]) -> None:
    """Marks at least 4 px across; labels inside the drawing, clear of each other and of the
    marks' centres (boxes measured in the browser)."""
    marks, labels = m["marks"], m["labels"]
    assert min(min(k["w"], k["h"]) for k in marks) >= 4, "a node mark is under 4 px across"
    for a in labels:  # inside the drawing
        assert a["l"] >= -0.5 and a["r"] <= m["width"] + 0.5, a
        assert a["t"] >= -0.5 and a["b"] <= m["height"] + 0.5, a
    for i, a in enumerate(labels):  # no two labels overlap
        for b in labels[i + 1 :]:
            overlap_x = min(a["r"], b["r"]) - max(a["l"], b["l"])
            overlap_y = min(a["b"], b["b"]) - max(a["t"], b["t"])
            assert overlap_x <= 1 or overlap_y <= 1, (a, b)
    for a in labels:  # no label over a node's centre
        for k in marks:
            cx, cy = (k["l"] + k["r"]) / 2, (k["t"] + k["b"]) / 2
            assert not (a["l"] + 1 < cx < a["r"] - 1 and a["t"] + 1 < cy < a["b"] - 1), (a, k)


def test_first_picture_of_a_real_profile_is_readable(open_notebook, page) -> None:
    notebook = open_notebook([SW4])
    page.wait_for_selector(".cctviz .cct-fit-note:not([hidden])")
    # labels of a first picture over 50 rows come in the task after its frame (data-labels)
    page.wait_for_selector(".cctviz svg[data-labels]", state="detached")
    # the folds are collapse state that reached Python
    notebook.wait_python("len(w.collapsed) > 0", True)
    folded = notebook.python_json("list(w.collapsed)")
    m = page.evaluate(MEASURE_JS)
    marks, labels = m["marks"], m["labels"]
    assert len(marks) >= 15
    assert_readable(m)
    texts = [a["text"] for a in labels]
    for name in hot_path(notebook):
        assert any(t.replace("…", "").startswith(name[:5]) for t in texts), (name, texts)

    # "Expand all" in the status line opens everything; undo brings the folds back
    page.locator(".cctviz .cct-fit-note button").click()
    notebook.wait_python("list(w.collapsed)", [])
    page.locator(".cctviz .cct-stage").focus()
    page.keyboard.press("Control+z")
    notebook.wait_python("sorted(w.collapsed)", sorted(folded))


def test_two_widgets_keep_their_own_legends(open_notebook, page) -> None:
    cpi = "import cctviz\ngf = cctviz.examples.load('hpctoolkit-cpi')\n"
    open_notebook([cpi + "a = cctviz.CCT(gf)\na", "b = cctviz.CCT(gf, palette='magma')\nb"])
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz .cct-color-legend').length === 2"
    )
    legends = page.evaluate(
        """() => [...document.querySelectorAll('.cctviz')].map((el) => {
          const bar = el.querySelector('.cct-color-legend .cct-legend-bar');
          const id = bar.getAttribute('fill').slice(5, -1);
          const same = document.querySelectorAll(`[id="${id}"]`);
          const gradient = el.querySelector(`linearGradient[id="${id}"]`);
          return { id, count: same.length, inside: !!gradient,
                   last: gradient && gradient.lastElementChild.getAttribute('stop-color') };
        })"""
    )
    assert legends[0]["id"] != legends[1]["id"]
    assert all(g["count"] == 1 and g["inside"] for g in legends), legends
    # viridis ends in yellow, magma in pale pink: each bar shows its own palette
    assert legends[0]["last"] != legends[1]["last"]


def dag_cell() -> str:
    """A cell drawing the gprof2dot profile of cpi: a DAG with seven roots."""
    from tests.profiles import data_root, require

    require("hatchet/gprof2dot-cpi")
    first = sorted(p for p in data_root("hatchet/gprof2dot-cpi").iterdir() if p.is_file())[0]
    return (
        "import cctviz, hatchet as ht\n"
        f"gf = ht.GraphFrame.from_gprof_dot({str(first)!r})\n"
        "w = cctviz.CCT(gf)\nw"
    )


def test_many_roots_are_labelled_bands_and_other_callers_can_be_drawn(open_notebook, page) -> None:
    notebook = open_notebook([dag_cell()])
    page.wait_for_selector(".cctviz .cct-band-label")
    m = page.evaluate(MEASURE_JS)
    assert_readable(m)  # the band headers are labels like the others: clear of everything
    headers = page.evaluate(
        "() => [...document.querySelectorAll('.cctviz .cct-band-label')].map((e) => e.textContent)"
    )
    rules = page.locator(".cctviz .cct-band-rule").count()
    assert len(headers) >= 2 and rules == len(headers) - 1, (headers, rules)
    # every root is named: by its band's header, or by its own label in a band of small roots
    roots = notebook.python_json("[w.table.name(int(r)) for r in w.table.roots]")
    texts = [a["text"].replace("…", "") for a in m["labels"]]
    for name in roots:
        assert any(name.startswith(t[:5]) for t in texts if t), (name, texts)

    # the DAG's other call edges: off, then dashed curves from the roots menu, in Python too
    assert page.locator(".cctviz .cct-caller-links").get_attribute("d") is None
    more_controls(page.locator(".cctviz").first)
    page.locator(".cctviz summary", has_text="roots").click()
    page.locator(".cctviz input[data-caller-edges]").click()
    notebook.wait_python("w.caller_edges", True)
    d = page.locator(".cctviz .cct-caller-links").get_attribute("d") or ""
    assert d.count("M") >= 1
    notebook.execute("w.caller_edges = False")
    page.wait_for_function(
        "() => !document.querySelector('.cctviz .cct-caller-links').getAttribute('d')"
    )


CURSOR_IN_VIEW = """() => {
  const el = document.querySelector('.cctviz');
  const stage = el.querySelector('.cct-stage').getBoundingClientRect();
  const ring = el.querySelector('.cct-cursor');
  if (!ring) return null;
  const r = ring.getBoundingClientRect();
  const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
  return cx > stage.left && cx < stage.right && cy > stage.top && cy < stage.bottom
    && Math.min(r.width, r.height) >= 4;
}"""


def test_navigation_brings_its_target_into_view(open_notebook, page) -> None:
    notebook = open_notebook([SW4.replace("cctviz.CCT(gf)", "cctviz.CCT(gf, fold_to_fit=False)")])
    page.wait_for_selector(".cctviz .cct-nodes .cct-node")
    stage = page.locator(".cctviz .cct-stage").bounding_box()

    def far() -> None:  # zoom in and drag the tree far off, as a user would
        x, y = stage["x"] + stage["width"] / 2, stage["y"] + stage["height"] / 2
        page.mouse.move(x, y)
        for _ in range(4):
            page.mouse.wheel(0, -400)
        for _ in range(4):
            page.mouse.move(x + 300, y + 200)
            page.mouse.down()
            page.mouse.move(x - 300, y - 200, steps=6)
            page.mouse.up()
        page.wait_for_timeout(400)  # the zoom's end

    far()
    more_controls(page.locator(".cctviz").first)
    page.get_by_role(
        "button",
        name="From the focused node, open the child with the largest inclusive value, repeatedly",
    ).click()
    page.wait_for_function(CURSOR_IN_VIEW, polling=100, timeout=5000)
    # search ▶ steps to a match at a readable zoom
    far()
    assert page.evaluate(CURSOR_IN_VIEW) is False  # the hot path's end is off screen now
    page.locator(".cctviz").first.get_by_label("Search node names").fill("cudaLaunchKernel")
    notebook.wait_python("w.search", "cudaLaunchKernel")
    page.locator(".cctviz").first.get_by_role("button", name="Next match", exact=True).click()
    page.wait_for_function(CURSOR_IN_VIEW, polling=100, timeout=5000)
    # the cursor is a node the kernel sees as a search match
    assert notebook.python_json("len(w.search_matches)") > 0
