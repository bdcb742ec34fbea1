"""Each node's children in rank order, largest first (ties in table order), put in that order
only as far as the level of detail reads them: sorting a million nodes' children by rank up
front took ~0.16 s (the synthetic 1M tree has one fan of 999,110), most of it for children no
picture shows. Ordering is a chunk at a time, each twice the last, so a fan read child by
child costs a few partitions; every ordered prefix is what one stable sort of all gives."""

from __future__ import annotations

import numpy as np


class RankedChildren:
    """The children of each node (-1: the roots) by ``rank``, and a cursor per node past those
    revealed already (children are mostly revealed in rank order)."""

    def __init__(self, parent: np.ndarray, rank: np.ndarray) -> None:
        n = parent.shape[0]
        # a CSR layout over one stable sort by parent (a radix sort: ~5 ms at 1M), each node's
        # children in table order until ordered (int32: small next to the node table)
        kids = np.flatnonzero(parent >= 0).astype(np.int32)
        self._children = kids[np.argsort(parent[kids], kind="stable")]
        self._start = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.bincount(parent[kids], minlength=n), out=self._start[1:])
        self._rank = rank
        self._in_order = np.zeros(n, dtype=np.int32)  # how many of each node's are ordered
        self._cursor = np.zeros(n, dtype=np.int32)
        roots = np.flatnonzero(parent < 0)
        self._roots = roots[np.argsort(-rank[roots], kind="stable")]
        self._root_cursor = 0

    def children(self, p: int) -> np.ndarray:
        """The children of ``p`` (ordered as far as ``in_order(p)``)."""
        return self._children[self._start[p] : self._start[p + 1]]

    def in_order(self, p: int) -> int:
        """How many of the children of ``p`` are in rank order."""
        return int(self._in_order[p])

    def order(self, p: int, k: int) -> None:
        """Puts at least the first ``k`` children of ``p`` in rank order."""
        lo, hi, done = int(self._start[p]), int(self._start[p + 1]), int(self._in_order[p])
        if done >= min(k, hi - lo):
            return
        rest = self._children[lo + done : hi].copy()  # in table order (what is not ordered yet)
        keys = -self._rank[rest]
        m = max(k - done, 2 * done, 64)
        if m >= rest.size:
            self._children[lo + done : hi] = rest[np.argsort(keys, kind="stable")]
            self._in_order[p] = hi - lo
            return
        kth = np.partition(keys, m - 1)[m - 1]  # the m-th largest rank: those above, and ties
        chosen = keys < kth  # in table order up to m
        chosen[np.flatnonzero(keys == kth)[: m - int(chosen.sum())]] = True
        head = np.flatnonzero(chosen)
        self._children[lo + done : lo + done + m] = rest[
            head[np.argsort(keys[head], kind="stable")]
        ]
        self._children[lo + done + m : hi] = rest[~chosen]  # still in table order
        self._in_order[p] = done + m

    def next_hidden(self, p: int, revealed: np.ndarray) -> int | None:
        """The hidden child of ``p`` (-1: the roots) with the largest rank, None if none."""
        if p < 0:
            kids, lo, hi = self._roots, self._root_cursor, self._roots.shape[0]
            while lo < hi and revealed[kids[lo]]:
                lo += 1
            self._root_cursor = lo
            return int(kids[lo]) if lo < hi else None
        start, hi = int(self._start[p]), int(self._start[p + 1])
        lo = start + int(self._cursor[p])
        while lo < hi:
            if lo - start >= self._in_order[p]:
                self.order(p, lo - start + 1)
            if not revealed[self._children[lo]]:
                break
            lo += 1
        self._cursor[p] = lo - start
        return int(self._children[lo]) if lo < hi else None

    def hidden(self, p: int, count: int, revealed: np.ndarray) -> np.ndarray:
        """The first ``count`` hidden children of ``p`` (-1: the roots), largest rank first."""
        if p < 0:
            out: np.ndarray = self._roots[~revealed[self._roots]][:count]
            return out
        size = int(self._start[p + 1] - self._start[p])
        k = max(count, 1)
        while True:
            self.order(p, k)
            kids = self.children(p)[: self._in_order[p]]
            hidden = kids[~revealed[kids]]
            if hidden.size >= count or kids.size == size:
                first: np.ndarray = hidden[:count]
                return first
            k = 2 * k + (kids.size - hidden.size)
