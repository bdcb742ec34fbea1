"""What the view shows on screen, as Python knows it: the drawing's size and the zoom the user set,
reported by the front end in ``screen`` messages (not traits: a pan or a zoom must not look like a
change of state to hosts that re-run dependent cells, such as marimo), and dropped when Python draws
another structure. Figures of the view as shown (``w.save``, ``w.to_svg``) read them."""

from __future__ import annotations

import math
from typing import Any

import traitlets as t

from ..core.contract import VIEW_TRAITS
from .part import Message, WidgetPart, handles

STRUCTURE_TRAITS = tuple(spec.trait for spec in VIEW_TRAITS if spec.redraw == "structure")
"""View traits whose change draws another tree (the view fits it again)."""


class ScreenState(WidgetPart):
    """The screen part of ``CCT``: the drawing's size and the user's zoom, as the view says."""

    def __init__(self, **kwargs: Any) -> None:
        #: the drawing's size on screen in CSS pixels; (0, 0) if it was never drawn
        self._stage_size: tuple[int, int] = (0, 0)
        #: the zoom and pan (x, y, k) the user set; None: fitted
        self._view_transform: tuple[float, float, float] | None = None
        super().__init__(**kwargs)

    @handles("screen")
    def _on_screen(self, content: Message) -> None:
        """The view's report of what is on screen (its size, the zoom the user set); anything
        that is not a size or a zoom is ignored."""
        size = content.get("size")
        if isinstance(size, list) and len(size) == 2 and all(_whole(v) and v > 0 for v in size):
            self._stage_size = (int(size[0]), int(size[1]))
        if "transform" in content:
            zoom = content["transform"]
            if zoom is None:
                self._view_transform = None
            elif isinstance(zoom, list) and len(zoom) == 3 and all(_finite(v) for v in zoom):
                self._view_transform = (float(zoom[0]), float(zoom[1]), float(zoom[2]))

    @t.observe(*STRUCTURE_TRAITS)
    def _refit(self, change: t.Bunch) -> None:
        # A new structure set from Python is drawn fitted (the view keeps a zoom only around a
        # node the user acted on), so a figure made right after it, in the same cell, must not
        # use the zoom the view reported for the old picture. Changes that came from the view
        # itself (ipywidgets holds their names in its property lock) keep what the view reports.
        if change["name"] not in getattr(self, "_property_lock", {}):
            self._view_transform = None


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
