"""The GraphFrame adapter against what Hatchet itself says about every readable real profile."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from cctviz import NodeTable, from_graphframe
from cctviz.adapters.derived import SUFFIX

from .conftest import load
from .profiles import Profile, readable


def _reachable(gf) -> list:
    """Every node of the graph once, found through Hatchet's own traversal."""
    return list(gf.graph.traverse())


def _reference(gf, metric: str, reducer: str = "mean") -> dict[int, float]:
    """Per-node values as pandas computes them from gf.dataframe (keyed by id(node))."""
    col = gf.dataframe[metric].astype("float64")
    if isinstance(gf.dataframe.index, pd.MultiIndex):
        nodes = gf.dataframe.index.get_level_values("node")
    else:
        nodes = gf.dataframe.index
    frame = pd.DataFrame({"key": [id(n) for n in nodes], "v": col.to_numpy()})
    grouped = frame.groupby("key")["v"]
    reduced = grouped.sum(min_count=1) if reducer == "sum" else getattr(grouped, reducer)()
    return reduced.to_dict()


def test_every_node_once_with_its_parent(profile: tuple[Profile, object]) -> None:
    _, gf = profile
    table = from_graphframe(gf)
    nodes = _reachable(gf)
    assert table.size == len(nodes) == len({id(n) for n in table.nodes})
    assert {id(n) for n in table.nodes} == {id(n) for n in nodes}
    roots = {id(r) for r in gf.graph.roots}
    for i, node in enumerate(table.nodes):
        p = table.parent[i]
        if p < 0:
            assert id(node) in roots
        else:
            assert p < i, "pre-order: a parent comes before its children"
            assert any(c is node for c in table.nodes[p].children)
            assert table.depth[i] == table.depth[p] + 1
    edges = sum(len(n.children) for n in nodes)
    assert table.extra_edges == edges - (table.size - len(table.roots))


def test_metric_values_equal_the_dataframe(profile: tuple[Profile, object]) -> None:
    _, gf = profile
    table = from_graphframe(gf)
    assert table.metrics, "every readable profile has at least one metric"
    for name, metric in table.metrics.items():
        if name.endswith(SUFFIX):
            continue  # derived inclusive metrics: tests/test_analyst.py
        column = next(c for c in gf.dataframe.columns if str(c) == name)
        assert pd.api.types.is_numeric_dtype(gf.dataframe[column])
        ref = _reference(gf, column)
        expected = np.array([ref.get(id(n), np.nan) for n in table.nodes])
        np.testing.assert_allclose(metric.values, expected, rtol=1e-12, equal_nan=True)


def test_names_match_the_dataframe(profile: tuple[Profile, object]) -> None:
    _, gf = profile
    table = from_graphframe(gf)
    if "name" not in gf.dataframe.columns:
        pytest.skip("this reader has no name column")
    nodes = gf.dataframe.index.get_level_values("node")
    first = {}
    for node, name in zip(nodes, gf.dataframe["name"], strict=True):
        first.setdefault(id(node), name)
    for i, node in enumerate(table.nodes):
        if id(node) in first and isinstance(first[id(node)], str):
            assert table.name(i) == first[id(node)]


def test_metrics_are_numeric_with_kinds_from_the_reader(profile: tuple[Profile, object]) -> None:
    _, gf = profile
    table = from_graphframe(gf)
    for name, m in table.metrics.items():
        assert m.values.dtype == np.float64
        if m.partner is not None:
            assert table.metrics[m.partner].partner == name
            assert {m.kind, table.metrics[m.partner].kind} == {"exclusive", "inclusive"}
    listed = {str(c) for c in [*gf.exc_metrics, *gf.inc_metrics]}
    numeric_listed = {
        str(c)
        for c in listed & {str(c) for c in gf.dataframe.columns}
        if pd.api.types.is_numeric_dtype(
            gf.dataframe[next(x for x in gf.dataframe.columns if str(x) == c)]
        )
    }
    derived = {n for n in table.metrics if n.endswith(SUFFIX)}
    if numeric_listed:
        assert set(table.metrics) - derived == numeric_listed
    # one derived inclusive metric for each exclusive metric the reader gives no partner
    for name in derived:
        exclusive = table.metrics[name].partner
        assert exclusive is not None and exclusive + SUFFIX == name
        assert table.metrics[exclusive].kind == "exclusive"


