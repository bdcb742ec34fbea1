"""Scaling studies in a compare view (cctviz.analysis.scaling): strong or weak told by the runs'
metadata on LULESH's strong and weak series (Caliper, both distributions; a Thicket's groups in
LLNL's), asked for where the metadata cannot tell, and a per-rank metric compared by default."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cctviz
from cctviz.analysis.scaling import infer_scaling, summed_over_ranks

from .profiles import Profile, data_root, readable, require

LULESH = "thicket-tutorial/lulesh-strong-weak"
_runs: dict[str, list[Any]] = {}


def lulesh(series: str) -> tuple[list[Any], list[int]]:
    """One LULESH run per process count of the strong or the weak series (GraphFrames)."""
    import hatchet

    require(LULESH)
    if series not in _runs:
        by_count: dict[int, Any] = {}
        for path in sorted((data_root(LULESH) / series).glob("*.cali")):
            gf = hatchet.GraphFrame.from_caliperreader(str(path))
            by_count.setdefault(int(gf.metadata["jobsize"]), gf)
        _runs[series] = [by_count[n] for n in sorted(by_count)]
    runs = _runs[series]
    return runs, [int(gf.metadata["jobsize"]) for gf in runs]


def _efficiency(w: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = w.table
    first, last = (t.metrics[c].values for c in (w.columns.a, w.columns.b))
    return first, last, t.metrics[w.columns.efficiency].values


@pytest.mark.parametrize("series", ["strong", "weak"])
def test_lulesh_series_are_told_strong_or_weak_by_their_problem_size(series: str) -> None:
    runs, counts = lulesh(series)
    assert counts == [8, 27, 64, 125, 216, 343]
    w = cctviz.compare(runs, labels=counts)
    # strong: problem_size (each rank's edge) shrinks 30 → 9; weak: 30 on every count
    assert w.columns.scaling == series
    assert w.columns.efficiency == f"parallel efficiency (8 → 343, {series} scaling)"
    first, last, efficiency = _efficiency(w)
    ok = last > 0
    want = first[ok] * 8 / (last[ok] * 343) if series == "strong" else first[ok] / last[ok]
    np.testing.assert_allclose(efficiency[ok], want)
    assert not summed_over_ranks(w._compared_metric)


def test_a_thickets_groups_by_process_count_compare_per_rank() -> None:
    if not any(p.reader == "thicket" for p in readable()):
        pytest.skip("Thicket needs llnl-thicket (the LLNL test environment)")
    for series in ("strong", "weak"):
        # (not conftest.load: its cache knows a profile by folder and reader, not by files)
        tk = Profile(LULESH, "thicket", f"{series}/*.cali", only="llnl").load()
        w = cctviz.compare(tk, groupby="jobsize")
        assert w.labels == ("8", "27", "64", "125", "216", "343")
        assert w.columns.scaling == series
        # the mean per rank, not "Total time" (summed over ranks: it grows with the rank count)
        assert w._compared_metric.startswith("Avg time/rank")
        t = w.table
        (main,) = [i for i in range(t.size) if t.name(i) == "main"]
        if series == "strong":  # each rank's time falls as ranks are added: blue, not red
            assert t.metrics[w.columns.log_ratio].values[main] < -1
        first, last, efficiency = _efficiency(w)
        want = (
            first[main] * 8 / (last[main] * 343) if series == "strong" else first[main] / last[main]
        )
        assert efficiency[main] == pytest.approx(want)
        assert 0.01 < efficiency[main] < 1  # not 4.6e-05 (a total over ranks, as strong scaling)


def test_labels_that_are_numbers_make_a_scaling_study_only_when_asked() -> None:
    gf = cctviz.examples.load("hpctoolkit-cpi")  # no metadata
    runs = [gf, gf.deepcopy(), gf.deepcopy()]
    # numbers as labels are names ("27", "512"): no study, no error, and the view says how to ask
    for labels in ([1, 2, 4], ["27", "64", "512"]):
        w = cctviz.compare(runs, labels=labels)
        assert w.columns.efficiency is None and w.columns.scaling is None
        assert "scaling='strong' or 'weak'" in w.columns.scaling_why
        said = f"labels {', '.join(map(str, labels))} look like process counts"
        assert said in w.columns.scaling_why
    two = cctviz.compare(runs[:2], labels=("27", "512"))
    assert two.columns.efficiency is None and two.color_by == two.columns.diff
    w = cctviz.compare(runs, labels=[1, 2, 4], scaling="strong")
    first, last, efficiency = _efficiency(w)
    ok = last > 0
    # the same times on 4× the processes: a quarter of perfect strong scaling, perfect weak
    np.testing.assert_allclose(efficiency[ok], first[ok] * 1 / (last[ok] * 4))
    np.testing.assert_allclose(efficiency[ok], 0.25)
    w = cctviz.compare(runs, labels=[1, 2, 4], scaling="weak")
    np.testing.assert_allclose(_efficiency(w)[2][ok], 1.0)
    assert cctviz.compare(runs, labels=[1, 2, 4], scaling=None).columns.efficiency is None
    # labels that are not process counts: no study, nothing to ask
    assert cctviz.compare(runs, labels=["x", "y", "z"]).columns.efficiency is None
    with pytest.raises(ValueError, match="needs each run's process count"):
        cctviz.compare(runs, labels=["x", "y", "z"], scaling="weak")
    with pytest.raises(ValueError, match="'auto', 'strong', 'weak' or None"):
        cctviz.compare(runs, labels=[1, 2, 4], scaling="linear")


def test_a_constant_problem_size_of_an_unknown_program_is_asked_about() -> None:
    runs, counts = lulesh("weak")
    renamed = []
    for gf in runs[:3]:
        other = gf.deepcopy()
        other.metadata = {**gf.metadata, "executablepath": "/apps/solver", "cmdline": "solver"}
        renamed.append(other)
    with pytest.raises(ValueError, match=r"problem_size is 30 in every run.*scaling='weak'"):
        cctviz.compare(renamed, labels=counts[:3])
    assert cctviz.compare(renamed, labels=counts[:3], scaling="weak").columns.scaling == "weak"


def test_a_metric_summed_over_ranks_is_made_per_rank_for_the_efficiency() -> None:
    runs, counts = lulesh("weak")
    runs, counts = [runs[0], runs[-1]], [counts[0], counts[-1]]
    table = cctviz.CCT(runs[0]).table
    total = next(
        n for n, m in table.metrics.items() if summed_over_ranks(n) and m.kind == "inclusive"
    )
    w = cctviz.compare(runs, metric=total, labels=counts)
    first, last, efficiency = _efficiency(w)
    ok = last > 0
    np.testing.assert_allclose(efficiency[ok], (first[ok] / 8) / (last[ok] / 343))
    # with no metric named, the mean per rank
    assert not summed_over_ranks(cctviz.compare(runs, labels=counts)._compared_metric)


def test_problem_size_names_say_per_rank_or_total() -> None:
    counts = [8.0, 64.0]
    assert infer_scaling([{"local_size": 40}] * 2, counts)[0] == "weak"
    assert infer_scaling([{"global_size": 40}] * 2, counts)[0] == "strong"
    assert infer_scaling([{"size": 40}] * 2, counts)[0] is None
    assert infer_scaling([{"problem_size": 40}, {"problem_size": 80}], counts)[0] == "weak"
    assert infer_scaling([{"problem_size": 80}, {"problem_size": 40}], counts)[0] == "strong"
    assert infer_scaling([{}, {}], counts) == (None, "the runs' metadata has no problem size")
