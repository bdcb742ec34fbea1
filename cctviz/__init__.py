"""cctviz: interactive, bivariate calling context trees of Hatchet profiles in Jupyter.

``import cctviz`` imports nothing else: each public name is imported on first use (module
``__getattr__``, PEP 562), so a script that reads profiles does not load the widget's stack
(anywidget, ipywidgets, IPython) and one that shows a profile does not load the ensemble's
(DuckDB, pyarrow, Delta Lake). ``tests/test_import.py`` checks what ``import cctviz`` loads."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ._version import __version__

if TYPE_CHECKING:  # what type checkers and editors see; at run time: ``__getattr__`` below
    from . import examples
    from .adapters import from_graphframe
    from .adapters.formats.read import read
    from .analysis.compare import compare_frame
    from .analysis.link import Link, link
    from .core.table import Metric, NodeTable, UnknownMetricError
    from .ensemble import Ensemble
    from .headless import export
    from .widget import CCT, show
    from .widget.compare_view import Compare, compare

__all__ = [
    "CCT",
    "Compare",
    "Ensemble",
    "Link",
    "Metric",
    "NodeTable",
    "UnknownMetricError",
    "__version__",
    "compare",
    "compare_frame",
    "examples",
    "export",
    "from_graphframe",
    "link",
    "read",
    "show",
]

# each public name → the module that defines it
_HOME = {
    "CCT": ".widget",
    "show": ".widget",
    "Compare": ".widget.compare_view",
    "compare": ".widget.compare_view",
    "Link": ".analysis.link",
    "link": ".analysis.link",
    "Metric": ".core.table",
    "NodeTable": ".core.table",
    "UnknownMetricError": ".core.table",
    "compare_frame": ".analysis.compare",
    "export": ".headless",
    "from_graphframe": ".adapters",
    "read": ".adapters.formats.read",
}
# subpackages reachable as attributes after ``import cctviz`` alone (``cctviz.examples.load``)
_SUBMODULES = {
    "adapters",
    "analysis",
    "core",
    "ensemble",
    "examples",
    "figure",
    "headless",
    "layers",
    "view",
    "widget",
}


def __getattr__(name: str) -> object:
    """A public name or subpackage, imported on first use. ``cctviz.Ensemble`` needs the
    ``ensemble`` extra (DuckDB, pyarrow), which a single-profile user may not have installed."""
    if name == "Ensemble":
        try:
            from .ensemble import Ensemble
        except ImportError as error:
            raise ImportError(
                f"cctviz.Ensemble needs {error.name or 'DuckDB and pyarrow'}: "
                "pip install 'cctviz[ensemble]' (or 'cctviz[dask]' for Dask clusters)"
            ) from error
        return Ensemble
    if name in _HOME:
        value = getattr(importlib.import_module(_HOME[name], __name__), name)
        globals()[name] = value  # the next use is a plain attribute
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'cctviz' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_SUBMODULES})
