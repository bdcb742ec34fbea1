"""Odd and hostile input: each case gives the right picture or a specific error naming the
argument, what was wrong and what is accepted; never a raw traceback from deep inside, a blank
view or silently wrong numbers."""

from __future__ import annotations

import re
import sys
import xml.dom.minidom
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets

import cctviz

NAN, INF = float("nan"), float("inf")


def literal(names: list[str], exc: list[float] | None = None) -> Any:
    """A GraphFrame: a root ``names[0]`` with the other names as its children."""
    import hatchet as ht

    exc = exc or [1.0 + i for i in range(len(names))]
    children = [
        {"frame": {"name": n, "type": "function"}, "metrics": {"time": v, "time (inc)": v}}
        for n, v in zip(names[1:], exc[1:], strict=True)
    ]
    root = {
        "frame": {"name": names[0], "type": "function"},
        "metrics": {"time": exc[0], "time (inc)": exc[0] + sum(exc[1:])},
        "children": children,
    }
    return ht.GraphFrame.from_literal([root])


def chain(depth: int) -> Any:
    """A GraphFrame that is one call path ``depth`` deep (Hatchet reads literals recursively)."""
    import hatchet as ht

    node: dict[str, Any] = {
        "frame": {"name": f"f{depth - 1}", "type": "function"},
        "metrics": {"time": 1.0, "time (inc)": 1.0},
    }
    for i in range(depth - 2, -1, -1):
        node = {
            "frame": {"name": f"f{i}", "type": "function"},
            "metrics": {"time": 1.0, "time (inc)": float(depth - i)},
            "children": [node],
        }
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * depth))
    try:
        return ht.GraphFrame.from_literal([node])
    finally:
        sys.setrecursionlimit(limit)


@pytest.fixture
def w() -> Any:
    return cctviz.CCT(literal(["main", "a", "b", "c"]))


@pytest.mark.parametrize(
    "bad", [(1.5, INF), (NAN, NAN), (0, NAN), (-INF, 3.0), (NAN, 2.0)], ids=str
)
def test_prune_range_must_be_finite(w: Any, bad: tuple[float, float]) -> None:
    with pytest.raises(traitlets.TraitError, match=r"prune_range: the (low|high) bound .* finite"):
        w.prune_range = bad
    assert w.prune_range is None
    w.prune_range = (1.5, 3.0)  # a finite range is still fine
    assert w.prune_range == (1.5, 3.0)


def test_a_metric_named_empty_is_never_drawn() -> None:
    gf = literal(["main", "a"])
    gf.dataframe[""] = gf.dataframe["time"] * 2
    gf.exc_metrics = ["", "time"]
    w = cctviz.CCT(gf)
    assert w.color_by == "time" and "" in w.metrics  # still a metric for scripting
    with pytest.raises(traitlets.TraitError, match=r"color_by: a metric named '' cannot be drawn"):
        w.color_by = ""
    with pytest.raises(traitlets.TraitError, match=r"size_by: .*rename that column"):
        cctviz.CCT(gf, size_by="")


