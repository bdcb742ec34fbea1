"""From a change to its cause: the compare view of the runs just before and just after a change
found by ``Ensemble.regressions`` (the median of up to five runs each side), aligned by call path
and focused on the changed node."""

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


WINDOW = 5  # runs each side of a change: the detector's shortest level (changes.MIN_SEGMENT)


def _side(ens: Any, runs: pd.DataFrame, by: str) -> tuple[Any, str]:
    """One side of the comparison: the median of ``runs`` (one run: itself), and its label."""
    first, last = axis_text(runs[by].iloc[0]), axis_text(runs[by].iloc[-1])
    if len(runs) == 1:
        return ens.at(str(runs.index[0])), f"{by} {first}"
    median = ens.select([str(p) for p in runs.index]).to_graphframe("median")
    return median, f"{by} {first} … {last} (median of {len(runs)})"


def explain(ens: Any, change: Any, by: str | None) -> Any:
    """A ``cctviz.Compare`` of the runs before ``change`` (a row of ``regressions``) and the
    runs from where its new level starts, of the change's configuration (``config``): the
    median of up to five runs each side, so that one outlier run does not pass for the change,
    with the changed node selected and focused (a leaf: its caller, so that it shows among its
    siblings)."""
    from ..widget.compare_view import compare

    row = pd.Series(change) if isinstance(change, dict) else change
    for field in ("path", "at", "profile"):
        if field not in row:
            raise ValueError(
                f"explain() takes a row of Ensemble.regressions(); it has no {field!r}"
            )
    profiles = ens.profiles
    by = check_axis(profiles, by)
    ordered = profiles.dropna(subset=[by]).sort_values(by, kind="stable")
    config = row.get("config")
    for column, value in config.items() if isinstance(config, dict) else ():
        # the change's own configuration: runs of another are no "before"
        ordered = ordered[ordered[column].isna() if pd.isna(value) else ordered[column] == value]
    earlier = ordered[ordered[by] < row["at"]].tail(WINDOW)
    if earlier.empty:
        raise ValueError(f"no run comes before {by} {row['at']}: nothing to compare with")
    later = ordered[ordered[by] >= row["at"]].head(WINDOW)
    sides = [_side(ens, earlier, by), _side(ens, later, by)]
    w = compare([gf for gf, _ in sides], labels=[label for _, label in sides])
    node = _path_ids(w.table).get(tuple(row["path"]))
    if node is not None:
        w.select([node])
        # a leaf alone says nothing: it is shown among its siblings, under its caller
        parent = int(w.table.parent[node])
        leaf = not (w.table.parent == node).any()
        w.focus(parent if leaf and parent >= 0 else node)
    return w
