"""From a change to its cause: the runs just before and just after a change found by
``Ensemble.regressions`` (the median of up to five runs each side, of the change's configuration)
as two GraphFrames with their labels and the changed node's call path (``Explanation``). The
compare view of them is the widget layer's (``cctviz.widget.ensemble.explain``): this layer does not
know the widget, so ``Ensemble.explain`` shows an explanation with the viewer that layer registers
(``VIEWER``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd

from .trend import axis_text, check_axis

if TYPE_CHECKING:
    from ..ensemble import Ensemble


@dataclass(frozen=True)
class Explanation:
    """The two sides of a change: each a GraphFrame (one run, or the median of up to five) with
    its label, and the changed node's call path."""

    before: Any
    after: Any
    labels: tuple[str, str]
    path: tuple[str, ...]


VIEWER: list[Callable[[Explanation], Any]] = []
"""What shows an ``Explanation`` (the compare view): registered by ``VIEWER_MODULE``, which
``cctviz.widget`` imports and ``explain`` imports by name when none is registered yet (``import
cctviz`` imports nothing: a script may reach the ensemble without the widget layer)."""
VIEWER_MODULE = "cctviz.widget.ensemble.explain"


WINDOW = 5  # runs each side of a change: the detector's shortest level (changes.MIN_SEGMENT)


def _side(ens: Ensemble, runs: pd.DataFrame, by: str) -> tuple[Any, str]:
    """One side of the comparison: the median of ``runs`` (one run: itself), and its label."""
    first, last = axis_text(runs[by].iloc[0]), axis_text(runs[by].iloc[-1])
    if len(runs) == 1:
        return ens.at(str(runs.index[0])), f"{by} {first}"
    median = ens.select([str(p) for p in runs.index]).to_graphframe("median")
    return median, f"{by} {first} … {last} (median of {len(runs)})"


def explanation(ens: Ensemble, change: Any, by: str | None) -> Explanation:
    """The runs before ``change`` (a row of ``regressions``) and the runs from where its new
    level starts, of the change's configuration (``config``): the median of up to five runs each
    side, so that one outlier run does not pass for the change."""
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
    (before, first), (after, second) = _side(ens, earlier, by), _side(ens, later, by)
    return Explanation(before, after, (first, second), tuple(row["path"]))


def explain(ens: Ensemble, change: Any, by: str | None) -> Any:
    """The compare view of ``change``'s explanation, shown by the registered viewer."""
    found = explanation(ens, change, by)
    if not VIEWER:
        importlib.import_module(VIEWER_MODULE)  # the upper layer, by name: it registers itself
    if not VIEWER:
        raise RuntimeError(
            "no viewer of explanations: import cctviz (its widget layer shows them), or use "
            "cctviz.ensemble.analysis.explain.explanation for the GraphFrames"
        )
    return VIEWER[-1](found)
