"""End to end in JupyterLab (issue 31): an Ensemble in the widget. The profile strip beside the
tree draws one point per profile; brushing it with the mouse sets ``w.where`` in the kernel,
which reduces the tree again over the brushed profiles (the tree's numbers change) and gives
them back in ``w.profiles_selected``; a node's tooltip shows its spread over those profiles.
``where`` is Python's alone: one set from the page is refused in sight and sent back, and a brush
whose ranges are not numbers changes nothing (docs/where.md)."""

from __future__ import annotations

import json

import pytest

from .lab import ENSEMBLE_CELL, WITH_MODEL, brush_strip, page_position, shot

pytestmark = pytest.mark.e2e

STORE = ENSEMBLE_CELL


def _tooltip_of_root(page, view) -> str:
    """The root's tooltip once its spread over the profiles arrived."""
    page.mouse.move(5, 5)
    view.locator(".cct-tooltip").first.wait_for(state="hidden")
    at = page_position(page, 0)
    page.mouse.move(at["x"], at["y"])
    view.locator(".cct-tooltip .cct-tooltip-spread").wait_for()
    return view.locator(".cct-tooltip").inner_text()


def test_brushing_the_profile_strip_reduces_the_tree_again(open_notebook, page) -> None:
    notebook = open_notebook(STORE)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    strip = view.locator(".cct-profiles")
    strip.wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz .cct-profiles circle').length === 60"
    )
    # beside the tree, which keeps most of the width
    box, stage = strip.bounding_box(), view.locator(".cct-stage").bounding_box()
    assert box["x"] + box["width"] <= stage["x"] + 1 and stage["width"] > box["width"]
    assert view.locator('.cct-profiles select[aria-label="x axis"]').input_value() == "launchdate"
    before = _tooltip_of_root(page, view)
    assert "over 60 profiles" in before
    shot(page, "ensemble-strip")

    # a flat drag over the middle of the plot brushes a range of launch dates
    plot, y = brush_strip(page, view)
    # the brush's condition, and the tree reduced again over the profiles passing it (the
    # kernel may answer between the two)
    notebook.wait_python(
        "w.where.startswith('\"launchdate\" BETWEEN') and len(w.profiles_selected) < 60", True
    )
    selected = notebook.python_json("sorted(map(str, w.profiles_selected.index))")
    assert 5 < len(selected) < 40
    # exactly the profiles whose launch dates the brush covered
    expected = notebook.python_json("sorted(map(str, ens.where(w.where).profiles.index))")
    assert selected == expected
    dates = notebook.python_json("sorted(str(d.date()) for d in w.profiles_selected.launchdate)")
    assert dates == [d for d in dates if dates[0] <= d <= dates[-1]]  # one run a day: contiguous
    # the strip marks them, and says how many pass
    page.wait_for_function(
        "n => document.querySelectorAll('.cctviz .cct-profiles-pass').length === n",
        arg=len(selected),
    )
    passing = page.evaluate(
        "() => [...document.querySelectorAll('.cctviz .cct-profiles-pass title')]"
        ".map((t) => t.textContent.split('\\n')[0]).sort()"
    )
    assert passing == selected
    assert f"{len(selected)} of 60 profiles pass" in strip.inner_text()
    # the tree is the reduction over them: its numbers changed
    after = _tooltip_of_root(page, view)
    assert f"over {len(selected)} profiles" in after and after != before
    root_mean = notebook.python_json(
        "float(ens.where(w.where).reduce('time', ('mean',))['mean'].iloc[0])"
    )
    assert notebook.python_json("float(w.table.metrics['time'].values[0])") == pytest.approx(
        root_mean
    )
    shot(page, "ensemble-strip-brushed")

    # a click clears the brush: the whole ensemble again
    page.mouse.click(plot["x"] + plot["width"] * 0.5, y)
    notebook.wait_python("w.where", "")
    notebook.wait_python("len(w.profiles_selected)", 60)  # reduced again over all of them
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz .cct-profiles-pass').length === 60"
    )
    # where from Python: the strip shows which profiles pass
    notebook.execute("w.where = 'jobsize >= 512'")
    count = notebook.python_json("len(w.profiles_selected)")
    page.wait_for_function(
        "n => document.querySelectorAll('.cctviz .cct-profiles-pass').length === n", arg=count
    )


def test_the_strip_sits_above_the_tree_in_narrow_cells(open_notebook, page) -> None:
    page.set_viewport_size({"width": 760, "height": 1000})
    open_notebook(STORE)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz .cct-profiles circle').length === 60"
    )
    box = view.locator(".cct-profiles").bounding_box()
    stage = view.locator(".cct-stage").bounding_box()
    assert box["y"] + box["height"] <= stage["y"] + 1 and stage["height"] > 200
    shot(page, "ensemble-strip-narrow")


