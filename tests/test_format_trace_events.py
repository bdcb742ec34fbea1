"""The trace-event reader (cctviz.adapters.formats.trace_events) on a trace Node wrote and on
speedscope's own trace-event test files (tests/data/formats/trace-events/SOURCE.md): inclusive
microseconds, spans nested per thread, ranks per pid and threads per tid, the roots equal to
the time each thread spent in spans (computed here from the raw events), and every repair
counted."""

from __future__ import annotations

import gzip
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from cctviz.adapters.formats import trace_events
from cctviz.adapters.formats.source import FormatError
from cctviz.adapters.formats.untrusted import REPAIRS

from .json_formats import DATA, cut, paths, pins, roots, rows

HERE = DATA / "trace-events"
NODE = HERE / "node-worker-threads.json"


def busy(events: list[dict[str, Any]]) -> dict[tuple[int, int], float]:
    """Per (pid, tid): the length of the union of its spans (X, and B/E paired in order): what
    a well-nested thread's top-level spans add up to."""
    spans, open_ = defaultdict(list), defaultdict(list)
    for e in sorted(events, key=lambda e: e.get("ts", 0)):
        key = (e["pid"], e["tid"])
        if e["ph"] == "X":
            spans[key].append((e["ts"], e["ts"] + e["dur"]))
        elif e["ph"] == "B":
            open_[key].append(e["ts"])
        elif e["ph"] == "E":
            spans[key].append((open_[key].pop(), e["ts"]))
    out = {}
    for key, found in spans.items():
        total, reach = 0.0, float("-inf")
        for start, end in sorted(found):
            total += max(0.0, end - max(start, reach))
            reach = max(reach, end)
        out[key] = total
    return out


