"""Figures: SVG, PDF and PNG drawn by the widget's renderer in headless Chromium, no JupyterLab."""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("playwright", reason="figures need Playwright (pip install 'cctviz[export]')")

import cctviz
from cctviz.figure.browser import BrowserUnavailableError
from cctviz.view import state as view

from .profiles import REPO

SVG = "{http://www.w3.org/2000/svg}"
PROVENANCE = "{https://github.com/cctviz/cctviz#provenance}provenance"
REFERENCE = Path(__file__).parent / "data" / "figure-reference.png"


@pytest.fixture(scope="module")
def gf() -> Any:
    return cctviz.examples.load("hpctoolkit-cpi")


def node_marks(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if "cct-node" in el.get("class", "").split()]


def drawn_count(w: cctviz.CCT) -> int:
    """What the view shows, by cctviz's Python twin of the renderer's view tree."""
    ids = view.visible_nodes(
        w.table,
        collapsed=w.collapsed,
        prune_range=w.prune_range,
        color_values=w.table.metrics[w.color_by].values,
        focused=w.focused,
        visible_roots=w.visible_roots,
    )
    return len(ids)


def same_ids(svg: str) -> str:
    """An SVG with its page-unique id prefix (``cct-<random>-``) made the same everywhere."""
    return re.sub(r"cct-[a-z0-9]+-(gradient|missing)-\d+", r"cct-ID-\1", svg)


def without_metadata(svg: str) -> str:
    return re.sub(r"<metadata>.*</metadata>", "", svg, flags=re.S)


def test_svg_parses_and_holds_one_mark_per_drawn_node(gf: Any) -> None:
    w = cctviz.CCT(gf)
    w.collapse(w.table.roots[0] + 2)
    root = ET.fromstring(w.to_svg())
    assert root.tag == f"{SVG}svg"
    marks = node_marks(root)
    assert len(marks) == drawn_count(w) < w.table.size
    assert int(root.get("data-node-count", -1)) == len(marks)
    assert sorted(int(m.get("data-id", -1)) for m in marks) == sorted(
        view.visible_nodes(
            w.table,
            collapsed=w.collapsed,
            prune_range=None,
            color_values=w.table.metrics[w.color_by].values,
            focused=None,
            visible_roots=None,
        )
    )
    # standalone: styles are attributes, no style sheet, script or external reference
    text = ET.tostring(root, encoding="unicode")
    assert "<style" not in text and "<script" not in text and "href=" not in text
    assert "sans-serif" in root.get("font-family", "")


def test_focus_and_selection_are_drawn(gf: Any) -> None:
    w = cctviz.CCT(gf)
    target = int(np.argmax(w.table.metrics[w.color_by].values))
    w.focus(int(w.table.parent[target]))
    w.select([target])
    marks = node_marks(ET.fromstring(w.to_svg()))
    assert len(marks) == drawn_count(w) < w.table.size
    selected = [m for m in marks if "cct-selected" in m.get("class", "")]
    assert [int(m.get("data-id", -1)) for m in selected] == [target]


def test_names_with_markup_survive_escaped() -> None:
    from hatchet import GraphFrame

    names = ['<script>alert("x")</script>', "a & b", 'it\'s "quoted"']
    leaves = [
        {"frame": {"name": n, "type": "function"}, "metrics": {"time": 1.0 + i}}
        for i, n in enumerate(names)
    ]
    gf = GraphFrame.from_literal(
        [
            {
                "frame": {"name": "main", "type": "function"},
                "metrics": {"time": 1.0},
                "children": leaves,
            }
        ]
    )
    w = cctviz.CCT(gf, source="<run & 1>")
    text = w.to_svg(title='fig "1" <b>')
    assert "<script>" not in text
    root = ET.fromstring(text)  # parses: every name is escaped
    labels = {el.text for el in root.iter() if "cct-label" in el.get("class", "")}
    # each label ends with its share of the total (" 29%"), after the escaped name
    assert set(names) <= {re.sub(r" [\d.]+%$", "", text or "") for text in labels}
    assert root.find(f"{SVG}title").text == 'fig "1" <b>'
    record = json.loads(root.find(f"{SVG}metadata/{PROVENANCE}").text)
    assert record["source"] == "<run & 1>"


