"""The imbalance view answers "which costly nodes are imbalanced" (issue 28.4): colour and size
take different reducers (size_reducer), and nodes too small to judge are grey, off the colour
scale (judge_below)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets as t

import cctviz

from .conftest import load
from .test_adapter import _by_folder

ALLGATHER = "hatchet/hpctoolkit-allgather-database"  # ranks and threads
CPI = "hatchet/hpctoolkit-cpi-database"


def _pandas(gf: Any, column: str, how: str) -> pd.Series:
    values = gf.dataframe[column].astype("float64")
    if how in ("imbalance", "std"):  # ranks compared: each rank's threads added up first
        values = values.groupby(level=["node", "rank"]).sum(min_count=1)
    grouped = values.groupby(level="node")
    return grouped.max() / grouped.mean() if how == "imbalance" else grouped.agg(how)


def test_imbalance_compares_ranks_not_their_empty_helper_threads() -> None:
    gf = load(_by_folder(ALLGATHER))  # 10 ranks × 2 threads; thread 1 holds 0 everywhere
    w = cctviz.CCT(gf, reducer="imbalance")
    assert w.table.reduced_over == ("rank (thread added up)",)
    root = next(i for i in range(w.table.size) if w.table.name(i) == "<program root>")
    # over rank × thread rows every node read 2.0 (max ÷ a mean halved by the empty threads)
    rows = gf.dataframe["time (inc)"].xs(w.table.nodes[root], level="node")
    assert rows.max() / rows.mean() > 1.9
    assert w.table.metrics["time (inc)"].values[root] == pytest.approx(1.0, abs=0.01)
    w.reducer = "mean"
    assert w.table.reduced_over == ("rank", "thread")


@pytest.mark.parametrize("reducer", ["imbalance", "std"])
def test_colour_shows_the_imbalance_and_size_the_mean_cost(reducer: str) -> None:
    gf = load(_by_folder(ALLGATHER))
    w = cctviz.CCT(gf, reducer=reducer)
    assert (w.color_by, w.size_by) == ("time (inc)", "time (inc) (mean)")
    nodes = pd.Index(w.table.nodes)
    colour = _pandas(gf, "time (inc)", reducer).reindex(nodes).to_numpy()
    size = _pandas(gf, "time (inc)", "mean").reindex(nodes).to_numpy()
    np.testing.assert_allclose(w.table.metrics[w.color_by].values, colour, rtol=1e-12)
    np.testing.assert_allclose(w.table.metrics[w.size_by].values, size, rtol=1e-12)
    # the companions add up (glyphs sum them); what the reducer made does not
    kinds = w.metric_kinds["kind"]
    assert kinds["time (inc) (mean)"] == "inclusive" and kinds["time (mean)"] == "exclusive"
    assert w.metric_kinds.loc["time (mean)", "partner"] == "time (inc) (mean)"
    assert kinds["time (inc)"] in ("ratio", "max")


def test_switching_the_reducer_moves_size_to_the_companion_and_back() -> None:
    gf = load(_by_folder(ALLGATHER))
    w = cctviz.CCT(gf)
    assert (w.color_by, w.size_by) == ("time", "time (inc)")
    w.reducer = "imbalance"  # as the toolbar's menu does
    assert (w.color_by, w.size_by) == ("time (inc)", "time (inc) (mean)")
    w.reducer = "mean"
    assert (w.color_by, w.size_by) == ("time", "time (inc)")
    assert "time (inc) (mean)" not in w.metrics
    # a choice of the user's is kept; size follows to the companion of its metric
    w.color_by = "time"
    w.size_by = "time"
    w.reducer = "imbalance"
    assert (w.color_by, w.size_by) == ("time", "time (mean)")
    w.size_reducer = "max"
    assert w.size_by == "time (max)"
    expected = _pandas(gf, "time", "max").reindex(pd.Index(w.table.nodes)).to_numpy()
    np.testing.assert_allclose(w.table.metrics["time (max)"].values, expected, rtol=1e-12)
    payload_names = [m["name"] for m in w._payload["metrics"]]
    assert "time (max)" in payload_names and "time (mean)" not in payload_names


def test_size_reducer_and_judge_below_reject_bad_values() -> None:
    gf = load(_by_folder(CPI))
    with pytest.raises(ValueError, match="unknown size_reducer 'median'; accepted: 'auto'"):
        cctviz.CCT(gf, size_reducer="median")
    w = cctviz.CCT(gf)
    for bad in (1, 1.5, -0.1, float("nan"), "1 %", True):
        with pytest.raises(t.TraitError, match="judge_below is a share of the total"):
            w.judge_below = bad
    w.judge_below = 0
    assert w.judge_below == 0.0
    assert cctviz.CCT(gf, state=w.view_state).judge_below == 0.0


def test_nodes_too_small_to_judge_are_grey_in_the_drawn_view() -> None:
    pytest.importorskip("playwright", reason="figures need cctviz[export]")
    gf = load(_by_folder(ALLGATHER))
    w = cctviz.CCT(gf, reducer="imbalance")
    table = w.table
    size = table.metrics[w.size_by].values
    total = np.nansum(size[table.roots])
    small = {i for i in range(table.size) if size[i] < 0.01 * total}
    colour = table.metrics[w.color_by].values
    judged = [i for i in range(table.size) if i not in small]
    assert np.nanmax(colour[sorted(small)]) > np.nanmax(colour[judged])  # the trap is there

    def drawn(svg: str) -> tuple[dict[int, str], list[str]]:
        fills = dict(re.findall(r'class="cct-node[^"]*" data-id="(\d+)"[^>]* fill="([^"]+)"', svg))
        ticks = re.findall(r'class="cct-legend-tick"[^>]*>([^<]*)<', svg)
        return {int(k): v for k, v in fills.items()}, ticks

    svg = w.to_svg(width=900, height=560)
    fills, ticks = drawn(svg)
    assert "too small to judge" in svg  # the figure's key says what grey is
    grey = {i for i, fill in fills.items() if fill == "#d4d4d4"}
    assert grey and grey <= small
    assert all(fills[i] != "#d4d4d4" for i in fills if i not in small)
    # the colour scale ends at the largest imbalance of a judged node, not a tiny one's
    assert ticks[1] == f"{np.nanmax(colour[judged]):.3g}"
    w.judge_below = 0
    svg = w.to_svg(width=900, height=560)
    fills, ticks = drawn(svg)
    assert "#d4d4d4" not in fills.values() and "too small to judge" not in svg
    assert float(ticks[1]) == pytest.approx(np.nanmax(colour[sorted(fills)]), rel=1e-2)


def test_a_compare_views_diverging_scale_spans_the_nodes_it_judges() -> None:
    w = cctviz.compare(list(cctviz.examples.runs().values()))  # five LULESH runs
    table = w.table
    colour = table.metrics[w.color_by].values
    size = table.metrics[w.size_by].values
    small = size < w.judge_below * np.nansum(size[table.roots])
    judged_reach = np.nanmax(np.abs(colour[~small]))
    assert np.nanmax(np.abs(colour[small])) > judged_reach  # a grey node would set the scale
    assert w.color_domain == pytest.approx((-judged_reach, judged_reach))
    w.judge_below = 0
    assert w.color_domain == pytest.approx(
        (-np.nanmax(np.abs(colour)),) * 1 + (np.nanmax(np.abs(colour)),)
    )
