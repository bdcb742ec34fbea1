"""The headless figure page: the front-end bundle that draws figures in Chromium.

It is the widget's own bundle (``npm run build`` writes it into the package's ``widget/static``
folder), whose named exports ``cctvizFigure`` and ``cctvizPng`` draw a figure and rasterise it;
figures only read the file."""

from __future__ import annotations

import pathlib

FIGURE = pathlib.Path(__file__).parent.parent / "widget" / "static" / "widget.js"

MISSING = (
    f"the cctviz front-end bundle {FIGURE} is missing. It is built when cctviz is installed "
    "(`pip install .` runs npm); in a source checkout run `npm ci && npm run build`."
)


def require() -> None:
    """Raise a ``RuntimeError`` that says how to build the figure bundle if it is missing."""
    if not FIGURE.is_file():
        raise RuntimeError(MISSING)


def script() -> str:
    """The bundle's JavaScript, an ES module (exports ``cctvizFigure`` and ``cctvizPng``)."""
    require()
    return FIGURE.read_text(encoding="utf-8")
