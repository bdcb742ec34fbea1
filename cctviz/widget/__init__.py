"""The anywidget classes of cctviz."""

from . import explain  # noqa: F401  (registers the compare view of a change's explanation)
from .cct import CCT, show

__all__ = ["CCT", "show"]
