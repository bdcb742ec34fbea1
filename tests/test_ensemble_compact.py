"""``ens.compact()`` (issue 56): many adds rewritten as few files, in one commit. Every answer
of the store is the same before and after (reductions exact and summarised, nodes and profiles
in their order, distributions, trends, per-rank rows, filters); a filter still reads only the
batches holding its profiles; the process compacting killed (SIGKILL) at each step, or
compacting while another adds, leaves the store answering as before."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import cctviz
from cctviz.ensemble.store.store import StoreError

from .fresh import started
from .profiles import data_root, mpi_scaling_files, require

pytestmark = pytest.mark.faults  # the store's own mechanics: run once (under UMD Hatchet)

HPCTOOLKIT = ("hatchet/hpctoolkit-cpi-database", "hatchet/hpctoolkit-allgather-database")
ALL = ("mean", "std", "min", "max", "count", "sum", "median", "p95")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of six adds: four Caliper files one by one, then two HPCToolkit databases with
    their per-rank rows (new metrics: the values table's columns grow). The fifth Caliper file
    is added late (``late``)."""
    for folder in HPCTOOLKIT:
        require(folder)
    store = tmp_path_factory.mktemp("compact") / "base"
    ens = cctviz.Ensemble(store)
    for i, f in enumerate(mpi_scaling_files()[:4]):
        assert ens.add([f], {"night": i}, progress=False, workers=1) == 1
    for i, folder in enumerate(HPCTOOLKIT):
        added = ens.add(data_root(folder), {"night": 5 + i}, progress=False, ranks=True, workers=1)
        assert added == 1
    assert ens.skipped.empty and len(ens) == 6
    return store


def _copy(base: Path, tmp_path: Path) -> Path:
    store = tmp_path / "s"
    shutil.copytree(base, store)
    return store


