"""Every number of the right kind (issue 54, point 4): parameters and top-down fractions are never
summed (in a view, the store's metrics and the strip's run totals), an ensemble's view pairs its
metrics as one profile's view does, ties between default metrics are broken by the data, the
median is over every (rank, thread) row, describe() tells no node the view greys out as a top
one, and the Markdown escape keeps entities whole."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.adapters.derived import SUFFIX
from cctviz.core.judge import too_small
from cctviz.core.markdown import text
from cctviz.widget.ensemble import strip_payload as strip
from cctviz.widget.ensemble.strip_payload import METRIC

from .conftest import load
from .profiles import CPI_IN_A_FRESH_PROCESS, REPO, data_root, readable, require
from .test_adapter import _by_folder

QUARTZ = "thicket/rajaperf-quartz"
XL = "thicket/XL_BaseCuda"  # RAJAPerf on lassen: Caliper's exclusive and inclusive statistics
ALLGATHER = "hatchet/hpctoolkit-allgather-database"  # 10 ranks × 2 threads
ADDITIVE = ("exclusive", "inclusive")


def _files(folder: str) -> list[Path]:
    require(folder)
    return sorted(data_root(folder).rglob("*.cali"))


def _rajaperf() -> Any:
    import hatchet as ht

    return ht.GraphFrame.from_caliperreader(str(_files(QUARTZ)[0]))


def _parameters(kinds: pd.DataFrame) -> list[str]:
    """RAJAPerf's per-kernel parameters, as this distribution names them."""
    names = ("ProblemSize", "Reps", "Iterations/Rep", "Kernels/Rep", "Bytes/Rep", "Flops/Rep")
    return [m for m in kinds.index if str(m).split("#")[-1] in names]


def _never_summed(w: Any, metrics: list[str]) -> None:
    kinds = w.metric_kinds
    for m in metrics:
        assert kinds.loc[m, "kind"] not in ADDITIVE, kinds.loc[m].tolist()
        assert kinds.loc[m, "partner"] is None, m
        assert f"{m}{SUFFIX}" not in w.metrics
    assert w.color_by not in metrics and w.size_by not in metrics


def test_rajaperf_parameters_are_parameters_without_the_spot_metadata_too() -> None:
    gf = _rajaperf()
    with_spot = cctviz.CCT(gf).metric_kinds
    params = _parameters(with_spot)
    assert len(params) == 6, list(with_spot.index)
    # a file whose metadata does not list its Caliper attributes (spot.metrics): LLNL's reader
    # lists every column as exclusive, and only the values tell the parameters apart
    bare = gf.deepcopy()
    bare.metadata = {k: v for k, v in gf.metadata.items() if k != "spot.metrics"}
    w = cctviz.CCT(bare)
    _never_summed(w, params)
    kinds = w.metric_kinds
    for m in params:  # as the metadata would have said
        assert kinds.loc[m, "kind"] == with_spot.loc[m, "kind"], m
        assert kinds.loc[m, "rule"] == "parameter", kinds.loc[m].tolist()
    # the times are as before: inclusive, and the default
    assert kinds.loc[w.size_by, "kind"] == "inclusive"


def test_top_down_fractions_are_never_summed() -> None:
    import hatchet as ht

    files = _files("thicket/simple-cali")
    gf = ht.GraphFrame.from_caliperreader(str(files[0]))
    df = gf.dataframe

    def counter(event: str) -> pd.Series:  # LLNL's alias or UMD's Caliper name (papi.EVENT)
        (column,) = [c for c in df.columns if re.search(f"{event}$", str(c), re.I)]
        return df[column].astype(float)

    # level 1 of the top-down analysis, as Caliper's topdown service computes it
    slots = 4 * counter("cpu_clk_thread_unhalted:thread_p")
    retired = counter("uops_retired:retire_slots")
    fractions = {
        "Retiring": retired / slots,
        "Frontend bound": counter("idq_uops_note?_delivered:core") / slots,
        "Bad speculation": (
            counter("uops_issued:any") - retired + 4 * counter("int_misc:recovery_cycles")
        )
        / slots,
    }
    fractions["Backend bound"] = 1 - sum(fractions.values())
    for name, values in fractions.items():
        df[name] = values
    gf.exc_metrics = [*gf.exc_metrics, *fractions]
    w = cctviz.CCT(gf)
    _never_summed(w, list(fractions))
    kinds = w.metric_kinds
    assert set(kinds.loc[list(fractions), "rule"]) == {"fraction"}
    # a metric named so whose values are no shares is not called one
    df["Retiring"] = retired
    assert cctviz.CCT(gf).metric_kinds.loc["Retiring", "rule"] != "fraction"