# the five LULESH runs of the MPI scaling study bundled with cctviz in a fresh store, as
# notebooks/ensembles.ipynb makes it; the strip's x axis is mpi.world.size (27 to 343 ranks)
LULESH = [
    "import tempfile\nfrom pathlib import Path\nimport cctviz\n"
    "ens = cctviz.Ensemble(Path(tempfile.mkdtemp()) / 'lulesh.cctviz')\n"
    "ens.add(cctviz.examples.DATA / 'lulesh-mpi-scaling')\n"
    "w = cctviz.CCT(ens)\nw"
]

# a forged page's `where`s: SQL that writes a file, SQL that reads one, and a harmless condition
# (refused as well: the page never sets `where`)
FORGED_WHERE = [
    "1=1; COPY (SELECT 42) TO '{evil}'",
    "(SELECT count(*) FROM read_text('/etc/hostname')) > 0",
    "jobsize >= 125",
]

# a forged page's brushes: texts, NaN and infinity (JSON carries them as null), SQL, nested
# objects, a date past what pandas holds; each (x, y) and the start of Python's error
FORGED_BRUSH = [
    ("['1', '2']", "null", "brush: x is [low, high] (finite numbers) or null; got ['1', '2']"),
    ("[NaN, 5]", "null", "brush: x is [low, high] (finite numbers) or null; got [None, 5]"),
    ("['NaN', 'Infinity']", "null", "brush: x is [low, high] (finite numbers) or null; got"),
    ("[0, Infinity]", "null", "brush: x is [low, high] (finite numbers) or null; got [0, None]"),
    ("null", "'1) OR 1=1 --'", "brush: y is [low, high] (finite numbers) or null; got '1) OR"),
    ("[{a: 1}, [2]]", "null", "brush: x is [low, high] (finite numbers) or null; got"),
    ("[1, 2, 3]", "null", "brush: x is [low, high] (finite numbers) or null; got [1, 2, 3]"),
]

# sends a `brush` request as the view's own code does (contract.json "brush"), from the page's
# model, and resolves with Python's reply to it
SEND_BRUSH = """return new Promise((resolve) => {
  const id = 900000 + Math.floor(Math.random() * 99999);
  const on = (m) => {
    if (!m || m.type !== 'reply' || m.id !== id) return;
    model.off('msg:custom', on);
    resolve(m);
  };
  model.on('msg:custom', on);
  model.send({ type: 'brush', id, x: %s, y: %s });
});"""

# the next brush the view itself sends (a real drag) leaves with `x` replaced: a page script
# tampering with the widget's own messages
TAMPER_NEXT_BRUSH = """const comm = model.comm;
const send = comm.send;
comm.send = function (data, ...rest) {
  if (data && data.method === 'custom' && data.content && data.content.type === 'brush') {
    comm.send = send;
    data = { ...data, content: { ...data.content, x: %s } };
  }
  return send.call(this, data, ...rest);
};"""


def _page_where(page, model_id: str) -> str:
    return page.evaluate(WITH_MODEL, [model_id, "return model.get('where')"])


def _same_where(page, notebook, model_id: str) -> str:
    """The page's model comes to hold Python's ``where`` (messages are asynchronous)."""
    expected = notebook.python_json("w.where")
    for _ in range(50):
        if _page_where(page, model_id) == expected:
            break
        page.wait_for_timeout(100)
    assert _page_where(page, model_id) == expected
    return expected


def _drag_over(page, notebook, view, low: float, high: float) -> None:
    """A flat drag over the strip's plot, from the x pixel of the value ``low`` to ``high``
    (placed by the points: their ids in their titles, their x values in Python's ``_strip``)."""
    xs = dict(zip(*notebook.python_json("[w._strip['ids'], w._strip['xs']]"), strict=True))
    at_x = page.evaluate(
        """() => [...document.querySelectorAll('.cctviz .cct-profiles circle')].map((c) => {
             const b = c.getBoundingClientRect();
             return [c.querySelector('title').textContent.split('\\n')[0], b.x + b.width / 2];
           })"""
    )
    points = sorted((xs[i], px) for i, px in at_x)
    (v0, p0), (v1, p1) = points[0], points[-1]

    def at(v: float) -> float:  # the axis is linear
        return p0 + (v - v0) * (p1 - p0) / (v1 - v0)

    plot = view.locator(".cct-profiles-plot").bounding_box()
    y = plot["y"] + plot["height"] * 0.5
    page.mouse.move(at(low), y)
    page.mouse.down()
    page.mouse.move((at(low) + at(high)) / 2, y + 1, steps=4)
    page.mouse.move(at(high), y + 1, steps=4)
    page.mouse.up()


