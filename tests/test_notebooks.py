"""Every example notebook runs top to bottom on its bundled real data (no browser needed). Each
executed notebook is kept for the documentation site (scripts/docs_notebooks.py: the site shows
them executed, without running them a second time)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, if a cell fails
    widgets = [
        o
        for c in notebook.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert widgets, f"{path.name} shows no cctviz widget"
    # no warning (a Dask worker's log line, a deprecation) in what a reader of the site sees
    noise = [
        "".join(o.get("text", ""))[:200]
        for c in notebook.cells
        for o in c.get("outputs", [])
        if o.get("output_type") == "stream" and o.get("name") == "stderr"
    ]
    assert not noise, f"{path.name} prints on stderr: {noise}"
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from docs_notebooks import EXECUTED, save
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    save(notebook, EXECUTED / path.name)


def test_there_are_notebooks() -> None:
    assert {p.name for p in NOTEBOOKS} >= {"quickstart.ipynb", "selections.ipynb"}
