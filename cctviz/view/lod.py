"""Level of detail: which nodes of a big tree the browser gets, and what stands for the rest.

The full node table stays in Python. The browser gets the *revealed* nodes, chosen best-first by
an inclusive value from the roots until a drawing budget is reached, and under every revealed
node whose children are not all revealed one *fold* row: "N more", carrying the sums of what it
hides. Expanding a fold reveals the next children of its parent (by the same ranking); revealing a
node also reveals its ancestors, so any node can be shown (a Python selection, a search match).

Sums of a fold: an exclusive metric is summed over every hidden node; an inclusive metric over
the hidden children (their inclusive values already hold their subtrees). A sum over values that
are all NaN is NaN, as elsewhere in cctviz. A ratio or a maximum (see ``MetricKind``) does not
add up: a fold carries the largest value it hides; a metric of kind ``other`` (a minimum, an
iteration number) has no aggregate: NaN, as the view's own glyphs show none.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, replace

import numpy as np

from ..core.ranked import RankedChildren
from ..core.subtree import (
    by_level,
    group_nanmax,
    group_nansum,
    subtree_nanmax,
    subtree_nansum,
    subtree_sum,
)
from ..core.table import Metric, NodeTable
from ..core.text_column import TextColumn

#: Metric kinds whose aggregates are maxima, not sums.
MAX_KINDS = frozenset({"ratio", "max"})

DEFAULT_BUDGET = 3000
"""Nodes sent to the browser at first (fold rows come on top, at most one per node, and a
node that would be alone in its fold is sent instead of the fold): a view
that still draws as SVG (below the canvas threshold of 4,000) and lays out in a few ms."""
LOAD_MORE_STEP = 200
"""Children revealed by one load-more of a fold (the largest first)."""
FOLD_TYPE = "folded"


@dataclass(frozen=True)
class Drawn:
    """What the browser gets: a node table of revealed nodes and fold rows, with the map back."""

    table: NodeTable
    node_id: np.ndarray  # int32: full-table id of each row, -1 for a fold row
    folded: np.ndarray  # int32: nodes a fold row stands for, 0 for a revealed node


class LevelOfDetail:
    """The revealed part of ``table`` (see the module docstring)."""

    def __init__(self, table: NodeTable, budget: int = DEFAULT_BUDGET) -> None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"budget is a number of nodes, at least 1; got {budget!r}")
        self.table = table
        self.budget = budget
        n = table.size
        parent = table.parent
        levels = by_level(table.depth)
        rank = _ranking(table, levels)
        self._rank = rank
        self._ranked_children: RankedChildren | None = None  # made when first needed
        # each node's children counted (at its id + 1; the roots at 0), and each node's place in
        # that count: what tells the revealed nodes with hidden children apart without a pass
        # over the hidden nodes
        self._up = (parent + 1).astype(np.intp)
        self._kids = np.bincount(self._up, minlength=n + 1)
        # subtree sizes, and subtree sums of the metrics that are not inclusive
        self.size = subtree_sum(parent, levels, np.ones(n)).astype(np.int32)
        self._sums = {
            name: (subtree_nanmax if m.kind in MAX_KINDS else subtree_nansum)(
                parent, levels, m.values
            )
            for name, m in table.metrics.items()
            if m.kind not in ("inclusive", "other")
        }
        self.revealed = np.zeros(n, dtype=bool)
        self._reveal_best_first(budget, rank)
        self._reveal_single_folds()

    # -- revealing ---------------------------------------------------------------------------
    def _reveal_best_first(self, count: int, rank: np.ndarray) -> None:
        """Reveal ``count`` nodes, best-first by ``rank`` from the roots."""
        if not _reveal_top(self.revealed, self._up, rank, count):
            self._reveal_by_heap(count, rank)

    def _reveal_by_heap(self, count: int, rank: np.ndarray) -> None:
        """Best-first by a heap of each revealed node's next hidden child: any ranking."""
        heap: list[tuple[float, int]] = []

        def push(c: int | None) -> None:
            if c is not None:
                heapq.heappush(heap, (-rank[c], c))

        push(self._next_hidden(-1))
        done = 0
        while heap and done < count:
            _, i = heapq.heappop(heap)
            if self.revealed[i]:
                continue
            self.revealed[i] = True
            done += 1
            # the next candidates: this node's best child, and its parent's next best child
            push(self._next_hidden(i))
            push(self._next_hidden(int(self.table.parent[i])))

    @property
    def _ranked(self) -> RankedChildren:
        """Each node's children by rank: made when first read (a load-more, a heap walk), not
        for a first picture that the partition chose (40-60 ms at 1M nodes)."""
        if self._ranked_children is None:
            self._ranked_children = RankedChildren(self.table.parent, self._rank)
        return self._ranked_children

    def _next_hidden(self, p: int) -> int | None:
        return self._ranked.next_hidden(p, self.revealed)

    def load_more(self, parent: int, step: int = LOAD_MORE_STEP) -> int:
        """Load more: reveal the next ``step`` hidden children of ``parent`` (-1: hidden roots), the
        largest first. Returns how many were revealed."""
        if not -1 <= parent < self.table.size:
            last = self.table.size - 1
            raise ValueError(f"no node {parent}: ids go from 0 to {last} (-1: the roots)")
        if parent >= 0 and not self.revealed[parent]:
            raise ValueError(f"node {parent} is not shown, so it has no fold to expand")
        chosen = self._ranked.hidden(parent, step, self.revealed)
        self.revealed[chosen] = True
        return int(chosen.shape[0]) + self._reveal_single_folds()

    def reveal(self, ids: object) -> int:
        """Reveal these nodes and their ancestors. Returns how many were newly revealed."""
        before = int(self.revealed.sum())
        parent = self.table.parent
        for i in np.asarray(list(ids), dtype=np.int64).tolist():  # type: ignore[call-overload]
            while i >= 0 and not self.revealed[i]:
                self.revealed[i] = True
                i = int(parent[i])
        if int(self.revealed.sum()) == before:
            return 0  # the usual case (a click on a drawn node): no pass over the tree
        self._reveal_single_folds()
        return int(self.revealed.sum()) - before

    def _reveal_single_folds(self) -> int:
        """A fold that would stand for a single node costs a row like the node itself: show the
        node instead of "1 more". Returns how many were revealed."""
        owner, hidden, _ = self._shown_children(np.flatnonzero(self.revealed))
        lone = owner[hidden == 1]  # the owners of one hidden child
        if not lone.size:
            return 0
        marked = np.zeros(self.table.size + 1, dtype=bool)
        marked[lone + 1] = True
        child = np.flatnonzero(marked[self._up] & ~self.revealed)
        single = child[self.size[child] == 1]
        self.revealed[single] = True
        return int(single.shape[0])

    def _shown_children(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For the roots (-1) and each revealed node (``ids``, every revealed id in order): how
        many of its children are hidden, and how many nodes its revealed children's subtrees
        hold. Returns (-1 then ``ids``, hidden children, nodes held), over the revealed nodes
        only (a revealed node's parent is revealed)."""
        owner = np.concatenate((np.array([-1], dtype=np.int64), ids))
        at = np.searchsorted(owner, self.table.parent[ids])  # each one's parent, in `owner`
        shown = np.bincount(at, minlength=owner.size)
        held = np.bincount(at, weights=self.size[ids], minlength=owner.size)  # whole numbers
        return owner, self._kids[owner + 1] - shown, held.astype(np.int64)

    # -- what is sent -------------------------------------------------------------------------
    def drawn(self) -> Drawn:
        """The revealed nodes in pre-order, each node's fold row (if some of its children are
        hidden) after its revealed children; hidden roots fold into one last top-level row."""
        t = self.table
        parent = t.parent
        revealed = self.revealed
        ids = np.flatnonzero(revealed)  # pre-order
        # what the folds stand for: the hidden children of revealed nodes, and the hidden roots;
        # `group` numbers their owners (-1: the roots) in id order
        candidates, hidden, held = self._shown_children(ids)
        folds = hidden > 0
        owners = candidates[folds]
        # each fold counts its hidden children's subtrees: all below its owner but what the
        # revealed children hold (the roots' fold: all nodes but the revealed roots' subtrees)
        below = np.where(owners >= 0, self.size[np.maximum(owners, 0)] - 1, t.size)
        fold_counts = below - held[folds]
        group_of = np.full(t.size + 1, -1, dtype=np.int32)  # by parent id + 1
        group_of[owners + 1] = np.arange(owners.size, dtype=np.int32)
        group = group_of[self._up]
        folded_in = np.flatnonzero((group >= 0) & ~revealed)
        group = group[folded_in]
        has_fold = set(owners.tolist())
        # the rows in order, by a stack over the revealed nodes only (a budget's worth, in plain
        # Python: numpy calls per node cost more than they save at this size)
        revealed_kids: dict[int, list[int]] = {}
        for i, p in zip(ids.tolist(), parent[ids].tolist(), strict=True):
            revealed_kids.setdefault(p, []).append(i)  # pre-order: children in table order
        rows: list[int] = []  # full-table id, or -(p + 2) for the fold row of p (-1: roots)
        stack: list[int] = [-(-1 + 2)] if -1 in has_fold else []
        stack.extend(reversed(revealed_kids.get(-1, [])))
        while stack:
            i = stack.pop()
            rows.append(i)
            if i < 0:
                continue
            if i in has_fold:
                stack.append(-(i + 2))
            stack.extend(reversed(revealed_kids.get(i, [])))
        row = np.asarray(rows, dtype=np.int64)
        is_fold = row < 0
        fold_of = -row[is_fold] - 2  # the parent each fold row hangs under (-1: top level)
        real = row[~is_fold]
        total = row.shape[0]
        position = np.full(t.size, -1, dtype=np.int64)
        position[real] = np.flatnonzero(~is_fold)
        node_id = np.where(is_fold, -1, row).astype(np.int32)
        owner = np.where(is_fold, -row - 2, parent[np.maximum(row, 0)])  # full-table parent
        new_parent = np.where(owner >= 0, position[np.maximum(owner, 0)], -1).astype(np.int32)
        depth = np.where(
            is_fold,
            np.where(owner >= 0, t.depth[np.maximum(owner, 0)] + 1, 0),
            t.depth[np.maximum(row, 0)],
        ).astype(np.int32)
        slot = np.searchsorted(owners, fold_of)  # each fold row's group
        counts = fold_counts[slot]
        folded = np.zeros(total, dtype=np.int32)
        folded[is_fold] = counts
        metrics: dict[str, Metric] = {}
        for name, m in t.metrics.items():
            values = np.full(total, np.nan)
            values[~is_fold] = m.values[real]
            if m.kind != "other":  # a metric of no known kind has no aggregate (it stays NaN)
                source = m.values if m.kind == "inclusive" else self._sums[name]
                combine = group_nanmax if m.kind in MAX_KINDS else group_nansum
                values[is_fold] = combine(source[folded_in], group, owners.size)[slot]
            metrics[name] = replace(m, values=values)
        # names: those in use, and one per fold ("1,234 more")
        # (of the drawn nodes only: a profile's every name is not factorised for its picture)
        code, names = t.name_text.at(real)
        name_code = np.zeros(total, dtype=np.int32)
        name_code[~is_fold] = code
        name_code[is_fold] = len(names) + np.arange(int(is_fold.sum()))
        code, types = t.type_text.at(real)
        type_code = np.full(total, len(types), dtype=np.int32)
        type_code[~is_fold] = code
        drawn = NodeTable(
            parent=new_parent,
            depth=depth,
            name_text=TextColumn.of(name_code, names + [f"{c:,} more" for c in counts.tolist()]),
            type_text=TextColumn.of(type_code, [*types, FOLD_TYPE]),
            nodes=[],
            hatchet_nid=np.zeros(0, np.int64),
            metrics=metrics,
            reducer=t.reducer,
            reduced_over=t.reduced_over,
            extra_edges=t.extra_edges,
            cycle_edges=t.cycle_edges,
            source=t.source,
            # other callers of the loaded nodes (full-tree ids, as everywhere outside rows)
            callers=t.callers[self.revealed[t.callers[:, 1]]] if t.callers.size else t.callers,
            presence=_presence_of(t.presence, real, is_fold),
            presence_labels=t.presence_labels,
            series=t.series,
            change_cause=_presence_of(t.change_cause, real, is_fold),
            change_metric=t.change_metric,
        )
        return Drawn(drawn, node_id, folded)


def _reveal_top(revealed: np.ndarray, up: np.ndarray, rank: np.ndarray, count: int) -> bool:
    """Where no child outranks its parent (an inclusive metric, the usual ranking), best-first
    from the roots reveals the ``count`` best nodes of the whole table, ties in table order:
    each one's parent ranks at least as high and comes first in the table, so it is revealed
    before it. One partition instead of a heap walk (0.15 s at 1M nodes, ~10 ms). False, and
    nothing revealed, where some child outranks its parent (a difference, a minimum). ``up``:
    each node's parent + 1 (0: a root)."""
    above = np.concatenate((np.array([np.inf]), rank))[up]  # the parent's rank (a root: inf)
    if not np.all(rank <= above):
        return False
    if count >= rank.shape[0]:
        revealed[:] = True
        return True
    keys = -rank
    kth = np.partition(keys, count - 1)[count - 1]  # the count-th largest rank
    chosen = keys < kth
    chosen[np.flatnonzero(keys == kth)[: count - int(chosen.sum())]] = True  # ties: table order
    revealed |= chosen
    return True


def _presence_of(presence: np.ndarray, real: np.ndarray, is_fold: np.ndarray) -> np.ndarray:
    """A compare view's presence codes (or an ensemble's change causes) of the drawn rows
    (folds: 0, drawn as folds)."""
    if not presence.size:
        return presence
    out = np.zeros(is_fold.shape[0], dtype=np.int32)
    out[~is_fold] = presence[real]
    return out


def _ranking(table: NodeTable, levels: list[np.ndarray]) -> np.ndarray:
    """What best-first follows: the first inclusive metric, else subtree sums of the first
    metric; NaN ranks last."""
    inclusive = [m for m in table.metrics.values() if m.kind == "inclusive"]
    if inclusive:
        values = inclusive[0].values
    elif table.metrics:
        first = next(iter(table.metrics.values()))
        values = subtree_nansum(table.parent, levels, first.values)
    else:
        values = subtree_sum(table.parent, levels, np.ones(table.size))
    return np.where(np.isnan(values), -np.inf, np.abs(values))
