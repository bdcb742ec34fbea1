"""A compare view's table is built from the runs' node tables (cctviz.analysis.compare.RunsUnion,
issue 30), not read back from the union's GraphFrame: the same table as that round trip gave, with
each context's presence by its position in the union."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

import cctviz
from cctviz.adapters import from_graphframe
from cctviz.core.table import NodeTable

from .test_compare import _cpi_pair


def _same(table: NodeTable, old: NodeTable) -> None:
    """``table`` is ``old`` (the table read from the union's GraphFrame), field by field."""
    for field in dataclasses.fields(NodeTable):
        mine, theirs = getattr(table, field.name), getattr(old, field.name)
        if field.name == "metrics":
            assert list(mine) == list(theirs)
            for name, m in mine.items():
                o = theirs[name]
                np.testing.assert_array_equal(m.values, o.values, err_msg=name)
                assert (m.kind, m.partner, m.rule, m.detail, m.share) == (
                    o.kind,
                    o.partner,
                    o.rule,
                    o.detail,
                    o.share,
                ), name
        elif field.name == "nodes":
            assert all(x is y for x, y in zip(mine, theirs, strict=True))
        elif field.name in ("presence", "presence_labels", "series"):
            continue  # the compare view's own
        elif isinstance(mine, np.ndarray):
            np.testing.assert_array_equal(mine, theirs, err_msg=field.name)
        else:
            assert mine == theirs, field.name


def _runs() -> list[tuple[list[Any], dict[str, Any]]]:
    a, b = _cpi_pair()
    runs = cctviz.examples.runs()
    return [
        ([a, b], {}),
        ([a, b], {"metric": "time", "reducer": "max"}),
        ([b, a], {"labels": ("x", "y"), "metric_kinds": {"y ÷ x": "max"}}),
        (list(runs.values()), {"labels": list(runs)}),
    ]


@pytest.mark.parametrize("case", range(4))
@pytest.mark.parametrize("reducer", ["mean", "imbalance"])
def test_the_union_table_is_what_its_graphframe_gave(case: int, reducer: str) -> None:
    runs, options = _runs()[case]
    w = cctviz.compare(runs, **options)
    if reducer != "mean":
        w.reducer = reducer
    kinds = w._metric_kinds
    size = w._union.table(reducer, kinds, None)  # no size companions: compared below with them
    old = from_graphframe(w.data, reducer=reducer, metric_kinds=kinds)
    _same(size, old)
    # presence by position is presence by node
    by_node = dict(zip(map(id, w.data.dataframe.index), w._union.union.presence, strict=True))
    assert w.table.presence.tolist() == [by_node[id(n)] for n in w.table.nodes]
    # the view's table: the same, with its companions under a reducer that does not add up
    again = from_graphframe(
        w.data,
        reducer=reducer,
        metric_kinds=kinds,
        size_reducer="mean" if reducer != "mean" else None,
    )
    assert list(w.table.metrics) == list(again.metrics)
    for name, m in w.table.metrics.items():
        np.testing.assert_array_equal(m.values, again.metrics[name].values, err_msg=name)
