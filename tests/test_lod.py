"""Level of detail: what big trees send to the browser, the sums of their folds, lazy expansion."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import cctviz
from cctviz.core.table import Metric
from cctviz.view.lod import LevelOfDetail

from .conftest import load
from .profiles import REPO, readable
from .tables import node_table

sys.path.insert(0, str(REPO / "benchmarks"))
from synthetic import graphframe


@pytest.fixture(scope="module")
def big() -> Any:
    return graphframe(20_000, seed=3)


def descendants(parent: np.ndarray, roots: list[int]) -> set[int]:
    """Brute force, independent of cctviz.view.lod: every node under (and including) ``roots``."""
    children: dict[int, list[int]] = {}
    for i, p in enumerate(parent.tolist()):
        children.setdefault(p, []).append(i)
    out, stack = set(), list(roots)
    while stack:
        i = stack.pop()
        out.add(i)
        stack.extend(children.get(i, []))
    return out


def check_folds(table: cctviz.NodeTable, lod: LevelOfDetail) -> int:
    """Every fold's count and sums against the full tree; returns the number of folds."""
    drawn = lod.drawn()
    parent = table.parent
    d_parent = drawn.table.parent
    folds = np.flatnonzero(drawn.node_id < 0)
    for row in folds.tolist():
        owner_row = int(d_parent[row])
        owner = int(drawn.node_id[owner_row]) if owner_row >= 0 else -1
        hidden_children = [
            i for i in range(table.size) if parent[i] == owner and not lod.revealed[i]
        ]
        hidden = descendants(parent, hidden_children)
        assert drawn.folded[row] == len(hidden) > 0
        for name, metric in table.metrics.items():
            got = drawn.table.metrics[name].values[row]
            if metric.kind == "inclusive":
                part = metric.values[hidden_children]
            else:
                part = metric.values[sorted(hidden)]
            combine = np.nanmax if metric.kind in ("ratio", "max") else np.nansum
            want = combine(part) if np.any(~np.isnan(part)) else np.nan
            if metric.kind == "other":  # no aggregate of a metric of no known kind
                want = np.nan
            np.testing.assert_allclose(got, want, rtol=1e-9, equal_nan=True, err_msg=name)
    return len(folds)


def test_best_first_reveals_the_budget_and_keeps_ancestors(big: Any) -> None:
    table = cctviz.from_graphframe(big)
    lod = LevelOfDetail(table, budget=1500)
    revealed = np.flatnonzero(lod.revealed)
    drawn = lod.drawn()
    # the budget, plus the nodes that would each have been alone in a fold ("1 more")
    assert 1500 <= revealed.shape[0] <= 1500 + (drawn.node_id < 0).sum()
    assert (drawn.folded[drawn.node_id < 0] > 1).all()
    parents = table.parent[revealed]
    assert lod.revealed[parents[parents >= 0]].all()  # ancestor-closed
    # best-first on inclusive time: nothing hidden at the frontier beats a revealed inner node
    inc = table.metrics["time (inc)"].values
    frontier = (~lod.revealed) & (table.parent >= 0) & lod.revealed[np.maximum(table.parent, 0)]
    inner = revealed[lod.size[revealed] > 1]
    assert inc[frontier].max() <= inc[inner].min()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_children_are_put_in_rank_order_as_far_as_they_are_read(seed: int) -> None:
    """Each node's children are ordered by rank (largest first, ties in table order) only as far
    as best-first and "load more" read them, a chunk at a time: every prefix is what one stable
    sort of all of them gives, on fans of 5,000 and 2,999 children with tied and missing ranks."""
    rng = np.random.default_rng(seed)
    n = 8_001  # the root; 5,000 leaves and node 5,001 under it; 2,999 leaves under that
    parent = np.zeros(n, dtype=np.int64)
    parent[0], parent[5_002:] = -1, 5_001
    values = rng.choice([0.0, 1.0, 2.0, 5.0, np.nan], size=n) * rng.choice([1, 1, 1, 7], size=n)
    values[[0, 5_001]] = [1e9, 1e8]
    table = node_table(
        parent.tolist(), [f"f{i % 50}" for i in range(n)], {"t": Metric("t", values, "inclusive")}
    )
    lod = LevelOfDetail(table, budget=40)
    rank = np.where(np.isnan(values), -np.inf, np.abs(values))

    def stable(p: int) -> list[int]:
        kids = np.flatnonzero(parent == p)
        return kids[np.argsort(-rank[kids], kind="stable")].tolist()

    for p in (0, 5_001):
        whole = stable(p)
        for k in (1, 3, 64, 65, 200, 1_000, len(whole) + 5):
            lod._ranked.order(p, k)
            done = lod._ranked.in_order(p)
            assert done >= min(k, len(whole))
            got = lod._ranked.children(p).tolist()
            assert got[:done] == whole[:done] and sorted(got) == sorted(whole)
    # best-first revealed the largest; "load more" reveals the largest hidden, in that order
    assert lod.revealed[stable(0)[:5]].all()
    hidden = [c for c in stable(5_001) if not lod.revealed[c]]
    assert lod.load_more(5_001, 150) >= 150
    assert lod.revealed[hidden[:150]].all() and not lod.revealed[hidden[150:]].any()


