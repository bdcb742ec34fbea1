"""The source beside the tree (issue 58, point 5): ``w.source_text(id)`` finds a node's file in
an HPCToolkit database's ``src/`` copy, under ``w.source_paths`` or as recorded, reads it as
bounded text (never run; a binary file refused; undecodable bytes replaced), marks the node's
line and gives each line the profile measures its value; a file found nowhere lists every path
tried. Real databases: the cpi one (4 ranks) and the allgather one (statements in loops)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import traitlets

import cctviz
from cctviz.analysis import source_file
from cctviz.analysis.source_text import SourceError, SourceNotFoundError

from .conftest import load
from .profiles import data_root
from .test_adapter import _by_folder

CPI = "hatchet/hpctoolkit-cpi-database"
ALLGATHER = "hatchet/hpctoolkit-allgather-database"
PSM_QUEUE = "/builddir/build/BUILD/mvapich2-2.3/src/mpid/ch3/channels/psm/src/psm_queue.c"


def _cpi_c(lines: int = 80) -> str:
    text = [f"/* line {n} */" for n in range(1, lines + 1)]
    text[18] = "int main(int argc, char *argv[])  /* <b>not bold</b> & <script>x()</script> */"
    return "\n".join(text) + "\n"


@pytest.fixture
def cpi_db(tmp_path: Path) -> Path:
    """A copy of the real cpi database with the src/ copy of cpi.c that hpcprof makes."""
    load(_by_folder(CPI))  # skips when the data is not here
    db = tmp_path / "cpi-database"
    shutil.copytree(data_root(CPI), db)
    (db / "src").mkdir()
    (db / "src" / "cpi.c").write_text(_cpi_c(), encoding="utf-8")
    return db


def _main(w: Any) -> int:
    return next(i for i in range(w.table.size) if w.table.name(i) == "main")


def test_found_in_the_databases_src_copy(cpi_db: Path) -> None:
    w = cctviz.CCT(load(_by_folder(CPI)), source=str(cpi_db))
    text = w.source_text(_main(w), context=3)
    assert text.path == str(cpi_db / "src" / "cpi.c") and "src/ copy" in text.how
    assert (text.recorded, text.line, text.first) == ("./src/cpi.c", 19, 16)
    expected = _cpi_c().splitlines()[15:22]
    assert text.lines == tuple(expected)
    # names and text are text, as they are: nothing escaped, nothing interpreted
    assert "<b>not bold</b> & <script>x()</script>" in text.lines[3]
    assert text.values == (None,) * 7  # main's file has no statements in this profile
    listing = str(text).splitlines()
    assert listing[4].startswith(">19") and listing[3].startswith(" 18")
    # the database may also be one of source_paths (a GraphFrame read elsewhere)
    other = cctviz.CCT(load(_by_folder(CPI)), source_paths=[cpi_db])
    assert other.source_text("main").path == text.path


def test_found_under_source_paths_by_the_recorded_paths_tail(tmp_path: Path) -> None:
    gf = load(_by_folder(ALLGATHER))
    w = cctviz.CCT(gf)
    statements = [
        i for i in range(w.table.size)
        if w.table.types[w.table.type_code[i]] == "S"
        and gf.dataframe["file"].iat[w.table.first_row[i]] == PSM_QUEUE
    ]  # fmt: skip
    assert len(statements) >= 3
    lines_of = {i: int(gf.dataframe["line"].iat[w.table.first_row[i]]) for i in statements}
    folder = tmp_path / "checkout"
    source = folder / "mpid/ch3/channels/psm/src/psm_queue.c"
    source.parent.mkdir(parents=True)
    source.write_text("\n".join(f"q{n}" for n in range(1, max(lines_of.values()) + 50)) + "\n")
    w.source_paths = [str(tmp_path / "elsewhere"), folder]
    node = statements[0]
    text = w.source_text(node, context=40)
    assert text.path == str(source) and text.how == f"source_paths ({folder})"
    assert text.line == lines_of[node] and text.lines[text.line - text.first] == f"q{text.line}"
    # the gutter: each line's statements of the same procedure instance, the colour metric added
    # up, checked against Hatchet's own tree and dataframe
    proc = w.table.nodes[node].parents[0]
    while proc.frame.get("type") != "function":
        proc = proc.parents[0]
    stack, expected = list(proc.children), {}
    rank_mean = gf.dataframe.groupby(level="node")["time"].mean()
    while stack:
        n = stack.pop()
        kind = n.frame.get("type")
        if kind == "loop":
            stack.extend(n.children)
        elif (
            kind == "statement"
            and n.frame.get("file") == PSM_QUEUE
            and int(n.frame.get("line")) > 0
        ):
            expected[int(n.frame.get("line"))] = expected.get(int(n.frame.get("line")), 0.0)
            expected[int(n.frame.get("line"))] += float(rank_mean[n])
    shown = {text.first + k: v for k, v in enumerate(text.values) if v is not None}
    assert shown and shown == pytest.approx(
        {k: v for k, v in expected.items() if text.first <= k < text.first + len(text.lines)}
    )
    assert any(v > 0 for v in shown.values())
    w.rank = 4  # the gutter follows the view's values: one rank's
    one = w.source_text(node, context=40)
    assert one.values != text.values


def test_missing_says_every_path_tried(tmp_path: Path) -> None:
    gf = load(_by_folder(ALLGATHER))
    w = cctviz.CCT(gf, source_paths=[tmp_path / "a"], source=str(tmp_path))
    node = next(
        i
        for i in range(w.table.size)
        if gf.dataframe["file"].iat[w.table.first_row[i]] == PSM_QUEUE
    )
    with pytest.raises(SourceNotFoundError) as caught:
        w.source_text(node)
    tried = caught.value.tried
    parts = PSM_QUEUE.strip("/").split("/")
    assert tried == [
        *(str(tmp_path / "a" / "/".join(parts[k:])) for k in range(len(parts))),
        PSM_QUEUE,
    ]
    message = str(caught.value)
    assert "is not at any path tried (set w.source_paths" in message
    assert all(p in message for p in tried)


def test_a_binary_file_is_refused_and_bad_bytes_are_replaced(cpi_db: Path) -> None:
    w = cctviz.CCT(load(_by_folder(CPI)), source=str(cpi_db))
    (cpi_db / "src" / "cpi.c").write_bytes(b"\x7fELF\x02\x01\x01\x00\x00" + bytes(range(256)) * 8)
    with pytest.raises(SourceError, match=r"cpi\.c is not a text file \(it has NUL bytes\)"):
        w.source_text("main")
    lines = [b"/* x */"] * 30
    lines[18] = b"int main() /* caf\xe9 \xff */"  # Latin-1, not UTF-8
    (cpi_db / "src" / "cpi.c").write_bytes(b"\n".join(lines))
    text = w.source_text("main", context=0)
    assert text.lines == ("int main() /* caf\ufffd \ufffd */",)


def test_a_huge_file_is_read_up_to_the_bound(cpi_db: Path) -> None:
    w = cctviz.CCT(load(_by_folder(CPI)), source=str(cpi_db))
    line = "x" * 99 + "\n"
    count = source_file.MAX_BYTES // len(line) + 1000  # past the bound
    (cpi_db / "src" / "cpi.c").write_text(line * count)
    text = w.source_text("main", context=2)
    assert text.truncated and text.lines == ("x" * 99,) * 5
    (cpi_db / "src" / "cpi.c").write_text("y" * (source_file.MAX_LINE * 3) + "\n" + line * 30)
    first = w.source_text("main", context=18).lines[0]
    assert len(first) == source_file.MAX_LINE + 1 and first.endswith("…")


def test_a_line_past_the_end_of_a_cut_file_says_so(cpi_db: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(source_file, "MAX_BYTES", 20)
    (cpi_db / "src" / "cpi.c").write_text("x\n" * 200)
    w = cctviz.CCT(load(_by_folder(CPI)), source=str(cpi_db))
    with pytest.raises(SourceError, match=r"has 10 lines \(the file is cut at its first 20 bytes"):
        w.source_text("main")


def test_a_name_with_markup_is_text(tmp_path: Path) -> None:
    load(_by_folder(CPI))
    db = tmp_path / "db"
    shutil.copytree(data_root(CPI), db)
    xml = (db / "experiment.xml").read_text()
    escaped = "./src/&lt;img src=x onerror=alert(1)&gt;.c"
    (db / "experiment.xml").write_text(xml.replace('n="./src/cpi.c"', f'n="{escaped}"'))
    (db / "src").mkdir()
    (db / "src" / "<img src=x onerror=alert(1)>.c").write_text(_cpi_c())
    import hatchet

    w = cctviz.CCT(hatchet.GraphFrame.from_hpctoolkit(str(db)), source=str(db))
    text = w.source_text("main")
    name = "<img src=x onerror=alert(1)>.c"
    assert text.recorded == f"./src/{name}" and text.path == str(db / "src" / name)
    assert text.to_json()["recorded"] == f"./src/{name}" and text.line == 19


def test_bad_requests_say_what_is_accepted(cpi_db: Path, monkeypatch: Any) -> None:
    w = cctviz.CCT(load(_by_folder(CPI)), source=str(cpi_db))
    with pytest.raises(SourceError, match=r"no node 34: ids run from 0 to 33"):
        w.source_text(34)
    with pytest.raises(SourceError, match=r"context is a number of lines from 0 to 200; got -1"):
        w.source_text("main", context=-1)
    unknown = next(i for i in range(w.table.size) if w.table.name(i) == "<program root>")
    with pytest.raises(SourceError, match=r"'<program root>'\) has no source file in the profile"):
        w.source_text(unknown)
    with pytest.raises(traitlets.TraitError, match=r"source_paths is a list of folder paths"):
        w.source_paths = 5  # type: ignore[assignment]
    with pytest.raises(traitlets.TraitError, match=r"source_paths: 3 is not a folder path"):
        w.source_paths = ["/src", 3]  # type: ignore[list-item]
    w.source_paths = "/src"  # type: ignore[assignment]  # one folder (as traitlets takes it)
    assert w.source_paths == ["/src"]
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    w._on_message(w, {"type": "source", "id": 3, "node": _main(w), "context": 1}, [])
    assert sent[-1]["ok"] and sent[-1]["source"]["lines"] == _cpi_c().splitlines()[17:20]
    assert sent[-1]["source"]["values"] == [None] * 3 and sent[-1]["source"]["line"] == 19
    w._on_message(w, {"type": "source", "id": 4, "node": unknown}, [])
    assert sent[-1]["ok"] is False and "has no source file" in sent[-1]["error"]
    assert np.isfinite(w.table.metrics["time"].values).any()


def test_hpctoolkit_v4_lines_name_their_file_in_both_distributions(tmp_path: Path) -> None:
    """UMD's v4 reader records ``src/home/.../cpi.c`` in columns; LLNL's names only its lines
    (``line /home/.../cpi.c:62``): its ``function: main`` takes its first line's file."""
    from .profiles import readable

    profile = next(p for p in readable() if p.folder == "hatchet/hatchet_cpi_v4_database")
    gf = load(profile)
    folder = tmp_path / "apps"
    (folder / "hatchet_cpi").mkdir(parents=True)
    (folder / "hatchet_cpi" / "cpi.c").write_text(_cpi_c())
    w = cctviz.CCT(gf, source_paths=[folder])
    main = next(i for i in range(w.table.size) if w.table.name(i) in ("main", "function: main"))
    text = w.source_text(main, context=1)
    assert text.path == str(folder / "hatchet_cpi" / "cpi.c")
    assert text.recorded.endswith("home/ocankur/apps/test/hatchet_cpi/cpi.c")
    assert text.line == (19 if w.table.name(main) == "main" else 40)
    lines = [i for i in range(w.table.size) if "cpi.c:" in w.table.name(i)]
    assert len(lines) == 3
    line_text = w.source_text(lines[0], context=0)
    assert line_text.line == int(w.table.name(lines[0]).rsplit(":", 1)[1])


