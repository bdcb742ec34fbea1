"""Node tables written out in tests (the conformance cases' trees): parents by row in pre-order,
names, and metrics; NaN where a case writes null."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from cctviz.core.table import Metric, NodeTable
from cctviz.core.text_column import TextColumn


def values(column: Sequence[float | None]) -> np.ndarray:
    """A metric column, null as NaN."""
    return np.array([math.nan if v is None else v for v in column], dtype=np.float64)


def node_table(
    parent: Sequence[int], names: Sequence[str], metrics: Mapping[str, Metric]
) -> NodeTable:
    """The table as Python would send it: depth from the parents, names interned."""
    parents = np.asarray(parent, dtype=np.int32)
    depth = np.zeros(parents.shape[0], dtype=np.int32)
    for i, p in enumerate(parents.tolist()):
        depth[i] = 0 if p < 0 else depth[p] + 1
    unique = list(dict.fromkeys(names))
    return NodeTable(
        parent=parents,
        depth=depth,
        name_text=TextColumn.of(np.asarray([unique.index(n) for n in names]), unique),
        type_text=TextColumn.of(np.zeros(parents.shape[0]), ["function"]),
        nodes=[],
        hatchet_nid=np.arange(parents.shape[0], dtype=np.int64),
        metrics=dict(metrics),
    )


def assert_frames_close(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Equal columns and index; numbers to 1e-9 (NaN equal to NaN), the rest as text (two
    engines' answers to the same query)."""
    assert list(a.columns) == list(b.columns) and a.index.tolist() == b.index.tolist()
    for c in a.columns:
        if pd.api.types.is_numeric_dtype(a[c]) and not pd.api.types.is_bool_dtype(a[c]):
            np.testing.assert_allclose(a[c], b[c], rtol=1e-9, atol=0, equal_nan=True, err_msg=c)
        else:
            assert a[c].astype(str).tolist() == b[c].astype(str).tolist(), c
