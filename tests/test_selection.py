"""Selections as pandas and Hatchet objects, and Python selecting in the widget."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.core.callpath import call_path, path_key
from cctviz.view.selection import hatchet_filter

from .conftest import load
from .profiles import Profile, distribution, readable, two_runs

# UMD hatchet 1.4.1 itself fails to squash any filter of these (its inclusive-metric
# recomputation breaks with pandas 2 on these multi-index frames): a Hatchet limit, not cctviz's
SQUASH_FAILS = {
    "hatchet/hatchet_cpi_v4_database:from_hpctoolkit",
    "hatchet/hpctoolkit-allgather-database:from_hpctoolkit",
    "hatchet/timemory-wall:from_timemory",
}


def _pick(table, k: int = 3) -> list[int]:
    """A few spread-out node ids with metrics (deterministic)."""
    step = max(1, table.size // (k + 1))
    return sorted({min(table.size - 1, step * (j + 1)) for j in range(k)})


def _paths(nodes) -> list:
    return sorted(map(repr, (path_key(call_path(n)) for n in nodes)))


def _frames(nodes) -> list:
    return sorted(repr(sorted(n.frame.attrs.items())) for n in nodes)


def _filtered(gf, query, squash: bool):
    """Hatchet's filter; without squash the graph keeps its shape and the kept rows name nodes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kept = hatchet_filter(gf, query, squash=squash)
    if squash:
        return list(kept.graph.traverse())
    return list(dict.fromkeys(kept.dataframe.index.get_level_values("node")))


def test_selected_frame_equals_loc(profile: tuple[Profile, object]) -> None:
    _, gf = profile
    w = cctviz.CCT(gf)
    w.selection = _pick(w.table)
    nodes = [w.table.nodes[i] for i in w.selection]
    pd.testing.assert_frame_equal(w.selected_frame, gf.dataframe.loc[nodes])
    assert w.selected_nodes == nodes


def test_selection_query_matches_exactly_the_selection(profile: tuple[Profile, object]) -> None:
    spec, gf = profile
    w = cctviz.CCT(gf)
    w.selection = _pick(w.table)
    # the same calling contexts, each once: call paths identify nodes in these profiles
    assert _paths(_filtered(gf, w.selection_query, squash=False)) == _paths(w.selected_nodes)
    if spec.id in SQUASH_FAILS and distribution() == "umd":
        return
    # squash merges kept nodes with equal frames that become siblings: compare the frames as sets
    squashed = _filtered(gf, w.selection_query, squash=True)
    assert set(_frames(squashed)) == set(_frames(w.selected_nodes))


def test_selection_query_finds_the_same_contexts_in_another_run() -> None:
    a, b = two_runs()
    w = cctviz.CCT(a)
    w.select(["CalcHourglassControlForElems", "IntegrateStressForElems"])
    assert len(w.selection) == 2
    kept = _filtered(b, w.selection_query, squash=False)
    names = sorted(n.frame.get("name") for n in kept)
    assert names == ["CalcHourglassControlForElems", "IntegrateStressForElems"]
    assert _paths(kept) == _paths(w.selected_nodes)
    assert all(id(n) not in {id(m) for m in w.selected_nodes} for n in kept)


def test_selected_graphframe_with_and_without_descendants(profile: tuple[Profile, object]) -> None:
    _spec, gf = profile
    w = cctviz.CCT(gf)
    w.selection = _pick(w.table, 2)
    # Hatchet's squash is not used, so this works where UMD hatchet cannot squash (SQUASH_FAILS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        only = w.selected_graphframe()
        subtree = w.selected_graphframe(descendants=True)
    assert set(_frames(only.graph.traverse())) == set(_frames(w.selected_nodes))
    assert len(list(only.graph.traverse())) == len(w.selection)  # no node merged
    table = w.table
    members = {i for i in range(table.size) for j in w.selection if _is_in_subtree(table, i, j)}
    assert len(list(subtree.graph.traverse())) == len(members)


def _is_in_subtree(table, i: int, root: int) -> bool:
    while i >= 0:
        if i == root:
            return True
        i = int(table.parent[i])
    return False