@pytest.mark.parametrize("bad", [b"\x00\x02", bytearray(b"\x01"), {"main": 1}], ids=repr)
def test_select_refuses_bytes_and_dicts(w: Any, bad: Any) -> None:
    with pytest.raises(
        TypeError, match=rf"cannot select {type(bad).__name__} .*accepted: node ids"
    ):
        w.select(bad)
    assert w.selection == ()


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"selection": 5}, r"state\['selection'\] must be a list of node references"),
        ({"selection": [{}]}, r"state\['selection'\] holds \{\}, not a node reference"),
        ({"selection": [{"path": "main"}]}, r"state\['selection'\] holds .* not a node reference"),
        ({"focused": 3}, r"state\['focused'\] holds 3, not a node reference"),
        ({"collapsed": None}, r"state\['collapsed'\] must be a list of node references"),
        ({"visible_roots": "main"}, r"state\['visible_roots'\] must be a list .* or None"),
        ({"prune_range": 5}, r"state\['prune_range'\] must be \[low, high\] or None"),
        ({"color_by": 3}, r"state\['color_by'\] must be a metric name"),
        ({"selection": [{"path": [{"name": "main"}], "occurrence": -1}]}, r"not a node reference"),
    ],
)
def test_malformed_saved_state_names_the_key(state: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        cctviz.CCT(literal(["main", "a"]), state=state)


def test_dataframes_that_cannot_be_read_say_why() -> None:
    gf = literal(["main", "a"])
    gf.dataframe = pd.concat([gf.dataframe, gf.dataframe[["time"]]], axis=1)
    with pytest.raises(ValueError, match=r"repeated column names \['time'\]"):
        cctviz.CCT(gf)
    gf = literal(["main", "a"])
    gf.dataframe = gf.dataframe.reset_index(drop=True).rename_axis("node")
    with pytest.raises(TypeError, match=r"index 'node' holds int values .* hatchet Nodes"):
        cctviz.CCT(gf)
    gf = literal(["main", "a"])
    gf.dataframe["time"] = gf.dataframe["time"] + 1j
    with pytest.raises(ValueError, match=r"metric columns \['time'\] hold complex numbers"):
        cctviz.CCT(gf)
    gf = literal(["main", "a"])
    gf.dataframe["phase"] = gf.dataframe["time"] * 1j  # not listed as a metric: not drawn
    assert "phase" not in cctviz.CCT(gf).metrics


def test_node_numbers() -> None:
    gf = literal(["main", "a", "b"], [1.0, 5.0, 4.0])
    for node in gf.graph.traverse():
        node._hatchet_nid = None
    with pytest.raises(TypeError, match=r"node 'main' has _hatchet_nid None"):
        cctviz.CCT(gf)
    # nodes built by hand all numbered -1: told apart by identity, values exact, no reducer
    from hatchet.frame import Frame
    from hatchet.graph import Graph
    from hatchet.node import Node

    root = Node(Frame({"name": "main", "type": "function"}), None)
    kids = [Node(Frame({"name": n, "type": "function"}), root) for n in ("a", "b")]
    for kid in kids:
        root.add_child(kid)
    df = pd.DataFrame(
        {
            "node": [root, *kids],
            "name": ["main", "a", "b"],
            "time": [1.0, 5.0, 4.0],
            "time (inc)": [10.0, 5.0, 4.0],
        }
    ).set_index("node")
    w = cctviz.CCT(type(gf)(Graph([root]), df, ["time"], ["time (inc)"]))
    assert [w.table.name(i) for i in range(3)] == ["main", "a", "b"]
    assert w.table.metrics["time"].values.tolist() == [1.0, 5.0, 4.0]
    assert w.table.reducer is None and w.table.reduced_over == ()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"title": "run\ud800"}, r"title holds a lone surrogate \(\\ud800 at position 3\)"),
        ({"title": "run\x07"}, r"title holds the control character '\\x07'"),
        ({"units": {"time": "s\udcff"}}, r"units\['time'\] holds a lone surrogate"),
    ],
)
def test_figure_text_options_name_what_a_file_cannot_hold(
    w: Any, options: dict[str, Any], message: str
) -> None:
    pytest.importorskip("playwright", reason="figures need cctviz[export]")
    with pytest.raises(ValueError, match=message):
        w.to_svg(**options)


def test_hostile_names_give_valid_files(tmp_path: Any) -> None:
    """Control characters, a lone surrogate, RTL text, markup and a long emoji name: the SVG is
    valid XML showing each name (control characters as their pictures), the PNG decodes."""
    pytest.importorskip("playwright", reason="figures need cctviz[export]")
    from PIL import Image

    names = [
        "main\x00",
        "bell\x07esc\x1b",
        "🔥" * 40,
        "x\ud800",
        "<script>alert(1)</script>",
        "كود",
    ]
    w = cctviz.CCT(literal(names), source="run\x0c1")
    assert w.table.name(1) == "bell\x07esc\x1b"  # Python keeps the names as they are
    with pytest.raises(ValueError, match="source holds the control character"):
        w.to_svg()
    w.source = "run 1"
    svg = w.to_svg()
    text = xml.dom.minidom.parseString(svg.encode("utf-8")).documentElement.toxml()
    assert "main␀" in text and "bell␇esc␛" in text and "x\ufffd" in text
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    png = w.save(tmp_path / "hostile.png")
    with Image.open(png) as image:
        assert image.size[0] > 100