def test_call_sites_in_names_show_the_callees_inclusive_value(cpi_db: Path) -> None:
    """Hatchet's XML reader names a call ``27:MPI_Init``: line 27 of the caller's file holds the
    callee's inclusive value (as hpcviewer shows a call site), found from Hatchet's own tree."""
    gf = load(_by_folder(CPI))
    w = cctviz.CCT(gf, source=str(cpi_db))
    main = _main(w)
    text = w.source_text(main, context=45)  # lines 1..64: both of main's calls
    shown = {text.first + k: v for k, v in enumerate(text.values) if v is not None}
    (root,) = [n for n in gf.graph.roots if n.frame.get("name") == "<program root>"]
    (main_node,) = [c for c in root.children if c.frame.get("name") == "main"]
    inc = gf.dataframe.groupby(level="node")["time (inc)"].mean()
    expected = {
        int(str(c.frame.get("name")).split(":")[0]): float(inc[c]) for c in main_node.children
    }
    assert set(expected) == {27, 62} and expected[62] > 0
    assert shown == pytest.approx(expected)  # colour metric "time": the call's inclusive value
    w.color_by = "time (inc)"
    assert w.source_text(main, context=45).values == text.values
    listing = str(text)  # with the unit and one prefix for the column (the cpi times are µs)
    assert " 0 s " in listing and f"{expected[62] / 1e6:.3g} s |" in listing.replace("  ", " ")
    w.rank = 1  # one rank's calls
    one = w.source_text(main, context=45)
    rank_one = gf.dataframe.xs(1, level="rank")["time (inc)"]
    assert one.values[62 - one.first] == pytest.approx(float(rank_one[main_node.children[1]]))
