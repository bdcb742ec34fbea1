"""Callgrind files (cctviz/adapters/formats/callgrind.py) valgrind wrote
(tests/data/formats/callgrind/SOURCE.md): every event's total at the roots equals the file's
``totals:`` line, names, objects, files and lines come through, recursion as callgrind writes
it; a cut or damaged file is said."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import cctviz
from cctviz.adapters.formats.source import FormatError

from .formats_util import DATA, at_roots, names, rows

FILES = sorted((DATA / "callgrind").glob("*.callgrind.out"))


def own(path: Path) -> dict[str, int]:
    """The file's own totals: its ``events:`` and ``totals:`` lines."""
    text = path.read_text(encoding="utf-8")
    events = re.search(r"^events: (.*)$", text, re.M)
    totals = re.search(r"^totals: (.*)$", text, re.M)
    assert events and totals
    return dict(zip(events[1].split(), map(int, totals[1].split()), strict=True))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_events_total_at_the_roots_is_the_files(path: Path) -> None:
    gf = cctviz.read(path)
    totals = own(path)
    assert gf.metadata["callgrind.events"] == list(totals)
    for event, total in totals.items():
        assert at_roots(gf, f"{event} (inc)") == pytest.approx(total, rel=1e-9, abs=0)


def test_functions_come_with_object_file_and_line() -> None:
    gf = cctviz.read(DATA / "callgrind" / "fib.callgrind.out")
    by_name = {n.frame["name"]: (n, row) for n, row in rows(gf)}
    main = by_name["main"][0].frame
    assert (main["file"], int(main["line"]), main["module"]) == (
        "/tmp/fx/prog.c",
        32,
        "/tmp/fx/prog",
    )
    # leaf_add called from work only once per round: its cost there is the call arc's, exactly
    # (the file's "calls=3" arc from work to leaf_add costs 6600045)
    work_leaf = [row for n, row in rows(gf) if names(n)[-2:] == ("work", "leaf_add")]
    assert [r["Ir (inc)"] for r in work_leaf] == [6600045.0]
    # recursion as callgrind writes it (--separate-recs=2 by default): fib, then fib'2 below it
    assert any(names(n)[-2:] == ("fib", "fib'2") for n, _ in rows(gf))
    assert gf.metadata["callgrind.recursive_arcs"] == 1  # fib'2 → fib'2, inside fib'2's cost


def test_the_cache_simulation_has_every_event_as_a_metric() -> None:
    gf = cctviz.read(DATA / "callgrind" / "fib-cache.callgrind.out")
    assert gf.exc_metrics == ["Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"]
    # its summary: line counts 2 more Ir than its totals: (callgrind's own); totals: is checked
    text = (DATA / "callgrind" / "fib-cache.callgrind.out").read_text()
    assert "summary: 6865963" in text and "totals: 6865961" in text


@pytest.mark.parametrize("at", [0.3, 0.5, 0.9, 0.99])
def test_a_cut_file_is_said(tmp_path: Path, at: float) -> None:
    """Cut anywhere (mid-line too): the file's summary: line says costs are missing, or the cut
    line is named; never a tree with a wrong total."""
    text = (DATA / "callgrind" / "fib.callgrind.out").read_bytes()
    cut = tmp_path / "cut.callgrind.out"
    cut.write_bytes(text[: int(len(text) * at)])
    with pytest.raises(
        FormatError, match=r"costs add up to \[\d+\] but the file's summary: line|line \d+: "
    ):
        cctviz.read(cut)
    cut.write_bytes(text[: int(len(text) * at)].rsplit(b"\n", 1)[0] + b"\n")
    with pytest.raises(FormatError, match=r"costs add up to \[\d+\] but the file's summary: line"):
        cctviz.read(cut)


def test_an_unknown_compressed_name_is_named(tmp_path: Path) -> None:
    text = (DATA / "callgrind" / "fib.callgrind.out").read_text()
    bad = tmp_path / "bad.callgrind.out"
    bad.write_text(text.replace("fn=(554) leaf_mul", "fn=(99999)", 1))
    with pytest.raises(FormatError, match=r"line \d+: fn=\(99999\) refers to a compressed name"):
        cctviz.read(bad)


def callgrind_text(self_cost: dict[str, int], arcs: dict[tuple[str, str], int]) -> str:
    """A callgrind file of functions with self costs and caller → callee arcs (with costs)."""
    ids = {name: i for i, name in enumerate(self_cost, 1)}
    total = sum(self_cost.values())
    out = ["# callgrind format", "version: 1", "positions: line", "events: Ir"]
    out += [f"summary: {total}", "fl=(1) x.c"]
    named: set[str] = set()

    def ref(name: str) -> str:
        first = name not in named
        named.add(name)
        return f"({ids[name]}) {name}" if first else f"({ids[name]})"

    for name, cost in self_cost.items():
        out += [f"fn={ref(name)}", f"{ids[name]} {cost}"]
        for (caller, callee), arc in arcs.items():
            if caller == name:
                out += [f"cfn={ref(callee)}", f"calls=1 {ids[callee]}", f"{ids[name]} {arc}"]
    return "\n".join([*out, f"totals: {total}", ""])


def test_mutual_recursion_is_cut_where_it_closes_and_adds_up(tmp_path: Path) -> None:
    path = tmp_path / "cycle.callgrind.out"
    path.write_text(
        callgrind_text(
            {"main": 5, "a": 10, "b": 7},
            {("main", "a"): 17, ("a", "b"): 7, ("b", "a"): 4},
        )
    )
    gf = cctviz.read(path)
    got = {names(n): (row["Ir"], row["Ir (inc)"]) for n, row in rows(gf)}
    assert got == {
        ("main",): (5.0, 22.0),
        ("main", "a"): (10.0, 17.0),
        ("main", "a", "b"): (7.0, 7.0),
    }
    assert gf.metadata["callgrind.recursive_arcs"] == 1  # b → a, inside a's own cost


def test_a_function_called_from_two_places_is_shared_by_its_arcs(tmp_path: Path) -> None:
    path = tmp_path / "shared.callgrind.out"
    path.write_text(
        callgrind_text(
            {"main": 1, "x": 2, "y": 3, "leaf": 40},
            {("main", "x"): 32, ("main", "y"): 13, ("x", "leaf"): 30, ("y", "leaf"): 10},
        )
    )
    gf = cctviz.read(path)
    got = {names(n): row["Ir"] for n, row in rows(gf)}
    assert got[("main", "x", "leaf")] == 30.0 and got[("main", "y", "leaf")] == 10.0
    assert at_roots(gf, "Ir (inc)") == 46.0


def test_an_expansion_past_max_nodes_is_said(tmp_path: Path) -> None:
    """Two functions per level, each calling both of the next level: 2**levels call paths."""
    levels = 12
    cost = {"main": 1} | {f"{s}{i}": 1 for i in range(levels) for s in "ab"}
    arcs = {("main", "a0"): 1, ("main", "b0"): 1}
    for i in range(levels - 1):
        for s in "ab":
            arcs |= {(f"{s}{i}", f"a{i + 1}"): 1, (f"{s}{i}", f"b{i + 1}"): 1}
    path = tmp_path / "wide.callgrind.out"
    path.write_text(callgrind_text(cost, arcs))
    with pytest.raises(FormatError, match=r"more than 1,000 calling contexts.*max_nodes="):
        cctviz.read(path, max_nodes=1000)
