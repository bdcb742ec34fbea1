"""The speedscope reader (cctviz.adapters.formats.speedscope) on files py-spy and speedscope
wrote (tests/data/formats/speedscope/SOURCE.md): totals equal to the file's own, exclusive
sample weights and inclusive evented spans, one thread per profile, and hostile files said
or repaired and counted."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import pytest

from cctviz.adapters.formats import speedscope
from cctviz.adapters.formats.source import FormatError
from cctviz.adapters.formats.untrusted import REPAIRS

from .json_formats import DATA, cut, paths, pins, roots

HERE = DATA / "speedscope"
PYSPY = HERE / "py-spy-threads.speedscope.json"


def write(tmp_path: Path, doc: Any, name: str = "p.speedscope.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def doc(*profiles: dict[str, Any], frames: int = 3) -> dict[str, Any]:
    return {
        "$schema": "https://www.speedscope.app/file-format-schema.json",
        "shared": {"frames": [{"name": f"f{i}", "file": "x.py", "line": i} for i in range(frames)]},
        "profiles": list(profiles),
    }


def sampled(samples: list[list[int]], weights: list[float], unit: str = "seconds") -> dict:
    return {"type": "sampled", "name": "s", "unit": unit, "samples": samples, "weights": weights}


def test_py_spy_threads_total_exactly_and_keep_names_files_and_recursion() -> None:
    raw = json.loads(PYSPY.read_text())
    gf = speedscope.read(PYSPY)
    by_thread = roots(gf, "time (inc)")
    for thread, profile in enumerate(raw["profiles"]):
        assert by_thread[(thread,)] == pytest.approx(math.fsum(profile["weights"]), rel=1e-9)
    counts = roots(gf, "samples (inc)")
    assert sum(counts.values()) == sum(len(p["samples"]) for p in raw["profiles"])
    assert pins(gf)["time"] == ["exclusive", "time (inc)", "s"]
    assert pins(gf)["samples"] == ["exclusive", "samples (inc)", "samples"]
    assert list(gf.dataframe.index.names) == ["node", "thread"]
    names = gf.metadata["cctviz.threads"]
    assert any("MainThread" in n for n in names.values()) and any(
        "worker" in n for n in names.values()
    )
    fib = [n for n in gf.dataframe.index.get_level_values("node") if n.frame["name"] == "fib"]
    assert fib and all(n.frame["file"].endswith("work.py") for n in fib)
    assert any(p[-2:] == ("fib", "fib") for p in paths(gf, "time"))  # recursion as sampled
    # py-spy writes an empty stack for a sample outside Python: kept, so the total stays
    assert gf.metadata[REPAIRS] == {"samples with an empty stack kept on a root '(no stack)'": 1}


def test_evented_spans_are_inclusive_with_exclusive_derived() -> None:
    gf = speedscope.read(HERE / "0.0.1-simple.speedscope.json")
    inc, exc = paths(gf, "weight"), paths(gf, "weight (exc)")
    assert inc == {("a",): 14, ("a", "b"): 14, ("a", "b", "c"): 5, ("a", "b", "d"): 4}
    assert exc[("a", "b")] == 14 - 5 - 4 and exc[("a",)] == 0
    assert pins(gf)["weight"] == ["inclusive", "weight (exc)", None]


def test_several_profiles_are_threads_and_one_can_be_chosen() -> None:
    path = HERE / "0.6.0-two-sampled.speedscope.json"
    gf = speedscope.read(path)
    assert roots(gf, "time (inc)") == {(0,): 14.0, (1,): 14.0}
    assert gf.metadata["cctviz.threads"] == {"0": "one", "1": "two"}
    for choice in (1, "two"):
        one = speedscope.read(path, profile=choice)
        assert roots(one, "time (inc)") == {(): 14.0}
        assert one.metadata["cctviz.threads"] == {"0": "two"}
    with pytest.raises(ValueError, match=r"no profile 'three'.*\['one', 'two'\]"):
        speedscope.read(path, profile="three")
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['rank'\].*'limit', 'profile'"):
        speedscope.read(path, rank=1)


def test_mixed_units_and_kinds_convert_to_the_finest(tmp_path: Path) -> None:
    evented = {
        "type": "evented",
        "name": "e",
        "unit": "milliseconds",
        "startValue": 0,
        "endValue": 3,
        "events": [
            {"type": "O", "frame": 0, "at": 0},
            {"type": "O", "frame": 1, "at": 1},
            {"type": "C", "frame": 1, "at": 2},
            {"type": "C", "frame": 0, "at": 3},
        ],
    }
    path = write(tmp_path, doc(sampled([[0, 2], [0]], [0.5, 0.25]), evented))
    gf = speedscope.read(path)
    assert pins(gf)["time"] == ["exclusive", "time (inc)", "ms"]
    assert roots(gf, "time (inc)") == {(0,): pytest.approx(750.0), (1,): pytest.approx(3.0)}
    assert paths(gf, "time")[("f0", "f1")] == pytest.approx(1.0)  # evented self time
    assert gf.metadata[REPAIRS] == {"profiles converted to ms": 1}


def test_unclosed_frames_are_closed_at_the_end_and_counted() -> None:
    gf = speedscope.read(HERE / "invalid-incomplete-trace.json")
    assert roots(gf, "weight") == {(): 100.0}
    assert gf.metadata[REPAIRS] == {"frames open at the end closed at the profile's end": 1}


def test_hostile_files_are_said(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"closes frame 1 \('B'\) but the innermost open"):
        speedscope.read(HERE / "invalid-out-of-order-events.json")
    with pytest.raises(FormatError, match="cut short"):
        speedscope.read(cut(PYSPY, tmp_path / "cut.json"))
    cases = {
        "weights\\[1\\] is -1": doc(sampled([[0], [1]], [1, -1])),
        "names frame 7": doc(sampled([[0, 7]], [1])),
        "as long as 'samples'": doc(sampled([[0]], [1, 2])),
        "unit 'parsecs'": doc(sampled([[0]], [1], unit="parsecs")),
        "not a 'sampled' or 'evented'": doc({"type": "flame"}),
        "no list 'shared.frames'": {"profiles": []},
        "the profiles hold no sample": doc(sampled([], [])),
        "weights\\[0\\] is 1000": doc(sampled([[0]], [10**1000])),
        "comes before the previous": doc(
            {"type": "evented", "unit": "none", "events": [
                {"type": "O", "frame": 0, "at": 5}, {"type": "C", "frame": 0, "at": 4}]}
        ),
    }  # fmt: skip
    for message, bad in cases.items():
        with pytest.raises(FormatError, match=message):
            speedscope.read(write(tmp_path, bad))
    nan = write(tmp_path, doc(sampled([[0]], [1]))).read_text().replace("[1]", "[NaN]")
    (tmp_path / "nan.json").write_text(nan)
    with pytest.raises(FormatError, match="NaN is not a JSON number"):
        speedscope.read(tmp_path / "nan.json")
    (tmp_path / "latin1.json").write_bytes(PYSPY.read_bytes().replace(b"leaf", b"l\xe9af"))
    with pytest.raises(FormatError, match=r"not UTF-8 text at byte [\d,]+ \(b'\\xe9af"):
        speedscope.read(tmp_path / "latin1.json")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(FormatError, match="nested too deeply"):
        speedscope.read(tmp_path / "deep.json")
    with pytest.raises(FormatError, match="no list of 'profiles'"):
        speedscope.read(DATA / "cpuprofile" / "node-cpu-prof.cpuprofile")


def test_names_are_bounded_text_and_gzip_is_read(tmp_path: Path) -> None:
    hostile = doc(sampled([[0, 1], [2]], [1, 2]))
    hostile["shared"]["frames"][0]["name"] = "x" * 1_000_000
    hostile["shared"]["frames"][1]["name"] = "\ud800<script>"
    gf = speedscope.read(write(tmp_path, hostile))
    names = {n.frame["name"] for n in gf.dataframe.index}
    assert max(len(n) for n in names) == 4097 and "?<script>" in names
    assert gf.metadata[REPAIRS] == {
        "names longer than 4096 characters cut": 1,
        "names with unpaired surrogate escapes replaced": 1,
    }
    (tmp_path / "p.json.gz").write_bytes(gzip.compress(PYSPY.read_bytes()))
    assert roots(speedscope.read(tmp_path / "p.json.gz"), "samples (inc)") == roots(
        speedscope.read(PYSPY), "samples (inc)"
    )


def test_sniff_claims_speedscope_only() -> None:
    for path in sorted(DATA.rglob("*")):
        if path.is_file() and path.name != "SOURCE.md":
            head = path.read_bytes()[:65536]
            assert speedscope.sniff(head, path) == (path.parent.name == "speedscope"), path
