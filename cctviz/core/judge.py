"""Which nodes are too small to judge: under a colour that does not add up (a ratio, a maximum),
nodes whose size metric's inclusive share of the total is under ``judge_below`` would take the
ends of the colour scale; the view draws them grey (js/src/cct/picture/judge.js) and a compare
view's colour domain leaves them out. tests/conformance/judge-cases.json is the one
specification of both."""

from __future__ import annotations

import numpy as np

from .table import NodeTable

MAX_KINDS = ("ratio", "max")  # kinds whose glyphs show the largest value they hide


def too_small(table: NodeTable, color_by: str, size_by: str, below: float) -> np.ndarray | None:
    """A boolean mask of the rows too small to judge, or None when nothing is judged (the colour
    adds up, ``below`` is 0, or the size metric has no inclusive values to share)."""
    color = table.metrics.get(color_by)
    if color is None or color.kind not in MAX_KINDS:
        return None
    return small_shares(table, size_by, below)


def small_shares(table: NodeTable, size_by: str, below: float) -> np.ndarray | None:
    """A boolean mask of the rows whose share of the size metric's inclusive total is under
    ``below`` (what ``too_small`` greys out under a colour that does not add up), or None when
    ``below`` is 0 or the size metric has no inclusive values to share."""
    size = table.metrics.get(size_by)
    if size is None or not below > 0:
        return None
    # the share of an inclusive quantity: the size metric's own, or its inclusive partner's
    basis = size
    if size.kind == "exclusive" and size.partner:
        basis = table.metrics.get(size.partner, size)
    if basis.kind != "inclusive":
        return None
    roots = basis.values[table.roots]
    total = float(roots[roots > 0].sum())
    if not total > 0:
        return None
    with np.errstate(invalid="ignore"):
        return np.asarray(basis.values < below * total)
