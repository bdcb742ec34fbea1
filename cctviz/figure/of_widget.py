"""The figure of a widget's current view (``CCT.to_svg``, ``CCT.save``, ``cctviz.export``)."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from typing import Any

from . import provenance, render

FIGURE_OPTIONS = ("width", "height", "dpi", "style", "font_family", "font_size", "title", "units")
DEFAULT_WIDTH = 900  # when the widget was never drawn (headless): its default drawing size


@dataclass(frozen=True)
class Figure:
    svg: str
    nodes: int
    options: render.FigureOptions
    provenance: dict[str, Any]

    def write(self, path: str | pathlib.Path) -> pathlib.Path:
        return render.write(path, self.svg, self.options, self.provenance)


def figure_of(widget: Any, **options: Any) -> Figure:
    """Draw ``widget``'s view. Options: see ``FIGURE_OPTIONS`` and ``CCT.save``."""
    unknown = sorted(set(options) - set(FIGURE_OPTIONS))
    if unknown:
        raise TypeError(
            f"unknown figure option {unknown[0]!r}; accepted: {', '.join(FIGURE_OPTIONS)}"
        )
    shown_w, shown_h = widget._stage_size
    # the view's size on screen by default; then also its zoom and pan, if the user moved it
    on_screen_size = options.get("width") is None and options.get("height") is None
    if options.get("width") is None:
        options["width"] = shown_w if shown_w > 0 else DEFAULT_WIDTH
    if options.get("height") is None:
        options["height"] = shown_h if shown_h > 0 else widget.height - 90
    zoom = widget._view_transform if on_screen_size and shown_w > 0 else None
    transform = None if zoom is None else dict(zip(("x", "y", "k"), zoom, strict=True))
    options["units"] = {**widget.units, **(options.get("units") or {})}
    checked = render.figure_options(**options)
    table = widget.table
    record = provenance.record(
        source=widget.source,
        nodes=table.size,
        color_by=widget.color_by,
        size_by=widget.size_by,
        units=checked.units,
        reducer=table.reducer,
        view_state=widget.view_state,
    )
    record["viewport"] = transform or "fit"
    # what the browser has: under level of detail the loaded nodes and their folds
    svg, nodes = render.svg_of(
        widget._payload,
        widget.renderer_state(),
        list(widget.selection),
        checked,
        record,
        transform=transform,
    )
    return Figure(svg, nodes, checked, record)
