"""Faults done for real on the ensemble store: the adding process killed (SIGKILL) at every write
step and at random moments of its writes, and two and four processes adding the same and
overlapping files at once. Each time the store answers exactly as before the add or exactly as
after it, and adding again gives a clean store's numbers (issue 53)."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import cctviz

from .fresh import started
from .profiles import inclusive_metric as _metric
from .profiles import mpi_scaling_files as _files

pytestmark = pytest.mark.faults

STEPS = [
    f"{when} {table}"
    for table in ("nodes", "metrics", "values", "profiles")
    for when in ("before", "after")
]

# the adding process: waits for a start time (argv[3]), adds the files after argv[4:] and says
# how many it added; CCTVIZ_KILL_AT names a write step where it kills itself, and with
# CCTVIZ_SAY_WRITING it says "writing" when its first write starts
CHILD = r"""
import os, signal, sys, time
import cctviz
from cctviz.ensemble.store import commit

kill_at, say = os.environ.get("CCTVIZ_KILL_AT"), os.environ.get("CCTVIZ_SAY_WRITING")
if os.environ.get("CCTVIZ_FLUSH_ROWS"):  # values written profile by profile
    from cctviz.ensemble.store import adding
    adding.FLUSH_ROWS = int(os.environ["CCTVIZ_FLUSH_ROWS"])
steps = []
def hook(step):
    steps.append(step)
    if say and step == "before nodes":
        print("writing", flush=True)
    if step == kill_at and steps.count(step) == int(os.environ.get("CCTVIZ_KILL_NTH", "1")):
        os.kill(os.getpid(), signal.SIGKILL)
commit.STEP_HOOK = hook
ens = cctviz.Ensemble(sys.argv[1])
print("ready", flush=True)
start = float(sys.argv[2])
while time.time() < start:
    time.sleep(0.002)
print("added", ens.add(sys.argv[3:], progress=False, workers=1), flush=True)
"""


def _numbers(path: Path) -> tuple[int, pd.DataFrame]:
    ens = cctviz.Ensemble(path, create=False)
    reduced = ens.reduce(_metric(ens), ("mean", "std", "min", "max", "count", "sum"))
    return len(ens), reduced.drop(columns=["path", "name", "parent"]).sort_index()


def _equal(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    if list(a.index) != list(b.index):
        return False
    try:
        pd.testing.assert_frame_equal(a, b, check_exact=False, rtol=1e-9, atol=0)
    except AssertionError:
        return False
    return True


def _child(store: Path, files: list[Path], start: float, **env: str) -> subprocess.Popen[str]:
    return started(CHILD, store, start, *files, **env)


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The store before the add (two profiles), the numbers after it (five) and a clean store
    of the five."""
    files = _files()
    work = tmp_path_factory.mktemp("faults")
    before = work / "before"
    cctviz.Ensemble(before).add(files[:2], progress=False)
    after = work / "after"
    shutil.copytree(before, after)
    cctviz.Ensemble(after).add(files[2:], progress=False)
    clean = work / "clean"
    cctviz.Ensemble(clean).add(files, progress=False)
    return {
        "files": files,
        "before_store": before,
        "before": _numbers(before),
        "after": _numbers(after),
        "clean": _numbers(clean),
    }


# an adding process for many trials: for each line (a store, then files) it says "ready", waits
# for the line "go" (all processes start their adds at once) and says how many it added
SERVER = r"""
import json, sys
import cctviz
for line in sys.stdin:
    store, *files = json.loads(line)
    ens = cctviz.Ensemble(store)
    print("ready", flush=True)
    assert sys.stdin.readline().strip() == "go"
    print("added", ens.add(files, progress=False, workers=1), flush=True)
"""


def _check_and_recover(store: Path, states: dict[str, object]) -> str:
    """The killed store is the store before or after; adding again gives the clean numbers, the
    store verifies, and repair leaves the numbers alone. Says which state it was in."""
    count, reduced = _numbers(store)
    (nb, before), (na, after) = states["before"], states["after"]  # type: ignore[misc]
    if count == nb and _equal(reduced, before):
        state = "before"
    elif count == na and _equal(reduced, after):
        state = "after"
    else:
        raise AssertionError(f"{store}: {count} profiles, numbers neither before nor after")
    ens = cctviz.Ensemble(store)
    assert ens.verify().ok
    ens.add(states["files"], progress=False)  # type: ignore[arg-type]
    nc, clean = states["clean"]  # type: ignore[misc]
    count, reduced = _numbers(store)
    assert count == nc and _equal(reduced, clean)
    report = ens.repair(grace=0)
    assert report.ok and not report.parts["state"].isin(["uncommitted", "unlisted"]).any()
    assert _numbers(store)[0] == nc and _equal(_numbers(store)[1], clean)
    return state


