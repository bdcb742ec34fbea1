"""``to_code`` keeps the numbers (issue 28.2): the GraphFrame (or Thicket) its code builds holds,
for every node the view draws, the values the view shows (the full profile's, reduced over ranks
by ``w.reducer``), in both Hatchet distributions; cctviz's derived inclusive metrics agree where
a node's whole subtree is drawn, as the code's comment says."""

from __future__ import annotations

import warnings
from collections import defaultdict
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cctviz
from cctviz.adapters import from_graphframe
from cctviz.adapters.derived import SUFFIX
from cctviz.core.table import NodeTable
from cctviz.view.state import visible_nodes

from .conftest import load
from .profiles import PROFILES, distribution


def _drawn(w: Any) -> list[int]:
    t = w.table
    return visible_nodes(
        t,
        collapsed=w.collapsed,
        prune_range=w.prune_range,
        color_values=t.metrics[w.color_by].values,
        focused=w.focused,
        visible_roots=w.visible_roots,
    )


def _paths(t: NodeTable, ids: list[int]) -> dict[int, tuple[str, ...]]:
    """Each node's frames from its first drawn ancestor down (its call path in the view)."""
    keep, out = set(ids), {}
    for i in ids:
        path, j = [], i
        while j >= 0 and j in keep:
            path.append(repr(sorted(t.nodes[j].frame.attrs.items())))
            j = int(t.parent[j])
        out[i] = tuple(reversed(path))
    return out


def _whole(t: NodeTable, ids: list[int]) -> set[int]:
    """The drawn nodes whose whole subtree in the full profile is drawn."""
    keep, hidden_below = set(ids), np.zeros(t.size, dtype=bool)
    for i in range(t.size - 1, -1, -1):  # pre-order ids: children after parents
        p = int(t.parent[i])
        if p >= 0 and (hidden_below[i] or i not in keep):
            hidden_below[p] = True
    return {i for i in ids if not hidden_below[i]}


def _run(w: Any, data: Any, name: str = "gf") -> tuple[str, Any]:
    code = w.to_code(name)
    scope: dict[str, Any] = {name: data}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the readers' and Hatchet's own deprecation noise
        # the generated code, run as a user would (in a cell: no __future__ import inherited)
        exec(compile(code, "<to_code>", "exec", dont_inherit=True), scope)
    return code, scope["view"]


def assert_view_values(w: Any, built: Any) -> None:
    """Every node drawn is a node of ``built``, holding the values the view shows."""
    ids = _drawn(w)
    t, got = w.table, from_graphframe(built, reducer=w.reducer)
    assert got.size == len(ids), f"{got.size} nodes built for {len(ids)} drawn (merged or extra)"
    metrics = [m for m in t.metrics if not m.endswith(SUFFIX)]
    assert set(metrics) <= set(got.metrics), f"metrics lost: {set(metrics) - set(got.metrics)}"
    kinds = {m: (t.metrics[m].kind, got.metrics[m].kind) for m in metrics}
    assert all(a == b for a, b in kinds.values()), f"kinds read otherwise (view, built): {kinds}"
    want_at, got_at = _paths(t, ids), _paths(got, list(range(got.size)))
    pool: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for j, path in got_at.items():
        pool[path].append(j)
    whole = _whole(t, ids)
    derived = [m for m in t.metrics if m.endswith(SUFFIX)]
    # nodes with the same call path (equal frames, siblings) are told apart by their values, and
    # where nothing below them is hidden by their derived sums too: equal siblings with equal
    # values but other subtrees are then not swapped (those nodes are matched first)
    for i in sorted(ids, key=lambda i: i not in whole):

        def same(j: int, i: int = i) -> bool:
            told = metrics + derived if i in whole else metrics
            wanted = [t.metrics[m].values[i] for m in told]
            have = [got.metrics[m].values[j] for m in told]
            return bool(np.allclose(have, wanted, rtol=1e-9, atol=0, equal_nan=True))

        match = next((j for j in pool[want_at[i]] if same(j)), None)
        if match is None:
            shown = {m: float(t.metrics[m].values[i]) for m in metrics}
            held = [{m: float(got.metrics[m].values[j]) for m in metrics} for j in pool[want_at[i]]]
            raise AssertionError(f"node {i} {t.name(i)!r}: the view shows {shown}, built {held}")
        pool[want_at[i]].remove(match)
        if i in whole:  # the code's comment: derived sums agree where nothing below is hidden
            for m in derived:
                np.testing.assert_allclose(
                    got.metrics[m].values[match], t.metrics[m].values[i], rtol=1e-9
                )


