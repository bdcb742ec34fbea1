"""The cases of tests/conformance/judge-cases.json (which nodes are too small to judge) against
cctviz.core.judge; js/test/judge-conformance.test.js runs the same cases against
js/src/cct/judge.js."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cctviz.core.judge import too_small
from cctviz.core.table import Metric, NodeTable

from .tables import node_table, values

SPEC = json.loads((Path(__file__).parent / "conformance" / "judge-cases.json").read_text())
CASES: list[dict[str, Any]] = SPEC["cases"]


def _table(tree: dict[str, Any]) -> NodeTable:
    metrics = {
        name: Metric(name, values(m["values"]), m["kind"], m["partner"])
        for name, m in tree["metrics"].items()
    }
    return node_table(tree["parent"], tree["names"], metrics)


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
