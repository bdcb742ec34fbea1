"""The store's own reading of Caliper files (cctviz.ensemble.store.caliper) gives, on every
``.cali`` file of ``../shared/data``, the very GraphFrame the installed Hatchet's
``from_caliperreader`` gives (graph, node ids, dataframe with its dtypes, metric lists, metadata)
and the same store rows; files of another shape are left to Hatchet. The store's rows read
straight from the records (cctviz.ensemble.store.caliper_rows) are those of the GraphFrame path on
every such file, and on edited files whose nodes are met before or without their own records; that
path is the one ``read_item`` takes. Runs under both Hatchet distributions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from cctviz.ensemble.store import caliper, caliper_rows, profile, sources
from cctviz.ensemble.store.profile import ProfileRows, profile_rows

from .profiles import HAVE_SHARED, REQUIRE_SHARED, SHARED_DATA, data_root, distribution, require

FILES = sorted(SHARED_DATA.rglob("*.cali")) if HAVE_SHARED else []


def _paths(gf: Any) -> list[tuple[tuple[str, ...], int, dict[str, Any]]]:
    """Each node, in traversal order: its call path, Hatchet id and frame."""
    out = []

    def walk(node: Any, up: tuple[str, ...]) -> None:
        path = (*up, node.frame["name"])
        out.append((path, node._hatchet_nid, dict(node.frame.attrs)))
        for child in node.children:
            walk(child, path)

    for root in gf.graph.roots:
        walk(root, ())
    return out


def _plain(gf: Any) -> pd.DataFrame:
    """The dataframe with each node as its call path (Node objects differ between two reads)."""
    paths = {nid: path for path, nid, _ in _paths(gf)}
    df = gf.dataframe.copy()
    df.index = pd.Index([paths[n._hatchet_nid] for n in df.index], name="node", tupleize_cols=False)
    return df


def test_every_real_cali_file_reads_as_hatchet_reads_it() -> None:
    import hatchet as ht

    if not FILES:
        if REQUIRE_SHARED:
            pytest.fail(f"CCTVIZ_REQUIRE_SHARED is set but {SHARED_DATA} has no .cali file")
        pytest.skip("needs ../shared/data")
    # both distributions the lock files install are ones the quick reader mirrors
    assert distribution() == caliper.FLAVOUR
    quick_files = 0
    for f in FILES:
        quick = caliper.quick_graphframe(f)
        if quick is None:
            continue
        quick_files += 1
        ref = ht.GraphFrame.from_caliperreader(str(f))
        assert _paths(quick) == _paths(ref), f
        pd.testing.assert_frame_equal(_plain(quick), _plain(ref), check_exact=True, obj=str(f))
        assert quick.exc_metrics == ref.exc_metrics and quick.inc_metrics == ref.inc_metrics, f
        assert quick.default_metric == ref.default_metric, f
        assert quick.metadata == ref.metadata, f
        ours = profile_rows(quick, metadata=None, source=str(f), content_hash="0" * 32)
        theirs = profile_rows(ref, metadata=None, source=str(f), content_hash="0" * 32)
        pd.testing.assert_frame_equal(ours.nodes, theirs.nodes, check_exact=True)
        pd.testing.assert_frame_equal(ours.values, theirs.values, check_exact=True)
        pd.testing.assert_frame_equal(ours.kinds, theirs.kinds)
        assert ours.meta == theirs.meta, f
    # the region profiles (LULESH, RAJAPerf, MPI scaling, ...) take the quick path; time series,
    # repeated call paths and GPU activity records go to Hatchet
    assert quick_files >= 0.9 * len(FILES), (quick_files, len(FILES))


@pytest.mark.parametrize("kind", ["timeseries", "repeated"])
def test_files_of_other_shapes_are_left_to_hatchet(kind: str) -> None:
    records = {
        "timeseries": [{"path": "main", "spot.channel": "timeseries"}],
        "repeated": [{"path": ["main", "f"]}, {"path": ["main", "f"]}],
    }[kind]
    assert not caliper._simple(records)
    assert caliper._simple([{"path": "main"}, {"path": ["main", "f"]}])


def test_a_hatchet_not_checked_is_left_to_read_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(caliper, "FLAVOUR", None)
    assert caliper.quick_graphframe(Path("any.cali")) is None


# --- the store's rows straight from the records (cctviz.ensemble.store.caliper_rows) ---------


def _item(path: Path) -> sources.Item:
    return sources.Item(str(path), sources.file_hash(path), {"run": 7}, path=str(path))


def _graphframe_rows(gf: Any, item: sources.Item, reducer: str, ranks: bool) -> ProfileRows:
    """The rows the GraphFrame path gives (``profile_rows`` of Hatchet's own GraphFrame)."""
    return profile_rows(
        gf,
        metadata=item.metadata,
        source=item.source,
        content_hash=item.content_hash,
        reducer=reducer,
        ranks=ranks,
    )


def _assert_same_rows(ours: object, theirs: ProfileRows, what: str) -> None:
    assert isinstance(ours, ProfileRows), (what, ours)
    pd.testing.assert_frame_equal(ours.nodes, theirs.nodes, check_exact=True, obj=f"{what} nodes")
    pd.testing.assert_frame_equal(
        ours.values, theirs.values, check_exact=True, obj=f"{what} values"
    )
    pd.testing.assert_frame_equal(ours.kinds, theirs.kinds, check_exact=True, obj=f"{what} kinds")
    assert ours.meta == theirs.meta, what
    assert list(ours.meta) == list(theirs.meta), what  # the same order of keys too
    assert ours.profile == theirs.profile and ours.ranks is None and theirs.ranks is None, what


def test_store_rows_of_every_real_region_profile_are_the_graphframe_paths() -> None:
    import hatchet as ht

    if not FILES:
        if REQUIRE_SHARED:
            pytest.fail(f"CCTVIZ_REQUIRE_SHARED is set but {SHARED_DATA} has no .cali file")
        pytest.skip("needs ../shared/data")
    direct = 0
    for f in FILES:
        simple = caliper.read_simple(f)
        if simple is None:
            continue
        item = _item(f)
        assert caliper_rows.caliper_rows(simple, metadata=None, source="", content_hash="0")
        direct += 1
        gf = ht.GraphFrame.from_caliperreader(str(f))
        for reducer, ranks in (("mean", False), ("imbalance", False), ("std", True)):
            theirs = _graphframe_rows(gf, item, reducer, ranks)
            _assert_same_rows(sources.read_item(item, reducer, ranks), theirs, f"{f} {reducer}")
    # every region profile the quick GraphFrame takes is read straight from its records
    assert direct >= 0.9 * len(FILES), (direct, len(FILES))


def _real_region_profiles() -> list[Path]:
    """The real region profiles here: all of ../shared/data's, else the in-repo copies'."""
    folders = ("thicket-tutorial/lulesh-strong-weak", "thicket/mpi_scaling_cali")
    found = FILES or [f for d in folders for f in sorted(data_root(d).rglob("*.cali"))]
    return [f for f in found if caliper.read_simple(f) is not None]


def test_a_region_profile_is_read_without_a_graphframe_or_the_node_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the GraphFrame path was taken")

    files = _real_region_profiles()
    assert files
    monkeypatch.setattr(caliper, "_graphframe", refuse)  # the quick GraphFrame
    monkeypatch.setattr(profile, "from_graphframe", refuse)  # the single-profile node table
    with pytest.raises(AssertionError, match="GraphFrame path"):  # (the patches do hold)
        caliper.quick_graphframe(files[0])
    for f in files:  # (read_item would say a refusal met as a Skipped)
        assert isinstance(sources.read_item(_item(f), "mean", ranks=True), ProfileRows), f
    kept = sources.read_item(_item(files[-1]), "mean")  # its tree's shape kept: the same rows
    monkeypatch.setattr(caliper_rows, "KEPT", 0)  # as a tree too large to keep
    assert isinstance(kept, ProfileRows)
    _assert_same_rows(sources.read_item(_item(files[-1]), "mean"), kept, "a tree built anew")


def _edited(source: Path, folder: Path, edit: str) -> Path:
    """A copy of a region profile without the record of a node that has children ("inner":
    below a root; "root": a root), or with a root's record moved after all others
    ("root-late"): Caliper files whose nodes are met before (or without) their own records."""
    import caliperreader as cr

    lines = source.read_text(errors="surrogateescape").splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.startswith("__rec=ctx")]
    reader = cr.CaliperReader()
    reader.read(str(source))
    paths = [r.get("path") for r in reader.records]
    paths = [() if p is None else tuple(p) if isinstance(p, list) else (p,) for p in paths]
    assert len(paths) == len(at)  # one record per context line, in order
    above = {p[:j] for p in paths for j in range(1, len(p))}
    k = next(i for i, p in enumerate(paths) if p in above and (len(p) > 1) == (edit == "inner"))
    line = lines.pop(at[k])
    if edit == "root-late":
        lines.append(line)
    target = folder / f"{edit}-{source.name}"
    target.write_text("".join(lines), errors="surrogateescape")
    return target