def _configure(w: Any, roots: bool) -> None:
    """Focus on the largest child subtree of a root (or draw all roots but one), collapse a node
    with children in what is drawn, and prune to the upper half of ``color_by`` there."""
    t = w.table
    size = np.ones(t.size, dtype=np.int64)
    for i in range(t.size - 1, 0, -1):
        if t.parent[i] >= 0:
            size[t.parent[i]] += size[i]
    if roots:
        all_roots = [int(r) for r in t.roots]
        w.visible_roots = tuple(all_roots[:-1] or all_roots)
    else:
        top = [i for i in range(t.size) if t.parent[i] >= 0 and t.parent[t.parent[i]] < 0]
        w.focused = max(top, key=lambda i: size[i])
    drawn = _drawn(w)
    inner = [i for i in drawn[1:] if size[i] > 1 and t.parent[i] >= 0]
    if inner:
        w.collapsed = (inner[len(inner) // 2],)
    values = t.metrics[w.color_by].values[_drawn(w)]
    w.prune_range = (float(np.nanquantile(values, 0.5)), float(np.nanmax(values)))


REAL = [
    p
    for p in PROFILES
    if p.id
    in (
        "hatchet/hpctoolkit-cpi-database:from_hpctoolkit",
        "hatchet/hpctoolkit-allgather-database:from_hpctoolkit",
        "hatchet/caliper-example-cali:from_caliperreader",
        "thicket/mpi_scaling_cali:thicket",
    )
]


@pytest.mark.parametrize("roots", [False, True], ids=["focus", "visible_roots"])
@pytest.mark.parametrize("spec", REAL, ids=lambda p: p.id)
def test_to_code_keeps_the_values_of_real_profiles(spec: Any, roots: bool) -> None:
    if spec.only and spec.only != distribution():
        pytest.skip(f"{spec.id} is read by {spec.only} only")
    data = load(spec)
    for reducer in ("mean", "max"):
        w = cctviz.CCT(data, reducer=reducer)
        _configure(w, roots)
        name = "tk" if spec.reader == "thicket" else "gf"
        code, built = _run(w, data, name)
        assert_view_values(w, built)
        derived = [m for m in w.table.metrics if m.endswith(SUFFIX)]
        for m in derived:  # the code says how cctviz's derived metrics relate to it
            assert repr(m) in code and "subtree in the full profile" in code


# -- any tree, any metric: synthetic GraphFrames (and Thickets, LLNL) -------------------------

NAMES = ("a", "b", "c")  # few names: siblings with equal frames are common


@st.composite
def profiles(draw: Any) -> dict[str, Any]:
    n = draw(st.integers(2, 14))
    parents = [-1] + [draw(st.integers(-1, i - 1)) for i in range(1, n)]
    values = st.one_of(st.floats(0, 1e6), st.just(float("nan")))
    ranks = draw(st.integers(1, 2))
    rows = n * ranks
    return {
        "parents": parents,
        "names": [draw(st.sampled_from(NAMES)) for _ in range(n)],
        "ranks": ranks,
        # "time (inc)" is drawn independently of "time": the view shows it as the profile has it
        "columns": {c: draw(st.lists(values, min_size=rows, max_size=rows)) for c in COLUMNS},
    }


COLUMNS = ("time", "time (inc)", "bytes")  # "bytes" has no inclusive partner: cctviz derives one


def _graphframe(p: dict[str, Any]) -> Any:
    import pandas as pd
    from hatchet import GraphFrame
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node

    nodes = [Node(Frame({"name": m, "type": "function"}), hnid=i) for i, m in enumerate(p["names"])]
    for i, parent in enumerate(p["parents"]):
        if parent >= 0:
            nodes[parent].add_child(nodes[i])
            nodes[i].add_parent(nodes[parent])
    graph = Graph([nodes[i] for i, parent in enumerate(p["parents"]) if parent < 0])
    graph.enumerate_traverse()
    ranks = p["ranks"]
    index = [(node, r) for node in nodes for r in range(ranks)]
    df = pd.DataFrame({"name": [node.frame["name"] for node, _ in index], **p["columns"]})
    if ranks > 1:
        df.index = pd.MultiIndex.from_tuples(index, names=["node", "rank"])
    else:
        df.index = pd.Index([node for node, _ in index], name="node")
    metadata = {"hatchet_inclusive_suffix": " (inc)", "hatchet_exclusive_suffix": " (exc)"}
    return GraphFrame(graph, df, ["time", "bytes"], ["time (inc)"], "time", metadata)


@st.composite
def states(draw: Any, size: int, roots: list[int]) -> dict[str, Any]:
    ids = st.integers(0, size - 1)
    state: dict[str, Any] = {
        "reducer": draw(st.sampled_from(["mean", "sum", "max", "min"])),
        "color_by": draw(st.sampled_from(COLUMNS)),
        "collapsed": tuple(draw(st.sets(ids, max_size=2))),
        "focused": draw(st.none() | ids),
        "visible_roots": draw(st.none() | st.sets(st.sampled_from(roots), min_size=1).map(tuple)),
    }
    if draw(st.booleans()):
        lo, hi = sorted(draw(st.lists(st.floats(0, 1e6), min_size=2, max_size=2)))
        state["prune_range"] = (lo, hi)
    return state


def _check_any(data: Any, name: str, draw: Any) -> None:
    w = cctviz.CCT(data)
    state = draw(states(w.table.size, [int(r) for r in w.table.roots]))
    w.reducer = state.pop("reducer")
    for key, value in state.items():
        setattr(w, key, value)
    if not _drawn(w):
        with pytest.raises(ValueError, match="the view draws no node"):
            w.to_code(name)
        return
    _code, built = _run(w, data, name)
    assert_view_values(w, built)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=profiles(), data=st.data())
def test_to_code_of_any_tree_holds_the_values_the_view_shows(p: dict[str, Any], data: Any) -> None:
    _check_any(_graphframe(p), "gf", data.draw)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=profiles(), data=st.data())
