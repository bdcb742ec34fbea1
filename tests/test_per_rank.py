"""Per-rank values (issue 58, point 4): ``w.ranks_of(id)`` is the node's own rows of the
dataframe, ``w.rank`` makes a tree of one rank's rows under the reducer, the Ranks tab's request
answers the rank strip; bad ids, ranks and profiles without ranks are clear errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets

import cctviz
from cctviz.widget.per_rank import outliers

from .conftest import load
from .test_adapter import _by_folder

CPI = "hatchet/hpctoolkit-cpi-database"  # 4 ranks
ALLGATHER = "hatchet/hpctoolkit-allgather-database"  # 10 ranks × 2 threads
ONE_ROW = "hatchet/caliper-example-cali"  # index: node only


def _rows(gf: Any, node: Any, metric: str) -> pd.DataFrame:
    """The dataframe's rows of ``node``, as pandas has them."""
    df = gf.dataframe
    rows = df[df.index.get_level_values("node") == node]
    levels = [n for n in df.index.names if n != "node"]
    return rows[[metric]].reset_index()[[*levels, metric]].reset_index(drop=True)


@pytest.mark.parametrize(("folder", "levels"), [(CPI, ["rank"]), (ALLGATHER, ["rank", "thread"])])
def test_ranks_of_is_the_nodes_rows_of_the_dataframe(folder: str, levels: list[str]) -> None:
    gf = load(_by_folder(folder))
    w = cctviz.CCT(gf)
    inclusive = w.table.metrics[w.color_by].partner or w.color_by
    busiest = int(np.nanargmax(w.table.metrics[w.color_by].values))
    for node in (0, 1, busiest, w.table.size - 1):
        frame = w.ranks_of(node)
        assert list(frame.columns) == [*levels, w.color_by]
        pd.testing.assert_frame_equal(frame, _rows(gf, w.table.nodes[node], w.color_by))
        other = w.ranks_of(node, inclusive)
        pd.testing.assert_frame_equal(other, _rows(gf, w.table.nodes[node], inclusive))
    assert len(w.ranks_of(busiest)) == len(gf.dataframe) // w.table.size
    assert w.ranks_of(busiest)[w.color_by].sum() > 0


@pytest.mark.parametrize("folder", [CPI, ALLGATHER])
@pytest.mark.parametrize("reducer", ["mean", "max", "sum", "imbalance"])
def test_the_tree_of_one_rank_is_the_reducer_over_its_rows(folder: str, reducer: str) -> None:
    gf = load(_by_folder(folder))
    w = cctviz.CCT(gf, reducer=reducer)
    every_rank = w.node_frame.copy()
    nodes = list(w.table.nodes)
    for rank in (0, 3):
        w.rank = rank
        frame = w.node_frame
        assert [a is b for a, b in zip(frame["node"], nodes, strict=True)] == [True] * len(nodes)
        df = gf.dataframe
        mine = df[df.index.get_level_values("rank") == rank]
        numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
        grouped = mine[numeric].astype("float64").groupby(level="node")
        if reducer == "imbalance":  # a rank's threads added up first, then max ÷ mean
            grouped = mine[numeric].astype("float64").groupby(level=["node", "rank"]).sum()
            expected = grouped.groupby(level="node").max() / grouped.groupby(level="node").mean()
        else:
            expected = grouped.agg(reducer)
        expected = expected.reindex(pd.Index(nodes))
        for metric in ("time", "time (inc)"):
            np.testing.assert_allclose(
                frame[metric].to_numpy(), expected[metric].to_numpy(), rtol=1e-12, equal_nan=True
            )
        assert (
            not np.allclose(
                frame["time (inc)"].to_numpy(), every_rank["time (inc)"].to_numpy(), equal_nan=True
            )
            or reducer == "imbalance"
        )
    w.rank = None
    pd.testing.assert_frame_equal(w.node_frame, every_rank)


def test_one_ranks_tree_keeps_the_views_ids_and_the_full_dataframes_rows() -> None:
    gf = load(_by_folder(ALLGATHER))
    w = cctviz.CCT(gf)
    busiest = int(np.nanargmax(w.table.metrics["time"].values))
    w.selection = (busiest,)
    spread = w.distribution(busiest)
    payload = w._payload
    w.rank = 2
    assert w._payload is not payload and w.selection == (busiest,)
    # the tooltip's spread still reads every rank's rows of the same node
    pd.testing.assert_series_equal(w.distribution(busiest), spread)
    assert w.ranks_of(busiest)["rank"].nunique() == 10
    assert w.node_frame["time"].iloc[busiest] == pytest.approx(
        w.ranks_of(busiest).query("rank == 2")["time"].mean()
    )


