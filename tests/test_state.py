"""View state: saved as JSON, restored on the same or another run, reproduced as Hatchet code."""

from __future__ import annotations

import json
import warnings

import pytest
import traitlets

import cctviz
from cctviz.view.state import visible_nodes

from .conftest import load
from .profiles import Profile, readable, two_runs


def _configure(w) -> None:
    t = w.table
    has_children = sorted(set(t.parent[t.parent >= 0].tolist()))
    w.selection = (t.size - 1, 0)
    w.collapsed = tuple(has_children[-2:])
    w.highlighted = (t.size // 2,)
    values = t.metrics[w.color_by].values
    finite = values[values == values]
    if finite.size:
        w.prune_range = (float(finite.min()), float(finite.max()))
    w.palette, w.legend, w.search = "cividis", "per-root", t.name(0)[:3]


def test_view_state_round_trips_as_json(profile: tuple[Profile, object]) -> None:
    _, gf = profile
    w = cctviz.CCT(gf)
    _configure(w)
    state = json.loads(json.dumps(w.view_state))
    again = cctviz.CCT(gf, state=state)
    for name in (
        "selection",
        "collapsed",
        "highlighted",
        "prune_range",
        "palette",
        "legend",
        "search",
        "color_by",
        "size_by",
        "focused",
        "visible_roots",
    ):
        assert getattr(again, name) == getattr(w, name), name


def test_focus_and_roots_survive_a_round_trip() -> None:
    gf = load(next(p for p in readable() if p.folder == "hatchet/caliper-example-cali"))
    w = cctviz.CCT(gf)
    roots = tuple(w.table.roots.tolist())
    w.visible_roots = roots[1:]
    w.focused = roots[1]
    again = cctviz.CCT(gf, state=w.view_state)
    assert (again.visible_roots, again.focused) == (roots[1:], roots[1])


def test_no_roots_survive_a_round_trip() -> None:
    gf = load(next(p for p in readable() if p.folder == "hatchet/hpctoolkit-cpi-database"))
    w = cctviz.CCT(gf)
    w.visible_roots = ()
    assert w.view_state["visible_roots"] == []
    assert cctviz.CCT(gf, state=w.view_state).visible_roots == ()  # no tree, not every root
    state = {**w.view_state, "visible_roots": [{"path": [{"name": "nowhere"}], "occurrence": 0}]}
    assert cctviz.CCT(gf, state=state).visible_roots is None  # none of them here: every root


def test_state_from_one_run_applies_to_another() -> None:
    a, b = two_runs()
    w = cctviz.CCT(a)
    w.select(["CalcHourglassControlForElems", "IntegrateStressForElems"])
    w.collapse("LagrangeElements")
    other = cctviz.CCT(b, state=w.view_state)
    assert [other.table.name(i) for i in other.selection] == [w.table.name(i) for i in w.selection]
    assert [other.table.name(i) for i in other.collapsed] == ["LagrangeElements"]


def test_data_swap_keeps_what_still_applies() -> None:
    cpi = load(next(p for p in readable() if p.folder == "hatchet/hpctoolkit-cpi-database"))
    w = cctviz.CCT(cpi)
    w.select("main")
    w.palette = "magma"
    same_program = cpi.deepcopy()
    w.data = same_program
    assert w.data is same_program
    assert [w.table.name(i) for i in w.selection] == ["main"]
    assert w.palette == "magma"
    w.data = load(next(p for p in readable() if p.folder == "hatchet/caliper-example-cali"))
    assert w.selection == ()  # no node of the new program has main's call path from cpi
    assert w.color_by in w.metrics and w._payload["size"] == w.table.size


def test_bad_state_is_a_clear_error() -> None:
    gf = load(next(p for p in readable() if p.folder == "hatchet/hpctoolkit-cpi-database"))
    with pytest.raises(ValueError, match=r"unknown view state keys \['zoom'\]"):
        cctviz.CCT(gf, state={"zoom": 2})
    with pytest.raises(TypeError, match=r"state must be a dict"):
        cctviz.CCT(gf, state=[1, 2])


def test_to_code_rebuilds_the_visible_tree(profile: tuple[Profile, object]) -> None:
    """On every readable profile, GraphFrame or Thicket, the generated code runs and keeps the
    nodes drawn: a GraphFrame's tree is rebuilt over them (Hatchet's squash is not used, so it
    works where the installed Hatchet cannot squash); a Thicket is squashed where Hatchet can,
    filtered without squashing where it cannot."""
    spec, gf = profile
    w = cctviz.CCT(gf)
    _configure(w)
    w.prune_range = None  # keep more of the tree; prune is covered in visible_nodes tests
    name = "tk" if spec.reader == "thicket" else "gf"
    code = w.to_code(name)
    squashed = "squash=True" in code or "rebuild_tree(view, visible, roots)" in code
    assert squashed or (spec.reader == "thicket" and "cannot squash" in code)
    scope = {name: gf}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(code, scope)  # the generated code, run as a user would
    view = scope["view"]
    if squashed:
        kept = list(view.graph.traverse())
    else:
        kept = list(dict.fromkeys(view.dataframe.index.get_level_values("node")))
    got = sorted(repr(sorted(n.frame.attrs.items())) for n in kept)
    ids = visible_nodes(w.table, collapsed=w.collapsed)
    want = sorted(repr(sorted(w.table.nodes[i].frame.attrs.items())) for i in ids)
    assert set(got) == set(want)


def test_to_code_of_the_whole_tree_filters_nothing(profile: tuple[Profile, object]) -> None:
    _spec, gf = profile
    code = cctviz.CCT(gf).to_code()
    assert ".filter(" not in code and ".query(" not in code and "nothing to filter" in code
    scope = {"gf": gf}
    exec(code, scope)
    assert scope["view"] is gf


def test_visible_nodes_follow_focus_roots_collapse_and_prune() -> None:
    gf = load(next(p for p in readable() if p.folder == "hatchet/hpctoolkit-cpi-database"))
    t = cctviz.CCT(gf).table
    everything = visible_nodes(t)
    assert everything == list(range(t.size))
    main = t.names.index("main")
    main_id = int((t.name_code == main).nonzero()[0][0])
    assert visible_nodes(t, collapsed=(main_id,)) == [0, main_id]
    subtree = visible_nodes(t, focused=main_id)
    assert subtree[0] == main_id and 0 not in subtree
    v = t.metrics["time"].values
    kept = visible_nodes(t, prune_range=(1e5, 1e9), color_values=v)
    for i in range(t.size):
        if 1e5 <= v[i] <= 1e9:
            assert i in kept
    roots = tuple(t.roots.tolist())
    assert visible_nodes(t, visible_roots=roots) == everything
    assert visible_nodes(t, visible_roots=()) == []  # every root unchecked: no tree
    assert visible_nodes(t, visible_roots=(), focused=main_id) == subtree  # focus wins


def test_two_widgets_are_independent_and_link() -> None:
    gf = load(next(p for p in readable() if p.folder == "hatchet/hpctoolkit-cpi-database"))
    a, b = cctviz.CCT(gf), cctviz.CCT(gf)
    a.select("main")
    assert b.selection == ()
    link = traitlets.link((a, "selection"), (b, "selection"))
    a.selection = (2, 3)
    assert b.selection == (2, 3)
    b.set_state({"selection": [4]})  # a click in the second widget
    assert a.selection == (4,)
    link.unlink()
    a.selection = ()
    assert b.selection == (4,)
