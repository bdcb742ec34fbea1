"""End to end in Voilà (a notebook served as an app, headless Chromium): the widget draws, a
click reaches Python (an ipywidgets Label follows the selection), and Python's selection reaches
the view (a button selects from Python)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .lab import downloads_svg_and_png, luminance, serving, shot

pytestmark = pytest.mark.e2e

CELL = """\
import cctviz, ipywidgets
w = cctviz.CCT(cctviz.examples.load("hpctoolkit-cpi"))
label = ipywidgets.Label("selected: none")
names = lambda ids: ", ".join(w.table.name(i) for i in ids)
w.observe(lambda change: setattr(label, "value", "selected: " + names(change["new"])), "selection")
button = ipywidgets.Button(description="select PMPI_Init")
button.on_click(lambda _: w.select("PMPI_Init"))
display(w, label, button)
"""


@pytest.fixture(scope="module")
def voila_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import nbformat  # the test environments without JupyterLab collect this module too

    folder: Path = tmp_path_factory.mktemp("voila")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CELL)]
    nbformat.write(nb, folder / "app.ipynb")
    cmd = [sys.executable, "-m", "voila", "app.ipynb", "--no-browser", "--port={port}",
           "--Voila.ip=127.0.0.1"]  # fmt: skip
    with serving(cmd, folder) as url:
        yield url


def test_voila_shares_the_selection_both_ways(voila_app: str, page: Any) -> None:
    page.goto(voila_app)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for(timeout=60_000)
    # the static picture's output (for static renderers) is hidden where the view runs
    page.locator(".cctviz-static").wait_for(state="attached")
    assert not page.locator(".cctviz-static").is_visible()
    view.locator('.cct-nodes .cct-node[data-id="1"]').click()
    page.get_by_text("selected: main").wait_for()
    page.get_by_role("button", name="select PMPI_Init").click()
    page.get_by_text("selected: PMPI_Init").wait_for()
    selected = view.locator(".cct-nodes .cct-node.cct-selected")
    selected.first.wait_for()
    assert selected.count() == 1
    assert selected.first.get_attribute("aria-label").startswith("PMPI_Init")
    # the tree's keys: Escape clears the selection, in Python too
    view.locator(".cct-nodes .cct-node.cct-selected").click()
    page.keyboard.press("Escape")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.widget-label')]"
        ".some((el) => el.textContent.trim() === 'selected:')"
    )
    downloads_svg_and_png(page, view)


def test_after_arrow_keys_the_view_still_follows_a_resize(voila_app: str, page: Any) -> None:
    """Keyboard cursor moves pan a fitted view (a node by an edge comes in) but do not take the
    camera: narrowing the page fits the whole tree into the narrower view again."""
    page.goto(voila_app)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for(timeout=60_000)
    view.locator('.cct-nodes .cct-node[data-id="1"]').click()
    page.mouse.move(0, 0)  # no tooltip in the picture
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "ArrowDown", "ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    outside = """() => {
      const el = document.querySelector('.cctviz');
      const r = el.cctRenderer;
      const { width, height } = r.size;
      const marks = el.querySelectorAll('.cct-nodes .cct-node[data-id]');
      const ids = [...marks].map((e) => +e.dataset.id);
      return { width, drawn: ids.length, out: ids.filter((id) => {
        const p = r.screenPosition(id);
        return p && (p.x < 0 || p.x > width || p.y < 0 || p.y > height);
      }).length };
    }"""
    before = page.evaluate(outside)
    assert before["out"] == 0, before
    page.set_viewport_size({"width": 760, "height": 1000})
    width = "document.querySelector('.cctviz').cctRenderer.size.width"
    narrower = f"() => {width} < {before['width'] - 200}"
    page.wait_for_function(narrower)
    page.wait_for_timeout(800)  # the resize settles (and a glide would end)
    after = page.evaluate(outside)
    shot(page, "voila-arrow-keys-then-narrower")
    assert after["width"] >= 600, after  # above narrowBelow: the legends stay on the left
    assert after["out"] == 0, after


def test_voila_dark_theme_darkens_the_view(tmp_path: Path, page: Any) -> None:
    """``voila --theme=dark`` (JupyterLab's dark theme): the view takes its colours."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw"
    )]  # fmt: skip
    nbformat.write(nb, tmp_path / "app.ipynb")
    cmd = [sys.executable, "-m", "voila", "app.ipynb", "--no-browser", "--port={port}",
           "--Voila.ip=127.0.0.1", "--theme=dark"]  # fmt: skip
    with serving(cmd, tmp_path) as url:
        page.goto(url)
        view = page.locator(".cctviz").first
        view.locator(".cct-nodes .cct-node").first.wait_for(timeout=60_000)
        view.locator(".cct-label").first.wait_for()
        background, label, page_background = view.evaluate(
            "el => [getComputedStyle(el).backgroundColor,"
            " getComputedStyle(el.querySelector('.cct-label')).fill,"
            " getComputedStyle(document.body).backgroundColor]"
        )
    assert luminance(background) < 60 and luminance(label) > 150, (background, label)
    assert abs(luminance(background) - luminance(page_background)) < 40
