"""The node-by-node sums behind the table: the fast paths taken when each node has one row (a
single profile) give exactly what the general paths give, and the tree check counts what a plain
loop over the nodes counts. Hypothesis draws keys with rows of no node (-1), NaN and infinities."""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest

pytest.importorskip("hypothesis")
from hypothesis import given, settings
from hypothesis import strategies as st

from cctviz.adapters import from_rows, reduce, rows, semantics

VALUE = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.sampled_from([0.0, 1.0, 2.5, 1e300, np.nan, np.inf]),
)


@st.composite
def keyed_rows(draw: st.DrawFn, single: bool | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """(keys, values, n): rows of ``n`` nodes; ``single``: each node at most one row."""
    n = draw(st.integers(1, 30))
    if single:
        nodes = draw(st.permutations(range(n)))
        keys = [k for k in nodes if draw(st.booleans())] or [nodes[0]]
        keys += [-1] * draw(st.integers(0, 3))
        keys = draw(st.permutations(keys))
    else:
        keys = draw(st.lists(st.integers(-1, n - 1), min_size=1, max_size=40))
    values = draw(st.lists(VALUE, min_size=len(keys), max_size=len(keys)))
    return np.array(keys, dtype=np.int64), np.array(values, dtype=np.float64), n


@settings(max_examples=200, deadline=None)
@given(keyed_rows())
def test_one_row_each_says_whether_a_node_has_two_rows(
    case: tuple[np.ndarray, np.ndarray, int],
) -> None:
    keys, _, n = case
    counts = collections.Counter(int(k) for k in keys if k >= 0)
    assert rows.one_row_each(keys, n) == all(c <= 1 for c in counts.values())


@settings(max_examples=200, deadline=None)
@given(keyed_rows(single=True))
def test_single_rows_give_what_the_general_paths_give(
    case: tuple[np.ndarray, np.ndarray, int],
) -> None:
    keys, values, n = case
    assert rows.one_row_each(keys, n)
    fast, general = rows.node_sums(values, keys, n, True), rows.node_sums(values, keys, n)
    np.testing.assert_array_equal(fast, general)  # NaN where the node has no number
    with np.errstate(over="ignore"):
        block = np.column_stack([values, values * 2])
    for reducer in ("mean", "sum", "max", "std", "imbalance"):
        with np.errstate(invalid="ignore", over="ignore"):
            np.testing.assert_array_equal(
                reduce.per_node(block, keys, n, reducer, True),
                reduce.per_node(block, keys, n, reducer, False),  # pandas' groupby
            )
    first = from_rows._first_rows(keys, n, True)
    expected = [next((r for r, k in enumerate(keys) if k == node), -1) for node in range(n)]
    assert first.tolist() == expected == from_rows._first_rows(keys, n, False).tolist()


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_tree_check_counts_what_a_loop_counts(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 30))
    parent = np.array(
        [-1] + [data.draw(st.integers(-1, i - 1)) for i in range(1, n)], dtype=np.int32
    )
    values = np.array(data.draw(st.lists(VALUE, min_size=n, max_size=n)), dtype=np.float64)
    plain = values.tolist()  # Python floats: sums in the children's order, overflow to inf
    checked = low = 0
    for node in range(n):
        kids = [plain[c] for c in range(n) if parent[c] == node and not math.isnan(plain[c])]
        if not kids or math.isnan(plain[node]):
            continue
        checked += 1
        total = sum(kids, 0.0)
        low += plain[node] < total - 1e-6 * abs(total) - 1e-12
    assert semantics.tree_check(values, parent) == (checked, low)
