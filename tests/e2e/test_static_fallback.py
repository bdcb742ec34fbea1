"""End to end: a saved notebook carries a PNG of each view, which nbconvert HTML shows."""

from __future__ import annotations

import base64
import io
import json
import re
from typing import Any

import pytest

from .lab import NotebookPage

pytestmark = pytest.mark.e2e

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
CELLS = ["import cctviz\ngf = cctviz.examples.load('hpctoolkit-cpi')\nw = cctviz.CCT(gf)\nw"]


def save(notebook: NotebookPage) -> dict[str, Any]:
    """Save through JupyterLab's own command; return the notebook file as written."""
    notebook.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    return json.loads((notebook.lab.root / notebook.name).read_text())


def widget_outputs(nb: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        output
        for cell in nb["cells"]
        for output in cell.get("outputs", [])
        if WIDGET_MIME in output.get("data", {})
    ]


def wait_snapshot(page: Any, after: str = "0") -> str:
    """Wait for the view's next static image; return its stamp."""
    handle = page.wait_for_function(
        """(after) => {
          const stamp = document.querySelector('.cctviz')?.dataset.cctSnapshot;
          return stamp && Number(stamp) > Number(after) ? stamp : null;
        }""",
        arg=after,
        timeout=20_000,
    )
    return str(handle.json_value())


def test_saved_notebook_carries_the_view_as_png(open_notebook, page, tmp_path) -> None:
    from nbconvert import HTMLExporter
    from PIL import Image

    notebook = open_notebook(CELLS)
    page.locator(".cctviz circle.cct-node").first.wait_for()
    stamp = wait_snapshot(page)
    # zoom in with the wheel: the view JupyterLab draws again after the save keeps it
    box = page.locator(".cctviz .cct-stage").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    page.wait_for_timeout(300)
    zoom = page.evaluate("() => document.querySelector('.cctviz').cctRenderer.transform")
    old = page.locator(".cctviz").element_handle()
    nb = save(notebook)
    page.wait_for_function("(old) => !old.isConnected", arg=old)
    [output] = widget_outputs(nb)
    data = output["data"]["image/png"]
    size = output["metadata"]["image/png"]
    stage = page.locator(".cctviz .cct-stage").bounding_box()
    assert [size["width"], size["height"]] == [round(stage["width"]), round(stage["height"])]
    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        assert image.size == (size["width"], size["height"])  # device pixel ratio 1 here
        colours = image.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) > 50  # a drawing, not a blank canvas

    # JupyterLab drew the output again with its new data: one live view remains, zoomed as before
    assert page.locator(".cctviz").count() == 1
    page.locator(".cctviz circle.cct-node").first.wait_for()
    again_zoom = page.evaluate("() => document.querySelector('.cctviz').cctRenderer.transform")
    assert zoom["k"] > 1.01 and again_zoom == pytest.approx(zoom)
    # a node in the middle of the zoomed view (semantic zoom spreads the others out of it)
    node_id = page.evaluate(
        """() => {
          const el = document.querySelector('.cctviz');
          const box = el.querySelector('.cct-stage').getBoundingClientRect();
          const inView = [...el.querySelectorAll('circle.cct-node[data-id]')].filter((c) => {
            const r = c.getBoundingClientRect();
            const x = (r.left + r.right) / 2;
            const y = (r.top + r.bottom) / 2;
            return r.top > box.top + 20 && r.bottom < box.bottom - 20
              && r.left > box.left + 20 && r.right < box.right - 20
              && document.elementFromPoint(x, y) === c;  // not under a legend or a label
          });
          return Number(inView[0].getAttribute('data-id'));
        }"""
    )
    page.locator(f'.cctviz circle.cct-node[data-id="{node_id}"]').click()
    notebook.wait_python("list(w.selection)", [node_id])

    # the image follows the view: collapse from Python, save again, another picture
    notebook.execute("w.collapse(w.table.roots[0] + 2)")
    wait_snapshot(page, after=stamp)
    [again] = widget_outputs(save(notebook))
    assert again["data"]["image/png"] != data

    # nbconvert, as JupyterLab saves by default (widget state not stored): the image shows
    nb = json.loads((notebook.lab.root / notebook.name).read_text())
    nb["metadata"].pop("widgets", None)
    html, _ = HTMLExporter().from_notebook_node(_node(nb))
    assert f'src="data:image/png;base64,{again["data"]["image/png"][:64]}' in html


def _node(nb: dict[str, Any]) -> Any:
    import nbformat

    return nbformat.reads(json.dumps(nb), as_version=4)


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