def test_the_page_cannot_set_where_only_brush_the_strip(open_notebook, page, tmp_path) -> None:
    """``where`` is Python's alone: one set on the page's model (SQL or not) is refused where
    the user sees it, Python keeps '' and the page gets it back; a drag on the strip still
    filters, and a brush whose ranges are not numbers is refused without a change."""
    notebook = open_notebook(LULESH)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz .cct-profiles-pass').length === 5"
    )
    strip = view.locator(".cct-profiles")
    assert notebook.python_json("w.strip_x") == "mpi.world.size"
    model_id = notebook.python_json("w.model_id")
    drawn = view.locator(".cct-nodes .cct-node").count()
    tree = "[float(v) for v in w.table.metrics[w.color_by].values]"
    whole = notebook.python_json(tree)
    shot(page, "ensemble-lulesh")

    # (a) `where` set on the page's model, as a page script would
    evil = tmp_path / "evil.csv"
    height = notebook.python_json("w.height")
    for i, text in enumerate(FORGED_WHERE):
        text = text.format(evil=evil)
        run = f"model.set('where', {json.dumps(text)}); "
        if i == len(FORGED_WHERE) - 1:  # with another trait: that one still applies
            run += f"model.set('height', {height + 40}); "
        page.evaluate(WITH_MODEL, [model_id, run + "model.save_changes();"])
        shown = f"cctviz: Python refused where={text!r}"[:60]
        page.wait_for_function(
            "(text) => document.querySelector('.cctviz .cct-error-note span')?.textContent"
            ".startsWith(text)",
            arg=shown,
        )
        message = view.locator(".cct-error-note span").inner_text()
        assert "written by Python only" in message and "the view keeps Python's value" in message
        notebook.wait_python("len(w.front_end_errors)", i + 1)
        entry = notebook.python_json("w.front_end_errors[-1]")
        assert entry.startswith("update: Python refused where="), entry
        assert notebook.python_json("w.where") == ""
        assert _same_where(page, notebook, model_id) == ""  # the page got Python's '' back
        assert not evil.exists()
        assert view.locator(".cct-nodes .cct-node").count() == drawn  # still drawn
        if i == 0:
            shot(page, "ensemble-lulesh-sql-refused")
    notebook.wait_python("w.height", height + 40)
    assert notebook.python_json(tree) == whole  # reduced over all five, as before
    assert "5 profiles; drag to select some" in strip.inner_text()
    shot(page, "ensemble-lulesh-where-refused")
    view.locator(".cct-error-note .cct-error-close").click()

    # (b) a drag over 50 to 300 ranks: Python's BETWEEN, the tree reduced over 64, 125 and 216
    _drag_over(page, notebook, view, 45, 270)
    notebook.wait_python("w.where.startswith('\"mpi.world.size\" BETWEEN')", True)
    where = _same_where(page, notebook, model_id)
    notebook.wait_python("sorted(int(j) for j in w.profiles_selected.jobsize)", [64, 125, 216])
    reduced = notebook.python_json(
        "float(ens.where(w.where).reduce(w.color_by, ('mean',))['mean'].iloc[0])"
    )
    assert notebook.python_json(tree)[0] == pytest.approx(reduced)
    assert notebook.python_json(tree) != whole
    page.wait_for_function(
        "() => document.querySelectorAll('.cctviz .cct-profiles-pass').length === 3"
    )
    assert f"3 of 5 profiles pass: {where}" in strip.inner_text()
    shot(page, "ensemble-lulesh-brushed")

    # (c) brushes whose ranges are not two finite numbers: each refused, nothing changes
    for x, y, error in FORGED_BRUSH:
        reply = page.evaluate(WITH_MODEL, [model_id, SEND_BRUSH % (x, y)])
        assert reply["ok"] is False and reply["error"].startswith(error), reply
        assert notebook.python_json("w.where") == where
    assert _same_where(page, notebook, model_id) == where
    assert notebook.python_json("sorted(int(j) for j in w.profiles_selected.jobsize)") == [
        64,
        125,
        216,
    ]
    # the view's own brush, tampered with on its way: the strip says why nothing changed
    page.evaluate(WITH_MODEL, [model_id, TAMPER_NEXT_BRUSH % "['0', '1e12']"])
    _drag_over(page, notebook, view, 100, 300)
    note = view.locator(".cct-profiles-note")
    page.wait_for_function(
        "() => document.querySelector('.cctviz .cct-profiles-note').textContent.startsWith("
        "'brush: x is')"
    )
    assert note.inner_text() == (
        "brush: x is [low, high] (finite numbers) or null; got ['0', '1e12']"
    )
    assert notebook.python_json("w.where") == where
    assert view.locator(".cct-nodes .cct-node").count() > 0
    shot(page, "ensemble-lulesh-brush-refused")
