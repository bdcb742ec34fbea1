"""One profile as rows of the store's tables: its nodes (call-path keys and frames), its values
(one row per node, every numeric metric, ranks and threads reduced at ingest) and its profile
row (metadata, content hash, source).

Ranks and threads of one node are combined at ingest with ``reducer`` (default ``"mean"``, as
``cctviz.CCT`` does; the cctviz reducers) by the same adapter the widget uses, so a profile's
numbers in the store are the numbers its own view shows."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...adapters.graphframe import from_graphframe
from ...core.table import Metric
from .keys import frame_columns, table_keys
from .ranks import rank_rows

# metadata keys holding a launch time in seconds since the epoch (Adiak, Caliper): stored as UTC
# timestamps, so that `where("launchdate >= '2023-09-06'")` compares dates
TIME_KEYS = ("launchdate", "launchday", "launch_date", "date")
# names of the store's own columns: metadata keys that collide get a "meta." prefix
RESERVED = ("profile", "hash", "source", "nodes")


@dataclass
class ProfileRows:
    """What one profile adds to the store."""

    profile: str  # its id: the first 16 hex digits of the content hash
    nodes: pd.DataFrame  # key, parent, name, file, line, module, type, frame
    # the values table's rows as columns (key, parent, one per metric): a DataFrame per file
    # of an ensemble would cost a twentieth of reading a small Caliper file; value_frame makes
    # one of a batch's profiles
    columns: dict[str, np.ndarray]
    kinds: pd.DataFrame  # metric, kind, partner
    meta: dict[str, Any]  # profile, hash, source, nodes, metadata...
    ranks: pd.DataFrame | None = None  # profile, key, parent, rank[, thread], metrics (if asked)

    @property
    def rows(self) -> int:
        """How many rows it adds to the values table."""
        return len(self.columns["key"])

    @property
    def values(self) -> pd.DataFrame:
        """Its rows of the values table: profile, key, parent, one column per metric."""
        return value_frame([self])


def value_frame(rows: list[ProfileRows]) -> pd.DataFrame:
    """The values table's rows of ``rows``' profiles, in order: each profile's id, then the
    columns of all of them in the order first met (NaN where a profile has no such metric)."""
    lengths = [r.rows for r in rows]
    ids = np.array([r.profile for r in rows], dtype=object)
    out: dict[str, np.ndarray] = {"profile": np.repeat(ids, lengths)}
    for name in dict.fromkeys(n for r in rows for n in r.columns):
        out[name] = np.concatenate(
            [
                r.columns[name] if name in r.columns else np.full(length, np.nan)
                for r, length in zip(rows, lengths, strict=True)
            ]
        )
    return pd.DataFrame(out, index=pd.RangeIndex(sum(lengths)), copy=False)


def plain_metadata(raw: Mapping[Any, Any]) -> dict[str, Any]:
    """Metadata values as the store keeps them: numbers as numbers (also those a reader gives as
    text), launch times as UTC timestamps, lists and other values as text."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        name = str(key)
        if name in RESERVED:
            name = f"meta.{name}"
        kept = type(value) is str or type(value) is int  # (not bool, not 1.0: equal keys)
        out[name] = _kept_value(name, value) if kept else _plain_value(name, value)
    return out


@functools.lru_cache(maxsize=4096)
def _kept_value(name: str, value: str | int) -> Any:
    """``_plain_value`` of a text or an int, kept: the runs of an ensemble share most of their
    metadata, and telling a number in text costs failed conversions, a launch time a timestamp."""
    return _plain_value(name, value)


def _plain_value(name: str, value: Any) -> Any:
    if hasattr(value, "item") and not isinstance(value, (list, tuple)):
        try:
            value = value.item()
        except (ValueError, TypeError):
            value = str(value)
    if isinstance(value, str):
        number = _number(value)
        value = value if number is None else number
    if name in TIME_KEYS and isinstance(value, (int, float)) and math.isfinite(value):
        return pd.Timestamp(dt.datetime.fromtimestamp(float(value), dt.timezone.utc)).tz_localize(
            None
        )
    if isinstance(value, (pd.Timestamp, dt.datetime)):
        return pd.Timestamp(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return float(value) if isinstance(value, float) else int(value)
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, default=str)
    return str(value)