@pytest.fixture
def cpi():
    return load(next(p for p in readable() if p.folder == "hatchet/hpctoolkit-cpi-database"))


def test_select_accepts_ids_nodes_names_queries_and_callables(cpi) -> None:
    w = cctviz.CCT(cpi)
    main = w.table.names.index("main")
    main_id = int(np.flatnonzero(w.table.name_code == main)[0])
    assert w.select(main_id) == (main_id,)
    assert w.select(w.table.nodes[main_id]) == (main_id,)
    assert w.select("main") == (main_id,)
    assert w.select([{"name": "main"}]) == (main_id,)
    try:
        from hatchet.query import Query as BaseQuery
    except ImportError:
        from hatchet.query import QueryMatcher as BaseQuery

    query = BaseQuery().match(".", lambda rows: (rows["name"] == "main").all())
    assert w.select(query) == (main_id,)
    big = w.select(lambda row: row["time"] > 100_000)
    expected = {
        id(n) for n in cpi.dataframe.index.get_level_values("node")[cpi.dataframe["time"] > 100_000]
    }
    assert {id(w.table.nodes[i]) for i in big} == expected
    assert w.select([main_id, "PMPI_Init"], add=False)[0] == main_id
    before = w.selection
    assert 5 not in before and w.select(5, add=True) == (*before, 5)


def test_select_errors_say_what_is_accepted(cpi) -> None:
    w = cctviz.CCT(cpi)
    with pytest.raises(ValueError, match=r"no node is named 'mian'; close names: 'main'"):
        w.select("mian")
    with pytest.raises(ValueError, match=r"node id 999 is out of range"):
        w.select(999)
    with pytest.raises(TypeError, match=r"cannot select float 2.5; accepted: node ids, hatchet"):
        w.select(2.5)
    with pytest.raises(TypeError, match=r"must return True or False"):
        w.select(lambda row: row["time"])
    other = load(next(p for p in readable() if p.folder == "hatchet/caliper-example-cali"))
    with pytest.raises(ValueError, match=r"is not in this tree"):
        w.select(next(iter(other.graph.roots)))
    with pytest.raises(ValueError, match=r"nothing is selected"):
        w.selected_graphframe()


def test_on_select_and_python_driven_view_state(cpi) -> None:
    w = cctviz.CCT(cpi)
    seen = []
    w.on_select(seen.append)
    w.set_state({"selection": [2, 3]})  # as a click in the browser arrives
    main = w.select("main")[0]
    w.on_select(seen.append, remove=True)
    w.select(4)
    assert seen == [(2, 3), (main,)]  # nothing after remove=True
    assert w.focus("main") == main and w.focused == main
    assert w.focus(None) is None
    assert main in w.collapse("main")
    leaf = int(np.flatnonzero(~np.isin(np.arange(w.table.size), w.table.parent))[0])
    assert leaf not in w.collapse(leaf)
    assert w.expand(leaf) == ()  # expanding a node opens its collapsed ancestors
    w.collapse("main")
    assert w.expand() == ()
    assert w.highlight("PMPI_Init") == tuple(w.select("PMPI_Init"))
    with pytest.raises(ValueError, match="exactly one node"):
        w.focus(lambda row: True)


def test_a_selected_call_path_hands_off_as_one_tree_with_every_name() -> None:
    # the selections notebook's hand-off: the hot path of cpi, statements without a name included
    gf = cctviz.examples.load("hpctoolkit-cpi")
    w = cctviz.CCT(gf)
    total = gf.dataframe["time (inc)"].max()
    w.select(lambda row: row["time (inc)"] > 0.25 * total)
    names = sorted(w.table.name(i) for i in w.selection)
    assert len(names) == 15 and "<unknown file>:0" in names
    sub = w.selected_graphframe()
    assert len(sub.graph.roots) == 1
    nodes = list(sub.graph.traverse())
    assert sorted(sub.dataframe.loc[n, "name"].iloc[0] for n in nodes) == names
    matched = gf.filter(w.selection_query, squash=False, num_procs=1)
    assert sorted(matched.dataframe.groupby(level="node")["name"].first()) == names
