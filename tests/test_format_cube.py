"""The Cube reader (cctviz.adapters.formats.cube) on the .cubex Score-P wrote for Hatchet's
tests (tests/data/formats/cube/SOURCE.md): Cube's own kinds (EXCLUSIVE visits, INCLUSIVE time)
and units, totals equal to pycubexr's, locations as ranks, names, files and lines, the same
numbers as UMD Hatchet's Score-P reader, and hostile archives said."""

from __future__ import annotations

import io
import sys
import tarfile
from collections import defaultdict
from pathlib import Path

import pycubexr
import pycubexr.utils.exceptions
import pytest

from cctviz.adapters.formats import cube, pprof
from cctviz.adapters.formats.source import FormatError, head
from cctviz.adapters.formats.untrusted import REPAIRS

from .json_formats import DATA, cut, paths, pins, roots

CPI = DATA / "cube" / "scorep-cpi.cubex"


HERE = DATA / "cube"
FILES = [
    CPI,
    HERE / "call_tree_test.cubex",
    HERE / "kripke-p8.cubex",
    HERE / "cube-values_example.cubex",
]


def own_totals(path: Path = CPI) -> dict[str, tuple[str, float]]:
    """Each additive metric's kind and total as pycubexr computes it: an exclusive metric summed
    over every cnode and location, an inclusive one over the roots' locations."""
    out = {}
    with pycubexr.CubexParser(path) as c:
        for metric in c.all_metrics():
            if metric.data_type not in cube.ADDITIVE:
                continue
            try:
                values = c.get_metric_values(metric)
            except pycubexr.utils.exceptions.MissingMetricError:
                continue
            inclusive = metric.metric_type == "INCLUSIVE"
            cnodes = c.get_root_cnodes() if inclusive else c.all_cnodes()
            total = sum(float(values.cnode_values(n).astype(float).sum()) for n in cnodes)
            out[metric.name] = ("inclusive" if inclusive else "exclusive", total)
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_totals_are_pycubexrs(path: Path) -> None:
    gf = cube.read(path)
    totals = own_totals(path)
    assert totals
    for name, (kind, total) in totals.items():
        column = name if kind == "inclusive" else name + " (inc)"
        assert pins(gf)[name][0] == kind
        assert sum(roots(gf, column).values()) == pytest.approx(total, rel=1e-9), name
    assert gf.metadata[REPAIRS] == {}
    assert cube.sniff(head(path), path)


def test_processes_and_threads_become_ranks_and_threads() -> None:
    assert sorted(roots(cube.read(CPI), "time")) == [(0,), (1,), (2,), (3,)]
    both = cube.read(HERE / "cube-values_example.cubex")
    assert list(both.dataframe.index.names) == ["node", "rank", "thread"]
    assert sorted(roots(both, "DOUBLE")) == [(0, 0), (0, 2), (1, 1), (1, 3)]  # the ranks as written


def test_values_are_cubelibs_own() -> None:
    """call_tree_test.cubex against the exclusive and inclusive values Cube's own tools
    exported beside it (six significant digits)."""
    gf = cube.read(HERE / "call_tree_test.cubex")
    with pycubexr.CubexParser(HERE / "call_tree_test.cubex") as c:
        path_of = {n.id: _names(n) for n in c.all_cnodes()}
    visits, time = paths(gf, "visits"), paths(gf, "time")
    for kind, column in (("excl", "visits"), ("incl", "time")):
        lines = (HERE / f"call_tree_test.{kind}.csv").read_text().splitlines()
        header = [h.strip() for h in lines[0].split(",")]
        for line in lines[1:]:
            row = dict(zip(header, line.split(","), strict=True))
            ours = (visits if column == "visits" else time)[path_of[int(row["Cnode ID"])]]
            assert ours == pytest.approx(float(row[column]), rel=5e-6), (kind, row)


def _names(cnode: object) -> tuple[str, ...]:
    out = []
    node: object = cnode
    while node is not None:
        out.append(node.region.name)  # type: ignore[attr-defined]
        node = node.parent  # type: ignore[attr-defined]
    return tuple(reversed(out))


