"""Analyst views against pandas on multi-rank real profiles: the std and imbalance reducers,
``w.node_frame``, ``w.distribution`` and derived inclusive metrics."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.adapters.derived import SUFFIX

from .conftest import load
from .test_adapter import _by_folder
from .test_functions import function, is_part, own_exclusive

CPI = "hatchet/hpctoolkit-cpi-database"  # 4 ranks
ALLGATHER = "hatchet/hpctoolkit-allgather-database"  # ranks and threads


def _pandas(gf: Any, reducer: str) -> pd.DataFrame:
    """What pandas says a node's values are under ``reducer`` (keyed by the node objects)."""
    numeric = [c for c in gf.dataframe.columns if pd.api.types.is_numeric_dtype(gf.dataframe[c])]
    frame = gf.dataframe[numeric].astype("float64")
    levels = [x for x in frame.index.names if x != "node"]
    if reducer in ("std", "imbalance") and len(levels) > 1:
        # a spread or an imbalance compares ranks: each rank's threads are added up first (a
        # median, as a mean, is over every (rank, thread) row)
        frame = frame.groupby(level=["node", levels[0]]).sum(min_count=1)
    grouped = frame.groupby(level="node")
    if reducer == "imbalance":
        return grouped.max() / grouped.mean()
    return grouped.agg(reducer)


@pytest.mark.parametrize("folder", [CPI, ALLGATHER])
@pytest.mark.parametrize("reducer", ["mean", "median", "max", "std", "imbalance"])
def test_node_frame_is_pandas_groupby_under_every_reducer(folder: str, reducer: str) -> None:
    gf = load(_by_folder(folder))
    w = cctviz.CCT(gf, reducer=reducer)
    frame = w.node_frame
    assert list(frame.index) == list(range(w.table.size)) and frame.index.name == "id"
    assert [n is m for n, m in zip(frame["node"], w.table.nodes, strict=True)] == [True] * len(
        frame
    )
    assert frame["name"].tolist() == [w.table.name(i) for i in range(w.table.size)]
    expected = _pandas(gf, reducer).reindex(pd.Index(w.table.nodes))
    compared = 0
    for column in expected.columns:
        if str(column) not in w.table.metrics:
            continue
        np.testing.assert_allclose(
            frame[str(column)].to_numpy(), expected[column].to_numpy(), rtol=1e-12, equal_nan=True
        )
        compared += 1
    assert compared >= 2


def test_std_and_imbalance_do_not_add_up() -> None:
    gf = load(_by_folder(CPI))
    for reducer, kind in (("std", "max"), ("imbalance", "ratio")):
        table = cctviz.from_graphframe(gf, reducer=reducer)
        assert {m.kind for m in table.metrics.values()} == {kind}
        assert table.reducer == reducer
    table = cctviz.from_graphframe(gf, reducer="imbalance")
    imbalance = table.metrics["time (inc)"].values
    measured = imbalance[~np.isnan(imbalance)]
    assert measured.size and (measured >= 1.0 - 1e-12).all()  # max ÷ mean of non-negative times


def test_distribution_is_the_nodes_rows_of_the_dataframe() -> None:
    gf = load(_by_folder(CPI))
    w = cctviz.CCT(gf)
    main = next(i for i in range(w.table.size) if w.table.name(i) == "main")
    series = w.distribution(main)
    node = w.table.nodes[main]
    expected = gf.dataframe.loc[gf.dataframe.index.get_level_values("node") == node, w.color_by]
    pd.testing.assert_series_equal(series, expected)
    assert len(series) == 4 and series.index.names == gf.dataframe.index.names
    # by name, another metric; its mean is the value the view shows
    by_name = w.distribution("main", metric="time (inc)")
    assert by_name.mean() == pytest.approx(w.node_frame.loc[main, "time (inc)"])


