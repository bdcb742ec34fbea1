"""Folded stacks (cctviz/adapters/formats/folded.py) on files py-spy wrote
(tests/data/formats/folded/SOURCE.md): exact totals, py-spy's names, files and lines, its
thread and process frames as roots, recursion as in the data; and the errors and repairs."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import pytest

import cctviz
from cctviz.adapters.formats import folded
from cctviz.adapters.formats.source import FormatError

from .formats_util import DATA, at_roots, names, rows

FILES = sorted((DATA / "folded").glob("pyspy-*.txt"))


def own_total(path: Path) -> float:
    """The file's own total: the sum of the last field of every line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return math.fsum(float(line.rsplit(" ", 1)[1]) for line in lines if line.strip())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_total_at_the_roots_is_the_files(path: Path) -> None:
    gf = cctviz.read(path)
    assert gf.metadata["cctviz.format"] == "folded"
    assert at_roots(gf, "samples (inc)") == pytest.approx(own_total(path), rel=1e-9, abs=0)
    assert math.fsum(gf.dataframe["samples"]) == pytest.approx(own_total(path), rel=1e-9)
    assert json.loads(gf.metadata["cctviz.format_metrics"])["samples"] == [
        "exclusive",
        "samples (inc)",
        "samples",
    ]
    assert gf.metadata["cctviz.repairs"] == {}


def frame_text(node: object) -> str:
    """A node's frame as py-spy writes it."""
    f = node.frame  # type: ignore[attr-defined]
    return f"{f['name']} ({f['file']}:{f['line']})" if "file" in f.attrs else str(f["name"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_stack_has_its_count(path: Path) -> None:
    """Each line's count at its own node: the file's stacks, frames and all, come back."""
    expected: dict[tuple[str, ...], float] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        stack, count = line.rsplit(" ", 1)
        key = tuple(stack.split(";"))
        expected[key] = expected.get(key, 0.0) + float(count)
    gf = cctviz.read(path)
    got = {
        tuple(frame_text(n) for n in node.path()): row["samples"]
        for node, row in rows(gf)
        if row["samples"]
    }
    assert got == expected


def test_py_spy_threads_are_roots_with_names_files_and_lines() -> None:
    path = DATA / "folded" / "pyspy-threads.txt"
    gf = cctviz.read(path)
    roots = [r.frame for r in gf.graph.roots]
    assert {f["type"] for f in roots} == {"thread"}
    assert any(f["name"] == "thread (7869): side" for f in roots)
    leaf = [n.frame for n, _ in rows(gf) if n.frame["name"] == "leaf"]
    assert ("prog.py", 9) in {(f["file"], int(f["line"])) for f in leaf}
    # recursion as in the data: fib nested in fib as deep as the deepest stack says
    deepest = max(line.count(";fib (") for line in path.read_text().splitlines())
    assert max(names(n).count("fib") for n, _ in rows(gf)) == deepest >= 10


def test_py_spy_processes_are_roots() -> None:
    gf = cctviz.read(DATA / "folded" / "pyspy-subprocesses.txt")
    (root,) = gf.graph.roots
    assert root.frame["type"] == "process" and root.frame["name"].startswith("process 8048:")
    assert {c.frame["type"] for c in root.children} == {"process"}
    assert len(root.children) == 2  # the two children parent.py ran


def test_gzip_is_read_through(tmp_path: Path) -> None:
    path = tmp_path / "p.folded.gz"
    path.write_bytes(gzip.compress((DATA / "folded" / "pyspy-threads.txt").read_bytes()))
    gf = cctviz.read(path)
    assert at_roots(gf, "samples (inc)") == own_total(DATA / "folded" / "pyspy-threads.txt")


def test_metric_and_unit_name_a_weight(tmp_path: Path) -> None:
    path = tmp_path / "offcpu.folded"
    path.write_text("main;wait 1500\nmain;read 250.5\nmain 0\n")
    gf = cctviz.read(path, metric="off-CPU time", unit="us")
    assert json.loads(gf.metadata["cctviz.format_metrics"])["off-CPU time (inc)"] == [
        "inclusive",
        "off-CPU time",
        "us",
    ]
    assert at_roots(gf, "off-CPU time (inc)") == 1750.5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"main;a 1\nmain;b\n", r"line 2: 'main;b' has no count"),
        (b"main;a 1\nmain;b -3\n", r"line 2: the count '-3' is negative"),
        (b"main;a 1\nmain;b 1x\n", r"line 2: the count '1x' is not a number"),
        # an integer beyond any float: said, not an OverflowError from deep inside
        (b"main;a 1\nmain;b " + b"9" * 400 + b"\n", r"line 2: the count '9+\.\.\.' is neg"),
        (b"main;a 1\nmain;b 1e999\n", r"line 2: the count '1e999' is negative or not finite"),
        (
            b"main;a 1\nmain;b 1\nmain;c 4",
            r"line 3: the last line has no line end.*truncated='drop'",
        ),
    ],
)
def test_bad_lines_are_named(tmp_path: Path, text: bytes, message: str) -> None:
    path = tmp_path / "bad.folded"
    path.write_bytes(text)
    with pytest.raises(FormatError, match=message):
        cctviz.read(path, format="folded")


