"""The value table's id columns, and each profile's code: a 64-bit hash of its id written beside
it in every value row (stores written since 2026-11-29).

A trend or a change screen maps every value it reads to its profile's place on an axis. With the
text ids that meant decoding and looking up 10⁵ strings per node (most of a trend's time at 10⁵
runs); the codes are integers, read and looked up as such. A code is derived from the id alone
(BLAKE2b, 8 bytes), so an add needs no coordination with other writers to give one; the engine
uses codes only where every value file has them and no two of the store's profiles share one
(a collision among 10⁵ profiles has a chance near 10⁻¹⁰, and is then simply not relied on)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

CODE = "profile_code"
ID_COLUMNS = ("profile", "key", "parent", CODE)
"""The value table's columns that are no metric: the profile, its code, the node and its parent's
key."""

_MEMO: list[pd.Series] = []  # the ids coded in this process (index) and their codes
_MEMO_MAX = 1 << 22


def code(profile: str) -> int:
    """The code of one profile id (a signed 64-bit integer, as Parquet's int64)."""
    digest = hashlib.blake2b(profile.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True)


def codes(ids: Iterable[object]) -> np.ndarray:
    """The codes of ``ids`` (profile ids), as int64. Those coded before in this process are
    looked up at once (an axis codes the 10⁵ profiles it holds at every trend: ~10 ms)."""
    # (the store's profile ids are text: looked up as they are)
    if isinstance(ids, pd.Index):
        index = ids
    elif isinstance(ids, np.ndarray):
        index = pd.Index(ids.astype(object, copy=False))
    else:
        index = pd.Index(np.asarray(list(ids), dtype=object))
    memo = _MEMO[0] if _MEMO else pd.Series(np.empty(0, np.int64), index=pd.Index([], dtype=object))
    got = memo.reindex(index)
    missing = got.isna().to_numpy()
    if missing.any():
        new = pd.Index(index[missing]).unique()
        fresh = pd.Series(_codes(new), index=new)
        memo = fresh if len(memo) + len(fresh) > _MEMO_MAX else pd.concat([memo, fresh])
        _MEMO[:] = [memo]
        got = memo.reindex(index)
    out: np.ndarray = got.to_numpy(np.int64)
    return out


def _codes(ids: Iterable[object]) -> np.ndarray:
    """``code`` of each id, the digests joined and read as little-endian int64 at once (a
    third sooner than one ``int.from_bytes`` per id: 10⁵ ids at a session's first trend)."""
    blake2b = hashlib.blake2b
    joined = b"".join(
        blake2b(str(p).encode("utf-8", "surrogatepass"), digest_size=8).digest() for p in ids
    )
    return np.frombuffer(joined, dtype="<i8").astype(np.int64)


def coded(table: pa.Table) -> pa.Table:
    """``table`` (value rows with a ``profile`` column) with each row's profile code after it."""
    ids = table.column("profile").combine_chunks()
    encoded = ids.dictionary_encode()
    per_id = codes(encoded.dictionary.to_pylist())
    column = pc.take(pa.array(per_id, pa.int64()), encoded.indices)
    if CODE in table.column_names:
        table = table.drop_columns([CODE])
    return table.add_column(table.column_names.index("profile") + 1, CODE, column)
