"""The TAU reader (cctviz.adapters.formats.tau) on profiles TAU wrote (tests/data/formats/tau,
and the shared Hatchet data when present): the tree and numbers of Hatchet's ``from_tau`` (under
whichever Hatchet is installed), measured exclusive/inclusive partners with TAU's units,
several metrics, and hostile directories said or repaired and counted."""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from cctviz.adapters.formats import tau
from cctviz.adapters.formats.source import FormatError
from cctviz.adapters.formats.untrusted import REPAIRS

from .json_formats import DATA, pins

CPI = DATA / "tau" / "cpi-mpi"
# Hatchet's own from_tau warns about pandas' future; cctviz's warnings stay errors
pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")
SHARED = Path("/work/shared/data/hatchet")
VALUES = ("Calls", "Subrs", "time", "time (inc)")


def table(gf: Any) -> dict[tuple[Any, ...], dict[str, float]]:
    """(call path names, rank/thread…) → the row's numbers."""
    df = gf.dataframe
    out = {}
    for key, row in zip(df.index, df[list(VALUES)].to_dict("records"), strict=True):
        node, levels = (key[0], tuple(key[1:])) if isinstance(key, tuple) else (key, ())
        out[(tuple(n.frame["name"] for n in node.path()), *levels)] = row
    return out


def same(ours: Any, theirs: Any) -> None:
    a, b = table(ours), table(theirs)
    assert len(ours.graph) == len(theirs.graph)
    assert list(ours.dataframe.index.names) == list(theirs.dataframe.index.names)
    assert set(a) == set(b)
    for key, row in b.items():
        for column, value in row.items():
            assert math.isclose(a[key][column], float(value), rel_tol=1e-9, abs_tol=1e-9), key


@pytest.mark.parametrize("folder", [CPI, SHARED / "tau-cpi-mpi", SHARED / "tau_profiles"])
def test_the_tree_and_numbers_of_hatchets_from_tau(folder: Path) -> None:
    if not folder.exists():
        pytest.skip(f"{folder} is not here")
    import hatchet as ht

    ours = tau.read(folder)
    try:
        theirs = ht.GraphFrame.from_tau(str(folder))
    except ValueError as error:  # LLNL's reader fails on tau_profiles' source lines
        assert folder.name == "tau_profiles", error
        assert len(ours.graph) == 51 and len(ours.dataframe) == 64 * 51
        return
    same(ours, theirs)
    assert ours.default_metric == theirs.default_metric == "time (inc)"


def test_measured_partners_and_units() -> None:
    gf = tau.read(CPI)
    assert pins(gf)["time"] == ["exclusive", "time (inc)", "us"]
    assert pins(gf)["time (inc)"] == ["inclusive", "time", "us"]
    assert pins(gf)["Calls"] == ["exclusive", None, "calls"]
    assert gf.inc_metrics == ["time (inc)"] and "time" in gf.exc_metrics
    assert not [c for c in gf.dataframe.columns if "(exc)" in str(c)]  # nothing derived
    assert list(gf.dataframe.index.names) == ["node", "rank"]
    root = table(gf)[((".TAU application",), 0)]
    assert root == {"Calls": 1, "Subrs": 7, "time": 449, "time (inc)": 51781}
    assert gf.metadata["tau.metrics"] == ["TIME"]
    assert gf.metadata["tau.metadata"]["Hostname"] == "nid01045"
    events = gf.metadata["tau.userevents"]["Message size for reduce"]
    assert events["numevents"] == 4 and events["mean"] == 8 and gf.metadata[REPAIRS] == {}
    assert tau.read(CPI / "profile.2.0.0").dataframe.index.names == ["node"]  # one file


def test_multi_metric_folders(tmp_path: Path) -> None:
    for metric, scale in (("TIME", 1), ("PAPI_TOT_CYC", 3)):
        (tmp_path / f"MULTI__{metric}").mkdir()
        for source in CPI.iterdir():
            lines = source.read_text().split("\n")
            lines[0] = lines[0].replace("MULTI_TIME", f"MULTI_{metric}")
            lines[1] = lines[1].replace("<value>TIME</value>", f"<value>{metric}</value>")
            for k in range(2, 2 + int(lines[0].split()[0])):
                head, rest = lines[k].split('" ', 1)
                n = rest.split(" ")
                n[2], n[3] = str(int(n[2]) * scale), str(int(n[3]) * scale)
                lines[k] = f'{head}" {" ".join(n)}'
            (tmp_path / f"MULTI__{metric}" / source.name).write_text("\n".join(lines))
    gf = tau.read(tmp_path)
    assert gf.metadata["tau.metrics"] == ["TIME", "PAPI_TOT_CYC"]
    assert pins(gf)["PAPI_TOT_CYC"] == ["exclusive", "PAPI_TOT_CYC (inc)", "count"]
    df = gf.dataframe
    assert (df["PAPI_TOT_CYC (inc)"] == 3 * df["time (inc)"]).all()
    assert (df["PAPI_TOT_CYC"] == 3 * df["time"]).all()
    assert tau.sniff(b"", tmp_path)
    import hatchet as ht

    theirs = ht.GraphFrame.from_tau(str(tmp_path))
    same(gf, theirs)
    for column in ("PAPI_TOT_CYC", "PAPI_TOT_CYC (inc)"):
        assert sorted(df[column]) == pytest.approx(sorted(theirs.dataframe[column]), rel=1e-9)
    (tmp_path / "MULTI__TIME" / "profile.3.0.0").unlink()
    with pytest.raises(FormatError, match="do not hold the same profile files"):
        tau.read(tmp_path)


