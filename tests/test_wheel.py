"""The wheel ships the front-end bundle once (issue 59): packed, which widgets carry, and which
figures unpack when the plain ``widget.js`` of a source checkout is absent."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cctviz.figure import page

from .fresh import run_json

ROOT = Path(__file__).resolve().parents[1]
PIP_WHEEL = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
STATIC = "cctviz/widget/static/"


@pytest.mark.once
def test_wheel_ships_the_bundle_once_and_draws_figures_from_it(tmp_path: Path) -> None:
    pytest.importorskip("playwright", reason="figures need Playwright: 'cctviz[export]'")
    if not (ROOT / STATIC / "widget-packed.b64").is_file():
        pytest.skip("the front end is not built here: npm run build")
    built = subprocess.run(
        [*PIP_WHEEL, "-w", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("cctviz-*.whl")
    with zipfile.ZipFile(wheel) as z:
        static = sorted(n[len(STATIC) :] for n in z.namelist() if n.startswith(STATIC))
        z.extractall(tmp_path / "site")
    assert static == ["widget-packed.b64", "widget-packed.js", "widget.css"], static

    # that install, ahead of the checkout's, draws a figure (cwd: not the checkout)
    figure = tmp_path / "cpi.svg"
    code = f"""
import json, cctviz
from cctviz.figure import page
gf = cctviz.examples.load("hpctoolkit-cpi")
cctviz.export(gf, {str(figure)!r}, width=600, height=400)
print(json.dumps({{"file": cctviz.__file__, "plain": page.FIGURE.is_file()}}))
"""
    got = run_json(code, tmp_path, PYTHONPATH=str(tmp_path / "site"))
    assert Path(got["file"]).is_relative_to(tmp_path / "site"), got
    assert got["plain"] is False
    svg = figure.read_text()
    assert svg.startswith("<svg") or "<svg" in svg[:500]
    assert svg.count("cct-node") >= 10, "the figure drew no tree"


def test_the_figure_page_unpacks_the_packed_bundle_to_the_plain_one() -> None:
    if not page.FIGURE.is_file():
        pytest.skip("no plain bundle to compare with: npm run build")
    assert page.unpacked(page.PACKED_DATA) == page.FIGURE.read_text(encoding="utf-8")


def test_a_file_that_is_not_a_packed_bundle_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "widget-packed.b64"
    bad.write_text("export default {};\n")
    with pytest.raises(RuntimeError, match=r"is not a packed cctviz bundle .*npm run build"):
        page.unpacked(bad)


def test_without_either_bundle_figures_say_how_to_build_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(page, "FIGURE", tmp_path / "widget.js")
    monkeypatch.setattr(page, "PACKED_DATA", tmp_path / "widget-packed.b64")
    with pytest.raises(RuntimeError, match=r"bundle is missing.*npm ci && npm run build"):
        page.script()
