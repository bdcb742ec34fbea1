"""Figures of the view: what one needs, copied out of the widget (``snapshot``), and the SVG,
PDF or PNG drawn from it by the widget's renderer in headless Chromium (``cctviz.figure``)."""

from __future__ import annotations

import pathlib
from typing import Any

from ..core import progress
from ..core.contract import VIEW_TRAITS
from ..figure.of_view import figure_of, stages
from ..figure.render import figure_format
from ..figure.snapshot import ViewSnapshot
from .screen import ScreenState


class Figures(ScreenState):
    """The figures part of ``CCT``: ``snapshot``, ``to_svg`` and ``save`` (a figure of the view
    as shown reads what is on screen: ``ScreenState``)."""

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
        from .strip_payload import provenance

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
