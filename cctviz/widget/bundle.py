"""Where the built front end lives, and a clear error when it was never built."""

from __future__ import annotations

import os
import pathlib

STATIC = pathlib.Path(__file__).parent / "static"  # also figure.js: see cctviz.figure.page
BUNDLE = STATIC / "widget.js"
PACKED = STATIC / "widget-packed.js"  # BUNDLE gzipped in a module that unpacks it (js/build.mjs)
STYLES = STATIC / "widget.css"

MISSING = (
    f"the cctviz front-end bundle {BUNDLE} is missing. It is built when cctviz is installed "
    "(`pip install .` runs npm); in a source checkout run `npm ci && npm run build`."
)


def esm() -> pathlib.Path | str:
    """The module every widget carries (saved notebooks hold one copy per widget): the packed
    bundle, a third of the size; the plain one with ``ANYWIDGET_HMR=1`` (hot reload watches it,
    and ``npm run dev`` does not pack); an inert module if the front end was never built."""
    if PACKED.is_file() and os.environ.get("ANYWIDGET_HMR") != "1":
        return PACKED
    return BUNDLE if BUNDLE.is_file() else "export default {};"


def css() -> pathlib.Path | str:
    return STYLES if STYLES.is_file() else ""


def require() -> None:
    """Raise a ``RuntimeError`` that says how to build the bundle if it is missing."""
    if not BUNDLE.is_file():
        raise RuntimeError(MISSING)
