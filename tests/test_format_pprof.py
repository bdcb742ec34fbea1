"""The pprof reader (cctviz.adapters.formats.pprof) on profiles Go's runtime/pprof, gperftools
(converted by go tool pprof) wrote (tests/data/formats/pprof/SOURCE.md): each sample type
exclusive with its unit, totals equal to the sum of the file's sample values, names, files
and lines, inlined frames, labels as ranks/threads, and hostile files said, never a wrong total."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path
from typing import Any

import pytest

from cctviz.adapters.formats import pprof, profile_pb2
from cctviz.adapters.formats.source import FormatError, head
from cctviz.adapters.formats.untrusted import REPAIRS

from .json_formats import DATA, cut, paths, pins, roots

HERE = DATA / "pprof"
GO_CPU, GO_HEAP = HERE / "go-cpu.pb.gz", HERE / "go-heap.pb.gz"
GPERF, CPPBENCH = HERE / "gperftools-cpu.pb.gz", HERE / "cppbench-converted.pb.gz"
LEGACY = HERE / "cppbench.cpu.pb"  # gperftools' own legacy binary format, not profile.proto
FILES = [GO_CPU, GO_HEAP, GPERF, CPPBENCH]


def parsed(path: Path) -> Any:
    profile = profile_pb2.Profile()
    profile.ParseFromString(gzip.decompress(path.read_bytes()))
    return profile


def write(tmp_path: Path, profile: Any, name: str = "p.pb.gz") -> Path:
    path = tmp_path / name
    path.write_bytes(gzip.compress(profile.SerializeToString()))
    return path


def tiny(labels: list[list[tuple[str, str | int]]] | None = None) -> Any:
    """f → g (g inlined into f's location 2) and f alone; two sample types."""
    p = profile_pb2.Profile()
    p.string_table.extend(["", "samples", "count", "cpu", "nanoseconds", "f", "g", "a.go"])
    p.sample_type.add(type=1, unit=2)
    p.sample_type.add(type=3, unit=4)
    p.function.add(id=1, name=5, filename=7, start_line=10)
    p.function.add(id=2, name=6, filename=7, start_line=20)
    p.location.add(id=1, line=[profile_pb2.Line(function_id=1, line=11)])
    p.location.add(id=2, line=[profile_pb2.Line(function_id=2, line=21),
                               profile_pb2.Line(function_id=1, line=12)])  # fmt: skip
    for k, stack in enumerate([[2], [1], [2]]):
        sample = p.sample.add(location_id=stack, value=[1, 10 * (k + 1)])
        for key, value in (labels or [[], [], []])[k]:
            p.string_table.append(key)
            kwargs: dict[str, Any] = {"key": len(p.string_table) - 1}
            if isinstance(value, int):
                kwargs["num"] = value
            else:
                p.string_table.append(value)
                kwargs["str"] = len(p.string_table) - 1
            sample.label.add(**kwargs)
    return p


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_totals_are_the_files_own(path: Path) -> None:
    raw = parsed(path)
    gf = pprof.read(path)
    types = [raw.string_table[t.type] for t in raw.sample_type]
    for j, name in enumerate(types):
        total = sum(s.value[j] for s in raw.sample)  # the file's own total, independently
        assert total > 0
        assert roots(gf, f"{name} (inc)") == {(): pytest.approx(total, rel=1e-9)}
        unit = raw.string_table[raw.sample_type[j].unit]
        assert pins(gf)[name] == ["exclusive", f"{name} (inc)", unit]
    assert gf.metadata[REPAIRS] == {}
    assert pprof.sniff(head(path), path)


def test_kinds_and_units_as_go_writes_them() -> None:
    assert pins(pprof.read(GO_CPU))["cpu"][2] == "nanoseconds"
    heap = pins(pprof.read(GO_HEAP))
    assert heap["alloc_space"] == ["exclusive", "alloc_space (inc)", "bytes"]
    assert heap["inuse_objects"][2] == "count"


def test_names_files_lines_and_inlined_frames_come_through() -> None:
    gf = pprof.read(GO_CPU)
    found = paths(gf, "cpu (inc)")
    # main.inlined was inlined into main.outer: the location lists both, outermost first
    assert ("runtime.main", "main.main", "main.outer", "main.inlined", "main.leaf") in found
    assert any(p[-2:] == ("main.fib", "main.fib") for p in found)  # recursion
    frames = {n.frame["name"]: n.frame for n in gf.dataframe.index}
    assert frames["main.leaf"]["file"].endswith("main.go")
    assert frames["main.leaf"].get("line") is None  # Go 1.19 writes no function start_line (s=0)
    by_line = pprof.read(GO_CPU, lines=True)
    leaf_lines = {
        int(n.frame["line"]) for n in by_line.dataframe.index if n.frame["name"] == "main.leaf"
    }
    assert leaf_lines <= {14, 15, 16} and len(leaf_lines) > 1
    assert roots(by_line, "cpu (inc)") == roots(gf, "cpu (inc)")
    gperf = {n.frame["name"]: n.frame for n in pprof.read(GPERF).dataframe.index}
    assert gperf["fib"]["file"].endswith("work.c") and "leaf" in gperf and "outer" in gperf


def test_unsymbolised_locations_are_named_by_address() -> None:
    gf = pprof.read(CPPBENCH)
    names = {n.frame["name"] for n in gf.dataframe.index}
    assert all(name.startswith("0x") for name in names)
    modules = {n.frame.get("module") for n in gf.dataframe.index}
    assert any(m and "libc" in m for m in modules)


def test_inlined_frames_of_a_written_profile(tmp_path: Path) -> None:
    gf = pprof.read(write(tmp_path, tiny()))
    assert paths(gf, "cpu") == {("f",): 20, ("f", "g"): 40}
    assert roots(gf, "samples (inc)") == {(): 3}


def test_labels_become_ranks_and_threads(tmp_path: Path) -> None:
    labels: list[list[tuple[str, str | int]]] = [
        [("pid", 7), ("thread", "main")], [("pid", 7), ("thread", "worker")], [("pid", 8)]
    ]  # fmt: skip
    gf = pprof.read(write(tmp_path, tiny(labels)))
    assert list(gf.dataframe.index.names) == ["node", "rank", "thread"]
    assert roots(gf, "cpu (inc)") == {(7, 0): 10, (7, 1): 20, (8, 0): 30}
    assert gf.metadata["cctviz.label_names"] == {"thread": {0: "main", 1: "worker"}}
    flat = pprof.read(write(tmp_path, tiny(labels)), rank_label=None, thread_label=None)
    assert list(flat.dataframe.index.names) == ["node"]


def test_unknown_options_are_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"accepts \['limit', 'lines', 'rank_label'"):
        pprof.read(GO_CPU, colour=1)


