"""``w.selected_graphframe`` keeps the numbers: the GraphFrame (or Thicket) it returns has exactly
the selected nodes (with ``descendants``, their subtrees too), each under its nearest selected
ancestor, each holding its rows as they are in the profile (every column, every rank, thread and
profile), in both Hatchet distributions. Hatchet's squash broke this: UMD hatchet's recomputes
the inclusive columns over the smaller tree (``main`` of cpi got ``time (inc)`` 0) or fails, and
both distributions' merge sibling nodes with equal frames, which a selection skipping levels
makes."""

from __future__ import annotations

import warnings
from collections import Counter, defaultdict
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cctviz
from cctviz.core.table import NodeTable

from .conftest import load
from .profiles import PROFILES, distribution
from .test_to_code_values import _graphframe, profiles

CPI = "hatchet/hpctoolkit-cpi-database:from_hpctoolkit"
REAL = [
    p
    for p in PROFILES
    if p.id
    in (
        CPI,
        "hatchet/hpctoolkit-allgather-database:from_hpctoolkit",
        "thicket/mpi_scaling_cali:from_caliperreader",  # a GraphFrame of one .cali
        "thicket/mpi_scaling_cali:thicket",
    )
]


def _load(spec: Any) -> Any:
    if spec.only and spec.only != distribution():
        pytest.skip(f"{spec.id} is read by {spec.only} only")
    return load(spec)


def _rows(df: pd.DataFrame) -> dict[int, pd.DataFrame]:
    """Each node's rows (one per rank, thread or profile), by ``_hatchet_nid``, node level off."""
    at: dict[int, list[int]] = defaultdict(list)
    for k, node in enumerate(df.index.get_level_values("node")):
        at[int(node._hatchet_nid)].append(k)
    out = {}
    for nid, ks in at.items():
        rows = df.iloc[ks]
        multi = isinstance(rows.index, pd.MultiIndex)
        out[nid] = rows.droplevel("node") if multi else rows.reset_index(drop=True)
    return out


def _nearest(t: NodeTable, i: int, keep: set[int]) -> int:
    j = int(t.parent[i])
    while j >= 0 and j not in keep:
        j = int(t.parent[j])
    return j


def _path(node: Any) -> tuple[str, ...]:
    """The frames from the root of the built tree down to ``node``."""
    path = []
    while node is not None:
        path.append(repr(sorted(node.frame.attrs.items())))
        node = node.parents[0] if node.parents else None
    return tuple(reversed(path))


def assert_selected_values(w: Any, data: Any, built: Any, ids: set[int]) -> None:
    """``built`` has one node per id, under the copy of its nearest ancestor in ``ids``, holding
    that node's rows of ``data`` exactly (every column, every rank/thread/profile row)."""
    t = w.table
    nodes = list(built.graph.traverse())
    assert len(nodes) == len(ids), f"{len(nodes)} nodes built for {len(ids)} selected"
    want, have = _rows(data.dataframe), _rows(built.dataframe)
    assert len(have) == len(ids), "the dataframe's nodes are not the tree's"
    # a built node is known by its path of frames; nodes with equal paths by their rows
    pool: dict[tuple[str, ...], list[Any]] = defaultdict(list)
    for node in nodes:
        pool[_path(node)].append(node)
    for i in sorted(ids):
        path, j = [], i
        while j >= 0:
            path.append(repr(sorted(t.nodes[j].frame.attrs.items())))
            j = _nearest(t, j, ids)
        rows = want[int(t.hatchet_nid[i])]
        same = [n for n in pool[tuple(reversed(path))] if have[int(n._hatchet_nid)].equals(rows)]
        if not same:
            held = [have[int(n._hatchet_nid)] for n in pool[tuple(reversed(path))]]
            raise AssertionError(f"node {i} {t.name(i)!r} has rows\n{rows}\nbuilt:\n{held}")
        pool[tuple(reversed(path))].remove(same[0])
    if hasattr(built, "statsframe"):  # a Thicket's per-node table is over the same nodes
        stats = built.statsframe
        assert stats.graph is built.graph
        assert {id(n) for n in stats.dataframe.index} == {id(n) for n in nodes}


