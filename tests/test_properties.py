"""Property-based tests (Hypothesis) over names, values, shapes and state: whatever a profile or a
user gives, the table holds exactly the DataFrame's numbers, saved state restores the view, bad
values fail with a specific error, and the drawn figure is valid XML holding the nodes the view
shows. Example counts are kept small enough for CI; the seed is random, so each run adds cases."""

from __future__ import annotations

import math
import os
import xml.dom.minidom
from typing import Any

import numpy as np
import pytest
import traitlets

pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cctviz
from cctviz.view import state as view

# CCTVIZ_EXAMPLES=1000 searches harder (locally); CI runs the default
EXAMPLES = int(os.environ.get("CCTVIZ_EXAMPLES", "40"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# names: any code point, lone surrogates, control characters, markup, right-to-left, emoji
LONE = st.sampled_from(["\ud800", "\udfff", "\udbff"])
NAME = st.one_of(
    st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), min_size=1, max_size=24),
    st.sampled_from(["<b>x</b>", "a&amp;b", "كود", "🔥" * 20, "👩‍👩‍👧‍👦", "\x00", "\x1b[31m"]),
    st.tuples(st.text(max_size=4), LONE).map("".join),
)
VALUE = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e308, -1e308, 5e-324, 1e-300]),
    st.integers(-(10**6), 10**6).map(float),
)


@st.composite
def trees(draw: Any, max_nodes: int = 24) -> Any:
    """A Hatchet literal: random shape (depth and fan-out), names and values."""
    n = draw(st.integers(1, max_nodes))
    parents = [-1] + [draw(st.integers(0, i - 1)) for i in range(1, n)]
    nodes = [
        {
            "frame": {"name": draw(NAME), "type": "function"},
            "metrics": {"time": draw(VALUE), "time (inc)": draw(VALUE)},
            "children": [],
        }
        for _ in range(n)
    ]
    for i, p in enumerate(parents):
        if p >= 0:
            nodes[p]["children"].append(nodes[i])
    return [nodes[0]]


def graphframe(literal: Any) -> Any:
    import hatchet as ht

    return ht.GraphFrame.from_literal(literal)


def same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@SETTINGS
@given(trees())
def test_the_table_holds_the_dataframes_numbers_and_names(literal: Any) -> None:
    gf = graphframe(literal)
    w = cctviz.CCT(gf)
    df = gf.dataframe
    assert w.table.size == len(df)
    for i, node in enumerate(w.table.nodes):
        row = df.loc[node]
        assert w.table.name(i) == row["name"]
        for metric in ("time", "time (inc)"):
            assert same(float(w.table.metrics[metric].values[i]), float(row[metric]))
    assert w.color_by in w.metrics and w.color_by != ""


@SETTINGS
@given(trees(), st.data())
def test_saved_state_restores_the_view(literal: Any, data: Any) -> None:
    gf = graphframe(literal)
    w = cctviz.CCT(gf)
    ids = st.integers(0, w.table.size - 1)
    w.selection = tuple(data.draw(st.lists(ids, max_size=4)))
    inner = [i for i in range(w.table.size) if i not in w.table.roots]
    if inner:
        w.collapsed = tuple(data.draw(st.lists(st.sampled_from(inner), max_size=3)))
    w.search = data.draw(st.text(max_size=6))
    again = cctviz.CCT(gf, state=w.view_state)
    assert again.selection == w.selection
    assert again.collapsed == w.collapsed
    assert again.search == w.search
    assert again.view_state == w.view_state


RANGE = st.one_of(st.none(), st.tuples(VALUE, VALUE), st.integers(), st.text(max_size=3))


@SETTINGS
@given(RANGE)
def test_prune_range_is_finite_and_ordered_or_refused(value: Any) -> None:
    w = cctviz.CCT(graphframe([{"frame": {"name": "main"}, "metrics": {"time": 1.0}}]))
    try:
        w.prune_range = value
    except traitlets.TraitError as error:
        assert "prune_range" in str(error) or "prune range" in str(error)
        assert w.prune_range is None
        return
    if w.prune_range is not None:
        low, high = w.prune_range
        assert math.isfinite(low) and math.isfinite(high) and low <= high


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
STATE_KEYS = st.sampled_from(sorted(s.trait for s in view.SAVED))


@SETTINGS
@given(st.dictionaries(STATE_KEYS, JSON, max_size=3))
def test_malformed_saved_state_is_a_specific_error(state: dict[str, Any]) -> None:
    gf = graphframe(
        [
            {
                "frame": {"name": "main"},
                "metrics": {"time": 1.0},
                "children": [{"frame": {"name": "a"}, "metrics": {"time": 2.0}}],
            }
        ]
    )
    try:
        cctviz.CCT(gf, state=state)
    except (TypeError, ValueError, traitlets.TraitError) as error:
        # the key (or its trait) is named
        assert any(key in str(error) for key in state) or "trait" in str(error), str(error)


@settings(
    max_examples=max(12, EXAMPLES // 4), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(trees(max_nodes=16))
def test_figures_are_valid_xml_with_the_nodes_the_view_shows(literal: Any) -> None:
    pytest.importorskip("playwright", reason="figures need cctviz[export]")
    gf = graphframe(literal)
    w = cctviz.CCT(gf, fold_to_fit=False)
    svg = w.to_svg(width=600, height=400)
    root = xml.dom.minidom.parseString(svg.encode("utf-8")).documentElement
    drawn = {
        int(e.getAttribute("data-id"))
        for e in root.getElementsByTagName("*")
        if e.hasAttribute("data-id") and "cct-node" in e.getAttribute("class").split()
    }
    shown = set(
        view.visible_nodes(w.table, color_values=np.asarray(w.table.metrics[w.color_by].values))
    )
    assert drawn == shown