def test_bad_ranks_and_profiles_without_ranks_say_what_there_is() -> None:
    w = cctviz.CCT(load(_by_folder(ALLGATHER)))
    with pytest.raises(
        traitlets.TraitError, match=r"no rank 99 in this profile; its ranks are 0 to 9$"
    ):
        w.rank = 99
    with pytest.raises(traitlets.TraitError, match=r"rank number or None .*got 'two'"):
        w.rank = "two"
    with pytest.raises(traitlets.TraitError, match=r"rank number or None .*got True"):
        w.rank = True
    assert w.rank is None
    with pytest.raises(ValueError, match=r"no node 1474: ids run from 0 to 1473"):
        w.ranks_of(1474)
    with pytest.raises(ValueError, match=r"no node -1: ids run from 0 to 1473"):
        w.ranks_of(-1)
    with pytest.raises(KeyError, match=r"nope"):
        w.ranks_of(0, "nope")
    one = cctviz.CCT(load(_by_folder(ONE_ROW)))
    with pytest.raises(ValueError, match=r"index has only `node` \(its levels: node\)"):
        one.ranks_of(0)
    with pytest.raises(
        traitlets.TraitError, match=r"no ranks: the dataframe's index levels are node"
    ):
        one.rank = 0


def test_other_data_shows_every_rank_again() -> None:
    w = cctviz.CCT(load(_by_folder(ALLGATHER)))
    w.rank = 1
    w.data = load(_by_folder(CPI))
    assert w.rank is None
    assert w.table.size == len(load(_by_folder(CPI)).graph)


def test_the_rank_strips_request_is_each_ranks_value(monkeypatch: pytest.MonkeyPatch) -> None:
    gf = load(_by_folder(ALLGATHER))
    w = cctviz.CCT(gf)
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    busiest = int(np.nanargmax(w.table.metrics["time"].values))
    w._on_message(w, {"type": "ranks", "id": 4, "node": busiest}, [])
    reply = sent[-1]
    assert (reply["id"], reply["ok"]) == (4, True)
    strip = reply["ranks"]
    per_rank = w.ranks_of(busiest).groupby("rank")["time"].sum()
    assert strip["rank"] == list(range(10)) and strip["over"] == "rank (threads added up)"
    np.testing.assert_allclose(strip["values"], per_rank.to_numpy())
    assert strip["outliers"] == [int(per_rank.index[i]) for i in outliers(per_rank.to_numpy())]
    assert strip["selected"] is None and strip["count"] == 10
    w._on_message(w, {"type": "ranks", "id": 5, "node": 10**6}, [])
    assert sent[-1]["ok"] is False and "ids run from 0 to 1473" in sent[-1]["error"]


def test_outliers_are_beyond_tukeys_fences() -> None:
    values = np.array([1.0, 1.1, 0.9, 1.0, 1.05, 9.0, np.nan, 0.95])
    assert outliers(values).tolist() == [5]
    assert outliers(np.array([1.0, 2.0, np.nan])).tolist() == []  # too few to judge


def test_a_thickets_rows_are_per_profile() -> None:
    pytest.importorskip("thicket", reason="Thicket needs llnl-thicket (the LLNL test environment)")
    tk = load(_by_folder("thicket/mpi_scaling_cali", "thicket"))
    w = cctviz.CCT(tk)
    busiest = int(np.nanargmax(w.table.metrics[w.color_by].values))
    frame = w.ranks_of(busiest)
    assert list(frame.columns) == ["profile", w.color_by] and len(frame) == 5
    pd.testing.assert_frame_equal(frame, _rows(tk, w.table.nodes[busiest], w.color_by))
    with pytest.raises(traitlets.TraitError, match=r"no ranks: the dataframe's index levels are"):
        w.rank = 0


def test_the_rank_strip_of_a_derived_colour_shows_a_metric_with_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A derived metric is computed per node: the strip shows the size metric's ranks instead
    (named in the reply), not an error; with no metric of rows left, the error names them."""
    w = cctviz.CCT(load(_by_folder(CPI)))
    w.derive("own share", "`time` / `time (inc)`")
    w.color_by = "own share"
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append(content))
    node = int(np.nanargmax(w.table.metrics["time"].values))
    w._on_message(w, {"type": "ranks", "id": 1, "node": node}, [])
    strip = sent[-1]["ranks"]
    assert strip["metric"] == w.size_by == "time (inc)"
    expected = w.ranks_of(node, "time (inc)").groupby("rank")["time (inc)"].sum()
    np.testing.assert_allclose(strip["values"], expected.to_numpy())
    w.size_by = "own share"
    w.table_metrics = ["own share"]
    w._on_message(w, {"type": "ranks", "id": 2, "node": node}, [])
    assert sent[-1]["ok"] is False
    assert "'own share' is derived by cctviz" in sent[-1]["error"] and "'time'" in sent[-1]["error"]
