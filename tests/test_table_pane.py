"""The table pane's rows and the caller/callee frames against their definitions, computed by
brute force on real profiles (recursive ones included), and the pane's messages."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import traitlets

import cctviz
from cctviz.analysis.merged import MergedTrees, merged_frame

from .conftest import load
from .profiles import readable
from .test_adapter import _by_folder
from .test_functions import function as function_of
from .test_functions import is_part, own_exclusive

CPI = "hatchet/hpctoolkit-cpi-database"  # 4 ranks
RECURSIVE = ["hatchet/pyinstrument"]
V4 = "hatchet/hatchet_cpi_v4_database"  # its nested loops of one name are no recursion


def _up(t: Any, i: int) -> list[str]:
    """Names from node ``i`` up to its root, through the functions (not HPCToolkit's loops and
    lines: a caller is the function holding the call)."""
    names = []
    while i >= 0:
        if not is_part(t, i):
            names.append(function_of(t, i))
        i = int(t.parent[i])
    return names


def _ancestors(t: Any, i: int) -> set[int]:
    out, p = set(), int(t.parent[i])
    while p >= 0:
        out.add(p)
        p = int(t.parent[p])
    return out


def _sum(t: Any, metric: str, ids: list[int]) -> float:
    """A row's value by definition: exclusive summed; inclusive summed over the ids not inside
    another id of the row."""
    m = t.metrics[metric]
    if m.kind == "inclusive":
        ids = [i for i in ids if not (_ancestors(t, i) & set(ids))]
    values = (own_exclusive(t, metric) if m.kind == "exclusive" else m.values)[ids]
    return float(np.nansum(values)) if np.any(~np.isnan(values)) else np.nan


def _brute_callers(t: Any, function: str) -> dict[tuple[str, ...], list[int]]:
    """Every callers path of ``function`` and its origins, by walking up from each context."""
    rows: dict[tuple[str, ...], list[int]] = {}
    for i in range(t.size):
        if function_of(t, i) != function or is_part(t, i):
            continue
        up = _up(t, i)
        for k in range(1, len(up) + 1):
            rows.setdefault(tuple(up[:k]), []).append(i)
    return rows


def _brute_callees(t: Any, function: str) -> dict[tuple[str, ...], list[int]]:
    """Every callees path below the outermost contexts of ``function`` and the nodes on it."""
    rows: dict[tuple[str, ...], list[int]] = {}
    for i in range(t.size):
        up = _up(t, i)
        if function not in up or is_part(t, i):
            continue
        k = len(up) - 1 - up[::-1].index(function)  # the outermost occurrence
        rows.setdefault(tuple(up[: k + 1][::-1]), []).append(i)
    return rows


def _check(t: Any, frame: Any, expected: dict[tuple[str, ...], list[int]]) -> None:
    assert sorted(frame["path"]) == sorted(expected)
    for row in frame.to_dict("records"):
        ids = sorted(expected[row["path"]])
        assert row["ids"] == ids and row["contexts"] == len(ids)
        for metric in t.metrics:
            want = _sum(t, metric, ids) if t.metrics[metric].kind != "other" else row[metric]
            if t.metrics[metric].kind in ("exclusive", "inclusive"):
                assert (np.isnan(row[metric]) and np.isnan(want)) or row[metric] == pytest.approx(
                    want, rel=1e-12
                ), (row["path"], metric)


@pytest.mark.parametrize("folder", [*RECURSIVE, V4, CPI])
def test_callers_and_callees_are_their_definitions(folder: str) -> None:
    w = cctviz.CCT(load(_by_folder(folder)))
    t = w.table
    flat = w.flat_profile()
    recursive = 0
    for function in flat["name"][:6]:
        callers = w.callers(function)
        _check(t, callers, _brute_callers(t, function))
        callees = w.callees(function)
        _check(t, callees, _brute_callees(t, function))
        # the callers tree's first row is the function's flat-profile row
        first = flat.set_index("name").loc[function]
        assert callers.loc[0, "contexts"] == first["contexts"]
        for metric in t.metrics:
            a, b = callers.loc[0, metric], first[metric]
            assert (np.isnan(a) and np.isnan(b)) or a == pytest.approx(b, rel=1e-12)
        recursive += any(p.count(function) > 1 for p in callers["path"])
    if folder in RECURSIVE:
        assert recursive > 0, "these profiles have recursion: the case under test"
    with pytest.raises(ValueError, match="no function named 'nope'"):
        w.callers("nope")


def test_an_unknown_function_gets_close_names_as_select_gives() -> None:
    w = cctviz.CCT(cctviz.examples.load("hpctoolkit-cpi"))
    with pytest.raises(ValueError, match=r"no function named 'mian' .*; did you mean 'main'\?"):
        w.callers("mian")
    with pytest.raises(ValueError, match=r"did you mean 'PMPI_Finalize'"):
        w.callees("PMPI_Finalise")
    with pytest.raises(ValueError, match=r"no function named 'zzz' in the nodes shown$"):
        w.callers("zzz")


def test_depth_limits_the_merged_frames() -> None:
    w = cctviz.CCT(load(_by_folder(CPI)))
    name = w.flat_profile()["name"][0]
    assert {len(p) for p in w.callers(name, depth=1)["path"]} == {1, 2}
    assert {len(p) for p in w.callees("main", depth=0)["path"]} == {1}


def test_rows_of_a_thicket_are_reduced_over_profiles() -> None:
    profiles = [p for p in readable() if p.reader == "thicket"]
    if not profiles:
        pytest.skip("Thicket needs llnl-thicket (the LLNL test environment)")
    w = cctviz.CCT(load(profiles[0]))
    t = w.table
    name = w.flat_profile()["name"][0]
    _check(t, w.callers(name), _brute_callers(t, name))


def _ask(w: Any, **request: Any) -> dict[str, Any]:
    sent: list[dict[str, Any]] = []
    w.send = lambda content, buffers=None: sent.append(content)
    w._on_message(w, {"id": 3, **request}, [])
    assert sent and sent[-1]["id"] == 3
    return sent[-1]


def test_rows_messages_follow_the_focus_and_the_colour_metric() -> None:
    w = cctviz.CCT(load(_by_folder(CPI)))
    t = w.table
    top = _ask(w, type="rows", mode="contexts", node=None)["rows"]
    assert top["node"] == [int(r) for r in t.roots] and top["columns"] == ["time", "time (inc)"]
    main = next(i for i in range(t.size) if t.name(i) == "main")
    kids = _ask(w, type="rows", mode="contexts", node=main)["rows"]
    assert kids["node"] == [i for i in range(t.size) if t.parent[i] == main]
    assert kids["values"][1] == [float(t.metrics["time (inc)"].values[i]) for i in kids["node"]]
    # where each function's code is: its module without directories (cpi's main is in cpi)
    assert kids["where"] == [
        str(w.data.dataframe.iloc[t.first_row[i]]["module"]).rsplit("/", 1)[-1]
        for i in kids["node"]
    ]
    # functions: the flat profile's values, within the focused subtree once focused
    functions = _ask(w, type="rows", mode="functions", path=[])["rows"]
    assert functions["where"][functions["label"].index("main")] == "cpi"
    flat = w.flat_profile().set_index("name")
    for name, exc in zip(functions["label"], functions["values"][0], strict=True):
        assert exc == pytest.approx(flat.loc[name, "time"])
    child = kids["node"][-1]
    w.focused = child
    scoped = _ask(w, type="rows", mode="contexts", node=None)["rows"]
    assert scoped["node"] == [child]
    inside = set(range(child, int(MergedTrees(t).end[child]) + 1))
    names = {function_of(t, i) for i in inside if not is_part(t, i)}  # a statement is none
    assert set(_ask(w, type="rows", mode="functions", path=[])["rows"]["label"]) == names
    # the colour metric picks the pair of columns
    w.focused = None
    w.color_by = "time (inc)"
    columns = _ask(w, type="rows", mode="callers", path=[])["rows"]["columns"]
    assert columns == ["time", "time (inc)"]


def test_rows_of_a_profile_that_names_no_module_say_none() -> None:
    w = cctviz.CCT(cctviz.examples.load("caliper-sw4-cuda"))
    rows = _ask(w, type="rows", mode="functions", path=[])["rows"]
    assert rows["where"] == [None] * len(rows["label"])


def test_pick_selects_the_contexts_a_row_stands_for() -> None:
    w = cctviz.CCT(load(_by_folder(CPI)))
    flat = w.flat_profile()
    name, ids = flat.loc[0, "name"], flat.loc[0, "ids"]
    assert _ask(w, type="pick", mode="functions", path=[name])["picked"] == len(ids)
    assert sorted(w.selection) == ids
    callers = w.callers(name, depth=1)
    path, caller_ids = callers.loc[1, "path"], callers.loc[1, "ids"]
    _ask(w, type="pick", mode="callers", path=list(path))
    assert sorted(w.selection) == caller_ids
    _ask(w, type="pick", mode="contexts", node=ids[0], add=True)
    assert sorted(w.selection) == sorted({*caller_ids, ids[0]})
    located = _ask(w, type="locate", nodes=[ids[0]])["located"]
    assert located["names"] == [name] and located["paths"][0][-1] == ids[0]
    assert located["paths"][0][0] in w.table.roots


@pytest.mark.parametrize(
    ("request_", "says"),
    [
        ({"type": "rows", "mode": "tree"}, "unknown table mode 'tree'"),
        ({"type": "rows", "mode": "contexts", "node": 10**6}, "no node 1000000"),
        ({"type": "rows", "mode": "callees", "path": []}, "callees rows need the function"),
        ({"type": "rows", "mode": "callers", "path": ["nope"]}, "no function named 'nope'"),
        ({"type": "rows", "mode": "callers", "path": "main"}, "a list of function names"),
        ({"type": "pick", "mode": "functions", "path": []}, "needs the row's path"),
        ({"type": "locate", "nodes": "all"}, "a list of node ids"),
    ],
)
def test_bad_pane_requests_get_clear_errors(request_: dict[str, Any], says: str) -> None:
    w = cctviz.CCT(load(_by_folder(CPI)))
    reply = _ask(w, **request_)
    assert reply["ok"] is False and says in reply["error"], reply


def test_sandwich_trait_names_a_function_and_opens_the_pane() -> None:
    w = cctviz.CCT(load(_by_folder(CPI)))
    assert w.table_mode == "off"
    w.sandwich = "main"
    assert w.table_mode == "sandwich"
    with pytest.raises(traitlets.TraitError, match=r"no function named 'mian'.*'main'"):
        w.sandwich = "mian"
    # the sandwich of nothing named shows the selected node's function
    w.sandwich = ""
    w.table_mode = "off"
    w.select(3)
    w.table_mode = "sandwich"
    assert w.sandwich == w.table.name(3)
    # it is saved with the view
    state = w.view_state
    again = cctviz.CCT(load(_by_folder(CPI)), state=state)
    assert (again.table_mode, again.sandwich) == ("sandwich", w.table.name(3))


def test_merged_levels_are_built_for_all_rows_at_once() -> None:
    w = cctviz.CCT(cctviz.examples.synthetic(3000))
    trees = MergedTrees(w.table)
    whole = merged_frame(trees, trees.functions(), "callers", None)
    assert whole["contexts"][whole["path"].map(len) == 1].sum() == w.table.size
    # every origin appears once per level it reaches: the level sums are the node counts
    depth_counts = np.bincount(w.table.depth + 1)
    per_level = whole.groupby(whole["path"].map(len))["contexts"].sum()
    reach = np.cumsum(depth_counts[::-1])[::-1][1:]
    assert per_level.tolist() == reach[: len(per_level)].tolist()


def test_a_context_picked_in_the_table_is_shown_in_the_tree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = cctviz.CCT(load(_by_folder(CPI)))
    deep = max(range(w.table.size), key=lambda i: _depth(w, i))
    ancestors = []
    j = int(w.table.parent[deep])
    while j >= 0:
        ancestors.append(j)
        j = int(w.table.parent[j])
    w.collapsed = tuple(ancestors[:2])  # hidden inside collapsed callers
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    w._on_message(w, {"type": "pick", "id": 1, "mode": "contexts", "node": deep}, [])
    assert w.selection == (deep,)
    assert not set(w.collapsed) & set(ancestors)  # its callers opened
    assert {"type": "show_match", "node": deep} in sent  # the view goes to it


def _depth(w: Any, i: int) -> int:
    d = 0
    while int(w.table.parent[i]) >= 0:
        i = int(w.table.parent[i])
        d += 1
    return d
