"""What ``import cctviz`` loads, and what cctviz says when Hatchet is not installed (issue 59).

Each check runs in a fresh interpreter (``sys.modules`` of this session holds everything); the
missing Hatchet is simulated by an import hook that refuses ``hatchet`` and ``thicket``, as
``pip install "cctviz[ensemble]"`` alone leaves them (``scripts/install_matrix.py`` installs
that in a fresh venv)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .fresh import run_json
from .profiles import SHARED_DATA

ROOT = Path(__file__).resolve().parents[1]
# what a script that only imports cctviz (and reads a version) must not pay for
HEAVY = (
    "pandas",
    "numpy",
    "anywidget",
    "ipywidgets",
    "IPython",
    "traitlets",
    "pyarrow",
    "duckdb",
    "deltalake",
    "scipy",
    "matplotlib",
    "hatchet",
    "thicket",
    "playwright",
    "dask",
    "cctviz.widget",
    "cctviz.ensemble",
)
NO_HATCHET = """
import importlib.abc, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("hatchet", "thicket"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Refuse())
"""


def _run(code: str) -> dict:
    """``code`` run in a fresh interpreter from the checkout; it prints one JSON object."""
    got: dict = run_json(textwrap.dedent(code), ROOT)
    return got


def test_import_cctviz_loads_no_heavy_module() -> None:
    got = _run(
        """
        import json, sys
        import cctviz
        print(json.dumps({"file": cctviz.__file__, "version": cctviz.__version__,
                          "loaded": sorted(sys.modules)}))
        """
    )
    assert Path(got["file"]).resolve() == ROOT / "cctviz" / "__init__.py"
    assert got["version"]
    loaded = [m for m in HEAVY if any(n == m or n.startswith(m + ".") for n in got["loaded"])]
    assert loaded == [], f"import cctviz loaded {loaded}: import them where they are used"


def test_public_names_and_subpackages_still_resolve() -> None:
    import cctviz

    for name in cctviz.__all__:
        assert getattr(cctviz, name) is not None, name
    assert cctviz.examples.names()  # a subpackage, without importing it first
    assert "CCT" in dir(cctviz) and "ensemble" in dir(cctviz)
    with pytest.raises(AttributeError, match="has no attribute 'Widget'"):
        cctviz.Widget  # noqa: B018


def test_without_hatchet_reading_says_which_extra_installs_it() -> None:
    got = _run(
        NO_HATCHET
        + """
import json
import cctviz
out = {}
for what, call in [("load", lambda: cctviz.examples.load("hpctoolkit-cpi")),
                   ("read", lambda: cctviz.read(cctviz.examples.path("pyspy-folded")))]:
    try:
        call()
        out[what] = None
    except ModuleNotFoundError as error:
        out[what] = [type(error).__name__, str(error)]
print(json.dumps(out))
"""
    )
    for what in ("load", "read"):
        kind, text = got[what]
        assert kind == "MissingHatchet", got
        assert 'pip install "cctviz[umd]"' in text and '"cctviz[llnl]"' in text, text
    assert "example profile 'hpctoolkit-cpi'" in got["load"][1]
    assert "cctviz.read" in got["read"][1]


@pytest.mark.once
def test_ensemble_without_hatchet_reads_cali_and_says_once_what_is_missing(
    tmp_path: Path,
) -> None:
    """The ``ensemble`` extra alone: Caliper region profiles are read from caliper-reader's
    records (no Hatchet); a format only Hatchet reads is skipped with one warning naming the
    extras; the view, whose nodes are Hatchet nodes, says it needs Hatchet."""
    cali = SHARED_DATA / "thicket" / "mpi_scaling_cali"
    tau = SHARED_DATA / "hatchet" / "tau-cpi-mpi"
    hpct = SHARED_DATA / "hatchet" / "hpctoolkit-cpi-database"
    if not (cali.is_dir() and tau.is_dir() and hpct.is_dir()):
        pytest.skip(f"the shared profiles are not at {SHARED_DATA}")
    got = _run(
        NO_HATCHET
        + f"""
import json, warnings
import cctviz
ens = cctviz.Ensemble({str(tmp_path / "store")!r})
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    added = ens.add({str(cali)!r}, progress=False)
    ens.add([{str(tau)!r}, {str(hpct)!r}], progress=False)
try:
    cctviz.CCT(ens)
    view = None
except ModuleNotFoundError as error:
    view = [type(error).__name__, str(error)]
print(json.dumps({{
    "added": added, "profiles": len(ens),
    "warnings": [[type(w.message).__name__, str(w.message)] for w in seen],
    "skipped": ens.skipped["reason"].tolist(), "view": view,
}}))
"""
    )
    assert got["added"] == 5 and got["profiles"] == 5, got
    assert (
        got["skipped"]
        == ["MissingHatchet: reading this file needs Hatchet, which is not installed"] * 2
    )
    assert len(got["warnings"]) == 1, got["warnings"]  # once for the add, not once per file
    kind, text = got["warnings"][0]
    assert kind == "HatchetWarning"
    assert text.startswith("2 files were skipped") and '"cctviz[umd]"' in text, text
    assert got["view"][0] == "MissingHatchet" and "cctviz.CCT(ens)" in got["view"][1], got
    assert '"cctviz[llnl]"' in got["view"][1]


def test_an_explanation_finds_its_viewer_when_only_the_ensemble_was_imported() -> None:
    """``import cctviz`` no longer imports the widget layer, which registers the viewer of
    ``Ensemble.explain``: ``explain`` imports it by name when none is registered (here it is
    handed a stand-in explanation, which the real viewer then fails on: not "no viewer")."""
    got = _run(
        """
        import json, sys
        import cctviz
        from cctviz.ensemble.analysis import explain as ex
        before = ["cctviz.widget" in sys.modules, len(ex.VIEWER)]
        ex.explanation = lambda ens, change, by: "a stand-in explanation"
        try:
            ex.explain(None, {}, None)
            error = None
        except Exception as e:
            error = [type(e).__name__, str(e)]
        after = [ex.VIEWER_MODULE in sys.modules, len(ex.VIEWER)]
        print(json.dumps({"before": before, "after": after, "error": error}))
        """
    )
    assert got["before"] == [False, 0], got
    assert got["after"] == [True, 1], got
    assert got["error"] is None or "no viewer" not in got["error"][1], got
