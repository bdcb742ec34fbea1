"""The tree-table figure (``w.table_figure``): SVG, PDF and PNG laid out in headless Chromium,
with the rows and columns asked for, shares where a metric adds up, and provenance."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright", reason="figures need Playwright (pip install 'cctviz[export]')")

import cctviz

SVG = "{http://www.w3.org/2000/svg}"
PROVENANCE = "{https://github.com/cctviz/cctviz#provenance}provenance"


@pytest.fixture(scope="module")
def gf() -> Any:
    return cctviz.examples.load("hpctoolkit-cpi")


def _texts(root: ET.Element, cls: str) -> list[str]:
    return [el.text or "" for el in root.iter() if cls in el.get("class", "").split()]


def test_svg_holds_the_rows_columns_and_shares(gf: Any) -> None:
    w = cctviz.CCT(gf, source="hpctoolkit-cpi", metric_kinds={"time": "other"})
    w.table_metrics = ["time (inc)", "time"]
    root = ET.fromstring(w.table_figure(rows=8))
    frame = w.table_frame
    ids = json.loads(root.find(f"{SVG}metadata/{PROVENANCE}").text)["table"]["ids"]
    assert len(ids) == 8
    assert _texts(root, "cct-table-name") == [frame.loc[i, "name"] for i in ids]
    heads = [el.text for el in root.iter(f"{SVG}text") if el.get("font-weight") == "600"]
    assert heads == ["name", "time (inc)", "time"]
    # shares for the inclusive column (8 rows), none for a metric said to be "other"
    shares = _texts(root, "cct-table-share")
    assert len(shares) == 8 and shares[0] == "100 %"
    assert all(re.fullmatch(r"[\d.]+ %", s) for s in shares)
    assert len(_texts(root, "cct-table-value")) == 16


def test_names_are_text_and_provenance_is_recorded(tmp_path: Path) -> None:
    from hatchet import GraphFrame

    names = ['<script>alert("x")</script>', "a & b"]
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
    text = w.table_figure(title="Table <1>", units={"time": "s"})
    assert "<script>" not in text
    root = ET.fromstring(text)
    assert set(names) <= set(_texts(root, "cct-table-name"))
    assert root.find(f"{SVG}title").text == "Table <1>"
    record = json.loads(root.find(f"{SVG}metadata/{PROVENANCE}").text)
    assert record["source"] == "<run & 1>" and record["units"] == {"time": "s"}
    assert record["table"]["columns"] == w.table_columns
    assert record["view_state"]["table_metrics"] == []
    heads = [el.text for el in root.iter(f"{SVG}text") if el.get("font-weight") == "600"]
    # the unit once, in the header, the prefix the column's values fit (1 … 3 s: none)
    assert "time [s]" in heads


def test_pdf_is_vector_the_width_asked_for_with_metadata(gf: Any, tmp_path: Path) -> None:
    from pypdf import PdfReader

    w = cctviz.CCT(gf, source="hpctoolkit-cpi")
    out = w.table_figure(tmp_path / "table.pdf", rows=10, width="3.5in")
    reader = PdfReader(out)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert round(float(page.mediabox[2])) == 252  # 3.5 in, in points
    content = page.get_contents().get_data().decode("latin-1")
    assert "Tj" in content or "TJ" in content  # text, not a picture of it
    xobjects = page["/Resources"].get("/XObject", {})
    assert not [x for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image"]
    meta = reader.metadata
    assert meta["/Title"] == "Tree-table"
    assert meta["/Subject"].startswith("Tree-table of hpctoolkit-cpi: 10 contexts; time")
    assert json.loads(meta["/CctvizProvenance"])["table"]["rows"] == 10


def test_svg_file_scales_to_the_width_in_its_unit(gf: Any, tmp_path: Path) -> None:
    w = cctviz.CCT(gf)
    out = w.table_figure(tmp_path / "table.svg", rows=5, width="8cm")
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.get("width") == "8cm"
    _, _, vw, vh = (float(v) for v in root.get("viewBox", "").split())
    assert root.get("height", "").endswith("cm")
    assert float(root.get("height", "")[:-2]) == pytest.approx(8 * vh / vw, rel=1e-3)
