"""cctviz.Ensemble on real ensembles: the store's per-node statistics against pandas over the
profiles read one by one (and Thicket's, in test_ensemble_thicket.py), DuckDB against Dask,
incremental and idempotent adds, unreadable files, a store reopened in another process."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.ensemble import StoreError, WhereError

from .profiles import data_root, require

MPI = "thicket/mpi_scaling_cali"
XL = "thicket/XL_BaseCuda"
REDUCERS = ("mean", "std", "min", "max", "median", "p95", "imbalance", "sum")


def _files(folder: str) -> list[Path]:
    require(folder)
    return sorted(data_root(folder).rglob("*.cali"))


def _reference(files: list[Path], metric: str) -> pd.DataFrame:
    """pandas over the profiles read one by one, nodes matched by their path of names."""
    import hatchet as ht

    values: dict[tuple[str, ...], list[float]] = {}
    for f in files:
        table = cctviz.from_graphframe(ht.GraphFrame.from_caliperreader(str(f)))
        paths: list[tuple[str, ...]] = []
        for i in range(table.size):
            p = int(table.parent[i])
            paths.append((*(paths[p] if p >= 0 else ()), table.name(i)))
        assert len(set(paths)) == len(paths), "the reference keys nodes by path: paths repeat"
        for path, v in zip(paths, table.metrics[metric].values, strict=True):
            if np.isfinite(v):
                values.setdefault(path, []).append(float(v))
    rows = {}
    for path, vs in values.items():
        s = pd.Series(vs)
        rows[path] = {
            "count": len(vs),
            "mean": s.mean(),
            "std": s.std(),
            "min": s.min(),
            "max": s.max(),
            "median": s.median(),
            "p95": s.quantile(0.95),
            "imbalance": s.max() / s.mean(),
            "sum": s.sum(),
        }
    return pd.DataFrame(list(rows.values()), index=pd.Index(list(rows), tupleize_cols=False))


def _metric(ens: cctviz.Ensemble) -> str:
    kinds = ens.metrics
    return next(m for m in kinds.index if kinds.loc[m, "kind"] == "inclusive")


@pytest.fixture(scope="module")
def mpi_store(tmp_path_factory: pytest.TempPathFactory) -> cctviz.Ensemble:
    ens = cctviz.Ensemble(tmp_path_factory.mktemp("mpi") / "store")
    assert ens.add(_files(MPI), progress=False) == 5
    return ens


@pytest.mark.parametrize(("folder", "pool"), [(MPI, False), (XL, True)])
def test_per_node_statistics_equal_pandas_over_the_profiles(
    folder: str, pool: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cctviz.ensemble.store import ingest, worker

    started = []

    class Recorded(worker.Worker):
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            started.append(self.pid)

    monkeypatch.setattr(worker, "Worker", Recorded)
    if pool:  # workers after the first file, as 1,000 files get them after a few
        monkeypatch.setattr(ingest, "POOL_PAYS", 0.0)
        monkeypatch.setattr(ingest, "SERIAL_BELOW", 2)
    files = _files(folder)
    ens = cctviz.Ensemble(tmp_path / "store")
    assert ens.add(files, progress=False, workers=2) == len(files)
    assert ens.skipped.empty
    assert len(started) == (2 if pool else 0)  # a few small files: read in this process
    for metric in ens.metrics.index[:3]:
        got = ens.reduce(metric, REDUCERS)
        ref = _reference(files, metric)
        got = got.set_index("path")
        assert set(got.index) == set(ref.index), metric
        ref = ref.loc[got.index]
        assert (got["count"].to_numpy() == ref["count"].to_numpy()).all()
        for r in REDUCERS:
            np.testing.assert_allclose(
                got[r], ref[r], rtol=1e-9, equal_nan=True, err_msg=f"{metric} {r}"
            )


def test_the_union_tree_is_in_pre_order_with_parents_first(mpi_store: cctviz.Ensemble) -> None:
    tree = mpi_store.nodes
    position = {k: i for i, k in enumerate(tree.index)}
    for key, row in tree.iterrows():
        if row["parent"] != 0:
            assert position[row["parent"]] < position[key]
            assert tree.loc[row["parent"], "path"] == row["path"][:-1]
    assert len(tree.loc[tree["depth"] == 0]) == len(tree[tree["parent"] == 0])


def test_adding_is_incremental_and_idempotent(tmp_path: Path) -> None:
    files = _files(MPI)
    ens = cctviz.Ensemble(tmp_path / "store")
    assert ens.add(files[:2], progress=False) == 2
    first = ens.reduce(_metric(ens), ("mean",))
    assert ens.add(files, progress=False) == 3  # the two already there are not added again
    assert ens.add(files, progress=False) == 0
    assert len(ens) == 5 and ens.profiles["hash"].is_unique
    # a copy of a file under another name is the same profile
    copy = tmp_path / "copy.cali"
    shutil.copy(files[0], copy)
    assert ens.add(str(copy), progress=False) == 0
    # the first two profiles' numbers are unchanged by the later adds
    two = ens.where(f"source IN ({', '.join(repr(str(f)) for f in files[:2])})")
    again = two.reduce(_metric(ens), ("mean",))
    pd.testing.assert_frame_equal(again, first)


def test_unreadable_files_are_skipped_and_named(tmp_path: Path) -> None:
    files = _files(MPI)
    (tmp_path / "empty.cali").write_bytes(b"")
    (tmp_path / "garbage.cali").write_bytes(b"\x00\x01 not caliper at all" * 50)
    (tmp_path / "notes.txt").write_text("hello")
    ens = cctviz.Ensemble(tmp_path / "store")
    added = ens.add(
        [
            *map(str, files[:2]),
            str(tmp_path / "empty.cali"),
            str(tmp_path / "garbage.cali"),
            str(tmp_path / "notes.txt"),
            str(tmp_path / "missing.cali"),
            str(tmp_path / "*.nope"),
        ],
        progress=False,
    )
    assert added == 2 and len(ens) == 2
    skipped = dict(zip(ens.skipped["source"], ens.skipped["reason"], strict=True))
    assert set(skipped) == {
        str(tmp_path / n)
        for n in ("empty.cali", "garbage.cali", "notes.txt", "missing.cali", "*.nope")
    }
    assert "no such file" in skipped[str(tmp_path / "missing.cali")]
    assert "no file matches" in skipped[str(tmp_path / "*.nope")]
    assert "no reader for it" in skipped[str(tmp_path / "notes.txt")]
    assert all(r for r in skipped.values())


def test_where_filters_profiles_and_says_what_is_wrong(mpi_store: cctviz.Ensemble) -> None:
    profiles = mpi_store.profiles
    sizes = profiles["mpi.world.size"] if "mpi.world.size" in profiles else profiles["jobsize"]
    column = sizes.name
    small = mpi_store.where(f'"{column}" <= {sizes.median()}')
    assert set(small.profiles.index) == set(profiles.index[sizes <= sizes.median()])
    # a sub-ensemble's statistics are over its profiles only
    metric = _metric(mpi_store)
    root = mpi_store.nodes.index[0]
    mean = small.reduce(metric, ("mean", "count")).loc[root]
    values = small.distribution(root, metric)["value"]
    assert mean["count"] == len(values) and mean["mean"] == pytest.approx(values.mean(), rel=1e-12)
    with pytest.raises(WhereError, match=r"no_such_column.*columns: .*source"):
        mpi_store.where("no_such_column > 3")
    with pytest.raises(ValueError, match="SQL condition"):
        mpi_store.where("  ")


def test_distribution_and_histogram_of_a_node(mpi_store: cctviz.Ensemble) -> None:
    metric = _metric(mpi_store)
    root_path = mpi_store.nodes["path"].iloc[0]
    dist = mpi_store.distribution(root_path, metric)
    assert len(dist) == 5 and "source" in dist.columns
    hist = mpi_store.histogram(root_path, metric, bins=3)
    assert hist["count"].sum() == 5 and hist["low"].iloc[0] == dist["value"].min()
    assert hist["high"].iloc[-1] == dist["value"].max()
    with pytest.raises(KeyError, match="no node named"):
        mpi_store.distribution("no such function", metric)
    with pytest.raises(KeyError, match=r"no metric 'nope'.*metrics: "):
        mpi_store.reduce("nope")
    with pytest.raises(ValueError, match=r"unknown reducer 'p200'.*accepted"):
        mpi_store.reduce(metric, ("mean", "p200"))
    with pytest.raises(ValueError, match="bins"):
        mpi_store.histogram(root_path, metric, bins=0)


def test_graphframes_with_metadata(tmp_path: Path) -> None:
    import hatchet as ht

    files = _files(MPI)[:3]
    gfs = [ht.GraphFrame.from_caliperreader(str(f)) for f in files]
    meta = pd.DataFrame({"run": ["a", "b", "c"], "nodes_used": [1, 2, 4]})
    ens = cctviz.Ensemble(tmp_path / "store")
    assert ens.add(gfs, meta, progress=False) == 3
    assert ens.add(gfs, meta, progress=False) == 0
    assert sorted(ens.profiles["run"]) == ["a", "b", "c"]
    assert len(ens.where("nodes_used >= 2")) == 2
    with pytest.raises(ValueError, match="metadata has 2 rows for 3 profiles"):
        ens.add(gfs, meta.iloc[:2], progress=False)
    with pytest.raises(TypeError, match=r"Ensemble.add takes"):
        ens.add(42)


def test_a_store_reopened_in_another_process_gives_the_same_answers(
    mpi_store: cctviz.Ensemble,
) -> None:
    metric = _metric(mpi_store)
    here = mpi_store.reduce(metric)
    code = (
        "import cctviz, json, sys; ens = cctviz.Ensemble(sys.argv[1], create=False); "
        "r = ens.reduce(sys.argv[2]).reset_index().drop(columns=['path']); "
        "print(json.dumps(r.astype(object).where(r.notna(), None).to_dict(orient='list')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(mpi_store.path), metric],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    there = pd.DataFrame(json.loads(out.stdout.strip().splitlines()[-1])).astype({"std": float})
    assert there["key"].tolist() == here.index.tolist()
    for column in ("count", "mean", "std", "p95"):
        np.testing.assert_array_equal(there[column].astype(float), here[column].astype(float))


def test_a_folder_that_is_not_a_store_is_refused(tmp_path: Path) -> None:
    (tmp_path / "something.txt").write_text("x")
    with pytest.raises(StoreError, match="not an ensemble store"):
        cctviz.Ensemble(tmp_path)
    with pytest.raises(StoreError, match="no ensemble store"):
        cctviz.Ensemble(tmp_path / "new", create=False)


def test_dask_gives_the_statistics_duckdb_gives(mpi_store: cctviz.Ensemble) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = cctviz.Ensemble(mpi_store.path, engine=client, create=False)
        metric = _metric(mpi_store)
        for ens, sub in ((mpi_store, on_dask), (mpi_store.where("TRUE"), on_dask.where("TRUE"))):
            duck = ens.reduce(metric, REDUCERS)
            dask = sub.reduce(metric, REDUCERS)
            assert dask.index.tolist() == duck.index.tolist()
            assert (dask["count"] == duck["count"]).all()
            for r in REDUCERS:
                np.testing.assert_allclose(dask[r], duck[r], rtol=1e-9, equal_nan=True, err_msg=r)
        # the widget on either engine: the same tree, strip and brushed subset
        views = [cctviz.CCT(on_dask), cctviz.CCT(mpi_store)]
        for view in views:
            view.where = '"mpi.world.size" >= 64'
        on, off = views
        assert len(on.profiles_selected) == len(off.profiles_selected) < len(mpi_store)
        assert on._strip == off._strip and on.table.size == off.table.size
        for name, m in off.table.metrics.items():
            np.testing.assert_allclose(on.table.metrics[name].values, m.values, rtol=1e-9)
    with pytest.raises(TypeError, match=r"engine= takes a dask.distributed Client"):
        cctviz.Ensemble(mpi_store.path, engine=object())


def test_the_widget_draws_the_reduced_tree_and_re_reduces(mpi_store: cctviz.Ensemble) -> None:
    sub = mpi_store.where("TRUE")
    w = cctviz.CCT(sub)
    metric = _metric(mpi_store)
    reduced = sub.reduce(metric, ("mean", "max", "count"))
    paths = {}
    for i in range(w.table.size):
        p = int(w.table.parent[i])
        paths[i] = (*(paths[p] if p >= 0 else ()), w.table.name(i))
    by_path = reduced.set_index("path")
    rows = [paths[i] for i in range(w.table.size)]
    assert set(rows) == set(by_path.index)
    np.testing.assert_allclose(
        w.table.metrics[metric].values, by_path.loc[rows, "mean"], rtol=1e-12
    )
    np.testing.assert_array_equal(w.table.metrics["profiles"].values, by_path.loc[rows, "count"])
    assert w.metric_kinds.loc["profiles", "kind"] == "max"
    w.reducer = "max"  # over the profiles, by the engine
    np.testing.assert_allclose(w.table.metrics[metric].values, by_path.loc[rows, "max"], rtol=1e-12)
    gf = sub.to_graphframe("median")
    assert (
        gf.metadata["cctviz.ensemble"] == str(mpi_store.path)
        and gf.metadata["cctviz.reducer"] == "median"
    )


def test_the_synthetic_ensemble_has_its_changes_and_sums(tmp_path: Path) -> None:
    from cctviz.ensemble.synthetic import Change

    ens = cctviz.examples.ensemble(
        tmp_path / "syn", 40, 60, seed=3, changes=[Change(5, 25, 2.0)], noise=0.0
    )
    assert len(ens) == 40 and len(ens.nodes) == 60
    assert {"launchdate", "jobsize", "compiler", "problem_size", "run"} <= set(ens.profiles.columns)
    assert len(ens.where("launchdate >= '2025-01-21'")) == 20  # one run a day from 2025-01-01
    # without noise, a node's time over another's is the same in every run, until the change
    keys = ens.nodes.index
    changed = ens.distribution(int(keys[5]), "time").sort_values("run")["value"].to_numpy()
    other = ens.distribution(int(keys[6]), "time").sort_values("run")["value"].to_numpy()
    ratio = changed / other
    np.testing.assert_allclose(ratio[:25], ratio[0], rtol=1e-9)
    np.testing.assert_allclose(ratio[25:], 2 * ratio[0], rtol=1e-9)
    # inclusive time is the subtree sum: the root's mean is the sum of every node's mean
    inc = ens.reduce("time (inc)", ("mean",))["mean"].iloc[0]
    assert inc == pytest.approx(ens.reduce("time", ("mean",))["mean"].sum(), rel=1e-9)
    with pytest.raises(ValueError, match="at least one profile"):
        cctviz.examples.ensemble(tmp_path / "none", 0, 10)


def test_a_hundred_thousand_runs_have_launch_dates_in_order() -> None:
    """Issue 56: a date a day for 10^5 runs passed pandas' last date (2262): OverflowError."""
    from cctviz.ensemble.synthetic import CENTURY, launch_dates

    many = launch_dates("2025-01-01", 100_000)
    assert many.is_monotonic_increasing and many.is_unique
    assert many[0] == pd.Timestamp("2025-01-01") and many[-1] < pd.Timestamp("2125-01-02")
    few = launch_dates("2025-01-01", CENTURY)  # up to a century of runs: still one a day
    assert (few[1:] - few[:-1] == pd.Timedelta(days=1)).all()


