"""Where the built front end lives, and a clear error when it was never built."""

from __future__ import annotations

import pathlib

STATIC = pathlib.Path(__file__).parent / "static"  # also figure.js: see cctviz.figure.page
BUNDLE = STATIC / "widget.js"
STYLES = STATIC / "widget.css"

MISSING = (
    f"the cctviz front-end bundle {BUNDLE} is missing. It is built when cctviz is installed "
    "(`pip install .` runs npm); in a source checkout run `npm ci && npm run build`."
)


def esm() -> pathlib.Path | str:
    """The bundle as a path (so ``ANYWIDGET_HMR=1`` hot-reloads it), or an inert module."""
    return BUNDLE if BUNDLE.is_file() else "export default {};"


def css() -> pathlib.Path | str:
    return STYLES if STYLES.is_file() else ""


def require() -> None:
    """Raise a ``RuntimeError`` that says how to build the bundle if it is missing."""
    if not BUNDLE.is_file():
        raise RuntimeError(MISSING)
