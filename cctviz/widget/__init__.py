"""The anywidget classes of cctviz."""

from .cct import CCT, show

__all__ = ["CCT", "show"]
