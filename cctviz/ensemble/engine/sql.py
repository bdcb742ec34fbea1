"""What the DuckDB queries of the store share: the profile filters and their parameters, the
value table's id columns, and the empty relation of a table no add has written yet."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..store.ids import ID_COLUMNS

__all__ = ["BATCH", "EMPTY", "EMPTY_NODES", "ID_COLUMNS", "Filter", "params", "said"]
BATCH = 1 << 20  # rows per batch when values are streamed

EMPTY = {  # a table no add has written yet, as an empty relation with its id columns
    "profiles": "SELECT NULL::VARCHAR AS profile, NULL::VARCHAR AS hash, NULL::VARCHAR AS source, "
    "NULL::BIGINT AS nodes",
    "values": "SELECT NULL::VARCHAR AS profile, NULL::BIGINT AS key, NULL::BIGINT AS parent",
    "ranks": "SELECT NULL::VARCHAR AS profile, NULL::BIGINT AS key, NULL::BIGINT AS rank",
    "nodes": "SELECT NULL::BIGINT AS key, NULL::BIGINT AS parent, NULL::VARCHAR AS name",
    "metrics": "SELECT NULL::VARCHAR AS metric, NULL::VARCHAR AS kind, NULL::VARCHAR AS partner",
    "sums": "SELECT NULL::BIGINT AS key, NULL::VARCHAR AS metric, NULL::BIGINT AS count, "
    "NULL::DOUBLE AS sum, NULL::DOUBLE AS m2, NULL::DOUBLE AS min, NULL::DOUBLE AS max",
}

EMPTY_NODES = pd.DataFrame(
    {"key": np.empty(0, np.int64), "parent": np.empty(0, np.int64), "name": []}
)


Filter = str | tuple[str, ...]
"""A profile filter: a checked condition on the profiles' metadata (cctviz.ensemble.engine.where),
or the ids of the profiles kept (given to DuckDB as a parameter, never as text)."""


def said(where: tuple[Filter, ...]) -> str:
    return " and ".join(w if isinstance(w, str) else f"profile IN ({len(w)} ids)" for w in where)


def params(where: tuple[Filter, ...]) -> dict[str, Any]:
    """The named parameters of ``where``'s id filters."""
    return {f"ids{i}": list(w) for i, w in enumerate(where) if not isinstance(w, str)}