def _selected(w: Any, data: Any, ids: list[int], descendants: bool) -> Any:
    w.selection = tuple(ids)
    size = (len(list(data.graph.traverse())), data.dataframe.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Hatchet's and Thicket's own deprecation noise
        built = w.selected_graphframe(descendants=descendants)
    assert (len(list(data.graph.traverse())), data.dataframe.shape) == size, "data changed"
    return built


def _subtrees(t: NodeTable, ids: list[int]) -> set[int]:
    out = set(ids)
    for i in range(t.size):  # pre-order: a parent comes before its children
        if t.parent[i] >= 0 and int(t.parent[i]) in out:
            out.add(i)
    return out


def _depth(t: NodeTable, i: int) -> int:
    d = 0
    while t.parent[i] >= 0:
        i, d = int(t.parent[i]), d + 1
    return d


def _repeated(t: NodeTable) -> tuple[int, list[int]]:
    """A root and the contexts below it, at depth 2 or more, of the function with the most such
    contexts under one root (their callers left out, they become nodes with equal frames)."""
    count: Counter[tuple[int, Any]] = Counter()
    for i in range(t.size):
        if _depth(t, i) >= 2:
            root = i
            while t.parent[root] >= 0:
                root = int(t.parent[root])
            count[(root, t.nodes[i].frame)] += 1
    ((root, frame), n), *_ = count.most_common(1)
    assert n >= 2, "no function has two contexts under one root here"
    under = [i for i in range(t.size) if t.nodes[i].frame == frame and _depth(t, i) >= 2]
    return root, [i for i in under if _nearest(t, i, {root}) == root]


def test_cpi_program_root_and_main_keep_their_inclusive_time() -> None:
    """The report: UMD hatchet's squash gave both ``time (inc)`` 0.0 instead of 999,560.5."""
    spec = next(p for p in REAL if p.id == CPI)
    gf = _load(spec)
    w = cctviz.CCT(gf)
    ids = list(w.select(["<program root>", "main"]))
    built = _selected(w, gf, ids, descendants=False)
    assert_selected_values(w, gf, built, set(ids))
    inclusive = built.dataframe.groupby(level="node")["time (inc)"].mean()
    np.testing.assert_allclose(sorted(inclusive), [999_560.5, 999_560.5])


@pytest.mark.parametrize("spec", REAL, ids=lambda p: p.id)
def test_a_selection_skipping_levels_keeps_every_node_apart_and_its_values(spec: Any) -> None:
    """A root and every context of one function two or more levels below it: those contexts,
    their callers left out, hang under the root (or under one another) with equal frames."""
    data = _load(spec)
    w = cctviz.CCT(data)
    root, contexts = _repeated(w.table)
    ids = [root, *contexts]
    built = _selected(w, data, ids, descendants=False)
    assert_selected_values(w, data, built, set(ids))
    (top,) = built.graph.roots
    direct = [i for i in contexts if _nearest(w.table, i, set(ids)) == root]
    assert len(top.children) == len(direct) >= 2


@pytest.mark.parametrize("spec", REAL, ids=lambda p: p.id)
def test_descendants_keep_whole_subtrees_and_each_node_its_values(spec: Any) -> None:
    """Two contexts of one function (neither inside the other) and the largest subtree two
    levels down apart from them, each with its subtree: the tops become roots, two with equal
    frames, and every node of the subtrees holds its own values."""
    data = _load(spec)
    w = cctviz.CCT(data)
    t = w.table
    _root, contexts = _repeated(t)
    first = contexts[0]
    second = next(i for i in contexts[1:] if i not in _subtrees(t, [first]))
    taken = _subtrees(t, [first, second])
    sizes = {i: len(_subtrees(t, [i])) for i in range(t.size) if _depth(t, i) == 2}
    apart = [i for i in sizes if not _subtrees(t, [i]) & taken]  # nor an ancestor of those
    ids = [first, second, *([max(apart, key=sizes.__getitem__)] if apart else [])]
    built = _selected(w, data, ids, descendants=True)
    members = _subtrees(t, ids)
    assert len(members) > len(ids)
    assert_selected_values(w, data, built, members)
    assert len(built.graph.roots) == len(ids)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=profiles(), data=st.data())
def test_any_selection_of_any_tree_keeps_its_values(p: dict[str, Any], data: Any) -> None:
    """Synthetic trees with few names (siblings with equal frames are common), any selection."""
    gf = _graphframe(p)
    w = cctviz.CCT(gf)
    ids = data.draw(st.sets(st.integers(0, w.table.size - 1), min_size=1))
    descendants = data.draw(st.booleans())
    built = _selected(w, gf, sorted(ids), descendants)
    assert_selected_values(w, gf, built, _subtrees(w.table, list(ids)) if descendants else ids)
