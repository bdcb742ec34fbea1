"""What else changed where a metric changed: the metadata columns whose values differ between the
runs before a change and the runs after it (of the same configuration), best separators first.

A column's **separation** is one minus the share of runs whose value also occurs on the other
side (1: no value is on both sides); its score divides that by log₂ of the distinct values on
both sides (at least 1), so a column that changes once and stays (a compiler version 12 → 13)
ranks above one that differs in every run (a commit hash, a node list per run), which separates
the sides as well but says less. Columns that separate less than half the runs are left out."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..store.profile import RESERVED
from .trend import TIME_AXES

MIN_SEPARATION = 0.5
TOP = 5  # columns named at most


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, pd.Timestamp):
        return str(value.isoformat())
    return str(value)


def _hashable(values: pd.Series) -> pd.Series:
    try:
        values.nunique()
        return values
    except TypeError:  # lists, dicts: compared as text
        return values.map(repr)


def environment(grouping: Any, cells: tuple[int, int, int]) -> tuple[str, ...]:
    """``column: value before → value after`` for the columns that differ around a change at
    cell ``at`` between cells ``start`` and ``end`` (``cells`` = (start, at, end)), best first."""
    start, at, end = cells
    before, after = grouping.metadata(start, at), grouping.metadata(at, end)
    if before.empty or after.empty:
        return ()
    skip = {grouping.by, *grouping.columns, *RESERVED, *TIME_AXES}
    scored: list[tuple[float, str, str]] = []
    for column in grouping.profiles.columns:
        name = str(column)
        if name in skip:
            continue
        b, a = _hashable(before[column].dropna()), _hashable(after[column].dropna())
        if b.empty or a.empty:
            continue
        shared_b, shared_a = b.isin(set(a)).mean(), a.isin(set(b)).mean()
        separation = 1 - (shared_b + shared_a) / 2
        if separation < MIN_SEPARATION:
            continue
        distinct = b.nunique() + a.nunique()
        score = separation / max(1.0, float(np.log2(distinct)))
        said = f"{name}: {_text(b.iloc[-1])} → {_text(a.iloc[0])}"
        scored.append((-score, name, said))
    return tuple(said for _, _, said in sorted(scored)[:TOP])