def test_truncated_files_are_said(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="gzip stream is damaged"):
        pprof.read(cut(GPERF, tmp_path / "cut.pb.gz"))
    raw = tmp_path / "raw.pb"
    raw.write_bytes(gzip.decompress(GO_HEAP.read_bytes())[:-7])
    with pytest.raises(FormatError, match="not a readable protobuf"):
        pprof.read(raw)


def test_a_gzip_bomb_is_said(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.pb.gz"
    bomb.write_bytes(gzip.compress(b"\x0a\x04\x08\x01\x10\x02" + b"\0" * (4 << 20)))
    with pytest.raises(FormatError, match="gzip bomb"):
        pprof.read(bomb, limit=1 << 20)


def test_other_formats_are_not_claimed_and_refused() -> None:
    others = [
        f
        for f in DATA.glob("*/*")
        if f.parent.name != "pprof" and f.suffix != ".md" and f.is_file()
    ]
    assert len(others) > 20
    for other in [LEGACY, *others]:
        assert not pprof.sniff(head(other), other), other
    with pytest.raises(FormatError, match=r"not a readable protobuf|no sample_type"):
        pprof.read(LEGACY)


def test_string_indices_out_of_range_are_said(tmp_path: Path) -> None:
    p = tiny()
    p.function[1].name = 99
    with pytest.raises(
        FormatError, match="function 2 names string 99, but the string table holds 8"
    ):
        pprof.read(write(tmp_path, p))
    p = tiny()
    p.string_table[0] = "x"
    with pytest.raises(FormatError, match=r"string_table\[0\]"):
        pprof.read(write(tmp_path, p))


def test_broken_references_are_said(tmp_path: Path) -> None:
    p = tiny()
    p.sample[0].location_id[0] = 42
    with pytest.raises(FormatError, match="location 42, which is none"):
        pprof.read(write(tmp_path, p))
    p = tiny()
    p.location[0].line[0].function_id = 9
    with pytest.raises(FormatError, match="names function 9"):
        pprof.read(write(tmp_path, p))
    p = tiny()
    p.sample[1].value.append(5)
    with pytest.raises(FormatError, match="sample 1 has 3 values for 2 sample types"):
        pprof.read(write(tmp_path, p))
    p = tiny()
    p.location.add(id=1)
    with pytest.raises(FormatError, match="location id 1 is zero or repeated"):
        pprof.read(write(tmp_path, p))


def test_a_stack_that_repeats_a_location_is_recursion_not_a_cycle(tmp_path: Path) -> None:
    p = tiny()
    p.sample[0].location_id[:] = [1, 1, 1] * 100  # pprof locations name no other location
    gf = pprof.read(write(tmp_path, p))
    assert roots(gf, "cpu (inc)") == {(): 60}
    p.sample[0].location_id[:] = [1] * 5000  # 5,000 frames deep: read, every level kept
    gf = pprof.read(write(tmp_path, p))
    assert len(gf.dataframe) >= 5000 and roots(gf, "cpu (inc)") == {(): 60}  # (+ other samples)


def test_odd_names_are_repaired_and_counted(tmp_path: Path) -> None:
    p = tiny()
    p.string_table[3] = "samples"  # two sample types named "samples"
    p.string_table[5] = "f" * 5000
    p.function[1].name = 0  # no name, no system name
    gf = pprof.read(write(tmp_path, p))
    assert set(pins(gf)) >= {"samples", "samples #2"}
    assert gf.metadata[REPAIRS] == {
        "functions without a name named by their address": 1,
        "names longer than 4096 characters cut": 1,
        "sample types with an empty or repeated name renamed": 1,
    }
    assert roots(gf, "samples #2 (inc)") == {(): 60}


def test_a_missing_protobuf_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cctviz.adapters.formats.profile_pb2", None)
    with pytest.raises(ImportError, match=r"pip install 'cctviz\[formats\]'"):
        pprof.read(GO_CPU)


def test_text_that_is_not_utf8_is_said(tmp_path: Path) -> None:
    p = tiny()
    raw = p.SerializeToString().replace(b"a.go", b"a\xff.g")
    path = tmp_path / "bad.pb"
    path.write_bytes(raw)
    with pytest.raises(FormatError, match="not a readable protobuf"):
        pprof.read(path)
