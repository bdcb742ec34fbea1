"""``cctviz.export``: a figure of a GraphFrame or Thicket without a notebook."""

from __future__ import annotations

import pathlib
from typing import Any

from .core import progress
from .figure.of_view import FIGURE_OPTIONS, figure_of, stages
from .figure.render import figure_format
from .widget.cct import CCT
from .widget.reducers import STAGES


def export(
    data: Any, path: str | pathlib.Path, *, state: dict[str, Any] | None = None, **options: Any
) -> pathlib.Path:
    """Write a figure of ``data`` (a Hatchet GraphFrame or a Thicket) to ``path``: ``.svg``,
    ``.pdf`` (vector) or ``.png``, by extension. Works in plain scripts and batch jobs.

    ``state`` is a saved view (``w.view_state``); the other options are those of ``cctviz.CCT``
    (``color_by``, ``size_by``, ``reducer``, ``palette``, ``collapsed``, ``source``, ...) and of
    ``CCT.save`` (``width``, ``height``, ``dpi``, ``style``, ``font_family``, ``font_size``,
    ``title``, ``units``). The same state gives the same picture as the widget: the widget's
    renderer draws it, in headless Chromium.
    """
    figure_format(path)  # a bad extension fails before any work
    figure = {k: options.pop(k) for k in list(options) if k in FIGURE_OPTIONS}
    with progress.work(f"exporting {pathlib.Path(path).name}", (*STAGES, *stages(path))):
        widget = CCT(data, state=state, **options)
        try:
            return figure_of(widget.snapshot(), **figure).write(path)
        finally:
            widget.close()
