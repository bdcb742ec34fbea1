"""The ensemble in the widget (issue 31): the profile strip's axes and points, ``where`` set from
Python or by a brush of the strip (the tree reduced again equals ``ens.where(...).reduce``),
``profiles_selected``, bad filters refused with the view unchanged, a node's values over the
profiles for its tooltip, what is sent staying bounded however many profiles, and figures
naming the store and the filter."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets

import cctviz
from cctviz.analysis import frames
from cctviz.core.table import name_paths

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from cctviz.ensemble import WhereError
from cctviz.widget.ensemble import strip_payload as st


@pytest.fixture(scope="module")
def ens(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return cctviz.examples.ensemble(tmp_path_factory.mktemp("strip") / "s", 60, 80, seed=1)


def _paths(w: Any) -> list[tuple[str, ...]]:
    return name_paths(w.table)


def _assert_reduced_over(w: Any, sub: Any) -> None:
    """The widget's tree is ``sub`` reduced by the engine, node by node (by path)."""
    reduced = sub.reduce("time", ("mean", "count")).set_index("path")
    rows = _paths(w)
    assert set(rows) == set(reduced.index)
    np.testing.assert_allclose(
        w.table.metrics["time"].values, reduced.loc[rows, "mean"], rtol=1e-12
    )
    np.testing.assert_array_equal(w.table.metrics["profiles"].values, reduced.loc[rows, "count"])


