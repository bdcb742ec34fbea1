"""cctviz: interactive, bivariate calling context trees of Hatchet profiles in Jupyter."""

from . import examples
from ._version import __version__
from .adapters import from_graphframe
from .compare import compare_frame
from .headless import export
from .link import Link, link
from .table import Metric, NodeTable, UnknownMetricError
from .widget import CCT, show
from .widget.compare_view import Compare, compare

__all__ = [
    "CCT",
    "Compare",
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
    "show",
]
