"""``cctviz.compare_frame`` against pandas on real pairs of runs: the same program at two scales
(LULESH, Caliper), and a profile against a filtered copy of itself (trees that differ)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.analysis.compare import compare_frame
from cctviz.core.callpath import call_path, path_key

from .conftest import load
from .profiles import data_root, readable, require, two_runs


def _per_node(gf: Any, metric: str, reducer: str = "mean") -> pd.Series:
    """Each node's value by pandas: the metric's ``reducer`` over the node's rows."""
    df = gf.dataframe
    if len(df.index.names) > 1:
        return df.groupby(level="node")[metric].agg(reducer)
    return df[metric]


def _check(a: Any, b: Any, frame: pd.DataFrame, metric: str, reducer: str = "mean") -> None:
    """Every node of each run is in one row, rows of both runs hold nodes with the same call
    path (frames from the root), and the values are pandas' values of those nodes."""
    for side, gf, column in (("a", a, "node_a"), ("b", b, "node_b")):
        nodes = [n for n in frame[column] if n is not None]
        assert len(nodes) == len(set(map(id, nodes))) == len(list(gf.graph.traverse()))
        values = _per_node(gf, metric, reducer)
        for node, got in zip(frame[column], frame[side], strict=True):
            want = np.nan if node is None else float(values.get(node, np.nan))
            assert (np.isnan(got) and np.isnan(want)) or got == pytest.approx(want)
    for row in frame.to_dict("records"):
        na, nb = row["node_a"], row["node_b"]
        assert row["presence"] == ("both" if na and nb else "only a" if na else "only b")
        if na and nb:
            assert path_key(call_path(na)) == path_key(call_path(nb))
            assert row["diff"] == pytest.approx(row["b"] - row["a"], nan_ok=True)
        assert len(row["path"]) == len(call_path(na or nb))


def test_two_scales_of_one_program() -> None:
    a, b = two_runs()
    frame = compare_frame(a, b, labels=("run 1", "run 2"))
    metric = frame.attrs["metric"]
    if metric not in a.dataframe.columns:  # derived (no inclusive metric measured): its source
        metric = metric.removesuffix(" (inc, derived)")
        frame = compare_frame(a, b, metric=metric, labels=("run 1", "run 2"))
    _check(a, b, frame, metric)
    assert frame.attrs["labels"] == ("run 1", "run 2")
    both = frame[frame.presence == "both"]
    assert len(both) > 10
    nonzero = both[both.a != 0]
    np.testing.assert_allclose(nonzero.ratio, nonzero.b / nonzero.a)
    np.testing.assert_allclose(nonzero.change, nonzero.b / nonzero.a - 1)


def test_a_profile_against_a_filtered_copy_marks_what_moved() -> None:
    gf = cctviz.examples.load("hpctoolkit-cpi")
    sub = gf.filter(lambda row: row["name"] != "27:MPI_Init", squash=True, num_procs=1)
    frame = compare_frame(gf, sub, metric="time (inc)")
    _check(gf, sub, frame, "time (inc)")
    counts = frame.presence.value_counts().to_dict()
    # MPI_Init's subtree is only in a; squashed under main, its callees are new contexts in b
    assert counts["only a"] > 0 and counts["only b"] > 0 and counts["both"] > 0
    assert ("<program root>", "main", "27:MPI_Init") in set(frame.path[frame.presence == "only a"])
    # the rows are in tree order: each path's parent comes before it
    position: dict[tuple[str, ...], int] = {}
    for i, p in enumerate(frame.path):
        position.setdefault(p, i)
    assert all(position[p[:-1]] < i for i, p in enumerate(frame.path) if len(p) > 1)


def test_every_reducer_reduces_each_run_first() -> None:
    gf = cctviz.examples.load("hpctoolkit-cpi")  # 4 ranks
    frame = compare_frame(gf, gf, metric="time", reducer="max")
    _check(gf, gf, frame, "time", "max")
    assert (frame.presence == "both").all() and (frame["diff"].fillna(0) == 0).all()


def test_thickets_compare_by_their_mean_over_profiles() -> None:
    profiles = [p for p in readable() if p.reader == "thicket"]
    if not profiles:
        pytest.skip("Thicket needs llnl-thicket (the LLNL test environment)")
    tk = load(profiles[0])
    frame = compare_frame(tk, tk)
    assert (frame.presence == "both").all()
    assert frame["diff"].dropna().abs().max() == 0