def _number(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def graphframe_hash(gf: Any, metadata: Mapping[str, Any]) -> str:
    """A content hash of a GraphFrame read in memory: its frames, its dataframe, its metadata."""
    h = hashlib.sha256()
    df = gf.dataframe
    numeric = df.select_dtypes(include=[np.number])
    h.update(
        pd.util.hash_pandas_object(numeric.reset_index(drop=True), index=False).values.tobytes()
    )
    h.update(json.dumps(list(map(str, numeric.columns))).encode())
    h.update(json.dumps([str(n.frame) for n in gf.graph.traverse()]).encode())
    h.update(json.dumps(dict(metadata), sort_keys=True, default=str).encode())
    return h.hexdigest()


def profile_rows(
    gf: Any,
    *,
    metadata: Mapping[str, Any] | None,
    source: str,
    content_hash: str,
    reducer: str = "mean",
    ranks: bool = False,
) -> ProfileRows:
    """The store's rows of one GraphFrame (a node absent from it, with no value, has no row);
    with ``ranks``, its per-rank rows too (cctviz.ensemble.store.ranks)."""
    table = from_graphframe(gf, reducer=reducer)
    keys, parents, frames = table_keys(table)
    names = [table.name(i) for i in range(table.size)]
    rows = tree_rows(
        tree_nodes(keys, parents, frames, names),
        table.metrics,
        getattr(gf, "metadata", None),
        metadata=metadata,
        source=source,
        content_hash=content_hash,
    )
    if ranks:
        measured = [m.name for m in table.metrics.values()]
        rows.ranks = rank_rows(gf, table.nodes, keys, parents, rows.profile, measured)
    return rows


@dataclass(frozen=True)
class TreeNodes:
    """A profile's tree as the store keeps it: each node's key and parent key (pre-order), the
    first node of each key, and the nodes table's rows of those. What only the tree decides:
    the store's Caliper rows keep it for the next files of an ensemble with the same tree."""

    keys: np.ndarray
    parents: np.ndarray
    first: np.ndarray
    nodes: pd.DataFrame


def tree_nodes(
    keys: np.ndarray, parents: np.ndarray, frames: list[str], names: list[str]
) -> TreeNodes:
    """The store's nodes of a tree in pre-order (each node's key, parent key, frame, name)."""
    first = np.sort(np.unique(keys, return_index=True)[1])  # a key met twice: its first node
    nodes = pd.DataFrame(
        {
            "key": keys[first],
            "parent": parents[first],
            "name": [names[i] for i in first],
            **{k: [v[i] for i in first] for k, v in frame_columns(frames).items()},
            "frame": [frames[i] for i in first],
        }
    )
    return TreeNodes(keys, parents, first, nodes)


def tree_rows(
    tree: TreeNodes,
    metrics: Mapping[str, Metric],
    own: Mapping[str, Any] | None,
    *,
    metadata: Mapping[str, Any] | None,
    source: str,
    content_hash: str,
) -> ProfileRows:
    """The store's rows of a tree's nodes with their ``metrics`` (as a node table holds them,
    one value per node in pre-order) and the profile's ``own`` metadata (the GraphFrame's;
    ``metadata`` given to ``Ensemble.add`` comes over it). Apart from ``profile_rows`` so that
    a profile read without a GraphFrame (the store's Caliper rows) gives rows built the very
    same way."""
    profile = content_hash[:16]
    # numpy first, one DataFrame each at the end: this runs once per file of an ensemble
    columns = {m.name: np.asarray(m.values) for m in metrics.values()}
    held = np.zeros(len(tree.keys), bool)
    for column in columns.values():
        held |= ~(np.isnan(column) if column.dtype.kind == "f" else pd.isna(column))
    kept = tree.first[held[tree.first]]  # (first: sorted) the first nodes of keys with a value
    values = {
        "key": tree.keys[kept],
        "parent": tree.parents[kept],
        **{name: column[kept] for name, column in columns.items()},
    }
    kinds = _kinds_frame(tuple((m, metrics[m].kind, metrics[m].partner) for m in columns))
    meta = plain_metadata({**dict(own or {}), **dict(metadata or {})})
    meta.update(profile=profile, hash=content_hash, source=source, nodes=int(held.sum()))
    return ProfileRows(profile, tree.nodes, values, kinds, meta)


@functools.lru_cache(maxsize=256)
def _kinds_frame(rows: tuple[tuple[str, str, str | None], ...]) -> pd.DataFrame:
    """The kinds table of these (metric, kind, partner) rows, kept: the runs of an ensemble
    share it (their rows then hold the same DataFrame, which nothing changes in place)."""
    return pd.DataFrame(
        {
            "metric": [r[0] for r in rows],
            "kind": [r[1] for r in rows],
            "partner": [r[2] for r in rows],
        }
    )