@pytest.mark.parametrize("seed", range(6))
def test_top_ranks_are_what_best_first_reveals(seed: int) -> None:
    """Where no child outranks its parent, the budget's best ranks of the whole table (one
    partition) are exactly the nodes the best-first heap walk from the roots reveals: random
    trees of several roots, tied ranks (small integers, zeros) and missing ones (NaN leaves);
    where a child outranks its parent, nothing is revealed by ranks and the heap walk decides."""
    from cctviz.view.lod import _reveal_top

    rng = np.random.default_rng(seed)
    n = 3_000
    parent = np.array(
        [-1 if i == 0 or rng.random() < 0.01 else rng.integers(0, i) for i in range(n)]
    )
    own = rng.choice([0.0, 0.0, 1.0, 2.0, 3.0], size=n)
    inclusive = own.copy()
    for i in range(n - 1, 0, -1):  # pre-order: children after their parent
        if parent[i] >= 0:
            inclusive[parent[i]] += inclusive[i]
    leaves = np.setdiff1d(np.arange(n), parent)
    inclusive[rng.choice(leaves, size=50, replace=False)] = np.nan
    table = node_table(
        parent.tolist(), [f"f{i}" for i in range(n)], {"t": Metric("t", inclusive, "inclusive")}
    )
    rank = np.where(np.isnan(inclusive), -np.inf, inclusive)
    for budget in (1, 7, 150, 1_000, n - 3, n, n + 10):
        lod = LevelOfDetail(table, budget=budget)  # by ranks
        heap = np.zeros(n, dtype=bool)
        lod.revealed, by_ranks = heap, lod.revealed
        lod._reveal_by_heap(budget, rank)
        lod._reveal_single_folds()
        np.testing.assert_array_equal(by_ranks, heap, err_msg=f"budget {budget}")
        assert heap.sum() >= min(budget, n)
    # a child above its parent (a difference between runs): ranks alone cannot say
    outranked = rank.copy()
    outranked[np.flatnonzero(parent >= 0)[0]] = rank.max() + 1
    untouched = np.zeros(n, dtype=bool)
    assert not _reveal_top(untouched, table.parent + 1, outranked, 100)
    assert not untouched.any()


def test_children_are_ranked_only_when_a_gesture_needs_them(big: Any) -> None:
    """A first picture chosen by ranks does not order any node's children (40-60 ms at 1M
    nodes); the first load-more does, and reveals what a level of detail ranked at once would."""
    table = cctviz.from_graphframe(big)
    lod = LevelOfDetail(table, budget=300)
    drawn = lod.drawn()
    assert lod._ranked_children is None  # neither the choice nor what is sent ranks children
    fold = int(np.flatnonzero(drawn.node_id < 0)[0])  # the first fold row, and its node
    parent = int(drawn.table.parent[fold])
    node = -1 if parent < 0 else int(drawn.node_id[parent])
    eager = LevelOfDetail(table, budget=300)
    assert eager._ranked is not None  # made before any gesture
    assert lod.load_more(node, 20) == eager.load_more(node, 20) > 0
    assert lod._ranked_children is not None
    np.testing.assert_array_equal(lod.revealed, eager.revealed)


