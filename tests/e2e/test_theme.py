"""End to end in JupyterLab and Notebook 7 (whose theme is JupyterLab's): the view follows the
host's theme, also when it is switched live."""

from __future__ import annotations

from typing import Any

import pytest

from .lab import luminance

pytestmark = pytest.mark.e2e

CELLS = ["import cctviz\nw = cctviz.CCT(cctviz.examples.load('hpctoolkit-cpi'))\nw"]

COLOURS = """el => {
  const label = el.querySelector('.cct-label');
  return [getComputedStyle(el).backgroundColor, label && getComputedStyle(label).fill];
}"""


def _theme(page: Any, name: str) -> None:
    page.evaluate(
        "(name) => window.jupyterapp.commands.execute('apputils:change-theme', {theme: name})",
        name,
    )
    page.wait_for_function(
        "(name) => document.body.dataset.jpThemeName === name", arg=name, timeout=30_000
    )


@pytest.mark.parametrize("notebook7", [False, True], ids=["lab", "notebook7"])
def test_the_view_follows_a_live_theme_switch(open_notebook, page, notebook7) -> None:
    open_notebook(CELLS, notebook7=notebook7)
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for()
    view.locator(".cct-label").first.wait_for()  # a first picture's labels may follow its frame
    light_background, light_label = view.evaluate(COLOURS)
    assert luminance(light_background) > 200 and luminance(light_label) < 100
    try:
        _theme(page, "JupyterLab Dark")
        view.evaluate(
            """(el, before) => new Promise((done) => {
              const check = () => getComputedStyle(el).backgroundColor !== before
                ? done(true) : requestAnimationFrame(check);
              check();
            })""",
            light_background,
        )
        dark_background, dark_label = view.evaluate(COLOURS)
        # the view takes JupyterLab Dark's colours: a dark panel, light labels
        assert luminance(dark_background) < 60 and luminance(dark_label) > 150
        page_background = page.evaluate(
            "() => getComputedStyle(document.querySelector('.jp-Notebook')).backgroundColor"
        )
        assert abs(luminance(dark_background) - luminance(page_background)) < 40
    finally:  # the server is shared: leave its theme as it was
        _theme(page, "JupyterLab Light")
    back_background, _ = view.evaluate(COLOURS)
    assert back_background == light_background
