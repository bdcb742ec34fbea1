"""Functions are functions (issue 28.7): HPCToolkit's loops and statements count in the procedure
holding them, in the flat profile and in the table pane's functions and callers rows, where a
function opens into its loops and lines. Checked on every HPCToolkit profile both Hatchet
distributions read (and a Caliper profile of sampled source lines), against HPCToolkit's own
definition of a procedure's exclusive cost: its inclusive cost less its callees'."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cctviz
from cctviz.analysis.lexical import own_exclusive as given_back

from .conftest import load
from .profiles import readable
from .test_adapter import _by_folder

HPCTOOLKIT = [
    "hatchet/hpctoolkit-cpi-database",  # XML: procedures and statements
    "hatchet/hpctoolkit-allgather-database",  # XML: loops too
    "hatchet/hatchet_cpi_v4_database",  # v4: function, loop, line, instruction
]
WITH_LINES = [*HPCTOOLKIT, "hatchet/caliper-cpi-json"]  # Caliper: function, statement
PART_TYPES = {"L", "S", "loop", "statement", "line"}  # what Hatchet's readers call them


def is_part(t: Any, i: int) -> bool:
    """Whether node ``i`` is a loop or a line (a statement) of a procedure."""
    return bool(t.parent[i] >= 0 and t.types[t.type_code[i]] in PART_TYPES)


def function(t: Any, i: int) -> str:
    """The function node ``i`` is a context of: its name, without the line of the call site that
    Hatchet's XML reader writes before a called procedure's name ("296:psm_progress_wait")."""
    name = t.name(i)
    if t.types[t.type_code[i]] in ("PF", "Pr") and ":" in name and name.split(":")[0].isdigit():
        return name.split(":", 1)[1]
    return name


def owner(t: Any, i: int) -> int:
    """The procedure holding node ``i`` (``i`` itself if it is one)."""
    while is_part(t, i):
        i = int(t.parent[i])
    return i


def own_exclusive(t: Any, metric: str) -> np.ndarray:
    """Exclusive values with what Hatchet's XML reader took out of a statement's parent given
    back (the statement's own value); as they are where there are no statements."""
    values = t.metrics[metric].values
    out = values.copy()
    for i in range(t.size):
        taken_out = is_part(t, i) and t.types[t.type_code[i]] in ("S", "statement")
        if taken_out and not np.isnan(values[i]):
            p = int(t.parent[i])
            out[p] = values[i] + (0.0 if np.isnan(out[p]) else out[p])
    return out


def _callees(t: Any, i: int) -> list[int]:
    """The procedures ``i`` calls: those whose nearest procedure ancestor is ``i``."""
    return [
        j
        for j in range(t.size)
        if not is_part(t, j) and t.parent[j] >= 0 and owner(t, int(t.parent[j])) == i
    ]


def _exclusive_by_definition(t: Any, exc: str, inc: str, i: int) -> float:
    """HPCToolkit's exclusive cost of procedure ``i``: its inclusive cost less its callees'."""
    values = np.nan_to_num(t.metrics[inc].values)
    return float(values[i] - values[_callees(t, i)].sum())


@pytest.mark.parametrize("folder", WITH_LINES)
def test_a_function_row_holds_its_loops_and_lines_as_hpctoolkit_counts_them(folder: str) -> None:
    w = cctviz.CCT(load(_by_folder(folder)))
    t = w.table
    exc = next(m for m in t.metrics.values() if m.kind == "exclusive" and m.partner)
    parts = [i for i in range(t.size) if is_part(t, i)]
    assert parts, "this profile has loops or statements: the case under test"
    flat = w.flat_profile()
    # no row is a loop or a line: "<unknown file> [osu_allgather]:0" was a row of 33 contexts
    assert not any(is_part(t, i) for ids in flat["ids"] for i in ids)
    functions = {t.name(i) for i in range(t.size) if not is_part(t, i)}
    only_parts = {t.name(i) for i in parts} - functions
    assert only_parts and not only_parts & set(flat["name"])
    # every procedure is a context of its row; a row's exclusive value is HPCToolkit's
    assert sum(flat["contexts"]) == t.size - len(parts)
    tiny = 1e-12 * np.nanmax(t.metrics[exc.partner].values)  # inclusive less callees: rounding
    for row in flat.to_dict("records"):
        want = sum(_exclusive_by_definition(t, exc.name, exc.partner, i) for i in row["ids"])
        got = np.nan_to_num(row[exc.name])  # missing: no value, where HPCToolkit says 0
        assert got == pytest.approx(want, rel=1e-9, abs=tiny), row["name"]
    # so the functions add up to the whole program, counted once
    total = np.nansum(t.metrics[exc.partner].values[t.roots])
    assert np.nansum(flat[exc.name]) == pytest.approx(total, rel=1e-9)


@pytest.mark.parametrize("folder", WITH_LINES)
def test_the_rule_gives_back_only_what_the_reader_took_out(folder: str) -> None:
    """Which values already hold their parts' (v4: all; XML and Caliper: all but a statement's
    parent)."""
    t = cctviz.CCT(load(_by_folder(folder))).table
    exc = next(m for m in t.metrics.values() if m.kind == "exclusive" and m.partner)
    own = given_back(t, exc.values)
    np.testing.assert_array_equal(own, own_exclusive(t, exc.name))
    procedures = [i for i in range(t.size) if not is_part(t, i)]
    tiny = 1e-12 * np.nanmax(t.metrics[exc.partner].values)
    for i in procedures:
        want = _exclusive_by_definition(t, exc.name, exc.partner, i)
        assert np.nan_to_num(own[i]) == pytest.approx(want, rel=1e-9, abs=tiny), t.name(i)
    statements = "S" in t.types or "statement" in t.types
    # the XML reader's procedures with statements lost their values, Caliper's never had
    # them; v4's functions hold their lines' and loops'
    changed = sum(np.nan_to_num(own[i]) != np.nan_to_num(exc.values[i]) for i in procedures)
    assert (changed > 0) == statements


def test_other_profiles_have_a_row_per_node_name_as_before() -> None:
    for profile in readable():
        if profile.folder in WITH_LINES or profile.reader == "thicket":
            continue
        w = cctviz.CCT(load(profile))
        t = w.table
        assert not any(is_part(t, i) for i in range(t.size)), profile.id
        flat = w.flat_profile()
        assert flat["contexts"].sum() == t.size, profile.id
        assert set(flat["name"]) == {t.name(i) for i in range(t.size)}, profile.id


def _ask(w: Any, **request: Any) -> dict[str, Any]:
    sent: list[dict[str, Any]] = []
    w.send = lambda content, buffers=None: sent.append(content)
    w._on_message(w, {"id": 5, **request}, [])
    assert sent and sent[-1]["id"] == 5 and sent[-1]["ok"], sent[-1]
    return sent[-1]


def _parts_below(t: Any, nodes: list[int]) -> dict[str, list[int]]:
    """The loops and lines directly in ``nodes``, by name."""
    out: dict[str, list[int]] = {}
    for j in range(t.size):
        if is_part(t, j) and int(t.parent[j]) in nodes:
            out.setdefault(t.name(j), []).append(j)
    return out


@pytest.mark.parametrize("folder", HPCTOOLKIT[1:])
def test_function_rows_open_into_their_loops_and_lines(folder: str) -> None:
    w = cctviz.CCT(load(_by_folder(folder)))
    t = w.table
    exc = w.table.metrics[w.color_by]
    own = own_exclusive(t, exc.name) if exc.kind == "exclusive" else exc.values
    column = 0 if exc.kind == "exclusive" else None
    top = _ask(w, type="rows", mode="functions", path=[])["rows"]
    flat = w.flat_profile().set_index("name")
    # a function with a loop holding lines: the nesting under test
    name = next(
        n
        for n in top["label"]
        if any(
            t.types[t.type_code[j]] in ("L", "loop") and _parts_below(t, [j])
            for js in _parts_below(t, flat.loc[n, "ids"]).values()
            for j in js
        )
    )
    at = top["label"].index(name)
    assert top["more"][at] is True and top["part"][at] is False
    rows = _ask(w, type="rows", mode="functions", path=[name])["rows"]
    want = _parts_below(t, flat.loc[name, "ids"])
    assert sorted(rows["label"]) == sorted(want) and all(rows["part"])
    for label, count, value in zip(rows["label"], rows["count"], rows["values"][0], strict=True):
        assert count == len(want[label])
        values = own[want[label]]
        if column is not None and np.isnan(values).all():
            assert value is None  # missing stays missing
        elif column is not None:
            assert value == pytest.approx(np.nansum(values), rel=1e-9)
    # a loop opens into what is in it; picking it selects its contexts
    loop = next(lab for lab in rows["label"] if _parts_below(t, want[lab]))
    inner = _ask(w, type="rows", mode="functions", path=[name, loop], part=1)["rows"]
    assert sorted(inner["label"]) == sorted(_parts_below(t, want[loop])) and all(inner["part"])
    _ask(w, type="pick", mode="functions", path=[name, loop], part=1)
    assert sorted(w.selection) == sorted(want[loop])
    # the callers table: the function's callers (procedures), then its loops and lines
    callers = _ask(w, type="rows", mode="callers", path=[name])["rows"]
    callers_of = {t.name(owner(t, int(t.parent[i]))) for i in flat.loc[name, "ids"]}
    assert {lab for lab, p in zip(callers["label"], callers["part"], strict=True) if not p} == (
        callers_of
    )
    assert {lab for lab, p in zip(callers["label"], callers["part"], strict=True) if p} == set(want)
    # the sandwich of a selected line is its function's
    w.select(want[loop][0])
    w.table_mode = "sandwich"
    assert w.sandwich == name


@pytest.mark.parametrize(
    "folder", ["hatchet/hpctoolkit-allgather-database", "hatchet/hpctoolkit-cpi-database"]
)
def test_a_function_called_from_several_lines_is_one_function(folder: str) -> None:
    # the XML reader names a called procedure "296:psm_progress_wait": the call site's line first
    w = cctviz.CCT(load(_by_folder(folder)))
    t = w.table
    flat = w.flat_profile()
    assert not flat["name"].str.match(r"^\d+:").any(), flat["name"][
        flat["name"].str.match(r"^\d+:")
    ]
    by_function: dict[str, list[int]] = {}
    for i in range(t.size):
        if not is_part(t, i):
            by_function.setdefault(function(t, i), []).append(i)
    split = [f for f, ids in by_function.items() if len({t.name(i) for i in ids}) > 1]
    assert split, "no function called from several lines: nothing to check"
    rows = flat.set_index("name")
    for f in split:
        assert rows.loc[f, "ids"] == by_function[f]
    # the tree keeps the call line; a context's name still finds its function
    f = split[0]
    shown = next(t.name(i) for i in by_function[f] if t.name(i) != f)
    assert w.callers(shown, depth=0)["ids"].tolist() == w.callers(f, depth=0)["ids"].tolist()
    w.sandwich = f
    assert w.sandwich == f
