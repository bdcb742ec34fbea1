"""The runs of an ensemble as series: one per configuration, each ordered along the axis. The
cells of the matrix ``cctviz.ensemble.analysis.series`` reads are (configuration, value of the axis,
value of the ``across`` columns), sorted in that order, so each configuration's series is one
contiguous range of columns (``bounds``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from . import segments as sg
from . import series as se


@dataclass(frozen=True)
class Grouping:
    """The cells of the series and what each holds."""

    axis: se.Axis
    """Cell per profile (``position``), the axis value of each cell (``values``), its first
    profile (``first``)."""
    bounds: list[tuple[int, int]]
    """Per configuration: its first cell and the cell after its last."""
    configs: list[dict[str, Any]]
    """Per configuration: the values of its columns."""
    last: np.ndarray
    """The last profile of each cell."""
    across: np.ndarray | None
    """Per cell: the code of its ``across`` values (None: no ``across``)."""
    profiles: pd.DataFrame
    """The profiles' metadata, in the axis' order."""
    by: str
    columns: tuple[str, ...]
    """The configuration columns."""

    def runs(self, start: int, end: int) -> int:
        """The profiles of cells ``start`` to ``end`` − 1."""
        return int(((self.axis.position >= start) & (self.axis.position < end)).sum())

    def metadata(self, start: int, end: int) -> pd.DataFrame:
        """The metadata of the profiles of cells ``start`` to ``end`` − 1, along the axis."""
        inside = (self.axis.position >= start) & (self.axis.position < end)
        return self.profiles.iloc[np.flatnonzero(inside)]

    def series(self, raw: np.ndarray) -> np.ndarray:
        """``raw`` (nodes × cells, NaN where a node is not in a cell) as series: gaps filled
        within each configuration, ``across`` values scaled to their configuration's level."""
        out = np.empty_like(raw)
        for lo, hi in self.bounds:
            out[:, lo:hi] = sg.filled(raw[:, lo:hi])
            if self.across is not None:
                out[:, lo:hi] = _levelled(out[:, lo:hi], self.across[lo:hi])
        return out


def _levelled(x: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Each code's runs × (the node's median over all runs ÷ its median over the code's runs)."""
    out: np.ndarray = np.array(x, np.float64)
    with np.errstate(all="ignore"):
        level = np.nanmedian(x, axis=1)
        for code in np.unique(codes):
            cols = codes == code
            own = np.nanmedian(x[:, cols], axis=1)
            scale = np.where(own != 0, level / own, 1.0)
            out[:, cols] = x[:, cols] * np.nan_to_num(scale, nan=1.0)[:, None]
    return out


def _codes(column: pd.Series) -> np.ndarray:
    """Codes of a column's values in their sorted order (missing last); unsortable mixes of types
    in the order they come."""
    try:
        codes, _ = pd.factorize(column, sort=True, use_na_sentinel=False)
    except TypeError:
        codes, _ = pd.factorize(column.astype(str), sort=True, use_na_sentinel=False)
    return np.asarray(codes, np.int64)


def group(
    profiles: pd.DataFrame, by: str, columns: Sequence[str], across: Sequence[str] = ()
) -> Grouping:
    """The series of ``profiles`` (those with a value of ``by``) split by ``columns``."""
    held = profiles.loc[profiles[by].notna()]
    axis_codes = _codes(held[by])
    config = np.zeros(len(held), np.int64)
    for name in columns:
        c = _codes(held[name])
        config = config * (int(c.max(initial=0)) + 1) + c
    config = np.unique(config, return_inverse=True)[1].reshape(-1)
    extra = np.zeros(len(held), np.int64)
    for name in across:
        c = _codes(held[name])
        extra = extra * (int(c.max(initial=0)) + 1) + c
    order = np.lexsort((extra, axis_codes, config))
    ordered = held.iloc[order]
    keys = np.stack([config[order], axis_codes[order], extra[order]], axis=1)
    new_cell = np.ones(len(keys), bool)
    new_cell[1:] = (np.diff(keys, axis=0) != 0).any(axis=1)
    position = np.cumsum(new_cell) - 1
    starts = np.flatnonzero(new_cell)
    ends = np.r_[starts[1:], len(keys)]
    ids = ordered.index.to_numpy()
    axis = se.Axis(ordered[by].to_numpy()[starts], ids, position.astype(np.int64), ids[starts])
    cell_config = config[order][starts]
    first_cells = np.flatnonzero(np.r_[True, np.diff(cell_config) != 0])
    bounds = list(zip(first_cells.tolist(), [*first_cells[1:].tolist(), len(starts)], strict=True))
    configs = [
        {name: _plain(ordered[name].iloc[starts[lo]]) for name in columns} for lo, _ in bounds
    ]
    return Grouping(
        axis=axis,
        bounds=bounds,
        configs=configs,
        last=ids[ends - 1],
        across=extra[order][starts] if across else None,
        profiles=ordered,
        by=by,
        columns=tuple(columns),
    )


def _plain(value: Any) -> Any:
    """A metadata value as plain Python (numpy scalars are not JSON)."""
    if isinstance(value, np.generic):
        return value.item()
    return None if value is pd.NaT or (isinstance(value, float) and np.isnan(value)) else value
