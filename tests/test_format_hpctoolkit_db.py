"""The reader of HPCToolkit's database format v4 (cctviz.adapters.formats.hpctoolkit_db) on a
database HPCToolkit wrote (tests/data/formats/hpctoolkit-db): the tree and numbers of LLNL
Hatchet's ``from_hpctoolkit_latest`` (where installed), measured exclusive (``function`` scope)
and inclusive (``execution`` scope) partners in seconds, ranks and threads from the identifier
tuples, and damaged databases said."""

from __future__ import annotations

import math
import shutil
import struct
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cctviz.adapters.formats import hpctoolkit_db
from cctviz.adapters.formats.source import FormatError

from .json_formats import DATA, pins

CPI = DATA / "hpctoolkit-db" / "cpi"
SHARED = Path("/work/shared/data/hatchet/hatchet_cpi_v4_database")


def shape(root: Any, get: Any) -> Counter[tuple[int, int, float, float]]:
    """(depth, children, exclusive, inclusive) of every node below ``root``."""
    out: Counter[tuple[int, int, float, float]] = Counter()
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        exc, inc = get(node)
        out[depth, len(node.children), round(exc, 12), round(inc, 12)] += 1
        stack += [(c, depth + 1) for c in node.children]
    return out


def test_the_tree_and_numbers_of_llnl_hatchets_reader() -> None:
    import hatchet as ht

    if not hasattr(ht.GraphFrame, "from_hpctoolkit_latest"):
        pytest.skip("this Hatchet has no from_hpctoolkit_latest (LLNL's reader of v4)")
    ours = hpctoolkit_db.read(CPI)
    theirs = ht.GraphFrame.from_hpctoolkit_latest(str(CPI))
    summed = ours.dataframe.groupby(level="node")[["time", "time (inc)"]].sum()
    # LLNL reads the main thread's entry point alone, from the summary profile (sums)
    main = next(r for r in ours.graph.roots if r.frame["name"] == "main thread")
    a = shape(main, lambda n: (summed.loc[n, "time"], summed.loc[n, "time (inc)"]))
    df = theirs.dataframe

    def value(node: Any, column: str) -> float:
        v = float(df.loc[node, column])
        return 0.0 if math.isnan(v) else v

    b = shape(theirs.graph.roots[0], lambda n: (value(n, "time"), value(n, "time (inc)")))
    assert sum(a.values()) == sum(b.values()) == 182
    assert a == b


def test_the_tree_and_numbers_of_umd_hatchets_reader() -> None:
    import hatchet as ht

    if hasattr(ht.GraphFrame, "from_hpctoolkit_latest") or not SHARED.exists():
        pytest.skip("UMD Hatchet's v4 reader (from_hpctoolkit) and the shared database needed")
    ours = hpctoolkit_db.read(CPI)
    theirs = ht.GraphFrame.from_hpctoolkit(str(SHARED))  # needs the database's metrics/
    assert len(ours.graph) == len(theirs.graph) == 205
    for gf in (ours, theirs):
        assert list(gf.dataframe.index.names) == ["node", "rank", "thread"]
    groups = set(ours.dataframe.index.droplevel("node"))
    assert groups == set(theirs.dataframe.index.droplevel("node"))
    for rank, thread in groups:
        got = []
        for gf in (ours, theirs):
            one = gf.dataframe.xs((rank, thread), level=["rank", "thread"])
            get = one[["time", "time (inc)"]].fillna(0.0)
            got.append(
                sum(
                    (
                        shape(r, lambda n, g=get: (g.loc[n, "time"], g.loc[n, "time (inc)"]))
                        for r in gf.graph.roots
                    ),
                    Counter(),
                )
            )
        assert got[0] == got[1], (rank, thread)


def test_kinds_units_ranks_and_threads() -> None:
    gf = hpctoolkit_db.read(CPI)
    assert pins(gf)["time"] == ["exclusive", "time (inc)", "s"]
    assert pins(gf)["time (inc)"] == ["inclusive", "time", "s"]
    assert pins(gf)["time (point)"] == ["exclusive", None, "s"]
    assert not [c for c in gf.dataframe.columns if "(exc)" in str(c)]  # nothing derived
    df = gf.dataframe
    assert list(df.index.names) == ["node", "rank", "thread"]
    assert len(gf.metadata["hpctoolkit.profiles"]) == 16
    assert sorted(set(df.index.get_level_values("rank"))) == [0, 1, 2, 3]
    # every node in every rank and thread (8 of the 16 threads measured nothing: zeros)
    assert len(set(df.index.droplevel("node"))) == 16 and len(df) == len(gf.graph) * 16
    roots = {r.frame["name"]: r for r in gf.graph.roots}
    assert set(roots) == {"main thread", "application thread"}
    main = df.xs(roots["main thread"], level="node")["time (inc)"]
    assert main.sum() == pytest.approx(0.28182, abs=1e-9)
    names = {n.frame["name"] for n in gf.graph.traverse()}
    assert {"main", "PMPI_Reduce", "MPI_Finalize"} <= names
    frames = [n.frame for n in gf.graph.traverse() if n.frame["name"] == "main"]
    assert frames[0]["file"].endswith("cpi.c") and frames[0]["type"] == "function"
    assert hpctoolkit_db.sniff(b"", CPI) and hpctoolkit_db.sniff(b"", CPI / "meta.db")
    assert not hpctoolkit_db.sniff(b"", DATA / "tau" / "cpi-mpi")


def test_damaged_databases_are_said(tmp_path: Path) -> None:
    folder = tmp_path / "db"
    shutil.copytree(CPI, folder)
    meta = folder / "meta.db"
    whole = meta.read_bytes()
    meta.write_bytes(whole[:6000])
    with pytest.raises(FormatError, match=r"outside the file|has no end"):
        hpctoolkit_db.read(folder)
    # the first entry point's first child made its own child: the tree loops
    (p_section,) = struct.unpack_from("<Q", whole, 0x48)
    (p_entries,) = struct.unpack_from("<Q", whole, p_section)
    size, children = struct.unpack_from("<QQ", whole, p_entries)
    looped = bytearray(whole)
    struct.pack_into("<QQ", looped, children, size, children)
    meta.write_bytes(bytes(looped))
    with pytest.raises(FormatError, match="child pointers loop"):
        hpctoolkit_db.read(folder)
    meta.write_bytes(b"HPCTOOLKITprof\x04\x00" + whole[16:])
    with pytest.raises(FormatError, match="HPCTOOLKITmeta header"):
        hpctoolkit_db.read(folder)
    meta.write_bytes(whole)
    (folder / "profile.db").unlink()
    with pytest.raises(FormatError, match=r"profile\.db is missing"):
        hpctoolkit_db.read(folder)
    with pytest.raises(TypeError, match="accepts none"):
        hpctoolkit_db.read(CPI, metric="time")
