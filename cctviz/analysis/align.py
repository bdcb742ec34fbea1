"""Calling contexts of several runs matched by call path: the frames (name, type, file, line, ...)
from the root along first parents, and an occurrence number where a tree repeats a call path, as
saved view state names nodes. ``align`` gives the union tree of the runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.callpath import _plain
from ..core.table import NodeTable


@dataclass(frozen=True)
class Union:
    """The union tree of several runs, in pre-order: per node its parent (union index), its
    name, the Hatchet frame of its first occurrence, and its node id in each run (``ids[k]``;
    -1: absent from run k)."""

    parent: np.ndarray
    names: list[str]
    frames: list[Any]
    ids: np.ndarray

    @property
    def size(self) -> int:
        return int(self.parent.shape[0])

    @property
    def in_a(self) -> np.ndarray:
        return self.ids[0]

    @property
    def in_b(self) -> np.ndarray:
        return self.ids[-1]

    @property
    def presence(self) -> np.ndarray:
        """0: in every run; 2: not in the first run; 1: in the first run, not in every later one
        (with two runs: 0 both, 1 only in a, 2 only in b)."""
        absent = (self.ids < 0).any(axis=0)
        return np.where(self.ids[0] < 0, 2, np.where(absent, 1, 0))


def _frame_keys(table: NodeTable, interned: dict[Any, int]) -> list[int]:
    """An integer per node for its frame (shared between runs through ``interned``). Hatchet's
    ``Frame`` hashes and compares by its attributes, in both distributions; a frame that cannot
    be hashed is keyed by its attributes as saved state writes them."""
    out = []
    for node in table.nodes:
        frame = node.frame
        try:
            code = interned.setdefault(frame, len(interned))
        except TypeError:
            key = tuple(sorted((str(k), _plain(v)) for k, v in frame.attrs.items()))
            code = interned.setdefault(key, len(interned))
        out.append(code)
    return out


def _context_ids(table: NodeTable, frames: list[int], interned: dict[Any, int]) -> list[int]:
    """An integer per node for its calling context: (its parent's context, its frame, how many
    earlier siblings had the same frame), interned so both runs share the numbers."""
    out = [0] * table.size
    seen: dict[tuple[int, int], int] = {}
    parent = table.parent.tolist()
    for i in range(table.size):  # pre-order: a parent's context is known before its children's
        up = out[parent[i]] if parent[i] >= 0 else -1
        sibling = (up, frames[i])
        occurrence = seen.get(sibling, 0)
        seen[sibling] = occurrence + 1
        out[i] = interned.setdefault((up, frames[i], occurrence), len(interned))
    return out


def align(tables: list[NodeTable]) -> Union:
    """The union of node tables by calling context: the first run's order first, each later
    run's extra contexts after their earlier siblings."""
    frame_ids: dict[Any, int] = {}
    contexts: dict[Any, int] = {}
    per_run = [_context_ids(t, _frame_keys(t, frame_ids), contexts) for t in tables]
    n = len(contexts)
    ids = np.full((len(tables), n), -1, np.int64)
    for k, (table, context) in enumerate(zip(tables, per_run, strict=True)):
        ids[k, context] = np.arange(table.size)
    up = np.full(n, -1, np.int64)
    for key, c in contexts.items():
        up[c] = key[0]
    # pre-order of the union: children in the order their contexts were first met
    children: dict[int, list[int]] = {}
    for c in range(n):
        children.setdefault(int(up[c]), []).append(c)
    order: list[int] = []
    stack = list(reversed(children.get(-1, [])))
    while stack:
        c = stack.pop()
        order.append(c)
        stack.extend(reversed(children.get(c, [])))
    position = np.empty(n, np.int64)
    position[order] = np.arange(n)
    idx = np.asarray(order, dtype=np.int64)
    parent = np.where(up[idx] >= 0, position[np.maximum(up[idx], 0)], -1)
    names, frames = [], []
    for c in order:
        k = int(np.argmax(ids[:, c] >= 0))  # the first run that has it
        i = int(ids[k, c])
        names.append(tables[k].name(i))
        frames.append(tables[k].nodes[i].frame)
    return Union(parent=parent, names=names, frames=frames, ids=ids[:, idx])
