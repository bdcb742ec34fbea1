"""An ensemble's changes in the widget (issue 32, points 2 and 3): ``w.changes`` is
``Ensemble.regressions`` over the profiles the tree shows, each change on the node of its call
path; the table drawn carries their rings and change metric (found lazily: never before the
first picture); ``w.explain`` and the page's ``changes`` and ``explain`` requests; clear errors
for a widget of a single GraphFrame."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets

import cctviz
from cctviz.core.table import name_paths

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")
pytest.importorskip("scipy")

from cctviz.ensemble.analysis import changes
from cctviz.ensemble.synthetic import Change
from cctviz.widget.compare_view import Compare
from cctviz.widget.ensemble.changes import change_metric_name

SLOWER, FASTER = 28, 20  # synthetic node indices (pre-order of the store's tree) with big costs
METRIC = change_metric_name("time (inc)")  # the changes of an inclusive colour: with their causes
OWN = change_metric_name("time")  # of the default, exclusive colour: each node's own changes


@pytest.fixture(scope="module")
def ens(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A nightly series (one configuration) of 60 runs of a 40-node code: ``SLOWER``'s own time
    × 1.5 from run 30 on, ``FASTER``'s × 0.6 from run 45 on."""
    return cctviz.examples.ensemble(
        tmp_path_factory.mktemp("changes") / "nightly",
        60,
        40,
        seed=3,
        changes=[Change(SLOWER, 30, 1.5), Change(FASTER, 45, 0.6)],
        job_sizes=(64,),
        problem_sizes=(30,),
        compilers=("gcc-12",),
    )


def _paths(w: Any) -> list[tuple[str, ...]]:
    return name_paths(w.table)


def _replies(w: Any, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    return sent


def _key(ens: Any, index: int) -> int:
    return int(ens.nodes.index[index])


@pytest.mark.parametrize("colour", ["time", "time (inc)"])
def test_changes_are_the_regressions_of_the_tree_on_its_nodes(ens: Any, colour: str) -> None:
    w = cctviz.CCT(ens, color_by=colour)
    found = w.changes
    expected = changes.regressions(ens, colour, "launchdate")
    pd.testing.assert_frame_equal(found.drop(columns="node"), expected)
    assert len(found) >= 2
    paths = _paths(w)
    for row in found.itertuples():
        assert row.node >= 0
        assert paths[row.node] == tuple(row.path)
    # the injected changes, each on its own node, where it was injected
    own = found[found["cause"] == "exclusive"].set_index("key")
    assert {_key(ens, SLOWER), _key(ens, FASTER)} <= set(own.index)
    assert own.loc[_key(ens, SLOWER), "change"] == pytest.approx(0.5, abs=0.1)
    assert own.loc[_key(ens, FASTER), "change"] == pytest.approx(-0.4, abs=0.1)
    assert str(own.loc[_key(ens, SLOWER), "at"].date()) == "2025-01-31"  # run 30
    # read-only: a copy
    found.loc[0, "node"] = -5
    assert w.changes.loc[0, "node"] != -5


def test_the_table_drawn_carries_rings_and_the_change_metric(ens: Any) -> None:
    w = cctviz.CCT(ens, color_by="time (inc)")
    assert w.table.change_metric is None and "changes" not in w._payload
    found = w.changes
    table = w.table
    assert table.change_metric == METRIC and METRIC in w.metrics
    assert w._payload["changes"]["metric"] == METRIC
    assert w._payload["changes"]["cause"]["length"] == table.size
    node_of = dict(zip(found["key"], found["node"], strict=True))
    slower = node_of[_key(ens, SLOWER)]
    assert table.change_cause[slower] == 1  # its own
    ancestors = []
    p = int(table.parent[slower])
    while p >= 0:
        ancestors.append(p)
        p = int(table.parent[p])
    assert all(table.change_cause[a] == 2 for a in ancestors)  # inclusive only
    changed = set(found["node"])
    assert all(table.change_cause[i] == 0 for i in range(table.size) if i not in changed)
    # each node's value: its largest change, in %; 0 without one
    first = found.drop_duplicates("node").set_index("node")["change"]
    values = table.metrics[METRIC].values
    np.testing.assert_allclose(values[first.index], 100 * first.to_numpy())
    assert (values[[i for i in range(table.size) if i not in changed]] == 0).all()
    # coloured by it: the diverging palette, centred on "no change"
    w.color_by = METRIC
    assert w.palette == "rdbu"
    w.color_by = "time (inc)"
    assert w.palette == "auto"


def test_they_are_found_lazily_and_once_per_where_and_metric(
    ens: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, ...]] = []
    original = changes.regressions

    def counted(ens: Any, metric: str, *args: Any, **kwargs: Any) -> Any:
        calls.append((ens.filters, metric))
        return original(ens, metric, *args, **kwargs)

    monkeypatch.setattr(changes, "regressions", counted)
    w = cctviz.CCT(ens, color_by="time (inc)")
    assert calls == []  # the first picture never waits for them
    w.changes  # noqa: B018
    w.changes  # noqa: B018
    w.color_by = METRIC  # coloured by the change: the same metric's changes
    w.color_by = "time (inc)"
    w.reducer = "max"  # another reduction of the same profiles: the rings stay
    assert w.table.change_metric == METRIC
    assert calls == [((), "time (inc)")]
    w.where = "run >= 10"  # other profiles: other changes, found when next asked for
    assert w.table.change_metric is None
    sub = w.changes
    assert calls[-1] == (("run >= 10",), "time (inc)")
    pd.testing.assert_frame_equal(
        sub.drop(columns="node"), original(ens.where("run >= 10"), "time (inc)")
    )
    paths = _paths(w)
    assert all(paths[r.node] == tuple(r.path) for r in sub.itertuples())
    w.where = ""
    assert w.table.change_metric == METRIC  # found before: drawn at once
    assert len(calls) == 2


