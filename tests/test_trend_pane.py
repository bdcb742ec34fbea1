"""The trend pane of an ensemble view (issue 32, point 1): the selected node's series and its
largest children's along ``trend_by`` equal ``ens.trend`` under the view's reducer, colour metric
and ``where``; a category axis carries each point's spread; long series are thinned to points of
their own; the axis is checked with a clear error; a GraphFrame's view has no pane."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets

import cctviz

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from cctviz.widget.ensemble import trend_payload


@pytest.fixture(scope="module")
def ens(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return cctviz.examples.ensemble(tmp_path_factory.mktemp("trend") / "t", 60, 80, seed=3)


def _path(w: Any, i: int) -> tuple[str, ...]:
    names = []
    while i >= 0:
        names.append(w.table.name(i))
        i = int(w.table.parent[i])
    return tuple(reversed(names))


def _expected(ens: Any, w: Any, node: int, by: str, reducer: str = "mean") -> pd.DataFrame:
    return ens.trend(_path(w, node), w._trend["metric"], by, reducer, children=True)


def _check_series(w: Any, expected: pd.DataFrame, by: str) -> None:
    """Each series drawn is the node's rows of ``expected`` (by path), in the axis's order."""
    for s in w._trend["series"]:
        rows = expected[expected["path"] == _path(w, s["id"])]
        assert len(rows) == len(s["y"]) > 0
        np.testing.assert_allclose(s["y"], rows["value"], rtol=1e-12)
        assert s["count"] == rows["count"].tolist()
        if w._trend["kind"] == "date":
            ms = [pd.Timestamp(v).value / 1e6 for v in rows[by]]
            assert s["x"] == ms
        elif w._trend["kind"] == "number":
            assert s["x"] == [float(v) for v in rows[by]]


def test_the_pane_shows_the_root_then_the_selected_node_with_its_children(ens: Any) -> None:
    w = cctviz.CCT(ens)
    assert w.trend_by == "launchdate" and w.trend_log is False
    pane = w._trend
    json.dumps(pane, allow_nan=False)  # what the widget syncs: JSON, no NaN
    root = int(w.table.roots[0])
    # the colour metric is exclusive: the pane draws its inclusive partner (children add up)
    assert pane["kind"] == "date" and (w.color_by, pane["metric"]) == ("time", "time (inc)")
    assert pane["path"] == [{"id": root, "name": w.table.name(root)}]
    children = np.flatnonzero(w.table.parent == root).tolist()
    assert pane["series"][0]["id"] == root
    assert sorted(s["id"] for s in pane["series"][1:]) == sorted(children)
    assert pane["profiles"] == len(ens) and pane["left_out"] == 0
    _check_series(w, _expected(ens, w, root, "launchdate"), "launchdate")
    # shares: of the inclusive partner in the tree, child over parent, largest first
    inc = w.table.metrics["time (inc)"].values
    shares = [s["share"] for s in pane["series"][1:]]
    drawn = [s["id"] for s in pane["series"][1:]]
    assert shares == pytest.approx([inc[c] / inc[root] for c in drawn])
    assert shares == sorted(shares, reverse=True) and pane["series"][0]["share"] is None

    # selecting a node (as a click in the tree does) shows it, with the path to it
    node = children[0]
    deeper = np.flatnonzero(w.table.parent == node).tolist()
    w.selection = (node,)
    assert w._trend["path"] == [{"id": i, "name": w.table.name(i)} for i in (root, node)]
    assert w._trend["series"][0]["id"] == node
    assert sorted(s["id"] for s in w._trend["series"][1:]) == sorted(deeper)
    _check_series(w, _expected(ens, w, node, "launchdate"), "launchdate")
    assert w._ens.trend._trend_node() == node
    w.selection = ()
    assert w._trend["path"][-1]["id"] == root


def test_children_are_capped_to_the_largest_and_the_rest_counted(
    ens: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trend_payload, "MAX_CHILDREN", 1)
    w = cctviz.CCT(ens)
    root = int(w.table.roots[0])
    children = np.flatnonzero(w.table.parent == root)
    assert children.size > 1
    inc = w.table.metrics["time (inc)"].values
    largest = int(children[np.argmax(inc[children])])
    assert [s["id"] for s in w._trend["series"]] == [root, largest]
    assert w._trend["children"] == children.size and w._trend["left_out"] == children.size - 1


def test_the_reducer_the_colour_metric_and_where_are_the_trees(ens: Any) -> None:
    w = cctviz.CCT(ens)
    root = int(w.table.roots[0])
    w.reducer = "max"
    assert w._trend["reducer"] == "max"
    _check_series(w, _expected(ens, w, root, "launchdate", "max"), "launchdate")
    w.reducer = "mean"
    w.color_by = "time (inc)"
    assert w._trend["metric"] == "time (inc)"
    _check_series(w, _expected(ens, w, root, "launchdate"), "launchdate")
    w.color_by = "profiles"  # no column of the store: what size shows (the trend of sizes)
    assert w._trend["metric"] == w.size_by == "time (inc)"
    _check_series(w, _expected(ens, w, root, "launchdate"), "launchdate")
    w.where = "jobsize >= 256"
    sub = ens.where("jobsize >= 256")
    assert 0 < w._trend["profiles"] == len(sub) < len(ens)
    root = int(w.table.roots[0])
    _check_series(w, _expected(sub, w, root, "launchdate"), "launchdate")


def test_a_number_axis_and_a_category_axis_with_its_spread(ens: Any) -> None:
    w = cctviz.CCT(ens)
    root = int(w.table.roots[0])
    w.trend_by = "jobsize"
    assert w._trend["kind"] == "number" and w._trend["by"] == "jobsize"
    _check_series(w, _expected(ens, w, root, "jobsize"), "jobsize")
    # several runs at each job size: each point with their spread, as a category's
    values = ens.distribution(_path(w, root), "time (inc)")
    first = w._trend["series"][0]
    for at, low, high in zip(first["x"], first["low"], first["high"], strict=True):
        mine = values.loc[values["jobsize"] == at, "value"]
        assert (low, high) == pytest.approx((mine.quantile(0.25), mine.quantile(0.75)))
    w.trend_by = "compiler"
    pane = w._trend
    assert pane["kind"] == "category"
    categories = sorted(ens.profiles["compiler"].unique())
    assert pane["categories"] == categories
    _check_series(w, _expected(ens, w, root, "compiler"), "compiler")
    values = ens.distribution(_path(w, root), "time (inc)")
    first = pane["series"][0]
    for at, low, high in zip(first["x"], first["low"], first["high"], strict=True):
        mine = values.loc[values["compiler"] == categories[int(at)], "value"]
        assert low == pytest.approx(mine.quantile(0.25)) and high == pytest.approx(
            mine.quantile(0.75)
        )
    assert all(a["kind"] == "category" for a in pane["axes"] if a["name"] == "compiler")


def test_a_long_series_is_thinned_to_points_of_its_own(
    ens: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(trend_payload, "MAX_POINTS", 20)
    w = cctviz.CCT(ens)
    root = int(w.table.roots[0])
    full = _expected(ens, w, root, "launchdate")
    full = full[full["path"] == _path(w, root)]
    s = w._trend["series"][0]
    assert w._trend["thinned"] and len(s["y"]) < len(full)
    assert set(s["y"]) <= set(full["value"])  # values of its own, none made up
    assert s["y"][0] == full["value"].iloc[0] and s["y"][-1] == full["value"].iloc[-1]
    assert max(s["y"]) == full["value"].max() and min(s["y"]) == full["value"].min()


def test_trend_by_is_checked_and_a_graphframe_has_no_pane(ens: Any) -> None:
    w = cctviz.CCT(ens)
    before = w._trend
    with pytest.raises(traitlets.TraitError, match=r"metadata column .* got 'nope'; columns: "):
        w.trend_by = "nope"
    with pytest.raises(traitlets.TraitError, match="got 'hash'"):
        w.trend_by = "hash"  # cctviz's own column, not metadata
    assert w.trend_by == "launchdate" and w._trend is before
    g = cctviz.CCT(ens.to_graphframe())
    assert g._trend == {} and g.trend_by == ""
    # other data: a GraphFrame has no pane, an ensemble again has its own
    w.data = ens.to_graphframe()
    assert w._trend == {} and w.trend_by == ""
    w.data = ens
    assert w.trend_by == "launchdate" and w._trend["path"][0]["id"] == int(w.table.roots[0])
    with pytest.raises(traitlets.TraitError, match=r"trend_by is for a widget of a cctviz\.Ens"):
        g.trend_by = "launchdate"


def test_the_figure_draws_the_pane_below_the_tree_and_records_store_filter_method(
    ens: Any,
) -> None:
    """Point 5: one figure of the tree and the selected node's trend, its provenance naming the
    store, the filter and how the trend was made."""
    pytest.importorskip("playwright", reason="figures need Playwright")
    import html
    import re

    w = cctviz.CCT(ens)
    w.where = "jobsize >= 256"
    node = int(np.flatnonzero(w.table.parent == int(w.table.roots[0]))[0])
    w.selection = (node,)
    svg = w.to_svg(width=700, height=600)
    charts = re.findall(r'class="cct-trend-figure-chart" data-id="(\d+)"', svg)
    assert [int(c) for c in charts] == [s["id"] for s in w._trend["series"]]
    assert "Trend of " in svg and "where jobsize &gt;= 256, by launchdate" in svg
    found = re.search(r"<cctviz:provenance[^>]*>(.*?)</cctviz:provenance>", svg, re.S)
    assert found is not None
    record = json.loads(html.unescape(found.group(1)))
    assert record["ensemble"]["store"] == str(ens.path)
    assert record["ensemble"]["where"] == "jobsize >= 256"
    trend = record["trend"]
    assert trend["node"] == list(_path(w, node)) and trend["by"] == "launchdate"
    assert trend["method"].startswith("mean of time (inc) over the profiles sharing each value")
    assert trend["nodes"] == [s["name"] for s in w._trend["series"]]
    assert "cct-trend-figure" not in w.to_svg(width=700, height=600, trend=False)
    with pytest.raises(ValueError, match=r"trend is True .* or False; got 'yes'"):
        w.to_svg(trend="yes")
    # a GraphFrame's figure has no pane, and its record no trend
    g = cctviz.CCT(ens.to_graphframe())
    assert "cct-trend-figure" not in g.to_svg(width=500, height=400)


def test_other_data_without_the_axis_gets_a_varying_number_axis(ens: Any, tmp_path: Any) -> None:
    gf = ens.to_graphframe()
    other = cctviz.Ensemble(tmp_path / "other")
    other.add([gf, gf.deepcopy()], metadata=[{"problem": 1}, {"problem": 2}])
    w = cctviz.CCT(ens)
    w.trend_by = "compiler"
    w.data = other  # no compiler, no launch date nor run: the number that varies
    assert w.trend_by == "problem" and w._trend["by"] == "problem"
    assert w._trend["kind"] == "number" and w._trend["profiles"] == 2


def test_the_axes_offered_put_what_makes_a_trend_first() -> None:
    from cctviz.widget.ensemble.trend_payload import axes

    n = 30
    profiles = pd.DataFrame(
        {
            "cmdline": [f"./lulesh -s {i} -P spot" for i in range(n)],  # a text per run
            "cluster": ["quartz"] * n,  # one value
            "compiler": ["gcc", "clang"] * (n // 2),
            "jobsize": [8, 64, 216] * (n // 3),
            "launchdate": pd.date_range("2025-01-01", periods=n),
        }
    )
    assert [a["name"] for a in axes(profiles)] == [
        "launchdate",
        "jobsize",
        "compiler",
        "cmdline",
        "cluster",
    ]


def test_the_saved_view_carries_the_strip_and_trend_axes(ens: Any, tmp_path: Any) -> None:
    """``w.view_state`` keeps an ensemble view's strip axes and trend axis and log scale, and
    ``CCT(ens, state=...)`` restores them; a single profile's state has none, restoring an
    ensemble's on one skips them, and an axis another ensemble lacks is left out."""
    w = cctviz.CCT(ens)
    w.trend_by, w.trend_log = "jobsize", True
    w.strip_x, w.strip_y = "jobsize", "problem_size"
    state = json.loads(json.dumps(w.view_state))  # plain JSON, as a user keeps it
    axes = {"strip_x": "jobsize", "strip_y": "problem_size", "trend_by": "jobsize"}
    assert {k: state[k] for k in axes} == axes and state["trend_log"] is True
    again = cctviz.CCT(ens, state=state)
    assert {k: getattr(again, k) for k in axes} == axes and again.trend_log is True
    assert again._trend["by"] == "jobsize" and again._trend["kind"] == "number"
    assert (again._strip["x"], again._strip["y"]) == ("jobsize", "problem_size")
    root = int(again.table.roots[0])
    _check_series(again, _expected(ens, again, root, "jobsize"), "jobsize")
    # a GraphFrame's view: none of them saved, and the ensemble's skipped
    g = cctviz.CCT(ens.to_graphframe(), state=state)
    assert (g.trend_by, g.trend_log, g.strip_x, g.strip_y) == ("", False, "", "")
    assert not set(axes) & set(g.view_state) and "trend_log" not in g.view_state
    # another ensemble without these columns: its own axes, the log scale kept
    gf = ens.to_graphframe()
    other = cctviz.Ensemble(tmp_path / "other")
    other.add([gf, gf.deepcopy()], metadata=[{"problem": 1}, {"problem": 2}])
    o = cctviz.CCT(other, state=state)
    assert o.trend_by == "problem" and o.trend_log is True and o.strip_x != "jobsize"
    # a value of the wrong type is a clear error
    with pytest.raises(TypeError, match=r"state\['trend_log'\] must be a bool; got 'yes'"):
        cctviz.CCT(ens, state={**state, "trend_log": "yes"})
