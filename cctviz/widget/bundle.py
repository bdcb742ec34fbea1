"""Where the built front end lives, and a clear error when it was never built."""

from __future__ import annotations

import os
import pathlib
import sys
from typing import Any

import anywidget
import ipywidgets
import traitlets

STATIC = pathlib.Path(__file__).parent / "static"  # the bundle also draws figures: figure.page
# the plain bundle: in a source checkout (``npm run build``, ``ANYWIDGET_HMR=1``), not in the
# wheel, which ships the bundle once, packed (figures unpack it: cctviz.figure.page.script)
BUNDLE = STATIC / "widget.js"
PACKED = STATIC / "widget-packed.js"  # the module that unpacks PACKED_DATA (js/build.mjs)
PACKED_DATA = STATIC / "widget-packed.b64"  # its key, a line break, BUNDLE gzipped in base64
STYLES = STATIC / "widget.css"

MISSING = (
    f"the cctviz front-end bundle is missing from {STATIC} (neither widget.js nor "
    "widget-packed.js with widget-packed.b64). It is built when cctviz is installed "
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


class FrontEnd(anywidget.AnyWidget):
    """The packed bundle, once per kernel: every view's ``_front_end`` refers to this one model,
    so a page, and a saved notebook's widget state, hold the 110 KB once however many views
    there are (each view used to carry its own copy, kept by the page for as long as its model
    lives: a re-run of a display cell kept another). It is never displayed."""

    # the views' loader: its ``initialize`` starts unpacking the bundle as soon as this model is
    # made, before the first view's model (whose loader then finds it under way)
    _esm = esm() if packed() else "export default {};"
    _bundle_key = traitlets.Unicode(_PACKED[0]).tag(sync=True)
    _bundle = traitlets.Unicode(_PACKED[1]).tag(sync=True)


_shared: FrontEnd | None = None


def in_marimo() -> bool:
    """Whether this runs in a marimo notebook, which closes a widget's comm when the cell that
    made it runs again: a model shared by the views of several cells would vanish with one."""
    marimo = sys.modules.get("marimo")
    return marimo is not None and bool(marimo.running_in_notebook())


def shared_front_end() -> FrontEnd:
    """The kernel's one front-end model, made again if it was closed (``Widget.close_all()``)."""
    global _shared
    if _shared is None or _shared.comm is None:
        _shared = FrontEnd()
    return _shared


class PackedWidget(anywidget.AnyWidget):
    """An anywidget whose front end is the packed bundle: ``_esm`` is a small loader that
    unpacks the bundle of the shared ``_front_end`` model, or of ``_bundle`` where models are
    not shared (marimo), once per page (a page keeps the source of each module it imports,
    once per widget: the loader is small)."""

    _esm = esm()
    _css = css()
    _bundle_key = traitlets.Unicode(_PACKED[0]).tag(sync=True)
    _bundle = traitlets.Unicode("").tag(sync=True)
    _front_end = traitlets.Instance(FrontEnd, allow_none=True).tag(
        sync=True, **ipywidgets.widget_serialization
    )

    def __init__(self, **kwargs: Any) -> None:
        # before the comm opens, so that its first message says where the bundle is
        if packed() and in_marimo():
            kwargs["_bundle"] = _PACKED[1]
        elif packed():
            kwargs["_front_end"] = shared_front_end()
        super().__init__(**kwargs)


def require() -> None:
    """Raise a ``RuntimeError`` that says how to build the bundle if it is missing (the plain
    bundle under hot reload, else either)."""
    hot = os.environ.get("ANYWIDGET_HMR") == "1"
    if not (BUNDLE.is_file() or (not hot and PACKED.is_file() and PACKED_DATA.is_file())):
        raise RuntimeError(MISSING)