def test_per_rank_rows_are_kept_when_asked(tmp_path: Path) -> None:
    import hatchet as ht

    from cctviz.ensemble.store.keys import table_keys

    folder = data_root("hatchet/hpctoolkit-cpi-database")
    gf = ht.GraphFrame.from_hpctoolkit(str(folder))
    table = cctviz.from_graphframe(gf)
    keys, _, _ = table_keys(table)
    key_of = {id(n): int(k) for n, k in zip(table.nodes, keys, strict=True)}
    plain = cctviz.Ensemble(tmp_path / "plain")
    assert plain.add(folder, progress=False) == 1
    with pytest.raises(ValueError, match=r"no per-rank rows: add profiles with .*ranks=True"):
        plain.ranks(int(keys[0]), "time")
    ens = cctviz.Ensemble(tmp_path / "ranks")
    assert ens.add(folder, progress=False, ranks=True) == 1
    df = gf.dataframe
    checked = 0
    for node in {n for n in df.index.get_level_values("node")}:
        want = df.xs(node, level="node")["time"].dropna()
        got = ens.ranks(key_of[id(node)], "time")
        assert got["rank"].tolist() == [int(r) for r in want.index], node
        np.testing.assert_array_equal(got["value"].to_numpy(), want.to_numpy(np.float64))
        assert (got["profile"] == ens.profiles.index[0]).all()
        checked += 1
    assert checked == len(table.nodes) and df.index.get_level_values("rank").nunique() > 1
    # the reduced values are those of a store without ranks: nothing else changes
    pd.testing.assert_frame_equal(ens.reduce("time"), plain.reduce("time"))


