"""Stable call-path keys: one 63-bit integer per calling context, equal across profiles, runs,
processes and machines (unlike Python's ``hash``, which is salted per process).

A node's key hashes its parent's key, its frame's attributes (name, type, file, line, module...:
Hatchet's ``Frame`` compares by them) and its occurrence number among earlier siblings with the
same frame — the alignment ``cctviz.compare`` and saved view state use. The union of many trees is
then the set of distinct keys: no pairwise unification."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.callpath import _plain
from ...core.table import NodeTable

ROOT = 0  # the parent key of a root

# the frame attributes stored as columns of the nodes table (others stay in `frame`)
FRAME_COLUMNS = ("file", "line", "module", "type")


def frame_text(attrs: dict[Any, Any]) -> str:
    """A frame's attributes as canonical JSON (sorted keys, plain values)."""
    return json.dumps({str(k): _plain(v) for k, v in attrs.items()}, sort_keys=True, default=str)


def _frame_attrs(node: Any) -> dict[Any, Any]:
    frame = getattr(node, "frame", None)
    attrs = getattr(frame, "attrs", None)
    return dict(attrs) if isinstance(attrs, dict) else {"name": str(frame)}


def key_of(parent: int, frame: str, occurrence: int) -> int:
    """The key of a context: its parent's key, its frame (canonical JSON), its occurrence."""
    digest = hashlib.blake2b(
        f"{parent}\x1f{occurrence}\x1f{frame}".encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "little") >> 1  # 63 bits: a positive int64 (0 is ROOT)


def table_keys(table: NodeTable) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Per node of ``table`` (pre-order): its key, its parent's key (ROOT for a root) and its
    frame's canonical JSON."""
    if len(table.nodes):
        frames = [frame_text(_frame_attrs(node)) for node in table.nodes]
    else:
        frames = [
            frame_text({"name": table.name(i), "type": table.types[table.type_code[i]]})
            for i in range(table.size)
        ]
    keys, parents = tree_keys(table.parent.tolist(), frames)
    return keys, parents, frames


def tree_keys(parent: Sequence[int], frames: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per node of a tree in pre-order (``parent``: each node's parent index, -1 for a root;
    ``frames``: each node's frame as ``frame_text`` gives it): its key and its parent's key
    (ROOT for a root). Apart from ``table_keys`` so that a tree read without Hatchet nodes (the
    store's Caliper rows) gets the very same keys."""
    keys: list[int] = []
    parents: list[int] = []
    seen: dict[tuple[int, str], int] = {}
    for i, frame in enumerate(frames):  # pre-order: a parent's key is known before its children's
        up = keys[parent[i]] if parent[i] >= 0 else ROOT
        occurrence = seen.get((up, frame), 0)
        seen[(up, frame)] = occurrence + 1
        keys.append(key_of(up, frame, occurrence))
        parents.append(up)
    return np.array(keys, np.int64), np.array(parents, np.int64)


def frame_columns(frames: list[str]) -> dict[str, list[Any]]:
    """The columns ``file``, ``line``, ``module`` and ``type`` of frames (None where absent),
    as text (a line number too: readers give it as text or number)."""
    decoded = [json.loads(f) for f in frames]
    return {c: [None if d.get(c) is None else str(d[c]) for d in decoded] for c in FRAME_COLUMNS}
