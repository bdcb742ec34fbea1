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
from itertools import islice, repeat
from typing import Any

import numpy as np
import pandas as pd

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
        # (parent + 1) << 32 | frame → child: one int a key (frame ids < 2**32, nodes < 2**31)
        self._children: dict[int, int] = {}
        self._stacks: dict[Any, int] = {}
        self._cached = 0  # bytes of stack text remembered
        # the last stack walked and its nodes: the next one shares its outer frames mostly
        # (``main``, start-up, sorted files), compared rather than looked up
        self._last: Sequence[bytes] = ()
        self._last_nodes: list[int] = []
        # (node, rank, thread) → summed weights (one list per key, ``width`` long)
        self.values: dict[tuple[int, int, int], list[float]] = {}
        # (nodes, values: a row per node, rank, thread) added at once
        self._blocks: list[tuple[np.ndarray, np.ndarray, int, int]] = []

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
            key = (node + 1) << 32 | fid
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
            self._remember(key, node)
        return node

    def known(self, text: bytes) -> int | None:
        """The node of a stack text :meth:`texts` or :meth:`stack` remembered, or None."""
        return self._stacks.get(text)

    def texts(self, texts: Sequence[bytes], sep: bytes) -> list[int]:
        """The nodes of many stacks at once, each given as its frames (outermost first) joined
        by ``sep``: the frames of all of them split in one call, interned level by level with
        numpy, and only the distinct calling contexts each level holds looked up one by one.
        Nodes are numbered level by level, so siblings keep the order they were first seen in.
        The texts are remembered as :meth:`stack` remembers them."""
        if not texts:
            return []
        frames = sep.join(texts).split(sep)
        lengths = np.fromiter((t.count(sep) + 1 for t in texts), np.int64, len(texts))
        fid = np.asarray(self._frame_ids(frames), np.int64)
        del frames
        starts = np.cumsum(lengths) - lengths
        node = np.full(len(texts), ROOT, np.int64)
        start = len(self.parent)  # nodes from here on are new: their children too
        for level in range(int(lengths.max())):
            active = np.flatnonzero(lengths > level)
            node[active] = self._level(node[active], fid[starts[active] + level], start)
        out = node.tolist()
        if self._cached < CACHE_BYTES:  # as many as :meth:`stack` would remember
            sizes = np.cumsum(np.fromiter(map(len, texts), np.int64, len(texts)))
            keep = int(np.searchsorted(sizes, CACHE_BYTES - self._cached)) + 1
            self._stacks.update(zip(texts[:keep], out[:keep], strict=True))
            self._cached += int(sizes[min(keep, len(texts)) - 1])
        return out

    def _frame_ids(self, frames: list[bytes]) -> list[int]:
        known = self._frames
        ids = list(map(known.get, frames))
        if None in ids:  # new frames: numbered in the order first seen, parsed once each
            had = len(known)
            ids = [known.setdefault(text, len(known)) for text in frames]
            self.sites.extend(self._parse(text) for text in islice(known, had, None))
        return ids  # type: ignore[return-value]

    def _level(self, parents: np.ndarray, fids: np.ndarray, start: int) -> np.ndarray:
        """The children ``fids`` of ``parents``, made where new: one look-up per distinct
        (parent, frame) pair whose parent was made before node ``start``."""
        keys = (parents + 1) << 32 | fids
        codes, unique = pd.factorize(keys)  # in the order first seen
        children = self._children
        made = len(self.parent)
        found = np.full(len(unique), -1, np.int64)
        at = np.flatnonzero(unique < (start + 1) << 32)  # the parent made before ``start``
        if len(at):
            got = map(children.get, unique[at].tolist(), repeat(-1))
            found[at] = np.fromiter(got, np.int64, len(at))
        new = np.flatnonzero(found < 0)
        found[new] = np.arange(made, made + len(new))
        children.update(zip(unique[new].tolist(), found[new].tolist(), strict=True))
        new_ups, new_fs = ((unique[new] >> 32) - 1).tolist(), (unique[new] & 0xFFFFFFFF).tolist()
        self.parent.extend(new_ups)
        self.frame.extend(new_fs)
        return found[codes]

    def _remember(self, key: Any, node: int) -> None:
        if self._cached < CACHE_BYTES:
            self._stacks[key] = node
            self._cached += len(key)

    def add(self, node: int, values: Sequence[float], rank: int = 0, thread: int = 0) -> None:
        key = (node, rank, thread)
        row = self.values.get(key)
        if row is None:
            self.values[key] = list(values)
        else:
            for j, v in enumerate(values):
                row[j] += v

    def add_many(
        self, nodes: np.ndarray, values: np.ndarray, rank: int = 0, thread: int = 0
    ) -> None:
        """Add ``values`` (a row per node, ``width`` columns) to ``nodes``, each node once."""
        self._blocks.append((np.asarray(nodes, np.int64), np.asarray(values, float), rank, thread))

    def tree(self, columns: Sequence[Column]) -> CallTree:
        """The call tree of the stacks seen (nodes in the order first seen). The stack texts
        remembered are let go: they are no longer needed."""
        self._stacks.clear()
        tree = CallTree(columns)
        # frames whose texts differ but parse alike (a name repaired into another's) are one
        canon: dict[Site, int] = {}
        same = [canon.setdefault(site, fid) for fid, site in enumerate(self.sites)]
        if len(canon) == len(same):  # none did: the nodes are the tree's, as they are
            made = np.arange(len(self.parent))
            tree.extend(self.parent, list(map(self.sites.__getitem__, self.frame)))
        else:
            made = self._merged(tree, same)
        blocks = [*self._blocks]
        if self.values:
            keys = np.asarray(list(self.values), np.int64).reshape(-1, 3)
            rows = np.asarray(list(self.values.values()), float).reshape(len(keys), -1)
            groups = np.unique(keys[:, 1:], axis=0)
            for rank, thread in groups.tolist():
                mine = (keys[:, 1] == rank) & (keys[:, 2] == thread)
                blocks.append((keys[mine, 0], rows[mine], rank, thread))
        for nodes, rows, rank, thread in blocks:  # merged nodes' values add up in add_many
            tree.add_many(made[nodes], rows, rank=rank, thread=thread)
        return tree

    def _merged(self, tree: CallTree, same: list[int]) -> np.ndarray:
        """The tree's nodes with frames that parse alike made one; each node's in the tree."""
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
        return np.asarray(made, np.int64)


__all__ = ["FORMAT", "REPAIRS", "SOURCE", "Repairs", "Stacks", "decoded"]
