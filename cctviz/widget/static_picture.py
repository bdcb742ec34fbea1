"""The static picture of a view: what a notebook shows where the live view cannot run.

GitHub, nbviewer and ``nbconvert`` HTML opened offline cannot run the widget's JavaScript; an
output that is only the widget shows nothing there. So every view displayed in a notebook gets a
second output, right after the widget's, that holds a PNG of the view:

- In a live front end (JupyterLab, Notebook 7, Voilà, VS Code, Colab) the view draws its own
  picture a moment after it last changed and sends it here (a ``snapshot`` message); Python puts
  it in that output with ``update_display`` (the Jupyter protocol's display ids: no front-end
  internals), so the saved notebook carries the picture of the view as the user left it.
- Where no front end runs the view (``nbconvert --execute``, papermill, nbclient), the kernel
  draws the picture itself with the figure pipeline (headless Chromium: ``cctviz[export]``),
  again at the end of each later cell that changed the view.

The widget's stylesheet hides that output, and it is loaded only where the view runs: there the
live view shows alone, elsewhere the picture does. In JupyterLab and Notebook 7 the output is a
PNG (and text) without HTML, which would make JupyterLab load MathJax while the view draws: the
view marks itself (``_static_follows``) and the stylesheet hides the output right after it.
``CCTVIZ_STATIC_PICTURE`` chooses: ``auto`` (the default: the kernel draws when no live front
end started it), ``kernel``, ``view`` or ``off`` (no second output).
"""

from __future__ import annotations

import base64
import binascii
import html
import io
import json
import os
import sys
import uuid
import warnings
import weakref
from typing import Any, TypeGuard

from .owned import OwnedPart
from .part import Message, handles

ENV = "CCTVIZ_STATIC_PICTURE"
MODES = ("auto", "kernel", "view", "off")
CSS_CLASS = "cctviz-static"
KERNEL_DPI = 144  # 1.5 pixels a CSS pixel: sharp on high-density screens, ~40-70 KB a view
MAX_PNG_BYTES = 16 << 20  # a view's picture is far smaller; more is not a picture of ours
MAX_SCALE = 4  # device pixels a CSS pixel in a view's picture, at most
MAX_PIXELS = 40_000_000  # a picture's pixels, at most (Pillow refuses 179M; decoding 40M is 160 MB)


def picture_mode() -> str:
    """``CCTVIZ_STATIC_PICTURE``, checked: who draws the static picture."""
    mode = os.environ.get(ENV, "auto").strip().lower() or "auto"
    if mode not in MODES:
        raise ValueError(f"{ENV}={mode!r} is not a mode; accepted: {', '.join(MODES)}")
    return mode


def live_host() -> str | None:
    """The interactive front end that started this kernel, if it says so; None: none known
    (a batch run such as nbconvert or papermill, or an unknown host)."""
    if "JPY_SESSION_NAME" in os.environ:  # Jupyter Server: JupyterLab, Notebook 7, nbclassic
        return "Jupyter Server"
    if any(name.startswith("VOILA_") for name in os.environ):
        return "Voilà"
    if "google.colab" in sys.modules:
        return "Colab"
    shell = _shell()
    if shell is not None and "__vsc_ipynb_file__" in getattr(shell, "user_ns", {}):
        return "VS Code"
    return None


def no_view_note(host: str | None) -> str:
    """What the static output says until the view sends its picture, which a reader sees only
    where the view does not run (its stylesheet hides the output where it runs): the front end
    cannot run Jupyter widgets, and what to install where."""
    where = f"this {host}" if host else "this notebook"
    return (
        "The interactive view is drawn by cctviz's JavaScript, and its picture is added here "
        f"once it has drawn. If no view shows above, {where} cannot run Jupyter widgets: "
        "install anywidget into the environment the front end (JupyterLab, Notebook) runs from "
        "— pip install anywidget, or conda install -c conda-forge anywidget — restart it and "
        "reload the page. Meanwhile w.save('view.png') draws a picture in the kernel (pip "
        "install 'cctviz[export]')."
    )


def _shell() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