def _by_folder(folder: str, reader: str | None = None) -> Profile:
    return next(
        p for p in readable() if p.folder == folder and (reader is None or p.reader == reader)
    )


@pytest.mark.parametrize("reducer", ["mean", "sum", "min", "max"])
def test_multi_rank_frames_are_reduced_per_node(reducer: str) -> None:
    gf = load(_by_folder("hatchet/hpctoolkit-cpi-database"))
    table = from_graphframe(gf, reducer=reducer)
    assert table.reducer == reducer and table.reduced_over == ("rank",)
    main = next(i for i in range(table.size) if table.name(i) == "main")
    per_rank = gf.dataframe.xs(table.nodes[main], level="node")["time (inc)"].to_numpy()
    assert len(per_rank) == 4
    assert table.metrics["time (inc)"].values[main] == pytest.approx(getattr(np, reducer)(per_rank))


def test_rank_and_thread_levels_are_both_reduced() -> None:
    gf = load(_by_folder("hatchet/hpctoolkit-allgather-database"))
    table = from_graphframe(gf)
    assert table.reduced_over == ("rank", "thread")


def test_single_row_frames_report_no_reducer() -> None:
    gf = load(_by_folder("hatchet/caliper-example-cali"))
    assert from_graphframe(gf).reducer is None


def test_missing_values_stay_missing_even_when_summed() -> None:
    gf = load(_by_folder("hatchet/hpctoolkit-cpi-database")).deepcopy()
    first_node = gf.dataframe.index.get_level_values("node")[0]
    gf.dataframe.loc[first_node, "time"] = np.nan
    table = from_graphframe(gf, reducer="sum")
    i = next(i for i, n in enumerate(table.nodes) if n._hatchet_nid == first_node._hatchet_nid)
    assert np.isnan(table.metrics["time"].values[i])
    assert np.isfinite(table.metrics["time (inc)"].values[i])


@pytest.mark.parametrize(
    ("folder", "reader"), [("hatchet/cprofile-cycle", None), ("hatchet/gprof2dot-cpi", None)]
)
def test_dags_draw_each_node_once_and_count_extra_edges(folder: str, reader: str | None) -> None:
    gf = load(_by_folder(folder, reader))
    table = from_graphframe(gf)
    assert table.size == len(_reachable(gf))
    assert table.extra_edges > 0
    # every edge not drawn is kept, as (caller, callee): a real Hatchet edge, not the drawn one
    assert table.callers.shape == (table.extra_edges, 2)
    for caller, callee in table.callers.tolist():
        assert table.nodes[callee] in table.nodes[caller].children
        assert table.parent[callee] != caller or table.cycle_edges


def test_other_callers_cross_to_the_browser_in_full_tree_ids() -> None:
    import cctviz

    gf = load(_by_folder("hatchet/gprof2dot-cpi"))
    w = cctviz.CCT(gf)
    sent = w._payload["callers"]
    caller = np.frombuffer(sent["caller"]["buffer"], dtype="<i4")
    callee = np.frombuffer(sent["callee"]["buffer"], dtype="<i4")
    assert sorted(zip(caller.tolist(), callee.tolist(), strict=True)) == sorted(
        map(tuple, w.table.callers.tolist())
    )
    # under level of detail: the edges into the loaded nodes, still in full-tree ids
    for budget in (5, 40):
        small = cctviz.CCT(gf, budget=budget)
        expected = int(small._lod.revealed[w.table.callers[:, 1]].sum())
        columns = small._payload.get("callers")  # none sent when no loaded node has one
        callee = np.frombuffer(columns["callee"]["buffer"], dtype="<i4") if columns else []
        assert len(callee) == expected
        assert set(np.asarray(callee).tolist()) <= set(small.loaded.tolist())
    assert expected > 0


