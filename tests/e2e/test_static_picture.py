"""End to end: a notebook carries a PNG of each view, drawn by the view in JupyterLab or by the
kernel without a front end, which nbconvert HTML shows offline; figures of the view as shown."""

from __future__ import annotations

import base64
import io
import json
import re
from typing import Any

import pytest

from .lab import PICTURE_ROW, NotebookPage, more_controls

pytestmark = pytest.mark.e2e

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
CSS_CLASS = "cctviz-static"
PICTURE = '.jp-OutputArea-output[data-mime-type="image/png"] img'  # in JupyterLab: a PNG
CELLS = ["import cctviz\ngf = cctviz.examples.load('hpctoolkit-cpi')\nw = cctviz.CCT(gf)\nw"]
COLLAPSE = "w.collapse(w.table.roots[0] + 2)"


def save(notebook: NotebookPage) -> dict[str, Any]:
    """Save through JupyterLab's own command; return the notebook file as written."""
    notebook.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    return json.loads((notebook.lab.root / notebook.name).read_text())


def pictures(nb: dict[str, Any]) -> list[dict[str, Any]]:
    """The static-picture outputs of ``nb`` (cctviz/widget/static_picture.py)."""
    return [
        output
        for cell in nb["cells"]
        for output in cell.get("outputs", [])
        if CSS_CLASS in str(output.get("data", {}).get("text/html", ""))
        or "".join(output.get("data", {}).get("text/plain", "")).startswith("cctviz: ")
    ]


def wait_snapshot(page: Any, after: str = "0") -> str:
    """Wait for the view's next static picture (sent to Python); return its stamp."""
    handle = page.wait_for_function(
        """(after) => {
          const stamp = document.querySelector('.cctviz')?.dataset.cctSnapshot;
          return stamp && Number(stamp) > Number(after) ? stamp : null;
        }""",
        arg=after,
        timeout=20_000,
    )
    return str(handle.json_value())


def wait_picture(page: Any, before: str | None = None) -> str:
    """Wait until the notebook's picture output holds a PNG other than ``before``."""
    handle = page.wait_for_function(
        """(before) => {
          const src = document.querySelector(
            '.cctviz-static img, .jp-OutputArea-output[data-mime-type="image/png"] img'
          )?.getAttribute('src');
          return src && src !== before ? src : null;
        }""",
        arg=before,
        timeout=20_000,
    )
    return str(handle.json_value())


def shown_offline(page: Any, html: str, tmp_path: Any) -> dict[str, Any]:
    """Open nbconvert's HTML in Chromium with the network cut off (widget scripts come from a
    CDN); report what the picture output shows."""
    path = tmp_path / "notebook.html"
    path.write_text(html, encoding="utf-8")
    offline = page.context.new_page()
    try:
        offline.route(
            "**/*",
            lambda route: (
                route.continue_() if route.request.url.startswith("file:") else route.abort()
            ),
        )
        offline.goto(path.as_uri())
        offline.wait_for_load_state("load")
        image = offline.locator('img[src^="data:image/png"]')
        image.wait_for(timeout=10_000)
        result: dict[str, Any] = image.evaluate(
            "(img) => ({ visible: img.getBoundingClientRect().width > 0 && img.complete,"
            " naturalWidth: img.naturalWidth, width: img.width, height: img.height })"
        )
        return result
    finally:
        offline.close()


