"""The store's rows of a Caliper region profile straight from caliper-reader's records.

``Ensemble.add`` of many ``.cali`` files spent two to five times caliper-reader's own parse after
it: building the GraphFrame (``cctviz.ensemble.store.caliper``), then the single-profile view's
node table (``cctviz.adapters.graphframe.from_graphframe``), only to turn both into rows. On the
files that module mirrors (region profiles: one record per call path) the tree is the records'
call paths and each node's values are its one record's, so this goes from the records to rows:

- the tree as Hatchet's reader builds it (a node per call path, ancestors without a record
  created on the way, children in the order met), walked in the order the node table walks it;
  the runs of an ensemble share their tree, so what it alone decides (keys, the nodes table) is
  kept for the next file with the same call paths;
- each record's values converted as the reader converts them (``caliper.record_rows``), the
  columns named as it names them, numeric where its dataframe's column is numeric;
- what each metric is and its value per node by the adapter's own rules
  (``cctviz.adapters.node_metrics``, without the notes the store does not keep) on the numeric
  columns the reader lists as metrics; what they decide from the columns' names and types and
  the metadata alone is decided once for the files that share them;
- nodes, values, kinds and metadata built by the functions ``profile_rows`` uses (the kinds
  and nodes tables of the previous file with the same ones, the metadata's texts read once).

A shape it does not model as Hatchet reads it (a call path whose ancestors UMD's reader cannot
create, a column name the merge with the nodes would change, a metric column pandas would not
call numeric, no metric in the reader's lists, names other than text) gives None, and the
GraphFrame path reads the file. ``tests/test_ensemble_caliper.py`` checks, on every ``.cali``
file of ``../shared/data`` and under both Hatchet distributions, that the rows are that path's.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...adapters.node_metrics import DECIDING_KEYS, Decided, decide, metric_values
from . import caliper
from .caliper import CTX, OLD_TO_NEW, Simple, aliased, metric_lists, record_rows
from .keys import frame_text, tree_keys
from .profile import ProfileRows, TreeNodes, tree_nodes, tree_rows

# the frame type both readers give a region (a record's call path entry)
REGION = "function"
# what UMD hatchet's GraphFrame adds to the metadata it is given, when the file has neither
UMD_SUFFIXES = {"hatchet_inclusive_suffix": " (inc)", "hatchet_exclusive_suffix": " (exc)"}
# columns the merge with the reader's node frame (nid, name, node) would rename or index
TAKEN = ("nid", "name", "node")
# LLNL's reader drops these columns (the node order) from its dataframe
DROPPED = ("Node order", "aggregate.slot")
INT64 = (-(2**63), 2**63)
# a column of these is float64 as it is (bool is not int here; LLNL converts to numpy scalars)
NUMBERS = {float, int, type(None), np.float64, np.int64}
KEPT = 20_000  # call paths of the largest tree whose shape is kept for the next file

CallPath = str | tuple[str, ...]  # a record's call path: text (a root), or its regions


@dataclass
class Tree:
    """The readers' tree of a region profile: per node (in the order the reader creates them)
    its label and children; the roots; each call path's node (the reader's callpath_to_idx)."""

    labels: list[Any] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    roots: list[int] = field(default_factory=list)
    index: dict[tuple[Any, ...], int] = field(default_factory=dict)

    def add(self, label: Any) -> int:
        self.labels.append(label)
        self.children.append([])
        return len(self.labels) - 1


@dataclass(frozen=True)
class Shape:
    """What the call paths alone decide: the tree, the pre-order position of each of its nodes,
    each one's parent and depth there (int32, as the node table's), and the store's nodes."""

    tree: Tree
    position: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    nodes: TreeNodes


@dataclass(frozen=True)
class Read:
    """What the adapter's rules read of a GraphFrame besides its rows: its metadata."""

    metadata: dict[str, Any]


