"""Stacks of frames with weights, gathered while a file streams by (folded lines, perf samples)
and handed to the :class:`~cctviz.adapters.formats.calltree.CallTree` builder at the end.

A profile of a long run repeats the same stacks and frames many times: frames are interned as
integers by their text as the file writes them (decoded and parsed into a
:class:`~cctviz.adapters.formats.calltree.Site` once), calling contexts as integers keyed by
(parent, frame), and whole stacks by their text, so that a line whose stack was seen before
costs one dictionary look-up. Weights are summed per (node, rank, thread) in plain floats
(integers below 2**53 add up exactly) and given to the builder once per node.

What a reader repaired on the way (a name that was not UTF-8, an empty frame…) is counted in
:class:`Repairs` and lands in the GraphFrame's metadata under :data:`REPAIRS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .calltree import ROOT, CallTree, Column, Site
from .untrusted import REPAIRS  # the metadata key of what a reader repaired: ``{what: count}``

#: The metadata key naming the format a GraphFrame was read from, and the file.
FORMAT, SOURCE = "cctviz.format", "cctviz.source"


#: The most stack text :meth:`Stacks.stack` remembers (bytes).
CACHE_BYTES = 1 << 30


class Repairs:
    """What was repaired in a file, and how often (kept in the order first seen)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def note(self, what: str, times: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + times


def decoded(raw: bytes, repairs: Repairs) -> str:
    """``raw`` as UTF-8; bytes that are not are kept visible as ``\\xNN`` escapes (so that
    different names stay different) and counted as a repair."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        repairs.note("names that were not UTF-8: their bytes kept as \\xNN escapes")
        return raw.decode("utf-8", "backslashreplace")


class Stacks:
    """Calling contexts with summed weights, per rank and thread. ``parse`` turns one frame's
    text into a :class:`Site` (called once per distinct frame)."""

    def __init__(self, width: int, parse: Callable[[bytes], Site]) -> None:
        self.width = width
        self._parse = parse
        self._frames: dict[bytes, int] = {}
        self.sites: list[Site] = []
        self.parent: list[int] = []
        self.frame: list[int] = []
        self._children: dict[tuple[int, int], int] = {}
        self._stacks: dict[Any, int] = {}
        self._cached = 0  # bytes of stack text remembered
        # the last stack walked and its nodes: the next one shares its outer frames mostly
        # (``main``, start-up, sorted files), compared rather than looked up
        self._last: Sequence[bytes] = ()
        self._last_nodes: list[int] = []
        # (node, rank, thread) → summed weights (one list per key, ``width`` long)
        self.values: dict[tuple[int, int, int], list[float]] = {}

    def node(self, frames: Sequence[bytes]) -> int:
        """The node of a stack given outermost frame first."""
        last, nodes = self._last, self._last_nodes
        same, most = 0, min(len(last), len(frames))
        while same < most and frames[same] == last[same]:
            same += 1
        del nodes[same:]
        node = nodes[-1] if nodes else ROOT
        children, known = self._children, self._frames
        for i in range(same, len(frames)):
            text = frames[i]
            fid = known.get(text)
            if fid is None:
                fid = known[text] = len(self.sites)
                self.sites.append(self._parse(text))
            key = (node, fid)
            child = children.get(key)
            if child is None:
                child = children[key] = len(self.parent)
                self.parent.append(node)
                self.frame.append(fid)
            node = child
            nodes.append(node)
        self._last = frames
        if node == ROOT:
            raise ValueError("an empty stack has no node")
        return node

    def stack(self, key: Any, frames: Callable[[], Sequence[bytes]]) -> int:
        """The node of the stack whose text is ``key`` (``frames()`` splits it, on first sight).

        Stacks are remembered by their text up to :data:`CACHE_BYTES` of it; the stacks after
        that are walked frame by frame (a collapsed file of a huge program, each stack on its
        own line, is not held in memory a second time)."""
        node = self._stacks.get(key)
        if node is None:
            node = self.node(frames())
            if self._cached < CACHE_BYTES:
                self._stacks[key] = node
                self._cached += len(key)
        return node

    def add(self, node: int, values: Sequence[float], rank: int = 0, thread: int = 0) -> None:
        key = (node, rank, thread)
        row = self.values.get(key)
        if row is None:
            self.values[key] = list(values)
        else:
            for j, v in enumerate(values):
                row[j] += v

    def tree(self, columns: Sequence[Column]) -> CallTree:
        """The call tree of the stacks seen (nodes in the order first seen)."""
        tree = CallTree(columns)
        # frames whose texts differ but parse alike (a name repaired into another's) are one
        canon: dict[Site, int] = {}
        same = [canon.setdefault(site, fid) for fid, site in enumerate(self.sites)]
        made: list[int] = []
        seen: dict[tuple[int, int], int] = {}
        parents: list[int] = []
        sites: list[Site] = []
        for parent, fid in zip(self.parent, self.frame, strict=True):
            p = made[parent] if parent != ROOT else ROOT
            key = (p, same[fid])
            node = seen.get(key)
            if node is None:
                node = seen[key] = len(parents)
                parents.append(p)
                sites.append(self.sites[same[fid]])
            made.append(node)
        tree.extend(parents, sites)
        groups: dict[tuple[int, int], dict[int, list[float]]] = {}
        for (node, rank, thread), row in self.values.items():
            mine = groups.setdefault((rank, thread), {})
            at = made[node]
            if at in mine:
                mine[at] = [a + b for a, b in zip(mine[at], row, strict=True)]
            else:
                mine[at] = row
        for (rank, thread), rows in groups.items():
            tree.add_many(
                np.fromiter(rows, np.int64, len(rows)),
                np.asarray(list(rows.values())),
                rank=rank,
                thread=thread,
            )
        return tree


__all__ = ["FORMAT", "REPAIRS", "SOURCE", "Repairs", "Stacks", "decoded"]
