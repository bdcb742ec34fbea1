"""Search from Python: setting ``w.search`` opens nothing and counts over the full tree;
``search_step`` opens one match's ancestors and tells the view to go there; ``search_show_all``
opens every match's; under level of detail Python counts and loads what is stepped to."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import cctviz
from cctviz.widget.code import drawn_ids

from .conftest import load
from .profiles import PROFILES, REPO

sys.path.insert(0, str(REPO / "benchmarks"))
from synthetic import graphframe

ALLGATHER = next(p for p in PROFILES if p.folder == "hatchet/hpctoolkit-allgather-database")


def ancestors(w: cctviz.CCT, node: int) -> set[int]:
    parent, out, j = w.table.parent, set(), int(w.table.parent[node])
    while j >= 0:
        out.add(j)
        j = int(parent[j])
    return out


@pytest.fixture
def allgather() -> tuple[cctviz.CCT, list[dict[str, Any]]]:
    """The allgather profile (1,474 nodes) collapsed below depth 2, and what it sends the page."""
    w = cctviz.CCT(load(ALLGATHER))
    depth = w.table.depth
    w.collapsed = tuple(int(i) for i in np.flatnonzero(depth == 2) if (w.table.parent == i).any())
    sent: list[dict[str, Any]] = []
    w.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    return w, sent


def test_typing_a_pattern_opens_nothing_and_counts_the_full_tree(allgather: Any) -> None:
    w, sent = allgather
    folded = w.collapsed
    drawn = drawn_ids(w)
    for prefix in ("P", "PM", "PMP", "PMPI", "PMPI_"):  # each keystroke's pattern
        w.search = prefix
        assert w.collapsed == folded
    assert drawn_ids(w) == drawn
    names = w.table.names
    expected = [i for i in range(w.table.size) if "pmpi_" in names[w.table.name_code[i]].lower()]
    assert w.search_matches == expected and len(expected) == 5
    assert sent == []  # nothing told to the view: it counts and marks the matches itself


def test_a_step_opens_exactly_one_matchs_ancestors(allgather: Any) -> None:
    w, sent = allgather
    w.search = "PMPI_"
    matches = w.search_matches
    hidden = [m for m in matches if m not in drawn_ids(w)]
    assert hidden  # some matches are inside collapsed subtrees
    folded = set(w.collapsed)
    first = w.search_step()
    assert first == matches[0]
    assert set(w.collapsed) == folded - ancestors(w, first)
    assert first in drawn_ids(w)
    assert sent[-1] == {"type": "show_match", "node": first}
    second = w.search_step(1)
    assert second == matches[1]
    assert set(w.collapsed) == folded - ancestors(w, first) - ancestors(w, second)
    assert w.search_step(-1) == first
    assert w.search_step(-1) == matches[-1]  # wraps around
    with pytest.raises(ValueError, match="search_step takes 1"):
        w.search_step(2)


def test_show_all_opens_every_match_and_says_how_many_nodes(allgather: Any) -> None:
    w, _ = allgather
    w.search = "MPI"
    before = len(drawn_ids(w))
    opened = w.search_show_all()
    after = drawn_ids(w)
    assert opened == len(after) - before > 0
    assert set(w.search_matches) <= set(after)
    assert w.search_show_all() == 0  # nothing more to open


def test_steps_stay_inside_the_focus() -> None:
    w = cctviz.CCT(load(ALLGATHER))
    w.search = "MPI"
    matches = w.search_matches
    # a node holding some of the matches, not all
    under = {n: {m for m in matches if n in ancestors(w, m) | {m}} for n in matches}
    w.focused = next(n for n in matches if 1 < len(under[n]) < len(matches))
    inside = under[w.focused]
    reached = {w.search_step() for _ in range(len(matches))}
    assert reached == inside


def test_a_new_search_starts_from_the_first_match(allgather: Any) -> None:
    w, _ = allgather
    w.search = "MPI"
    w.search_step()
    w.search_step()
    w.search = "PMPI_"
    assert w.search_step() == w.search_matches[0]


def test_under_level_of_detail_python_counts_and_loads_what_is_stepped_to() -> None:
    w = cctviz.CCT(graphframe(20_000, seed=3), budget=500)
    sent: list[dict[str, Any]] = []
    w.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    hidden = np.flatnonzero(~w._lod.revealed)
    name = w.table.name(int(hidden[-1]))
    payload = w._payload
    w.search = name
    matches = w.search_matches
    assert w._payload is payload  # a search loads nothing...
    assert w._search_count == {"search": name, "regex": False, "case": False, "count": len(matches)}
    # ...the page asks for the match after the one it is on, which Python loads, then answers
    last = matches[-1]
    w._on_message(w, {"type": "find", "id": 7, "node": matches[-2], "step": 1}, [])
    assert sent[-1] == {
        "type": "reply",
        "id": 7,
        "ok": True,
        "loaded": sent[-1]["loaded"],
        "match": last,
    }
    assert sent[-1]["loaded"] > 0 and w._lod.revealed[last]
    w._on_message(w, {"type": "find", "id": 8, "node": -1, "step": 0}, [])
    assert sent[-1]["ok"] and sent[-1]["match"] == -1 and w._lod.revealed[matches].all()
    w._on_message(w, {"type": "find", "id": 9, "node": 0, "step": 3}, [])
    assert sent[-1]["ok"] is False and "step of 1, -1 or 0" in sent[-1]["error"]
    # Python's own step loads its match too
    w.search = w.table.name(int(np.flatnonzero(~w._lod.revealed)[-1]))
    node = w.search_step()
    assert node is not None and w._lod.revealed[node]