def test_provenance_records_source_metrics_state_version_date(gf: Any) -> None:
    w = cctviz.CCT(gf, source="hpctoolkit-cpi", units={"time (inc)": "µs"})
    w.collapse(w.table.roots[0] + 2)
    root = ET.fromstring(w.to_svg())
    record = json.loads(root.find(f"{SVG}metadata/{PROVENANCE}").text)
    assert record["generator"] == f"cctviz {cctviz.__version__}"
    assert record["source"] == "hpctoolkit-cpi"
    assert record["metrics"] == {"color": w.color_by, "size": w.size_by}
    assert record["view_state"] == json.loads(json.dumps(w.view_state))
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$", record["created"])
    assert record["nodes"] == w.table.size
    titles = [el.text for el in root.iter() if "cct-legend-title" in el.get("class", "")]
    # "time (inc)" says it is inclusive: said once; the title names the base unit of the ticks
    # ("62.5 ms"), of which µs is one (docs/units.md)
    assert f"size: {w.size_by} [s]" in titles


def test_pdf_is_vector_with_metadata(gf: Any, tmp_path: Path) -> None:
    from pypdf import PdfReader

    w = cctviz.CCT(gf, source="hpctoolkit-cpi")
    out = w.save(tmp_path / "cct.pdf", style="paper", width="3.5in", height="2.5in")
    reader = PdfReader(out)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert [round(float(v)) for v in page.mediabox[2:]] == [252, 180]  # 3.5 × 2.5 in, in points
    content = page.get_contents().get_data().decode("latin-1")
    # vector: curves (nodes, links) and text; not one embedded raster image
    assert len(re.findall(r"\sc\n", content)) > 20
    assert "Tj" in content or "TJ" in content
    xobjects = page["/Resources"].get("/XObject", {})
    assert not [x for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image"]
    meta = reader.metadata
    assert meta["/Creator"] == f"cctviz {cctviz.__version__}"
    assert "hpctoolkit-cpi" in meta["/Subject"]
    assert json.loads(meta["/CctvizProvenance"])["view_state"]["color_by"] == w.color_by


@pytest.mark.parametrize(
    ("size", "dpi", "pixels"),
    [
        (("4in", "3in"), 150, (600, 450)),
        ((500, 300), 96, (500, 300)),
        (("8cm", "6cm"), 300, (945, 709)),
    ],
)
def test_png_has_the_requested_pixel_size(
    gf: Any, tmp_path: Path, size: tuple[Any, Any], dpi: int, pixels: tuple[int, int]
) -> None:
    from PIL import Image

    out = cctviz.export(gf, tmp_path / "cct.png", width=size[0], height=size[1], dpi=dpi)
    with Image.open(out) as image:
        assert image.size == pixels
        assert json.loads(image.text["cctviz:provenance"])["generator"].startswith("cctviz ")
        assert image.info["dpi"][0] == pytest.approx(dpi, abs=0.5)


def test_headless_export_is_the_widget_picture(gf: Any, tmp_path: Path) -> None:
    w = cctviz.CCT(gf, palette="magma")
    w.collapse(w.table.roots[0] + 2)
    w.select([3])
    out = cctviz.export(
        gf, tmp_path / "cct.svg", state=w.view_state, width=700, height=420, title="t"
    )
    exported = out.read_text(encoding="utf-8")
    assert exported.startswith('<?xml version="1.0" encoding="UTF-8"?>')
    # the same picture; only the ids differ, unique per figure so that figures share a page
    assert same_ids(without_metadata(exported.split("\n", 1)[1].strip())) == same_ids(
        without_metadata(w.to_svg(width=700, height=420, title="t"))
    )


def test_export_takes_view_options(gf: Any, tmp_path: Path) -> None:
    out = cctviz.export(gf, tmp_path / "cct.svg", color_by="time", palette="greys", legend="shared")
    root = ET.parse(out).getroot()
    record = json.loads(root.find(f"{SVG}metadata/{PROVENANCE}").text)
    assert record["metrics"]["color"] == "time"
    with pytest.raises(TypeError, match="did you mean 'palette'"):
        cctviz.export(gf, tmp_path / "x.svg", pallete="greys")


def test_matches_the_reference_picture(gf: Any, tmp_path: Path) -> None:
    """A fixed view drawn now against a stored picture (CCTVIZ_UPDATE_REFERENCE=1 rewrites it)."""
    from PIL import Image, ImageChops

    w = cctviz.CCT(gf, color_by="time", size_by="time (inc)")
    w.collapse(w.table.roots[0] + 2)
    out = w.save(tmp_path / "ref.png", style="paper", width="4in", height="3in", dpi=100)
    if os.environ.get("CCTVIZ_UPDATE_REFERENCE") == "1":
        REFERENCE.parent.mkdir(exist_ok=True)
        REFERENCE.write_bytes(out.read_bytes())
    with Image.open(out) as now, Image.open(REFERENCE) as ref:
        assert now.size == ref.size
        diff = np.asarray(ImageChops.difference(now.convert("RGB"), ref.convert("RGB")))
    changed = (diff.max(axis=2) > 48).mean()
    assert changed < 0.005, f"{changed:.2%} of the pixels differ from {REFERENCE.name}"
    assert diff.mean() < 2.0


def test_reference_check_catches_a_different_view(gf: Any, tmp_path: Path) -> None:
    from PIL import Image, ImageChops

    w = cctviz.CCT(gf, color_by="time", size_by="time (inc)")  # not collapsed: another picture
    out = w.save(tmp_path / "other.png", style="paper", width="4in", height="3in", dpi=100)
    with Image.open(out) as now, Image.open(REFERENCE) as ref:
        diff = np.asarray(ImageChops.difference(now.convert("RGB"), ref.convert("RGB")))
    assert (diff.max(axis=2) > 48).mean() > 0.005


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("fig.jpg", r"'\.jpg'\); accepted extensions: \.svg, \.pdf, \.png"),
        ("fig", r"\(no extension\); accepted extensions"),
    ],
)
def test_unknown_extension_is_a_clear_error(
    gf: Any, tmp_path: Path, name: str, message: str
) -> None:
    w = cctviz.CCT(gf)
    with pytest.raises(ValueError, match=message):
        w.save(tmp_path / name)
    with pytest.raises(ValueError, match=message):
        cctviz.export(gf, tmp_path / name)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"width": "3.5 inches"}, ValueError, r"figure width must be .* \(px, in, cm, mm, pt\)"),
        ({"height": 0}, ValueError, "figure height 0 is 0 px; give 1 px to 20000 px"),
        ({"style": "poster"}, ValueError, "unknown figure style 'poster'; accepted: screen, paper"),
        ({"dpi": 5000}, ValueError, "dpi must be a number from 10 to 1200"),
        ({"font_size": "8pt"}, ValueError, "font_size is in points"),
        ({"colour": "red"}, TypeError, "unknown figure option 'colour'; accepted: width"),
    ],
)
def test_bad_figure_options_are_named(
    gf: Any, tmp_path: Path, options: dict[str, Any], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        cctviz.CCT(gf).save(tmp_path / "f.png", **options)


def test_too_big_png_is_a_clear_error(gf: Any, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"a PNG of 24000 × 12000 pixels is more than Chromium"):
        cctviz.CCT(gf).save(tmp_path / "f.png", width="20in", height="10in", dpi=1200)


def test_missing_folder_is_named(gf: Any, tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"folder .*nowhere.* is missing"):
        cctviz.CCT(gf).save(tmp_path / "nowhere" / "f.svg")


def test_missing_chromium_is_a_clear_error(gf: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from cctviz.figure import browser

    monkeypatch.setenv("CCTVIZ_CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(browser, "_shared", browser.Browser())
    with pytest.raises(BrowserUnavailableError, match="CCTVIZ_CHROMIUM='/nonexistent/chromium'"):
        cctviz.CCT(gf).to_svg()


def test_missing_playwright_is_a_clear_error(gf: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from cctviz.figure import browser

    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)
    monkeypatch.setattr(browser, "_shared", browser.Browser())
    with pytest.raises(ImportError, match=r"pip install 'cctviz\[export\]'"):
        cctviz.CCT(gf).to_svg()


def test_ten_thousand_nodes_stay_vector(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    from synthetic import graphframe

    # every node: no level of detail, no folding to fit
    w = cctviz.CCT(graphframe(10_000), budget=None, fold_to_fit=False)
    svg = w.to_svg()
    assert len(node_marks(ET.fromstring(svg))) == 10_000
    from pypdf import PdfReader

    page = PdfReader(w.save(tmp_path / "big.pdf")).pages[0]
    assert not [
        x
        for x in page["/Resources"].get("/XObject", {}).values()
        if x.get_object().get("/Subtype") == "/Image"
    ]


def test_labels_are_never_clipped(tmp_path: Path) -> None:
    """Long names at the right edge of a narrow figure: every label lies inside the picture."""
    from hatchet import GraphFrame

    from cctviz.figure.browser import shared

    long = "very_long_function_name_that_does_not_fit_{}"
    leaves = [
        {"frame": {"name": long.format(i), "type": "function"}, "metrics": {"time": 1.0 + i}}
        for i in range(4)
    ]
    root = {"frame": {"name": "main", "type": "function"}, "metrics": {"time": 1.0}}
    gf = GraphFrame.from_literal([{**root, "children": leaves}])
    svg = cctviz.CCT(gf).to_svg(style="paper", width="2.5in", height="2in")
    labels = [el.text or "" for el in ET.fromstring(svg).iter() if el.get("class") == "cct-label"]
    assert sum(t.startswith("very_long") for t in labels) >= 2  # cut at their end (…), not left out

    def boxes(browser: Any) -> dict[str, Any]:
        page = browser.new_page()
        try:
            page.set_content(f"<!doctype html><body style='margin:0'>{svg}</body>")
            return page.evaluate(
                """() => {
                  const frame = document.querySelector('svg').getBoundingClientRect();
                  const labels = [...document.querySelectorAll('.cct-label')];
                  const out = labels.filter((t) => {
                    const b = t.getBoundingClientRect();
                    return b.left < frame.left - 0.5 || b.right > frame.right + 0.5
                      || b.top < frame.top - 0.5 || b.bottom > frame.bottom + 0.5;
                  });
                  return { labels: labels.length, outside: out.map((t) => t.textContent) };
                }"""
            )
        finally:
            page.close()

    result = shared().run(boxes)
    assert result["labels"] >= 2
    assert result["outside"] == []


def test_zoomed_view_is_exported_as_on_screen(gf: Any) -> None:
    w = cctviz.CCT(gf)
    # what the front end reports after the user zoomed a 800 × 500 view
    w._stage_size = (800, 500)
    w._view_transform = (-120.0, 35.0, 2.5)
    root = ET.fromstring(w.to_svg())
    viewport = next(e for e in root.iter() if e.get("class") == "cct-viewport")
    assert viewport.get("transform") == "translate(-120,35) scale(2.5)"
    assert root.get("viewBox") == "0 0 800 500"
    record = json.loads(root.find(f"{SVG}metadata/{PROVENANCE}").text)
    assert record["viewport"] == {"x": -120.0, "y": 35.0, "k": 2.5}
    # another size cannot show the same window: the tree is fitted to it
    other = ET.fromstring(w.to_svg(width=600, height=400))
    moved = next(e for e in other.iter() if e.get("class") == "cct-viewport")
    assert moved.get("transform") != "translate(-120,35) scale(2.5)"
    assert json.loads(other.find(f"{SVG}metadata/{PROVENANCE}").text)["viewport"] == "fit"


# -- paper figures a reviewer accepts ---------------------------------------------------------

BOXES = """() => {
  const svg = document.querySelector('svg');
  const legends = [...svg.querySelectorAll('.cct-legend')];
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return { what: (e.textContent || e.getAttribute('class') || e.tagName).trim().slice(0, 60),
             l: r.left, r: r.right, t: r.top, b: r.bottom };
  };
  const f = svg.getBoundingClientRect();
  return {
    frame: { l: f.left, r: f.right, t: f.top, b: f.bottom },
    parts: [...svg.querySelectorAll('.cct-legends :is(text, rect, circle, path)')].map(box),
    labels: [...svg.querySelectorAll('.cct-labels text')]
      .filter((e) => e.textContent.trim()).map(box),
    marks: [...svg.querySelectorAll('.cct-nodes .cct-node')].map(box),
    titles: legends.map((g) =>
      [...g.querySelectorAll('.cct-legend-title')].map((t) => t.textContent)),
    keys: [...svg.querySelectorAll('.cct-legend-key')].map((t) => t.textContent),
    glyphs: {
      collapsed: svg.querySelectorAll('.cct-nodes .cct-collapsed').length,
      aggregate: svg.querySelectorAll('.cct-nodes [data-aggregate]').length,
      missing: svg.querySelectorAll('.cct-nodes .cct-missing').length,
    },
  };
}"""


def measured(svg: str) -> dict[str, Any]:
    """Boxes of the figure's parts as headless Chromium draws the SVG (CSS pixels)."""
    from cctviz.figure.browser import shared

    def job(browser: Any) -> dict[str, Any]:
        page = browser.new_page(viewport={"width": 800, "height": 600})
        try:
            page.set_content(f"<!doctype html><body style='margin:0'>{svg}</body>")
            result: dict[str, Any] = page.evaluate(BOXES)
            return result
        finally:
            page.close()

    return shared().run(job)


def overlaps(a: dict[str, Any], b: dict[str, Any], tolerance: float = 0.5) -> bool:
    width = min(a["r"], b["r"]) - max(a["l"], b["l"])
    return width > tolerance and min(a["b"], b["b"]) - max(a["t"], b["t"]) > tolerance


def collisions(m: dict[str, Any]) -> list[str]:
    """Every pair of parts that overlap, and every part the frame cuts."""
    parts, labels, marks, frame = m["parts"], m["labels"], m["marks"], m["frame"]
    found = [
        f"{kind}: {a['what']!r} / {b['what']!r}"
        for kind, pairs in (
            ("legend/legend", [(a, b) for i, a in enumerate(parts) for b in parts[i + 1 :]]),
            ("legend/label", [(a, b) for a in parts for b in labels]),
            ("legend/mark", [(a, b) for a in parts for b in marks]),
            ("label/label", [(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :]]),
            ("label/mark", [(a, b) for a in labels for b in marks]),
        )
        for a, b in pairs
        if overlaps(a, b)
    ]
    edge = 0.5
    found += [
        f"cut by the edge: {a['what']!r}"
        for a in parts + labels
        if a["l"] < frame["l"] - edge
        or a["r"] > frame["r"] + edge
        or a["t"] < frame["t"] - edge
        or a["b"] > frame["b"] + edge
    ]
    return found


PAPER = {"width": "3.5in", "height": "2.6in", "style": "paper"}


@pytest.mark.parametrize("name", ["caliper-sw4-cuda", "hpctoolkit-cpi"])
def test_column_wide_paper_figures_of_real_profiles_are_clear(name: str, tmp_path: Path) -> None:
    """A one-column paper figure of a real profile, measured as Chromium draws it: nothing
    overlaps or is cut, legend titles are whole with their units, glyphs are explained, and
    the tree takes the room the legends leave."""
    data = cctviz.examples.load(name)
    w = cctviz.CCT(data)
    units = {w.size_by: "s"}
    out = cctviz.export(data, tmp_path / "f.svg", units=units, **PAPER)
    m = measured(out.read_text(encoding="utf-8").split("\n", 1)[1])
    assert m["labels"] and m["marks"] and m["parts"]
    assert collisions(m) == []
    # each title whole (on as many lines as it needs), its unit once, never "(inc) (inclusive)"
    titles = ["".join(lines).replace(" ", "") for lines in m["titles"] if lines]
    assert len(titles) == 2 and not any("…" in t for t in titles)
    assert f"colour:{w.color_by}".replace(" ", "") in titles[0]
    assert titles[1].startswith(f"size:{w.size_by}[s]".replace(" ", ""))
    for kind in ("inclusive", "exclusive"):  # the kind said once
        assert not (f"({kind})" in titles[1] and f"({kind[:3]}" in w.size_by)
    # glyphs are explained
    if m["glyphs"]["collapsed"]:
        assert any("collapsed subtree" in k for k in m["keys"])
    # no empty band: the tree spans the height below the legends, but for a label's room
    tree = m["labels"] + m["marks"]
    legends_end = max(p["b"] for p in m["parts"])
    line = sorted(x["b"] - x["t"] for x in m["labels"])[len(m["labels"]) // 2]
    top = min(x["t"] for x in tree) - legends_end
    bottom = m["frame"]["b"] - max(x["b"] for x in tree)
    assert top < 2.5 * line and bottom < 2.5 * line, (top, bottom, line)
    # the widget's own save gives the same picture
    saved = w.save(tmp_path / "w.svg", units=units, **PAPER).read_text(encoding="utf-8")
    assert same_ids(without_metadata(saved)) == same_ids(without_metadata(out.read_text("utf-8")))


def test_glyphs_of_a_figure_are_explained_in_its_key(tmp_path: Path) -> None:
    data = cctviz.examples.load("caliper-sw4-cuda")
    w = cctviz.CCT(data)
    values = w.table.metrics[w.color_by].values
    w.prune_range = (float(np.nanpercentile(values, 60)), float(np.nanmax(values)))
    m = measured(w.to_svg(**PAPER))
    assert m["glyphs"]["collapsed"] and m["glyphs"]["aggregate"]
    assert any("collapsed subtree (+N hidden)" in k for k in m["keys"])
    assert any("hidden nodes" in k for k in m["keys"])
    assert collisions(m) == []
    # a figure without these glyphs has no key of them; missing values are keyed where drawn
    w.prune_range = None
    w.fold_to_fit = False
    plain = measured(w.to_svg(**PAPER))
    assert not any("collapsed" in k or "hidden" in k for k in plain["keys"])
    assert ("no value" in plain["keys"]) == (plain["glyphs"]["missing"] > 0)


def test_save_right_after_setting_state_draws_the_new_state(tmp_path: Path) -> None:
    """State set from Python in the same cell as save: the figure draws it, not the view the
    browser last reported (its size, zoom and folds)."""
    gf = cctviz.examples.load("caliper-sw4-cuda")
    w = cctviz.CCT(gf)
    # what a view on screen reports: its size, a zoom by hand, the folds of its first picture
    w._stage_size = (800, 500)
    w._view_transform = (-200.0, 40.0, 3.0)
    root = w.table.roots[0]
    children = [i for i in range(w.table.size) if w.table.parent[i] == root]
    w.collapsed = tuple(children[1:])
    w.focus(root)
    w.select([children[0]])
    w.fold_to_fit = False  # every open node drawn, as the state says (no folds to fit the figure)
    out = w.save(tmp_path / "x.svg")
    tree = ET.parse(out).getroot()
    marks = node_marks(tree)
    assert len(marks) == drawn_count(w) < w.table.size
    inner = {c for c in children[1:] if (w.table.parent == c).any()}  # leaves have no glyph
    glyphs = {int(m.get("data-id", -1)) for m in marks if "cct-collapsed" in m.get("class", "")}
    assert glyphs == inner != set()
    record = json.loads(tree.find(f"{SVG}metadata/{PROVENANCE}").text)
    assert record["viewport"] == "fit"  # the zoom was of the old picture
    # everything expanded: a column cannot tell 393 nodes' rows apart, so the figure folds the
    # smallest subtrees (the selection's ancestors stay open) and says so in its title and record
    w.expand()
    w.fold_to_fit = True
    figure = cctviz.figure.figure_of(w.snapshot(), **PAPER)
    shown = ET.fromstring(figure.svg)
    assert figure.folded > w.table.size // 2 and len(node_marks(shown)) < w.table.size // 4
    assert shown.find(f"{SVG}title").text.endswith(f"{figure.folded:,} open nodes folded to fit)")
    assert figure.provenance["folded_to_fit"] == figure.folded
    drawn = {int(m.get("data-id", -1)) for m in node_marks(shown)}
    assert {children[0], root} <= drawn
    saved = ET.parse(w.save(tmp_path / "folded.svg")).getroot()
    assert json.loads(saved.find(f"{SVG}metadata/{PROVENANCE}").text)["folded_to_fit"] > 0
    # with fold_to_fit off every open node is drawn, however many
    w.fold_to_fit = False
    assert len(node_marks(ET.fromstring(w.to_svg(**PAPER)))) == drawn_count(w) == w.table.size


def test_focus_on_a_node_not_loaded_yet_is_drawn(tmp_path: Path) -> None:
    gf = cctviz.examples.load("caliper-sw4-cuda")
    w = cctviz.CCT(gf, budget=60)  # level of detail: the browser has only some nodes
    deep = next(i for i in range(w.table.size) if i not in set(w.loaded.tolist()))
    w.focus(deep)
    ids = {
        int(m.get("data-id", -1))
        for m in node_marks(ET.parse(w.save(tmp_path / "f.svg")).getroot())
    }
    assert deep in ids