def test_a_cycle_is_counted_and_ends() -> None:
    table = from_graphframe(load(_by_folder("hatchet/cprofile-cycle")))
    assert table.cycle_edges >= 1
    assert table.cycle_edges <= table.extra_edges


def test_table_is_a_node_table(profile: tuple[Profile, object]) -> None:
    _, gf = profile
    table = from_graphframe(gf)
    assert isinstance(table, NodeTable)
    assert table.parent.dtype == np.int32 and table.depth.dtype == np.int32
    assert len(table.names) == len(set(table.names))
    assert table.name_code.max() < len(table.names)


def test_thicket_values_are_reduced_over_profiles() -> None:
    thicket_profiles = [p for p in readable() if p.reader == "thicket"]
    if not thicket_profiles:
        pytest.skip("Thicket needs llnl-thicket (the LLNL test environment)")
    tk = load(thicket_profiles[0])
    assert type(tk).__name__ == "Thicket"
    table = from_graphframe(tk, reducer="max")
    assert table.reduced_over == ("profile",) and table.reducer == "max"
    name = next(iter(table.metrics))
    column = next(c for c in tk.dataframe.columns if str(c) == name)
    ref = _reference(tk, column, "max")
    expected = np.array([ref.get(id(n), np.nan) for n in table.nodes])
    np.testing.assert_allclose(table.metrics[name].values, expected, equal_nan=True)


def test_default_metrics_skip_metrics_measured_on_few_nodes() -> None:
    from cctviz.adapters.metrics import default_pair

    # a Caliper profile: exclusive max# columns on 1 node of 53, inclusive ones on 52
    kinds = {"block": "exclusive", "max#t": "exclusive", "max#inclusive#t": "inclusive",
             "avg#inclusive#t": "inclusive", "block" + SUFFIX: "inclusive"}  # fmt: skip
    partners = {"block": "block" + SUFFIX, "block" + SUFFIX: "block",
                "max#t": "max#inclusive#t", "max#inclusive#t": "max#t"}  # fmt: skip
    values = {"block": 1, "max#t": 1, "max#inclusive#t": 52, "avg#inclusive#t": 52,
              "block" + SUFFIX: 1}  # fmt: skip
    metrics = list(kinds)
    assert default_pair(metrics, kinds, partners, "avg#inclusive#t", values) == (
        "avg#inclusive#t", "avg#inclusive#t")  # fmt: skip
    # without a reader's default: a mean before a maximum, whatever the order
    assert default_pair(metrics, kinds, partners, None, values) == (
        "avg#inclusive#t", "avg#inclusive#t")  # fmt: skip
    assert default_pair(metrics[::-1], kinds, partners, None, values) == (
        "avg#inclusive#t", "avg#inclusive#t")  # fmt: skip
    # a GPU profile: the exclusive activity on 85 of 393 nodes is still a fine colour
    values = {**values, "block": 85, "block" + SUFFIX: 226, "max#t": 0}
    assert default_pair(metrics, kinds, partners, "avg#inclusive#t", values) == (
        "block", "block" + SUFFIX)  # fmt: skip
    # of two exclusive metrics alike, the one with the most values, not the first
    kinds = {**kinds, "t2": "exclusive", "t2 (inc)": "inclusive"}
    partners = {**partners, "t2": "t2 (inc)", "t2 (inc)": "t2"}
    values = {**values, "t2": 300, "t2 (inc)": 300}
    assert default_pair(list(kinds), kinds, partners, None, values) == ("t2", "t2 (inc)")
    # a column named "" is never a default (the front end reads "" as "no metric")
    assert default_pair(["", "time"], {"": "other", "time": "other"}, {}, "", None) == (
        "time", "time")  # fmt: skip
    with pytest.raises(ValueError, match="empty name; rename it"):
        default_pair([""], {"": "other"}, {}, None, None)