def answers(path: Path, version: int | None = None, full: bool = True) -> dict[str, pd.DataFrame]:
    """What a user reads of the store (every metric, every kind of query; not ``full``: the
    tables and every metric's reduction)."""
    ens = cctviz.Ensemble(path, create=False, version=version)
    out: dict[str, pd.DataFrame] = {
        "nodes": ens.nodes,
        "profiles": ens.profiles,
        "metrics": ens.metrics,
    }
    if not full:
        return out | {f"reduce {m}": ens.reduce(m, ALL) for m in ens.metric_names}
    for metric in ens.metric_names:
        out[f"reduce {metric}"] = ens.reduce(metric, ALL)
        out[f"summed {metric}"] = ens.reduce(metric, ("mean", "std", "min", "max"))
        out[f"tail {metric}"] = ens.where("night >= 3").reduce(metric, ALL)
        out[f"totals {metric}"] = ens.totals(metric).to_frame()
    for node in list(ens.nodes.index[:: max(1, len(ens.nodes) // 12)]):
        out[f"distribution {node}"] = ens.distribution(node, "time (inc)")
        out[f"trend {node}"] = ens.trend(node, "time (inc)", by="night", children=True)
    for node in list(ens.where("night = 5").reduce("time")["count"].index[:8]):
        out[f"ranks {node}"] = ens.ranks(node, "time")
    return out


def assert_same(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    assert a.keys() == b.keys()
    for name in a:
        pd.testing.assert_frame_equal(
            a[name], b[name], check_exact=False, rtol=1e-12, atol=0, obj=name
        )


def value_files(path: Path) -> int:
    return len(cctviz.Ensemble(path, create=False)._shared.tables.snapshot().files("values"))


def test_every_answer_is_the_same_after_compact_and_after_repair(
    base: Path, tmp_path: Path
) -> None:
    store = _copy(base, tmp_path)
    before = answers(store)
    assert sum(k.startswith("ranks") for k in before) == 8  # per-rank rows were compared
    assert all(len(before[k]) > 1 for k in before if k.startswith("ranks"))
    ens = cctviz.Ensemble(store)
    old_version = ens.version
    assert value_files(store) == 6
    done = ens.compact()
    assert (done.adds, done.batches, done.profiles) == (6, 1, 6)
    assert (done.files_before, done.files_after) == (6, 1)
    assert "6 profiles of 6 adds rewritten as 1 batches; value files 6 → 1" in repr(done)
    assert ens.version == old_version + 1
    assert_same(before, answers(store))
    # the values of the new batch are one file, sorted by parent then node
    (part,) = ens._shared.tables.snapshot().parts["values"]
    rows = pq.read_table(part.path, columns=["parent", "key"]).to_pandas()
    assert rows.equals(rows.sort_values(["parent", "key"], kind="stable"))
    # nothing left to do; the version before still reads the old files
    again = cctviz.Ensemble(store).compact()
    assert again.profiles == 0 and "nothing to do (1 value files)" in repr(again)
    assert_same(before, answers(store, old_version))
    # repair drops the old files; the store answers the same, the old version says why not
    report = cctviz.Ensemble(store).repair(grace=0)
    assert report.ok and any("rewritten by compact" in d for d in report.dropped), report
    assert not report.parts["state"].isin(["uncommitted"]).any()
    assert_same(before, answers(store))
    with pytest.raises(StoreError, match=r"version \d+ .* cannot be read any more.*compact"):
        cctviz.Ensemble(store, version=old_version).reduce("time (inc)")


def test_batches_of_about_the_rows_asked_between_whole_profiles(base: Path, tmp_path: Path) -> None:
    store = _copy(base, tmp_path)
    before = answers(store)
    ens = cctviz.Ensemble(store)
    per_profile = ens.profiles["nodes"].astype(int)
    # four Caliper profiles of 45 rows, one HPCToolkit of 34 and one of 1,474: in batches of
    # 200 rows, the first four fill one (180), the fifth another; the big one, an add of one
    # file of more than a quarter of 200 rows, is left as it is
    assert sorted(per_profile) == [34, 45, 45, 45, 45, 1474]
    done = ens.compact(rows=200)
    assert (done.profiles, done.batches, done.adds) == (5, 2, 5)
    assert (done.files_before, done.files_after) == (6, 3)
    assert_same(before, answers(store))
    snap = ens._shared.tables.snapshot()
    held = {}
    for part in snap.parts["values"]:
        ids = set(pq.read_table(part.path, columns=["profile"])["profile"].to_pylist())
        held[part.batch] = ids
    assert len(held) == 3 == len(snap.files("values"))  # one file per batch
    # each profile whole in one batch, each batch within the rows asked (or one profile)
    every = [p for ids in held.values() for p in ids]
    assert sorted(every) == sorted(ens.profiles.index)
    for ids in held.values():
        assert len(ids) == 1 or int(per_profile[list(ids)].sum()) <= 200
    # a filter reads only the batches holding its profiles
    for night, profiles in ((0, 4), (5, 1), (6, 1)):
        sub = ens.where(f"night = {night}")
        kept = sub._engine().kept_per_batch(sub._where, snap)
        assert [n for n, k in kept.values() if k] == [profiles]


@pytest.mark.parametrize("rows", [0, -3, 2.5, "many", True])
def test_a_bad_row_count_is_refused(rows: object, base: Path, tmp_path: Path) -> None:
    store = _copy(base, tmp_path)
    with pytest.raises(ValueError, match=r"rows is a whole number ≥ 1 \(value rows per file\)"):
        cctviz.Ensemble(store).compact(rows=rows)  # type: ignore[arg-type]
    version = cctviz.Ensemble(store).version
    with pytest.raises(StoreError, match=r"read only: compact cctviz.Ensemble"):
        cctviz.Ensemble(store, version=version).compact()


# the compacting process: waits for a start time (argv[2]); CCTVIZ_KILL_AT names a step where
# it kills itself (CCTVIZ_KILL_NTH: at its n-th time)
CHILD = r"""
import os, signal, sys, time
import cctviz
from cctviz.ensemble.store import commit

kill_at, steps = os.environ.get("CCTVIZ_KILL_AT"), []
def hook(step):
    steps.append(step)
    if step == kill_at and steps.count(step) == int(os.environ.get("CCTVIZ_KILL_NTH", "1")):
        os.kill(os.getpid(), signal.SIGKILL)
commit.STEP_HOOK = hook
ens = cctviz.Ensemble(sys.argv[1])
start = float(sys.argv[2])
while time.time() < start:
    time.sleep(0.002)
if sys.argv[3:]:
    print("added", ens.add(sys.argv[3:], {"night": 9}, progress=False, workers=1), flush=True)
else:
    print("compacted", ens.compact(rows=int(os.environ.get("CCTVIZ_ROWS", "16777216"))).profiles,
          flush=True)
"""


def _child(store: Path, start: float, *files: Path, **env: str) -> subprocess.Popen[str]:
    return started(CHILD, store, start, *files, **env)


KILLS = [
    ("before compacted values", "1"),
    ("after compacted values", "1"),
    ("after compacted values", "2"),  # both new batches written
    ("before profiles", "1"),
    ("after profiles", "1"),
]


@pytest.mark.parametrize(("step", "nth"), KILLS)
def test_a_compaction_killed_at_each_step_changes_no_answer(
    step: str, nth: str, base: Path, tmp_path: Path
) -> None:
    store = _copy(base, tmp_path)
    before = answers(store, full=False)
    # in batches of 200 rows: two new batches (see the test above)
    child = _child(store, 0.0, CCTVIZ_KILL_AT=step, CCTVIZ_KILL_NTH=nth, CCTVIZ_ROWS="200")
    _, err = child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, err
    committed = step == "after profiles"
    assert (value_files(store) < 6) == committed
    assert_same(before, answers(store, full=False))
    ens = cctviz.Ensemble(store)
    assert ens.verify().ok
    # a compaction in flight is left alone by a repair with its grace (its new files are fresh,
    # though named for the old adds' time); grace 0 drops what the kill left
    uncommitted = (ens.verify().parts["state"] == "uncommitted").sum()
    assert (ens.repair().parts["state"] == "uncommitted").sum() == uncommitted
    assert ens.repair(grace=0).ok
    ens.compact()
    assert value_files(store) == 1
    assert_same(before, answers(store, full=False))


def test_a_compaction_beside_an_add_keeps_every_profile_once(base: Path, tmp_path: Path) -> None:
    """Both processes start at the same moment, twice; whoever commits first, the other
    reads again: the store ends with every profile once and the clean store's numbers."""
    clean = tmp_path / "clean"
    shutil.copytree(base, clean)
    late = mpi_scaling_files()[4]
    cctviz.Ensemble(clean).add([late], {"night": 9}, progress=False, workers=1)
    want = answers(clean, full=False)
    for trial in range(2):
        store = tmp_path / f"s{trial}"
        shutil.copytree(base, store)
        start = time.time() + 1.5
        compacting = _child(store, start, CCTVIZ_ROWS=str(10**9))
        adding = _child(store, start + 0.02 * trial, late)
        out_c, err_c = compacting.communicate(timeout=180)
        out_a, err_a = adding.communicate(timeout=180)
        assert adding.returncode == 0 and "added 1" in out_a, err_a
        # the compaction commits, or gives up with nothing changed when the add moved first
        assert compacting.returncode == 0 and out_c.split()[-1] in ("6", "7"), (out_c, err_c)
        got = answers(store, full=False)
        assert got.keys() == want.keys()
        for name in want:
            pd.testing.assert_frame_equal(
                want[name].sort_index(), got[name].sort_index(), rtol=1e-12, obj=name
            )
        assert cctviz.Ensemble(store).verify().ok
