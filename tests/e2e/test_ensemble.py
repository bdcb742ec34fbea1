"""End to end in JupyterLab (issue 31): an Ensemble in the widget. The profile strip beside the
tree draws one point per profile; brushing it with the mouse sets ``w.where`` in the kernel,
which reduces the tree again over the brushed profiles (the tree's numbers change) and gives
them back in ``w.profiles_selected``; a node's tooltip shows its spread over those profiles."""

from __future__ import annotations

import pytest

from .lab import ENSEMBLE_CELL, page_position, shot

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
    plot = view.locator(".cct-profiles-plot").bounding_box()
    y = plot["y"] + plot["height"] * 0.5
    page.mouse.move(plot["x"] + plot["width"] * 0.40, y)
    page.mouse.down()
    page.mouse.move(plot["x"] + plot["width"] * 0.55, y + 1, steps=4)
    page.mouse.move(plot["x"] + plot["width"] * 0.72, y + 1, steps=4)
    page.mouse.up()
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