class StaticPicture(OwnedPart):
    """The static-picture part of a view (the view's ``_ipython_display_`` calls
    ``show_in_cell``): the view's picture of itself, or one the kernel draws (the view's
    figures); one it refuses is said in the view and in its ``front_end_errors``."""

    display_id: str | None = None
    png: tuple[str, int, int] | None = None  # base64 PNG, width, height (CSS pixels)
    note: str = ""
    drawn_for: str | None = None  # the view the kernel's picture shows
    plain = False  # the picture's output has no HTML (JupyterLab, Notebook 7)

    def show_in_cell(self) -> None:
        from IPython.display import display

        bundle = self.view._repr_mimebundle_()
        if bundle is None:  # a closed widget
            display(repr(self.view))  # type: ignore[no-untyped-call]
            return
        # anywidget gives (data, metadata), ipywidgets data alone
        view, view_metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        mode, host = picture_mode(), live_host()
        kernel = mode == "kernel" or (mode == "auto" and host is None)
        # JupyterLab and Notebook 7 get the picture without HTML: an HTML output makes JupyterLab
        # load MathJax (16 scripts, ~100 ms) while the view draws its first picture
        self.plain = not kernel and host == "Jupyter Server"
        self.view._static_follows = mode != "off"  # the view marks itself: its stylesheet hides it
        display(view, raw=True, metadata=view_metadata)  # type: ignore[no-untyped-call]
        if mode == "off":
            return
        if kernel:
            self.draw_in_kernel()
            _watch(self)
        if self.display_id is None:
            self.display_id = f"cctviz-{uuid.uuid4().hex}"
        data, metadata = self.bundle()
        display(data, raw=True, metadata=metadata, display_id=self.display_id)  # type: ignore[no-untyped-call]

    def bundle(self) -> tuple[dict[str, str], dict[str, Any]]:
        """The picture's output: HTML (the class the widget's stylesheet hides) and PNG."""
        label = f"cctviz: {self.view!r}"
        if self.png is None:
            # seen only where the widget's stylesheet is not loaded: the view is not running
            note = self.note or no_view_note(live_host())
            text = f"{label}\n{note}"
            if self.plain:
                return {"text/plain": text}, {}
            markup = f'<div class="{CSS_CLASS}"><pre>{html.escape(text)}</pre></div>'
            return {"text/html": markup, "text/plain": text}, {}
        png, width, height = self.png
        size = {"image/png": {"width": width, "height": height}}
        if self.plain:
            return {"image/png": png, "text/plain": label}, size
        markup = (
            f'<div class="{CSS_CLASS}"><img src="data:image/png;base64,{png}" '
            f'width="{width}" height="{height}" alt="{html.escape(label, quote=True)}"></div>'
        )
        return {"text/html": markup, "image/png": png, "text/plain": label}, size

    def show(self) -> None:
        """Put the current picture into the displayed outputs (all of them: one display id)."""
        if self.display_id is None:
            return
        from IPython.display import update_display

        data, metadata = self.bundle()
        update_display(data, raw=True, metadata=metadata, display_id=self.display_id)  # type: ignore[no-untyped-call]

    @handles("snapshot")
    def _on_snapshot(self, content: Message) -> None:
        """The view's picture of itself. Anything that is not a PNG of a sane size is refused
        before it is decoded (a forged header can declare 10^10 pixels), said in the view and
        in ``w.front_end_errors``; the picture shown stays the last good one."""
        png, width, height = content.get("png"), content.get("width"), content.get("height")
        why = _unfit(png, width, height)
        picture = None if why else _compact(_png_bytes(png))
        if picture is None or not (_size(width) and _size(height)):
            why = why or "its data is not an image"
            self.view._refuse("snapshot", f"Python refused the view's picture: {why}")
            return
        self.png = (base64.b64encode(picture).decode("ascii"), width, height)
        self.show()

    def draw_in_kernel(self) -> None:
        """Draw the picture here, with the figure pipeline; if that cannot run, say why."""
        from ..figure.browser import BrowserUnavailableError
        from ..figure.of_view import figure_of

        key = self.key()
        if key == self.drawn_for:
            return
        self.drawn_for = key
        try:
            figure = figure_of(self.view.snapshot(), dpi=KERNEL_DPI)
            raw = figure.png()
            picture = _compact(raw) or raw
        except (ImportError, BrowserUnavailableError) as error:
            self.png = None
            self.note = (
                f"No picture of this view: {error}. An executed notebook (nbconvert --execute, "
                "papermill) gets the picture of each view from the kernel, which draws it with "
                "Chromium: pip install 'cctviz[export]' and then `playwright install chromium` "
                "(a download), or offline a system Chromium (apt-get install chromium, dnf "
                "install chromium) on PATH or named by CCTVIZ_CHROMIUM. Opened in JupyterLab, "
                "the notebook shows the interactive view."
            )
            return
        width, height = round(figure.options.width.px), round(figure.options.height.px)
        self.png = (base64.b64encode(picture).decode("ascii"), width, height)

    def key(self) -> str:
        """What the kernel's picture depends on: the data and what the renderer draws (node ids,
        cheap to compare; ``view_state`` would key every node by call path)."""
        state = {
            "tree": self.view._tree,
            "reducer": self.view._table.reducer,
            "loaded": len(self.view.loaded),
            "view": self.view.renderer_state(),
            "selection": self.view.selection,
            "height": self.view.height,
            "units": dict(self.view.units),
        }
        return json.dumps(state, sort_keys=True, default=str)