@pytest.mark.parametrize("numbering", ["shuffled", "sparse", "negative", "colliding"])
def test_rows_find_their_node_however_hatchet_numbered_it(numbering: str) -> None:
    """Rows map to nodes through ``_hatchet_nid``: a lookup array when the nids are small
    non-negative numbers (Hatchet's own), a sort when they are not, object identity when they
    collide; the values are pandas' in every case (a multi-rank profile: rows repeat per node)."""
    from cctviz.examples import load as load_example

    gf = load_example("hpctoolkit-cpi")  # a fresh copy: its nodes are renumbered below
    nodes = list(gf.graph.traverse())
    order = np.random.default_rng(3).permutation(len(nodes))
    for node, k in zip(nodes, order, strict=True):
        node._hatchet_nid = {
            "shuffled": int(k),
            "sparse": int(k) * 10**12 + 7,
            "negative": -int(k) - 1,
            "colliding": int(k) % 3,
        }[numbering]
    table = from_graphframe(gf)
    assert table.size == len(nodes)
    metric = next(c for c in gf.dataframe.columns if pd.api.types.is_numeric_dtype(gf.dataframe[c]))
    ref = _reference(gf, metric)
    expected = np.array([ref.get(id(n), np.nan) for n in table.nodes])
    assert np.isfinite(expected).sum() > len(nodes) // 2
    np.testing.assert_allclose(table.metrics[str(metric)].values, expected, equal_nan=True)


def _preorder_reference(roots: list) -> tuple[list[int], list[int], list[int], list]:
    """The drawn tree as plainly as it can be said: recursive pre-order, children in list order,
    each node under the first parent it is reached from (ids, parent index, depth, other edges)."""
    import sys

    seen: dict[int, int] = {}
    order: list = []
    parent: list[int] = []
    depth: list[int] = []
    extra: list[tuple[int, int]] = []

    def visit(node, up: int) -> None:
        if id(node) in seen:
            if up >= 0:
                extra.append((up, seen[id(node)]))
            return
        seen[id(node)] = i = len(order)
        order.append(node)
        parent.append(up)
        depth.append(depth[up] + 1 if up >= 0 else 0)
        for child in node.children:
            visit(child, i)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        for root in roots:
            visit(root, -1)
    finally:
        sys.setrecursionlimit(limit)
    return [id(n) for n in order], parent, depth, extra


@pytest.mark.parametrize("folder", ["hatchet/cprofile-cycle", "hatchet/gprof2dot-cpi", "deep"])
def test_the_walk_is_the_plain_recursive_preorder(folder: str) -> None:
    """The adapter's fast walk (a stack of children iterators, depths from its subtree spans) draws
    the same tree as a plain recursive walk: on a cycle, a DAG and a 3,000-deep chain with
    branches."""
    from cctviz.adapters.spanning import spanning_tree

    if folder == "deep":
        import hatchet as ht

        chain: dict = {"frame": {"name": "leaf", "type": "function"}, "metrics": {"time": 1.0}}
        for i in range(3000):
            twig = {"frame": {"name": f"t{i}", "type": "function"}, "metrics": {"time": 1.0}}
            chain = {
                "frame": {"name": f"f{i}", "type": "function"},
                "metrics": {"time": 1.0},
                "children": [twig, chain] if i % 3 else [chain],
            }
        import sys

        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(30_000)
        try:
            gf = ht.GraphFrame.from_literal([chain])
        finally:
            sys.setrecursionlimit(limit)
    else:
        gf = load(_by_folder(folder))
    roots = list(gf.graph.roots)
    nodes, parent, depth, extra = spanning_tree(roots)
    ids, ref_parent, ref_depth, ref_extra = _preorder_reference(roots)
    assert [id(n) for n in nodes] == ids
    assert list(parent) == ref_parent and list(depth) == ref_depth
    assert extra == ref_extra
    assert max(depth) >= (3000 if folder == "deep" else 2)