def test_an_ensemble_of_rajaperf_runs_sums_no_parameter(tmp_path: Path) -> None:
    files = _files(QUARTZ)
    ens = cctviz.Ensemble(tmp_path / "store")
    assert ens.add(files, progress=False) == len(files)
    params = _parameters(ens.metrics)
    assert len(params) == 6, list(ens.metrics.index)
    assert not set(ens.metrics.loc[params, "kind"]) & set(ADDITIVE)
    assert not [m for m in ens.metrics.index if m.endswith(SUFFIX)]
    w = cctviz.CCT(ens)
    # shown as each file's own view shows them: in the menus, never summed, never the default
    assert set(params) <= set(w.metrics)
    _never_summed(w, params)
    # the strip offers no run total of a parameter, and one of every inclusive time
    axes = {a.name.removeprefix(METRIC) for a in strip.axes(ens) if a.name.startswith(METRIC)}
    inclusive = {m for m in ens.metrics.index if ens.metrics.loc[m, "kind"] == "inclusive"}
    assert axes == inclusive, axes


def test_an_ensemble_view_pairs_its_metrics_as_one_profiles_view(tmp_path: Path) -> None:
    import hatchet as ht

    files = _files(XL)[:4]
    one = cctviz.CCT(ht.GraphFrame.from_caliperreader(str(files[0])))
    ens = cctviz.Ensemble(tmp_path / "store")
    ens.add(files, progress=False)
    w = cctviz.CCT(ens)
    assert (w.color_by, w.size_by) == (one.color_by, one.size_by)
    assert one.metric_kinds.loc[one.color_by, "partner"] == one.size_by  # measured, paired
    mine = w.metric_kinds.drop(index="profiles")
    pd.testing.assert_frame_equal(
        mine[["kind", "partner"]].sort_index(), one.metric_kinds[["kind", "partner"]].sort_index()
    )
    assert not [m for m in w.metrics if m.endswith(SUFFIX)]


def test_a_store_of_format_1_opens_and_defaults_as_its_profiles(tmp_path: Path) -> None:
    import hatchet as ht

    shutil.copytree(Path(__file__).parent / "data" / "ensemble-v1" / "store.cctviz", tmp_path / "s")
    ens = cctviz.Ensemble(tmp_path / "s")
    w = cctviz.CCT(ens)
    first = _files("thicket/mpi_scaling_cali")[0]
    one = cctviz.CCT(ht.GraphFrame.from_caliperreader(str(first)))
    if set(one.metrics) <= set(w.metrics):  # the distribution that wrote it (UMD's names)
        assert (w.color_by, w.size_by) == (one.color_by, one.size_by)
    kinds = ens.metrics  # else its own measured metrics, as the store kept them
    assert kinds.loc[w.size_by, "kind"] == "inclusive" and not w.size_by.endswith(SUFFIX)
    assert w.metric_kinds.loc[w.size_by, "rule"] == "store"


_SEEDED = (
    CPI_IN_A_FRESH_PROCESS
    + r"""
# a GPU database as UMD's reader gives it: metrics listed (and made columns) in set order; the
# seconds-metrics differ only in their values
gpu = {"GKER (sec)": 0.25, "GPUOP (sec)": 0.75, "GXCOPY (sec)": 0.5, "GKER:COUNT": 3.0,
       "GXCOPY:H2D (B)": 1e6}
names = list(set(gpu))
for n in names:
    df[n] = df["time"].astype(float) * gpu[n]
    df[n + " (inc)"] = df["time (inc)"].astype(float) * gpu[n]
gf.dataframe = df[[*names, *(n + " (inc)" for n in names), "name"]]
gf.exc_metrics = names
gf.inc_metrics = [n + " (inc)" for n in list(set(names))]
gf.default_metric = None
w = cctviz.CCT(gf)
roots = w.table.roots
totals = {n: float(w.table.metrics[n + " (inc)"].values[roots].sum()) for n in names}
print(json.dumps([w.color_by, w.size_by, names, totals]))
"""
)