def _replies(w: Any, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    return sent


def test_the_strip_has_default_axes_and_one_point_per_profile(ens: Any) -> None:
    w = cctviz.CCT(ens)
    assert (w.strip_x, w.strip_y, w.where) == ("launchdate", "metric:time (inc)", "")
    strip = w._strip
    names = [a["name"] for a in strip["axes"]]
    assert names[:3] == ["launchdate", "jobsize", "problem_size"]
    assert "metric:time (inc)" in names and "hash" not in names and "compiler" not in names
    assert strip["profiles"] == strip["passing"] == len(strip["ids"]) == 60
    assert not strip["sampled"] and strip["pass"] == [1] * 60
    # x: launch dates in ms; y: each run's inclusive time at the root
    profiles = ens.profiles
    first = profiles.index[0]
    i = strip["ids"].index(str(first))
    assert strip["xs"][i] == pd.Timestamp(profiles.loc[first, "launchdate"]).value / 1e6
    root = int(ens.nodes.index[ens.nodes["depth"] == 0][0])
    dist = ens.distribution(root, "time (inc)")["value"]
    assert strip["ys"][i] == pytest.approx(dist.loc[first])
    json.dumps(strip)  # what the widget syncs
    w.strip_y = "jobsize"
    assert w._strip["y"] == "jobsize" and w._strip["ys"][i] == profiles.loc[first, "jobsize"]
    with pytest.raises(traitlets.TraitError, match="no strip axis 'compiler'"):
        w.strip_x = "compiler"
    # a GraphFrame has no strip
    gf = ens.to_graphframe()
    g = cctviz.CCT(gf)
    assert g._strip == {} and g.strip_x == ""
    with pytest.raises(traitlets.TraitError, match="Ensemble"):
        g.where = "jobsize > 1"
    with pytest.raises(ValueError, match="Ensemble"):
        g.profiles_selected  # noqa: B018


def test_where_from_python_reduces_the_tree_again(ens: Any) -> None:
    w = cctviz.CCT(ens)
    _assert_reduced_over(w, ens)
    before = w.table.metrics["time (inc)"].values[0]
    w.where = "jobsize >= 256"
    sub = ens.where("jobsize >= 256")
    _assert_reduced_over(w, sub)
    assert w.table.metrics["time (inc)"].values[0] != before
    selected = w.profiles_selected
    assert list(selected.index) == list(sub.profiles.index)
    assert (selected["jobsize"] >= 256).all() and "launchdate" in selected
    strip = w._strip
    assert strip["where"] == "jobsize >= 256" and strip["passing"] == len(sub)
    passing = {p for p, ok in zip(strip["ids"], strip["pass"], strict=True) if ok}
    assert passing == {str(p) for p in sub.profiles.index}
    assert strip["brush"] is None
    w.reducer = "max"  # the reducer works over the filtered profiles
    maxed = sub.reduce("time", ("max",)).set_index("path")
    np.testing.assert_allclose(w.table.metrics["time"].values, maxed.loc[_paths(w), "max"])
    w.reducer = "mean"
    w.where = ""
    _assert_reduced_over(w, ens)
    assert len(w.profiles_selected) == 60 and w._strip["passing"] == 60


def test_a_bad_where_is_a_clear_error_and_changes_nothing(ens: Any) -> None:
    w = cctviz.CCT(ens)
    w.where = "problem_size > 0"
    payload, strip, table = w._payload, w._strip, w.table
    with pytest.raises(WhereError, match=r"does not run.*columns: .*jobsize"):
        w.where = "no_such_column > 3"
    with pytest.raises(WhereError, match="no profile passes"):
        w.where = "jobsize > 1e9"
    assert w.where == "problem_size > 0"
    assert w._payload is payload and w._strip is strip and w.table is table


def test_a_brush_sets_where_from_the_ranges(ens: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    w = cctviz.CCT(ens)
    sent = _replies(w, monkeypatch)
    day = 86_400_000.0
    start = pd.Timestamp("2025-01-11").value / 1e6
    w._on_message(w, {"type": "brush", "id": 1, "x": [start - 0.3 * day, start + 9.6 * day]}, [])
    assert sent[-1]["ok"] and sent[-1]["where"] == w.where
    assert w.where.startswith('"launchdate" BETWEEN TIMESTAMP')
    sub = ens.where(w.where)
    assert len(sub) == 10  # one run a day: 2025-01-11 up to 2025-01-20
    _assert_reduced_over(w, sub)
    assert set(w.profiles_selected.index) == set(sub.profiles.index)
    assert w._strip["brush"]["x"] == [start - 0.3 * day, start + 9.6 * day]
    # x and y: y is the run's total time, which no column holds: the ids in range
    ys = pd.Series(w._strip["ys"], index=w._strip["ids"])
    low, high = float(ys.quantile(0.25)), float(ys.quantile(0.75))
    w._on_message(
        w, {"type": "brush", "id": 2, "x": [start, start + 9 * day], "y": [high, low]}, []
    )
    assert sent[-1]["ok"] and " AND profile IN (" in w.where
    inside = ys[(ys >= low) & (ys <= high)].index
    expected = set(inside) & {str(p) for p in sub.profiles.index}
    assert {str(p) for p in w.profiles_selected.index} == expected
    _assert_reduced_over(w, ens.where(w.where))
    # a numeric column's range, rounded outwards
    w.strip_y = "jobsize"
    assert w.where and w._strip["brush"] is None  # other axes: the filter stays, the brush goes
    w._on_message(w, {"type": "brush", "id": 3, "x": None, "y": [127.3, 512.4]}, [])
    assert w.where == '"jobsize" BETWEEN 127.3 AND 512.4'
    assert set(w.profiles_selected["jobsize"]) == {128, 256, 512}
    # a brush over no profile: refused, the view unchanged
    payload = w._payload
    w._on_message(w, {"type": "brush", "id": 4, "x": None, "y": [2000.0, 3000.0]}, [])
    assert not sent[-1]["ok"] and "no profile passes" in sent[-1]["error"]
    assert w.where == '"jobsize" BETWEEN 127.3 AND 512.4' and w._payload is payload
    # malformed ranges are refused
    w._on_message(w, {"type": "brush", "id": 5, "x": ["a", 1], "y": None}, [])
    assert not sent[-1]["ok"] and "finite numbers" in sent[-1]["error"]
    # clearing the brush: the whole ensemble again
    w._on_message(w, {"type": "brush", "id": 6, "x": None, "y": None}, [])
    assert sent[-1] == {"type": "reply", "id": 6, "ok": True, "where": ""}
    assert len(w.profiles_selected) == 60
    _assert_reduced_over(w, ens)


def test_the_tooltip_spread_is_over_the_profiles(ens: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    w = cctviz.CCT(ens)
    w.where = "jobsize <= 128"
    sub = ens.where("jobsize <= 128")
    paths = _paths(w)
    node = 5
    key = int(sub.nodes.index[[p == paths[node] for p in sub.nodes["path"]]][0])
    values = w.distribution(node, "time")
    expected = sub.distribution(key, "time")["value"]
    pd.testing.assert_series_equal(values, expected.rename("time"))
    sent = _replies(w, monkeypatch)
    w._on_message(w, {"type": "distribution", "id": 9, "node": node, "metric": "time"}, [])
    spread = sent[-1]["spread"]
    assert spread["count"] == len(sub) == len(expected)
    top = sub.profiles.loc[expected.idxmax(), "launchdate"].date().isoformat()
    assert spread["over"] == "profile" and spread["at_max"] == f"profile launchdate {top}"
    assert spread["mean"] == pytest.approx(expected.mean())
    assert spread == frames.spread(w._named_profiles(values))
    w._on_message(w, {"type": "distribution", "id": 10, "node": node, "metric": "profiles"}, [])
    assert not sent[-1]["ok"] and "not a metric of the ensemble's store" in sent[-1]["error"]


def test_what_is_sent_does_not_grow_with_the_profiles(tmp_path: Path) -> None:
    small = cctviz.examples.ensemble(tmp_path / "small", 50, 40, seed=2)
    large = cctviz.examples.ensemble(tmp_path / "large", 2500, 40, seed=2)
    sizes = {}
    for name, e in (("small", small), ("large", large)):
        w = cctviz.CCT(e)
        table_bytes = sum(
            len(v) if isinstance(v, (bytes, memoryview)) else len(json.dumps(v, default=str))
            for v in _leaves(w._payload)
        )
        sizes[name] = (table_bytes, len(json.dumps(w._strip)), w._strip)
    # the tree: the same nodes, the same bytes, however many profiles
    assert abs(sizes["large"][0] - sizes["small"][0]) < 200
    strip = sizes["large"][2]
    assert strip["sampled"] and len(strip["ids"]) == st.MAX_POINTS and strip["profiles"] == 2500
    assert sizes["large"][1] < 60 * st.MAX_POINTS  # a bounded sample, ~50 bytes a point
    assert "sample of" not in json.dumps(sizes["small"][2])


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def test_a_figure_names_the_store_and_the_filter(ens: Any) -> None:
    w = cctviz.CCT(ens)
    w.where = "compiler = 'gcc-12'"
    snap = w.snapshot()
    assert snap.source == f"cctviz.Ensemble {ens.path}"
    assert snap.ensemble == {
        "store": str(ens.path),
        "version": ens.version,  # cctviz.Ensemble(store, version=...) remakes it
        "where": "compiler = 'gcc-12'",
        "profiles": len(ens.where("compiler = 'gcc-12'")),
        "of": 60,
    }
    from cctviz.figure import provenance

    prov = provenance.record(
        source=snap.source,
        nodes=snap.nodes,
        color_by=snap.color_by,
        size_by=snap.size_by,
        units={},
        reducer=snap.reducer,
        view_state={},
        ensemble=snap.ensemble,
    )
    assert prov["ensemble"]["where"] == "compiler = 'gcc-12'"
    summary = provenance._summary(prov)
    assert str(ens.path) in summary and "where compiler = 'gcc-12'" in summary


def test_swapping_the_data_resets_the_filter(ens: Any) -> None:
    w = cctviz.CCT(ens)
    w.where = "jobsize >= 512"
    w.data = ens
    assert w.where == "" and len(w.profiles_selected) == 60
    w.where = "jobsize >= 512"
    w.data = ens.to_graphframe()
    assert w.where == "" and w._strip == {} and w.strip_x == ""
    w.data = ens.where("jobsize >= 512")
    assert w._strip["profiles"] == len(ens.where("jobsize >= 512"))


def test_queries_from_several_threads_wait_their_turn(ens: Any) -> None:
    """A widget's messages and the notebook's code can reach the kernel on different threads:
    the store's one DuckDB connection takes their queries one at a time."""
    from concurrent.futures import ThreadPoolExecutor

    w = cctviz.CCT(ens)
    expected = len(ens.where("jobsize >= 256"))
    with ThreadPoolExecutor(4) as pool:
        counts = list(pool.map(lambda _: len(ens.where("jobsize >= 256")), range(16)))
        spreads = list(pool.map(lambda i: len(w.distribution(i % 5, "time")), range(16)))
    assert counts == [expected] * 16 and all(s > 0 for s in spreads)


def test_the_median_over_an_ensembles_profiles_is_the_engines(ens: Any) -> None:
    w = cctviz.CCT(ens, reducer="median", where="jobsize >= 128")
    got = ens.where("jobsize >= 128").reduce("time (inc)", ("median",))
    paths = name_paths(w.table)
    want = got.set_index("path")["median"]
    drawn = w.table.metrics["time (inc)"].values
    assert w.table.metrics["time (inc)"].kind == "max"  # a median does not add up the tree
    np.testing.assert_allclose([drawn[paths.index(p)] for p in want.index], want.to_numpy())
    # size shows the mean over the profiles, which adds up (size_reducer "auto")
    mean = ens.where("jobsize >= 128").reduce("time (inc)", ("mean",)).set_index("path")["mean"]
    sized = w.table.metrics["time (inc) (mean)"]
    assert sized.kind == "inclusive" and w.size_by == "time (inc) (mean)"
    np.testing.assert_allclose([sized.values[paths.index(p)] for p in mean.index], mean)
    w.reducer = "imbalance"
    assert w.table.metrics["time (inc)"].kind == "ratio"
    assert w.table.metrics["time (inc)"].rule == "reducer"
    w.reducer = "mean"
    assert w.table.metrics["time (inc)"].kind == "inclusive"
    assert "time (inc) (mean)" not in w.table.metrics
