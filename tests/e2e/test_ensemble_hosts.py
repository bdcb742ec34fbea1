"""End to end, the ensemble view in the other front ends (issue 59): Notebook 7, the classic
Notebook (nbclassic), Voilà and marimo, as ``test_ensemble.py`` and ``test_trend.py`` do in
JupyterLab. In each, the profile strip draws every profile; brushing it sets ``w.where`` in the
kernel, which reduces the tree over the profiles it covers (the strip marks them); the trend pane
shows the root's series, and a click on a child's chart selects that child in the kernel and in
the tree.

The kernel's state is read the same way in every host: the notebook's cell writes ``where``, the
profiles that pass and the selection to a file each time they change (an observer in the kernel),
and the test reads that file. Voilà and marimo give the page no way to run code in the kernel."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .classic import ClassicNotebook
from .lab import Lab, NotebookPage, brush_strip, serving, shot

pytestmark = pytest.mark.e2e

PROFILES = 60

# the store and the view, and an observer that writes what the kernel holds (atomically)
CELL = """\
import json, os, tempfile
from pathlib import Path
import cctviz
ens = cctviz.examples.ensemble(Path(tempfile.mkdtemp()) / "runs", 60, 80, seed=1)
w = cctviz.CCT(ens)
def _report(_change=None):
    state = {
        "where": w.where,
        "passing": sorted(map(str, w.profiles_selected.index)),
        "expected": sorted(map(str, (ens.where(w.where) if w.where else ens).profiles.index)),
        "selection": [int(i) for i in w.selection],
        "root": int(w.table.roots[0]),
        "children": [int(i) for i in range(w.table.size) if w.table.parent[i] == w.table.roots[0]],
    }
    Path(STATE + ".part").write_text(json.dumps(state))
    os.replace(STATE + ".part", STATE)
w.observe(_report, names=["where", "selection", "_strip"])
_report()
"""
SHOW = "w\n"  # a notebook shows the cell's last value

MARIMO = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
CELL
    view = mo.ui.anywidget(w)
    view
    return (view,)


if __name__ == "__main__":
    app.run()
"""


class KernelState:
    """The file the notebook's observer writes: the kernel's ``where``, passing profiles and
    selection, read until they are what a test waits for."""

    def __init__(self, path: Path):
        self.path = path

    def read(self) -> dict[str, Any]:
        return dict(json.loads(self.path.read_text())) if self.path.exists() else {}

    def wait(self, check: Callable[[dict[str, Any]], bool], what: str, timeout_s: float = 30):
        deadline = time.monotonic() + timeout_s
        while True:
            state = self.read()
            if state and check(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"the kernel never had {what}; it has {state}")
            time.sleep(0.2)


def _cell(state: Path) -> str:
    return CELL.replace("STATE", repr(str(state))) + SHOW


def _open_notebook7(lab: Lab, page: Any, state: Path) -> None:
    name = lab.write_notebook("ensemble-nb7.ipynb", [_cell(state)])
    NotebookPage(page, lab, name, notebook7=True).open().run_all()


def _open_nbclassic(lab: Lab, page: Any, state: Path) -> ClassicNotebook:
    name = lab.write_notebook("ensemble-nbclassic.ipynb", [_cell(state)])
    notebook = ClassicNotebook(page, lab, name).open()
    notebook.run_all()
    return notebook


@pytest.fixture(scope="module")
def voila_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    import nbformat  # the test environments without Voilà collect this module too

    folder = tmp_path_factory.mktemp("voila-ensemble")
    state = folder / "state.json"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(_cell(state))]
    nbformat.write(nb, folder / "app.ipynb")
    cmd = [sys.executable, "-m", "voila", "app.ipynb", "--no-browser", "--port={port}",
           "--Voila.ip=127.0.0.1"]  # fmt: skip
    with serving(cmd, folder) as url:
        yield url, state


