"""Figures of the view as shown: what one needs, copied out of the widget (``snapshot``), and the
SVG, PDF or PNG drawn from it by the widget's renderer in headless Chromium (``cctviz.figure``).

What the view shows on screen, as Python knows it — the drawing's size and the zoom the user
set — comes in the front end's ``screen`` messages (not traits: a pan or a zoom must not look
like a change of state to hosts that re-run dependent cells, such as marimo), and is dropped
when Python draws another structure."""

from __future__ import annotations

import math
import pathlib
from typing import Any

import traitlets as t

from ..core import progress
from ..core.contract import VIEW_TRAITS
from ..figure.of_view import figure_of, stages
from ..figure.render import figure_format
from ..figure.snapshot import ViewSnapshot
from .part import Message, WidgetPart, handles

STRUCTURE_TRAITS = tuple(spec.trait for spec in VIEW_TRAITS if spec.redraw == "structure")
"""View traits whose change draws another tree (the view fits it again)."""


class Figures(WidgetPart):
    """The figures part of ``CCT``: ``snapshot``, ``to_svg`` and ``save`` of the view as shown
    (its size and zoom on screen, from the view's ``screen`` messages)."""

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

    def renderer_state(self) -> dict[str, Any]:
        """The view state in the front end's terms (what the renderer draws)."""
        return {spec.key: _jsonable(getattr(self, spec.trait)) for spec in VIEW_TRAITS}

    def snapshot(self) -> ViewSnapshot:
        """Everything a figure of the current view needs, copied out of the widget: the payload
        the browser has, the renderer's state, the selection, the size and zoom on screen, the
        units and where the data came from. ``cctviz.figure.figure_of(w.snapshot())`` draws
        it; figures read nothing else, so a snapshot can be drawn after the view changed."""
        return ViewSnapshot(
            payload=self._payload,
            renderer_state=self.renderer_state(),
            selection=self.selection,
            stage_size=self._stage_size,
            view_transform=self._view_transform,
            height=self.height,
            units=dict(self.units),
            source=self.source,
            nodes=self._table.size,
            color_by=self.color_by,
            size_by=self.size_by,
            reducer=self._table.reducer,
            view_state=self.view_state,
            ensemble=self._ensemble_record(),
            trend=dict(self._trend) or None,
            trend_log=self.trend_log,
        )

    def _ensemble_record(self) -> dict[str, Any] | None:
        """A view of an Ensemble: the store, the filter and the profiles, for the figure."""
        if self._ensemble is None:
            return None
        from .ensemble.strip_payload import provenance

        return provenance(self._ensemble, self.where, self._data, self._store_version)

    def to_svg(self, **options: Any) -> str:
        """A standalone SVG of the current view, drawn by the widget's renderer in headless
        Chromium. Options as for ``save`` (``dpi`` aside); the default size is the widget's
        size on screen."""
        with progress.work("drawing the figure", stages(None)):
            return figure_of(self.snapshot(), **options).svg

    def save(self, path: str | pathlib.Path, **options: Any) -> pathlib.Path:
        """Write the current view to ``path``: ``.svg``, ``.pdf`` (vector) or ``.png``.

        Options: ``width``, ``height`` (pixels, or strings with a unit: ``"3.5in"``, ``"8cm"``,
        ``"240pt"``); ``dpi`` (PNG, default 300); ``style`` (``"screen"`` or ``"paper"``:
        white, black text, thin strokes, cividis); ``font_family``; ``font_size`` (points);
        ``title``; ``units`` (metric name to unit, added to ``w.units``); ``trend`` (a view of an
        Ensemble: False leaves the trend pane out; by default it is drawn below the tree). The
        file records the data source, metrics, view state, cctviz version and date (of an
        Ensemble: its store, filter, and the trend's node, axis and method)."""
        figure_format(path)  # a bad extension fails before any drawing
        with progress.work(f"saving {pathlib.Path(path).name}", stages(path)):
            return figure_of(self.snapshot(), **options).write(path)


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
