"""End to end in marimo (``marimo run``, headless Chromium): the widget draws through marimo's
anywidget support, a click reaches Python and re-runs the cells that depend on the widget, and
panning or zooming does not (the view's size and zoom are messages, not state); the tree's keys
work, a selection made in Python shows in the view, and the downloads work."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .lab import downloads_svg_and_png, serving

pytestmark = pytest.mark.e2e

NOTEBOOK = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import cctviz
    w = cctviz.CCT(cctviz.examples.load("hpctoolkit-cpi"))
    view = mo.ui.anywidget(w)
    view
    return (mo, view, w)


@app.cell
def _(mo, w):
    # Python → view: a button whose handler selects a node in the kernel
    button = mo.ui.button(label="select PMPI_Init", on_click=lambda _: w.select("PMPI_Init"))
    button
    return


@app.cell
def _(view):
    # a cell that depends on the widget: each run leaves a line in RUNS
    with open(RUNS, "a") as f:
        f.write("run\\n")
    selected = len(view.value.get("selection", []))
    mo_text = f"selected: {selected}"
    mo_text
    return


if __name__ == "__main__":
    app.run()
"""


@contextlib.contextmanager
def _serve(folder: Path, env: dict[str, str] | None = None) -> Iterator[tuple[str, Path]]:
    """``marimo run`` of the notebook in ``folder``; yields its URL and the file of runs."""
    runs = folder / "runs.txt"
    (folder / "nb.py").write_text(NOTEBOOK.replace("RUNS", repr(str(runs))))
    cmd = [sys.executable, "-m", "marimo", "run", "nb.py", "--headless",
           "--host", "127.0.0.1", "--port", "{port}"]  # fmt: skip
    with serving(cmd, folder, env) as url:
        yield url, runs


@pytest.fixture(scope="module")
def marimo_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    with _serve(tmp_path_factory.mktemp("marimo")) as served:
        yield served


def _drawn(view: Any, folder: Path) -> None:
    """Wait for the first node; if it never comes, fail with what marimo logged."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:  # marimo starts its kernel and runs the app on the first visit: slow on a busy machine
        view.locator(".cct-nodes .cct-node").first.wait_for(timeout=120_000)
    except PlaywrightTimeout as error:
        log = (folder / "server.log").read_text(errors="replace")[-3000:]
        raise AssertionError(f"marimo drew no node in 120 s; its log ends:\n{log}") from error


def _runs(path: Path) -> int:
    return path.read_text().count("run") if path.exists() else 0


def test_marimo_reruns_on_a_click_not_on_a_pan_or_zoom(marimo_app: Any, page: Any) -> None:
    url, runs = marimo_app
    page.goto(url)
    view = page.locator(".cctviz").first
    _drawn(view, runs.parent)
    page.wait_for_timeout(1500)  # marimo's first runs settle
    before = _runs(runs)
    assert before >= 1
    box = view.locator(".cct-stage").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    # (marimo draws widgets in a shadow root: the locator reaches into it, document queries do not)
    zoom = "el => el.cctRenderer.transform.k"
    k0 = view.evaluate(zoom)
    for _ in range(3):
        page.mouse.wheel(0, -200)
        page.wait_for_timeout(300)
    page.mouse.down()
    page.mouse.move(cx + 80, cy + 30, steps=8)
    page.mouse.up()
    page.wait_for_timeout(1500)  # past the zoom report's delay
    assert view.evaluate(zoom) > k0, "the wheel zoomed the view"
    assert _runs(runs) == before, "a pan or zoom re-ran the cell that depends on the widget"
    # a click selects: marimo re-runs the dependent cell, which sees the selection
    node = view.locator('.cct-nodes .cct-node[data-id="1"]')
    node.click()
    page.get_by_text("selected: 1").wait_for()
    assert _runs(runs) > before
    # the tree's keys: Escape clears the selection, in Python too (the dependent cell sees it)
    page.keyboard.press("Escape")
    page.get_by_text("selected: 0").wait_for()
    assert view.locator(".cct-nodes .cct-node.cct-selected").count() == 0
    # Python → view: the button's handler selects in the kernel, the view shows it
    page.get_by_role("button", name="select PMPI_Init").click()
    selected = view.locator(".cct-nodes .cct-node.cct-selected")
    selected.first.wait_for()
    assert selected.count() == 1
    assert (selected.first.get_attribute("aria-label") or "").startswith("PMPI_Init")
    downloads_svg_and_png(page, view)


def test_marimo_dark_mode_darkens_the_view(tmp_path: Path, page: Any) -> None:
    config = tmp_path / "config" / "marimo"
    config.mkdir(parents=True)
    (config / "marimo.toml").write_text('[display]\ntheme = "dark"\n')
    with _serve(tmp_path, {"XDG_CONFIG_HOME": str(tmp_path / "config")}) as (url, _runs):
        page.goto(url)
        view = page.locator(".cctviz").first
        _drawn(view, tmp_path)
        theme, background, text = view.evaluate(
            "el => [el.dataset.cctTheme, getComputedStyle(el).backgroundColor,"
            " getComputedStyle(el).color]"
        )
        assert theme == "dark"
        assert background == "rgb(17, 17, 17)" and text == "rgb(224, 224, 224)"
