"""The conformance cases of what is drawn (tests/conformance/view-cases.json) against
cctviz.view.state.

js/test/conformance.test.js runs the same cases against the browser's view-tree.js.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cctviz.core.table import Metric, NodeTable
from cctviz.view import state as view

from .tables import node_table, values

SPEC = json.loads((Path(__file__).parent / "conformance" / "view-cases.json").read_text())
CASES: list[dict[str, Any]] = SPEC["cases"]


def _tree(case: dict[str, Any]) -> dict[str, Any]:
    tree = case["tree"]
    return SPEC["trees"][tree] if isinstance(tree, str) else tree


def _table(tree: dict[str, Any]) -> NodeTable:
    """The table as Python would send it (what view_tree reads: parent, and the values)."""
    value = Metric("value", values(tree["values"]), "exclusive")
    return node_table(tree["parent"], tree["names"], {"value": value})


def _run(case: dict[str, Any]) -> view.ViewTree:
    tree, state = _tree(case), case["state"]
    table = _table(tree)
    prune = state.get("prune")
    return view.view_tree(
        table,
        collapsed=state.get("collapsed", []),
        prune_range=None if prune is None else (prune[0], prune[1]),
        color_values=table.metrics["value"].values,
        focused=state.get("focus"),
        visible_roots=state.get("roots"),
        node_id=tree.get("node_id"),
        folded=tree.get("folded"),
    )


def test_the_cases_are_well_formed() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "case names are unique"
    for case in CASES:
        assert case["why"].strip(), case["name"]
        assert set(case["state"]) <= {"collapsed", "prune", "focus", "roots"}, case["name"]
        tree = _tree(case)
        n = len(tree["parent"])
        assert len(tree["names"]) == len(tree["values"]) == n
        assert all(-1 <= p < i for i, p in enumerate(tree["parent"])), "pre-order"
        assert case["hidden"] == sum(it["hidden"] for it in case["items"] if it["kind"] != "node")
    for name, tree in SPEC["trees"].items():
        if "node_id" in tree:  # level of detail: sent nodes and fold counts make the full tree
            real = [i for i in tree["node_id"] if i >= 0]
            assert len(real) + sum(tree["folded"]) == tree["total"], name
            assert all(
                (i < 0) == (f > 0) for i, f in zip(tree["node_id"], tree["folded"], strict=True)
            )


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_view_tree_draws_what_the_case_says(case: dict[str, Any]) -> None:
    got = _run(case)
    items = [
        {"kind": it.kind, "id": it.id, "parent": it.parent, "hidden": it.hidden} for it in got.items
    ]
    assert items == case["items"], case["why"]
    assert got.hidden_count == case["hidden"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_visible_nodes_are_the_drawn_nodes(case: dict[str, Any]) -> None:
    tree, state = _tree(case), case["state"]
    table = _table(tree)
    prune = state.get("prune")
    ids = view.visible_nodes(
        table,
        collapsed=tuple(state.get("collapsed", ())),
        prune_range=None if prune is None else (prune[0], prune[1]),
        color_values=table.metrics["value"].values,
        focused=state.get("focus"),
        visible_roots=None if state.get("roots") is None else tuple(state["roots"]),
        node_id=tree.get("node_id"),
        folded=tree.get("folded"),
    )
    assert ids == [it["id"] for it in case["items"] if it["kind"] in ("node", "collapsed")]


def test_whole_view_accounts_for_every_node() -> None:
    """With every root and no focus, drawn nodes plus hidden nodes are the full tree."""
    for case in CASES:
        state = case["state"]
        if state.get("focus") is not None or state.get("roots") is not None:
            continue
        tree = _tree(case)
        total = tree.get("total", len(tree["parent"]))
        drawn = sum(1 for it in case["items"] if it["kind"] in ("node", "collapsed"))
        assert drawn + case["hidden"] == total, case["name"]


@pytest.fixture(scope="module")
def sw4() -> NodeTable:
    import cctviz

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the readers' own deprecation noise
        return cctviz.from_graphframe(cctviz.examples.load("caliper-sw4-cuda"))


def test_level_of_detail_draws_the_loaded_part_of_the_full_view(sw4: NodeTable) -> None:
    """On what cctviz.view.lod really sends (a real profile, 393 nodes, 80 sent): without a prune,
    the nodes drawn from the sent rows are those drawn from the full tree that were sent, and drawn
    plus hidden nodes make the full tree."""
    from cctviz.view.lod import LevelOfDetail

    lod = LevelOfDetail(sw4, budget=80)
    d = lod.drawn()
    sent = d.node_id[d.node_id >= 0]
    has_children = np.unique(sw4.parent[sw4.parent >= 0])
    collapsed = tuple(int(i) for i in has_children[::7])  # some sent, some not
    focus = int(sent[len(sent) // 2])
    for state in ({}, {"collapsed": collapsed}, {"focused": focus}, {"visible_roots": ()}):
        full = view.visible_nodes(sw4, **state)
        drawn = view.view_tree(d.table, node_id=d.node_id, folded=d.folded, **state)
        ids = [it.id for it in drawn.items if it.id is not None]
        assert ids == [i for i in full if lod.revealed[i]]
        if "focused" not in state and "visible_roots" not in state:
            assert len(ids) + drawn.hidden_count == sw4.size