def test_kinds_and_units_are_cubes() -> None:
    gf = cube.read(CPI)
    assert pins(gf)["time"] == ["inclusive", "time (exc)", "sec"]
    assert pins(gf)["visits"] == ["exclusive", "visits (inc)", "occ"]
    assert pins(gf)["bytes_sent"][2] == "bytes"
    skipped = gf.metadata["cctviz.skipped_metrics"]
    assert skipped["min_time"] == "MINDOUBLE values do not add up"
    assert skipped["bytes_put"] == "the file holds no values for it"
    only = cube.read(CPI, metrics=["time"])
    assert set(pins(only)) == {"time", "time (exc)"}


def test_names_files_and_lines_come_through() -> None:
    gf = cube.read(CPI)
    found = paths(gf, "time")
    assert ("cpi", "main", "iteration", "MPI_Reduce") in found
    frames = {n.frame["name"]: n.frame for n in gf.graph.traverse()}
    assert frames["main"]["file"].endswith("cpi.c") and int(frames["main"]["line"]) == 50
    assert frames["MPI_Init"]["module"] == "MPI" and frames["MPI_Init"].get("file") is None


def test_the_same_numbers_as_hatchets_scorep_reader() -> None:
    import hatchet as ht

    if not hasattr(ht.GraphFrame, "from_scorep"):
        pytest.skip("this Hatchet has no Score-P reader (LLNL Hatchet cannot read .cubex)")
    theirs = ht.GraphFrame.from_scorep(str(CPI))
    ours = cube.read(CPI)
    for their_column, our_column in (("time (inc)", "time"), ("visits", "visits")):
        want: dict[tuple[tuple[str, ...], int], float] = defaultdict(float)
        for (node, rank), value in theirs.dataframe[their_column].items():
            want[tuple(f["name"] for f in (n.frame for n in node.path())), rank] += value
        got: dict[tuple[tuple[str, ...], int], float] = defaultdict(float)
        for (node, rank), value in ours.dataframe[our_column].items():
            got[tuple(n.frame["name"] for n in node.path()), rank] += value
        assert got.keys() == want.keys()
        for key, value in want.items():
            if key[0] == ("cpi",) and our_column == "time":
                # UMD Hatchet 1.4.1 gives the root main's time: the root's own (exclusive)
                # time is lost there; ours is pycubexr's value for the root cnode
                assert value == pytest.approx(got[("cpi", "main"), key[1]], rel=1e-12)
                assert got[key] > value
                continue
            assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-15), key


def test_unknown_options_and_metrics_are_said() -> None:
    with pytest.raises(TypeError, match=r"accepts \['limit', 'metrics'\]"):
        cube.read(CPI, colour=1)
    with pytest.raises(TypeError, match="list of metric names"):
        cube.read(CPI, metrics="time")
    with pytest.raises(FormatError, match=r"no metric\(s\) \['tiem'\]"):
        cube.read(CPI, metrics=["tiem"])


def member(path: Path, name: str) -> bytes:
    with tarfile.open(path) as archive:
        return archive.extractfile(name).read()  # type: ignore[union-attr]


def rewritten(tmp_path: Path, change: dict[str, bytes | None]) -> Path:
    """CPI with members replaced (``None``: dropped)."""
    target = tmp_path / "changed.cubex"
    with tarfile.open(CPI) as src, tarfile.open(target, "w") as out:
        for member in src.getmembers():
            data = src.extractfile(member).read()  # type: ignore[union-attr]
            if member.name in change:
                if change[member.name] is None:
                    continue
                data = change[member.name]  # type: ignore[assignment]
            member.size = len(data)
            out.addfile(member, io.BytesIO(data))
    return target