def test_saved_notebook_carries_the_view_as_png(open_notebook, page, tmp_path) -> None:
    from nbconvert import HTMLExporter
    from PIL import Image

    notebook = open_notebook(CELLS)
    page.locator(".cctviz circle.cct-node").first.wait_for()
    # where the view runs, its picture's output is there but hidden, with its row
    row = page.locator(PICTURE_ROW)
    row.wait_for(state="attached")
    # as a PNG and text, no HTML: JupyterLab loads no MathJax for it
    assert page.locator(".jp-OutputArea .jp-RenderedHTMLCommon").count() == 0
    assert row.evaluate("(el) => getComputedStyle(el).display") == "none"
    stamp = wait_snapshot(page)
    src = wait_picture(page)
    assert row.evaluate("(el) => getComputedStyle(el).display") == "none"  # the PNG too
    view = page.locator(".cctviz").element_handle()
    nb = save(notebook)
    [output] = pictures(nb)
    data = output["data"]["image/png"]
    assert src == f"data:image/png;base64,{data}"
    size = output["metadata"]["image/png"]
    stage = page.locator(".cctviz .cct-stage").bounding_box()
    assert [size["width"], size["height"]] == [round(stage["width"]), round(stage["height"])]
    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        assert image.size == (size["width"], size["height"])  # device pixel ratio 1 here
        colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) > 50  # a drawing, not a blank canvas
    # saving changes no output of the view: the view on screen is the same one
    assert view.evaluate("(el) => el.isConnected") and page.locator(".cctviz").count() == 1

    # the picture follows the view: collapse from Python, save again, another picture
    notebook.execute("w.collapse(w.table.roots[0] + 2)")
    wait_snapshot(page, after=stamp)
    wait_picture(page, before=src)
    [again] = pictures(save(notebook))
    assert again["data"]["image/png"] != data

    # nbconvert, as JupyterLab saves by default (no widget state): opened offline, the picture
    nb = json.loads((notebook.lab.root / notebook.name).read_text())
    html, _ = HTMLExporter().from_notebook_node(_node(nb))
    shown = shown_offline(page, html, tmp_path)
    assert shown["visible"] and shown["naturalWidth"] == size["width"]
    assert [shown["width"], shown["height"]] == [size["width"], size["height"]]


def test_a_view_on_canvas_pictures_its_own_drawing(open_notebook, page) -> None:
    """Thousands of nodes drawn whole go on canvas; their picture is made from that drawing
    (not a figure laid out again): same size, a white ground, each node where it is on screen,
    in its colour, and the selection ringed."""
    from PIL import Image

    open_notebook(
        [
            "import cctviz\ngf = cctviz.examples.synthetic(6000)\n"
            "w = cctviz.CCT(gf, budget=None, fold_to_fit=False)\nw"
        ]
    )
    page.locator(".cctviz canvas.cct-canvas").wait_for()
    assert page.evaluate("() => document.querySelector('.cctviz').cctRenderer.backend") == "canvas"
    wait_snapshot(page)
    src = wait_picture(page)
    # node centres on screen, and what the canvas shows there (opaque: a mark, not the ground)
    probe = page.evaluate(
        """() => {
          const el = document.querySelector('.cctviz');
          const canvas = el.querySelector('canvas.cct-canvas');
          const context = canvas.getContext('2d');
          const centres = [];
          for (let id = 0; id < 6000 && centres.length < 20; id += 7) {
            const p = el.cctRenderer.screenPosition(id);
            const [x, y] = [Math.round(p?.x ?? -1), Math.round(p?.y ?? -1)];
            if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height) continue;
            const [r, g, b, a] = context.getImageData(x, y, 1, 1).data;
            if (a === 255) centres.push({ x, y, rgb: [r, g, b] });
          }
          return { centres, width: canvas.width, height: canvas.height };
        }"""
    )
    assert len(probe["centres"]) >= 5
    with Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))) as image:
        rgb = image.convert("RGB")
        assert rgb.size == (probe["width"], probe["height"])  # device pixel ratio 1 here
        # (the kernel stores the picture in 256 colours: a shade or two off)
        assert min(rgb.getpixel((2, probe["height"] - 2))) >= 250
        shown = [(rgb.getpixel((c["x"], c["y"])), c["rgb"]) for c in probe["centres"]]
        colours = rgb.getcolors(maxcolors=1 << 16)
    close = [all(abs(a - b) <= 12 for a, b in zip(p, q, strict=True)) for p, q in shown]
    assert sum(close) >= 0.9 * len(close), shown  # labels may cover a centre or two
    assert colours is not None and len(colours) > 50


