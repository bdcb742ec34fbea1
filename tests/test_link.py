"""``cctviz.link``: two widgets whose trees differ share selection, focus, collapse and roots by
call path, never by table position."""

from __future__ import annotations

from typing import Any

import pytest

import cctviz
from cctviz.core.callpath import call_path, path_key


def _cpi_and_filtered() -> tuple[Any, Any]:
    """The issue's repro: cpi, and cpi without MPI_Init (squashed: every id after it shifts)."""
    gf = cctviz.examples.load("hpctoolkit-cpi")
    sub = gf.filter(lambda row: row["name"] != "27:MPI_Init", squash=True, num_procs=1)
    return cctviz.CCT(gf), cctviz.CCT(sub)


def _contexts(w: Any) -> list[Any]:
    """Each node's calling context: its call path (frames from the root) and its occurrence
    among the nodes with that path (HPCToolkit repeats some), in pre-order."""
    seen: dict[Any, int] = {}
    out = []
    for node in w.table.nodes:
        path = path_key(call_path(node))
        out.append((path, seen.get(path, 0)))
        seen[path] = seen.get(path, 0) + 1
    return out


def test_selection_follows_the_call_path_not_the_table_position() -> None:
    a, b = _cpi_and_filtered()
    assert a.table.size > b.table.size
    link = cctviz.link(a, b)
    # every node of a that b has (the same call path) is selected in b at b's own id
    in_b = {context: j for j, context in enumerate(_contexts(b))}
    checked = 0
    for i, context in enumerate(_contexts(a)):
        if context not in in_b:
            continue
        a.selection = (i,)
        assert b.selection == (in_b[context],)
        assert link.skipped["selection"] == []
        checked += int(in_b[context] != i)
    assert checked > 5, "ids differ between the two trees: the case under test"
    # and back: a selection in b is the same contexts in a
    b.select("main")
    assert [a.table.name(i) for i in a.selection] == ["main"]


def test_a_node_the_other_tree_lacks_is_skipped_and_reported() -> None:
    a, b = _cpi_and_filtered()
    link = cctviz.link(a, b)
    init = next(i for i in range(a.table.size) if a.table.name(i) == "27:MPI_Init")
    main = next(i for i in range(a.table.size) if a.table.name(i) == "main")
    a.selection = (init, main)
    assert [b.table.name(i) for i in b.selection] == ["main"]
    assert link.skipped["selection"] == ["27:MPI_Init"]
    a.focused = init
    assert b.focused is None and link.skipped["focused"] == ["27:MPI_Init"]


def test_focus_collapse_and_roots_both_ways_until_unlinked() -> None:
    a, b = _cpi_and_filtered()
    link = cctviz.link(a, b)
    a.focus("62:MPI_Finalize")
    assert b.table.name(b.focused) == "62:MPI_Finalize"
    b.collapse("main")
    assert [a.table.name(i) for i in a.collapsed] == ["main"]
    a.visible_roots = (int(a.table.roots[0]),)
    assert b.visible_roots == (int(b.table.roots[0]),)
    link.unlink()
    a.select("main")
    assert b.selection == ()


def test_b_starts_from_a_and_a_new_table_is_indexed_again() -> None:
    a, b = _cpi_and_filtered()
    a.select("main")
    cctviz.link(a, b, names=["selection"])
    assert [b.table.name(i) for i in b.selection] == ["main"]
    # new data in b: its keys are read again
    b.data = cctviz.examples.load("hpctoolkit-cpi")
    a.select("27:MPI_Init")
    assert [b.table.name(i) for i in b.selection] == ["27:MPI_Init"]


def test_link_names_what_it_accepts() -> None:
    a, b = _cpi_and_filtered()
    with pytest.raises(ValueError, match=r"'palette' is not one.*'selection'.*traitlets.link"):
        cctviz.link(a, b, names=["palette"])
    with pytest.raises(TypeError, match="two cctviz widgets; got dict"):
        cctviz.link(a, {}, names=["selection"])
