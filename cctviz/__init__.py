"""cctviz: interactive, bivariate calling context trees of Hatchet profiles in Jupyter."""

from . import examples
from ._version import __version__
from .adapters import from_graphframe
from .adapters.formats.read import read
from .analysis.compare import compare_frame
from .analysis.link import Link, link
from .core.table import Metric, NodeTable, UnknownMetricError
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


def __getattr__(name: str) -> object:
    """``cctviz.Ensemble`` is imported on first use: it needs the ``ensemble`` extra (DuckDB,
    pyarrow), which a single-profile user may not have installed."""
    if name == "Ensemble":
        try:
            from .ensemble import Ensemble
        except ImportError as error:
            raise ImportError(
                f"cctviz.Ensemble needs {error.name or 'DuckDB and pyarrow'}: "
                "pip install 'cctviz[ensemble]' (or 'cctviz[dask]' for Dask clusters)"
            ) from error
        return Ensemble
    raise AttributeError(f"module 'cctviz' has no attribute {name!r}")
