"""Input adapters: each turns one kind of accepted input into a
:class:`cctviz.core.table.NodeTable`."""

from .graphframe import from_graphframe

__all__ = ["from_graphframe"]
