"""Each value row carries its profile's code (cctviz.ensemble.store.ids): trends and change
screens look values up by code where every file has codes and no two profiles share one, and by
id elsewhere (adds written before codes, a collision), with the same numbers either way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

import cctviz
from cctviz.ensemble.store import commit, ids


def _store(path: Path) -> cctviz.Ensemble:
    return cctviz.examples.ensemble(path, 40, 30, seed=5)


def _trends(ens: cctviz.Ensemble) -> pd.DataFrame:
    root = int(ens.nodes.index[0])
    parts = [ens.trend(root, m, children=True) for m in ("time", "time (inc)")]
    parts.append(ens.trend(root, "time (inc)", by="jobsize", reducer="median"))
    return pd.concat(parts, ignore_index=True)


def test_every_value_row_holds_its_profiles_code(tmp_path: Path) -> None:
    ens = _store(tmp_path / "s")
    engine = ens._engine()
    snap = engine.snap()  # type: ignore[attr-defined]
    for file in snap.files("values"):
        table = pq.read_table(file, columns=["profile", ids.CODE])
        want = ids.codes(table.column("profile").to_pylist())
        np.testing.assert_array_equal(table.column(ids.CODE).to_numpy(), want)
    assert engine.coded(snap)  # type: ignore[attr-defined]
    assert ids.CODE not in ens.metrics.index  # an id, never a metric
    assert ids.CODE not in ens.reduce("time", ("mean",)).columns
    batch = next(engine.batches("time", ()))  # type: ignore[attr-defined]
    assert batch.schema.field("profile").type == "int64"


def test_values_without_codes_and_colliding_codes_give_the_same_trends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    want = _trends(_store(tmp_path / "coded"))
    # an add written before codes existed: its value files lack the column
    monkeypatch.setattr(commit, "coded", lambda table: table)
    old = _store(tmp_path / "old")
    assert not old._engine().coded(old._engine().snap())  # type: ignore[attr-defined]
    batch = next(old._engine().batches("time", ()))  # type: ignore[attr-defined]
    assert batch.schema.field("profile").type == "string"
    pd.testing.assert_frame_equal(_trends(old), want)
    monkeypatch.undo()
    # every profile given one code: the codes are not relied on
    clash = _store(tmp_path / "clash")
    monkeypatch.setattr(ids, "_MEMO", [])
    monkeypatch.setattr(ids, "code", lambda profile: 7)
    monkeypatch.setattr(ids, "_codes", lambda given: np.full(len(given), 7, np.int64))
    fresh = cctviz.Ensemble(tmp_path / "clash", create=False)
    assert not fresh._engine().coded(fresh._engine().snap())  # type: ignore[attr-defined]
    pd.testing.assert_frame_equal(_trends(fresh), want)
    assert len(clash.profiles) == 40
