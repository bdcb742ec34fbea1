"""The notebooks the documentation site shows, executed: ``build/docs-notebooks/<name>.ipynb``.

``tests/test_notebooks.py`` writes them as it runs each notebook (so ``scripts/test.sh`` executes
each once); this script executes those missing or older than their source, then
``mkdocs build`` renders them as they are (``docs/notebooks`` links to that folder)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "notebooks"
EXECUTED = ROOT / "build" / "docs-notebooks"


def execute(path: Path, out: Path) -> None:
    """Runs the notebook ``path`` in a temporary folder and writes it, outputs included, to
    ``out``; raises with the failing cell's traceback."""
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory() as work:
        nbclient.NotebookClient(
            notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": work}}
        ).execute()
    save(notebook, out)


def save(notebook: object, out: Path) -> None:
    import nbformat

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".partial")
    nbformat.write(notebook, tmp)
    tmp.replace(out)


def main() -> int:
    for path in sorted(SOURCE.glob("*.ipynb")):
        out = EXECUTED / path.name
        if out.exists() and out.stat().st_mtime >= path.stat().st_mtime:
            continue
        print(f"executing {path.relative_to(ROOT)}", flush=True)
        execute(path, out)
    stale = {p.name for p in EXECUTED.glob("*.ipynb")} - {p.name for p in SOURCE.glob("*.ipynb")}
    for name in stale:  # a notebook removed or renamed since
        (EXECUTED / name).unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
