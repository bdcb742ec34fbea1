"""The V8 .cpuprofile reader (cctviz.adapters.formats.cpuprofile) on profiles node --cpu-prof
and Chrome wrote (tests/data/formats/cpuprofile/SOURCE.md): sample counts and microseconds,
exclusive, totals equal to the file's own, names, files and 1-based lines, recursion, and
hostile node trees and sample lists said or repaired and counted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cctviz.adapters.formats import cpuprofile
from cctviz.adapters.formats.source import FormatError
from cctviz.adapters.formats.untrusted import REPAIRS

from .json_formats import DATA, cut, paths, pins, roots

HERE = DATA / "cpuprofile"
NODE = HERE / "node-cpu-prof.cpuprofile"
CHROME = HERE / "chrome-65-simple.cpuprofile"


def write(tmp_path: Path, doc: Any) -> Path:
    path = tmp_path / "p.cpuprofile"
    path.write_text(json.dumps(doc))
    return path


def node(i: int, name: str, children: list[int] = [], line: int = 0) -> dict[str, Any]:  # noqa: B006
    frame = {"functionName": name, "scriptId": "1", "url": "a.js", "lineNumber": line}
    return {"id": i, "callFrame": {**frame, "columnNumber": 0}, "children": children}


@pytest.mark.parametrize("path", [NODE, CHROME], ids=["node", "chrome"])
def test_totals_are_the_files_own(path: Path) -> None:
    raw = json.loads(path.read_text())
    assert min(raw["timeDeltas"]) >= 0  # so the file's own total is simply:
    first = raw["startTime"] + raw["timeDeltas"][0]
    gf = cpuprofile.read(path)
    assert roots(gf, "time (inc)") == {(): pytest.approx(raw["endTime"] - first, rel=1e-9)}
    assert roots(gf, "samples (inc)") == {(): len(raw["samples"])}
    assert pins(gf)["time"] == ["exclusive", "time (inc)", "us"]
    assert gf.metadata[REPAIRS] == {}
    assert list(gf.dataframe.index.names) == ["node"]


def test_names_files_lines_and_recursion_come_through() -> None:
    gf = cpuprofile.read(NODE)
    frames = {n.frame["name"]: n.frame for n in gf.dataframe.index}
    assert frames["leaf"]["file"].endswith("work.js") and int(frames["leaf"]["line"]) == 3
    assert "(root)" in frames and "(program)" in frames and frames["(root)"].get("line") is None
    fib = [p for p in paths(gf, "samples (inc)") if p[-2:] == ("fib", "fib")]
    assert fib  # fib called by fib, as sampled
    chrome = paths(cpuprofile.read(CHROME), "samples")
    raw = json.loads(CHROME.read_text())
    assert sum(chrome.values()) == len(raw["samples"])
    assert ("(root)", "(anonymous)", "a", "b", "d") in chrome  # an empty functionName


def test_negative_deltas_are_moved_and_counted(tmp_path: Path) -> None:
    doc = {
        "nodes": [node(1, "(root)", [2, 3]), node(2, "f"), node(3, "g")],
        "startTime": 100,
        "endTime": 200,
        "samples": [2, 3, 2, 3],
        "timeDeltas": [10, 20, -5, 30],  # times 110, 130, 125 (→ 130), 155
    }
    gf = cpuprofile.read(write(tmp_path, doc))
    assert paths(gf, "time") == {("(root)",): 0, ("(root)", "f"): 20 + 25, ("(root)", "g"): 0 + 45}
    assert roots(gf, "time (inc)") == {(): 200 - 110}
    assert gf.metadata[REPAIRS] == {"samples timed before the previous one moved to its time": 1}


def test_hit_counts_without_samples(tmp_path: Path) -> None:
    nodes = [node(1, "(root)", [2]), node(2, "f")]
    nodes[1]["hitCount"] = 7
    gf = cpuprofile.read(write(tmp_path, {"nodes": nodes, "startTime": 0, "endTime": 1}))
    assert paths(gf, "samples (inc)") == {("(root)",): 7, ("(root)", "f"): 7}
    assert list(pins(gf)) == ["samples", "samples (inc)"]


def test_hostile_files_are_said(tmp_path: Path) -> None:
    good = {"startTime": 0, "endTime": 9, "samples": [2], "timeDeltas": [1]}
    cases = {
        r"nodes \[2, 3\] are in a cycle": [node(1, "r"), node(2, "a", [3]), node(3, "b", [2])],
        "node 2 has two parents": [node(1, "r", [2]), node(3, "b", [2]), node(2, "a")],
        "names a child or parent 9": [node(1, "r", [9]), node(2, "a")],
        "repeated": [node(1, "r"), node(1, "a")],
    }
    for message, nodes in cases.items():
        with pytest.raises(FormatError, match=message):
            cpuprofile.read(write(tmp_path, {"nodes": nodes, **good}))
    nodes = [node(1, "r", [2]), node(2, "a")]
    samples = {
        "samples\\[0\\] is 5, which is no node": {**good, "samples": [5]},
        "1 samples but 2 timeDeltas": {**good, "timeDeltas": [1, 2]},
        "timeDeltas\\[0\\] is 'x'": {**good, "timeDeltas": ["x"]},
        "'startTime' and 'endTime' must be numbers": {**good, "endTime": None},
    }
    for message, rest in samples.items():
        with pytest.raises(FormatError, match=message):
            cpuprofile.read(write(tmp_path, {"nodes": nodes, **rest}))
    with pytest.raises(FormatError, match="legacy 'head' form"):
        cpuprofile.read(HERE / "node-10-legacy-head.cpuprofile")
    with pytest.raises(FormatError, match="cut short"):
        cpuprofile.read(cut(NODE, tmp_path / "cut.cpuprofile"))
    with pytest.raises(FormatError, match="no list of 'nodes'"):
        cpuprofile.read(DATA / "trace-events" / "speedscope-simple-object.json")
    with pytest.raises(TypeError, match=r"accepts \['limit'\]"):
        cpuprofile.read(NODE, thread=1)


def test_sniff_claims_cpuprofiles_only() -> None:
    for path in sorted(DATA.rglob("*")):
        if path.is_file() and path.name != "SOURCE.md":
            claimed = path.parent.name == "cpuprofile" and "legacy" not in path.name
            assert cpuprofile.sniff(path.read_bytes()[:65536], path) == claimed, path
