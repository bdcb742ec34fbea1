"""``perf script`` output (cctviz/adapters/formats/perf.py) on files perf wrote
(tests/data/formats/perf/SOURCE.md): exact sample counts and periods, processes and threads as
ranks and threads, symbols, objects and source files, recursion as in the data."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

import cctviz
from cctviz.adapters.formats.source import FormatError

from .formats_util import DATA, at_roots, names, rows

PLAIN = DATA / "perf" / "two-processes.perf-script"
SRCLINE = DATA / "perf" / "two-processes-srcline.perf-script"
HEADER = re.compile(r"^(\S+)\s+(\d+)(?:/(\d+))?\s+[\d.]+:\s+(\d+)\s+cpu-clock")


def own(path: Path) -> tuple[int, float, dict[str, int]]:
    """Samples, summed periods and samples per thread, from the header lines alone."""
    samples, periods, per_thread = 0, [], {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = HEADER.match(line)
        if m:
            samples += 1
            periods.append(float(m[4]))
            tid = m[3] or m[2]
            per_thread[tid] = per_thread.get(tid, 0) + 1
    return samples, math.fsum(periods), per_thread


@pytest.mark.parametrize("path", [PLAIN, SRCLINE], ids=lambda p: p.name)
def test_samples_and_periods_add_up_to_the_files(path: Path) -> None:
    gf = cctviz.read(path)
    samples, period, per_thread = own(path)
    assert samples == 121 and len(per_thread) == 3  # sh and the two ./prog processes
    assert at_roots(gf, "samples (inc)") == samples
    assert at_roots(gf, "cpu-clock (inc)") == pytest.approx(period, rel=1e-9, abs=0)
    df = gf.dataframe
    assert "thread" in df.index.names
    got = df["samples"].groupby(level="thread").sum().to_dict()
    assert {str(k): int(v) for k, v in got.items()} == per_thread
    # pid/tid (perf script -F …,pid,tid): the process is the rank
    assert ("rank" in df.index.names) == (path == SRCLINE)


def test_frames_are_symbols_in_objects_and_recursion_stays() -> None:
    gf = cctviz.read(PLAIN)
    frames = {n.frame["name"]: n.frame for n, _ in rows(gf)}
    assert frames["leaf_add"]["module"] == "/tmp/fx/prog"
    assert "+0x" not in "".join(frames)  # offsets dropped: one node per function
    deepest = max(names(n).count("fib") for n, _ in rows(gf))
    assert deepest >= 5  # fib called from fib, as sampled


def test_srcline_gives_the_file_and_lines_true_the_line() -> None:
    gf = cctviz.read(SRCLINE)
    leaf = {n.frame.get("file") for n, _ in rows(gf) if n.frame["name"] == "leaf_add"}
    assert leaf == {"prog.c"}
    by_line = cctviz.read(SRCLINE, lines=True)
    lines = {int(n.frame["line"]) for n, _ in rows(by_line) if n.frame["name"] == "leaf_add"}
    assert lines <= {7, 8, 9, 10} and lines
    assert at_roots(by_line, "samples (inc)") == 121


def test_a_cut_sample_is_said(tmp_path: Path) -> None:
    text = PLAIN.read_bytes()
    cut = tmp_path / "cut.perf-script"
    blocks = text.split(b"\n\n")
    partial = b"\n".join(blocks[10].split(b"\n")[:2])  # a header and its first frame
    cut.write_bytes(b"\n\n".join(blocks[:10]) + b"\n\n" + partial + b"\n")
    with pytest.raises(FormatError, match=r"has no blank line after it: the file looks cut off"):
        cctviz.read(cut)


def test_a_foreign_line_in_a_sample_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.perf-script"
    bad.write_bytes(b"prog 1 1.0: 100 cpu-clock: \n\t 1f main+0x1 (/bin/p)\nnot a frame\n\n")
    with pytest.raises(FormatError, match=r"line 3: expected a frame .* found 'not a frame'"):
        cctviz.read(bad, format="perf")