@pytest.mark.parametrize("seed", range(6))
def test_parents_from_preorder_depths_are_the_stacks_parents(seed: int) -> None:
    """The walk's parents come from its depths afterwards (the last node one level up): on random
    pre-orders (several roots, fans, chains), they are the parents a stack walk gives."""
    from cctviz.adapters.spanning import _parents

    rng = np.random.default_rng(seed)
    stack: list[int] = []
    parent: list[int] = []
    for i in range(int(rng.integers(1, 3000))):
        stack = stack[: int(rng.integers(0, len(stack) + 1))] if rng.random() < 0.4 else stack
        parent.append(stack[-1] if stack else -1)
        stack.append(i)
    depth = np.zeros(len(parent), dtype=np.int32)
    for i, p in enumerate(parent):
        depth[i] = 0 if p < 0 else depth[p] + 1
    assert _parents(depth).tolist() == parent


def test_name_column_keeps_every_text_apart_and_fills_missing_names_from_frames() -> None:
    """The name column's quick paths (read now, factorised when first needed; the string table
    kept as it is) against what the names are: lone surrogates that pandas hashes alike stay
    apart, None and NaN take the frame's name, a node without rows its frame's text; the texts
    of a few rows (a picture's) are the same read before and after the whole column is."""
    from cctviz.adapters.text import text_column
    from cctviz.core.text_column import TextColumn

    class Frame:
        def __init__(self, attrs: dict) -> None:
            self.attrs = attrs

        def __str__(self) -> str:
            return "<frame>"

    class Node:
        def __init__(self, attrs: dict) -> None:
            self.frame = Frame(attrs)

    def texts(column: TextColumn, rows: np.ndarray | None = None) -> list[str]:
        codes, table = (column.codes, column.table) if rows is None else column.at(rows)
        assert len(set(table)) == len(table) and codes.dtype == np.int32
        return [table[c] for c in codes]

    names = ["a", "\ud800", "\udfff", None, float("nan"), "a", "b\ud800", "b\udfff", "x"]
    nodes = [Node({"name": f"f{i}", "type": "loop"}) for i in range(len(names))]
    column = text_column(pd.DataFrame({"name": names}), "name", np.arange(9), nodes)
    rows = np.array([8, 1, 2, 0, 5, 3])
    assert texts(column, rows) == ["x", "\ud800", "\udfff", "a", "a", "f3"]  # before
    assert texts(column) == ["a", "\ud800", "\udfff", "f3", "f4", "a", "b\ud800", "b\udfff", "x"]
    assert texts(column, rows) == ["x", "\ud800", "\udfff", "a", "a", "f3"]  # after
    nodes[0].frame.attrs["name"] = "changed"  # read when drawn, not when the frames change
    assert texts(column)[0] == "a"
    types = text_column(pd.DataFrame({"name": names}), "type", np.arange(9), nodes)
    assert texts(types, np.array([4])) == ["loop"]
    assert types.table == ["loop"] and set(types.codes.tolist()) == {0}
    frame = pd.DataFrame({"name": ["p", "q"]})
    column = text_column(frame, "name", np.array([0, 1, -1]), [Node({})] * 3)
    frame.loc[0, "name"] = "changed"  # the column was read when the table was made
    assert texts(column) == ["p", "q", "<frame>"]


def _copied_rows(gf):
    """``gf`` with every dataframe row's node a copy (the same nid, another object)."""
    from hatchet.node import Node

    index = gf.dataframe.index
    level = index.names.index("node")
    copies = {n: Node(n.frame, hnid=n._hatchet_nid) for n in index.levels[level]}
    gf.dataframe.index = index.set_levels(index.levels[level].map(copies.get), level=level)
    return gf


