"""What a figure of a view needs, copied out of the widget: figures read only this."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ViewSnapshot:
    """One view at one moment (``CCT.snapshot()`` makes it; ``figure_of`` draws it).

    Node ids are ids of the full tree. ``payload`` is what the browser has
    (``cctviz.view.payload.encode``: under level of detail the loaded nodes and their folds)."""

    payload: dict[str, Any]
    """The node table as binary columns, as sent to the browser."""
    renderer_state: dict[str, Any]
    """The view state in the front end's keys (``cctviz.core.contract.VIEW_TRAITS``)."""
    selection: tuple[int, ...]
    stage_size: tuple[int, int]
    """The drawing's size on screen in CSS pixels; (0, 0) if it was never drawn."""
    view_transform: tuple[float, float, float] | None
    """Zoom and pan (x, y, k) set on screen; None: fitted."""
    height: int
    """The widget's height in pixels."""
    units: dict[str, str] = field(default_factory=dict)
    """Metric name → unit, for the legend titles."""
    source: str | None = None
    """Where the data came from (a file, a run), recorded in the figure."""
    nodes: int = 0
    """Nodes of the full tree."""
    color_by: str = ""
    size_by: str = ""
    reducer: str | None = None
    """How the rows of one node were combined."""
    view_state: dict[str, Any] = field(default_factory=dict)
    """The saved view state (``w.view_state``), recorded in the figure."""
    ensemble: dict[str, Any] | None = None
    """A view of an Ensemble: its ``store``, the filter (``where``) and how many ``profiles``
    passed it ``of`` how many, recorded in the figure."""
    trend: dict[str, Any] | None = None
    """A view of an Ensemble: its trend pane as sent (``w._trend``), drawn below the tree."""
    trend_log: bool = False
    """The trend pane's log axes (``w.trend_log``)."""