def test_bad_metrics_and_inputs_say_what_is_accepted() -> None:
    gf = cctviz.examples.load("hpctoolkit-cpi")
    with pytest.raises(ValueError, match=r"run a has no metric 'nope'; its metrics are 'time"):
        compare_frame(gf, gf, metric="nope")
    with pytest.raises(TypeError):
        compare_frame(gf, "not a profile")


def _cpi_pair() -> tuple[Any, Any]:
    gf = cctviz.examples.load("hpctoolkit-cpi")
    return gf, gf.filter(lambda row: row["name"] != "27:MPI_Init", squash=True, num_procs=1)


def test_the_compare_view_draws_the_union_with_its_presence() -> None:
    a, b = _cpi_pair()
    w = cctviz.compare(a, b, labels=("full", "filtered"))
    frame = compare_frame(a, b, labels=("full", "filtered"))
    assert w.table.size == len(frame)
    names = {0: "both", 1: "only a", 2: "only b"}
    assert [names[p] for p in w.table.presence.tolist()] == frame.presence.tolist()
    # the view's values are the frame's, in the same tree order
    t = w.table
    np.testing.assert_array_equal(t.metrics[w.columns.a].values, frame.a.to_numpy())
    np.testing.assert_array_equal(t.metrics[w.columns.diff].values, frame["diff"].to_numpy())
    assert [t.name(i) for i in range(t.size)] == [p[-1] for p in frame.path]
    # coloured by b − a on a diverging palette over a symmetric domain; sized by the larger run
    assert (w.color_by, w.size_by) == (w.columns.diff, w.columns.larger)
    low, high = w.color_domain
    assert w.palette == "rdbu" and low == -high == -np.nanmax(np.abs(frame["diff"]))
    assert t.metrics[w.columns.ratio].kind == "ratio"
    # a run's own values: the sequential palette again
    w.color_by = w.columns.b
    assert (w.palette, w.color_domain) == ("auto", "tree")
    w.color_by = w.columns.log_ratio
    assert w.palette == "rdbu" and w.color_domain[0] == -w.color_domain[1]
    # the payload tells the browser which run has which context
    payload = w._payload
    assert payload["presence_labels"] == ["only in full", "only in filtered"]
    assert bytes(payload["presence"]["buffer"]) == w.table.presence.astype("<i4").tobytes()


def test_a_compare_view_under_level_of_detail_sends_the_drawn_presence() -> None:
    a, b = _cpi_pair()
    w = cctviz.compare(a, b, budget=10)
    drawn = w._lod.drawn()
    assert drawn.table.presence.shape == (drawn.table.size,)
    real = drawn.node_id >= 0
    np.testing.assert_array_equal(drawn.table.presence[real], w.table.presence[drawn.node_id[real]])


def test_compare_view_errors_say_what_to_do() -> None:
    a, b = _cpi_pair()
    with pytest.raises(ValueError, match="different labels"):
        cctviz.compare(a, b, labels=("x", "x"))
    with pytest.raises(ValueError, match=r"labels names the 2 runs"):
        cctviz.compare(a, b, labels="ab")
    w = cctviz.compare(a, b)
    with pytest.raises(TypeError, match=r"cctviz\.compare\(a, b\)"):
        w.data = a
    with pytest.raises(TypeError, match="compare_frame"):
        w.to_code()
    # the selection of a compare view is Hatchet nodes of the union, with every metric
    w.select("main")
    assert list(w.selected_frame["name"]) == ["main"]


def _scaling_runs() -> tuple[list[Any], list[int]]:
    """LULESH under Caliper at 27 to 343 cores (../shared/data/thicket/mpi_scaling_cali)."""
    import hatchet

    folder = "thicket/mpi_scaling_cali"
    require(folder)
    cores = [27, 64, 125, 216, 343]
    runs = [
        hatchet.GraphFrame.from_caliperreader(str(data_root(folder) / f"{n}_cores.cali"))
        for n in cores
    ]
    return runs, cores


