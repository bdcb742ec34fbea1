"""``CCT(ens)`` builds its node table from the engine's rows (``from_rows``), not through a
Hatchet GraphFrame and back (issue 55): the table is the one the round trip gave — the same
tree, names, metrics, kinds, rules and values, companions of ``size_reducer`` included — on a
real ensemble (five Caliper runs of an MPI scaling study) and a synthetic one, and no GraphFrame
is made on the way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import cctviz
from cctviz.adapters.graphframe import from_graphframe
from cctviz.core.table import NodeTable
from cctviz.ensemble.analysis.graphframe import PROFILES, to_graphframe
from cctviz.widget.ensemble.table import ensemble_table

from .profiles import data_root, require

KINDS = {PROFILES: "max"}  # as CCT declares it


def _round_trip(
    ens: cctviz.Ensemble, reducer: str, size: str | None
) -> tuple[NodeTable, NodeTable | None]:
    """The tables as CCT(ens) built them before: a GraphFrame per reducer, read back (the size
    reducer's: None when there is none)."""
    table = from_graphframe(to_graphframe(ens, reducer), reducer="mean", metric_kinds=KINDS)
    if size is None or size == reducer:
        return table, None
    return table, from_graphframe(to_graphframe(ens, size), reducer="mean", metric_kinds=KINDS)


def _same_tree(a: NodeTable, b: NodeTable) -> None:
    assert a.size == b.size
    assert np.array_equal(a.parent, b.parent) and np.array_equal(a.depth, b.depth)
    assert [a.name(i) for i in range(a.size)] == [b.name(i) for i in range(b.size)]
    assert [n.frame for n in a.nodes] == [n.frame for n in b.nodes]
    assert np.array_equal(a.hatchet_nid, b.hatchet_nid)


def _same_metric(a: NodeTable, b: NodeTable, name: str, other: str | None = None) -> None:
    m, n = a.metrics[name], b.metrics[other or name]
    assert (m.kind, m.base_kind) == (n.kind, n.base_kind), name
    assert np.allclose(m.values, n.values, equal_nan=True, rtol=1e-12), name


def _stores(tmp_path: Path) -> list[cctviz.Ensemble]:
    synthetic = cctviz.examples.ensemble(tmp_path / "synthetic", 12, 300, seed=3)
    require("thicket/mpi_scaling_cali")
    real = cctviz.Ensemble(tmp_path / "mpi")
    real.add(sorted(data_root("thicket/mpi_scaling_cali").rglob("*.cali")), progress=False)
    return [synthetic, real]


@pytest.mark.parametrize(("reducer", "size"), [("mean", None), ("median", "mean"), ("max", None)])
def test_the_table_from_the_engines_rows_is_the_round_trips(
    reducer: str, size: str | None, tmp_path: Path
) -> None:
    for ens in _stores(tmp_path / reducer):
        direct = ensemble_table(ens, reducer, size, KINDS)
        table, other = _round_trip(ens, reducer, size)
        _same_tree(direct, table)
        assert direct.reducer == reducer and direct.reduced_over == ("profile",)
        own = [m for m in direct.metrics if not m.endswith(f"({size})")]
        assert set(own) == set(table.metrics)
        for name in own:
            m, n = direct.metrics[name], table.metrics[name]
            assert (m.partner, m.rule) == (n.partner, n.rule) or m.rule == "reducer", name
            if m.rule != "reducer":
                _same_metric(direct, table, name)
            else:  # the reducer decided it after the table was read: the values are the same
                assert np.allclose(m.values, n.values, equal_nan=True, rtol=1e-12), name
        if other is not None:
            companions = [m for m in direct.metrics if m.endswith(f" ({size})")]
            assert companions, "the size reducer's companions are in the table"
            for name in companions:
                _same_metric(direct, other, name, name.removesuffix(f" ({size})"))


def test_no_graphframe_is_made_on_the_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hatchet

    ens = cctviz.examples.ensemble(tmp_path / "s", 8, 200, seed=1)

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("CCT(ens) made a GraphFrame")

    monkeypatch.setattr(hatchet.GraphFrame, "__init__", refused)
    w = cctviz.CCT(ens, reducer="median")
    assert w.table.size > 0 and "time (inc) (mean)" in w.metrics  # the companion of size
    with pytest.raises(AssertionError, match="made a GraphFrame"):
        ens.to_graphframe()  # the way to Hatchet for scripting still makes one
