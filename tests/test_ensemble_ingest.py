"""Reading many profiles (cctviz.ensemble.store.ingest, .worker): worker processes from any script
(no ``if __name__ == "__main__":``, ``python -c``, ``python - < script``) give the store a build
in this process gives; a worker that dies costs one profile, said so, and no hang; stopping
early leaves no process; where workers cannot start, the profiles are read here, said once;
progress through cctviz.core.progress. On the real ``.cali`` files of ../shared/data."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pytest

from cctviz.core import progress
from cctviz.ensemble import Ensemble
from cctviz.ensemble.store import ingest, worker
from cctviz.ensemble.store.profile import ProfileRows
from cctviz.ensemble.store.sources import Item, Skipped, items

from .profiles import HAVE_SHARED, REPO, REQUIRE_SHARED, SHARED_DATA

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc, sends SIGKILL")

FILES = sorted(SHARED_DATA.rglob("*.cali")) if HAVE_SHARED else []
BATCH = 150  # paths a batch script adds: every file, then repeats (stored once: same hash)
SCRIPT = """\
import sys
import cctviz
ens = cctviz.Ensemble(sys.argv[1])
n = ens.add({paths!r}, workers=2)
print(n, len(ens))
"""
# no `if __name__ == "__main__":`, as a batch job's script; run three ways
WAYS: dict[str, Callable[[Path], list[str]]] = {
    "file": lambda script: [sys.executable, str(script)],
    "-c": lambda script: [sys.executable, "-c", script.read_text()],
    "stdin": lambda script: [sys.executable, "-"],
}


def _files() -> list[Path]:
    if not FILES:
        if REQUIRE_SHARED:
            pytest.fail(f"CCTVIZ_REQUIRE_SHARED is set but {SHARED_DATA} has no .cali file")
        pytest.skip("needs ../shared/data (its .cali files)")
    return FILES


@pytest.fixture(autouse=True)
def workers_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers start after the first few files (on a fast machine they would not be worth it)."""
    monkeypatch.delenv("CCTVIZ_POOL_PAYS", raising=False)
    monkeypatch.delenv("CCTVIZ_INGEST_LOG", raising=False)
    monkeypatch.setattr(ingest, "POOL_PAYS", 0.0)


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The batch script run the three ways at once, and the store built here with workers=1."""
    files = _files()
    paths = [str(f) for f in (files * (BATCH // len(files) + 1))[:BATCH]]
    folder = tmp_path_factory.mktemp("batch")
    script = folder / "ingest.py"
    script.write_text(SCRIPT.format(paths=paths))
    env = {**os.environ, "CCTVIZ_POOL_PAYS": "0", "CCTVIZ_INGEST_LOG": "1"}
    runs = {}
    for way, args in WAYS.items():
        with script.open() as source:  # read by the "stdin" way only
            runs[way] = subprocess.Popen(
                [*args(script), str(folder / f"{way}.cctviz")],
                stdin=source if way == "stdin" else subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder, env=env,
                start_new_session=True,  # its workers with it: killed together if this fails
            )  # fmt: skip
    done = {}
    try:
        reference = Ensemble(folder / "reference.cctviz")
        reference.add(sorted(set(paths)), workers=1, progress=False)
        for way, run in runs.items():
            out, err = run.communicate(timeout=300)
            done[way] = (run.returncode, out, err, Ensemble(folder / f"{way}.cctviz"))
    finally:
        for run in runs.values():
            if run.returncode is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.communicate()
    return {"paths": paths, "reference": reference, "runs": done}


@pytest.mark.parametrize("way", list(WAYS))
def test_a_batch_script_without_a_main_guard_reads_in_workers(
    batch: dict[str, Any], way: str
) -> None:
    code, out, err, ens = batch["runs"][way]
    reference = batch["reference"]
    assert code == 0, err
    assert "BrokenProcessPool" not in err and "RuntimeWarning" not in err, err
    distinct = {i.content_hash for i in items(batch["paths"])[0]}
    assert len(reference) == len(distinct) - len(reference.skipped) > 50
    assert out.split() == [str(len(reference))] * 2
    # workers really read: two started, most profiles came from them
    log = [line for line in err.splitlines() if line.startswith("cctviz ingest: ")]
    assert sum("started worker process" in line for line in log) == 2, err
    here = ingest.SERIAL_BELOW // 2  # the first files, read before workers pay
    summary = log[-1].split()
    assert summary[2:6] == [str(here), "profiles", "read", "in"], log[-1]
    assert int(summary[8]) == len(reference) - here, log[-1]
    assert ens.skipped.empty
    assert sorted(ens.profiles.index) == sorted(reference.profiles.index)
    pd.testing.assert_frame_equal(ens.metrics.sort_index(), reference.metrics.sort_index())
    for metric in reference.metrics.index[:3]:
        got, ref = ens.reduce(metric).sort_index(), reference.reduce(metric).sort_index()
        assert got.index.equals(ref.index), metric
        for column in ref.columns:
            if ref[column].dtype.kind == "f":
                np.testing.assert_allclose(got[column], ref[column], rtol=1e-9, equal_nan=True)
            else:
                assert got[column].tolist() == ref[column].tolist(), (metric, column)


def test_workers_get_this_process_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A notebook imports cctviz from its folder ("" on its path): so do its workers."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", ["", *sys.path])
    paths = worker.environment()["PYTHONPATH"].split(os.pathsep)
    assert paths[0] == str(tmp_path)
    assert str(REPO) in paths
    assert worker.command()[-2:] == ["-m", "cctviz.ensemble.store.worker"]


class Noisy:
    """Metadata that prints, from Python and from C, when a worker unpickles it."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (_noise, ())