def test_to_code_of_any_thicket_holds_the_values_or_warns(p: dict[str, Any], data: Any) -> None:
    thicket = pytest.importorskip("thicket")
    n = len(p["names"])  # one row per node and profile; distinct names (merges: test below)
    p = {**p, "names": [f"f{i}" for i in range(n)], "ranks": 1}
    p["columns"] = {c: v[:n] for c, v in p["columns"].items()}
    tk = thicket.Thicket.thicketize_graphframe(_graphframe(p), "run")
    _check_any(tk, "tk", data.draw)


def test_a_thicket_squash_that_merges_nodes_is_named_in_a_warning_and_the_code() -> None:
    thicket = pytest.importorskip("thicket")
    nan = float("nan")
    # b and its sibling b have equal frames: Thicket's squash makes them one node
    p = {"parents": [-1, 0, 0, 0], "names": ["main", "b", "b", "c"], "ranks": 1}
    p["columns"] = {"time": [1.0, 2.0, 3.0, 4.0], "time (inc)": [10, 2, 3, 4], "bytes": [nan] * 4}
    tk = thicket.Thicket.thicketize_graphframe(_graphframe(p), "run")
    w = cctviz.CCT(tk)
    w.collapsed = ()
    w.prune_range = (1.5, 3.5)  # hides c: a filter is needed
    with pytest.warns(UserWarning, match=r"'b' \(node 1\) \+ 'b' \(node 2\)") as caught:
        code = w.to_code("tk")
    assert "summing their rows" in str(caught[0].message)
    assert "# values not kept: Thicket's squash merges" in code and "'b' (node 2)" in code
    scope: dict[str, Any] = {"tk": tk}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, "<to_code>", "exec", dont_inherit=True), scope)
    merged = from_graphframe(scope["view"])
    b = merged.names.index("b")
    (only,) = np.flatnonzero(merged.name_code == b)
    assert merged.metrics["time"].values[only] == 5.0  # as the warning says: the sum of 2 and 3