def test_distribution_of_a_profile_with_one_row_per_node() -> None:
    gf = cctviz.examples.load("caliper-sw4-cuda")
    w = cctviz.CCT(gf)
    metric = "sum#scale#cupti.activity.duration"
    for i in (0, w.table.size // 2, w.table.size - 1):
        series = w.distribution(i, metric)
        node = w.table.nodes[i]
        pd.testing.assert_series_equal(series, gf.dataframe.loc[gf.dataframe.index == node, metric])
        assert len(series) == 1


def test_distribution_errors_name_what_is_accepted() -> None:
    gf = load(_by_folder(CPI))
    w = cctviz.CCT(gf)
    with pytest.raises(ValueError, match="exactly one node"):
        w.distribution([0, 1])
    with pytest.raises(ValueError, match=r"no metric 'nope'.*available"):
        w.distribution(0, metric="nope")


def _without_inclusive(gf: Any) -> Any:
    """The profile as a reader without inclusive columns would give it."""
    copy = gf.deepcopy()
    copy.dataframe = copy.dataframe.drop(columns=[c for c in copy.inc_metrics])
    copy.inc_metrics = []
    return copy


@pytest.mark.parametrize("reducer", ["mean", "sum", "max", "std"])
def test_derived_inclusive_equals_hpctoolkits_own(reducer: str) -> None:
    # HPCToolkit's inclusive time of a calling context tree is the subtree sum, per rank
    gf = load(_by_folder(CPI))
    derived = cctviz.from_graphframe(_without_inclusive(gf), reducer=reducer)
    own = cctviz.from_graphframe(gf, reducer=reducer)
    name = "time" + SUFFIX
    assert derived.metrics[name].kind == ("max" if reducer == "std" else "inclusive")
    assert derived.metrics[name].partner == "time" and derived.metrics["time"].partner == name
    np.testing.assert_allclose(
        derived.metrics[name].values, own.metrics["time (inc)"].values, rtol=1e-12, equal_nan=True
    )


def test_a_profile_without_inclusive_metric_is_sized_by_the_derived_one() -> None:
    gf = cctviz.examples.load("caliper-sw4-cuda")
    w = cctviz.CCT(gf)
    exclusive = "sum#scale#cupti.activity.duration"
    assert w.color_by == exclusive and w.size_by == exclusive + SUFFIX
    t = w.table
    exc, inc = t.metrics[exclusive].values, t.metrics[w.size_by].values
    # every node's value is the sum over its subtree of the measured exclusive values;
    # a subtree with no measured value stays missing, never 0
    for i in range(t.size):
        sub = [i]
        for j in range(i + 1, t.size):
            if t.depth[j] <= t.depth[i]:
                break
            sub.append(j)
        values = exc[sub]
        if np.isnan(values).all():
            assert np.isnan(inc[i])
        else:
            assert inc[i] == pytest.approx(np.nansum(values), rel=1e-12)
    # the main compute phase is the largest node, no longer the smallest dot
    solve = next(i for i in range(t.size) if t.name(i) == "solve")
    assert inc[solve] == np.nanmax(inc[t.depth > 0])


def _brute_flat(w: Any) -> dict[str, dict[str, Any]]:
    """The flat profile by definition: walk each function's callers for its own name (loops and
    lines are no rows: their function's exclusive value holds theirs)."""
    t, frame = w.table, w.node_frame
    out: dict[str, dict[str, Any]] = {}
    for i in range(t.size):
        if is_part(t, i):
            continue
        name = function(t, i)
        p, nested = int(t.parent[i]), False
        while p >= 0:
            nested = nested or function(t, p) == name
            p = int(t.parent[p])
        row = out.setdefault(name, {"ids": [], "outer": []})
        row["ids"].append(i)
        if not nested:
            row["outer"].append(i)
    for row in out.values():
        for m, metric in t.metrics.items():
            ids = row["outer"] if metric.kind == "inclusive" else row["ids"]
            values = frame.loc[ids, m]
            if metric.kind == "exclusive":
                values = pd.Series(own_exclusive(t, m)[ids])
            row[m] = values.sum() if values.notna().any() else np.nan
    return out


@pytest.mark.parametrize("folder", ["hatchet/pyinstrument", "hatchet/hatchet_cpi_v4_database", CPI])
def test_flat_profile_counts_inclusive_once_per_call_path(folder: str) -> None:
    gf = load(_by_folder(folder))
    w = cctviz.CCT(gf)
    flat = w.flat_profile()
    expected = _brute_flat(w)
    assert sorted(flat["name"]) == sorted(expected)
    recursive = 0
    for row in flat.to_dict("records"):
        want = expected[row["name"]]
        assert row["ids"] == want["ids"] and row["contexts"] == len(want["ids"])
        recursive += len(want["outer"]) < len(want["ids"])
        for m in w.table.metrics:
            got = row[m]
            assert (np.isnan(got) and np.isnan(want[m])) or got == pytest.approx(want[m], rel=1e-12)
    if folder == "hatchet/pyinstrument":
        assert recursive > 0, "this profile has recursion: the case under test"
    # largest colour metric first, missing last
    colour = flat[w.color_by].to_numpy()
    finite = colour[~np.isnan(colour)]
    assert (np.diff(finite) <= 0).all() and not np.isnan(colour[: finite.size]).any()
    # a function's contexts select in the tree
    assert w.select(flat.loc[0, "ids"]) == tuple(flat.loc[0, "ids"])


def test_flat_profile_groups_by_dataframe_columns_and_names_bad_ones() -> None:
    gf = load(_by_folder(CPI))
    w = cctviz.CCT(gf)
    by_module = w.flat_profile(by=["name", "module"])
    assert list(by_module.columns[:2]) == ["name", "module"]
    # every function once (its statements count in it)
    functions = [i for i in range(w.table.size) if not is_part(w.table, i)]
    assert by_module["contexts"].sum() == len(functions) < w.table.size
    with pytest.raises(ValueError, match=r"cannot group by 'nope'.*'module'"):
        w.flat_profile(by="nope")


def test_distribution_message_replies_with_the_spread_or_a_clear_error() -> None:
    gf = load(_by_folder(ALLGATHER))
    w = cctviz.CCT(gf)
    sent: list[dict[str, Any]] = []
    w.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    node = next(i for i in range(w.table.size) if w.table.name(i) == "main")
    w._on_message(w, {"type": "distribution", "id": 7, "node": node, "metric": "time (inc)"}, [])
    reply = sent[-1]
    assert reply["id"] == 7 and reply["ok"] is True
    rows = w.distribution(node, "time (inc)")
    s = reply["spread"]
    assert s["count"] == rows.notna().sum() and s["over"] == "rank × thread"
    assert s["min"] == rows.min() and s["max"] == rows.max()
    assert s["mean"] == pytest.approx(rows.mean()) and s["std"] == pytest.approx(rows.std(ddof=1))
    rank, thread = rows.idxmax()[1:]
    assert s["at_max"] == f"rank {rank}, thread {thread}"
    assert s["quantiles"] == sorted(s["quantiles"]) and len(s["quantiles"]) <= 64
    assert s["quantiles"][0] == rows.min() and s["quantiles"][-1] == rows.max()
    for bad, says in (
        ({"node": node, "metric": "nope"}, "no metric 'nope'"),
        ({"node": 10**7, "metric": "time"}, "no node 10000000"),
        ({"node": "main", "metric": "time"}, "needs a node id"),
    ):
        w._on_message(w, {"type": "distribution", "id": 8, **bad}, [])
        assert sent[-1]["ok"] is False and says in sent[-1]["error"], sent[-1]


def _with_imbalance_column(gf: Any) -> Any:
    """The profile with a user-derived per-node imbalance column, listed as the readers list
    every metric: as exclusive."""
    copy = gf.deepcopy()
    df = copy.dataframe
    by_node = df.groupby(level="node")["time (inc)"]
    df["imbalance"] = (by_node.transform("max") / by_node.transform("mean")).to_numpy()
    copy.exc_metrics = [*copy.exc_metrics, "imbalance"]
    return copy


def test_metric_kinds_declare_a_ratio_whose_glyphs_show_the_max() -> None:
    gf = _with_imbalance_column(load(_by_folder(CPI)))
    assumed = cctviz.from_graphframe(gf)
    # what goes wrong without it: an "exclusive" imbalance, summed into a derived inclusive
    assert assumed.metrics["imbalance"].kind == "exclusive"
    assert "imbalance" + SUFFIX in assumed.metrics
    w = cctviz.CCT(gf, metric_kinds={"imbalance": "ratio"})
    m = w.table.metrics["imbalance"]
    assert m.kind == "ratio" and m.partner is None
    assert "imbalance" + SUFFIX not in w.table.metrics
    w.reducer = "max"  # a new table keeps the declaration
    assert w.table.metrics["imbalance"].kind == "ratio"
    flat = w.flat_profile()
    main = flat[flat["name"] == "main"].iloc[0]
    assert main["imbalance"] == pytest.approx(np.nanmax(w.node_frame.loc[main["ids"], "imbalance"]))


def test_metric_kinds_errors_name_what_is_accepted() -> None:
    gf = load(_by_folder(CPI))
    with pytest.raises(ValueError, match=r"no metric 'nope'.*'time'"):
        cctviz.CCT(gf, metric_kinds={"nope": "ratio"})
    with pytest.raises(
        ValueError, match=r"metric_kinds\['time'\] is 'average'; accepted: 'exclusive'"
    ):
        cctviz.CCT(gf, metric_kinds={"time": "average"})


def test_a_fold_carries_the_largest_ratio_it_hides() -> None:
    from cctviz.view.lod import LevelOfDetail

    gf = _with_imbalance_column(load(_by_folder(CPI)))
    table = cctviz.from_graphframe(gf, metric_kinds={"imbalance": "ratio"})
    drawn = LevelOfDetail(table, budget=5).drawn()
    folds = np.flatnonzero(drawn.node_id < 0)
    assert folds.size > 0
    distinct = 0
    values = table.metrics["imbalance"].values
    times = table.metrics["time"].values
    for row in folds:
        parent = int(drawn.table.parent[row])
        owner = int(drawn.node_id[parent]) if parent >= 0 else -1
        # the nodes the fold stands for: hidden children of its owner and their subtrees
        shown = set(drawn.node_id.tolist())
        hidden = [
            i
            for i in range(table.size)
            if i not in shown and _nearest(table.parent, shown, i) == owner
        ]
        got = drawn.table.metrics["imbalance"].values[row]
        measured = values[hidden][~np.isnan(values[hidden])]
        if measured.size == 0:
            assert np.isnan(got)
            continue
        assert got == pytest.approx(measured.max())  # the max, not a sum
        distinct += measured.size > 1 and measured.max() < measured.sum()
        assert drawn.table.metrics["time"].values[row] == pytest.approx(np.nansum(times[hidden]))
    assert distinct, "a fold where the max and the sum differ: the case under test"


def _nearest(parent: np.ndarray, shown: set[int], i: int) -> int:
    """The nearest drawn ancestor of node ``i`` (-1: none)."""
    while parent[i] >= 0:
        i = int(parent[i])
        if i in shown:
            return i
    return -1