_kernel_views: weakref.WeakSet[StaticPicture] = weakref.WeakSet()
"""The static pictures the kernel draws (no front end draws one), by their views' parts."""


def _watch(part: StaticPicture) -> None:
    """At the end of each cell, views that changed get a new picture."""
    first = not _kernel_views
    _kernel_views.add(part)
    shell = _shell()
    if first and shell is not None:
        callbacks = shell.events.callbacks["post_run_cell"]
        if _refresh not in callbacks:
            shell.events.register("post_run_cell", _refresh)


def _refresh(*_args: Any) -> None:
    for part in list(_kernel_views):
        if getattr(part.view, "comm", None) is None:  # closed
            _kernel_views.discard(part)
            continue
        before = part.png
        part.draw_in_kernel()
        if part.png != before:
            part.show()


def _compact(png: bytes | None) -> bytes | None:
    """The picture in 256 colours: a third to a fifth of the size, the same to the eye (the view
    has few colours; text keeps its anti-aliasing). Each output carries the picture twice (the
    HTML that hides it where the view runs, and ``image/png`` for renderers without HTML), so
    this is most of what a saved view weighs. Unchanged without Pillow; None: not an image."""
    if png is None:
        return None
    try:
        from PIL import Image
    except ImportError:
        return png
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(png)) as image:
                if image.mode not in ("RGB", "RGBA"):
                    image = image.convert("RGBA")
                few = image.quantize(
                    256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
                )
    except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        return None  # a PNG signature over something else, or more pixels than it said
    out = io.BytesIO()
    few.save(out, "PNG", optimize=True)
    return out.getvalue() if out.tell() < len(png) else png


def _unfit(png: Any, width: Any, height: Any) -> str:
    """Why a snapshot is not a picture of the view ("": it may be), read from its PNG header
    only: its pixels must be those of ``width`` x ``height`` CSS pixels at most 4 device pixels
    each (what the view draws at), and no more than MAX_PIXELS."""
    if not (_size(width) and _size(height)):
        return f"its size {width!r} x {height!r} is not 1 to 16384 CSS pixels a side"
    raw = _png_bytes(png)
    if raw is None:
        return "it is not a base64 PNG of at most 16 MB"
    if len(raw) < 24 or raw[12:16] != b"IHDR":
        return "its PNG header is missing"
    pixels = int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")
    if not all(0 < n <= MAX_SCALE * css for n, css in zip(pixels, (width, height), strict=True)):
        return (
            f"its PNG declares {pixels[0]} x {pixels[1]} pixels, not those of a {width} x "
            f"{height} view (at most {MAX_SCALE} pixels a CSS pixel)"
        )
    if pixels[0] * pixels[1] > MAX_PIXELS:
        return f"its PNG declares {pixels[0]} x {pixels[1]} pixels, more than {MAX_PIXELS:,}"
    return ""


def _size(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 16384


def _png_bytes(data: Any) -> bytes | None:
    """``data`` decoded if it is base64 of a PNG of a sane size, else None."""
    if not isinstance(data, str) or len(data) > MAX_PNG_BYTES * 4 // 3:
        return None
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None
    return raw if raw.startswith(b"\x89PNG\r\n\x1a\n") else None
