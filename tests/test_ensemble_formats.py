"""``Ensemble.add`` takes the files ``cctviz.read`` reads (folded stacks, callgrind, speedscope,
pprof, Cube, trace events…) as it takes Caliper's: named alone (their content tells), or met in a
folder walk (their names tell), in worker processes too; each run's total is the reader's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import cctviz

from .profiles import mpi_scaling_files

FORMATS = Path(__file__).parent / "data" / "formats"
FILES = {
    "folded": FORMATS / "folded" / "pyspy-threads.txt",
    "callgrind": FORMATS / "callgrind" / "fib.callgrind.out",
    "pprof": FORMATS / "pprof" / "go-cpu.pb.gz",
    "cube": FORMATS / "cube" / "scorep-cpi.cubex",
}
SPEEDSCOPE = FORMATS / "speedscope" / "py-spy-threads.speedscope.json"  # `time`: samples'
TRACE = FORMATS / "trace-events" / "node-worker-threads.json"  # its `time`: durations


def _run_total(gf: Any, metric: str) -> float:
    """What the store keeps of a run's total: each root's value over its ranks and threads
    combined by the add's reducer (the mean), summed over the roots."""
    df = gf.dataframe
    values = df[metric].groupby(level=0, sort=False).mean() if df.index.nlevels > 1 else df[metric]
    return float(sum(v for node, v in values.items() if not node.parents))


@pytest.mark.parametrize("workers", [1, 2])
def test_files_of_other_formats_are_added_with_the_readers_numbers(
    tmp_path: Path, workers: int
) -> None:
    ens = cctviz.Ensemble(tmp_path / "s")
    added = ens.add([str(f) for f in FILES.values()], workers=workers, progress=False)
    assert ens.skipped.empty and added == len(FILES)
    id_of = {source: pid for pid, source in ens.profiles["source"].items()}
    kinds = ens.metrics["kind"]
    for name, path in FILES.items():
        gf = cctviz.read(path)
        metric = next(m for m in gf.inc_metrics if not str(m).endswith("(point)"))
        assert kinds[metric] == "inclusive", (name, metric)  # as the format means it
        got = ens.select(id_of[str(path)]).totals(metric).iloc[0]
        assert got == pytest.approx(_run_total(gf, metric), rel=1e-9), name
        assert np.isfinite(got) and got > 0, name


def test_a_metric_meaning_otherwise_than_the_stores_is_refused(tmp_path: Path) -> None:
    # py-spy's sampled `time` is exclusive (a sample's weight); a trace's `time` is a span's
    # duration, inclusive: one store cannot sum both as one metric
    ens = cctviz.Ensemble(tmp_path / "s")
    assert ens.add(str(SPEEDSCOPE), progress=False) == 1
    sampled = cctviz.read(SPEEDSCOPE)
    assert ens.totals("time (inc)").iloc[0] == pytest.approx(
        _run_total(sampled, "time (inc)"), 1e-9
    )
    assert ens.add(str(TRACE), progress=False) == 0
    (reason,) = ens.skipped["reason"]
    assert "'time' is inclusive, but 'time' is exclusive in this store" in reason
    assert ens.metrics.loc["time", "kind"] == "exclusive"
    # in one add, the first profile decides, the later one is refused
    both = cctviz.Ensemble(tmp_path / "both")
    assert both.add([str(TRACE), str(SPEEDSCOPE)], progress=False) == 1
    assert both.metrics.loc["time", "kind"] == "inclusive"
    alone = cctviz.Ensemble(tmp_path / "trace")
    assert alone.add(str(TRACE), progress=False) == 1
    gf = cctviz.read(TRACE)
    assert alone.totals("time").iloc[0] == pytest.approx(_run_total(gf, "time"), rel=1e-9)


def test_a_folder_walk_takes_files_by_their_names(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    (folder / "nightly").mkdir(parents=True)
    for path in (SPEEDSCOPE, FILES["pprof"], FILES["callgrind"]):
        shutil.copy(path, folder / "nightly" / path.name)
    shutil.copy(mpi_scaling_files()[0], folder / "run.cali")
    (folder / "notes.txt").write_text("not a profile\n")  # no format by its name: not opened
    (folder / "results.json").write_text('{"figure_of_merit": 3}')  # not Caliper's, not ours
    ens = cctviz.Ensemble(tmp_path / "s")
    assert ens.add(str(folder), progress=False) == 4
    assert {Path(s).name for s in ens.profiles["source"]} == {
        "py-spy-threads.speedscope.json",
        "go-cpu.pb.gz",
        "fib.callgrind.out",
        "run.cali",
    }
    assert list(ens.skipped["source"]) == [str(folder / "results.json")]


def test_a_file_no_reader_takes_is_skipped_with_the_reason(tmp_path: Path) -> None:
    odd = tmp_path / "picture.png"
    odd.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    ens = cctviz.Ensemble(tmp_path / "s")
    assert ens.add(str(odd), progress=False) == 0
    (reason,) = ens.skipped["reason"]
    assert "no reader for it" in reason and "folded stacks" in reason


def test_each_files_head_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cctviz.adapters.formats import read as formats

    folder = tmp_path / "runs"
    folder.mkdir()
    for i in range(3):  # (each run its own content: the same bytes are one profile)
        (folder / f"run{i}.folded").write_text(f"main;solve {i + 1}\nmain;io 2\n")
    for name in ("go-cpu.pb.gz", "gperftools-cpu.pb.gz"):
        shutil.copy(FORMATS / "pprof" / name, folder / name)
    alone = tmp_path / "alone.data"  # no suffix says it: its content does
    shutil.copy(FILES["callgrind"], alone)
    heads: list[str] = []
    real = formats.head

    def counted(path: Path, *args: Any) -> bytes:
        heads.append(Path(path).name)
        return real(path, *args)

    monkeypatch.setattr(formats, "head", counted)
    ens = cctviz.Ensemble(tmp_path / "s")
    assert ens.add([str(folder), str(alone)], workers=1, progress=False) == 6, ens.skipped
    assert sorted(heads) == sorted([p.name for p in folder.iterdir()] + [alone.name])


def test_a_file_its_name_says_gets_its_readers_error(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    shutil.copy(FILES["folded"], folder / "good.folded")
    (folder / "bad.folded").write_text("main;a 3\nmain;b -5\n")  # no sniff takes it
    ens = cctviz.Ensemble(tmp_path / "s")
    assert ens.add([str(folder)], progress=False) == 1
    (reason,) = ens.skipped["reason"]
    assert "bad.folded, line 2: the count '-5' is negative" in reason, reason
    assert ens.add(str(folder / "bad.folded"), progress=False) == 0  # named alone: the same
    assert "line 2: the count '-5' is negative" in ens.skipped["reason"].iloc[-1]
