"""Bad input gets a clear error that says what was wrong and what is accepted."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import traitlets

import cctviz
from cctviz import from_graphframe

from .conftest import load
from .profiles import SHARED_DATA, readable


@pytest.fixture
def gf():
    return load(next(p for p in readable() if p.folder == "hatchet/hpctoolkit-cpi-database"))


@pytest.mark.parametrize("bad", [42, "profile.cali", pd.DataFrame({"a": [1]}), None])
def test_not_a_graphframe_is_a_type_error_naming_what_is_accepted(bad) -> None:
    with pytest.raises(TypeError, match=r"cctviz draws a Hatchet GraphFrame .* or a Thicket; got"):
        from_graphframe(bad)
    with pytest.raises(TypeError, match=r"Hatchet GraphFrame"):
        cctviz.CCT(bad)


@pytest.mark.parametrize(
    ("path", "reader"),
    [
        ("run.cali", "hatchet.GraphFrame.from_caliperreader('run.cali')"),
        (Path("data/prof.pstats"), "hatchet.GraphFrame.from_cprofile('data/prof.pstats')"),
        ("lulesh.json", "hatchet.GraphFrame.from_caliper('lulesh.json') if it is Caliper's JSON"),
        ("notes.txt", "the hatchet.GraphFrame reader of its format (from_caliperreader, "),
    ],
)
def test_a_path_is_read_with_hatchet_first(
    path: str | Path, reader: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a file cctviz.read does not know (a name Hatchet's readers take is not even opened)
    monkeypatch.chdir(tmp_path)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text('{"not": "a profile cctviz.read knows"}\n')
    with pytest.raises(TypeError, match="read it with Hatchet first") as error:
        cctviz.CCT(path)
    assert f"got the path {str(path)!r}" in str(error.value)
    assert reader in str(error.value)
    assert str(error.value).endswith("then cctviz.CCT(gf)")


def test_a_missing_file_is_said(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"no such profile file: '.*missing.folded'"):
        cctviz.CCT(tmp_path / "missing.folded")


@pytest.mark.parametrize(
    ("folder", "reader"),
    [("hpctoolkit-cpi-database", "from_hpctoolkit"), ("tau-cpi-mpi", "from_tau")],
)
def test_a_folder_is_named_by_what_it_holds(folder: str, reader: str) -> None:
    path = Path(SHARED_DATA) / "hatchet" / folder
    if not path.is_dir():
        pytest.skip(f"no {path}")
    with pytest.raises(TypeError, match=f"gf = hatchet.GraphFrame.{reader}"):
        cctviz.CCT(path)


def test_empty_graph_is_a_value_error() -> None:
    import hatchet
    from hatchet.graph import Graph

    empty = hatchet.GraphFrame(Graph([]), pd.DataFrame(index=pd.Index([], name="node")), [], [])
    with pytest.raises(ValueError, match="graph is empty"):
        from_graphframe(empty)


def test_unknown_metric_lists_the_available_ones(gf) -> None:
    with pytest.raises(
        ValueError,
        match=r"no metric 'wall' in this profile; available metrics: 'time', 'time \(inc\)'",
    ):
        cctviz.CCT(gf, color_by="wall")
    w = cctviz.CCT(gf)
    with pytest.raises(traitlets.TraitError, match=r"no metric 'wall'.*'time \(inc\)'"):
        w.size_by = "wall"
    assert w.size_by == "time (inc)"


def test_unknown_reducer(gf) -> None:
    with pytest.raises(
        ValueError, match=r"unknown reducer 'mode'; accepted: 'mean', 'median', 'sum'"
    ):
        cctviz.CCT(gf, reducer="mode")


def test_unknown_keyword_suggests_the_right_one(gf) -> None:
    with pytest.raises(
        TypeError, match=r"unexpected keyword argument 'colour_by'; did you mean 'color_by'\?"
    ):
        cctviz.CCT(gf, colour_by="time")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([99], r"node id 99 is out of range: this tree has 34 nodes \(ids 0 to 33\)"),
        ([-1], r"node id -1 is out of range"),
        (["main"], r"selection holds node ids \(integers from 0 to 33\); got 'main'"),
        ([True], r"got True"),
    ],
)
def test_bad_selection(gf, value, message) -> None:
    w = cctviz.CCT(gf)
    with pytest.raises(traitlets.TraitError, match=message):
        w.selection = value


def test_unknown_backend(gf) -> None:
    w = cctviz.CCT(gf)
    with pytest.raises(traitlets.TraitError, match=r"expected any of \['auto', 'svg', 'canvas'\]"):
        w.backend = "webgl"


def test_dataframe_without_node_index() -> None:
    gf = load(next(p for p in readable() if p.folder == "hatchet/caliper-example-cali")).deepcopy()
    gf.dataframe = gf.dataframe.reset_index(drop=True)
    with pytest.raises(TypeError, match=r"dataframe must be indexed by 'node'"):
        from_graphframe(gf)


def test_unknown_example_name() -> None:
    with pytest.raises(KeyError, match="no example profile 'nope'; available: hpctoolkit-cpi"):
        cctviz.examples.path("nope")


@pytest.mark.parametrize(
    ("trait", "value", "message"),
    [
        ("prune_range", (5.0, 1.0), r"prune_range: inverted range, low 5.0 is above high 1.0"),
        ("focused", 99, r"node id 99 is out of range"),
        ("collapsed", (1, 77), r"node id 77 is out of range"),
        ("visible_roots", (1,), r"node 1 is not a root; the roots are 0"),
        ("palette", "jet", r"expected any of \['auto', 'viridis'"),
        ("legend", "each", r"expected any of \['auto', 'shared', 'per-root'\]"),
    ],
)
def test_bad_view_state(gf, trait, value, message) -> None:
    w = cctviz.CCT(gf)
    with pytest.raises(traitlets.TraitError, match=message):
        setattr(w, trait, value)


def test_bad_regex_is_refused_whichever_is_set_last(gf) -> None:
    w = cctviz.CCT(gf)
    w.search = "MPI_("  # fine as plain text
    with pytest.raises(traitlets.TraitError, match=r"invalid regular expression 'MPI_\('"):
        w.search_regex = True
    w.search = "MPI_[IB]"
    w.search_regex = True
    with pytest.raises(traitlets.TraitError, match=r"invalid regular expression"):
        w.search = "a["
    assert w.search == "MPI_[IB]"


def test_a_menus_label_of_a_metric_says_its_name(gf) -> None:
    w = cctviz.CCT(gf)
    with pytest.raises(ValueError, match=r"the menus show 'time \(exc\)' for 'time'"):
        w.color_by = "time (exc)"