def test_ties_between_default_metrics_are_broken_by_the_data(tmp_path: Path) -> None:
    seen, orders = set(), set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", _SEEDED, str(REPO)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=tmp_path,
        )
        colour, size, names, totals = json.loads(out.stdout.strip().splitlines()[-1])
        seen.add((colour, size))
        orders.add(tuple(names))
    assert len(orders) > 1, "the hash seeds did not change the reader's order: no test"
    # the seconds-metric with the largest inclusive total at the roots, whatever its name
    seconds = [n for n in totals if n.endswith("(sec)")]
    largest = max(seconds, key=lambda n: totals[n])
    assert largest != min(seconds), "the largest is also the first name: no test of the data"
    assert seen == {(largest, f"{largest} (inc)")}


def test_the_median_is_over_every_rank_and_thread_row() -> None:
    gf = load(_by_folder(ALLGATHER))
    table = cctviz.from_graphframe(gf, reducer="median")
    assert table.reduced_over == ("rank", "thread")
    rows = gf.dataframe["time (inc)"].astype(float).groupby(level="node").median()
    want = rows.reindex(pd.Index(list(table.nodes))).to_numpy()
    got = table.metrics["time (inc)"].values
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)
    # as the mean, the min and the max are (the threads are not added up first)
    mean = cctviz.from_graphframe(gf, reducer="mean").metrics["time (inc)"].values
    means = gf.dataframe["time (inc)"].astype(float).groupby(level="node").mean()
    np.testing.assert_allclose(mean, means.reindex(pd.Index(list(table.nodes))).to_numpy())


@pytest.mark.parametrize("folder", [ALLGATHER, "hatchet/tau_profiles"])
def test_describe_tells_no_node_the_view_greys_out_as_a_top_one(folder: str) -> None:
    found = [p for p in readable() if p.folder == folder]
    if not found:
        pytest.skip(f"{folder} is not read by this distribution")
    w = cctviz.CCT(load(found[0]), reducer="imbalance")
    small = too_small(w.table, w.color_by, w.size_by, w.judge_below)
    assert small is not None and small.any()
    ratio = w.table.metrics[w.color_by].values
    judged = np.where(small, -np.inf, np.nan_to_num(ratio, nan=-np.inf))
    want = np.sort(judged)[::-1][:5]
    # the view greys out nodes whose imbalance is among the largest of all
    assert not np.allclose(np.sort(np.nan_to_num(ratio, nan=-np.inf))[::-1][:5], want)
    out = w.describe()
    top = out.split(f"**Top 5 by {text(w.color_by)}:**")[1].splitlines()[1:6]
    shown = [float(line.rsplit(": ", 1)[1]) for line in top]
    np.testing.assert_allclose(shown, want, rtol=5e-3)  # printed as the view does: 3 digits
    assert "too small to judge" in out


def _rendered(markdown: str) -> str:
    """What a CommonMark renderer shows of inline text: a backslash before ASCII punctuation is
    that character, an entity is its character, all else itself (one pass, left to right)."""
    pattern = re.compile(r"\\([!-/:-@\[-`{-~])|(&(?:#x[0-9a-f]+|#[0-9]+|[a-z]+);)", re.I)
    return pattern.sub(lambda m: m.group(1) or html.unescape(m.group(2)), markdown)


@pytest.mark.parametrize(
    "value",
    ["it's", 'say "hi"', "a & b", "<img src=x onerror=alert(1)>", "# not a heading", "&#x27;"],
)
def test_markdown_text_shows_the_text_itself(value: str) -> None:
    out = text(value)
    assert _rendered(out) == value
    assert not set("<>\"'") & set(out)  # no HTML special left as itself
    assert not re.search(r"&(?!(amp|lt|gt|quot|#x27);)", out)  # every & begins an entity