def test_hostile_archives_are_said(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"not a readable tar archive|pycubexr could not read"):
        cube.read(cut(CPI, tmp_path / "cut.cubex"))
    with pytest.raises(FormatError, match=r"holds no anchor\.xml"):
        cube.read(rewritten(tmp_path, {"anchor.xml": None}))
    anchor = member(CPI, "anchor.xml")
    with pytest.raises(FormatError, match="pycubexr could not read it"):
        cube.read(rewritten(tmp_path, {"anchor.xml": anchor[: len(anchor) // 2]}))
    with pytest.raises(FormatError, match="pycubexr could not read it"):
        cube.read(rewritten(tmp_path, {"1.data": b"CUBEX.DATA" + b"\0" * 7}))
    with pytest.raises(FormatError, match="more than the limit"):
        cube.read(CPI, limit=1000)
    not_tar = tmp_path / "x.cubex"
    not_tar.write_text("<?xml version='1.0'?><cube/>")
    with pytest.raises(FormatError, match="not a readable tar archive"):
        cube.read(not_tar)


def test_other_formats_are_not_claimed() -> None:
    for other in [*DATA.glob("*/*.pb.gz"), *DATA.glob("cpuprofile/*"), *DATA.glob("speedscope/*")]:
        assert not cube.sniff(head(other), other), other
    assert not pprof.sniff(head(CPI), CPI)


def test_locations_sharing_a_rank_are_numbered_apart(tmp_path: Path) -> None:
    anchor = member(CPI, "anchor.xml")
    same = anchor.replace(
        b"<name>MPI Rank 1</name>\n<rank>1</rank>", b"<name>MPI Rank 1</name>\n<rank>0</rank>"
    )
    assert same != anchor
    gf = cube.read(rewritten(tmp_path, {"anchor.xml": same}))
    assert gf.metadata[REPAIRS] == {"locations sharing a rank and thread numbered apart": 1}
    assert sorted(roots(gf, "visits (inc)")) == [(0, 0), (0, 1), (2, 0), (3, 0)]
    total = sum(roots(gf, "time").values())
    assert total == pytest.approx(own_totals()["time"][1], rel=1e-9)


def test_a_missing_pycubexr_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pycubexr", None)
    with pytest.raises(ImportError, match=r"pip install 'cctviz\[formats\]'"):
        cube.read(CPI)


def test_deep_call_trees_and_entity_bombs_are_said(tmp_path: Path) -> None:
    anchor = member(CPI, "anchor.xml")
    start, end = anchor.index(b'<cnode id="0"'), anchor.index(b"</program>")
    deep = b"".join(b'<cnode id="%d" calleeId="2">' % i for i in range(5000))
    deep += b"</cnode>" * 5000
    with pytest.raises(FormatError, match=r"pycubexr could not read it|frames deep"):
        cube.read(rewritten(tmp_path, {"anchor.xml": anchor[:start] + deep + anchor[end:]}))
    laughs = b'<?xml version="1.0"?><!DOCTYPE cube [<!ENTITY a "' + b"x" * 100 + b'">'
    for k in range(1, 10):
        laughs += b'<!ENTITY %s "%s">' % (b"a" * (k + 1), (b"&" + b"a" * k + b";") * 10)
    laughs += b"]><cube><program>&" + b"a" * 10 + b";</program></cube>"
    with pytest.raises(FormatError, match="pycubexr could not read it"):
        cube.read(rewritten(tmp_path, {"anchor.xml": laughs}))


def test_a_view_of_a_cube_with_papi_counters_opens_their_unit_left_out() -> None:
    # Cube states a PAPI counter's unit as "#" (a count), which is no unit cctviz reads: the view
    # opens, that metric without a unit, the others with theirs (it used to refuse the file)
    import cctviz

    w = cctviz.CCT(HERE / "kripke-p8.cubex")
    assert '"#"' in str(w.data.metadata["cctviz.format_metrics"])  # Cube said it
    assert w.units["time"] == "s" and w.units["bytes_sent"] == "B"
    assert not any(name.startswith("PAPI_") for name in w.units)
    assert any(name.startswith("PAPI_") for name in w.metrics)