def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "tau"
    shutil.copytree(CPI, folder)
    return folder


def test_files_cut_short_keep_their_complete_lines(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    path = folder / "profile.1.0.0"
    text = path.read_text()
    cut = text.index('".TAU application => MPI_Finalize()   => MPI_File_open()"') + 70
    path.write_text(text[:cut])  # in the middle of a number
    gf = tau.read(folder)
    repairs = gf.metadata[REPAIRS]
    assert repairs["profile files cut short (complete function lines kept)"] == 1
    assert repairs["function lines missing from files cut short"] == 5
    rows = table(gf)
    file_open = ((".TAU application", "MPI_Finalize()", "MPI_File_open()"), 1)
    assert rows[file_open]["time"] == 0  # the cut line is not read as a smaller number
    assert (
        rows[((".TAU application",), 1)]["time (inc)"]
        == table(tau.read(CPI))[((".TAU application",), 1)]["time (inc)"]
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("garbage here", "line 5 is 'garbage here', not a function line"),
        ('"f()" 1 0 -5 10 0 GROUP="X"', "line 5 has a negative or non-finite number"),
        ('"f()" 1 0 nan 10 0 GROUP="X"', "negative or non-finite"),
        ('"f()" 1 0 x 10 0 GROUP="X"', "where four numbers are"),
    ],
)
def test_hostile_lines_are_said(tmp_path: Path, line: str, message: str) -> None:
    folder = copy(tmp_path)
    path = folder / "profile.2.0.0"
    lines = path.read_text().split("\n")
    lines[4] = line
    path.write_text("\n".join(lines))
    with pytest.raises(FormatError, match=message):
        tau.read(folder)


def test_names_that_are_not_utf8_and_stray_files(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    path = folder / "profile.0.0.0"
    path.write_bytes(path.read_bytes().replace(b"MPI_Bcast()", b"MPI_B\xe9cast()"))
    (folder / "profile.0.0.0.bak").write_text("old")
    gf = tau.read(folder)
    assert gf.metadata[REPAIRS] == {
        "profile files with bytes that are not UTF-8 (replaced by U+FFFD)": 1,
        "files named profile.* but not profile.<node>.<context>.<thread> ignored": 1,
    }
    names = {n.frame["name"] for n in gf.graph.traverse()}
    assert "MPI_B\ufffdcast()" in names and "MPI_Bcast()" in names


def test_flat_profiles_and_bad_directories(tmp_path: Path) -> None:
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "profile.0.0.0").write_text(
        "2 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n"
        '"main" 1 1 5 15 0 GROUP="TAU_DEFAULT"\n"work" 1 0 10 10 0 GROUP="TAU_USER"\n'
        "0 aggregates\n"
    )
    gf = tau.read(flat)
    assert {n.frame["name"] for n in gf.graph.roots} == {"main", "work"}  # TAU_CALLPATH off
    with pytest.raises(FormatError, match="holds no profile"):
        tau.read(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "profile.0.0.0").write_text(
        "0 templated_functions_MULTI_TIME\n# Name Calls Subrs Excl Incl ProfileCalls #\n"
        '0 aggregates\n1 userevents\n# eventname numevents max min mean sumsqr\n"e" 1 1 1 1 1\n'
    )
    with pytest.raises(FormatError, match="hold no function line"):
        tau.read(empty)
    (flat / "profile.0.1.0").write_text((flat / "profile.0.0.0").read_text())
    with pytest.raises(FormatError, match="only context 0"):
        tau.read(flat)
    with pytest.raises(TypeError, match="accepts none"):
        tau.read(CPI, metric="time")
    with pytest.raises(FormatError, match="no such file"):
        tau.read(tmp_path / "missing")


def test_sniff() -> None:
    assert tau.sniff(b"", CPI)
    assert tau.sniff((CPI / "profile.0.0.0").read_bytes()[:100], CPI / "profile.0.0.0")
    assert not tau.sniff(b'{"traceEvents": []}', CPI / "x.json")
    assert not tau.sniff(b"", DATA / "speedscope")


def test_a_last_user_event_cut_short_is_not_read(tmp_path: Path) -> None:
    folder = copy(tmp_path)
    path = folder / "profile.3.0.0"
    path.write_text(path.read_text().rstrip("\n")[:-2])  # "… 8 8 8 64" cut to "… 8 8 8 "
    gf = tau.read(folder)
    assert gf.metadata[REPAIRS] == {"lines cut short at the end of a file (not read)": 1}
    assert gf.metadata["tau.userevents"]["Message size for reduce"]["numevents"] == 3
    assert gf.metadata["tau.userevents"]["Message size for broadcast"]["numevents"] == 4
