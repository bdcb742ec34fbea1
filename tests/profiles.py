"""The real profiles the tests read, each with how the installed Hatchet distribution reads it.

They come from ../shared/data (or ``CCTVIZ_SHARED_DATA``) when it is there, as in CI. A fresh
clone without it uses the small in-repo copies: ``tests/data/profiles`` (same folder names,
with ``PROVENANCE.tsv`` and the licences) and the example profiles shipped in
``cctviz/examples/data``; a test that needs a profile without an in-repo copy is skipped, saying
so. With ``CCTVIZ_REQUIRE_SHARED=1`` (scripts/test.sh) missing shared data is a failure instead.

A profile is listed for a distribution only where ../shared/data/README.md says that distribution
reads it ("ok"); the tests then check cctviz against what Hatchet itself gives for that profile.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = Path(os.environ.get("CCTVIZ_SHARED_DATA") or REPO.parent / "shared" / "data")
HAVE_SHARED = SHARED_DATA.is_dir()
REQUIRE_SHARED = os.environ.get("CCTVIZ_REQUIRE_SHARED", "") not in ("", "0")
IN_REPO_DATA = REPO / "tests" / "data" / "profiles"
_EXAMPLES = REPO / "cctviz" / "examples" / "data"

IN_REPO: dict[str, Path] = {
    # byte-identical copies already shipped as cctviz.examples
    "hatchet/hpctoolkit-cpi-database": _EXAMPLES / "hpctoolkit-cpi",
    "hatchet/cprofile-cycle": _EXAMPLES / "cprofile-cycle",
    "hatchet/caliper-sw4-cuda-activity-profile-cali": _EXAMPLES / "caliper-sw4-cuda",
    **{
        folder: IN_REPO_DATA / folder
        for folder in (
            "hatchet/caliper-example-cali",
            "hatchet/caliper-cpi-json",
            "hatchet/gprof2dot-cpi",
            "hatchet/tau-cpi-mpi",
            "thicket/mpi_scaling_cali",
            "thicket-tutorial/lulesh-strong-weak",
        )
    },
}
"""Folders of ../shared/data that have a copy in the repository, and where it is."""
PARTIAL: dict[str, str] = {
    "thicket-tutorial/lulesh-strong-weak": "only its first two strong-scaling runs are in the "
    "repository (for two_runs and the one-file reader), not the 60-run ensemble",
}
"""In-repo copies that hold part of the folder: only single-file readers use them."""


def unavailable(folder: str, reader: str = "") -> str:
    """Why the profile in ``folder`` cannot be read here ("" when it can). The reason names no
    profile (the test id does), so that pytest's summary counts the skips of a test as one line."""
    if HAVE_SHARED:
        return ""
    missing = f"the shared profiles are missing ({SHARED_DATA}; set CCTVIZ_SHARED_DATA)"
    if folder not in IN_REPO:
        return f"{missing} and this profile is not among the in-repo copies (tests/data/profiles)"
    if folder in PARTIAL and reader == "thicket":
        return f"{missing} and only part of this ensemble is in the repository"
    return ""


def require(folder: str, reader: str = "") -> None:
    """Skip the calling test when the profile is not here (fail under CCTVIZ_REQUIRE_SHARED)."""
    if REQUIRE_SHARED and not HAVE_SHARED:
        pytest.fail(
            f"CCTVIZ_REQUIRE_SHARED is set but the shared profiles are missing: {SHARED_DATA} "
            "(set CCTVIZ_SHARED_DATA to their folder)"
        )
    reason = unavailable(folder, reader)
    if reason:
        pytest.skip(reason)


def data_root(folder: str) -> Path:
    """Where ``folder`` is read from: ../shared/data when present, else its in-repo copy."""
    if HAVE_SHARED:
        return SHARED_DATA / folder
    require(folder)
    return IN_REPO[folder]


def distribution() -> str:
    """'llnl' for LLNL's llnl-hatchet, 'umd' for PyPI's hatchet (both install `hatchet`)."""
    import hatchet

    return "llnl" if hasattr(hatchet.GraphFrame, "from_hpctoolkit_latest") else "umd"


@dataclass(frozen=True)
class Profile:
    folder: str
    reader: str  # a GraphFrame class method, or "thicket" for Thicket.from_caliperreader
    target: str = ""  # a file inside the folder ("" = the folder itself; "*.cali" = every match)
    only: str = ""  # "umd" or "llnl" when only that distribution reads it
    kwargs: tuple[tuple[str, Any], ...] = ()

    @property
    def id(self) -> str:
        return f"{self.folder}:{self.reader}"

    def path(self) -> Path:
        base = data_root(self.folder)
        if not self.target:
            return base
        matches = sorted(base.glob(self.target))
        if not matches:
            raise FileNotFoundError(f"no {self.target} in {base}")
        return matches[0]

    def paths(self) -> list[Path]:
        return sorted(data_root(self.folder).glob(self.target or "*"))

    def load(self) -> Any:
        import hatchet

        if self.reader == "thicket":
            import thicket

            return thicket.Thicket.from_caliperreader(
                [str(p) for p in self.paths()], disable_tqdm=True
            )
        reader: Callable[..., Any] = getattr(hatchet.GraphFrame, self.reader)
        if self.reader == "from_json":  # takes the JSON text, not a path
            return reader(self.path().read_text())
        return reader(str(self.path()), **dict(self.kwargs))