def test_a_series_of_runs_with_its_efficiency_and_sparkline_data() -> None:
    runs, cores = _scaling_runs()
    w = cctviz.compare(runs, labels=cores)
    assert w.labels == tuple(map(str, cores)) and len(w.columns.runs) == 5
    metric = w._compared_metric
    t = w.table
    # each run's column holds that run's own value of each context (pandas, by call path)
    for run, column in zip(runs, w.columns.runs, strict=True):
        values = _per_node(run, metric) if metric in run.dataframe.columns else None
        if values is None:
            continue
        by_path = {
            path_key(call_path(n)): float(values.get(n, np.nan)) for n in run.graph.traverse()
        }
        for i in range(t.size):
            want = by_path.get(path_key(call_path(t.nodes[i])), np.nan)
            got = t.metrics[column].values[i]
            assert (np.isnan(got) and np.isnan(want)) or got == pytest.approx(want)
    # LULESH's problem_size (each rank's domain) is 30 in every run: weak scaling, t₁ ÷ tₙ
    assert w.columns.scaling == "weak"
    first, last = (t.metrics[c].values for c in (w.columns.a, w.columns.b))
    efficiency = t.metrics[w.columns.efficiency].values
    ok = last > 0
    np.testing.assert_allclose(efficiency[ok], first[ok] / last[ok])
    # coloured by log₂ last ÷ first on a symmetric diverging scale; the series goes to the browser
    assert w.color_by == w.columns.log_ratio and w.palette == "rdbu"
    assert w._payload["series"] == [[str(n), c] for n, c in zip(cores, w.columns.runs, strict=True)]
    assert w.frame.attrs["labels"] == ("27", "343")


def test_groups_of_a_thicket_compare_by_their_means() -> None:
    profiles = [p for p in readable() if p.reader == "thicket"]
    if not profiles:
        pytest.skip("Thicket needs llnl-thicket (the LLNL test environment)")
    tk = load(profiles[0])
    column = next(
        c
        for c in tk.metadata.columns
        if 1 < tk.metadata[c].astype(str).nunique() <= len(tk.metadata)
    )
    w = cctviz.compare(tk, groupby=column)
    groups = tk.groupby(column)
    assert len(w.runs) == len(groups) >= 2
    # each group's column is the mean over its profiles, node by node
    group = groups[next(iter(groups))]
    metric = w._compared_metric
    if metric in group.dataframe.columns:
        means = group.dataframe.groupby(level="node")[metric].mean()
        by_path = {path_key(call_path(n)): v for n, v in means.items()}
        t = w.table
        for i in range(t.size):
            want = by_path.get(path_key(call_path(t.nodes[i])), np.nan)
            got = t.metrics[w.columns.runs[0]].values[i]
            assert (np.isnan(got) and np.isnan(want)) or got == pytest.approx(want)


def test_compare_says_what_it_accepts() -> None:
    a, b = _cpi_pair()
    with pytest.raises(ValueError, match="at least two runs"):
        cctviz.compare([a])
    with pytest.raises(TypeError, match="a list of runs"):
        cctviz.compare(a)
    with pytest.raises(TypeError, match="groupby splits one Thicket"):
        cctviz.compare(a, groupby="compiler")
    with pytest.raises(ValueError, match=r"labels names the 3 runs"):
        cctviz.compare([a, b, a], labels=("x", "y"))


def test_the_shipped_scaling_runs_compare_as_a_series() -> None:
    runs = cctviz.examples.runs()
    assert list(runs) == [27, 64, 125, 216, 343]
    w = cctviz.compare(list(runs.values()), labels=list(runs))
    assert w.columns.efficiency is not None and w.table.size >= 45
    with pytest.raises(KeyError, match="available: lulesh-mpi-scaling"):
        cctviz.examples.runs("nope")


def test_a_thickets_spread_over_its_profiles_reaches_the_tooltip() -> None:
    profiles = [p for p in readable() if p.reader == "thicket"]
    if not profiles:
        pytest.skip("Thicket needs llnl-thicket (the LLNL test environment)")
    tk = load(profiles[0])
    w = cctviz.CCT(tk)
    root = int(w.table.roots[0])
    rows = w.distribution(root)
    assert list(rows.index.names) == ["node", "profile"] and len(rows) == len(tk.profile)
    sent: list[dict[str, Any]] = []
    w.send = lambda content, buffers=None: sent.append(content)
    w._on_message(w, {"type": "distribution", "id": 1, "node": root, "metric": w.color_by}, [])
    spread = sent[-1]["spread"]
    values = tk.dataframe.xs(w.table.nodes[root], level="node")[w.color_by]
    assert spread["over"] == "profile" and spread["count"] == values.notna().sum()
    assert spread["max"] == values.max() and spread["mean"] == pytest.approx(values.mean())