def caliper_rows(
    simple: Simple,
    *,
    metadata: Mapping[str, Any] | None,
    source: str,
    content_hash: str,
    reducer: str = "mean",
) -> ProfileRows | None:
    """``profile_rows(GraphFrame.from_caliperreader(path), ...)`` of a parsed region profile,
    without the GraphFrame (None: a shape this module leaves to that path). A region profile
    has no per-rank rows, so there are none to keep with ``ranks``."""
    reader, llnl = simple.reader, simple.llnl
    paths = tuple(tuple(w) if isinstance(w, list) else w for w in (r[CTX] for r in simple.records))
    shape = tree_shape(paths, llnl)
    if shape is None:
        return None
    records, data_cols = record_rows(reader, simple.records, shape.tree.index, llnl)
    if records is None:
        return None
    final = {c: OLD_TO_NEW.get(n, n) for c in data_cols for n in [aliased(reader, c, llnl)]}
    kept = [f for f in final.values() if not (llnl and f in DROPPED)]
    if len(set(kept)) < len(kept) or set(kept) & set(TAKEN):
        return None  # repeated or renamed by the merge: the GraphFrame path says what it does
    metric_cols = [c for c in data_cols if reader.attribute(c).is_value()]
    exc, inc = metric_lists([aliased(reader, c, llnl) for c in metric_cols], llnl)
    source_of = {f: c for c, f in final.items()}
    # the listed columns that are numeric (the rules take no other one as a metric when one
    # is), and a timeseries' column, which the rules look for among the columns
    columns: dict[str, np.ndarray] = {}
    for name in dict.fromkeys([*exc, *inc, "loop.start_iteration"]):
        if name in kept:
            column = _column([r.get(source_of[name]) for r in records])
            if column is None:
                return None
            if column.dtype == np.float64 or name == "loop.start_iteration":
                columns[name] = column
    if not any(c.dtype == np.float64 and (n in exc or n in inc) for n, c in columns.items()):
        return None  # no numeric metric among the reader's lists: the adapter looks further
    keys = shape.position[np.fromiter((r["nid"] for r in records), np.int64, len(records))]
    own = own_metadata(simple)
    decided = _decided(columns, exc, inc, own)
    block = np.column_stack([columns[m] for m in decided.names])
    rows = len(records)
    metrics, _ = metric_values(
        shape.parent,
        shape.depth,
        block,
        keys,
        decided,
        reducer,
        None,
        explain=False,  # kinds and partners only: the store keeps no rule or detail
        groups=lambda: (np.zeros(rows, np.int64), 1),  # one run: a region profile has no ranks
    )
    return tree_rows(
        shape.nodes, metrics, own, metadata=metadata, source=source, content_hash=content_hash
    )


def _decided(
    columns: Mapping[str, np.ndarray], exc: list[str], inc: list[str], own: Mapping[str, Any]
) -> Decided:
    """What each metric is, by the adapter's rules (``node_metrics.decide``), decided once for
    the files of an ensemble that share the columns, their types, the reader's lists and the
    metadata the rules read."""
    deciding = tuple((k, own[k]) for k in DECIDING_KEYS if k in own)
    shape = (tuple((n, c.dtype.str) for n, c in columns.items()), tuple(exc), tuple(inc))
    try:
        return _decided_once(*shape, deciding)
    except TypeError:  # a metadata value that is not hashable: decided for this file alone
        return _decide(*shape, deciding)


def _decide(
    columns: tuple[tuple[str, str], ...],
    exc: tuple[str, ...],
    inc: tuple[str, ...],
    deciding: tuple[tuple[str, Any], ...],
) -> Decided:
    """The rules run on a frame of no rows with these columns and types, indexed by ``node``
    as a GraphFrame's (they read nothing else of it)."""
    index = pd.RangeIndex(0, name="node")
    empty = pd.DataFrame({n: np.empty(0, np.dtype(t)) for n, t in columns}, index=index)
    return decide(empty, (list(exc), list(inc)), Read(dict(deciding)), None)


_decided_once = functools.lru_cache(maxsize=64)(_decide)


def tree_shape(paths: tuple[CallPath, ...], llnl: bool) -> Shape | None:
    """The shape of the records' call paths (in record order; None: a tree this module leaves to
    the GraphFrame path), kept for the next files of an ensemble up to ``KEPT`` paths (a larger
    file's parse outweighs building its shape, and a kept shape holds its whole tree)."""
    return kept_shape(paths, llnl) if len(paths) <= KEPT else shape_of(paths, llnl)


