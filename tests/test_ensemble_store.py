"""The ensemble store as an HPC centre runs it: versions to remake a figure from, a store of the
first format migrated, damaged files named with the way back (verify, repair), and the small
things a user trips on (a file given for a store, a filter nobody passes, huge histograms)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.ensemble import StoreError, WhereError

from .profiles import inclusive_metric as _metric
from .profiles import mpi_scaling_files as _files

OLD = Path(__file__).parent / "data" / "ensemble-v1" / "store.cctviz"


def _reduced(ens: cctviz.Ensemble) -> pd.DataFrame:
    return ens.reduce(_metric(ens), ("mean", "std", "min", "max", "count")).sort_index()


def test_versions_read_the_store_as_it_was(tmp_path: Path) -> None:
    files = _files()
    ens = cctviz.Ensemble(tmp_path / "s")
    empty = ens.version
    assert isinstance(empty, int) and len(ens) == 0
    ens.add(files[:2], progress=False)
    first, reduced_first = ens.version, _reduced(ens)
    assert first > empty
    ens.add(files[2:], progress=False)
    second = ens.version
    assert second > first and len(ens) == 5
    assert ens.add(files, progress=False) == 0 and ens.version == second  # nothing new
    old = cctviz.Ensemble(tmp_path / "s", version=first)
    assert old.version == first and len(old) == 2 and "version" in repr(old)
    pd.testing.assert_frame_equal(_reduced(old), reduced_first)
    assert set(old.nodes.index) <= set(ens.nodes.index)
    with pytest.raises(StoreError, match="read only"):
        old.add(files, progress=False)
    with pytest.raises(StoreError, match="no version 99"):
        cctviz.Ensemble(tmp_path / "s", version=99)
    with pytest.raises(ValueError, match="whole number"):
        cctviz.Ensemble(tmp_path / "s", version=-1)


def test_figures_and_describe_record_the_version(tmp_path: Path) -> None:
    ens = cctviz.examples.ensemble(tmp_path / "s", 12, 30)
    w = cctviz.CCT(ens)
    assert f"store version {ens.version}" in w.describe()
    record = w._ensemble_record()
    assert record is not None and record["version"] == ens.version
    assert record["store"] == str(ens.path)


def test_a_store_of_the_first_format_is_migrated(tmp_path: Path) -> None:
    files = _files()
    store = tmp_path / "old"
    shutil.copytree(OLD, store)
    old = cctviz.Ensemble(store)
    assert '"version": 2' in (store / "cctviz-ensemble.json").read_text()
    assert not list(store.glob("*/part-*.parquet"))  # the old parts are gone
    fresh = cctviz.Ensemble(tmp_path / "fresh")
    fresh.add(files[:3], progress=False)
    fresh.add(files[3:], {"site": "lassen"}, progress=False)
    assert len(old) == len(fresh) == 5
    # the numbers of a clean store: format 1 counted the doubled part twice (a count of 8)
    pd.testing.assert_frame_equal(_reduced(old), _reduced(fresh))
    mine, theirs = old.profiles.sort_index(), fresh.profiles.sort_index()
    assert list(mine.index) == list(theirs.index)
    assert mine["site"].fillna("").tolist() == theirs["site"].fillna("").tolist()
    assert old.verify().ok
    assert old.add(files, progress=False) == 0  # the same profiles: known by their hashes
    assert cctviz.Ensemble(store).version == old.version  # opened again: nothing to migrate


def _store(tmp_path: Path) -> cctviz.Ensemble:
    ens = cctviz.Ensemble(tmp_path / "s")
    files = _files()
    ens.add(files[:2], progress=False)
    ens.add(files[2:], progress=False)
    return ens


def _values_file(ens: cctviz.Ensemble, newest: bool = True) -> Path:
    parts = ens.verify().parts
    files = parts[parts["table"] == "values"].sort_values("batch")["file"]
    return Path(files.iloc[-1 if newest else 0])


def test_a_truncated_file_is_named_and_repaired(tmp_path: Path) -> None:
    ens = _store(tmp_path)
    clean = _reduced(ens)
    broken = _values_file(ens)
    broken.write_bytes(broken.read_bytes()[:100])
    with pytest.raises(StoreError, match=f"{broken.name}.*is damaged.*ens.repair"):
        ens.reduce(_metric(ens))
    report = ens.verify()
    assert not report.ok and any(broken.name in p for p in report.problems)
    with pytest.raises(StoreError, match="does not verify, so nothing is added"):
        ens.add(_files(), progress=False)
    fixed = ens.repair()
    assert fixed.ok and len(ens) == 2
    assert any("add it again" in d and ".cali" in d for d in fixed.dropped)
    assert ens.add(_files(), progress=False) == 3
    pd.testing.assert_frame_equal(_reduced(ens), clean)


def test_bytes_changed_inside_a_file_are_found_by_a_deep_verify(tmp_path: Path) -> None:
    ens = _store(tmp_path)
    broken = _values_file(ens, newest=False)
    data = bytearray(broken.read_bytes())
    data[4:68] = bytes(64)  # the first page's header: same size, the footer reads
    assert ens.verify().ok  # a footer-only check cannot tell
    broken.write_bytes(bytes(data))
    assert not ens.verify(deep=True).ok
    with pytest.raises(StoreError, match=f"{broken.name}.*is damaged"):  # a query reading it
        ens.distribution(int(ens.nodes.index[0]), _metric(ens))


def test_a_damaged_profiles_file_is_named(tmp_path: Path) -> None:
    ens = _store(tmp_path)
    parts = ens.verify().parts
    broken = Path(parts[parts["table"] == "profiles"]["file"].iloc[0])
    broken.write_bytes(b"not parquet at all")
    again = cctviz.Ensemble(tmp_path / "s")
    with pytest.raises(StoreError, match=f"{broken.name}.*damaged"):
        again.profiles  # noqa: B018
    with pytest.raises(StoreError, match="does not verify"):
        again.add(_files(), progress=False)
    report = again.repair()
    assert report.ok and any("their file is damaged" in d for d in report.dropped)


def test_leftovers_of_killed_writes_are_reported_and_removed(tmp_path: Path) -> None:
    ens = _store(tmp_path)
    clean = _reduced(ens)
    stray = tmp_path / "s" / "values" / "batch=20200101T000000-0" / "part-stray.parquet"
    stray.parent.mkdir()
    shutil.copy(_values_file(ens), stray)
    report = ens.verify()
    assert report.ok and "unlisted" in set(report.parts["state"])
    pd.testing.assert_frame_equal(_reduced(ens), clean)  # never read
    assert (ens.repair(grace=3600).parts["state"] == "unlisted").any()  # too young to drop
    after = ens.repair(grace=0)
    assert not (after.parts["state"] == "unlisted").any() and not stray.exists()
    assert any("unlisted" in d for d in after.dropped)


def test_small_ones(tmp_path: Path) -> None:
    a_file = tmp_path / "runs.cali"
    a_file.write_text("x")
    with pytest.raises(StoreError, match="is a file: an ensemble store is a folder"):
        cctviz.Ensemble(a_file)
    ens = cctviz.examples.ensemble(tmp_path / "s", 10, 20)
    with pytest.raises(WhereError, match="no profile passes"):
        ens.where("FALSE")
    with pytest.raises(WhereError, match="no profile passes"):
        ens.where("jobsize > 1e9")
    node = int(ens.nodes.index[0])
    with pytest.raises(ValueError, match="bins is a whole number from 1 to 100,000"):
        ens.histogram(node, "time", bins=10**9)
    assert ens.histogram(node, "time", bins=np.int64(3))["count"].sum() == 10
    # a profile id is a parameter, never SQL: an id with a quote is simply not there
    with pytest.raises(KeyError, match="no profile"):
        ens.at("x' OR '1'='1")
    one = ens.profiles.index[3]
    assert len(ens.select([one])) == 1
    gf = ens.at(one)
    root = gf.graph.roots[0]
    assert np.isclose(
        gf.dataframe.loc[root, "time (inc)"], ens.select([one]).reduce("time (inc)")["mean"].iloc[0]
    )