@pytest.mark.parametrize("step", STEPS)
def test_an_add_killed_at_each_write_step(
    step: str, states: dict[str, object], tmp_path: Path
) -> None:
    store = tmp_path / "s"
    shutil.copytree(states["before_store"], store)  # type: ignore[arg-type]
    child = _child(store, states["files"][2:], 0.0, CCTVIZ_KILL_AT=step)  # type: ignore[index]
    _, err = child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, err
    state = _check_and_recover(store, states)
    # killed before the profiles' commit: before; after it: after
    assert state == ("after" if step == "after profiles" else "before")


def test_adds_killed_at_random_moments_of_their_writes(
    states: dict[str, object], tmp_path: Path
) -> None:
    rng = random.Random(53)
    seen = []
    for run in range(12):  # (each run adds again and repairs: ~3 s)
        store = tmp_path / f"s{run}"
        shutil.copytree(states["before_store"], store)  # type: ignore[arg-type]
        child = _child(store, states["files"][2:], 0.0, CCTVIZ_SAY_WRITING="1")  # type: ignore[index]
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("writing"):
                break
        time.sleep(rng.uniform(0.0, 0.25))  # somewhere in the writes (they take ~0.1-0.3 s)
        child.send_signal(signal.SIGKILL)
        child.communicate(timeout=60)
        seen.append(_check_and_recover(store, states))
    # the kills landed on both sides of the commit
    assert set(seen) == {"before", "after"}, seen


@pytest.mark.parametrize("processes", [2, 4])
def test_concurrent_adds_store_each_profile_once(
    processes: int, states: dict[str, object], tmp_path: Path
) -> None:
    import json

    files: list[Path] = states["files"]  # type: ignore[assignment]
    nc, clean = states["clean"]  # type: ignore[misc]
    servers = [
        subprocess.Popen(
            [sys.executable, "-c", SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(processes)
    ]
    try:
        for overlap in ("same", "overlapping"):
            for trial in range(10):
                store = tmp_path / f"{overlap}{trial}"
                if overlap == "same":
                    given = [files] * processes
                elif processes == 2:
                    given = [files[:3], files[2:]]
                else:  # each process three of the five files, together all five
                    given = [[files[(i + k) % len(files)] for k in range(3)] for i in range(4)]
                for server, mine in zip(servers, given, strict=True):
                    assert server.stdin is not None
                    server.stdin.write(json.dumps([str(store), *map(str, mine)]) + "\n")
                    server.stdin.flush()
                for server in servers:  # every one has opened the store: now all at once
                    assert server.stdout is not None and server.stdout.readline() == "ready\n"
                for server in servers:
                    assert server.stdin is not None
                    server.stdin.write("go\n")
                    server.stdin.flush()
                added = 0
                for server in servers:
                    assert server.stdout is not None
                    added += int(server.stdout.readline().split()[-1])
                count, reduced = _numbers(store)
                # each profile stored once and counted as added by exactly one process
                assert count == nc == added, (overlap, trial, count, added)
                assert _equal(reduced, clean)
                ens = cctviz.Ensemble(store)
                assert ens.profiles["hash"].is_unique and ens.verify().ok
    finally:
        for server in servers:
            server.kill()
            server.wait()


def test_a_large_add_killed_after_some_of_its_values_is_not_counted(
    states: dict[str, object], tmp_path: Path
) -> None:
    # an add bigger than memory writes its values as it reads; killed after two profiles'
    # values were written, it leaves the store as it was before
    store = tmp_path / "s"
    shutil.copytree(states["before_store"], store)  # type: ignore[arg-type]
    env = {"CCTVIZ_FLUSH_ROWS": "1", "CCTVIZ_KILL_AT": "after values", "CCTVIZ_KILL_NTH": "2"}
    child = _child(store, states["files"][2:], 0.0, **env)  # type: ignore[index]
    _, err = child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, err
    assert _check_and_recover(store, states) == "before"


def test_numbers_of_a_killed_add_are_never_counted(
    states: dict[str, object], tmp_path: Path
) -> None:
    # the bug of format 1: values written, profiles not: reduce counted them anyway
    store = tmp_path / "s"
    shutil.copytree(states["before_store"], store)  # type: ignore[arg-type]
    child = _child(store, states["files"][2:], 0.0, CCTVIZ_KILL_AT="after values")  # type: ignore[index]
    child.communicate(timeout=120)
    ens = cctviz.Ensemble(store)
    report = ens.verify()
    assert (report.parts["state"] == "uncommitted").sum() >= 2  # its metrics, values
    nb, _ = states["before"]  # type: ignore[misc]
    assert len(ens) == nb
    assert int(ens.reduce(_metric(ens))["count"].max()) == nb
    assert np.isfinite(ens.reduce(_metric(ens))["mean"]).all()
