"""Per-node summaries kept at ingest (cctviz.ensemble.store.summary): a mean, std, min, max, sum,
imbalance or count reads them instead of every value where they give the same numbers, and the
values elsewhere (a filter keeping part of an add, an add written before the summaries)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import cctviz
from cctviz.ensemble.engine import summarised
from cctviz.ensemble.store.summary import summaries

from .profiles import inclusive_metric as _metric
from .profiles import mpi_scaling_files as _files

SUMMED = ("mean", "std", "min", "max", "sum", "imbalance", "count")


def _reference(ens: cctviz.Ensemble, metric: str) -> pd.DataFrame:
    """The reduction computed by pandas from the value rows themselves."""
    rows = ens._engine().values(ens._where)
    grouped = rows.dropna(subset=[metric]).groupby("key")[metric]
    out = pd.DataFrame(
        {
            "mean": grouped.mean(),
            "std": grouped.std(ddof=1),
            "min": grouped.min(),
            "max": grouped.max(),
            "sum": grouped.sum(),
            "count": grouped.count(),
        }
    )
    out["imbalance"] = out["max"] / out["mean"].replace(0, np.nan)
    return out


def _check(ens: cctviz.Ensemble, metric: str) -> pd.DataFrame:
    got = ens.reduce(metric, SUMMED)
    want = _reference(ens, metric).reindex(got.index)
    assert len(got) == len(_reference(ens, metric)) > 0
    for column in SUMMED:
        np.testing.assert_allclose(
            got[column].to_numpy(float), want[column].to_numpy(float), rtol=1e-9, atol=0
        )
    return got


def test_summaries_of_a_part_are_its_exact_per_node_statistics() -> None:
    rng = np.random.default_rng(3)
    keys = rng.integers(0, 40, 2_000)
    values = 1e6 + rng.normal(0, 1e-3, 2_000)  # large and close: a naive Σx² loses them
    values[rng.random(2_000) < 0.1] = np.nan
    table = pa.table(
        {
            "profile": ["p"] * 2_000,
            "key": pa.array(keys, pa.int64()),
            "parent": pa.array(keys, pa.int64()),
            "t": pa.array(values, from_pandas=True),
            "empty": pa.nulls(2_000, pa.float64()),
        }
    )
    got = summaries(table).to_pandas().set_index("key").sort_index()
    assert set(got["metric"]) == {"t"}  # a metric without a value has no row
    frame = pd.DataFrame({"key": keys, "t": values}).dropna()
    for key, group in frame.groupby("key"):
        x = group["t"].to_numpy()
        row = got.loc[key]
        assert row["count"] == len(x)
        assert row["sum"] == pytest.approx(x.sum(), rel=1e-12)
        assert row["m2"] == pytest.approx(((x - x.mean()) ** 2).sum(), rel=1e-6, abs=1e-12)
        assert (row["min"], row["max"]) == (x.min(), x.max())


def test_reductions_read_from_summaries_equal_those_of_the_values(tmp_path: Path) -> None:
    files = _files()
    ens = cctviz.Ensemble(tmp_path / "s")
    ens.add(files[:2], progress=False)  # two adds: two batches of summaries to merge
    ens.add(files[2:], progress=False)
    metric = _metric(ens)
    _check(ens, metric)
    ids = list(ens.profiles.index)
    _check(ens.select(ids[:2]), metric)  # the whole first add
    _check(ens.select(ids[1:4]), metric)  # part of each add
    # medians read the values: the same mean beside them
    both = ens.reduce(metric, ("mean", "median"))
    pd.testing.assert_series_equal(both["mean"], ens.reduce(metric, ("mean",))["mean"], rtol=1e-12)


def test_a_filter_reads_summaries_of_whole_adds_and_values_of_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ens = cctviz.examples.ensemble(tmp_path / "s", 30, 40, seed=2)  # one add, with a "run"
    ens.add(_files()[:3], progress=False)  # a second add, without
    snap = ens._engine().snap()  # type: ignore[attr-defined]
    batch_of = {p.path: p.batch for table in ("sums", "values") for p in snap.parts[table]}
    first = min(p.batch for p in snap.parts["profiles"])
    read: dict[str, set[str]] = {"sums": set(), "values": set()}
    real = summarised.parquet

    def spy(listed: list[str], table: str, same: bool = False) -> str:
        read[table] |= {batch_of[f] for f in listed}
        return real(listed, table, same)

    monkeypatch.setattr(summarised, "parquet", spy)

    def reads(filtered: cctviz.Ensemble, metric: str) -> dict[str, set[str]]:
        for found in read.values():
            found.clear()
        _check(filtered, metric)
        return {table: set(found) for table, found in read.items()}

    # every synthetic run, no file's profile: the synthetic add's summaries, nothing else
    assert reads(ens.where("run >= 0"), "time (inc)") == {"sums": {first}, "values": set()}
    # half of the synthetic runs: that add's values (the kept runs'), the other add not read
    assert reads(ens.where("run < 15"), "time (inc)") == {"sums": set(), "values": {first}}
    # no filter: every add's summaries, no value
    whole = reads(ens, _metric(ens))
    assert whole["values"] == set() and len(whole["sums"]) == 2


def test_an_add_without_summaries_is_read_from_its_values(tmp_path: Path) -> None:
    from deltalake import DeltaTable

    files = _files()
    ens = cctviz.Ensemble(tmp_path / "s")
    ens.add(files[:2], progress=False)
    ens.add(files[2:], progress=False)
    metric = _metric(ens)
    before = _check(ens, metric)
    # an add written before summaries existed: its summaries gone (a whole partition)
    sums = DeltaTable(str(tmp_path / "s" / "sums"))
    first = sorted(str(b) for b in pa.table(sums.get_add_actions(flatten=True))["partition.batch"])[
        0
    ]
    sums.delete(f"batch = '{first}'")
    again = cctviz.Ensemble(tmp_path / "s")
    after = _check(again, metric)
    pd.testing.assert_frame_equal(after, before, rtol=1e-12)


def test_a_filter_reads_the_values_of_the_adds_it_keeps_a_profile_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cctviz.ensemble.engine import pruning

    files = _files()
    ens = cctviz.Ensemble(tmp_path / "s")
    for f in files:  # five nightly adds, one profile each
        ens.add([f], progress=False)
    metric = _metric(ens)
    snap = ens._engine().snap()  # type: ignore[attr-defined]
    batch_of = {p.path: p.batch for p in snap.parts["values"]}
    read: set[str] = set()
    real = pruning.parquet

    def spy(listed: list[str], table: str, same: bool = False) -> str:
        read.update(batch_of[f] for f in listed if table == "values")
        return real(listed, table, same)

    monkeypatch.setattr(pruning, "parquet", spy)
    ids = list(ens.profiles.index)
    one = ens.select(ids[:1])
    keeps = {
        p.batch
        for p in snap.parts["profiles"]
        if ids[0] in pq.read_table(p.path, columns=["profile"])["profile"].to_pylist()
    }
    got = one.reduce(metric, ("median", "mean"))  # a median reads the values
    assert read == keeps and len(keeps) == 1
    want = _reference(one, metric)
    np.testing.assert_allclose(got["mean"], want["mean"].reindex(got.index), rtol=1e-12)
    read.clear()
    dist = one.distribution(int(got["mean"].idxmax()), metric)
    assert len(read) == 1 and len(dist) == 1
    read.clear()
    assert len(one.trend(int(got.index[0]), metric)) == 1 and read == keeps
    read.clear()
    two = ens.select(ids[1:3])
    _check(two, metric)
    assert len(read) == 2 and not read & keeps


def test_a_metadata_column_named_like_the_file_column_is_no_clash(tmp_path: Path) -> None:
    # kept_batches names each profile row's file in a column of its own: a profile's metadata
    # may hold a column of that very name, and a filtered query must still run
    from cctviz.ensemble.engine.pruning import FILE

    files = _files()
    ens = cctviz.Ensemble(tmp_path / "s")
    ens.add(files[:2], {FILE: "mine"}, progress=False)
    ens.add(files[2:], {FILE: "theirs"}, progress=False)
    metric = _metric(ens)
    assert set(ens.profiles[FILE]) == {"mine", "theirs"}
    mine = ens.where(f"{FILE} = 'mine'")
    assert len(mine.profiles) == 2
    _check(mine, metric)
    ids = list(ens.profiles.index)
    _check(ens.select(ids[1:4]), metric)
