"""The cases of tests/conformance/judge-cases.json (which nodes are too small to judge) against
cctviz.judge; js/test/judge-conformance.test.js runs the same cases against js/src/cct/judge.js."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cctviz.judge import too_small
from cctviz.table import Metric, NodeTable

SPEC = json.loads((Path(__file__).parent / "conformance" / "judge-cases.json").read_text())
CASES: list[dict[str, Any]] = SPEC["cases"]


def _table(tree: dict[str, Any]) -> NodeTable:
    parent = np.asarray(tree["parent"], dtype=np.int32)
    depth = np.zeros(parent.shape[0], dtype=np.int32)
    for i, p in enumerate(parent.tolist()):
        depth[i] = 0 if p < 0 else depth[p] + 1
    names = list(dict.fromkeys(tree["names"]))
    metrics = {
        name: Metric(
            name,
            np.array([math.nan if v is None else v for v in m["values"]], dtype=np.float64),
            m["kind"],
            m["partner"],
        )
        for name, m in tree["metrics"].items()
    }
    return NodeTable(
        parent=parent,
        depth=depth,
        name_code=np.asarray([names.index(n) for n in tree["names"]], dtype=np.int32),
        names=names,
        type_code=np.zeros(parent.shape[0], dtype=np.int32),
        types=["function"],
        nodes=[],
        hatchet_nid=np.arange(parent.shape[0], dtype=np.int64),
        metrics=metrics,
    )


@pytest.mark.parametrize("case", CASES, ids=[c["why"][:60] for c in CASES])
def test_too_small_is_what_the_case_says(case: dict[str, Any]) -> None:
    tree = case["tree"]
    table = _table(SPEC["trees"][tree] if isinstance(tree, str) else tree)
    view = case["view"]
    small = too_small(table, view["color"], view["size"], view["below"])
    got = None if small is None else np.flatnonzero(small).tolist()
    assert got == case["small"], case["why"]


def test_the_cases_cover_both_answers() -> None:
    assert any(c["small"] is None for c in CASES) and any(c["small"] for c in CASES)
