"""The Python package imports only downwards, in the order ``cctviz/layers.py`` declares, and no
modules import each other in a circle (issue 55): every import of every module is read from its
syntax tree, imports inside functions included and ``if TYPE_CHECKING:`` ones left out, as
``js/test/layers.test.js`` does for the front end. A planted upward import and a planted circle
are found, so the checks can fail."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cctviz.layers import KNOWN, LAYERS, layer_of

PACKAGE = Path(__file__).resolve().parents[1] / "cctviz"


def _modules(root: Path = PACKAGE) -> dict[str, str]:
    """Module name (dotted, relative to cctviz; a package by its folder) → its source."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1] or ("__init__",)
        out[".".join(parts)] = path.read_text()
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside.update(id(n) for n in ast.walk(node) if n is not node)
            inside.update(id(n) for n in node.orelse)
    return inside


def _imports(name: str, source: str, modules: dict[str, str]) -> set[str]:
    """The modules of ``modules`` that module ``name`` imports (a name taken from a package is
    the package; a submodule named in ``from package import submodule`` is the submodule)."""
    tree = ast.parse(source)
    skip = _type_checking_nodes(tree)
    is_package = name == "__init__" or f"{name}.__init__" in modules or _is_package(name)
    here = [] if name == "__init__" else name.split(".")
    package = here if is_package else here[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module and node.module.split(".")[0] == "cctviz":
                target = node.module.removeprefix("cctviz").removeprefix(".")
            else:
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}" if target else alias.name
                out.add(full if full in modules else (target or "__init__"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "cctviz":
                    out.add(alias.name.removeprefix("cctviz").removeprefix(".") or "__init__")
    return {m for m in out if m in modules and m != name}


def _is_package(name: str) -> bool:
    return (PACKAGE / Path(*name.split(".")) / "__init__.py").exists()


def _graph(modules: dict[str, str]) -> dict[str, set[str]]:
    return {name: _imports(name, source, modules) for name, source in modules.items()}


def _upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(a, b) for a, bs in graph.items() for b in bs if layer_of(b) > layer_of(a)}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _in_circles(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports that close a circle: both ends in one strongly connected component."""
    out = set()
    for part in _circles(graph):
        members = set(part)
        out |= {(a, b) for a in part for b in graph[a] if b in members}
    return out


def test_every_module_is_in_a_declared_layer() -> None:
    modules = _modules()
    assert len(modules) > 100
    assert [m for m in modules if layer_of(m) < 0] == []
    names = [name for name, _says, _members in LAYERS]
    assert len(set(names)) == len(names)


def test_no_import_goes_up_and_no_circle() -> None:
    graph = _graph(_modules())
    wrong = {
        f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})"
        for a, b in _upward(graph)
        if (a, b) not in KNOWN
    }
    assert sorted(wrong) == []
    circles = [c for c in _circles(graph) if any(e not in KNOWN for e in _in_circles(graph))]
    assert circles == []
    # a known exception that no longer happens leaves the list
    gone = [pair for pair in KNOWN if pair not in _upward(graph) | _in_circles(graph)]
    assert gone == []


def test_no_module_takes_a_name_from_a_package_init() -> None:
    """Modules inside the package import the module that defines a name, not a package's
    ``__init__`` (which would load the whole package, and hides where the name lives)."""
    modules = _modules()
    packages = {m for m in modules if _is_package(m)}
    wrong = sorted(
        f"{name} imports {target}"
        for name, targets in _graph(modules).items()
        if name not in packages or name == "__init__"
        for target in targets
        if target in packages and not name.startswith(target + ".") and name != "__init__"
    )
    assert wrong == []


@pytest.mark.parametrize(
    ("planted", "found"),
    [
        # the store importing the widget: up several layers
        (
            {"ensemble.store.store": "from ...widget.cct import CCT\n"},
            "ensemble.store.store (ensemble store) imports widget.cct (widget)",
        ),
        # the store importing an engine: up one layer inside the ensemble
        (
            {"ensemble.store.commit": "from ..engine.where import check\n"},
            "ensemble.store.commit (ensemble store) imports ensemble.engine.where",
        ),
        # inside a function counts
        (
            {
                "core.table": "def f():\n    from ..view.lod import LevelOfDetail\n"
                "    return LevelOfDetail\n"
            },
            "core.table (core) imports view.lod (view)",
        ),
    ],
)
def test_a_planted_upward_import_is_found(planted: dict[str, str], found: str) -> None:
    modules = _modules()
    for name, line in planted.items():
        modules[name] = line + modules[name]
    wrong = [f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})"
             for a, b in _upward(_graph(modules))]  # fmt: skip
    assert any(w.startswith(found) for w in wrong), wrong


def test_a_planted_circle_is_found_and_type_checking_imports_are_not() -> None:
    modules = _modules()
    modules["core.callpath"] = "from .markdown import text\n" + modules["core.callpath"]
    modules["core.markdown"] = "from .callpath import name_path\n" + modules["core.markdown"]
    assert ["core.callpath", "core.markdown"] in _circles(_graph(modules))
    only_types = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..widget.cct import CCT\n"
    )
    modules = _modules()
    modules["core.table"] = only_types + modules["core.table"]
    assert ("core.table", "widget.cct") not in _upward(_graph(modules))
