"""End to end (issue 29, point 5): forged messages, from the kernel past Python's checks and from
the page through the widget's model. Each shows a note in the widget, reaches
``w.front_end_errors``, keeps the view drawn, and leaves the page's model equal to Python."""

from __future__ import annotations

import json

import pytest

from .lab import WITH_MODEL

pytestmark = pytest.mark.e2e

CPI = "import cctviz\ngf = cctviz.examples.load('hpctoolkit-cpi')\nw = cctviz.CCT(gf)\nw"

FROM_KERNEL = [
    ("collapsed", [10**9]),
    ("focused", 10**9),
    ("visible_roots", [10**9]),
    ("visible_roots", [2]),  # not a root
    ("highlighted", [10**9]),
    ("selection", [10**9]),
    ("color_by", "nope"),
    ("palette", "rainbow"),
    ("judge_below", 5),
    ("prune_range", ["inf", 3]),
    ("height", 10),
    ("units", {"time": 5}),
]


def model_value(page, notebook, trait: str):
    return page.evaluate(
        WITH_MODEL, [notebook.python_json("w.model_id"), f"return model.get({trait!r})"]
    )


def python_value(notebook, trait: str):
    return json.loads(json.dumps(notebook.python_json(f"w.{trait}")))


def equal_sides(page, notebook, trait: str) -> None:
    """The page's model comes to hold Python's value of ``trait`` (messages are asynchronous)."""
    expected = python_value(notebook, trait)
    for _ in range(50):
        if model_value(page, notebook, trait) == expected:
            return
        page.wait_for_timeout(100)
    assert model_value(page, notebook, trait) == expected


def note(page):
    return page.locator(".cctviz .cct-error-note")


def test_states_forged_in_the_kernel_are_refused_by_the_view(open_notebook, page) -> None:
    notebook = open_notebook([CPI])
    drawn = page.locator(".cctviz .cct-nodes .cct-node")
    drawn.first.wait_for()
    count = drawn.count()
    for i, (trait, bad) in enumerate(FROM_KERNEL):
        # past Python's checks, as a bug would send it
        state = json.dumps({trait: bad})
        notebook.execute(
            f"w.comm.send({{'method': 'update', 'state': {state}, 'buffer_paths': []}})"
        )
        page.wait_for_function(
            "(text) => document.querySelector('.cctviz .cct-error-note')?.textContent"
            ".startsWith(text)",
            arg=f"cctviz: {trait} was not applied",
        )
        notebook.wait_python("len(w.front_end_errors)", i + 1)
        assert notebook.python_json("w.front_end_errors[-1]").startswith(f"trait: {trait} was")
        assert drawn.count() == count  # the view is still drawn, never blank
        # Python sent its state again: the page's model holds Python's value
        equal_sides(page, notebook, trait)
        note(page).locator(".cct-error-close").click()


PAGE_FORGED = [
    ("color_by", "nope"),
    ("selection", [10**9]),
    ("visible_roots", [10**9]),
    ("reducer", "mode"),
    ("height", 10),
]


@pytest.mark.parametrize(("trait", "bad"), PAGE_FORGED, ids=[t for t, _ in PAGE_FORGED])
def test_updates_forged_in_the_page_are_refused_by_python(open_notebook, page, trait, bad):
    notebook = open_notebook([CPI])
    page.locator(".cctviz .cct-nodes .cct-node").first.wait_for()
    before = python_value(notebook, trait)
    run = f"model.set({trait!r}, {json.dumps(bad)}); model.save_changes();"
    page.evaluate(WITH_MODEL, [notebook.python_json("w.model_id"), run])
    page.wait_for_function(
        "(text) => document.querySelector('.cctviz .cct-error-note')?.textContent.startsWith(text)",
        arg=f"cctviz: Python refused {trait}=",
    )
    # Python refused it; the view too, for a value it checks itself ("trait: ... not applied")
    notebook.wait_python("[e.split(':')[0] for e in w.front_end_errors][-1]", "update")
    assert python_value(notebook, trait) == before
    equal_sides(page, notebook, trait)  # ipywidgets echoed the bad value; Python's came after
    assert page.locator(".cctviz .cct-nodes .cct-node").count() > 0