def test_a_cut_last_line_may_be_dropped_and_is_said(tmp_path: Path) -> None:
    path = tmp_path / "cut.folded"
    path.write_bytes(b"main;a 1\nmain;b 2\nmain;c 4")
    gf = cctviz.read(path, truncated="drop")
    assert at_roots(gf, "samples (inc)") == 3.0
    assert gf.metadata["cctviz.repairs"] == {
        "a last line without a line end (a file cut off), dropped": 1
    }


def test_names_that_are_not_utf8_stay_distinct_and_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "latin1.folded"
    path.write_bytes(b"main;caf\xe9 2\nmain;caf\xe8 3\nmain;;x 1\n")
    gf = cctviz.read(path)
    got = {names(n): row["samples"] for n, row in rows(gf) if row["samples"]}
    assert got == {
        ("main", "caf\\xe9"): 2.0,
        ("main", "caf\\xe8"): 3.0,
        ("main", "[empty]", "x"): 1.0,
    }
    assert gf.metadata["cctviz.repairs"] == {
        "names that were not UTF-8: their bytes kept as \\xNN escapes": 2,
        f"empty frame names (between two ';'), named {folded.EMPTY!r}": 1,
    }


def test_past_the_stack_cache_the_stacks_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stacks beyond the remembered text (a huge collapsed file) are walked: same tree."""
    from cctviz.adapters.formats import stacks

    path = DATA / "folded" / "pyspy-subprocesses.txt"
    whole = cctviz.read(path)
    monkeypatch.setattr(stacks, "CACHE_BYTES", 1000)
    walked = cctviz.read(path)
    assert [names(n) for n, _ in rows(walked)] == [names(n) for n, _ in rows(whole)]
    assert walked.dataframe["samples (inc)"].tolist() == whole.dataframe["samples (inc)"].tolist()


def test_stacks_interned_in_small_batches_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """New stacks are interned a batch at a time (Stacks.texts): batches of 3 stacks, each
    split across levels and batches, give the same tree, order and values as one batch."""
    path = DATA / "folded" / "pyspy-subprocesses.txt"
    whole = cctviz.read(path)
    monkeypatch.setattr(folded, "BATCH", 3)
    small = cctviz.read(path)
    assert [names(n) for n, _ in rows(small)] == [names(n) for n, _ in rows(whole)]
    for column in ("samples", "samples (inc)"):
        assert small.dataframe[column].tolist() == whole.dataframe[column].tolist()
    assert [n._hatchet_nid for n in small.dataframe.index] == list(range(len(small.dataframe)))
