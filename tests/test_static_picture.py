"""The static picture of a view (cctviz/widget/static_picture.py), in an IPython shell that keeps
what is displayed: the outputs a notebook would get, without a front end."""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest

import cctviz
from cctviz.widget import static_picture
from cctviz.widget.static_picture import CSS_CLASS, ENV

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def gf() -> Any:
    return cctviz.examples.load("hpctoolkit-cpi")


@pytest.fixture
def shell(monkeypatch: pytest.MonkeyPatch) -> Any:
    from IPython.core.interactiveshell import InteractiveShell

    for name in ("JPY_SESSION_NAME", ENV):
        monkeypatch.delenv(name, raising=False)
    return InteractiveShell.instance()


def displayed(w: Any) -> list[Any]:
    """What ``display(w)`` publishes: each output's data, metadata, transient and update flag."""
    from IPython.display import display
    from IPython.utils.capture import capture_output

    with capture_output() as captured:
        display(w)
    return list(captured.outputs)


def png_of(width: int, height: int, colour: tuple[int, int, int] = (200, 30, 30)) -> str:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def pixels(png: str) -> tuple[tuple[int, int], list[Any]]:
    """Size and RGBA pixels of a base64 PNG (the view's picture is stored in 256 colours)."""
    from PIL import Image

    with Image.open(io.BytesIO(base64.b64decode(png))) as image:
        rgba = image.convert("RGBA")
        return rgba.size, list(rgba.getdata())


def snapshot(w: Any, png: Any, width: Any = 300, height: Any = 200) -> list[Any]:
    from IPython.utils.capture import capture_output

    message = {"type": "snapshot", "png": png, "width": width, "height": height}
    with capture_output() as captured:
        w._on_message(w, message, [])
    return list(captured.outputs)


def test_modes_and_hosts(monkeypatch: pytest.MonkeyPatch, shell: Any) -> None:
    assert static_picture.picture_mode() == "auto"
    monkeypatch.setenv(ENV, " Kernel ")
    assert static_picture.picture_mode() == "kernel"
    monkeypatch.setenv(ENV, "browser")
    with pytest.raises(ValueError, match="'browser' is not a mode; accepted: auto, kernel, view"):
        static_picture.picture_mode()
    assert static_picture.live_host() is None
    monkeypatch.setenv("VOILA_BASE_URL", "/")
    assert static_picture.live_host() == "Voilà"
    monkeypatch.setenv("JPY_SESSION_NAME", "/home/me/run.ipynb")
    assert static_picture.live_host() == "Jupyter Server"


@pytest.mark.parametrize(
    ("variable", "host"), [("JPY_SESSION_NAME", "Jupyter Server"), ("VOILA_BASE_URL", "Voilà")]
)
def test_in_a_live_front_end_the_view_sends_the_picture(
    gf: Any, shell: Any, monkeypatch: pytest.MonkeyPatch, variable: str, host: str
) -> None:
    """JupyterLab and Notebook 7 (a Jupyter Server) get the picture as a PNG and text, no HTML:
    an HTML output makes JupyterLab load MathJax while the view draws. Other hosts get it inside
    HTML with the class the widget's stylesheet hides."""
    pytest.importorskip("PIL")
    monkeypatch.setenv(variable, "/home/me/run.ipynb")
    plain = host == "Jupyter Server"
    w = cctviz.CCT(gf)
    assert w._static_follows is False
    view, picture = displayed(w)
    assert WIDGET_MIME in view.data and view.data[WIDGET_MIME]["model_id"] == w.model_id
    # the view marks itself: its stylesheet hides the output that follows it
    assert w._static_follows is True
    # until the view has drawn: a note, in the element the widget's stylesheet hides
    display_id = picture.transient["display_id"]
    assert "image/png" not in picture.data
    if plain:
        assert set(picture.data) == {"text/plain"}
    else:
        assert f'<div class="{CSS_CLASS}">' in picture.data["text/html"]
    # a reader sees the note only where the view does not run: what to install, and where
    note = picture.data["text/plain"]
    assert "once it has drawn" in note and f"this {host} cannot run Jupyter widgets" in note
    assert "pip install anywidget" in note and "conda install -c conda-forge anywidget" in note

    png = png_of(300, 200)
    [update] = snapshot(w, png)
    assert update.update and update.transient == {"display_id": display_id}
    stored = update.data["image/png"]
    assert pixels(stored) == pixels(png)
    assert update.metadata == {"image/png": {"width": 300, "height": 200}}
    if plain:
        assert set(update.data) == {"image/png", "text/plain"}
    else:
        html = update.data["text/html"]
        assert f'src="data:image/png;base64,{stored}" width="300" height="200"' in html

    # what is not a PNG of a sane size changes nothing
    for bad in (
        (base64.b64encode(b"GIF89a" + bytes(20)).decode(), 300, 200),
        ("not base64 at all!", 300, 200),
        (base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"junk" * 8).decode(), 300, 200),  # not an image
        (png[:-3] + "!!!", 300, 200),  # broken base64 after a good start
        (png, 0, 200),
        (png, 300, True),
        (png, 300.5, 200),
        (None, 300, 200),
    ):
        assert snapshot(w, *bad) == []
    assert w._static.png == (stored, 300, 200)
    # a picture displayed again shows the latest picture at once
    _, again = displayed(w)
    assert again.data["image/png"] == stored and again.transient["display_id"] == display_id


