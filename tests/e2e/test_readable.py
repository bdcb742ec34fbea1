"""End to end: the first picture of a real profile is readable in a JupyterLab cell (marks at
least 4 px across, labels clear of each other, of the marks and of the edges, the hot path named),
folded to fit as ordinary state that Python sees; two widgets on one page keep their own legends."""

from __future__ import annotations

from typing import Any

import pytest

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


def test_first_picture_of_a_real_profile_is_readable(open_notebook, page) -> None:
    notebook = open_notebook([SW4])
    page.wait_for_selector(".cctviz .cct-fit-note:not([hidden])")
    # the folds are collapse state that reached Python
    notebook.wait_python("len(w.collapsed) > 0", True)
    folded = notebook.python_json("list(w.collapsed)")
    m = page.evaluate(MEASURE_JS)
    marks, labels = m["marks"], m["labels"]
    assert len(marks) >= 15
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