def test_a_view_drawn_as_svg_pictures_its_own_drawing(open_notebook, page) -> None:
    """A view drawn as SVG is pictured from its drawing, not laid out again as a figure (no
    renderer off screen, whose layout and labels were a 70–140 ms task at 1,000 nodes): the
    picture is the view as shown, zoomed in as it is, each node where it is on screen and in its
    colour, on a white ground."""
    from PIL import Image

    open_notebook(CELLS)
    page.locator(".cctviz circle.cct-node").first.wait_for()
    assert page.evaluate("() => document.querySelector('.cctviz').cctRenderer.backend") == "svg"
    # zoomed in on the middle: a figure of the fitted tree would not match the view
    page.evaluate(
        """() => {
          const r = document.querySelector('.cctviz').cctRenderer;
          const t = r.transform;
          r.setTransform({ k: t.k * 1.6, x: t.x - 80, y: t.y - 60 });
          window.__figureHosts = 0;  // a figure lays itself out in a div far off screen
          new MutationObserver((records) => {
            for (const r of records)
              for (const n of r.addedNodes)
                if (n.style?.left === '-100000px') window.__figureHosts++;
          }).observe(document.body, { childList: true });
        }"""
    )
    stamp = wait_snapshot(page)
    src = wait_picture(page)
    if page.evaluate("() => document.querySelector('.cctviz').dataset.cctSnapshot") != stamp:
        src = wait_picture(page, before=src)  # the zoom's own picture came after the first one
    assert page.evaluate("() => window.__figureHosts") == 0
    probe = page.evaluate(
        """() => {
          const stage = document.querySelector('.cctviz .cct-stage').getBoundingClientRect();
          const centres = [];
          for (const c of document.querySelectorAll('.cctviz circle.cct-node')) {
            const b = c.getBoundingClientRect();
            if (b.width < 6) continue;  // a centre pixel of a small mark is mostly its outline
            const x = Math.round(b.x + b.width / 2 - stage.x);
            const y = Math.round(b.y + b.height / 2 - stage.y);
            if (x < 2 || y < 2 || x >= stage.width - 2 || y >= stage.height - 2) continue;
            const rgb = getComputedStyle(c).fill.match(/\\d+/g).slice(0, 3).map(Number);
            centres.push({ x, y, rgb });
          }
          return { centres, width: Math.round(stage.width), height: Math.round(stage.height) };
        }"""
    )
    assert len(probe["centres"]) >= 5, probe
    with Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))) as image:
        rgb = image.convert("RGB")
        assert rgb.size == (probe["width"], probe["height"])  # device pixel ratio 1 here
        assert min(rgb.getpixel((2, probe["height"] - 2))) >= 250
        shown = [(rgb.getpixel((c["x"], c["y"])), c["rgb"]) for c in probe["centres"]]
    close = [all(abs(a - b) <= 12 for a, b in zip(p, q, strict=True)) for p, q in shown]
    assert sum(close) >= 0.9 * len(close), shown  # labels may cover a centre or two


def _node(nb: dict[str, Any]) -> Any:
    import nbformat

    return nbformat.reads(json.dumps(nb), as_version=4)


def test_executed_without_a_front_end_carries_pictures(page, tmp_path, monkeypatch) -> None:
    """nbconvert --execute / papermill: nbclient runs the kernel, nothing draws the view, and
    the notebook keeps the widget state (so nbconvert's HTML prefers the live widget, whose
    scripts come from a CDN). The kernel draws the picture, and draws it again when a later
    cell changes the view; offline, the HTML shows it."""
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    for name in ("JPY_SESSION_NAME", "CCTVIZ_STATIC_PICTURE"):
        monkeypatch.delenv(name, raising=False)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(CELLS[0]), nbformat.v4.new_code_cell(COLLAPSE)]
    client = NotebookClient(nb, timeout=120, kernel_name="python3", store_widget_state=True)
    with client.setup_kernel():
        client.execute_cell(nb.cells[0], 0)
        [first] = pictures(nb)
        before = first["data"]["image/png"]
        client.execute_cell(nb.cells[1], 1)
        client.set_widgets_metadata()
    [after] = pictures(nb)
    assert after["data"]["image/png"] != before  # drawn again after the collapse
    assert WIDGET_STATE in nb.metadata["widgets"]
    html, _ = HTMLExporter().from_notebook_node(nb)
    shown = shown_offline(page, html, tmp_path)
    assert shown["visible"] and shown["naturalWidth"] == round(900 * 1.5)
    assert shown["width"] == 900


def test_to_svg_in_the_kernel_draws_the_view_on_screen(open_notebook, page) -> None:
    """In a running JupyterLab: the figure has the view's size and as many marks as the page."""
    notebook = open_notebook(CELLS)
    view = page.locator(".cctviz")
    view.locator("circle.cct-node").first.wait_for()
    notebook.execute("w.collapse(w.table.roots[0] + 2)")
    page.wait_for_function("() => document.querySelectorAll('.cctviz .cct-collapsed').length === 1")
    stage = view.locator(".cct-stage").bounding_box()
    size = [round(stage["width"]), round(stage["height"])]
    notebook.wait_python("list(w._stage_size)", size)
    figure = notebook.python_json(
        "(lambda r: [r.get('width'), r.get('height'), len([e for e in r.iter() if 'cct-node'"
        " in e.get('class', '').split()])])(__import__('xml.etree.ElementTree').etree"
        ".ElementTree.fromstring(w.to_svg()))"
    )
    drawn = view.locator(".cct-node").count()
    assert figure == [str(size[0]), str(size[1]), drawn]