def test_pictures_are_stored_in_few_colours() -> None:
    """A picture of many colours is stored in at most 256, smaller, and close to the original;
    one of few colours keeps every pixel."""
    from PIL import Image

    from cctviz.widget.static_picture import _compact

    # like a view: white, a colour-bar legend of 400 colours, grey marks of many shades
    image = Image.new("RGBA", (400, 300), (255, 255, 255, 255))
    for x in range(400):
        for y in range(20, 40):
            image.putpixel((x, y), (x * 255 // 400, 80 + x // 4, 255 - x * 255 // 400, 255))
    for k in range(300):
        image.putpixel((k * 4 // 3, k), (k % 200, k % 200, k % 200, 255))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    rich = base64.b64encode(buffer.getvalue()).decode("ascii")
    compacted = _compact(buffer.getvalue())
    assert compacted is not None
    stored = base64.b64encode(compacted).decode("ascii")
    (size, before), (size_after, after) = pixels(rich), pixels(stored)
    assert size_after == size and len(set(after)) <= 256 < len(set(before))
    assert len(stored) < len(rich)
    assert (
        max(
            max(abs(p - q) for p, q in zip(a, b, strict=True))
            for a, b in zip(before, after, strict=True)
        )
        < 64
    )
    plain = png_of(300, 200)
    kept = _compact(base64.b64decode(plain))
    assert kept is not None and pixels(base64.b64encode(kept).decode("ascii")) == pixels(plain)


def test_names_are_text_in_the_picture_output(shell: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The output's HTML is made from the widget's description, which holds metric names."""
    import hatchet as ht
    import pandas as pd

    monkeypatch.setenv(ENV, "view")
    hostile = '<img src=x onerror="alert(1)">'
    gf = ht.GraphFrame.from_literal(
        [{"frame": {"name": "main", "type": "function"}, "metrics": {hostile: 1.0}, "children": []}]
    )
    assert isinstance(gf.dataframe, pd.DataFrame)
    w = cctviz.CCT(gf, color_by=hostile, size_by=hostile)
    _, picture = displayed(w)
    assert "<img" not in picture.data["text/html"]
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in picture.data["text/html"]


def test_off_means_the_widget_alone(gf: Any, shell: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "off")
    [view] = displayed(cctviz.CCT(gf))
    assert WIDGET_MIME in view.data


def test_without_a_front_end_the_kernel_draws_it_and_follows_the_view(
    gf: Any, shell: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("playwright", reason="the kernel draws with cctviz[export]")
    from PIL import Image

    from cctviz.figure.browser import BrowserUnavailableError

    monkeypatch.setenv(ENV, "kernel")
    w = cctviz.CCT(gf)
    try:
        _, picture = displayed(w)
    except BrowserUnavailableError as error:  # pragma: no cover - a machine without Chromium
        pytest.skip(str(error))
    assert picture.metadata == {"image/png": {"width": 900, "height": w.height - 90}}
    with Image.open(io.BytesIO(base64.b64decode(picture.data["image/png"]))) as image:
        assert image.size == (1350, round((w.height - 90) * 1.5))
        assert len(image.convert("RGB").getcolors(1 << 16) or []) > 50  # a drawing
    first = picture.data["image/png"]

    from IPython.utils.capture import capture_output

    # a cell that does not change the view: no new picture; one that does: a new one
    with capture_output() as captured:
        shell.events.trigger("post_run_cell", None)
    assert captured.outputs == []
    w.collapse(w.table.roots[0] + 2)
    with capture_output() as captured:
        shell.events.trigger("post_run_cell", None)
    [update] = captured.outputs
    assert update.update and update.transient == picture.transient
    assert update.data["image/png"] != first
    w.close()
    with capture_output() as captured:
        w.expand()
        shell.events.trigger("post_run_cell", None)
    assert captured.outputs == []  # a closed view is left alone


def test_an_executed_notebook_without_chromium_says_what_to_install(
    gf: Any, shell: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    pytest.importorskip("playwright", reason="the kernel draws with cctviz[export]")
    import cctviz.figure.of_view
    from cctviz.figure.browser import BrowserUnavailableError

    def no_chromium(*_args: Any, **_kwargs: Any) -> Any:
        # what the figure pipeline raises without a Chromium (a browser of earlier tests may run)
        raise BrowserUnavailableError(
            f"CCTVIZ_CHROMIUM={str(tmp_path / 'no-chromium')!r} is not a file"
        )

    monkeypatch.setenv(ENV, "kernel")
    # where the view takes it from: the module that defines it (tests/test_layers.py)
    monkeypatch.setattr(cctviz.figure.of_view, "figure_of", no_chromium)
    w = cctviz.CCT(gf)
    _, picture = displayed(w)
    note = picture.data["text/plain"]
    assert "image/png" not in picture.data
    assert "No picture of this view: CCTVIZ_CHROMIUM=" in note
    assert "pip install 'cctviz[export]'" in note and "apt-get install chromium" in note