def shape_of(paths: tuple[CallPath, ...], llnl: bool) -> Shape | None:
    """The shape of these call paths, built anew."""
    tree = build_tree(paths, llnl)
    if tree is None or not all(isinstance(label, str) for label in tree.labels):
        return None
    order, parent, depth = preorder(tree)
    position = np.empty(len(order), np.int64)
    position[order] = np.arange(len(order))
    frames = [frame_text({"type": REGION, "name": tree.labels[i]}) for i in order]
    keys, parents = tree_keys(parent, frames)
    nodes = tree_nodes(keys, parents, frames, [tree.labels[i] for i in order])
    return Shape(tree, position, np.asarray(parent, np.int32), np.asarray(depth, np.int32), nodes)


kept_shape = functools.lru_cache(maxsize=16)(shape_of)


def build_tree(paths: tuple[CallPath, ...], llnl: bool) -> Tree | None:
    """The tree Hatchet's ``create_graph`` builds of region records' call paths (each path
    once: ``caliper._simple``). None where UMD's reader fails (a path whose root no earlier
    record named: its ``_create_parent`` runs past the root)."""
    tree = Tree()
    for where in paths:
        path = where if isinstance(where, tuple) else (where,)
        if path in tree.index:
            continue
        node = tree.index[path] = tree.add(path[-1])
        if not isinstance(where, tuple):  # a text path: a root
            tree.roots.append(node)
            continue
        child, up = node, path[:-1]
        while up not in tree.index:  # ancestors met before their own records (if any)
            if not up:
                if not llnl and caliper.FLAVOUR != "own":  # (own: no Hatchet to mirror)
                    return None
                tree.roots.append(child)  # LLNL's reader makes the topmost one a root
                break
            made = tree.index[up] = tree.add(up[-1])
            tree.children[made].append(child)
            child, up = made, up[:-1]
        else:
            tree.children[tree.index[up]].append(child)
    return tree


def preorder(tree: Tree) -> tuple[list[int], list[int], list[int]]:
    """The nodes in depth-first pre-order over the roots and children in order (as the node
    table's walk, ``cctviz.adapters.spanning``, visits Hatchet's), each one's parent's position
    in it (-1: a root) and its depth."""
    order: list[int] = []
    parent: list[int] = []
    depth: list[int] = []
    stack = [(root, -1, 0) for root in reversed(tree.roots)]
    while stack:
        node, up, level = stack.pop()
        at = len(order)
        order.append(node)
        parent.append(up)
        depth.append(level)
        stack.extend((child, at, level + 1) for child in reversed(tree.children[node]))
    return order, parent, depth


def _column(cells: list[Any]) -> np.ndarray | None:
    """One column of the records (None where a record has no value): float64 where the
    reader's dataframe column is numeric (every value a number, not a bool), else the values
    as objects. None where pandas would type it otherwise (an int beyond int64)."""
    kinds = set(map(type, cells))
    if kinds <= NUMBERS:  # the usual column (one look at each value's type): converted at once
        if int in kinds and not all(INT64[0] <= v < INT64[1] for v in cells if type(v) is int):
            return None
        return np.array([np.nan if v is None else v for v in cells], dtype=np.float64)
    present = [v for v in cells if v is not None]
    numbers = (int, float, np.integer, np.floating)
    if not all(isinstance(v, numbers) and not isinstance(v, (bool, np.bool_)) for v in present):
        objects = np.empty(len(cells), dtype=object)
        for i, v in enumerate(cells):  # (one by one: a list value stays one cell)
            objects[i] = v
        return objects
    if any(type(v) is int and not INT64[0] <= v < INT64[1] for v in present):
        return None
    return np.array([np.nan if v is None else v for v in cells], dtype=np.float64)


def own_metadata(simple: Simple) -> dict[str, Any]:
    """The GraphFrame's metadata: the file's globals, parsed by LLNL's reader; UMD's
    GraphFrame adds its suffixes to them."""
    if simple.llnl:
        from hatchet.readers.caliper_native_reader import CaliperNativeReader

        native = CaliperNativeReader(simple.reader, False, [], True)
        return dict(native._parse_metadata(simple.reader.globals))
    own = dict(simple.reader.globals)
    for key, value in UMD_SUFFIXES.items():
        own.setdefault(key, value)
    return own
