"""The anywidget classes of cctviz."""

from .cct import CCT, show
from .ensemble import explain  # noqa: F401  (registers the compare view of a change's explanation)

__all__ = ["CCT", "show"]
