"""Changes an analyst can believe (issue 54), each target on synthetic series with known truth
and several seeds: changes are found within each configuration's own runs (interleaved compilers
of different levels, a study launched one configuration after another), never at a switch of
configuration; the environment that changed with a change is named first; the false discovery
rate is under its stated level; configurations are detected, named by the user, and carried by
sub-ensembles."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import cctviz
from cctviz.ensemble.analysis import segments as sg
from cctviz.ensemble.analysis.configs import ConfigurationWarning, detect
from cctviz.ensemble.synthetic import Change

pytestmark = pytest.mark.once  # synthetic ensembles, no Hatchet: run once (see pyproject.toml)

pytest.importorskip("duckdb")

COMPILERS = ("gcc-12", "clang-16", "intel-2023", "nvhpc-24")


def _interleaved(tmp: Path, seed: int, k: int, n_runs: int = 400, n_nodes: int = 300) -> Any:
    """A nightly series whose runs pick one of ``k`` compilers at random, each 10–50 % slower
    than the one before it, with 20 changes of 10–50 % at leaves, each in one compiler's runs."""
    rng = np.random.default_rng(seed)
    compilers = COMPILERS[:k]
    levels = {c: 1 + float(rng.uniform(0.1, 0.5)) * i for i, c in enumerate(compilers)}
    chosen = rng.choice(np.arange(1, n_nodes), 20, replace=False)
    changes = [
        Change(
            int(c),
            int(rng.integers(n_runs // 6, n_runs - n_runs // 6)),
            float(1 + rng.uniform(0.1, 0.5) * rng.choice([-1, 1])),
            {"compiler": str(rng.choice(compilers))},
        )
        for c in chosen
    ]
    ens = cctviz.examples.ensemble(
        tmp / f"mixed-{seed}-{k}",
        n_runs,
        n_nodes,
        seed=seed,
        changes=changes,
        noise=0.05,
        outliers=0.005,
        job_sizes=(64,),
        problem_sizes=(30,),
        compilers=compilers,
        levels=levels,
    )
    return ens, changes


def _hits(ens: Any, found: pd.DataFrame, changes: list[Change]) -> int:
    """Changes found on their node, in their configuration, at their run ± 1 run of it."""
    keys = list(ens.nodes.index)
    profiles = ens.profiles
    hits = 0
    for c in changes:
        own = profiles[profiles["compiler"] == c.where["compiler"]].sort_values("run")
        index = {p: i for i, p in enumerate(own.index)}
        truth = int((own["run"] < c.at).sum())  # the first run of its own at or after c.at
        rows = found[
            (found["key"] == keys[c.node])
            & (found["config"].map(lambda d: d.get("compiler")) == c.where["compiler"])
        ]
        hits += any(abs(index[p] - truth) <= 1 for p in rows["profile"])
    return hits


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_interleaved_configurations_changes_found_within_each(tmp_path: Path, seed: int) -> None:
    for k in (2, 3, 4):
        ens, changes = _interleaved(tmp_path, seed, k)
        assert ens.configuration == ["compiler"]
        found = ens.regressions("time")
        keys = list(ens.nodes.index)
        recall = _hits(ens, found, changes) / len(changes)
        unchanged = set(keys) - {keys[c.node] for c in changes}
        flagged = len(set(found["key"]) & unchanged) / len(unchanged)
        profiles = ens.profiles
        # no change at a switch of configuration: both runs around each are of its configuration
        for row in found.itertuples():
            for run in (row.previous, row.profile):
                assert profiles.loc[run, "compiler"] == row.config["compiler"], row
        print(f"seed {seed}, {k} compilers: recall {recall:.0%}, unchanged flagged {flagged:.2%}")
        assert recall >= 0.95, found
        assert flagged <= 0.01, found[found["key"].isin(list(unchanged))]
        # the p-values and their adjustment are what the table says
        assert (found["q"] <= 0.05).all() and (found["p"] <= found["q"]).all()


def test_without_configurations_the_mixed_series_loses_changes(tmp_path: Path) -> None:
    """What the split is for: the same runs as one series (as before issue 54) find fewer."""
    ens, changes = _interleaved(tmp_path, 0, 2)
    split = _hits(ens, ens.regressions("time"), changes)
    ens.configuration = []
    mixed = ens.regressions("time")
    assert (mixed["config"] == {}).all()
    # found in the mixed series, the runs either side may be of either compiler
    keys = list(ens.nodes.index)
    found_mixed = sum(
        ((mixed["key"] == keys[c.node]) & ((mixed["profile"].map(ens.profiles["run"]) - c.at).abs()
                                            <= 2)).any()
        for c in changes
    )  # fmt: skip
    assert split == len(changes) and found_mixed < split


def test_a_study_launched_one_configuration_after_another_has_no_change(tmp_path: Path) -> None:
    """3 problem sizes × 6 job sizes, 5 runs each, launched in order, twice over (180 runs):
    the levels differ by configuration, and nothing changed within one."""
    ens = cctviz.examples.ensemble(
        tmp_path / "study",
        180,
        60,
        seed=3,
        sweep=5,
        job_sizes=(1, 8, 27, 64, 125, 216),
        problem_sizes=(30, 40, 50),
        compilers=("gcc-12",),
        noise=0.03,
    )
    assert ens.configuration == ["jobsize", "problem_size"]
    assert ens.regressions("time (inc)").empty
    assert ens.regressions("time").empty
    # what the configurations prevent: the same runs as one series are all "changes"
    ens.configuration = []
    assert len(ens.regressions("time (inc)")) > 100
    ens.configuration = None  # detected again
    one = ens.where("problem_size = 30")
    assert one.configuration == ["jobsize"] and one.regressions("time (inc)").empty
    # once over (90 runs, 5 per configuration): too few to tell a change, and it says so
    once = ens.where("run < 90")
    with pytest.warns(ConfigurationWarning, match=r"no configuration has the 10 values"):
        assert once.regressions("time (inc)").empty


def test_the_column_that_changed_with_a_change_is_named_first(tmp_path: Path) -> None:
    for seed in (5, 6, 7):
        rng = np.random.default_rng(seed)
        n, at = 120, int(rng.integers(40, 80))
        meta = {
            "compiler_version": ["12.3"] * at + ["13.1"] * (n - at),
            "commit": [f"{int(h):07x}" for h in rng.integers(0, 1 << 28, n)],
            "host": [str(h) for h in rng.choice(["nid01", "nid02", "nid03", "nid04"], n)],
        }
        ens = cctviz.examples.ensemble(
            tmp_path / f"env-{seed}",
            n,
            80,
            seed=seed,
            job_sizes=(64,),
            problem_sizes=(30,),
            compilers=("gcc", "clang"),
            changes=[Change(7, at, 1.3), Change(20, at, 0.8)],
            metadata=meta,
            noise=0.04,
        )
        # the host changes run by run: environment, not a configuration
        assert ens.configuration == ["compiler"]
        found = ens.regressions("time")
        keys = list(ens.nodes.index)
        assert {keys[7], keys[20]} <= set(found["key"])
        for row in found.itertuples():
            assert row.environment[0] == "compiler_version: 12.3 → 13.1", row
            # the commit changes at every run: named, after the version
            assert row.environment[1].startswith("commit: ")
            assert not any(e.startswith("host") for e in row.environment)
        report = ens.report("time")
        assert "since compiler\\_version: 12\\.3 → 13\\.1" in report


def test_a_change_common_to_every_compiler_is_one_series_across_them(tmp_path: Path) -> None:
    ens = cctviz.examples.ensemble(
        tmp_path / "across",
        160,
        60,
        seed=9,
        job_sizes=(64,),
        problem_sizes=(30,),
        compilers=("gcc", "clang"),
        levels={"clang": 1.4},
        changes=[Change(11, 90, 1.25)],
        noise=0.04,
    )
    key = int(ens.nodes.index[11])
    each = ens.regressions("time")
    assert sorted(each.loc[each["key"] == key, "config"].map(lambda d: d["compiler"])) == [
        "clang",
        "gcc",
    ]
    one = ens.regressions("time", across=["compiler"])
    row = one[one["key"] == key]
    assert len(row) == 1 and row["config"].iloc[0] == {}
    assert int(ens.profiles.loc[row["profile"].iloc[0], "run"]) in (89, 90, 91)
    assert row["change"].iloc[0] == pytest.approx(0.25, abs=0.05)
    assert row["runs_before"].iloc[0] + row["runs_after"].iloc[0] == 160
    with pytest.raises(KeyError, match="across= takes metadata columns"):
        ens.regressions("time", across=["nope"])


def test_false_discoveries_stay_under_the_stated_rate(tmp_path: Path) -> None:
    """1,000 unchanged nodes (and 50 changed ones) × 20 seeds: the share of false changes among
    those reported, averaged over the seeds, is at most the rate asked for."""
    shares = []
    for seed in range(20):
        rng = np.random.default_rng(100 + seed)
        chosen = rng.choice(np.arange(1, 1050), 50, replace=False)
        changes = [
            Change(int(c), int(rng.integers(20, 80)), float(1 + rng.uniform(0.1, 0.5)))
            for c in chosen
        ]
        ens = cctviz.examples.ensemble(
            tmp_path / f"fdr-{seed}",
            100,
            1050,
            seed=100 + seed,
            changes=changes,
            noise=0.05,
            outliers=0.005,
            job_sizes=(64,),
            problem_sizes=(30,),
            compilers=("gcc-12",),
        )
        found = ens.regressions("time", fdr=0.05)
        keys = list(ens.nodes.index)
        false = (~found["key"].isin([keys[c.node] for c in changes])).sum()
        shares.append(false / max(1, len(found)))
        assert len(found) >= 40  # and the true ones are found
    print(f"false discovery rate measured: {np.mean(shares):.4f}")
    assert np.mean(shares) <= 0.05


def test_segments_p_values_and_benjamini_hochberg() -> None:
    from scipy import stats

    rng = np.random.default_rng(1)
    p = rng.uniform(size=200) ** 3
    passed, q = sg.benjamini_hochberg(p, 200, 0.05)
    np.testing.assert_allclose(q, stats.false_discovery_control(p, method="bh"))
    assert (passed == (q <= 0.05)).all()
    # hypotheses not given count as p = 1
    padded = np.r_[p, np.ones(100)]
    np.testing.assert_allclose(
        sg.benjamini_hochberg(p, 300, 0.05)[1], stats.false_discovery_control(padded)[:200]
    )
    # the constant of the smoothed mean's variance, as the module states it
    noise = rng.normal(size=(20000, 50))
    smooth = sg.median3(noise)[:, 5:45].mean(axis=1).var() * 40
    assert smooth == pytest.approx(sg.SMOOTHED, rel=0.05)
    # a series of pure noise has no change; one with a step has it, at the step
    x = 10 + rng.normal(scale=0.3, size=(2, 60))
    x[1, 31:] += 2.0
    found = sg.find(x, 0.05)
    assert [(f.row, f.at) for f in found] == [(1, 31)]


def test_configuration_is_checked_and_carried(tmp_path: Path) -> None:
    ens = cctviz.examples.ensemble(
        tmp_path / "c", 40, 20, seed=1, job_sizes=(64, 128), problem_sizes=(30,)
    )
    assert ens.configuration == ["jobsize", "compiler"]
    with pytest.raises(KeyError, match="no metadata column 'nope' to group runs by"):
        ens.configuration = ["nope"]
    with pytest.raises(KeyError, match="no metadata column 'hash'"):
        ens.configuration = ["hash"]  # reserved: one per profile
    with pytest.raises(TypeError, match="configuration takes metadata column names"):
        ens.configuration = [3]  # type: ignore[list-item]
    with pytest.raises(TypeError, match="a list of metadata column names"):
        ens.configuration = 5  # type: ignore[assignment]
    for bad in (0, 1, "x", True, float("nan")):
        with pytest.raises(ValueError, match="fdr is a false discovery rate between 0 and 1"):
            ens.regressions("time", fdr=bad)  # type: ignore[arg-type]
    with pytest.raises(KeyError, match="no metric 'nope'"):
        ens.regressions("nope")
    ens.configuration = "jobsize"  # type: ignore[assignment]
    assert ens.configuration == ["jobsize"]
    assert ens.where("jobsize = 64").configuration == ["jobsize"]
    ens.configuration = None
    assert ens.configuration == ["jobsize", "compiler"]


def test_detection_tells_configurations_from_environment() -> None:
    n = 60
    dates = pd.date_range("2025-01-01", periods=n)
    runs = pd.DataFrame(
        {
            "launchdate": dates,
            # recurs: a configuration
            "compiler": ["gcc", "clang"] * (n // 2),
            # changes once and stays: environment
            "version": ["12"] * 25 + ["13"] * 35,
            # one host of four per run, at random: named for where it ran, environment
            "hostname": np.random.default_rng(0).choice(list("abcd"), n),
            # one per run: neither
            "commit": [f"c{i}" for i in range(n)],
        },
        index=[f"p{i}" for i in range(n)],
    )
    assert detect(runs, "launchdate") == ["compiler"]
    # a study: job sizes swept in blocks of 5, problem sizes the outer loop
    study = pd.DataFrame(
        {
            "launchdate": dates,
            "jobsize": np.tile(np.repeat([1, 8, 64], 5), 4),
            "problem_size": np.repeat([30, 40, 50, 60], 15),
        },
        index=[f"p{i}" for i in range(n)],
    )
    assert detect(study, "launchdate") == ["jobsize", "problem_size"]
    # the problem size alone, changed once and kept: environment (a change with it is named)
    assert detect(study.drop(columns="jobsize"), "launchdate") == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert detect(runs.head(3), "launchdate") == []  # too few to tell


def test_a_change_is_explained_by_runs_of_its_own_configuration(tmp_path: Path) -> None:
    ens, _ = _interleaved(tmp_path, 0, 2, n_runs=120, n_nodes=60)
    found = ens.regressions("time")
    row = found.iloc[0]
    w = ens.explain(row)
    compiler = row["config"]["compiler"]
    profiles = ens.profiles
    own = profiles[profiles["compiler"] == compiler].sort_values("launchdate")
    before = own[own["launchdate"] < row["at"]].tail(5)
    after = own[own["launchdate"] >= row["at"]].head(5)
    first, last = (str(d.date()) for d in before["launchdate"].iloc[[0, -1]])
    assert w.labels[0] == f"launchdate {first} … {last} (median of 5)"
    assert str(after["launchdate"].iloc[-1].date()) in w.labels[1]
    assert row["previous"] == before.index[-1] and row["profile"] == after.index[0]


def test_screening_in_shares_of_the_nodes_finds_the_same_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screening runs per share of the nodes (a task per share on a cluster; in this process
    as many shares as keep the nodes × runs matrix small): the shares change nothing found."""
    from cctviz.ensemble.analysis import changes

    ens, _ = _interleaved(tmp_path, 5, 2, n_runs=200, n_nodes=150)
    whole = ens.regressions("time")
    assert len(whole) >= 5
    calls: list[int] = []
    real = changes._screen

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(changes, "_screen", counted)
    monkeypatch.setattr(changes, "MATRIX_CELLS", 150 * 200 // 7)  # 8 shares
    shared = ens.regressions("time")
    assert len(calls) == 8
    pd.testing.assert_frame_equal(
        shared.sort_values(["key", "at"], ignore_index=True),
        whole.sort_values(["key", "at"], ignore_index=True),
    )
