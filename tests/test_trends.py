"""Trends and regressions on an ensemble (issue 32): a node's trend against metadata equals pandas
over the profiles read one by one; the change-point detector, on synthetic nightly series with
injected changes, noise and single-run outliers, finds the changes at the right run, flags
almost no unchanged node, and attributes each change to the node where it was injected."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.core.markdown import text as markdown_text
from cctviz.ensemble.synthetic import Change

from .profiles import data_root, require

MPI = "thicket/mpi_scaling_cali"


def test_a_trend_equals_pandas_over_the_profiles(tmp_path: Path) -> None:
    import hatchet as ht

    require(MPI)
    files = sorted(data_root(MPI).rglob("*.cali"))
    ens = cctviz.Ensemble(tmp_path / "store")
    ens.add(files, progress=False)
    metric = next(m for m in ens.metrics.index if ens.metrics.loc[m, "kind"] == "inclusive")
    rows = []
    for f in files:
        gf = ht.GraphFrame.from_caliperreader(str(f))
        table = cctviz.from_graphframe(gf)
        root = next(int(r) for r in table.roots if table.name(int(r)) == "main")
        size = float(gf.metadata["mpi.world.size"])
        rows.append((size, table.name(root), table.metrics[metric].values[root]))
    ref = pd.DataFrame(rows, columns=["size", "name", "value"]).groupby("size")["value"].mean()
    got = ens.trend("main", metric, by="mpi.world.size")
    np.testing.assert_allclose(got["mpi.world.size"].to_numpy(np.float64), ref.index.to_numpy())
    np.testing.assert_allclose(got["value"], ref.to_numpy(), rtol=1e-12)
    assert (got["count"] == 1).all()
    # the node and its children, the node first
    both = ens.trend("main", metric, by="mpi.world.size", children=True)
    assert both["path"].iloc[0] == ("main",) and both["key"].nunique() > 1
    assert all(len(p) == 2 for p in both["path"].iloc[len(got) :])
    with pytest.raises(KeyError, match="no metadata column 'nope'"):
        ens.trend("main", metric, by="nope")


def _nightly(  # type: ignore[no-untyped-def]
    tmp_path: Path, n_runs: int, n_nodes: int, n_changes: int, seed: int, compilers: int = 1
):
    """A nightly series (one configuration) with changes of 5–50 % at leaves and known runs."""
    rng = np.random.default_rng(seed)
    shape = cctviz.examples.ensemble(tmp_path / "shape", 1, n_nodes, seed=seed)
    tree = shape.nodes
    parents = set(tree["parent"])
    leaves = [i for i, k in enumerate(tree.index) if k not in parents]
    chosen = rng.choice(leaves, n_changes, replace=False)
    changes = [
        Change(
            int(c),
            int(rng.integers(20, n_runs - 20)),
            float(1 + rng.uniform(0.05, 0.5) * rng.choice([-1, 1])),
        )
        for c in chosen
    ]
    ens = cctviz.examples.ensemble(
        tmp_path / "nightly",
        n_runs,
        n_nodes,
        seed=seed,
        changes=changes,
        noise=0.05,
        outliers=0.005,
        job_sizes=(64,),
        problem_sizes=(30,),
        compilers=("gcc-12", "clang-16")[:compilers],
    )
    return ens, changes


def test_regressions_find_attribute_and_do_not_cry_wolf(tmp_path: Path) -> None:
    ens, changes = _nightly(tmp_path, n_runs=300, n_nodes=400, n_changes=30, seed=11)
    found = ens.regressions("time (inc)", min_change=0.05)
    keys = list(ens.nodes.index)
    run_of = ens.profiles["run"]
    found["run"] = [int(run_of[p]) for p in found["profile"]]
    injected = {keys[c.node]: c for c in changes}
    # ancestors of an injected node change too (inclusive only)
    parent = dict(zip(ens.nodes.index, ens.nodes["parent"], strict=True))
    touched = set(injected)
    for k in injected:
        while parent.get(k, 0) != 0:
            k = parent[k]
            touched.add(k)
    big = [c for c in changes if abs(c.factor - 1) >= 0.10]
    hits = [
        c
        for c in big
        if ((found["key"] == keys[c.node]) & ((found["run"] - c.at).abs() <= 1)).any()
    ]
    recall = len(hits) / len(big)
    unchanged = set(keys) - touched
    flagged = set(found["key"]) & unchanged
    false_rate = len(flagged) / len(unchanged)
    # each change is attributed to the node where it was injected: exclusive there, inclusive
    # only at its ancestors
    own = found[found["key"].isin(list(injected))]
    ancestors = found[found["key"].isin(list(touched - set(injected)))]
    print(
        f"recall {recall:.1%} of {len(big)} changes ≥ 10 %, "
        f"unchanged nodes flagged {false_rate:.2%}"
    )
    assert recall >= 0.95, found
    assert false_rate <= 0.01, found[found["key"].isin(list(flagged))]
    assert (own["cause"] == "exclusive").all(), own
    assert (ancestors["cause"] == "inclusive only").all(), ancestors
    # the columns a user reads
    row = found.iloc[0]
    assert row["change"] == pytest.approx(row["after"] / row["before"] - 1)
    assert isinstance(row["path"], tuple) and row["path"][0] == "main"
    assert list(found.columns[:9]) == [
        "key",
        "path",
        "at",
        "profile",
        "before",
        "after",
        "change",
        "score",
        "cause",
    ]
    effect = (found["after"] - found["before"]).abs()
    assert effect.is_monotonic_decreasing


def test_the_report_names_each_change_where_it_happened(tmp_path: Path) -> None:
    ens, _ = _nightly(tmp_path, n_runs=120, n_nodes=60, n_changes=3, seed=4)
    text = ens.report("time (inc)")
    assert text.startswith("## Changes of time \\(inc\\) in 120 profiles")
    found = ens.regressions("time (inc)")
    own = found[found["cause"] == "exclusive"]
    assert f"{len(own)} change(s) of 5% or more" in text
    first = own.iloc[0]
    escaped = " → ".join(markdown_text(n) for n in first["path"])
    first_item = next(line for line in text.split("\n") if line.startswith("1. "))
    assert escaped in first_item  # the largest change comes first
    assert "Note" not in text  # one configuration
    assert f"from launchdate {markdown_text(pd.Timestamp(first['at']).date().isoformat())}" in text
    # a share of the run's total, of a metric that adds up: the median run's root total
    totals = ens.totals("time (inc)")
    share = abs(first["after"] - first["before"]) / totals.median()
    assert f"; {share:.1%} of its configuration's median run" in first_item
    # runs of two compilers: each change is of one, and the report says where it looked
    two, _ = _nightly(tmp_path / "two", n_runs=160, n_nodes=60, n_changes=3, seed=4, compilers=2)
    text = two.report("time (inc)")
    assert "**Note**: these runs are 2 configurations \\(compiler\\)" in text
    first_item = next(line for line in text.split("\n") if line.startswith("1. "))
    assert " in compiler gcc\\-12: " in first_item or " in compiler clang\\-16: " in first_item
    quiet = cctviz.examples.ensemble(
        tmp_path / "quiet", 30, 20, seed=1, noise=0.0, job_sizes=(64,), problem_sizes=(30,)
    )
    assert "No change of 5% or more was found." in quiet.report("time (inc)")


def test_a_change_opens_the_difference_of_the_runs_around_it(tmp_path: Path) -> None:
    ens, _ = _nightly(tmp_path, n_runs=80, n_nodes=40, n_changes=2, seed=8)
    change = ens.regressions("time (inc)").iloc[0]
    w = ens.explain(change)
    (node,) = w.selection
    leaf = not (w.table.parent == node).any()
    # focused on the node, or on its caller where it is a leaf (shown among its siblings)
    assert w.focused == (int(w.table.parent[node]) if leaf else node)
    path = []
    i = node
    while i >= 0:
        path.append(w.table.name(i))
        i = int(w.table.parent[i])
    assert tuple(reversed(path)) == change["path"]
    # the difference of the medians of five runs each side: an outlier run is no change
    runs = ens.distribution(change["key"], "time (inc)").sort_values("launchdate")
    before = runs[runs["launchdate"] < change["at"]].tail(5)["value"].median()
    after = runs[runs["launchdate"] >= change["at"]].head(5)["value"].median()
    assert w.table.metrics[w.color_by].values[node] == pytest.approx(after - before)
    assert w.labels[1].endswith("(median of 5)")
    # coloured on the focused subtree's values: the change is dark, not pale beside a larger one
    assert w.color_domain == "view"
    assert str(pd.Timestamp(change["at"]).date()) in w.color_by  # the runs are named by date
    with pytest.raises(ValueError, match=r"row of Ensemble\.regressions"):
        ens.explain({"path": ("main",)})


def test_one_run_as_a_graphframe(tmp_path: Path) -> None:
    ens = cctviz.examples.ensemble(tmp_path / "s", 5, 30, seed=2)
    profile = ens.profiles.index[2]
    gf = ens.at(profile)
    root_value = ens.distribution(ens.nodes.index[0], "time (inc)").loc[profile, "value"]
    assert gf.dataframe["time (inc)"].iloc[0] == pytest.approx(root_value)
    with pytest.raises(KeyError, match="no profile 'x'"):
        ens.at("x")


@pytest.mark.parametrize("reducer", ["mean", "median", "p95", "std", "min", "max", "imbalance"])
@pytest.mark.parametrize("by", ["compiler", "run"])
def test_each_reducer_of_a_trend_equals_pandas(tmp_path: Path, reducer: str, by: str) -> None:
    # by compiler: four compilers over 40 runs, several profiles share each value of the axis;
    # by run: one profile per value (a nightly series: each cell its own value)
    ens = cctviz.examples.ensemble(tmp_path / "s", 40, 60, seed=4)
    node = ens.nodes.index[1]
    got = ens.trend(node, "time", by=by, reducer=reducer, children=True)
    keys = [node, *ens.nodes.index[ens.nodes["parent"] == node]]
    rows = []
    for key in keys:
        dist = ens.distribution(key, "time")
        groups = dist.groupby(by)["value"]
        if reducer == "imbalance":
            ref = groups.max() / groups.mean()
        elif reducer == "p95":
            ref = groups.quantile(0.95)
        else:
            ref = getattr(groups, reducer)()
        rows += [(int(key), c, v, int(groups.size()[c])) for c, v in ref.items()]
    want = pd.DataFrame(rows, columns=["key", by, "value", "count"])
    assert got["key"].tolist() == want["key"].tolist()
    assert got[by].tolist() == want[by].tolist()
    np.testing.assert_allclose(got["value"], want["value"], rtol=1e-12)
    assert got["count"].tolist() == want["count"].tolist()


def test_a_store_written_before_values_held_parents_gives_the_same_trend(
    tmp_path: Path,
) -> None:
    import pyarrow.parquet as pq

    ens = cctviz.examples.ensemble(tmp_path / "s", 12, 40, seed=5)
    node = ens.nodes.index[2]
    new = ens.trend(node, "time (inc)", children=True)
    assert ens._shared.duck.by_parent()
    for part in (tmp_path / "s" / "values").glob("batch=*/*.parquet"):
        pq.write_table(pq.read_table(part).drop(["parent"]), part)
    old = cctviz.Ensemble(tmp_path / "s")
    assert not old._shared.duck.by_parent()
    pd.testing.assert_frame_equal(old.trend(node, "time (inc)", children=True), new)
    assert old.metric_names == ["time", "time (inc)"] == ens.metric_names


def test_the_trend_of_some_children_is_the_full_trends_rows_for_them(tmp_path: Path) -> None:
    from cctviz.ensemble.analysis.trend import trend_of

    ens = cctviz.examples.ensemble(tmp_path / "s", 20, 80, seed=6)
    root = int(ens.nodes.index[0])
    kids = [int(k) for k in ens.nodes.index[ens.nodes["parent"] == root]]
    assert len(kids) > 2
    full = ens.trend(root, "time (inc)", children=True)
    some = trend_of(ens, root, kids[::2], "time (inc)", "launchdate", "mean")
    want = full[full["key"].isin([root, *kids[::2]])].reset_index(drop=True)
    pd.testing.assert_frame_equal(some, want)


def test_runs_of_several_configurations_are_said(tmp_path: Path) -> None:
    from cctviz.ensemble.analysis.configs import ConfigurationWarning, varying

    study = cctviz.examples.ensemble(
        tmp_path / "study", 40, 30, seed=2, job_sizes=(64, 128, 256), problem_sizes=(30,)
    )
    assert list(varying(study.profiles, "launchdate"))[:2] == ["jobsize", "compiler"]
    assert varying(study.profiles, "launchdate")["jobsize"] == "64–256"
    assert study.configuration == ["jobsize", "compiler"]
    with pytest.warns(ConfigurationWarning, match=r"no configuration has the 10 values of launch"):
        assert study.regressions("time (inc)").empty
    one = study.where("jobsize = 64 AND compiler = 'clang-16'")
    assert varying(one.profiles, "launchdate") == {} and one.configuration == []
    said = one.report("time (inc)")  # one configuration, of 5 runs: too few to tell a change
    assert "configurations \\(" not in said and "(at most 5)" in said.replace("\\", "")


def test_the_report_prints_before_and_after_in_the_metrics_unit(tmp_path: Path) -> None:
    """Issue 58: before → after with the metric's unit and one SI prefix for both, not ``.4g``."""
    ens, _ = _nightly(tmp_path, n_runs=120, n_nodes=60, n_changes=3, seed=4)
    found = ens.regressions("time (inc)")
    first = found[found["cause"] == "exclusive"].iloc[0]
    assert 0.1 < first["before"] < 1 < first["after"]  # one prefix: ms for both
    line = next(x for x in ens.report("time (inc)", units={"time (inc)": "s"}).split("\n")
                if x.startswith("1. "))  # fmt: skip
    before, after = (f"{round(v * 1000)} ms" for v in (first["before"], first["after"]))
    assert f": {before} → {after} (" in line
    plain = next(x for x in ens.report("time (inc)").split("\n") if x.startswith("1. "))
    assert f": {first['before'] * 1000:.0f} → " not in plain and " ms" not in plain  # no unit
    with pytest.raises(ValueError, match=r"units\['time \(inc\)'\]: unit 'KB' does not parse"):
        ens.report("time (inc)", units={"time (inc)": "KB"})
    with pytest.raises(TypeError, match="units is a mapping of metric name to unit"):
        ens.report("time (inc)", units="s")  # type: ignore[arg-type]
