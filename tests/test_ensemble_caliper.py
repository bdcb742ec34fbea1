"""The store's own reading of Caliper files (cctviz.ensemble.store.caliper) gives, on every
``.cali`` file of ``../shared/data``, the very GraphFrame the installed Hatchet's
``from_caliperreader`` gives (graph, node ids, dataframe with its dtypes, metric lists, metadata)
and the same store rows; files of another shape are left to Hatchet. Runs under both Hatchet
distributions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from cctviz.ensemble.store import caliper
from cctviz.ensemble.store.profile import profile_rows

from .profiles import HAVE_SHARED, REQUIRE_SHARED, SHARED_DATA, distribution

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