def _noise() -> str:
    print("a reader's print")
    os.write(1, b"a reader's printf\n")
    return "heard"


def test_what_a_reader_prints_goes_to_stderr_not_into_the_results(
    capfd: pytest.CaptureFixture[str],
) -> None:
    import queue

    todo = _items(2)
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    reading = worker.Worker(("mean", False), inbox)
    try:
        for index, item in enumerate(todo):
            item.metadata = {"noise": Noisy()}
            reading.send(worker.pack((index, item)))
        with deadline(60):
            answers = [inbox.get() for _ in range(3)]
    finally:
        reading.stop()
    assert [kind for _, kind, _ in answers] == ["ready", "result", "result"]
    for index, (_, _, (answered, rows)) in enumerate(answers[1:]):
        assert answered == index and isinstance(rows, ProfileRows)
        assert rows.meta["noise"] == "heard" and rows.meta["source"] == todo[index].source
    out, err = capfd.readouterr()
    said = err.splitlines()
    assert out == "" and said.count("a reader's print") == said.count("a reader's printf") == 2


# -- workers that die, stop or cannot start ----------------------------------------------------


def _source(result: ProfileRows | Skipped) -> str:
    return result.source if isinstance(result, Skipped) else str(result.meta["source"])


def _items(n: int) -> list[Item]:
    """``n`` region profiles (LULESH's: quick to read, as most files of an ensemble are)."""
    quick = [str(f) for f in _files() if "lulesh-strong-weak" in str(f)]
    assert len(quick) >= n, f"{SHARED_DATA} lacks thicket-tutorial/lulesh-strong-weak"
    return items(quick[:n])[0]


class Recorded(worker.Worker):
    """A worker the test can see (and kill)."""

    started: ClassVar[list[worker.Worker]] = []

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        Recorded.started.append(self)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[worker.Worker]]:
    Recorded.started = []
    monkeypatch.setattr(worker, "Worker", Recorded)
    yield Recorded.started
    # no worker left running, none unreaped (a zombie), none orphaned
    assert all(w.proc.returncode is not None for w in Recorded.started)
    assert _worker_children() == []