def test_equal_siblings_with_equal_values_and_other_subtrees_are_told_apart() -> None:
    """Found by the property test above: siblings with one name and the same values (NaN, 0)
    whose subtrees differ. Paired by their values alone they were swapped, and their derived
    sums compared across the wrong subtrees."""
    nan = float("nan")
    p = {
        "parents": [-1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1],
        "names": ["a"] * 13,
        "ranks": 1,
        "columns": {
            "time": [nan, nan, nan, 0.0, nan, 0.0, nan, nan, nan, nan, 0.0, 0.0, 0.0],
            "time (inc)": [nan, nan, nan, nan, 0.0, 0.0, nan, nan, nan, nan, 0.0, 0.0, 1.0],
            "bytes": [nan, nan, nan, nan, nan, 0.0, 0.0, 0.0, nan, 0.0, 0.0, 1.0, nan],
        },
    }
    state = {"reducer": "mean", "color_by": "time", "collapsed": (), "focused": None}
    state |= {"visible_roots": None, "prune_range": (0.0, 0.0)}
    _check_any(_graphframe(p), "gf", lambda _strategy: dict(state))


@pytest.mark.parametrize("focus", [False, True], ids=["whole", "focus"])
@pytest.mark.parametrize(
    "folder", ["hatchet/hpctoolkit-cpi-database", "hatchet/hpctoolkit-allgather-database"]
)
def test_to_code_of_one_rank_holds_that_ranks_values(folder: str, focus: bool) -> None:
    """Issue 58: with ``w.rank`` chosen, the generated code keeps that rank's rows: run as a user
    would, every node it builds holds the values the view shows of that rank (``node_frame``,
    a derived metric included), which differ from every rank's."""
    spec = next(p for p in PROFILES if p.id == f"{folder}:from_hpctoolkit")
    data = load(spec)
    w = cctviz.CCT(data, budget=None)
    every = w.node_frame
    ranks = sorted(set(data.dataframe.index.get_level_values("rank")))
    assert len(ranks) > 1
    w.rank = ranks[-1]
    if focus:
        _configure(w, roots=False)
    code, built = _run(w, data)
    assert f'xs({ranks[-1]!r}, level="rank", drop_level=False)' in code
    assert set(built.dataframe.index.get_level_values("rank")) == {ranks[-1]}
    assert_view_values(w, built)  # each drawn node, by call path, holds the rank's values
    ids = _drawn(w)
    columns = ["time", "time (inc)"]
    assert not np.allclose(
        every.loc[ids, columns].to_numpy(), w.node_frame.loc[ids, columns].to_numpy()
    )  # one rank's values are not every rank's: a missing filter would be seen
    w.derive("share", "`time` / `time (inc)`")
    _, built = _run(w, data)
    shares = built.dataframe.groupby(level="node")["share"].mean().to_numpy()
    np.testing.assert_allclose(
        np.sort(shares), np.sort(w.node_frame.loc[ids, "share"].to_numpy()), rtol=1e-9
    )
    w.rank = None
    assert 'level="rank"' not in w.to_code()