def test_what_another_writer_appends_is_seen(tmp_path: Path) -> None:
    # two Ensembles on one folder share nothing, as two processes: the reader's cached tree and
    # profiles follow the parts the other one writes
    files = _files(MPI)
    reader, writer = cctviz.Ensemble(tmp_path / "s"), cctviz.Ensemble(tmp_path / "s")
    writer.add(files[:2], progress=False)
    before_nodes, before = len(reader.nodes), len(reader)
    mine = reader.profiles
    mine["scribble"] = 1  # a caller's change stays in its copy
    assert "scribble" not in reader.profiles.columns
    writer.add(files[2:], progress=False)
    assert len(reader) == before + 3 == 5
    assert len(reader.nodes) >= before_nodes
    assert set(reader.nodes.index) == set(writer.nodes.index)


def test_a_large_add_is_written_in_parts_as_it_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cctviz.ensemble.store import adding

    files = _files(MPI)
    whole = cctviz.Ensemble(tmp_path / "whole")
    whole.add(files, progress=False)
    monkeypatch.setattr(adding, "FLUSH_ROWS", 1)  # values written profile by profile
    ens = cctviz.Ensemble(tmp_path / "parts")
    first = ens.version
    assert ens.add(files, progress=False) == len(files)
    # ... and committed once: all of the add or nothing (new columns are a commit of their own)
    assert first < ens.version <= first + 2
    assert len(list((tmp_path / "parts" / "values").glob("batch=*/*.parquet"))) == len(files)
    assert len({p.parent for p in (tmp_path / "parts" / "profiles").glob("batch=*/*.parquet")}) == 1
    metric = _metric(ens)
    pd.testing.assert_frame_equal(ens.reduce(metric), whole.reduce(metric))
    assert ens.add(files, progress=False) == 0


def test_a_caliper_time_statistic_answers_to_either_hatchets_name(tmp_path: Path) -> None:
    # LLNL Hatchet names Caliper's avg#inclusive#sum#time.duration "Avg time/rank" (the spot
    # alias), UMD's keeps the attribute: a script written under one runs under the other
    ens = cctviz.Ensemble(tmp_path / "s")
    ens.add(_files(MPI), progress=False)
    stored = [m for m in ens.metric_names if "time" in m.lower()]
    pairs = [
        ("Avg time/rank", "avg#inclusive#sum#time.duration"),
        ("Total time", "sum#inclusive#sum#time.duration"),
    ]
    for alias, attribute in pairs:
        assert (alias in stored) != (attribute in stored), stored  # one of them is stored
        pd.testing.assert_frame_equal(ens.reduce(alias), ens.reduce(attribute))
        pd.testing.assert_frame_equal(
            ens.distribution("main", alias), ens.distribution("main", attribute)
        )
    with pytest.raises(KeyError, match=r"no metric 'Avg time/node' in the ensemble; metrics: "):
        ens.reduce("Avg time/node")