def test_under_level_of_detail_the_drawn_rows_carry_their_causes(ens: Any) -> None:
    w = cctviz.CCT(ens, budget=10)
    found = w.changes
    cause = w._payload["changes"]["cause"]
    assert cause["length"] == w._payload["size"] < w.table.size
    got = np.frombuffer(cause["buffer"], np.int32)
    node_id = np.frombuffer(w._payload["node_id"]["buffer"], np.int32)
    for row, node in enumerate(node_id.tolist()):
        assert got[row] == (w.table.change_cause[node] if node >= 0 else 0)
    assert (got > 0).any()
    assert set(found["node"]) >= {int(n) for n in node_id[got > 0]}


def test_explain_opens_the_compare_view_of_the_runs_around_a_change(ens: Any) -> None:
    w = cctviz.CCT(ens)
    assert w.explained is None
    found = w.changes
    own = int(np.flatnonzero(found["cause"] == "exclusive")[0])
    shown = w.explain(own)
    assert isinstance(shown, Compare) and w.explained is shown
    (node,) = shown.selection
    assert _paths(shown)[node] == tuple(found.iloc[own]["path"])
    leaf = not (shown.table.parent == node).any()
    assert shown.focused == (int(shown.table.parent[node]) if leaf else node)
    day = found.iloc[own]["at"]  # five nightly runs each side, their medians compared
    assert shown.labels == (
        f"launchdate {(day - pd.Timedelta(days=5)).date()} … "
        f"{(day - pd.Timedelta(days=1)).date()} (median of 5)",
        f"launchdate {day.date()} … {(day + pd.Timedelta(days=4)).date()} (median of 5)",
    )
    assert isinstance(w.explain(found.iloc[1]), Compare)  # a row does as well
    with pytest.raises(IndexError, match=r"no change 99: w.changes has \d+ row"):
        w.explain(99)
    with pytest.raises(TypeError, match=r"a row of w\.changes or its position; got str"):
        w.explain("main")