_NO_ORDER = (("node_ordering", False),)


def _caliper_json(folder: str, target: str) -> list[Profile]:
    # LLNL's from_caliper needs node_ordering=False for files without a "Node order" column
    return [
        Profile(folder, "from_caliper", target, only="umd"),
        Profile(folder, "from_caliper", target, only="llnl", kwargs=_NO_ORDER),
    ]


PROFILES: list[Profile] = [
    Profile("llnl-hatchet/caliper-ordered-cali-mpi", "from_caliperreader", "*.cali"),
    Profile("llnl-hatchet/caliper-ordered-cali", "from_caliperreader", "*.cali"),
    Profile("llnl-hatchet/caliper-ordered-duplicate-json", "from_caliper", "*.json"),
    Profile("llnl-hatchet/caliper-ordered-json", "from_caliper", "*.json"),
    Profile("llnl-hatchet/ams_mpi_test1-pfw", "from_perfflowaspect", "*.pfw", only="llnl"),
    *_caliper_json("llnl-hatchet/caliper-ex-json", "*.json"),
    Profile("thicket-tutorial/lulesh-strong-weak", "from_caliperreader", "strong/*.cali"),
    Profile("thicket/mpi_scaling_cali", "from_caliperreader", "*.cali"),
    Profile("thicket/rajaperf-lassen", "from_caliperreader", "**/*.cali"),
    Profile("thicket/rajaperf-quartz", "from_caliperreader", "**/*.cali"),
    Profile("thicket/XL_BaseCuda", "from_caliperreader", "*.cali"),
    Profile("thicket/example-timeseries", "from_caliperreader", "*.cali"),
    Profile("thicket/misc", "from_caliperreader", "*.cali"),
    Profile("thicket/simple-cali", "from_caliperreader", "*.cali"),
    *_caliper_json("hatchet/caliper-cpi-json", "*.json"),
    Profile("hatchet/caliper-example-cali", "from_caliperreader", "*.cali"),
    Profile("hatchet/caliper-lulesh-cali", "from_caliperreader", "*.cali"),
    *_caliper_json("hatchet/caliper-lulesh-json", "*.json"),
    Profile("hatchet/caliper-sw4-cuda-activity-profile-cali", "from_caliperreader", "*.cali"),
    Profile("hatchet/cprofile-cycle", "from_cprofile", "*.pstats"),
    Profile("hatchet/gprof2dot-cpi", "from_gprof_dot", "callgrind.dot*"),
    Profile("hatchet/hatchet_cpi_v4_database", "from_hpctoolkit", only="umd"),
    Profile("hatchet/hatchet_cpi_v4_database", "from_hpctoolkit_latest", only="llnl"),
    Profile("hatchet/hpctoolkit-allgather-database", "from_hpctoolkit"),
    Profile("hatchet/hpctoolkit-cpi-database", "from_hpctoolkit"),
    Profile("hatchet/pyinstrument", "from_pyinstrument", "*.json"),
    Profile("hatchet/scorep-cpi-cubex", "from_scorep", "*.cubex", only="umd"),
    Profile("hatchet/tau-cpi-mpi", "from_tau"),
    Profile("hatchet/timemory-wall", "from_timemory", "*.json"),
    Profile("hatchet/tau_profiles", "from_tau", only="umd"),
    Profile("error-cases/llnl-hatchet/graph-json-synthetic", "from_json", "*.json", only="llnl"),
    Profile("thicket/mpi_scaling_cali", "thicket", "*.cali", only="llnl"),
    Profile("thicket-tutorial/lulesh-strong-weak", "thicket", "strong/*.cali", only="llnl"),
    Profile("thicket/rajaperf-quartz", "thicket", "**/*.cali", only="llnl"),
]


def readable() -> list[Profile]:
    """The profiles the installed distribution reads."""
    dist = distribution()
    return [p for p in PROFILES if p.only in ("", dist)]


def two_runs() -> tuple[Any, Any]:
    """GraphFrames of two runs of one program (LULESH, strong scaling, Caliper)."""
    import hatchet

    folder = "thicket-tutorial/lulesh-strong-weak"
    require(folder)
    runs = sorted((data_root(folder) / "strong").glob("*.cali"))
    a, b = (hatchet.GraphFrame.from_caliperreader(str(p)) for p in runs[:2])
    return a, b


MPI_SCALING = "thicket/mpi_scaling_cali"


def mpi_scaling_files() -> list[Path]:
    """The five Caliper files of the MPI scaling study (the ensemble store's tests)."""
    require(MPI_SCALING)
    return sorted(data_root(MPI_SCALING).rglob("*.cali"))


def inclusive_metric(ens: Any) -> str:
    """The first inclusive metric of an Ensemble, as this Hatchet distribution names it."""
    kinds = ens.metrics
    return str(next(m for m in kinds.index if kinds.loc[m, "kind"] == "inclusive"))


CPI_IN_A_FRESH_PROCESS = r"""
import json, sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, sys.argv[1])
from tests.conftest import load
from tests.profiles import readable
import cctviz
profile = next(p for p in readable() if p.folder == "hatchet/hpctoolkit-cpi-database")
gf = load(profile)
df = gf.dataframe.copy()
"""
"""The start of a script run with ``python -c SCRIPT REPO`` (another hash seed, a clean import):
the real HPCToolkit cpi database as ``gf`` and its dataframe copied as ``df``."""
