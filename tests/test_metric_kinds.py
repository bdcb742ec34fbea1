"""Metric kinds from the data's own semantics (issue 28.1, 28.6): Caliper names, the spot.metrics
aliases of LLNL's reader, timeseries, name pairs, the tree check and ``metric_kinds=``; and
default metrics that do not depend on the order readers list metrics in."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.adapters.derived import SUFFIX

from .conftest import load
from .profiles import CPI_IN_A_FRESH_PROCESS, REPO, data_root, distribution, readable

LLNL = distribution() == "llnl"


def _profile(folder: str, reader: str = "from_caliperreader") -> Any:
    found = [p for p in readable() if p.folder == folder and p.reader == reader]
    if not found:
        pytest.skip(f"{folder} is not read by {reader} in this distribution")
    return load(found[0])


def _root_value(gf: Any, column: str, name: str = "main") -> float:
    """The mean over rows (ranks, profiles) of ``column`` at the node called ``name``: what the
    profile measured there."""
    df = gf.dataframe
    rows = df[df["name"] == name]
    return float(rows[column].astype(float).mean())


@pytest.mark.parametrize(
    "folder",
    ["hatchet/caliper-example-cali", "thicket/simple-cali", "thicket/rajaperf-quartz"],
)
def test_caliper_inclusive_statistics_are_never_summed_again(folder: str) -> None:
    gf = _profile(folder)
    w = cctviz.CCT(gf)
    kinds = w.metric_kinds
    # LLNL calls them `Avg time/rank` (an alias the spot.metrics metadata resolves), UMD keeps
    # avg#inclusive#sum#time.duration: either way inclusive, and no sum of them is derived
    avg = "Avg time/rank" if LLNL else "avg#inclusive#sum#time.duration"
    assert kinds.loc[avg, "kind"] == "inclusive"
    assert kinds.loc[avg, "rule"] == ("spot" if LLNL else "caliper")
    assert not [m for m in w.metrics if m.endswith(SUFFIX)], w.metrics
    # the default size is the measured inclusive time of the root, not a sum of inclusive values
    assert w.size_by == avg and w.color_by == avg
    root = int(w.table.roots[0])
    expected = _root_value(gf, avg, w.table.name(root))
    assert w.table.metrics[w.size_by].values[root] == pytest.approx(expected, rel=1e-12)


def test_rajaperf_parameters_are_not_added_up() -> None:
    gf = _profile("thicket/rajaperf-quartz")
    kinds = cctviz.CCT(gf).metric_kinds
    size = "ProblemSize" if LLNL else "any#any#max#ProblemSize"
    if size not in kinds.index:
        pytest.skip(f"{size} is not a metric in this distribution")
    assert kinds.loc[size, "kind"] in ("max", "ratio")
    assert not kinds["partner"].notna().loc[size]


@pytest.mark.llnl
def test_thicket_of_lulesh_runs_keeps_measured_inclusive_times() -> None:
    if not LLNL:
        pytest.skip("Thicket needs llnl-thicket (the LLNL test environment)")
    tk = _profile("thicket-tutorial/lulesh-strong-weak", "thicket")
    w = cctviz.CCT(tk)
    assert "Avg time/rank (inc, derived)" not in w.metrics
    assert w.metric_kinds.loc["Avg time/rank", "kind"] == "inclusive"
    main = next(i for i in range(w.table.size) if w.table.name(i) == "main")
    measured = _root_value(tk, "Avg time/rank")
    assert w.table.metrics["Avg time/rank"].values[main] == pytest.approx(measured, rel=1e-12)
    # the colour menu lists each metric once
    assert len(w.metrics) == len(set(w.metrics))


def test_exclusive_caliper_statistics_pair_with_their_inclusive_ones() -> None:
    gf = _profile("thicket/XL_BaseCuda")
    kinds = cctviz.CCT(gf).metric_kinds
    exc, inc = (
        ("Avg time/rank (exc)", "Avg time/rank")
        if LLNL
        else ("avg#sum#sum#time.duration", "avg#inclusive#sum#time.duration")
    )
    if exc not in kinds.index:
        pytest.skip(f"{exc} is not a metric in this distribution")
    assert (kinds.loc[exc, "kind"], kinds.loc[exc, "partner"]) == ("exclusive", inc)
    assert kinds.loc[inc, "partner"] == exc
    # the menu lists no derived copy of what the profile measured
    assert not [m for m in kinds.index if m.endswith(SUFFIX)]


def test_min_max_and_average_records_get_no_derived_sums() -> None:
    gf = _profile("hatchet/caliper-lulesh-cali")
    w = cctviz.CCT(gf)
    kinds = w.metric_kinds
    assert kinds.loc["min#time.duration", "kind"] == "other"
    assert kinds.loc["max#time.duration", "kind"] == "max"
    assert kinds.loc["avg#time.duration", "kind"] == "max"
    derived = {m for m in w.metrics if m.endswith(SUFFIX)}
    assert not {f"{m}{SUFFIX}" for m in ("min#time.duration", "max#time.duration")} & derived
    # a sum of the node's own records still gets its inclusive sums
    assert "time (inc, derived)" in derived or "sum#time.duration (inc, derived)" in derived


def test_timeseries_gauges_and_iteration_numbers_are_not_summed() -> None:
    gf = _profile("thicket/example-timeseries")
    w = cctviz.CCT(gf)
    kinds = w.metric_kinds
    assert not [m for m in w.metrics if m.endswith(SUFFIX)]
    # counts and gauges per time step (memstat.* are numbers only in LLNL's reader)
    for m in ("loop.iterations", "memstat.vmrss", "variorum.power_node_watts"):
        if m in kinds.index or m == "loop.iterations":
            assert kinds.loc[m, ["kind", "rule"]].tolist() == ["max", "timeseries"], m
    assert kinds.loc["iteration#lulesh.cycle", "kind"] == "other"


@pytest.mark.llnl
def test_timeseries_rows_are_averaged_over_time_steps_and_say_so() -> None:
    if not LLNL:
        pytest.skip("Thicket.from_timeseries needs llnl-thicket")
    import thicket

    from .profiles import data_root

    path = sorted((data_root("thicket/example-timeseries")).glob("*.cali"))[0]
    tk = thicket.Thicket.from_timeseries(str(path))
    table = cctviz.from_graphframe(tk)
    assert table.reduced_over == ("time steps (iteration)",)
    assert not [m for m in table.metrics if m.endswith(SUFFIX)]
    payload = cctviz.CCT(tk)._payload
    assert payload["reduced_over"] == ["time steps (iteration)"]


def _without_metadata(gf: Any) -> Any:
    out = copy.copy(gf)
    out.metadata = {}
    return out


def test_the_tree_check_finds_inclusive_metrics_listed_as_exclusive() -> None:
    gf = _profile("llnl-hatchet/caliper-ordered-cali")
    kinds = cctviz.CCT(_without_metadata(gf)).metric_kinds
    listed = [m for m in gf.exc_metrics if m in kinds.index]
    aliases = [m for m in listed if "#" not in m]
    if not aliases:
        pytest.skip("this distribution keeps Caliper's names: no alias to check")
    for m in aliases:
        assert kinds.loc[m, ["kind", "rule"]].tolist() == ["inclusive", "tree"], m


def test_the_tree_check_keeps_a_real_exclusive_metric_exclusive() -> None:
    gf = copy.copy(_profile("hatchet/hpctoolkit-cpi-database", "from_hpctoolkit"))
    gf.dataframe = gf.dataframe.drop(columns=["time (inc)"])
    gf.inc_metrics = []
    w = cctviz.CCT(gf)
    assert w.metric_kinds.loc["time", ["kind", "rule"]].tolist() == ["exclusive", "reader"]
    assert "time (inc, derived)" in w.metrics


def test_metric_kinds_overrides_and_says_so() -> None:
    gf = _profile("hatchet/caliper-lulesh-cali")
    w = cctviz.CCT(gf, metric_kinds={"max#time.duration": "exclusive"})
    row = w.metric_kinds.loc["max#time.duration"]
    assert (row["kind"], row["rule"]) == ("exclusive", "declared")
    assert "metric_kinds" in row["why"]
    # what w.metric_kinds says is what metric_kinds= takes back
    again = cctviz.CCT(gf, metric_kinds=dict(w.metric_kinds["kind"]))
    assert again.metric_kinds["kind"].to_dict() == w.metric_kinds["kind"].to_dict()


def test_the_payload_tells_the_view_which_rule_decided() -> None:
    gf = _profile("hatchet/hpctoolkit-cpi-database", "from_hpctoolkit")
    payload = cctviz.CCT(gf)._payload
    rules = {m["name"]: (m["rule"], m["why"]) for m in payload["metrics"]}
    assert rules["time"][0] == rules["time (inc)"][0] == "pair"
    assert "time (inc)" in rules["time"][1]


_SEEDED = (
    CPI_IN_A_FRESH_PROCESS
    + r"""
