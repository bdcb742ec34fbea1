"""Input adapters: each turns one kind of accepted input into a :class:`cctviz.table.NodeTable`."""

from .graphframe import from_graphframe, to_node_table

__all__ = ["from_graphframe", "to_node_table"]
