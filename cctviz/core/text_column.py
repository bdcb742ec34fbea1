"""A text column of the node table (names, types): each node's text as int32 codes into a list
of distinct strings, factorised when first read. A level-of-detail picture reads only its drawn
nodes' text (``at``), so a 1M-node profile with a million distinct names draws without hashing
them all first (~0.6 s); what needs every node's (search, the table pane) factorises once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

Reader = Callable[[np.ndarray | None], np.ndarray]
"""Rows (None: all) → their texts as an object array (str, or what ``str`` shows)."""


class TextColumn:
    """One text per node: ``codes`` (int32) into ``table`` (distinct strings)."""

    __slots__ = ("_full", "_read")

    def __init__(self, read: Reader | None, full: tuple[np.ndarray, list[str]] | None = None):
        """``read``: how to read the texts when first needed; or ``full``: (codes, table)."""
        self._read = read
        self._full = full

    @classmethod
    def of(cls, codes: np.ndarray, table: list[str]) -> TextColumn:
        """A column already factorised."""
        return cls(None, (np.asarray(codes, dtype=np.int32), list(table)))

    def _factorised(self) -> tuple[np.ndarray, list[str]]:
        if self._full is None:
            assert self._read is not None
            self._full = factorise(self._read(None))
            self._read = None  # what it read from (a dataframe column, frames) can go
        return self._full

    @property
    def factorised(self) -> bool:
        """Every node's text has been read and factorised."""
        return self._full is not None

    @property
    def codes(self) -> np.ndarray:
        """Each node's code into ``table`` (int32)."""
        return self._factorised()[0]

    @property
    def table(self) -> list[str]:
        """The distinct texts."""
        return self._factorised()[1]

    def __eq__(self, other: object) -> bool:
        """Equal texts node by node, with equal codes into equal tables."""
        if not isinstance(other, TextColumn):
            return NotImplemented
        return self.table == other.table and np.array_equal(self.codes, other.codes)

    __hash__ = None  # type: ignore[assignment]  # mutable in effect (read on first use)

    def at(self, rows: np.ndarray) -> tuple[np.ndarray, list[str]]:
        """The texts of ``rows`` as (codes, distinct texts), those of these rows only; without
        factorising every node's when the column has not been yet."""
        if self._full is None:
            assert self._read is not None
            return factorise(self._read(np.asarray(rows, dtype=np.int64)))
        codes, table = self._full
        used, code = np.unique(codes[rows], return_inverse=True)
        return code.astype(np.int32).reshape(-1), [table[i] for i in used.tolist()]


def factorise(values: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Texts (an object array) as (int32 codes, distinct strings in order of first use); None
    is shown as "" and any other non-text value as ``str`` shows it."""
    n = len(values)
    codes, uniques = pd.factorize(values, use_na_sentinel=False)
    if n and not np.array_equal(np.asarray(uniques, dtype=object)[codes], values):
        # pandas hashes strings as UTF-8 and takes text with lone surrogates ("\ud800") for
        # other text; checked above (one comparison a node), a dict tells them apart
        seen: dict[Any, int] = {}
        codes = np.fromiter((seen.setdefault(v, len(seen)) for v in values), np.int64, n)
        uniques = list(seen)
    if pd.api.types.infer_dtype(uniques, skipna=False) == "string":  # all str: as they are
        return codes.astype(np.int32), list(uniques)
    return codes.astype(np.int32), ["" if u is None else str(u) for u in uniques]
