"""The headless figure page: the front-end bundle that draws figures in Chromium.

It is the widget's own bundle, whose named exports ``cctvizFigure`` and ``cctvizPng`` draw a
figure and rasterise it; figures only read it. ``npm run build`` writes it twice into the
package's ``widget/static`` folder: plain (``widget.js``, what a source checkout and
``ANYWIDGET_HMR=1`` use) and packed (``widget-packed.b64``: its key line, then the bundle
gzipped in base64, what widgets carry: ``js/build.mjs``). The wheel ships the packed one only,
so the figure page unpacks it when the plain one is absent."""

from __future__ import annotations

import base64
import functools
import gzip
import pathlib

STATIC = pathlib.Path(__file__).parent.parent / "widget" / "static"
FIGURE = STATIC / "widget.js"
PACKED_DATA = STATIC / "widget-packed.b64"

MISSING = (
    f"the cctviz front-end bundle is missing: neither {FIGURE} nor {PACKED_DATA} is there. It is "
    "built when cctviz is installed (`pip install .` runs npm); in a source checkout run "
    "`npm ci && npm run build`."
)


def require() -> None:
    """Raise a ``RuntimeError`` that says how to build the figure bundle if it is missing."""
    if not (FIGURE.is_file() or PACKED_DATA.is_file()):
        raise RuntimeError(MISSING)


def script() -> str:
    """The bundle's JavaScript, an ES module (exports ``cctvizFigure`` and ``cctvizPng``): the
    plain bundle where it is (a source checkout), else the packed one unpacked."""
    require()
    if FIGURE.is_file():
        return FIGURE.read_text(encoding="utf-8")
    return unpacked(PACKED_DATA)


@functools.lru_cache(maxsize=2)
def unpacked(path: pathlib.Path) -> str:
    """The bundle in ``path`` (a packed bundle: its key, a line break, the gzipped bundle in
    base64), as text; a file of another shape is a ``RuntimeError`` that says so."""
    key, newline, data = path.read_text(encoding="ascii").partition("\n")
    if not (key.startswith("cctviz-") and newline and data):
        raise RuntimeError(
            f"{path} is not a packed cctviz bundle (a line `cctviz-<hash>`, then the bundle "
            f"gzipped in base64; it begins {key[:40]!r}): rebuild it with `npm run build`"
        )
    return gzip.decompress(base64.b64decode(data, validate=True)).decode("utf-8")