def test_the_pages_requests(ens: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    w = cctviz.CCT(ens)
    sent = _replies(w, monkeypatch)
    w._on_message(w, {"type": "changes", "id": 1}, [])
    reply = sent[-1]
    assert reply["ok"] is True and reply["id"] == 1
    listed = reply["changes"]
    assert (listed["metric"], listed["by"]) == ("time", "launchdate")
    assert listed["caution"] == ""  # a nightly series of one configuration: nothing to say
    found = w.changes
    assert [r["node"] for r in listed["rows"]] == found["node"].tolist()
    assert [tuple(r["path"]) for r in listed["rows"]] == [tuple(p) for p in found["path"]]
    assert [r["change"] for r in listed["rows"]] == pytest.approx(found["change"].tolist())
    assert listed["rows"][0]["at"] == str(found["at"].iloc[0].date())
    assert w.table.change_metric == OWN  # the table was sent with them
    w._on_message(w, {"type": "explain", "id": 2, "index": 1}, [])
    assert sent[-1] == {
        "type": "reply",
        "id": 2,
        "ok": True,
        "model": f"IPY_MODEL_{w.explained.model_id}",
    }
    first = w.explained
    w._on_message(w, {"type": "explain", "id": 5, "index": 0}, [])
    assert sent[-1]["model"] == f"IPY_MODEL_{w.explained.model_id}"
    assert first.comm is None  # the page shows one at a time: the one it opened before is closed
    mine = w.explain(1)  # opened from Python: the page's next one leaves it open
    w._on_message(w, {"type": "explain", "id": 6, "index": 0}, [])
    assert mine.comm is not None and w.explained is not mine
    w._on_message(w, {"type": "explain", "id": 3, "index": 500}, [])
    assert sent[-1]["ok"] is False and "no change 500" in sent[-1]["error"]
    w._on_message(w, {"type": "explain", "id": 4, "index": "0"}, [])
    assert sent[-1]["ok"] is False and "position in w.changes" in sent[-1]["error"]
    w.table_mode = "changes"  # the Changes tab
    assert w.table_mode == "changes"


def test_a_single_profile_has_no_changes(ens: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    w = cctviz.CCT(ens.at(str(ens.profiles.index[0])))
    with pytest.raises(TypeError, match=r"runs of a cctviz\.Ensemble; this widget shows a single"):
        w.changes  # noqa: B018
    with pytest.raises(TypeError, match=r"runs of a cctviz\.Ensemble"):
        w.explain(0)
    with pytest.raises(traitlets.TraitError, match="table_mode 'changes' lists the changes"):
        w.table_mode = "changes"
    sent = _replies(w, monkeypatch)
    w._on_message(w, {"type": "changes", "id": 7}, [])
    assert sent[-1]["ok"] is False and "cctviz.Ensemble" in sent[-1]["error"]
    assert "changes" not in w._payload and w.table.change_metric is None


def test_other_profiles_drop_the_change_colour(ens: Any) -> None:
    w = cctviz.CCT(ens)
    w.changes  # noqa: B018
    w.color_by = OWN
    w.where = "run >= 5"  # their changes are not found yet: coloured by time again
    assert (w.color_by, w.palette) == ("time", "auto")
    assert w.table.change_metric is None


def test_figures_draw_the_rings_and_key_them(ens: Any) -> None:
    pytest.importorskip("playwright", reason="figures need Playwright (cctviz[export])")
    w = cctviz.CCT(ens, color_by="time (inc)")
    plain = w.to_svg()
    assert "cct-change-ring" not in plain  # not found yet: the figure is as before
    found = w.changes
    svg = w.to_svg()
    own = found.loc[found["cause"] == "exclusive", "node"].tolist()
    for node in own:
        assert f'data-change="{node}"' in svg
    assert svg.count('class="cct-change-ring cct-change-own"') == len(set(own))
    assert "ring: own change" in svg and "dashed ring: in callees" in svg
    assert "ring red: up, blue: down" in svg


def test_an_ensemble_without_changes_is_drawn_as_it_was(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    quiet = cctviz.examples.ensemble(tmp_path / "quiet", 30, 20, seed=2, job_sizes=(64,))
    w = cctviz.CCT(quiet)
    payload = w._payload
    sent = _replies(w, monkeypatch)
    w._on_message(w, {"type": "changes", "id": 1}, [])
    assert sent[-1]["ok"] is True and sent[-1]["changes"]["rows"] == []
    assert w.changes.empty
    assert w._payload is payload and w.table.change_metric is None  # nothing sent again
    assert METRIC not in w.metrics
    with pytest.raises(IndexError, match=r"no change 0: w\.changes has no row"):
        w.explain(0)


def test_the_view_follows_where_the_axis_and_the_configurations(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Runs of two compilers (one 30 % slower), a change in gcc's runs only: the rings, the
    Changes tab, ``w.changes`` and ``describe`` find it within gcc's runs, say that they looked
    within each configuration, and follow ``where`` and ``trend_by``."""
    mixed = cctviz.examples.ensemble(
        tmp_path_factory.mktemp("mixed") / "nightly",
        120,
        40,
        seed=5,
        changes=[Change(SLOWER, 60, 1.5, {"compiler": "gcc-12"})],
        job_sizes=(64,),
        problem_sizes=(30,),
        compilers=("gcc-12", "clang-16"),
        levels={"clang-16": 1.3},
    )
    w = cctviz.CCT(mixed)
    found = w.changes
    own = found[found["key"] == _key(mixed, SLOWER)]
    assert own["config"].tolist() == [{"compiler": "gcc-12"}]
    assert set(found["config"].map(lambda c: c["compiler"])) == {"gcc-12"}
    assert w._payload["changes"]["within"] == "within 2 configurations: compiler"
    sent = _replies(w, monkeypatch)
    w._on_message(w, {"type": "changes", "id": 1}, [])
    listed = sent[-1]["changes"]
    assert listed["caution"].startswith("these runs are 2 configurations (compiler)")
    row = next(r for r in listed["rows"] if r["key"] == str(_key(mixed, SLOWER)))
    assert row["config"] == "compiler gcc-12"
    said = w.describe()
    assert "**Changes** along launchdate (within 2 configurations: compiler)" in said
    assert "in compiler gcc\\-12" in said
    # one configuration shown: the changes of its runs, nothing to say about configurations
    w.where = "compiler = 'clang-16'"
    assert w.changes.empty
    w.where = "compiler = 'gcc-12'"
    assert _key(mixed, SLOWER) in set(w.changes["key"])
    assert w._payload["changes"]["within"] == ""
    # along another axis: the run number
    w.where = ""
    w.trend_by = "run"
    assert "changes" not in w._payload  # the rings along the launch date are taken away
    along = w.changes
    assert w._payload["changes"]["within"] == "within 2 configurations: compiler"
    first = along[along["key"] == _key(mixed, SLOWER)]
    assert isinstance(first["at"].iloc[0], (int, np.integer)) and 59 <= first["at"].iloc[0] <= 62
