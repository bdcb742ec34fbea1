"""Static figures of a view: SVG, PDF and PNG, drawn by the widget's own renderer.

Figures read a ``ViewSnapshot`` (``CCT`` makes one); nothing here knows the widget."""

from .browser import BrowserUnavailableError
from .of_view import FIGURE_OPTIONS, Figure, figure_of
from .render import FORMATS, STYLES
from .snapshot import ViewSnapshot

__all__ = [
    "FIGURE_OPTIONS",
    "FORMATS",
    "STYLES",
    "BrowserUnavailableError",
    "Figure",
    "ViewSnapshot",
    "figure_of",
]