base = df["time"].astype(float)
# a GPU database as UMD's reader gives it: metrics listed (and made columns) in set order
gpu = {"GKER (sec)": 0.5, "GKER:COUNT": 3.0, "GXCOPY (sec)": 0.25, "GXCOPY:H2D (B)": 1e6}
names = list(set(gpu))
for n in names:
    df[n] = base * gpu[n]
    df[n + " (inc)"] = df["time (inc)"].astype(float) * gpu[n]
gf.dataframe = df[[*names, *(n + " (inc)" for n in names), "name"]]
gf.exc_metrics = names
gf.inc_metrics = [n + " (inc)" for n in list(set(names))]
gf.default_metric = None
w = cctviz.CCT(gf)
print(json.dumps([w.color_by, w.size_by, names]))
"""
)


def test_default_metrics_do_not_depend_on_hash_order(tmp_path: Path) -> None:
    seen = set()
    orders = set()
    for seed in ("0", "1", "2", "3", "42"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", _SEEDED, str(REPO)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=tmp_path,
        )
        colour, size, names = json.loads(out.stdout.strip().splitlines()[-1])
        seen.add((colour, size))
        orders.add(tuple(names))
    assert len(orders) > 1, "the hash seeds did not change the reader's order: no test"
    # a time, not a count or bytes; the alphabetically first of equals
    assert seen == {("GKER (sec)", "GKER (sec) (inc)")}


def test_kinds_frame_round_trips_through_pandas() -> None:
    gf = _profile("hatchet/hpctoolkit-cpi-database", "from_hpctoolkit")
    kinds = cctviz.CCT(gf).metric_kinds
    assert isinstance(kinds, pd.DataFrame) and kinds.index.name == "metric"
    assert list(kinds.columns) == ["kind", "partner", "rule", "why"]
    assert np.all(kinds["why"].str.len() > 0)
    # the kinds, passed back as `metric_kinds=`, give the same kinds and partners, now declared
    again = cctviz.CCT(gf, metric_kinds=dict(kinds["kind"])).metric_kinds
    pd.testing.assert_frame_equal(again[["kind", "partner"]], kinds[["kind", "partner"]])
    assert set(again["rule"]) == {"declared"}, again
    # one changed kind is the one that changes
    flipped = {"time (inc)": "exclusive"}
    changed = cctviz.CCT(gf, metric_kinds=flipped).metric_kinds
    assert changed.loc["time (inc)", ["kind", "rule"]].tolist() == ["exclusive", "declared"]
    assert changed.loc["time", "rule"] == kinds.loc["time", "rule"]


def test_a_compare_views_columns_say_the_compare_view_decided() -> None:
    runs = list(cctviz.examples.runs().values())[:2]
    w = cctviz.compare(runs)
    kinds = w.metric_kinds
    assert set(kinds["rule"]) == {"compare"}, kinds
    assert kinds.loc[w.color_by, "kind"] == "inclusive"  # a difference of inclusive times
    ratio = next(m for m in kinds.index if m.startswith("log₂"))
    assert kinds.loc[ratio, ["kind", "rule"]].tolist() == ["ratio", "compare"]
    # what the user declares stays theirs
    mine = cctviz.compare(runs, metric_kinds={ratio: "max"}).metric_kinds
    assert mine.loc[ratio, ["kind", "rule"]].tolist() == ["max", "declared"]


def test_timestamps_and_process_ids_are_never_summed_and_never_the_default() -> None:
    gf = _profile("llnl-hatchet/ams_mpi_test1-pfw", "from_perfflowaspect")
    w = cctviz.CCT(gf)
    kinds = w.metric_kinds
    for m in ("ts", "pid", "tid"):
        assert kinds.loc[m, ["kind", "rule"]].tolist() == ["other", "identifier"], m
    assert not [m for m in w.metrics if m.endswith(SUFFIX)]
    # PerfFlowAspect's durations nest: the tree says they are inclusive
    assert kinds.loc["dur", ["kind", "rule"]].tolist() == ["inclusive", "tree"]
    assert (w.color_by, w.size_by) == ("dur", "dur")


class _Recording(Mapping[str, Any]):
    """A metadata mapping that records the keys read (``*`` when it is walked whole)."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self._values, self.read = dict(values), set[str]()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self._values[key]

    def __contains__(self, key: object) -> bool:
        self.read.add(str(key))
        return key in self._values

    def __iter__(self) -> Iterator[str]:
        self.read.add("*")
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


