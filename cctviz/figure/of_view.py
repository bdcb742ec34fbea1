"""The figure of a view (``CCT.to_svg``, ``CCT.save``, ``cctviz.export``), from a snapshot."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from typing import Any

from . import provenance, render
from .snapshot import ViewSnapshot

FIGURE_OPTIONS = (
    "width",
    "height",
    "dpi",
    "style",
    "font_family",
    "font_size",
    "title",
    "units",
    "trend",
)


def stages(path: str | pathlib.Path | None) -> tuple[str, ...]:
    """What drawing a figure reports doing (``cctviz.core.progress``), in order; ``path``: the file
    it is written to (None: only its SVG text)."""
    kind = None if path is None else render.figure_format(path)
    rendering = () if kind in (None, ".svg") else (f"rendering the {kind[1:].upper()} in Chromium",)
    writing = () if path is None else ("writing the file",)
    return ("starting Chromium", "drawing the tree in Chromium", *rendering, *writing)


TITLES = {"tree": "Calling context tree", "table": "Tree-table"}
"""What a figure is (``Figure.what``) → its title when the options give none."""

DEFAULT_WIDTH = 900  # when the widget was never drawn (headless): its default drawing size
CONTROLS_HEIGHT = 90  # the widget's height less its drawing: toolbar and status line


@dataclass(frozen=True)
class Figure:
    """A drawn figure: the SVG text, the nodes it shows, its options and provenance record,
    ``folded`` (open nodes folded to fit its size) and ``what`` it is: ``"tree"`` (the view's
    tree, ``CCT.save``: ``nodes`` are its node marks) or
    ``"table"`` (the tree-table, ``CCT.table_figure``: ``nodes`` are its rows)."""

    svg: str
    nodes: int
    options: render.FigureOptions
    provenance: dict[str, Any]
    what: str = "tree"
    folded: int = 0
    """Nodes the view had open that the figure folded to fit its size (0: it drew them all)."""

    def __post_init__(self) -> None:
        if self.what not in TITLES:
            raise ValueError(f"a figure is of {' or '.join(map(repr, TITLES))}; got {self.what!r}")

    def write(self, path: str | pathlib.Path) -> pathlib.Path:
        """Write it to ``path`` as SVG, PDF or PNG (by extension)."""
        return render.write(path, self.svg, self.options, self.provenance, TITLES[self.what])

    def png(self) -> bytes:
        """The figure as PNG bytes at its ``dpi`` (no provenance: a picture for the screen)."""
        return render.png_data(self.svg, self.options)


def figure_of(view: ViewSnapshot, **options: Any) -> Figure:
    """Draw the view. Options: see ``FIGURE_OPTIONS`` and ``CCT.save``."""
    unknown = sorted(set(options) - set(FIGURE_OPTIONS))
    if unknown:
        raise TypeError(
            f"unknown figure option {unknown[0]!r}; accepted: {', '.join(FIGURE_OPTIONS)}"
        )
    with_trend = options.pop("trend", True)
    if not isinstance(with_trend, bool):
        raise ValueError(
            f"trend is True (draw the trend pane below the tree) or False; got {with_trend!r}"
        )
    trend = view.trend if with_trend and view.trend else None
    shown_w, shown_h = view.stage_size
    # the view's size on screen by default; then also its zoom and pan, if the user moved it
    on_screen_size = options.get("width") is None and options.get("height") is None
    if options.get("width") is None:
        options["width"] = shown_w if shown_w > 0 else DEFAULT_WIDTH
    if options.get("height") is None:
        options["height"] = shown_h if shown_h > 0 else view.height - CONTROLS_HEIGHT
    zoom = view.view_transform if on_screen_size and shown_w > 0 else None
    transform = None if zoom is None else dict(zip(("x", "y", "k"), zoom, strict=True))
    options["units"] = {**view.units, **(options.get("units") or {})}
    checked = render.figure_options(**options)
    record = provenance.record(
        source=render.text_option("source", view.source),
        nodes=view.nodes,
        color_by=view.color_by,
        size_by=view.size_by,
        units=checked.units,
        reducer=view.reducer,
        view_state=view.view_state,
        ensemble=view.ensemble,
        trend=None if trend is None else provenance.trend_record(trend, view.trend_log),
    )
    record["viewport"] = transform or "fit"
    state = dict(view.renderer_state)
    # the view's fold_to_fit off: the figure draws every open node, however many
    fit = state.get("foldToFit") is not False
    if shown_w > 0:
        # A view drawn on screen has folded its first picture already and reported the folds
        # (``w.collapsed``): the figure starts from the collapse state as it is now, and folds
        # further only what its own size cannot draw legibly (``Figure.folded`` says how many).
        state["foldToFit"] = False
    # what the browser has: under level of detail the loaded nodes and their folds
    svg, nodes, folded = render.svg_of(
        view.payload,
        state,
        list(view.selection),
        checked,
        record,
        transform=transform,
        trend=trend,
        trend_log=view.trend_log,
        fit=fit,
    )
    if folded:
        # the view had more open than the figure's size draws legibly: it folded the smallest
        # subtrees (the hot path and the selection's ancestors stay); the PDF and PNG say so too
        record["folded_to_fit"] = folded
    return Figure(svg, nodes, checked, record, folded=folded)