def test_toolbar_saves_the_view_as_svg_and_png(open_notebook, page, tmp_path) -> None:
    """The toolbar's SVG and PNG buttons download the figure the browser draws (no Python)."""
    import xml.etree.ElementTree as ET

    from PIL import Image

    notebook = open_notebook(CELLS)
    view = page.locator(".cctviz")
    view.locator("circle.cct-node").first.wait_for()
    notebook.execute("w.collapse(w.table.roots[0] + 2)")
    page.wait_for_function("() => document.querySelectorAll('.cctviz .cct-collapsed').length")
    more_controls(view)
    with page.expect_download() as svg_download:
        view.get_by_role("button", name="Save the view as an SVG file").click()
    assert svg_download.value.suggested_filename == "cctviz.svg"
    path = tmp_path / "view.svg"
    svg_download.value.save_as(path)
    root = ET.parse(path).getroot()
    marks = [e for e in root.iter() if "cct-node" in e.get("class", "").split()]
    assert len(marks) == view.locator(".cct-node").count()
    meta = root.find("{http://www.w3.org/2000/svg}metadata")
    record = json.loads(meta.find("{https://github.com/cctviz/cctviz#provenance}provenance").text)
    assert record["state"]["collapsed"] == notebook.python_json("list(w.collapsed)")
    more_controls(view)
    with page.expect_download() as png_download:
        view.get_by_role("button", name="Save the view as a PNG file").click()
    png = tmp_path / "view.png"
    png_download.value.save_as(png)
    stage = view.locator(".cct-stage").bounding_box()
    with Image.open(png) as image:
        assert image.size == (round(stage["width"]) * 2, round(stage["height"]) * 2)


def test_zoom_on_screen_is_what_to_svg_draws(open_notebook, page) -> None:
    notebook = open_notebook(CELLS)
    view = page.locator(".cctviz")
    view.locator("circle.cct-node").first.wait_for()
    box = view.locator(".cct-stage").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -500)
    page.wait_for_timeout(400)
    zoom = page.evaluate("() => document.querySelector('.cctviz').cctRenderer.transform")
    assert zoom["k"] > 1
    notebook.wait_python("w._view_transform is not None", True)
    assert notebook.python_json("list(w._view_transform)") == pytest.approx(
        [zoom["x"], zoom["y"], zoom["k"]]
    )
    viewport = notebook.python_json(
        "next(e.get('transform') for e in __import__('xml.etree.ElementTree').etree.ElementTree"
        ".fromstring(w.to_svg()).iter() if e.get('class') == 'cct-viewport')"
    )
    x, y, k = (float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", viewport))
    assert [x, y, k] == pytest.approx([zoom["x"], zoom["y"], zoom["k"]], rel=1e-6)
    # Fit: the view is fitted again, and so are figures
    view.get_by_role("button", name="Fit the whole tree in view").click()
    notebook.wait_python("w._view_transform is None", True)


def test_reopened_after_a_restart_the_picture_shows_without_an_error(open_notebook, page) -> None:
    """Saved without widget state, a notebook reopened after its kernel restarted has no model
    for its view: JupyterLab shows the view's text (what it is) and no error, and the picture
    below it stands in for the view."""
    notebook = open_notebook(CELLS)
    page.locator(".cctviz circle.cct-node").first.wait_for()
    wait_snapshot(page)
    src = wait_picture(page)
    nb = save(notebook)
    nb["metadata"].pop("widgets", None)  # as saved without widget state
    (notebook.lab.root / notebook.name).write_text(json.dumps(nb))
    page.evaluate(
        "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart()"
    )
    notebook.wait_idle()
    page.goto("about:blank")
    NotebookPage(page, notebook.lab, notebook.name).open()
    picture = page.locator(PICTURE)
    picture.wait_for()
    assert picture.is_visible() and picture.get_attribute("src") == src
    assert page.locator(".cctviz").count() == 0  # no view: the picture stands in for it
    text = page.locator(".jp-OutputArea").first.inner_text()
    assert "Error displaying widget" not in text and "CCT(GraphFrame: 34 nodes" in text
