"""Column-width paper figures (3.5 x 2.6 in, style="paper", 8 pt) of real profiles, measured as
headless Chromium draws them: no two node marks overlap, the hot path and the node the colour
singles out are named, the legends take at most a quarter of the height, and a PDF's text holds
each label once."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="figures need Playwright (pip install 'cctviz[export]')")

import cctviz

from .profiles import Profile, require

PAPER = {"width": "3.5in", "height": "2.6in", "style": "paper", "font_size": 8}
HEIGHT = 2.6 * 96  # CSS pixels

CASES = [
    Profile("hatchet/hpctoolkit-allgather-database", "from_hpctoolkit"),
    Profile("hatchet/caliper-sw4-cuda-activity-profile-cali", "from_caliperreader", "*.cali"),
    Profile("hatchet/gprof2dot-cpi", "from_gprof_dot", "callgrind.dot*"),
    Profile("hatchet/pyinstrument", "from_pyinstrument", "*.json"),
    Profile("thicket/misc", "from_caliperreader", "*.cali"),
    Profile("thicket/mpi_scaling_cali", "from_caliperreader", "343_cores.cali"),
]

MEASURE = """() => {
  const svg = document.querySelector('svg');
  const box = svg.getBoundingClientRect();
  const marks = [...svg.querySelectorAll('.cct-nodes [data-id]')].map((e) => {
    const r = e.getBoundingClientRect();
    return { id: Number(e.getAttribute('data-id')), r: Math.min(r.width, r.height) / 2,
             x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
  });
  // a label names its node; a band's header names its root
  const labels = [...svg.querySelectorAll('.cct-labels :is(text[data-id], text[data-band])')]
    .map((e) => ({ id: Number(e.getAttribute('data-id') ?? e.getAttribute('data-band')),
                   text: e.textContent }));
  const legends = [...svg.querySelectorAll('.cct-legend')].map((e) => e.getBoundingClientRect());
  return { marks, labels, legendBottom: Math.max(0, ...legends.map((r) => r.bottom - box.top)) };
}"""


def measure(svg_path: Path) -> dict[str, Any]:
    from cctviz.figure.browser import shared

    def job(browser: Any) -> dict[str, Any]:
        page = browser.new_page(viewport={"width": 400, "height": 300})
        try:
            page.goto(svg_path.resolve().as_uri())
            result: dict[str, Any] = page.evaluate(MEASURE)
            return result
        finally:
            page.close()

    return shared().run(job)


def hot_path(gf: Any, w: cctviz.CCT, steps: int = 3) -> list[int]:
    """Node ids from the root largest by the size metric, the largest child, `steps` times (nodes
    by identity: Hatchet's hash two nodes of one frame alike)."""
    ids = {id(node): i for i, node in zip(w.node_frame.index, w.node_frame["node"], strict=True)}
    size = w.node_frame[w.size_by]
    key = lambda n: -math.inf if size[ids[id(n)]] != size[ids[id(n)]] else size[ids[id(n)]]  # noqa: E731
    node = max(gf.graph.roots, key=key)
    path = [node]
    for _ in range(steps):
        if not node.children:
            break
        node = max(node.children, key=key)
        path.append(node)
    return [int(ids[id(n)]) for n in path]


@pytest.mark.parametrize("profile", CASES, ids=lambda p: getattr(p, "folder", "").split("/")[-1])
def test_column_wide_paper_figure_is_readable(profile: Profile, tmp_path: Path) -> None:
    require(profile.folder)
    gf = profile.load()
    w = cctviz.CCT(gf)
    m = measure(cctviz.export(gf, tmp_path / "f.svg", **PAPER))
    marks, labels = m["marks"], {lab["id"]: lab["text"] for lab in m["labels"]}
    assert len(marks) >= min(15, len(gf.graph))
    # no two marks overlap by more than a third of the smaller one
    overlapping = [
        (a["id"], b["id"])
        for i, a in enumerate(marks)
        for b in marks[i + 1 :]
        if math.hypot(a["x"] - b["x"], a["y"] - b["y"])
        < a["r"] + b["r"] - (2 / 3) * min(a["r"], b["r"])
    ]
    assert overlapping == []
    # the legends on top take at most a quarter of the height
    assert m["legendBottom"] <= HEIGHT / 4 + 0.5
    # the hot path is named wherever it is drawn (a figure may fold its end), at least its top
    # three nodes: a label shows its name, or pieces of it around an ellipsis (five characters
    # or more); nodes of one name (recursion) read alike
    drawn = {mk["id"] for mk in marks}
    names = w.node_frame["name"]
    path = [n for n in hot_path(gf, w) if n in drawn]
    assert len(path) >= 3 or len(path) == len(hot_path(gf, w))
    for n in path:
        assert any(shows(text, str(names[n])) for text in labels.values()), (names[n], labels)
    # the node the colour singles out (its largest value drawn) is named
    colours = w.node_frame[w.color_by]
    values = {n: float(colours[n]) for n in drawn if colours[n] == colours[n]}
    if values:
        top = max(values, key=lambda n: values[n])
        assert top in labels, f"the colour's extreme {names[top]!r} unnamed"


def shows(label: str, name: str) -> bool:
    """Whether `label` names `name`: whole, or its pieces in order around ellipses."""
    core = re.sub(r"( \(\+[\d,]+\))?( \d[\d.]*%)?$", "", label)
    if core == name:
        return True
    pieces = [p for p in core.split("\u2026") if p]
    if "\u2026" not in core or sum(map(len, pieces)) < 5:
        return False
    at = 0
    for piece in pieces:
        at = name.find(piece, at)
        if at < 0:
            return False
        at += len(piece)
    return True


def test_pdf_text_holds_each_label_once(tmp_path: Path) -> None:
    """The labels' halo is no second text: text extraction reads each label once ('main', not
    'mainmain')."""
    import xml.etree.ElementTree as ET

    from pypdf import PdfReader

    gf = cctviz.examples.load("hpctoolkit-cpi")
    svg = cctviz.export(gf, tmp_path / "f.svg", **PAPER).read_text(encoding="utf-8")
    texts = [
        "".join(el.itertext())
        for el in ET.fromstring(svg.split("\n", 1)[1]).iter("{http://www.w3.org/2000/svg}text")
    ]
    labels = [t for t in texts if t.strip()]
    assert len(labels) > 5
    extracted = PdfReader(cctviz.export(gf, tmp_path / "f.pdf", **PAPER)).pages[0].extract_text()
    for label in labels:
        # as often as the figure writes it (a short label may be part of a longer one)
        assert extracted.count(label) == sum(t.count(label) for t in labels), label
