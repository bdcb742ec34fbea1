"""Every Python block of the documentation site's pages runs as it is (issue 59), in order, one
namespace per page, in a fresh folder. A page may say, in an HTML comment ``<!-- setup ... -->``
the reader does not see, what its blocks take as given (``gf``, a second run, a store of
runs). A block that cannot run here says so on its first line (``# not run here: <why>``): a
SLURM cluster, for one; a block for one Hatchet distribution names what it needs
(``# needs thicket``) and runs where that is installed."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```|<!-- setup\n(.*?)-->", re.S | re.M)
SKIP = "# not run here:"
NEEDS = "# needs "
PAGES = sorted(
    p
    for p in DOCS.rglob("*.md")
    if "notebooks" not in p.parts and any(m.group(1) for m in BLOCK.finditer(p.read_text()))
)


def blocks(page: Path) -> list[tuple[str, str]]:
    """The page's code in order: ("setup", code) and ("block", code)."""
    return [
        ("setup", m.group(2)) if m.group(2) is not None else ("block", m.group(1))
        for m in BLOCK.finditer(page.read_text(encoding="utf-8"))
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_every_block_of_the_page_runs(page: Path, tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    here = os.getcwd()
    os.chdir(tmp_path)  # what a block writes (figures, stores) lands here
    names: dict[str, object] = {
        "__name__": "__docs__",
        "EXAMPLES": ROOT / "cctviz" / "examples",
        "importlib": importlib,
    }
    try:
        for i, (kind, code) in enumerate(blocks(page)):
            first = code.lstrip().split("\n", 1)[0]
            if first.startswith(SKIP):
                continue
            if (
                first.startswith(NEEDS)
                and importlib.util.find_spec(first[len(NEEDS) :].strip()) is None
            ):
                continue
            where = f"{page.relative_to(ROOT)}, {kind} {i + 1}"
            exec(compile(code, where, "exec"), names)
    finally:
        os.chdir(here)
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_pages_with_code_are_found() -> None:
    found = {str(p.relative_to(DOCS)) for p in PAGES}
    assert {"index.md", "guide/scripting.md", "guide/ensembles.md"} <= found
    # and a block that cannot run says why, on its first line
    for page in PAGES:
        for _, code in blocks(page):
            first = code.lstrip().splitlines()[0] if code.strip() else ""
            if first.startswith("# not run"):
                assert first.startswith(SKIP) and len(first) > len(SKIP) + 5, (page, first)