def _worker_children() -> list[int]:
    """This process's children that run a worker or are zombies."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        state, parent = stat.rsplit(")", 1)[1].split()[:2]
        if int(parent) == os.getpid() and (
            b"cctviz.ensemble.store.worker" in command or state == "Z"
        ):
            found.append(int(entry.name))
    return found


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """A TimeoutError if the block takes longer (a hung read_all fails instead of hanging)."""

    def late(*_: Any) -> None:
        raise TimeoutError(f"read_all still running after {seconds} s")

    before = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def test_a_killed_worker_costs_the_profile_it_read_and_nothing_hangs(
    recorded: list[worker.Worker],
) -> None:
    todo = _items(24)
    todo[15].metadata = {"callback": lambda: None}  # cannot be pickled: read here
    results: list[ProfileRows | Skipped] = []
    with deadline(120):
        for result in ingest.read_all(todo, "mean", 2, progress=False):
            results.append(result)
            if len(results) == 10:  # 4 read here, 6 by the workers
                os.kill(next(w for w in recorded if w.ready).pid, signal.SIGKILL)
    assert sorted(map(_source, results)) == sorted(i.source for i in todo)
    skipped = [r for r in results if isinstance(r, Skipped)]
    assert len(skipped) == 1, skipped
    assert skipped[0].reason.startswith("the worker reading it died (killed by SIGKILL)")
    assert len(recorded) == 3  # a new worker took the dead one's place


@pytest.mark.parametrize("how", ["closed", "interrupted"])
def test_stopping_early_kills_and_reaps_the_workers(
    recorded: list[worker.Worker], how: str
) -> None:
    reading = ingest.read_all(_items(30), "mean", 2, progress=False)
    with deadline(60):
        for _ in range(4):  # read here; the next comes from the workers
            next(reading)
        if how == "closed":  # the consumer stopped (an exception in it, a break)
            next(reading)
            reading.close()
        else:  # Ctrl-C while the workers are starting
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            signal.signal(signal.SIGALRM, signal.default_int_handler)
            with pytest.raises(KeyboardInterrupt):
                next(reading)
    assert len(recorded) == 2


def _no_memory(*_: Any, **__: Any) -> Any:
    raise OSError(12, "Cannot allocate memory")


CANNOT_START = {  # what is patched, and the reason the warning gives
    "frozen": (sys, "frozen", True, "this Python is a frozen application"),
    "no-popen": (subprocess, "Popen", _no_memory, "OSError: [Errno 12] Cannot allocate memory"),
    "dies-at-once": (
        worker, "command", lambda: [sys.executable, "-c", "raise SystemExit(3)"],
        "a worker process ended before it was ready (exit status 3; see its stderr)",
    ),
}  # fmt: skip


@pytest.mark.parametrize("why", list(CANNOT_START))
def test_where_workers_cannot_start_the_profiles_are_read_here_said_once(
    monkeypatch: pytest.MonkeyPatch, why: str
) -> None:
    target, name, value, reason = CANNOT_START[why]
    monkeypatch.setattr(target, name, value, raising=False)
    todo = _items(12)
    with deadline(60), pytest.warns(ingest.NoWorkersWarning) as warned:
        results = list(ingest.read_all(todo, "mean", 2, progress=False))
    assert [str(w.message) for w in warned] == [
        f"cctviz could not start worker processes to read the profiles ({reason}); "
        "the 8 left are read in this process"
    ]
    assert all(isinstance(r, ProfileRows) for r in results)
    assert sorted(map(_source, results)) == sorted(i.source for i in todo)


# -- progress ------------------------------------------------------------------------------------


class Terminal(io.StringIO):
    def isatty(self) -> bool:  # progress draws its line on a terminal only
        return True


def test_progress_shows_nothing_where_stderr_is_no_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    assert len(list(ingest.read_all(_items(6), "mean", 1, progress=True))) == 6
    assert capsys.readouterr() == ("", "")


def test_progress_on_a_terminal_counts_the_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    assert len(list(ingest.read_all(_items(6), "mean", 1, progress=False))) == 6
    assert terminal.getvalue() == ""
    assert len(list(ingest.read_all(_items(6), "mean", 1, progress=True))) == 6
    drawn = [line.strip() for line in terminal.getvalue().replace("\n", "\r").split("\r")]
    shown = [line for line in drawn if line]
    prefix = "cctviz: adding profiles — "
    stages = [line[len(prefix) :].split(":")[0] for line in shown]
    assert sorted(set(stages)) == ["reading profiles", "starting"], shown
    assert any(line.startswith(f"{prefix}reading profiles: 0 of 6") for line in shown), shown
    assert shown[-1].startswith(f"{prefix}reading profiles: 6 of 6"), shown
    assert "6/6 profiles [" in shown[-1]  # the adapter's stages for each profile: not shown
    assert drawn[-1] == ""  # done: the line is wiped
