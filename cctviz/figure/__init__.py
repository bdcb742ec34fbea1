"""Static figures of a view: SVG, PDF and PNG, drawn by the widget's own renderer."""

from .browser import BrowserUnavailableError
from .headless import export
from .render import FORMATS, STYLES

__all__ = ["FORMATS", "STYLES", "BrowserUnavailableError", "export"]