def test_a_10000_deep_chain_builds_restores_and_exports() -> None:
    gf = chain(10_000)
    assert sys.getrecursionlimit() <= 10_000  # cctviz itself needs no deep recursion
    w = cctviz.CCT(gf)
    deepest = int(np.argmax(w.table.depth))
    assert w.table.depth[deepest] == 9_999
    w.select([deepest])
    w.collapse(deepest - 5000)
    state = w.view_state
    assert len(state["selection"][0]["path"]) == 10_000
    again = cctviz.CCT(gf, state=state)
    assert again.selection == (deepest,) and again.collapsed == (deepest - 5000,)
    pytest.importorskip("playwright", reason="figures need cctviz[export]")
    svg = again.to_svg()
    assert f'data-id="{deepest - 5000}"' in svg and f'data-id="{deepest}"' not in svg


def test_front_end_errors_reach_python(w: Any, caplog: pytest.LogCaptureFixture) -> None:
    seen: list[Any] = []
    w.observe(lambda change: seen.append(change["new"]), "front_end_errors")
    message = {"type": "error", "message": "prune_range was not applied: bad", "where": "trait"}
    with caplog.at_level("WARNING", logger="cctviz"):
        w._on_message(w, message, [])
    assert w.front_end_errors == ["trait: prune_range was not applied: bad"]
    assert seen == [w.front_end_errors]
    assert "the cctviz view reports trait: prune_range was not applied: bad" in caplog.text
    # what is not an error report of ours is ignored (a message of no kind at all is refused
    # by the router: tests/test_messages.py)
    for bad in (
        {"type": "error", "message": 5, "where": "trait"},
        {"type": "error", "message": "x", "where": "elsewhere"},
    ):
        w._on_message(w, bad, [])
    w._on_front_end_error({"type": "snapshot"})
    assert len(w.front_end_errors) == 1
    for i in range(60):  # the latest 50 are kept
        w._on_message(w, {**message, "message": f"n{i}"}, [])
    assert len(w.front_end_errors) == 50 and w.front_end_errors[-1] == "trait: n59"


def test_metric_names_that_are_object_members_get_no_junk_unit() -> None:
    pytest.importorskip("playwright", reason="figures need cctviz[export]")
    gf = literal(["main", "a"])
    gf.dataframe = gf.dataframe.rename(columns={"time": "constructor", "time (inc)": "toString"})
    gf.exc_metrics, gf.inc_metrics = ["constructor"], ["toString"]
    w = cctviz.CCT(gf, color_by="constructor", size_by="toString")
    titles = " ".join(re.findall(r'class="cct-legend-title"[^>]*>([^<]*)<', w.to_svg()))
    assert "constructor" in titles and "toString" in titles
    assert "function" not in titles and "[" not in titles
    w.units = {"constructor": "s"}
    titles = " ".join(re.findall(r'class="cct-legend-title"[^>]*>([^<]*)<', w.to_svg()))
    assert "[s]" in titles and "function" not in titles


# -- profile files (cctviz.read: docs/formats.md) -------------------------------------------
FORMATS_DATA = Path(__file__).resolve().parent / "data" / "formats"
FORMAT_FILES = {
    "folded": FORMATS_DATA / "folded" / "pyspy-threads.txt",
    "perf": FORMATS_DATA / "perf" / "two-processes.perf-script",
    "callgrind": FORMATS_DATA / "callgrind" / "fib.callgrind.out",
}


@pytest.mark.parametrize("given", list(FORMAT_FILES))
@pytest.mark.parametrize("said", list(FORMAT_FILES))
def test_a_file_read_as_another_format_is_refused(given: str, said: str) -> None:
    """Any fixture read with another format= is an error naming the file and line."""
    if given == said:
        return
    from cctviz.adapters.formats.source import FormatError

    with pytest.raises(FormatError, match=re.escape(str(FORMAT_FILES[given])) + r"(, line \d+)?: "):
        cctviz.read(FORMAT_FILES[given], format=said)


