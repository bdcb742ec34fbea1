"""docs/modules.md is the module map as the modules describe themselves (scripts/module_map.py)."""

from __future__ import annotations

import importlib.util
import pathlib
from typing import Any

REPO = pathlib.Path(__file__).resolve().parent.parent


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("module_map", REPO / "scripts/module_map.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_module_map_is_current() -> None:
    script = _script()
    written = script.OUT.read_text(encoding="utf-8") if script.OUT.is_file() else ""
    assert written == script.current(), (
        "docs/modules.md does not match the modules' own descriptions: "
        "run `.venv/bin/python scripts/module_map.py` and commit the result"
    )


def test_module_map_names_every_source_module() -> None:
    written = (REPO / "docs/modules.md").read_text(encoding="utf-8")
    for path in [*(REPO / "js/src").rglob("*.js"), *(REPO / "cctviz").rglob("*.py")]:
        # a module in a layer's sub-folder is named by its path there ("legend/wrap-text.js")
        named = (f"| `{path.name}` |", f"/{path.name}` |")
        assert any(n in written for n in named), path
    # the front end's folders in their layer order
    order = ["cct/base", "cct/data", "cct/picture", "cct/state", "cct/draw", "cct/view"]
    at = [written.index(f"### `js/src/{folder}`") for folder in order]
    assert at == sorted(at)


def test_first_sentence() -> None:
    first = _script().first_sentence
    assert (
        first("Shares of totals: a value, e.g. a time. Then more.\n\nOther")
        == "Shares of totals: a value, e.g. a time."
    )
    assert first("One line\nwrapped. Second") == "One line wrapped."
    assert first("a | b") == "a \\| b"
