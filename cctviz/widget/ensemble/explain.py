"""The compare view of a change's explanation (``cctviz.ensemble.analysis.explain``): the runs
before and after aligned by call path, the changed node selected and focused. Registered as the
ensemble's viewer of explanations, so that ``Ensemble.explain`` returns this view without the
ensemble layer importing the widget."""

from __future__ import annotations

from typing import Any

from ...core.table import name_paths
from ...ensemble.analysis import explain as _explain
from ...ensemble.analysis.explain import Explanation
from ..compare_view import compare


def _path_ids(table: Any) -> dict[tuple[str, ...], int]:
    out: dict[tuple[str, ...], int] = {}
    for i, path in enumerate(name_paths(table)):
        out.setdefault(path, i)
    return out


def explain_view(found: Explanation) -> Any:
    """A ``cctviz.Compare`` of ``found``'s two sides, with the changed node selected and focused
    (a leaf: its caller, so that it shows among its siblings), coloured on the focused subtree's
    domain; its label gives its difference (the compare view labels its largest ones)."""
    w = compare([found.before, found.after], labels=list(found.labels))
    # the colours span what is drawn (the focused subtree), not the whole tree: the changed node
    # is a change of its neighbourhood, drawn dark, not pale beside a larger one elsewhere
    w.color_domain = "view"
    node = _path_ids(w.table).get(found.path)
    if node is not None:
        w.select([node])
        # a leaf alone says nothing: it is shown among its siblings, under its caller
        parent = int(w.table.parent[node])
        leaf = not (w.table.parent == node).any()
        w.focus(parent if leaf and parent >= 0 else node)
    return w


if explain_view not in _explain.VIEWER:
    _explain.VIEWER.append(explain_view)