@pytest.fixture(scope="module")
def marimo_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("marimo-ensemble")
    state = folder / "state.json"
    cell = CELL.replace("STATE", repr(str(state)))
    body = "\n".join("    " + line if line else "" for line in cell.splitlines())
    (folder / "nb.py").write_text(MARIMO.replace("CELL", body))
    cmd = [sys.executable, "-m", "marimo", "run", "nb.py", "--headless",
           "--host", "127.0.0.1", "--port", "{port}"]  # fmt: skip
    with serving(cmd, folder) as url:
        yield url, state


def _count_becomes(view: Any, selector: str, count: int, timeout_s: float = 30) -> None:
    """Locators reach into marimo's shadow root, where document queries do not: poll a count."""
    deadline = time.monotonic() + timeout_s
    while (seen := view.locator(selector).count()) != count:
        assert time.monotonic() < deadline, f"{seen} {selector}, expected {count}"
        time.sleep(0.2)


def _strip_brush_and_trend(page: Any, kernel: KernelState, host: str) -> None:
    """What every host must do with the ensemble view (the module's docstring)."""
    view = page.locator(".cctviz").first
    view.locator(".cct-nodes .cct-node").first.wait_for(timeout=120_000)
    _count_becomes(view, ".cct-profiles circle", PROFILES)
    start = kernel.wait(lambda s: s["where"] == "" and s["selection"] == [], "a fresh view")
    assert len(start["passing"]) == PROFILES
    # the trend pane shows the root's series
    root = start["root"]
    view.locator(f".cct-trend-node[data-id='{root}']").wait_for()

    # the brush: where in the kernel, the tree reduced over exactly the profiles it covers
    brush_strip(page, view)  # a range of launch dates
    brushed = kernel.wait(
        lambda s: (
            s["where"].startswith('"launchdate" BETWEEN')
            and s["passing"] == s["expected"]
            and len(s["passing"]) < PROFILES
        ),
        "a brushed where and the profiles passing it",
    )
    assert 5 < len(brushed["passing"]) < 40
    _count_becomes(view, ".cct-profiles-pass", len(brushed["passing"]))
    assert (
        f"{len(brushed['passing'])} of {PROFILES} profiles pass"
        in view.locator(".cct-profiles").inner_text()
    )
    shot(page, f"{host}-ensemble-brushed")

    # a click on a child's chart in the trend pane: that child selected, in the kernel and the tree
    chart = view.locator(".cct-trend-chart[role='button']").first
    child = int(chart.get_attribute("data-id") or -1)
    assert child in brushed["children"]
    chart.click()
    kernel.wait(lambda s: s["selection"] == [child], f"the selection [{child}]")
    view.locator(f".cct-nodes .cct-node.cct-selected[data-id='{child}']").wait_for()
    view.locator(f".cct-trend-node[data-id='{child}']").wait_for()  # the pane drilled down
    shot(page, f"{host}-ensemble-trend")


def test_notebook7(lab: Lab, page: Any, tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    _open_notebook7(lab, page, state)
    _strip_brush_and_trend(page, KernelState(state), "nb7")


def test_nbclassic(lab: Lab, page: Any, tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    notebook = _open_nbclassic(lab, page, state)
    _strip_brush_and_trend(page, KernelState(state), "nbclassic")
    # Python → view: a where set in the kernel; the strip shows which profiles pass
    notebook.execute("w.where = 'jobsize >= 512'")
    now = KernelState(state).wait(lambda s: s["where"] == "jobsize >= 512", "where from Python")
    _count_becomes(page.locator(".cctviz").first, ".cct-profiles-pass", len(now["passing"]))


def test_voila(voila_app: tuple[str, Path], page: Any) -> None:
    url, state = voila_app
    page.goto(url)
    _strip_brush_and_trend(page, KernelState(state), "voila")


def test_marimo(marimo_app: tuple[str, Path], page: Any) -> None:
    url, state = marimo_app
    page.goto(url)
    _strip_brush_and_trend(page, KernelState(state), "marimo")