@pytest.mark.parametrize("edit", ["inner", "root", "root-late"])
@pytest.mark.parametrize(
    "folder", ["thicket-tutorial/lulesh-strong-weak", "hatchet/caliper-lulesh-cali"]
)
def test_nodes_met_before_or_without_their_records_give_the_graphframe_paths_rows(
    folder: str, edit: str, tmp_path: Path
) -> None:
    import hatchet as ht

    require(folder)
    source = sorted(data_root(folder).rglob("*.cali"))[0]
    f = _edited(source, tmp_path, edit)
    simple = caliper.read_simple(f)
    assert simple is not None
    item = _item(f)
    try:
        gf = ht.GraphFrame.from_caliperreader(str(f))
    except IndexError:  # UMD's reader cannot make a root of a path's first region
        assert distribution() == "umd" and edit != "inner"
        assert caliper_rows.caliper_rows(simple, metadata=None, source="", content_hash="0") is None
        assert isinstance(sources.read_item(item, "mean"), sources.Skipped)
        return
    ours = caliper_rows.caliper_rows(
        simple, metadata=item.metadata, source=item.source, content_hash=item.content_hash
    )
    assert ours is not None  # read straight from the records
    _assert_same_rows(ours, _graphframe_rows(gf, item, "mean", False), f"{edit} {source}")
    valued = ours.nodes["key"].isin(ours.values["key"])
    assert (~valued).sum() == (edit != "root-late"), "the edit leaves one node without a value"
