"""The tree-table: ``table_metrics`` (checked against the metrics), ``table_columns``,
``table_frame`` (what the pane's contexts table shows, equal to ``node_frame``), the columns,
shares and kinds of the pane's rows, saved state, and the rows a tree-table figure keeps."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets

import cctviz
from cctviz.analysis.merged import MergedTrees
from cctviz.view.tree_table import figure_rows, top_rows

from .conftest import load
from .profiles import readable
from .test_adapter import _by_folder
from .test_table_pane import _ask

CPI = "hatchet/hpctoolkit-cpi-database"  # 4 ranks: the reducer changes the values


@pytest.fixture
def w() -> Any:
    return cctviz.CCT(load(_by_folder(CPI)))


def _with_ratio() -> Any:
    """A view of the same profile with a third metric that does not add up (a ratio)."""
    gf = load(_by_folder(CPI)).deepcopy()
    gf.dataframe["cost per call"] = gf.dataframe["time (inc)"] / 7.0
    gf.exc_metrics = [*gf.exc_metrics, "cost per call"]
    return cctviz.CCT(gf, metric_kinds={"cost per call": "ratio"})


def test_table_frame_is_node_frame_in_the_panes_order(w: Any) -> None:
    frame = w.table_frame
    t = w.table
    assert list(frame.columns) == ["depth", "name", "time", "time (inc)"]
    assert sorted(frame.index) == list(range(t.size))  # every node once
    nodes = w.node_frame.loc[frame.index]
    pd.testing.assert_frame_equal(frame[["name", "time", "time (inc)"]], nodes[frame.columns[1:]])
    # pre-order: each row's parent is above it, one level up; siblings largest first
    position = {int(i): k for k, i in enumerate(frame.index)}
    for i, depth in zip(frame.index, frame["depth"], strict=True):
        p = int(t.parent[i])
        assert (depth == 0) if p < 0 else (position[p] < position[int(i)] and depth == t.depth[i])
    inc = t.metrics["time (inc)"].values
    for parent in range(t.size):
        kids = [int(i) for i in frame.index if t.parent[i] == parent]
        assert np.all(np.diff(np.nan_to_num(inc[kids], nan=-np.inf)) <= 0), parent
    assert frame.attrs["totals"] == {"time": pytest.approx(inc[t.roots].sum())} | {
        "time (inc)": pytest.approx(inc[t.roots].sum())
    }


def test_table_frame_follows_the_focus_and_the_reducer(w: Any) -> None:
    t = w.table
    main = next(i for i in range(t.size) if t.name(i) == "main")
    w.focused = main
    frame = w.table_frame
    end = int(MergedTrees(t).end[main])
    assert sorted(frame.index) == list(range(main, end + 1))
    assert frame["depth"].iloc[0] == 0 and frame.index[0] == main
    mean = frame["time (inc)"].copy()
    w.reducer = "max"
    assert (w.table_frame["time (inc)"] >= mean.reindex(w.table_frame.index)).all()
    assert (w.table_frame["time (inc)"] > mean.reindex(w.table_frame.index)).any()
    pd.testing.assert_series_equal(
        w.table_frame["time (inc)"], w.node_frame.loc[w.table_frame.index, "time (inc)"]
    )


def test_table_metrics_choose_the_columns_and_are_checked(w: Any) -> None:
    assert w.table_metrics == () and w.table_columns == ["time", "time (inc)"]
    w.table_metrics = ["time (inc)", "time", "time (inc)"]
    assert w.table_metrics == ("time (inc)", "time")  # duplicates dropped, order kept
    assert list(w.table_frame.columns) == ["depth", "name", "time (inc)", "time"]
    with pytest.raises(traitlets.TraitError, match=r"no metric 'tme'.*'time', 'time \(inc\)'"):
        w.table_metrics = ["tme"]
    with pytest.raises(ValueError, match="no metric 'tme'"):  # also a ValueError, as color_by's
        w.table_metrics = ["tme"]
    with pytest.raises(traitlets.TraitError, match=r"list of metric names, e.g. \['time'\]"):
        w.table_metrics = "time"
    with pytest.raises(traitlets.TraitError, match=r"holds metric names \(str\); got 3"):
        w.table_metrics = ["time", 3]
    assert w.table_metrics == ("time (inc)", "time")  # a refused value changes nothing
    with pytest.raises(traitlets.TraitError, match="no metric 'nope'"):
        cctviz.CCT(load(_by_folder(CPI)), table_metrics=["nope"])


def test_default_columns_are_colour_and_size_with_partners() -> None:
    v = _with_ratio()
    assert v.table_columns == ["time", "time (inc)"]
    v.color_by = "cost per call"
    assert v.table_columns == ["cost per call", "time", "time (inc)"]
    v.size_by = "time"
    assert v.table_columns == ["cost per call", "time", "time (inc)"]


def test_rows_carry_the_chosen_columns_their_totals_and_kinds() -> None:
    v = _with_ratio()
    v.table_metrics = ["cost per call", "time (inc)", "time"]
    t = v.table
    top = _ask(v, type="rows", mode="contexts", node=None)["rows"]
    assert top["columns"] == ["cost per call", "time (inc)", "time"]
    assert top["kinds"] == ["ratio", "inclusive", "exclusive"]
    total = float(t.metrics["time (inc)"].values[t.roots].sum())
    # shares where the metric adds up, of the whole profile's inclusive total; none for a ratio
    assert top["totals"] == [None, pytest.approx(total), pytest.approx(total)]
    for k, name in enumerate(top["columns"]):
        assert top["values"][k] == [float(t.metrics[name].values[i]) for i in top["node"]]
    flat = _ask(v, type="rows", mode="functions", path=[])["rows"]
    assert flat["columns"] == top["columns"] and len(flat["values"]) == 3
    # under imbalance nothing adds up: no shares; the values are the reducer's
    v.reducer = "imbalance"
    again = _ask(v, type="rows", mode="contexts", node=None)["rows"]
    assert again["totals"] == [None, None, None]
    assert again["values"][1] == [float(v.node_frame.loc[i, "time (inc)"]) for i in again["node"]]


def test_table_metrics_are_saved_and_what_a_profile_lacks_is_left_out(w: Any) -> None:
    v = _with_ratio()
    v.table_metrics = ["cost per call", "time"]
    state = v.view_state
    assert state["table_metrics"] == ["cost per call", "time"]
    again = cctviz.CCT(load(_by_folder(CPI)), state=state)  # has no "cost per call"
    assert again.table_metrics == ("time",)
    with pytest.raises(TypeError, match=r"state\['table_metrics'\] must be a list"):
        cctviz.CCT(load(_by_folder(CPI)), state={**state, "table_metrics": "time"})


def test_figure_rows_keep_the_largest_with_their_ancestors(w: Any) -> None:
    t = w.table
    frame = w.table_frame
    for count in (1, 5, 12):
        ids = figure_rows(t, frame, count)
        assert len(ids) == count
        kept = set(ids)
        assert all(t.parent[i] < 0 or int(t.parent[i]) in kept for i in ids)
        assert ids == [i for i in frame.index if i in kept]  # the pane's order
    # the first rows by inclusive value: the biggest leaf-ward path comes first
    inc = t.metrics["time (inc)"].values
    five = figure_rows(t, frame, 5)
    assert min(inc[five]) >= np.sort(inc)[-5] - 1e-9
    assert figure_rows(t, frame, [7, 3]) == [i for i in frame.index if i in (3, 7)]
    with pytest.raises(ValueError, match="rows must be at least 1"):
        figure_rows(t, frame, 0)
    with pytest.raises(ValueError, match=f"no node 99999: ids run from 0 to {t.size - 1}"):
        figure_rows(t, frame, [99999])
    with pytest.raises(TypeError, match=r"number of rows .* or a list of node ids; got 'all'"):
        figure_rows(t, frame, "all")
    w.focused = int(frame.index[2])  # a subtree: its root's ancestors are outside
    root = int(frame.index[0])
    with pytest.raises(ValueError, match=f"node {root} is not in the table: it is outside"):
        figure_rows(t, w.table_frame, [root])


def test_top_rows_never_breaks_the_tree() -> None:
    # 0 ─ 1 ─ 2 (the largest value, deep down), 0 ─ 3
    parent = np.array([-1, 0, 1, 0])
    values = np.array([1.0, 2.0, 9.0, 5.0])
    ids = np.arange(4)
    assert top_rows(ids, parent, values, 2).tolist() == [0, 3]  # 2 needs 1 and 0: three rows
    assert top_rows(ids, parent, values, 3).tolist() == [0, 1, 2]


def test_bad_table_figure_calls_fail_before_drawing(w: Any, tmp_path: Any) -> None:
    with pytest.raises(ValueError, match=r"accepted extensions: \.svg, \.pdf, \.png"):
        w.table_figure(tmp_path / "t.docx")
    with pytest.raises(TypeError, match="unknown table figure option 'height'; accepted: rows"):
        w.table_figure(height=300)
    with pytest.raises(ValueError, match="unknown figure style 'poster'"):
        w.table_figure(style="poster")


def test_table_frame_of_a_thicket_is_its_node_frame() -> None:
    profiles = [p for p in readable() if p.reader == "thicket"]
    if not profiles:
        pytest.skip("Thicket needs llnl-thicket (the LLNL test environment)")
    v = cctviz.CCT(load(profiles[0]))
    frame = v.table_frame
    assert sorted(frame.index) == list(range(v.table.size))
    columns = v.table_columns
    pd.testing.assert_frame_equal(frame[columns], v.node_frame.loc[frame.index, columns])


def test_a_figure_is_of_the_tree_or_of_the_table(tmp_path: Any) -> None:
    """One ``Figure`` for both (``w.save``'s tree, ``w.table_figure``'s table): ``what`` names
    which, and the title a file gets when the options give none."""
    from cctviz.figure import Figure
    from cctviz.figure.render import figure_options

    options = figure_options(width=100, height=100)
    svg = '<svg xmlns="http://www.w3.org/2000/svg"/>'
    assert Figure(svg, 3, options, {}).what == "tree"
    written = Figure(svg, 3, options, {}, what="table").write(tmp_path / "t.svg")
    assert written.read_text(encoding="utf-8").endswith(svg + "\n")
    with pytest.raises(ValueError, match="a figure is of 'tree' or 'table'; got 'graph'"):
        Figure(svg, 3, options, {}, what="graph")