@pytest.mark.parametrize("folder", ["thicket/mpi_scaling_cali", "thicket/rajaperf-quartz"])
def test_decide_reads_no_metadata_key_outside_deciding_keys(folder: str) -> None:
    """The store decides once for many files from their ``DECIDING_KEYS`` alone
    (``caliper_rows``): ``decide`` must read no other metadata key, or files that differ only
    there would get the first file's kinds."""
    import hatchet as ht

    from cctviz.adapters.node_metrics import DECIDING_KEYS, decide

    path = sorted(data_root(folder).rglob("*.cali"))[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gf = ht.GraphFrame.from_caliperreader(str(path))
    full = _Recording({**gf.metadata, "cctviz.metric_kinds": '{"nid": "other"}'})
    assert {"spot.metrics", "spot.timeseries.metrics"} & set(full._values)  # the keys are there
    listed = (list(gf.exc_metrics), list(gf.inc_metrics))
    decided = decide(gf.dataframe, listed, SimpleNamespace(metadata=full), None)
    assert full.read and full.read <= set(DECIDING_KEYS), sorted(full.read - set(DECIDING_KEYS))
    only = {k: full._values[k] for k in DECIDING_KEYS if k in full._values}
    assert decide(gf.dataframe, listed, SimpleNamespace(metadata=only), None) == decided
