"""Figures of a view as SVG, PDF and PNG, drawn by the widget's renderer in headless Chromium.

SVG comes from the renderer (js/src/cct/figure.js). PDF is Chromium's own printing of that SVG
(vector: paths and text, no raster image); PNG is the SVG drawn by Chromium onto a canvas of
exactly the requested pixels. Metadata are added with pypdf and Pillow.
"""

from __future__ import annotations

import base64
import io
import pathlib
from dataclasses import dataclass, field
from typing import Any

from ..core import progress
from ..core.units import check as check_units
from . import provenance as prov_mod
from .browser import shared
from .page import script as figure_script
from .size import Length, length

FORMATS = (".svg", ".pdf", ".png")
STYLES = ("screen", "paper")
MAX_PNG_SIDE = 16384  # Chromium's largest canvas side


@dataclass(frozen=True)
class FigureOptions:
    """How a figure looks and how big it is (checked; see ``figure_options``)."""

    width: Length
    height: Length
    style: str = "screen"
    font_family: str | None = None
    font_size: float | None = None
    dpi: float = 300.0
    title: str | None = None
    units: dict[str, str] = field(default_factory=dict)


def text_option(name: str, value: Any) -> str | None:
    """``value`` if it is text a figure file can hold (or None), else a ``ValueError`` naming
    the option: a lone surrogate cannot be encoded, and control characters are not XML."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{name} must be text (a str) or None; got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        bad = value[error.start : error.end].encode("unicode_escape").decode("ascii")
        raise ValueError(
            f"{name} holds a lone surrogate ({bad} at position {error.start}), which no file "
            "can store; pass text decoded from bytes with errors='replace'"
        ) from None
    control = next((c for c in value if ord(c) < 32 and c not in "\t\n\r"), None)
    if control is not None:
        raise ValueError(
            f"{name} holds the control character {control!r}, which SVG (XML) cannot hold; "
            "remove it (tabs and newlines are fine)"
        )
    return value


def figure_options(
    *,
    width: Any,
    height: Any,
    style: str = "screen",
    font_family: str | None = None,
    font_size: float | None = None,
    dpi: float = 300,
    title: str | None = None,
    units: dict[str, str] | None = None,
) -> FigureOptions:
    """Check figure options; errors say what was wrong and what is accepted."""
    if style not in STYLES:
        raise ValueError(f"unknown figure style {style!r}; accepted: {', '.join(STYLES)}")
    if font_family is not None and (not isinstance(font_family, str) or not font_family.strip()):
        raise ValueError(f"font_family must be a font name such as 'Times'; got {font_family!r}")
    if font_size is not None and not (_number(font_size) and 1 <= font_size <= 72):
        raise ValueError(f"font_size is in points, 1 to 72; got {font_size!r}")
    if not (_number(dpi) and 10 <= dpi <= 1200):
        raise ValueError(f"dpi must be a number from 10 to 1200; got {dpi!r}")
    units = dict(units or {})
    for name, unit in units.items():
        if not isinstance(unit, str):
            raise ValueError(f"units maps metric names to unit strings; got {name!r}: {unit!r}")
        text_option(f"units[{name!r}]", unit)
    check_units(units)  # each parses (cctviz.core.units), or the error names the metric
    text_option("title", title)
    return FigureOptions(
        width=length(width, "width"),
        height=length(height, "height"),
        style=style,
        font_family=font_family,
        font_size=None if font_size is None else float(font_size),
        dpi=float(dpi),
        title=title,
        units=units,
    )


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def figure_format(path: str | pathlib.Path) -> str:
    """The format of ``path`` from its extension, or a clear error."""
    suffix = pathlib.Path(path).suffix.lower()
    if suffix not in FORMATS:
        shown = repr(suffix) if suffix else "no extension"
        raise ValueError(
            f"cannot tell the figure format of {str(path)!r} ({shown}); "
            f"accepted extensions: {', '.join(FORMATS)}"
        )
    return suffix


def _b64(value: Any) -> Any:
    """The payload with its buffers as base64 (Playwright passes JSON into the page)."""
    if isinstance(value, (memoryview, bytes, bytearray)):
        return {"$b64": base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        return {k: _b64(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_b64(v) for v in value]
    return value


def svg_of(
    payload: dict[str, Any],
    state: dict[str, Any],
    selection: list[int],
    options: FigureOptions,
    provenance: dict[str, Any],
    transform: dict[str, float] | None = None,
    trend: dict[str, Any] | None = None,
    trend_log: bool = False,
    fit: bool = True,
) -> tuple[str, int, int]:
    """The SVG text of the view of ``payload`` (cctviz.view.payload.encode; under level of detail
    what the browser has), how many node marks it holds, and how many nodes ``state`` has open
    that the figure folded to fit its size (0: none; the SVG's title and provenance say so).
    Ids in ``state`` and ``selection`` are ids of the full tree. ``transform`` (x, y, k): the
    zoom and pan of a view of the same size; None fits the whole tree. ``trend``: an ensemble
    view's trend pane, drawn below the tree (``trend_log``: on log axes). ``fit``: a fitted
    figure folds what is open further where its rows cannot be told apart (False: every open
    node is drawn)."""
    payload = _b64(payload)
    js_options = {
        "width": options.width.px,
        "height": options.height.px,
        "widthAttr": options.width.attr,
        "heightAttr": options.height.attr,
        "style": options.style,
        "fontFamily": options.font_family,
        "fontSize": options.font_size,
        "selection": list(selection),
        "units": options.units,
        "title": options.title,
        "provenance": provenance,
        "transform": transform,
        "trend": trend,
        "trendLog": trend_log,
        "fit": fit,
    }

    def draw(browser: Any) -> dict[str, Any]:
        result: dict[str, Any] = _figure_page(browser).evaluate(
            "([p, s, o]) => cctvizFigure(p, s, o)", [payload, state, js_options]
        )
        return result

    if not shared().started:
        progress.stage("starting Chromium")
        shared().run(lambda _: None)  # a job of its own: it shows as a stage of its own
    progress.stage("drawing the tree in Chromium")
    result = shared().run(draw)
    return result["svg"], int(result["nodes"]), int(result.get("folded", 0))


def _page_html(svg: str, options: FigureOptions) -> str:
    w, h = options.width.px, options.height.px
    return (
        "<!doctype html><html><head><meta charset='utf-8'><style>"
        f"@page {{ size: {w}px {h}px; margin: 0 }}"
        "html, body { margin: 0; padding: 0; overflow: hidden }"
        f"svg {{ display: block; width: {w}px; height: {h}px }}"
        f"</style></head><body>{svg}</body></html>"
    )


def pdf_bytes(svg: str, options: FigureOptions) -> bytes:
    """A one-page vector PDF of the SVG, the page the size of the figure."""
    html = _page_html(svg, options)

    def job(browser: Any) -> bytes:
        page = browser.new_page()
        try:
            page.set_content(html)
            data: bytes = page.pdf(
                width=f"{options.width.px}px",
                height=f"{options.height.px}px",
                print_background=True,
                prefer_css_page_size=True,
                margin={"top": "0", "right": "0", "bottom": "0", "left": "0"},
            )
            return data
        finally:
            page.close()

    return shared().run(job)


def png_image(svg: str, options: FigureOptions) -> Any:
    """The SVG as a Pillow image of the figure's size at ``options.dpi``: Chromium draws it
    onto a canvas of exactly that many pixels."""
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError("writing PNG figures needs Pillow: pip install 'cctviz[export]'") from (
            error
        )
    image: Image.Image = Image.open(io.BytesIO(png_data(svg, options)))
    image.load()
    return image


def png_data(svg: str, options: FigureOptions) -> bytes:
    """The SVG as PNG bytes of the figure's size at ``options.dpi``, as Chromium's canvas
    encodes them (no metadata)."""
    scale = options.dpi / 96.0
    pixels = (round(options.width.px * scale), round(options.height.px * scale))
    if max(pixels) > MAX_PNG_SIDE:
        raise ValueError(
            f"a PNG of {pixels[0]} × {pixels[1]} pixels is more than Chromium draws "
            f"({MAX_PNG_SIDE} per side); lower dpi or the size, or save as .pdf or .svg"
        )

    def job(browser: Any) -> str:
        data: str = _figure_page(browser).evaluate(
            "([svg, w, h, s]) => cctvizPng(svg, w, h, s)",
            [svg, options.width.px, options.height.px, scale],
        )
        return data

    return base64.b64decode(shared().run(job))


def in_figure_page(script: str, args: Any) -> Any:
    """``script`` (a JavaScript function of ``args``) run in the figure page, where the bundle's
    figure functions are globals (``cctvizTableFigure``); Chromium starts if it has not."""
    if not shared().started:
        progress.stage("starting Chromium")
        shared().run(lambda _: None)
    return shared().run(lambda browser: _figure_page(browser).evaluate(script, args))


_page: Any = None


def _figure_page(browser: Any) -> Any:
    """A blank page with the figure bundle loaded, kept open for the next figure (loading the
    bundle takes most of a small figure's time). Called on the browser's thread only."""
    global _page
    if _page is None or _page.is_closed() or _page.context.browser is not browser:
        _page = browser.new_page(viewport={"width": 1200, "height": 900})
        _page.set_content("<!doctype html><html><head><meta charset='utf-8'></head><body>")
        # the bundle is an ES module: imported from a blob URL, its two exports made globals
        _page.evaluate(
            """async (source) => {
              const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
              try {
                const bundle = await import(url);
                globalThis.cctvizFigure = bundle.cctvizFigure;
                globalThis.cctvizPng = bundle.cctvizPng;
                globalThis.cctvizTableFigure = bundle.cctvizTableFigure;
              } finally {
                URL.revokeObjectURL(url);
              }
            }""",
            figure_script(),
        )
    return _page


def write(
    path: str | pathlib.Path,
    svg: str,
    options: FigureOptions,
    provenance: dict[str, Any],
    what: str = "Calling context tree",
) -> pathlib.Path:
    """Write the SVG to ``path`` as SVG, PDF or PNG (by extension), with the provenance;
    ``what``: the title when the options give none."""
    out = pathlib.Path(path)
    kind = figure_format(out)
    if not out.parent.is_dir():
        raise FileNotFoundError(f"cannot write {str(out)!r}: folder {str(out.parent)!r} is missing")
    title = options.title or what
    if kind != ".svg":
        progress.stage(f"rendering the {kind[1:].upper()} in Chromium")
    if kind == ".svg":
        progress.stage("writing the file")
        out.write_text('<?xml version="1.0" encoding="UTF-8"?>\n' + svg + "\n", encoding="utf-8")
    elif kind == ".pdf":
        data = pdf_bytes(svg, options)
        progress.stage("writing the file")
        out.write_bytes(data)
        prov_mod.add_to_pdf(out, provenance, title)
    else:
        image = png_image(svg, options)
        progress.stage("writing the file")
        dpi = (options.dpi, options.dpi)
        image.save(out, format="PNG", dpi=dpi, pnginfo=prov_mod.png_info(provenance, title))
    return out
