"""Where the built front end lives, and a clear error when it was never built."""

from __future__ import annotations

import os
import pathlib

import anywidget
import traitlets

STATIC = pathlib.Path(__file__).parent / "static"  # also figure.js: see cctviz.figure.page
BUNDLE = STATIC / "widget.js"
PACKED = STATIC / "widget-packed.js"  # the module that unpacks PACKED_DATA (js/build.mjs)
PACKED_DATA = STATIC / "widget-packed.b64"  # its key, a line break, BUNDLE gzipped in base64
STYLES = STATIC / "widget.css"

MISSING = (
    f"the cctviz front-end bundle {BUNDLE} is missing. It is built when cctviz is installed "
    "(`pip install .` runs npm); in a source checkout run `npm ci && npm run build`."
)


def css() -> pathlib.Path | str:
    return STYLES if STYLES.is_file() else ""


def packed() -> bool:
    """Whether widgets carry the packed bundle: built, and no hot reload (``ANYWIDGET_HMR=1``
    watches the plain bundle, and ``npm run dev`` does not pack)."""
    return PACKED.is_file() and PACKED_DATA.is_file() and os.environ.get("ANYWIDGET_HMR") != "1"


def esm() -> pathlib.Path | str:
    """The module every widget carries: the small loader of the packed bundle, the plain bundle
    under hot reload, or an inert module if the front end was never built."""
    if packed():
        return PACKED
    return BUNDLE if BUNDLE.is_file() else "export default {};"


def bundle_data() -> tuple[str, str]:
    """The packed bundle's key (its version) and its text, base64 of the gzipped bundle, which
    saved notebooks hold once per widget; empty when widgets carry the plain bundle."""
    if not packed():
        return "", ""
    key, _, data = PACKED_DATA.read_text().partition("\n")
    return key, data


_PACKED = bundle_data()


class PackedWidget(anywidget.AnyWidget):
    """An anywidget whose front end is the packed bundle: ``_esm`` loads it from ``_bundle``
    (a page keeps the source of each module it imports, once per widget: the loader is small)."""

    _esm = esm()
    _css = css()
    _bundle_key = traitlets.Unicode(_PACKED[0]).tag(sync=True)
    _bundle = traitlets.Unicode(_PACKED[1]).tag(sync=True)


def require() -> None:
    """Raise a ``RuntimeError`` that says how to build the bundle if it is missing."""
    if not BUNDLE.is_file():
        raise RuntimeError(MISSING)