def write(tmp_path: Path, events: Any, name: str = "t.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(events))
    return path


def x(name: str, ts: float, dur: float, tid: int = 0, **more: Any) -> dict[str, Any]:
    return {"ph": "X", "name": name, "ts": ts, "dur": dur, "pid": 1, "tid": tid, **more}


def test_node_trace_roots_are_each_threads_busy_time() -> None:
    events = json.loads(NODE.read_text())["traceEvents"]
    gf = trace_events.read(NODE)
    expected = {(tid,): total for (_, tid), total in busy(events).items()}
    assert roots(gf, "time") == pytest.approx(expected, rel=1e-12)
    spans = [e for e in events if e["ph"] == "X"]
    assert sum(v["time (exc)"] for _, _, v in rows(gf)) == pytest.approx(sum(expected.values()))
    assert sum(v["time"] for _, _, v in rows(gf) if True) >= sum(e["dur"] for e in spans)
    assert pins(gf)["time"] == ["inclusive", "time (exc)", "us"]
    assert list(gf.dataframe.index.names) == ["node", "thread"]  # one pid: no rank level
    assert gf.metadata["cctviz.threads"]["9101/9101"] == "JavaScriptMainThread"
    assert gf.metadata["cctviz.processes"] == {"9101": "node"}
    assert gf.metadata["cctviz.skipped_events"] == {"I": 12, "b": 24, "e": 24}
    assert gf.metadata[REPAIRS] == {}
    assert ("fs.sync.stat",) in paths(gf, "time")


def test_processes_are_ranks_and_threads_threads() -> None:
    gf = trace_events.read(HERE / "speedscope-multiprocess.json")
    assert list(gf.dataframe.index.names) == ["node", "rank", "thread"]
    assert roots(gf, "time") == {(p, t): 1.0 for p in range(4) for t in range(2)}
    assert gf.metadata["cctviz.processes"] == {"0": "p0", "1": "p1", "3": "p3"}


def test_array_and_object_forms_and_gzip(tmp_path: Path) -> None:
    events = [x("a", 0, 10), x("b", 2, 3), x("b", 5, 1), x("c", 5.5, 0.25)]
    one = trace_events.read(write(tmp_path, events))
    other = trace_events.read(write(tmp_path, {"traceEvents": events, "displayTimeUnit": "ns"}))
    (tmp_path / "t.json.gz").write_bytes(gzip.compress(json.dumps(events).encode()))
    for gf in (one, other, trace_events.read(tmp_path / "t.json.gz")):
        assert paths(gf, "time") == {("a",): 10, ("a", "b"): 4, ("a", "b", "c"): 0.25}
        assert paths(gf, "time (exc)") == {("a",): 6, ("a", "b"): 3.75, ("a", "b", "c"): 0.25}


def test_begin_end_repairs_are_counted() -> None:
    gf = trace_events.read(HERE / "speedscope-too-many-end-events.json")
    assert paths(gf, "time") == {("alpha",): 14, ("alpha", "beta"): 12}
    assert gf.metadata[REPAIRS] == {"end events (E) with no matching begin ignored": 2}
    gf = trace_events.read(HERE / "speedscope-not-enough-end-events.json")
    assert paths(gf, "time") == {("A",): 11, ("A", "A"): 10, ("A", "A", "A"): 1}
    assert gf.metadata[REPAIRS] == {
        "begin events (B) never ended, closed at the thread's last time": 2
    }
    gf = trace_events.read(HERE / "speedscope-simple-partial.json")  # no closing "]", no "dur"
    assert roots(gf, "time") == {(): 14}
    assert gf.metadata[REPAIRS] == {
        "JSON array without its closing ']' closed": 1,
        "events without a number 'ts', or X without a 'dur' ≥ 0, dropped": 1,
    }


def test_an_array_cut_mid_event_loses_only_that_event(tmp_path: Path) -> None:
    text = json.dumps([x("a", 0, 10), x("b", 1, 2, args={"k": {"v": 1}}), x("c", 4, 1)])
    (tmp_path / "cut.json").write_text(text[: text.index('"c"') + 3])
    gf = trace_events.read(tmp_path / "cut.json")
    assert paths(gf, "time") == {("a",): 10, ("a", "b"): 2}
    assert gf.metadata[REPAIRS] == {
        "JSON array without its closing ']' closed": 1,
        "a last event cut short dropped": 1,
    }
    (tmp_path / "mid.json").write_text(text[:20] + "?" + text[20:-1])  # broken, not cut
    with pytest.raises(FormatError, match="line 1 column 21"):
        trace_events.read(tmp_path / "mid.json")


def test_an_end_naming_an_enclosing_span_closes_the_inner_ones(tmp_path: Path) -> None:
    events = [
        {"ph": "B", "name": "outer", "ts": 0, "pid": 1, "tid": 1},
        {"ph": "B", "name": "inner", "ts": 1, "pid": 1, "tid": 1},
        {"ph": "E", "name": "outer", "ts": 5, "pid": 1, "tid": 1},
        {"ph": "E", "ts": 9, "pid": 1, "tid": 1},  # nothing open: ignored
    ]
    gf = trace_events.read(write(tmp_path, events))
    assert paths(gf, "time") == {("outer",): 5, ("outer", "inner"): 4}
    assert gf.metadata[REPAIRS] == {
        "begin events (B) closed by the end of an enclosing span": 1,
        "end events (E) with no matching begin ignored": 1,
    }


def test_overlapping_spans_are_split_keeping_every_duration(tmp_path: Path) -> None:
    gf = trace_events.read(HERE / "speedscope-invalid-x-nesting.json")  # [0,10] and [5,15]
    assert paths(gf, "time") == {("alpha",): 10, ("alpha", "beta"): 5, ("beta",): 5}
    assert roots(gf, "time") == {(): 15}  # the thread was in a span from 0 to 15
    assert gf.metadata[REPAIRS] == {
        "spans ending after the span they start in, split at its end": 1
    }
    # a staircase of 1,000 spans each overlapping the next 20: no negative exclusive, no loss
    events = [x(f"s{i % 7}", i, 20 + (i % 7)) for i in range(1000)]
    gf = trace_events.read(write(tmp_path, events))
    assert min(v["time (exc)"] for _, _, v in rows(gf)) >= -1e-9
    assert sum(v["time"] for _, _, v in rows(gf)) == pytest.approx(sum(e["dur"] for e in events))
    assert roots(gf, "time") == {(): pytest.approx(busy(events)[(1, 0)])}


def test_dense_overlaps_and_deep_nesting_are_said_quickly(tmp_path: Path) -> None:
    began = time.perf_counter()
    dense = [x(f"s{i % 7}", i, 1000 + (i % 13)) for i in range(3000)]
    with pytest.raises(FormatError, match=r"pid 1 tid 0: spans overlap .* 106,000 splits"):
        trace_events.read(write(tmp_path, dense))
    # 2,000 nested spans: read (the builder walks without recursion), each span its own node
    deep = [x(f"s{i % 7}", i, 20000 - 2 * i) for i in range(2000)]
    gf = trace_events.read(write(tmp_path, deep))
    assert len(gf.dataframe) == 2000
    assert float(gf.dataframe["time"].max()) == 20000
    assert time.perf_counter() - began < 20


def test_bad_events_are_dropped_and_counted(tmp_path: Path) -> None:
    events = [
        x("ok", 0, 10),
        x("negative", 1, -4),
        x("text", "5", 1),
        {"ph": "X", "name": "no ts", "dur": 1, "pid": 1, "tid": 0},
        x("huge", 1e308, 1e308),
        {"ph": "C", "name": "counter", "ts": 3, "pid": 1, "tid": 0, "args": {"v": 1}},
        x("nested", 2, 1, args={"inner": {"ph": "X", "name": "not an event", "ts": 0, "dur": 99}}),
        7,
        {"name": "no phase"},
        x("pid as text", 0, 3, pid="renderer", tid="main"),
    ]
    gf = trace_events.read(write(tmp_path, events))
    assert paths(gf, "time") == {("ok",): 10, ("ok", "nested"): 1, ("pid as text",): 3}
    assert gf.metadata[REPAIRS] == {
        "array items that are not events (no 'ph') ignored": 2,
        "events without a number 'ts', or X without a 'dur' ≥ 0, dropped": 4,
    }
    assert gf.metadata["cctviz.skipped_events"] == {"C": 1}
    assert gf.metadata["cctviz.ids"] == {"pid -1": "renderer", "tid -1": "main"}
    assert set(roots(gf, "time")) == {(1, 0), (-1, -1)}


def test_hostile_files_are_said(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cut short"):
        trace_events.read(cut(NODE, tmp_path / "cut.json"))  # the object form cannot be closed
    with pytest.raises(FormatError, match="no list of events"):
        trace_events.read(DATA / "speedscope" / "py-spy-threads.speedscope.json")
    with pytest.raises(FormatError, match=r"no complete \(X\) or begin/end.*'i': 1"):
        trace_events.read(write(tmp_path, [{"ph": "i", "name": "now", "ts": 1}]))
    (tmp_path / "bad.json").write_bytes(b'[{"ph": "X", "name": "\xff", "ts": 0, "dur": 1}]')
    with pytest.raises(FormatError, match="not UTF-8 text at byte 22"):
        trace_events.read(tmp_path / "bad.json")
    with pytest.raises(TypeError, match=r"accepts \['limit'\]"):
        trace_events.read(NODE, profile=0)
    events = [x("y" * 200_000, 0, 2), x("\udfff", 0, 1)]
    gf = trace_events.read(write(tmp_path, events))
    assert sorted(len(n.frame["name"]) for n in gf.dataframe.index) == [1, 4097]
    assert gf.metadata[REPAIRS] == {
        "names longer than 4096 characters cut": 1,
        "names with unpaired surrogate escapes replaced": 1,
    }


def test_sniff_claims_trace_events_only() -> None:
    for path in sorted(DATA.rglob("*")):
        if path.is_file() and path.name != "SOURCE.md":
            claimed = path.parent.name == "trace-events"
            assert trace_events.sniff(path.read_bytes()[:65536], path) == claimed, path
