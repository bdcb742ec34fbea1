"""The nodes' names and types: from the dataframe's column (what users see in ``gf.dataframe``)
where it has one and a value, else from the node's frame, whose keys differ by reader. Read
into a :class:`cctviz.core.text_column.TextColumn`, factorised when first needed; a column only
the frames hold (types, often) is read then too."""

from __future__ import annotations

import operator
from itertools import repeat

import numpy as np
import pandas as pd

from ..core.table import Nodes
from ..core.text_column import TextColumn


def text_column(df: pd.DataFrame, column: str, first_row: np.ndarray, nodes: Nodes) -> TextColumn:
    """Each node's text of ``column`` (``first_row``: each node's first dataframe row, -1 for
    none); a node without a value (no row, None, NaN) takes its frame's."""
    n = len(nodes)
    if column not in df.columns:  # every node's from its frame, when first read
        return TextColumn(
            lambda rows: from_frames(nodes if rows is None else [nodes[i] for i in rows], column)
        )
    # a copy of the column's references, taken now: a later change to the dataframe does
    # not change what the picture shows. A frame of one row per node is copied as it is and
    # put in node order when read (1M names: a copy 0.03 s, in node order 0.13 s: most
    # pictures read a few thousand); a frame of rows per rank is put in node order now (a
    # copy of every row would hold ranks × nodes references).
    cells = df[column].to_numpy(dtype=object)
    if cells.shape[0] <= n:
        snapshot, at_row = cells.copy(), first_row
    else:
        snapshot, at_row = _in_node_order(cells, first_row), np.arange(n)

    def read(rows: np.ndarray | None) -> np.ndarray:
        chosen = _in_node_order(snapshot, at_row if rows is None else at_row[rows])
        # all text (a C-level type check): none is missing; else look (isna tests every kind
        # of missing value: ~0.3 s at 1M)
        if pd.api.types.infer_dtype(chosen, skipna=False) == "string":
            return chosen
        missing = np.flatnonzero(pd.isna(chosen))
        ids = missing if rows is None else rows[missing]
        chosen[missing] = from_frames([nodes[i] for i in ids.tolist()], column)
        return chosen

    return TextColumn(read)


def _in_node_order(cells: np.ndarray, first_row: np.ndarray) -> np.ndarray:
    """``cells`` at each of ``first_row`` (a node's row; None where -1: no row)."""
    have = first_row >= 0
    if have.all():
        return cells[first_row]
    values = np.full(first_row.shape[0], None, dtype=object)
    values[have] = cells[first_row[have]]
    return values


def from_frames(chosen: Nodes, column: str) -> np.ndarray:
    """The ``column`` attribute of the frames of ``chosen`` nodes (a node whose frame has no
    name shows as its frame), as an object array."""
    try:  # the frames' attribute dicts read in one pass (C-level getters)
        attrs = list(map(_ATTRS, chosen))
    except AttributeError:  # a frame of another kind: node by node
        attrs = [getattr(getattr(nd, "frame", None), "attrs", None) for nd in chosen]
    try:  # dict.get over every frame at C speed (1M nodes: ~0.08 s against ~0.4 s)
        got = list(map(dict.get, attrs, repeat(column)))
    except TypeError:  # some frame keeps no dict: those read as missing
        got = [a.get(column) if type(a) is dict else None for a in attrs]
    if column == "name":  # a frame without a name shows as the frame
        got = [str(f.frame) if v is None else v for v, f in zip(got, chosen, strict=True)]
    values = np.empty(len(got), dtype=object)
    values[:] = got
    return values


_ATTRS = operator.attrgetter("frame.attrs")  # both distributions' Frame keeps a dict here