@pytest.mark.parametrize("rows", ["the graph's nodes", "copies"])
def test_rows_match_their_node_by_identity_or_else_by_nid(
    rows: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader's frame holds the graph's own nodes, each once and sorted by nid: rows match their
    node by identity, without reading each row node's nid (1M nodes: 0.4 s). Rows holding
    copies of the nodes (Hatchet's equality: the same nid) match through the nids, as before."""
    import cctviz.adapters.graphframe as adapter
    from cctviz.examples import load as load_example

    gf = load_example("hpctoolkit-cpi")  # a multi-rank profile: the node level of a MultiIndex
    if rows == "copies":
        gf = _copied_rows(gf)
    passes = []
    read = adapter._nids
    monkeypatch.setattr(adapter, "_nids", lambda nodes: passes.append(len(nodes)) or read(nodes))
    table = from_graphframe(gf)
    assert len(passes) == (1 if rows == "the graph's nodes" else 2)
    by_nid = {}
    for metric in ("time", "time (inc)"):
        ref = gf.dataframe[metric].groupby(
            gf.dataframe.index.get_level_values("node").map(lambda n: n._hatchet_nid)
        )
        by_nid[metric] = ref.mean()
        expected = [by_nid[metric].get(n._hatchet_nid, np.nan) for n in table.nodes]
        np.testing.assert_allclose(table.metrics[metric].values, expected, equal_nan=True)


def test_addresses_are_the_objects_ids_or_none() -> None:
    from cctviz.adapters.graphframe import _addresses

    objects = np.empty(5, dtype=object)
    objects[:] = [object() for _ in range(5)]
    assert _addresses(objects).tolist() == [id(o) for o in objects]
    assert _addresses(objects[::2]) is None  # not contiguous: no buffer of pointers to read
    assert _addresses(np.arange(3)) is None  # not objects


@pytest.mark.parametrize("example", ["hpctoolkit-cpi", "caliper-sw4-cuda"])
def test_names_are_the_dataframes_at_reading_not_after_a_later_change(example: str) -> None:
    """Names are read when the picture needs them, but as the dataframe was when the table was
    built: a frame of one row per node (sw4, kept as a copy in row order) and of rows per rank
    (cpi), read in part (a picture's nodes) and whole, after the name column changed in place."""
    from cctviz.examples import load as load_example

    gf = load_example(example)
    table = from_graphframe(gf)
    first = gf.dataframe["name"].groupby(level="node", sort=False).first()
    want = [str(first[node]) for node in table.nodes]
    cells = gf.dataframe["name"].to_numpy()
    assert np.shares_memory(cells, gf.dataframe["name"].to_numpy())  # what the test changes
    cells[:] = "changed"
    some = np.arange(table.size)[::-3]
    codes, texts = table.name_text.at(some)
    assert [texts[c] for c in codes] == [want[i] for i in some]
    assert [table.name(i) for i in range(table.size)] == want


def test_the_table_keeps_its_nodes_where_the_garbage_collector_does_not_look() -> None:
    """A list of a million nodes, young after ``CCT(gf)``, cost the next collections 0.1-0.3 s
    each (every element visited); the table holds them in an object array instead, which the
    collector does not traverse, and which indexes, iterates and counts as the list did."""
    import gc

    from cctviz.examples import load as load_example

    gf = load_example("hpctoolkit-cpi")
    table = from_graphframe(gf)
    assert isinstance(table.nodes, np.ndarray) and not gc.is_tracked(table.nodes)
    walked = list(gf.graph.traverse())
    assert len(table.nodes) == table.size == len(walked)
    assert {id(n) for n in table.nodes} == {id(n) for n in walked}
    assert table.nodes[0] is gf.graph.roots[0]
