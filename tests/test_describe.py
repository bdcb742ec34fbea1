"""w.describe(): what the view shows in words (issue 32, point 4) — the hot path, the top nodes by
colour with their shares (by the one rule of shares), the selection; names are text, never
markup."""

from __future__ import annotations

import hatchet as ht
import numpy as np

import cctviz
from cctviz.describe import hot_path
from cctviz.markdown import text

HOSTILE = "<img src=x onerror=alert(1)>"


def _gf() -> object:
    tree = [
        {
            "frame": {"name": "main", "type": "function"},
            "metrics": {"time (inc)": 100.0, "time": 5.0},
            "children": [
                {
                    "frame": {"name": "solve", "type": "function"},
                    "metrics": {"time (inc)": 80.0, "time": 10.0},
                    "children": [
                        {
                            "frame": {"name": HOSTILE, "type": "function"},
                            "metrics": {"time (inc)": 70.0, "time": 70.0},
                            "children": [],
                        },
                    ],
                },
                {
                    "frame": {"name": "io_*write*", "type": "function"},
                    "metrics": {"time (inc)": 15.0, "time": 15.0},
                    "children": [],
                },
            ],
        }
    ]
    return ht.GraphFrame.from_literal(tree)


def test_describe_names_the_hot_path_and_the_top_nodes_with_their_shares() -> None:
    w = cctviz.CCT(_gf(), color_by="time", size_by="time (inc)")
    out = w.describe()
    names = [w.table.name(i) for i in hot_path(w.table, w.table.metrics["time (inc)"])]
    assert names == ["main", "solve", HOSTILE]
    assert (
        "**Hot path** (by time \\(inc\\)): main 100 (100.0% of total) → solve 80 (80.0% of total)"
        in out
    )
    top = out.split("**Top 4 by time:**")[1].splitlines()[1:]
    assert (
        top[0].endswith(": 70 (70.0% of total)")
        and "io\\_\\*write\\*: 15 (15.0% of total)" in top[1]
    )
    solve = int(np.flatnonzero(w.table.name_code == w.table.names.index("solve"))[0])
    w.select([solve])
    assert "**Selected** (1): solve 10 (10.0% of total)." in w.describe()


def test_names_are_text_never_markup() -> None:
    out = cctviz.CCT(_gf()).describe()
    assert HOSTILE not in out and "<img" not in out
    assert text(HOSTILE) in out and "&lt;img src=x onerror=alert\\(1\\)&gt;" in out


def test_a_metric_without_shares_is_given_as_values() -> None:
    w = cctviz.CCT(_gf(), color_by="time", size_by="time (inc)", metric_kinds={"time": "other"})
    top = w.describe().split("**Top")[1]
    assert "of total" not in top.split("\n\n")[0]
