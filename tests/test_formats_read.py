"""``cctviz.read`` (cctviz/adapters/formats/read.py): the format from the file's content, clear
errors for what it cannot read, and ``cctviz.CCT(path)``: the kinds as the format means them
(rule ``format``), the view's inclusive values the reader's own."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pytest

import cctviz
from cctviz.adapters.formats import read as formats
from cctviz.adapters.formats.source import FormatError, head

from .formats_util import DATA

DOCS = Path(__file__).resolve().parents[1] / "docs" / "formats.md"
FIXTURES = {
    "folded": DATA / "folded" / "pyspy-threads.txt",
    "perf": DATA / "perf" / "two-processes.perf-script",
    "callgrind": DATA / "callgrind" / "fib.callgrind.out",
}


@pytest.mark.parametrize("name", list(FIXTURES))
def test_the_format_is_found_from_the_content(tmp_path: Path, name: str) -> None:
    renamed = tmp_path / "profile.data"  # no suffix says which
    renamed.write_bytes(FIXTURES[name].read_bytes())
    assert name == formats.detect(renamed).NAME
    assert cctviz.read(renamed).metadata["cctviz.format"] == name


def test_every_format_module_keeps_the_protocol() -> None:
    for module in formats.modules():
        assert isinstance(module.NAME, str) and module.NAME in formats.names()
        assert isinstance(module.SUFFIXES, tuple) and all(
            s.startswith(".") for s in module.SUFFIXES
        )
        assert callable(module.sniff) and callable(module.read)
        others = [p for n, p in FIXTURES.items() if n != module.NAME]
        assert not any(module.sniff(p.read_bytes()[:65536], p) for p in others)


def test_what_cannot_be_read_is_said(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"no such profile file: '.*nothing.folded'"):
        cctviz.read(tmp_path / "nothing.folded")
    known = ", ".join(repr(n) for n in formats.names())
    assert "'folded'" in known and "'pprof'" in known and "'speedscope'" in known
    with pytest.raises(
        ValueError, match=re.escape(f"unknown format 'flame'; cctviz.read knows {known}")
    ):
        cctviz.read(FIXTURES["folded"], format="flame")
    with pytest.raises(
        TypeError,
        match=r"option\(s\) 'metrics' \(did you mean 'metric'\?\); it accepts 'metric', 'unit'",
    ):
        cctviz.read(FIXTURES["folded"], metrics="x")
    png = tmp_path / "picture.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10)
    with pytest.raises(FormatError) as error:
        cctviz.read(png)
    message = str(error.value)
    assert str(png) in message and "hatchet.GraphFrame.from_hpctoolkit" in message
    for name in formats.names():
        assert re.search(rf"\b{name} \(", message), name
    assert "()" not in message  # a folder format says what its folder holds, not its suffixes
    assert "hpctoolkit-db (a folder with meta.db)" in message
    assert "tau (a folder of profile.<node>.<context>.<thread> files)" in message
    with pytest.raises(FormatError, match="does not know this file's format"):
        cctviz.read(tmp_path)  # a folder no format takes (TAU's and HPCToolkit's are taken)


NOT_SNIFFED = {  # what no sniff takes, each with the error of the reader its suffix names
    "run.folded": (b"main;a 3\nmain;b -5\n", r"run.folded, line 2: the count '-5' is negative"),
    "run.collapsed.gz": (gzip.compress(b"main;a 3\nmain;b x\n"), r"line 2: the count 'x' is not"),
    "node.cpuprofile": (b'{"nodes": [', r"not valid JSON at line 1 column 12 \(the file ends"),
    "go.pb.gz": (gzip.compress(b"not a protobuf at all"), "not a readable protobuf"),
    "fib.trace.json": (b"[{]", "not valid JSON at line 1 column 3"),
}


@pytest.mark.parametrize("name", list(NOT_SNIFFED))
def test_a_file_its_suffix_names_gets_that_readers_error(tmp_path: Path, name: str) -> None:
    content, said = NOT_SNIFFED[name]
    path = tmp_path / name
    path.write_bytes(content)
    assert not any(m.sniff(head(path), path) for m in formats.modules())
    with pytest.raises(FormatError, match=said) as error:
        cctviz.read(path)
    assert not isinstance(error.value, formats.UnknownFormatError)
    # a suffix other files have as often says nothing alone: the message lists what was tried
    vague = tmp_path / "notes.txt"
    vague.write_bytes(NOT_SNIFFED["run.folded"][0])
    with pytest.raises(formats.UnknownFormatError, match=r"folded \(\.folded, \.collapsed"):
        cctviz.read(vague)


@pytest.mark.parametrize(
    ("name", "owner"),
    [
        ("a.speedscope.json", "speedscope"),
        ("a.trace.json", "trace-events"),
        ("a.folded.gz", "folded"),
        ("perf.data.txt", "perf"),
        ("callgrind.out.4242", "callgrind"),
        ("a.PB.GZ", "pprof"),
        ("a.txt", None),
        ("a.json", None),
        ("report.sqlite3", None),
        ("a.out", None),
    ],
)
def test_the_format_a_name_says_on_its_own(name: str, owner: str | None) -> None:
    found = formats.owner(Path(name))
    assert (found.NAME if found is not None else None) == owner


@pytest.mark.parametrize("name", list(FIXTURES))
def test_the_view_reads_each_metric_as_the_format_means_it(name: str) -> None:
    path = FIXTURES[name]
    gf = cctviz.read(path)
    w = cctviz.CCT(str(path))
    assert w.source == str(path)
    kinds = w.metric_kinds
    for metric in list(gf.exc_metrics) + list(gf.inc_metrics):
        assert kinds.loc[metric, "rule"] == "format", metric
    for exc, inc in zip(gf.exc_metrics, gf.inc_metrics, strict=True):
        assert kinds.loc[exc, "kind"] == "exclusive" and kinds.loc[inc, "kind"] == "inclusive"
        assert w.table.metrics[exc].partner == inc
    assert not any("derived" in m for m in w.table.metrics)  # the reader's partners are used
    assert cctviz.CCT(gf).metric_kinds.loc[gf.inc_metrics[0], "rule"] == "format"
    units = {"folded": "samples", "perf": "samples", "callgrind": "instructions"}[name]
    assert w.units[gf.inc_metrics[0]] == units  # the legend says what the numbers count


@pytest.mark.parametrize("name", ["folded", "callgrind"])
def test_the_views_inclusive_values_are_the_readers(name: str) -> None:
    gf = cctviz.read(FIXTURES[name])
    w = cctviz.CCT(Path(FIXTURES[name]))
    df = gf.dataframe
    for inc in gf.inc_metrics:
        want = np.asarray([df.loc[node, inc] for node in w.table.nodes], dtype=float)
        assert np.allclose(w.table.metrics[inc].values, want, rtol=1e-12, atol=0)


def test_a_path_swaps_the_data_of_a_view() -> None:
    w = cctviz.CCT(FIXTURES["folded"])
    w.data = FIXTURES["callgrind"]
    assert "Ir (inc)" in w.table.metrics


def test_the_docs_code_runs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(compile(block, str(DOCS), "exec"), {})


def test_a_damaged_format_pin_is_said() -> None:
    gf = cctviz.read(FIXTURES["folded"])
    gf.metadata = {**gf.metadata, "cctviz.format_metrics": "{not json"}
    with pytest.raises(ValueError, match=r"metadata 'cctviz.format_metrics' .* is not"):
        cctviz.CCT(gf)
