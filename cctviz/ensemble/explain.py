"""From a change to its cause: the compare view of the runs just before and just after a change
found by ``Ensemble.regressions``, aligned by call path and focused on the changed node."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..table import name_paths
from .trend import axis_text, check_axis


def _path_ids(table: Any) -> dict[tuple[str, ...], int]:
    out: dict[tuple[str, ...], int] = {}
    for i, path in enumerate(name_paths(table)):
        out.setdefault(path, i)
    return out


def explain(ens: Any, change: Any, by: str | None) -> Any:
    """A ``cctviz.Compare`` of the run before ``change`` (a row of ``regressions``) and the run
    where its new level starts, with the changed node selected and focused (a leaf: its caller,
    so that it shows among its siblings)."""
    from ..widget.compare_view import compare

    row = pd.Series(change) if isinstance(change, dict) else change
    for field in ("path", "at", "profile"):
        if field not in row:
            raise ValueError(
                f"explain() takes a row of Ensemble.regressions(); it has no {field!r}"
            )
    profiles = ens.profiles
    by = check_axis(profiles, by)
    earlier = profiles[profiles[by] < row["at"]].sort_values(by)
    if earlier.empty:
        raise ValueError(f"no run comes before {by} {row['at']}: nothing to compare with")
    before, after = str(earlier.index[-1]), str(row["profile"])
    labels = [f"{by} {axis_text(earlier[by].iloc[-1])}", f"{by} {axis_text(row['at'])}"]
    w = compare(ens.at(before), ens.at(after), labels=labels)
    node = _path_ids(w.table).get(tuple(row["path"]))
    if node is not None:
        w.select([node])
        # a leaf alone says nothing: it is shown among its siblings, under its caller
        parent = int(w.table.parent[node])
        leaf = not (w.table.parent == node).any()
        w.focus(parent if leaf and parent >= 0 else node)
    return w
