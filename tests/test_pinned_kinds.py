"""``to_code`` pins what each metric is (:mod:`cctviz.adapters.pinned`): the profile its code
rebuilds is read as the view it came from read the full profile, although the rules could read
the smaller tree otherwise. Found by the property test of tests/test_to_code_values.py: a
focused subtree whose few parents each held at least their children's ``bytes`` passed the tree
check, so the view of the code drew ``bytes`` as inclusive and lost ``bytes (inc, derived)``."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pandas as pd
import pytest

import cctviz
from cctviz.adapters import from_graphframe, pinned

from .test_to_code_values import _check_any, _graphframe, _run, assert_view_values

# 0 → 1 → 2 → 3 → 4 and 0 → 5: in the full tree 0 holds less bytes than its children (10 < 8 + 100),
# so the tree check does not call bytes inclusive; 1 → 2 → 3 → 4 alone passes it (3 parents)
CHAIN = {
    "parents": [-1, 0, 1, 2, 3, 0],
    "names": ["a"] * 6,
    "ranks": 1,
    "columns": {
        "time": [1.0] * 6,
        "time (inc)": [6.0, 4.0, 3.0, 2.0, 1.0, 1.0],
        "bytes": [10.0, 8.0, 6.0, 4.0, 2.0, 100.0],
    },
}


def _kinds(table: Any) -> dict[str, tuple[str, str]]:
    return {m.name: (m.kind, m.rule) for m in table.metrics.values()}


def test_the_focused_chain_passes_the_tree_check_without_the_pin() -> None:
    """The case itself: without the pin, the subset reads bytes as inclusive (a tree check)."""
    gf = _graphframe(CHAIN)
    w = cctviz.CCT(gf)
    assert _kinds(w.table)["bytes"] == ("exclusive", "reader")
    w.focused = 1
    _code, view = _run(w, gf)
    view.metadata = {k: v for k, v in view.metadata.items() if k != pinned.KEY}
    assert _kinds(from_graphframe(view))["bytes"] == ("inclusive", "tree")


@pytest.mark.parametrize("reducer", ["mean", "std"])
def test_to_code_of_a_focused_chain_keeps_bytes_exclusive(reducer: str) -> None:
    gf = _graphframe(
        {**CHAIN, "ranks": 2, "columns": {k: v * 2 for k, v in CHAIN["columns"].items()}}
    )
    before = dict(gf.metadata)
    w = cctviz.CCT(gf, reducer=reducer)
    w.focused = 1
    code, view = _run(w, gf)
    assert pinned.KEY in code and gf.metadata == before  # gf's own metadata is not changed
    # under std every metric is drawn as a spread ("max"), but the pin says what it is
    assert json.loads(view.metadata[pinned.KEY]) == {
        "time": "exclusive",
        "time (inc)": "inclusive",
        "bytes": "exclusive",
    }
    if reducer == "mean":  # (under std the view also has size's mean companions)
        assert_view_values(w, view)
    got = cctviz.CCT(view, reducer=reducer)
    assert "bytes (inc, derived)" in got.table.metrics
    # under std the reducer has the last word (a spread adds up nowhere), after the pin's
    assert got.metric_kinds.loc["bytes", "rule"] == ("pinned" if reducer == "mean" else "reducer")
    assert "CCT.to_code" in got.metric_kinds.loc["bytes", "why"]
    assert got.metric_kinds.loc["bytes", "kind"] == w.metric_kinds.loc["bytes", "kind"]
    # the derived sums of a subtree drawn whole agree with the view's (nothing hidden below 1)
    assert got.table.metrics["bytes (inc, derived)"].values[0] == pytest.approx(
        w.table.metrics["bytes (inc, derived)"].values[1]
    )


def test_to_code_of_a_thicket_pins_the_kinds_in_a_metadata_column() -> None:
    thicket = pytest.importorskip("thicket")
    p = {**CHAIN, "names": [f"f{i}" for i in range(6)]}
    tk = thicket.Thicket.thicketize_graphframe(_graphframe(p), "run")
    columns = list(tk.metadata.columns)
    state = {"reducer": "mean", "color_by": "time", "collapsed": (), "focused": 1}
    _check_any(tk, "tk", lambda _strategy: {**state, "visible_roots": None})
    w = cctviz.CCT(tk)
    w.focused = 1
    _code, view = _run(w, tk, "tk")
    assert list(tk.metadata.columns) == columns
    assert pinned.read(view) == {
        "time": "exclusive",
        "time (inc)": "inclusive",
        "bytes": "exclusive",
    }
    assert view.metadata[pinned.KEY].nunique() == 1  # the same text for every profile
    assert cctviz.CCT(view).metric_kinds.loc["bytes", "rule"] == "pinned"


def test_metric_kinds_of_yours_comes_before_the_pin() -> None:
    gf = _graphframe(CHAIN)
    w = cctviz.CCT(gf)
    w.focused = 1
    _code, view = _run(w, gf)
    got = cctviz.CCT(view, metric_kinds={"bytes": "ratio"})
    assert got.metric_kinds.loc["bytes", "rule"] == "declared"
    assert "bytes (inc, derived)" not in got.table.metrics
    assert got.metric_kinds.loc["time", "rule"] == "pinned"


def test_a_pinned_metric_dropped_since_is_skipped() -> None:
    gf = _graphframe(CHAIN)
    w = cctviz.CCT(gf)
    w.focused = 1
    _code, view = _run(w, gf)
    view.dataframe = view.dataframe.drop(columns=["bytes"])
    view.exc_metrics = [m for m in view.exc_metrics if m != "bytes"]
    got = cctviz.CCT(view)
    assert "bytes" not in got.table.metrics
    assert got.metric_kinds.loc["time", "rule"] == "pinned"


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("{time: exclusive}", "not JSON"),
        ('["time"]', "not a JSON object"),
        ('{"time": "additive"}', "each kind one of"),
        (3, "not a JSON object"),
    ],
)
def test_a_pin_that_is_not_what_to_code_writes_is_a_clear_error(value: Any, says: str) -> None:
    gf = _graphframe(CHAIN)
    gf.metadata = {**gf.metadata, pinned.KEY: value}
    with pytest.raises(ValueError, match=f"metadata 'cctviz.metric_kinds'.*{says}"):
        cctviz.CCT(gf)


def test_a_thicket_whose_profiles_pin_different_kinds_is_a_clear_error() -> None:
    thicket = pytest.importorskip("thicket")
    p = {**CHAIN, "names": [f"f{i}" for i in range(6)]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tk = thicket.Thicket.thicketize_graphframe(_graphframe(p), "run")
    md = pd.concat([tk.metadata, tk.metadata])
    md[pinned.KEY] = ['{"time": "exclusive"}', '{"time": "inclusive"}']
    tk.metadata = md
    with pytest.raises(ValueError, match="pin different metric kinds"):
        pinned.read(tk)


def test_selected_graphframe_pins_the_kinds_too() -> None:
    """The GraphFrame of a selection is a subset too: the same chain, selected from node 1 down."""
    gf = _graphframe(CHAIN)
    w = cctviz.CCT(gf)
    w.select([1])
    sub = w.selected_graphframe(descendants=True)
    assert pinned.KEY not in gf.metadata  # a new dict: gf's own metadata is not changed
    got = cctviz.CCT(sub)
    assert got.metric_kinds.loc["bytes", ["kind", "rule"]].tolist() == ["exclusive", "pinned"]
    assert got.table.metrics["bytes (inc, derived)"].values[0] == 20.0  # 8 + 6 + 4 + 2
