"""Values of many nodes along a metadata axis, as numbers: the common ground of trends and change
points. The engine streams (node key, profile, value) rows as Arrow batches; each batch is mapped
to (node row, axis position) by hash lookups (Arrow's for the nodes, a kept pandas index for
the profiles), so neither a join on the profiles' text ids
nor a table of the ensemble's size is ever made (5 × 10⁷ values: a few seconds, well under 1 GB).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..store.ids import codes

if TYPE_CHECKING:
    from ..ensemble import Ensemble

CHUNK = 1 << 20  # values mapped at once


@dataclass(frozen=True, eq=False)
class Axis:
    """The distinct values of a metadata column over the selected profiles (sorted), each
    profile's position among them, and the first profile at each position."""

    values: np.ndarray
    profiles: np.ndarray
    position: np.ndarray
    first: np.ndarray
    _codes: list[np.ndarray] = field(default_factory=list, repr=False)
    _lookups: dict[bool, pd.Index] = field(default_factory=dict, repr=False)

    @property
    def unique(self) -> bool:
        """One profile per value of the axis (a nightly series): nothing to combine."""
        return len(self.values) == len(self.profiles)

    @property
    def codes(self) -> np.ndarray:
        """The profiles' codes (cctviz.ensemble.store.ids), computed once per axis."""
        if not self._codes:
            self._codes.append(codes(self.profiles))
        return self._codes[0]

    def lookup(self, coded: bool) -> pd.Index:
        """The profiles by code (``coded``) or by id, as an index whose hash table pandas
        builds at its first lookup and keeps: a trend pane's clicks look 10⁵ profiles up in
        a few milliseconds, not the tens an Arrow value set built anew for each costs."""
        if coded not in self._lookups:
            ids = self.codes if coded else np.asarray(self.profiles).astype(str)
            self._lookups[coded] = pd.Index(ids)
        return self._lookups[coded]


# the last axis made, with the frame it was made of: a trend pane's clicks make the same axis of
# the engine's own (unchanging, cached) profiles frame again and again
_LAST: list[tuple[pd.DataFrame, str, Axis]] = []


def axis_of(profiles: pd.DataFrame, by: str) -> Axis:
    if _LAST and _LAST[0][0] is profiles and _LAST[0][1] == by:
        return _LAST[0][2]
    column = profiles[[by]].dropna().sort_values(by, kind="stable")
    values, position = np.unique(column[by].to_numpy(), return_inverse=True)
    # sorted by the axis: the first profile of each value is where its position first occurs
    ids = column.index.to_numpy()
    first = ids[np.unique(position, return_index=True)[1]]
    axis = Axis(values, ids, np.asarray(position, np.int64), first)
    _LAST[:] = [(profiles, by, axis)]
    return axis


def cells(
    ens: Ensemble, metric: str, keys: np.ndarray, axis: Axis, nodes: tuple[str, ...] = ("TRUE",)
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per chunk of about a million values: the row of each value's node in ``keys``, its axis
    position and the value; values of other nodes or of profiles off the axis are left out.
    ``nodes``: SQL conditions on ``key`` and ``parent`` that let the engine skip row groups."""
    return cells_of(ens._engine().batches(metric, ens._where, nodes), keys, axis)


def cells_of(
    batches: Iterator[Any], keys: np.ndarray, axis: Axis
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``cells`` of the values ``batches`` streams (Arrow record batches of key, profile and
    value: an engine's, or a share of them on a worker; the profile as its id, or as its code
    where the store has codes: cctviz.ensemble.store.ids)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    # the nodes by Arrow's hash lookup (a few keys); the profiles by the axis' kept index
    key_set = pa.array(np.asarray(keys, np.int64))
    held: list[Any] = []
    size = 0

    def mapped() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        table = pa.Table.from_batches(held).combine_chunks()
        found = pc.index_in(table.column(0), value_set=key_set)
        row = found.fill_null(-1).to_numpy().astype(np.int64)
        column = table.column(1)
        if pa.types.is_integer(column.type):  # codes: looked up as integers
            got = axis.lookup(True).get_indexer(column.to_numpy())
            profile = np.asarray(got, np.int64)
        else:  # the ids repeat: their dictionary is looked up, not every row
            encoded = column.dictionary_encode().chunk(0)
            got = axis.lookup(False).get_indexer(encoded.dictionary.to_numpy(zero_copy_only=False))
            profile = np.asarray(got, np.int64)[encoded.indices.to_numpy(zero_copy_only=False)]
        keep = (row >= 0) & (profile >= 0)
        value = table.column(2).to_numpy()
        return row[keep], axis.position[profile[keep]], np.asarray(value[keep], np.float64)

    for batch in batches:
        held.append(batch)
        size += batch.num_rows
        if size >= CHUNK:
            yield mapped()
            held, size = [], 0
    if held:
        yield mapped()


def matrix(
    ens: Ensemble, metric: str, keys: np.ndarray, axis: Axis, nodes: tuple[str, ...] = ("TRUE",)
) -> np.ndarray:
    """Nodes × axis positions: the value, the median of the profiles sharing a position, NaN
    where no profile there holds the node."""
    return matrix_of(ens._engine().batches(metric, ens._where, nodes), keys, axis)


def matrix_of(batches: Iterator[Any], keys: np.ndarray, axis: Axis) -> np.ndarray:
    """``matrix`` of the values ``batches`` streams."""
    out = np.full((len(keys), len(axis.values)), np.nan)
    width = len(axis.values)
    if axis.unique:
        for row, col, value in cells_of(batches, keys, axis):
            out[row, col] = value
        return out
    flats, values = [], []
    for row, col, value in cells_of(batches, keys, axis):
        flats.append(row * width + col)
        values.append(value)
    if flats:
        med = pd.Series(np.concatenate(values)).groupby(np.concatenate(flats)).median()
        at = med.index.to_numpy(np.int64)
        out[at // width, at % width] = med.to_numpy()
    return out