def test_fold_counts_and_sums_match_the_full_tree(big: Any) -> None:
    table = cctviz.from_graphframe(big)
    lod = LevelOfDetail(table, budget=300)
    assert check_folds(table, lod) > 10
    drawn = lod.drawn()
    # nothing lost: loaded nodes plus what the folds stand for is the whole tree, and the sums
    # of exclusive time over the sent table equal the full tree's
    assert (drawn.node_id >= 0).sum() + drawn.folded.sum() == table.size
    np.testing.assert_allclose(
        np.nansum(drawn.table.metrics["time"].values), np.nansum(table.metrics["time"].values)
    )


# the largest real profiles in ../shared/data (105 to 1,474 nodes; a DAG and Caliper among them)
LARGEST = {
    "hatchet/hpctoolkit-allgather-database",
    "hatchet/caliper-sw4-cuda-activity-profile-cali",
    "hatchet/hatchet_cpi_v4_database",
    "thicket/XL_BaseCuda",
    "hatchet/pyinstrument",
    "hatchet/gprof2dot-cpi",
}


@pytest.mark.parametrize("spec", [p for p in readable() if p.folder in LARGEST], ids=lambda p: p.id)
def test_fold_sums_on_real_profiles(spec: Any) -> None:
    table = cctviz.from_graphframe(load(spec))
    lod = LevelOfDetail(table, budget=table.size // 5)
    assert check_folds(table, lod) > 0


def test_sent_table_is_a_preorder_tree_of_real_nodes(big: Any) -> None:
    table = cctviz.from_graphframe(big)
    drawn = LevelOfDetail(table, budget=800).drawn()
    parent = drawn.table.parent
    assert (parent < np.arange(parent.shape[0])).all()
    real = np.flatnonzero(drawn.node_id >= 0)
    ids = drawn.node_id[real]
    assert [drawn.table.name(r) for r in real[:50]] == [table.name(i) for i in ids[:50]]
    # a real row's parent row is its full-tree parent; depths agree
    pr = parent[real]
    assert (drawn.node_id[pr[pr >= 0]] == table.parent[ids[pr >= 0]]).all()
    assert (drawn.table.depth[real] == table.depth[ids]).all()
    assert set(drawn.table.types) >= {"folded"}
    # a fold row comes right after its owner's loaded subtree: every row between the owner and
    # the fold is in that subtree, and the row after the fold is not
    folds = np.flatnonzero(drawn.node_id < 0)
    assert folds.size > 10
    for row in folds.tolist():
        owner = int(parent[row])
        if owner < 0:
            continue
        under = descendants(parent, [owner])
        assert set(range(owner, row + 1)) <= under
        assert row + 1 == parent.shape[0] or row + 1 not in under


def test_a_picture_reads_only_its_drawn_nodes_names_and_types() -> None:
    """A profile's names and types are factorised when first needed, not for its first picture
    (a million distinct names take ~0.6 s): the picture's names and types, read from the drawn
    nodes alone, are those the whole columns give once read, and the same picture after."""
    gf = graphframe(5_000, seed=5, names=3_000)
    w = cctviz.CCT(gf)
    names, types = w.table.name_text, w.table.type_text
    assert not names.factorised and not types.factorised
    before = w._lod.drawn()
    real = np.flatnonzero(before.node_id >= 0)
    shown = [before.table.name(r) for r in real]
    kinds = [before.table.types[before.table.type_code[r]] for r in real]
    assert not names.factorised and not types.factorised
    ids = before.node_id[real]
    assert shown == [w.table.name(i) for i in ids] == [gf.dataframe.loc[w.table.nodes[i], "name"]
                                                       for i in ids]  # fmt: skip
    assert kinds == [w.table.types[w.table.type_code[i]] for i in ids] == ["function"] * len(ids)
    assert names.factorised and types.factorised
    after = w._lod.drawn()
    assert [after.table.name(r) for r in real] == shown
    for drawn in (before, after):  # one code a name: equal names, equal codes
        codes = drawn.table.name_code[real]
        assert len(set(codes.tolist())) == len(set(shown))
    assert w._payload["size"] == before.table.size


def test_widget_sends_a_budget_and_expands_a_fold_by_command(
    big: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    w = cctviz.CCT(big, budget=1000)
    assert w.budget == 1000 and w.table.size == 20_000  # the full tree stays in Python
    before = w.loaded.shape[0]
    assert 1000 <= before < 1100
    assert w._payload["total"] == 20_000 and w._payload["size"] > before
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    # the fold with the most nodes, as the front end would ask for it: by its parent's id
    drawn = w._lod.drawn()
    fold = int(np.argmax(drawn.folded))
    owner = int(drawn.node_id[drawn.table.parent[fold]])
    hidden_before = int((~w._lod.revealed[np.flatnonzero(w.table.parent == owner)]).sum())
    w._on_message(w, {"type": "load_more", "id": 41, "node": owner}, [])
    assert [(m["type"], m["id"], m["ok"]) for m in sent] == [("reply", 41, True)]
    assert sent[0]["loaded"] >= min(200, hidden_before)
    assert w.loaded.shape[0] == before + sent[0]["loaded"]
    # the payload now holds those children
    node_id = np.frombuffer(w._payload["node_id"]["buffer"], dtype="<i4")
    children = np.flatnonzero(w.table.parent == owner)
    assert np.isin(children[w._lod.revealed[children]], node_id).all()
    check_folds(w.table, w._lod)


def test_bad_expand_commands_get_an_error_reply(big: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    w = cctviz.CCT(big, budget=500)
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    hidden = int(np.flatnonzero(~w._lod.revealed)[0])
    w._on_message(w, {"type": "load_more", "id": 1, "node": hidden}, [])
    w._on_message(w, {"type": "load_more", "id": 2, "node": "main"}, [])
    w._on_message(w, {"type": "load_more", "id": 3, "node": 10**9}, [])
    assert [(m["id"], m["ok"]) for m in sent] == [(1, False), (2, False), (3, False)]
    assert "is not shown" in sent[0]["error"] and "needs a node id" in sent[1]["error"]
    assert "no node 1000000000: ids go from 0 to 19999" in sent[2]["error"]


def test_selecting_a_node_not_sent_loads_it_and_its_path(big: Any) -> None:
    w = cctviz.CCT(big, budget=500)
    deep = int(np.flatnonzero(~w._lod.revealed)[-1])
    w.select([deep])
    assert w.selection == (deep,)
    path = []
    i = deep
    while i >= 0:
        path.append(i)
        i = int(w.table.parent[i])
    assert w._lod.revealed[path].all()
    node_id = np.frombuffer(w._payload["node_id"]["buffer"], dtype="<i4")
    assert deep in node_id
    assert w.selected_nodes == [w.table.nodes[deep]]  # real Hatchet nodes, not rows


def test_focus_and_highlight_load_their_nodes(big: Any) -> None:
    w = cctviz.CCT(big, budget=500)
    hidden = np.flatnonzero(~w._lod.revealed)
    w.focused = int(hidden[0])
    w.highlight([int(hidden[1])])
    assert w._lod.revealed[hidden[:2]].all()


def test_search_runs_over_the_full_tree_and_loads_nothing(big: Any) -> None:
    # a search only counts (the page marks and counts); a step or "show all" loads (test_search.py)
    w = cctviz.CCT(big, budget=500)
    hidden = np.flatnonzero(~w._lod.revealed)
    name = w.table.name(int(hidden[-1]))
    w.search = name
    matches = w.search_matches
    assert int(hidden[-1]) in matches
    assert not w._lod.revealed[int(hidden[-1])]
    assert w._search_count["count"] == len(matches)


def test_small_trees_and_budget_none_send_everything(big: Any) -> None:
    small = cctviz.CCT(cctviz.examples.load("hpctoolkit-cpi"))
    assert "node_id" not in small._payload and small.loaded.shape[0] == small.table.size
    full = cctviz.CCT(big, budget=None)
    assert full.budget is None and full._payload["size"] == 20_000
    for bad in (0, -5, 2.5, True, "1000"):
        with pytest.raises(ValueError, match="budget is the number of nodes drawn at first"):
            cctviz.CCT(big, budget=bad)


def test_reducer_change_keeps_what_was_loaded(big: Any) -> None:
    w = cctviz.CCT(big, budget=500)
    deep = int(np.flatnonzero(~w._lod.revealed)[-1])
    w.select([deep])
    w.reducer = "max"
    assert w._lod.revealed[deep]
    check_folds(w.table, w._lod)


def test_figures_show_what_the_browser_has(big: Any) -> None:
    import xml.etree.ElementTree as ET

    pytest.importorskip("playwright")
    w = cctviz.CCT(big, budget=400, fold_to_fit=False)
    root = ET.fromstring(w.to_svg())
    marks = [e for e in root.iter() if "cct-node" in e.get("class", "").split()]
    folds = [e for e in marks if "cct-aggregate" in e.get("class", "")]
    assert len(marks) == w._payload["size"]
    assert len(folds) == int((np.frombuffer(w._payload["folded"]["buffer"], "<i4") > 0).sum())


def test_load_sends_nodes_by_query_or_name(big: Any) -> None:
    w = cctviz.CCT(big, budget=500)
    hidden = np.flatnonzero(~w._lod.revealed)
    target = int(hidden[-1])
    added = w.load([target])
    assert added >= 1 and w._lod.revealed[target]
    assert w.load([target]) == 0  # already there
    name = w.table.name(int(hidden[0]))
    w.load(name)  # every node of that name, as select() finds them
    same = [i for i in range(w.table.size) if w.table.name(i) == name]
    assert w._lod.revealed[same].all()


def test_to_code_keeps_the_loaded_nodes(big: Any) -> None:
    w = cctviz.CCT(big, budget=400)
    code = w.to_code()
    n = len(w.loaded)
    assert f"# cctviz view of gf: {n} of 20000 nodes" in code
    assert f"# level of detail: {n} nodes loaded" in code
    scope: dict[str, Any] = {}
    exec(code.split("view = ")[0], scope)  # the `visible` set it filters on
    assert scope["visible"] == {int(w.table.hatchet_nid[i]) for i in w.loaded}


def test_to_code_under_level_of_detail_and_prune_is_what_the_browser_draws(big: Any) -> None:
    # the prune acts on the loaded nodes; a fold's sum never counts as in range (see
    # tests/conformance): kept are the loaded nodes in range and their ancestors, nothing else
    w = cctviz.CCT(big, budget=400)
    values = w.table.metrics[w.color_by].values
    loaded = w.loaded
    lo, hi = np.nanquantile(values[loaded], [0.5, 1.0])
    w.prune_range = (float(lo), float(hi))
    scope: dict[str, Any] = {}
    exec(w.to_code().split("view = ")[0], scope)
    nid_to_id = {int(w.table.hatchet_nid[i]): i for i in loaded}
    listed = {nid_to_id[nid] for nid in scope["visible"]}
    expected: set[int] = set()
    for i in loaded:
        if lo <= values[i] <= hi:
            j = int(i)
            while j >= 0:
                expected.add(j)
                j = int(w.table.parent[j])
    assert listed == expected
    assert any(not lo <= values[i] <= hi for i in listed)  # ancestors kept for context


def test_expand_fold_is_load_more_under_its_old_name(big: Any) -> None:
    w, v = cctviz.CCT(big, budget=500), cctviz.CCT(big, budget=500)
    drawn = w._lod.drawn()
    owner = int(drawn.node_id[drawn.table.parent[int(np.argmax(drawn.folded))]])
    with pytest.warns(DeprecationWarning, match=r"w\.expand_fold is now w\.load_more"):
        loaded = w.expand_fold(owner)
    assert loaded > 0 and loaded == v.load_more(owner)
    np.testing.assert_array_equal(w.loaded, v.loaded)