@pytest.mark.parametrize(
    "content",
    [b"", b"\n\n", bytes(range(256)) * 40, b"\x1f\x8b\x08\x00garbage", "ÿ".encode("latin-1") * 99],
    ids=["empty", "blank", "binary", "bad-gzip", "latin1"],
)
def test_a_file_no_format_knows_lists_what_was_tried(tmp_path: Path, content: bytes) -> None:
    from cctviz.adapters.formats.source import FormatError

    path = tmp_path / "profile.data"
    path.write_bytes(content)
    with pytest.raises(
        FormatError, match=r"(tried .*callgrind .*, perf .*, folded|gzip stream is damaged)"
    ):
        cctviz.read(path)
    with pytest.raises((TypeError, FormatError), match=r"(cctviz.read|gzip)"):
        cctviz.CCT(path)
    # named by its suffix: that format's reader says what in it is not the format
    named = path.rename(tmp_path / "profile.folded")
    with pytest.raises(
        FormatError, match=re.escape(str(named)) + r"(, line 1)?: (?!.*tried)"
    ) as error:
        cctviz.read(named)
    # junk is said to be no folded stacks, not a folded file cut off
    assert "cut off" not in str(error.value)


@pytest.mark.parametrize("name", list(FORMAT_FILES))
@pytest.mark.parametrize("at", [0.25, 0.5, 0.75])
def test_a_cut_profile_file_is_said_or_adds_up(tmp_path: Path, name: str, at: float) -> None:
    """Cut anywhere: a clear error, or (folded cut at a line end: a smaller valid file) a tree
    whose total is the cut file's own."""
    from cctviz.adapters.formats.source import FormatError

    text = FORMAT_FILES[name].read_bytes()
    path = tmp_path / FORMAT_FILES[name].name
    path.write_bytes(text[: int(len(text) * at)])
    try:
        gf = cctviz.read(path, format=name)
    except FormatError as error:
        assert str(path) in str(error)
        return
    assert name == "folded"
    counts = [float(x.rsplit(b" ", 1)[1]) for x in path.read_bytes().splitlines() if x.strip()]
    assert gf.dataframe["samples"].sum() == sum(counts)


def test_names_that_are_not_utf8_are_repaired_and_counted(tmp_path: Path) -> None:
    perf = tmp_path / "latin1.perf-script"
    perf.write_bytes(
        b"prog 7 1.0: 100 cpu-clock: \n\t 1f caf\xe9+0x1 (/bin/p)\n\t 2f main+0x1 (/bin/p)\n\n"
    )
    gf = cctviz.read(perf)
    assert {n.frame["name"] for n in gf.graph.traverse()} == {"main", "caf\\xe9"}
    assert gf.metadata["cctviz.repairs"] == {
        "names that were not UTF-8: their bytes kept as \\xNN escapes": 1
    }
    grind = tmp_path / "latin1.callgrind.out"
    text = (
        FORMAT_FILES["callgrind"]
        .read_bytes()
        .replace(b"fn=(554) leaf_mul", b"fn=(554) leaf_m\xfcl")
    )
    grind.write_bytes(text)
    names = {n.frame["name"] for n in cctviz.read(grind).graph.traverse()}
    assert "leaf_m\\xfcl" in names


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"main;solve", r"has no count"),
        (b"main;solve -1", r"count '-1' is negative"),
        (b"main;solve NaN", r"count 'NaN' is not a number"),
        (b"main;solve 1e999", r"negative or not finite"),
        (b"main;solve 12abc", r"count '12abc' is not a number"),
    ],
)
def test_a_folded_line_with_a_bad_count_is_named(tmp_path: Path, line: bytes, message: str) -> None:
    from cctviz.adapters.formats.source import FormatError

    path = tmp_path / "bad.folded"
    path.write_bytes(b"main;a 3\nmain;b 4\n" + line + b"\n")
    with pytest.raises(FormatError, match=r"bad.folded, line 3: .*" + message):
        cctviz.read(path)


def test_a_callgrind_reference_to_an_unknown_name_is_named(tmp_path: Path) -> None:
    from cctviz.adapters.formats.source import FormatError

    path = tmp_path / "unknown.callgrind.out"
    text = FORMAT_FILES["callgrind"].read_text().replace("cfn=(550) work", "cfn=(7777)", 1)
    path.write_text(text)
    with pytest.raises(FormatError, match=r"line \d+: cfn=\(7777\) refers to a compressed name"):
        cctviz.read(path)


def test_a_stack_thousands_of_frames_deep_reads_and_draws(tmp_path: Path) -> None:
    path = tmp_path / "deep.folded"
    path.write_text(";".join(f"f{i}" for i in range(5000)) + " 7\n")
    w = cctviz.CCT(path)
    assert len(w.table.parent) == 5000 and w.table.metrics["samples (inc)"].values[0] == 7.0
