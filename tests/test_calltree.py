"""The builder every format reader feeds (cctviz.adapters.formats.calltree): stacks with weights
and spans with durations become a Hatchet GraphFrame whose derived partners, ranks and pinned
kinds are right, under both Hatchet distributions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cctviz.adapters.formats.calltree import KEY, CallTree, Column, Site

MAIN, F, G = Site("main", "m.c", 1), Site("f", "m.c", 5), Site("g", module="libg.so")


def by_path(gf: Any, column: str) -> dict[tuple[str, ...], float]:
    out = {}
    for node, value in zip(gf.dataframe.index, gf.dataframe[column], strict=True):
        node = node[0] if isinstance(node, tuple) else node
        out[tuple(n.frame["name"] for n in node.path())] = float(value)
    return out


def test_samples_sum_into_inclusive_and_keep_recursion() -> None:
    tree = CallTree([Column("samples", unit="samples")])
    tree.add(tree.path([MAIN, F, G]), {"samples": 3})
    tree.add(tree.path([MAIN, F]), {"samples": 2})
    tree.add(tree.path([MAIN, G]), {"samples": 1})
    tree.add(tree.path([MAIN, F, F]), {"samples": 4})
    gf = tree.graphframe({"source": "test"})
    assert tree.totals() == {"samples": 10.0}
    inc = by_path(gf, "samples (inc)")
    assert inc == {
        ("main",): 10.0,
        ("main", "f"): 9.0,
        ("main", "f", "g"): 3.0,
        ("main", "f", "f"): 4.0,
        ("main", "g"): 1.0,
    }
    assert by_path(gf, "samples")[("main",)] == 0.0  # only passes calls on
    assert gf.exc_metrics == ["samples"] and gf.inc_metrics == ["samples (inc)"]
    pins = json.loads(gf.metadata[KEY])
    assert pins["samples"] == ["exclusive", "samples (inc)", "samples"]
    assert gf.metadata["source"] == "test"
    g = [n for n in gf.dataframe.index if n.frame["name"] == "g"]
    assert {n.frame.get("module") for n in g} == {"libg.so"}


def test_spans_get_exclusive_per_rank() -> None:
    tree = CallTree([Column("time", "inclusive", "s")])
    tree.add(tree.path([MAIN]), {"time": 10.0}, rank=0)
    tree.add(tree.path([MAIN, F]), {"time": 4.0}, rank=0)
    tree.add(tree.path([MAIN]), {"time": 7.0}, rank=1)
    df = tree.graphframe().dataframe
    assert list(df.index.names) == ["node", "rank"]
    got = {
        (n.frame["name"], r): (e, i)
        for (n, r), e, i in zip(df.index, df["time (exc)"], df["time"], strict=True)
    }
    assert got == {("main", 0): (6.0, 10.0), ("f", 0): (4.0, 4.0), ("main", 1): (7.0, 7.0)}


def test_bad_use_is_said() -> None:
    with pytest.raises(ValueError, match="distinct metric names"):
        CallTree([Column("a"), Column("a")])
    tree = CallTree([Column("a")])
    with pytest.raises(ValueError, match="no call path"):
        tree.graphframe()
    with pytest.raises(KeyError, match="declared"):
        tree.add(tree.path([MAIN]), {"b": 1.0})


def test_gzip_is_read_through_and_a_bomb_is_said(tmp_path: Path) -> None:
    import gzip

    from cctviz.adapters.formats.source import FormatError, head, opened

    plain = b"main;f;g 3\n" * 1000
    (tmp_path / "p.gz").write_bytes(gzip.compress(plain))
    assert head(tmp_path / "p.gz", 11) == b"main;f;g 3\n"
    with opened(tmp_path / "p.gz") as stream:
        assert stream.read() == plain
    (tmp_path / "bomb.gz").write_bytes(gzip.compress(b"\0" * (64 << 20)))
    with pytest.raises(FormatError, match="gzip bomb"), opened(tmp_path / "bomb.gz", 1 << 20) as s:
        s.read()
    (tmp_path / "cut.gz").write_bytes(gzip.compress(plain)[:40])
    with pytest.raises(FormatError, match="damaged"), opened(tmp_path / "cut.gz") as s:
        s.read()


def test_nodes_and_values_handed_over_at_once() -> None:
    """extend and add_many (a reader that interned its own stacks) make the same tree."""
    one = CallTree([Column("samples", unit="samples")])
    one.add(one.path([MAIN, F, G]), {"samples": 3}, thread=1)
    one.add(one.path([MAIN, F]), {"samples": 2}, thread=2)
    bulk = CallTree([Column("samples", unit="samples")])
    bulk.extend([-1, 0, 1], [MAIN, F, G])
    bulk.add_many(np.asarray([2]), np.asarray([[3.0]]), thread=1)
    bulk.add_many(np.asarray([1]), np.asarray([[2.0]]), thread=2)
    assert bulk.totals() == one.totals() == {"samples": 5.0}
    assert bulk.child(0, F) == 1  # the nodes handed over are found again
    a, b = one.graphframe().dataframe, bulk.graphframe().dataframe
    assert a["samples (inc)"].tolist() == b["samples (inc)"].tolist()
    with pytest.raises(ValueError, match="nodes of the tree"):
        bulk.add_many(np.asarray([0, 9]), np.asarray([[1.0], [1.0]]))
    with pytest.raises(ValueError, match="a parent must be ROOT or a node before"):
        bulk.extend([7], [G])


def test_measured_partners_counts_and_dense_rows() -> None:
    """A format that measures exclusive and inclusive (TAU, HPCToolkit) declares them as each
    other's partner: nothing is derived; a count with ``derive=False`` has no partner; values
    added many at once equal values added one by one; ``dense`` gives every node a row in every
    rank (zeros where it was not reached)."""
    import numpy as np

    columns = [
        Column("calls", unit="calls", derive=False),
        Column("time", "exclusive", "us", partner="time (inc)"),
        Column("time (inc)", "inclusive", "us", partner="time"),
    ]
    tree = CallTree(columns)
    main, f = tree.path([MAIN]), tree.path([MAIN, F])
    tree.add(main, {"calls": 1, "time": 2.0, "time (inc)": 9.0}, rank=0)
    tree.add_many([f, f], {"calls": np.array([1.0, 2.0]), "time": np.array([3.0, 4.0])}, rank=0)
    tree.add_many([main], {"time (inc)": np.array([5.0]), "time": np.array([5.0])}, rank=1)
    assert tree.totals() == {"calls": 4.0, "time": 14.0, "time (inc)": 14.0}
    gf = tree.graphframe()
    df = gf.dataframe
    assert list(df.columns) == ["calls", "time", "time (inc)", "name"]
    assert gf.exc_metrics == ["calls", "time"] and gf.inc_metrics == ["time (inc)"]
    pins = json.loads(gf.metadata[KEY])
    assert pins == {
        "calls": ["exclusive", None, "calls"],
        "time": ["exclusive", "time (inc)", "us"],
        "time (inc)": ["inclusive", "time", "us"],
    }
    got = {(n.frame["name"], r): (c, e, i) for (n, r), c, e, i in zip(
        df.index, df["calls"], df["time"], df["time (inc)"], strict=True
    )}  # fmt: skip
    assert got == {("main", 0): (1, 2, 9), ("f", 0): (3, 7, 0), ("main", 1): (0, 5, 5)}
    dense = tree.graphframe(dense=True).dataframe
    assert len(dense) == 4 and dense["time"].sum() == 14.0
    with pytest.raises(ValueError, match="partner"):
        CallTree([Column("a", partner="b"), Column("b", partner="a")])  # both exclusive
    with pytest.raises(ValueError, match="partner"):
        CallTree([Column("a", partner="c")])
