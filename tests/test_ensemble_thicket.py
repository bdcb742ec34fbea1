"""cctviz.Ensemble against Thicket, the reference for ensembles (LLNL's llnl-thicket; skipped in
the UMD environment): per-node statistics over the profiles equal Thicket's own, node by node
matched by call path, for files added by path and for a Thicket added whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import cctviz

from .profiles import data_root, require

th = pytest.importorskip("thicket", reason="Thicket needs llnl-thicket (the LLNL test environment)")

ENSEMBLES = [
    "thicket/mpi_scaling_cali",
    "thicket/XL_BaseCuda",
    "thicket-tutorial/lulesh-strong-weak",
]


def _thicket(folder: str) -> tuple[list[Path], Any]:
    require(folder, "thicket")
    files = sorted(data_root(folder).rglob("*.cali"))
    return files, th.Thicket.from_caliperreader([str(f) for f in files], disable_tqdm=True)


def _path(node: Any) -> tuple[str, ...]:
    names = []
    while node is not None:
        names.append(str(node.frame.get("name")))
        node = node.parents[0] if node.parents else None
    return tuple(reversed(names))


def _thicket_stats(tk: Any, metric: str) -> pd.DataFrame:
    """Thicket's per-node statistics of ``metric`` over its profiles (thicket.stats)."""
    th.stats.mean(tk, columns=[metric])
    th.stats.std(tk, columns=[metric])
    th.stats.minimum(tk, columns=[metric])
    th.stats.maximum(tk, columns=[metric])
    th.stats.median(tk, columns=[metric])
    stats = tk.statsframe.dataframe
    out = pd.DataFrame(
        {
            "mean": stats[f"{metric}_mean"].to_numpy(),
            "std": stats[f"{metric}_std"].to_numpy(),
            "min": stats[f"{metric}_min"].to_numpy(),
            "max": stats[f"{metric}_max"].to_numpy(),
            "median": stats[f"{metric}_median"].to_numpy(),
        },
        index=pd.Index([_path(n) for n in stats.index], tupleize_cols=False),
    )
    return out[out["mean"].notna()]


@pytest.mark.parametrize("folder", ENSEMBLES)
def test_statistics_equal_thickets(folder: str, tmp_path: Path) -> None:
    files, tk = _thicket(folder)
    ens = cctviz.Ensemble(tmp_path / "store")
    assert ens.add(files, progress=False) == len(files)
    measured = [m for m in ens.metrics.index if "(derived)" not in m and m in tk.dataframe]
    assert measured
    for metric in measured[:3]:
        ref = _thicket_stats(tk, metric)
        assert ref.index.is_unique
        got = ens.reduce(metric, ("mean", "std", "min", "max", "median")).set_index("path")
        assert set(got.index) == set(ref.index), metric
        got = got.loc[ref.index]
        for r in ref.columns:
            np.testing.assert_allclose(
                got[r], ref[r], rtol=1e-9, equal_nan=True, err_msg=f"{metric} {r}"
            )


def test_a_thicket_added_whole_keeps_its_metadata_and_numbers(tmp_path: Path) -> None:
    files, tk = _thicket("thicket/mpi_scaling_cali")
    by_path = cctviz.Ensemble(tmp_path / "a")
    by_path.add(files, progress=False)
    whole = cctviz.Ensemble.from_thicket(tk, tmp_path / "b", progress=False)
    assert len(whole) == len(tk.profile)
    assert "thicket_profile" in whole.profiles
    assert set(whole.profiles["mpi.world.size"]) == set(tk.metadata["mpi.world.size"])
    metric = "Avg time/rank"
    a = by_path.reduce(metric, ("mean", "max")).set_index("path")
    b = whole.reduce(metric, ("mean", "max")).set_index("path")
    assert set(a.index) == set(b.index)
    np.testing.assert_allclose(b.loc[a.index, "mean"], a["mean"], rtol=1e-12)
    assert whole.add(tk, progress=False) == 0  # the same profiles again


def test_to_thicket_gives_thickets_stats_the_ensembles_numbers(tmp_path: Path) -> None:
    files, _ = _thicket("thicket/mpi_scaling_cali")
    ens = cctviz.Ensemble(tmp_path / "store")
    ens.add(files, progress=False)
    sizes = sorted(ens.profiles["mpi.world.size"])
    cut = sizes[len(sizes) // 2]
    where = f'"mpi.world.size" <= {cut}'
    tk = ens.to_thicket(where=where)
    sub = ens.where(where)
    assert len(tk.profile) == len(sub) and set(tk.metadata["cctviz_profile"]) == set(
        sub.profiles.index
    )
    assert set(tk.metadata["mpi.world.size"]) == {s for s in sizes if s <= cut}
    metric = "Avg time/rank"
    ref = _thicket_stats(tk, metric)
    got = sub.reduce(metric, ("mean", "std", "min", "max", "median")).set_index("path")
    assert set(got.index) == set(ref.index)
    for r in ref.columns:
        np.testing.assert_allclose(
            got.loc[ref.index, r], ref[r], rtol=1e-12, equal_nan=True, err_msg=r
        )
    with pytest.raises(ValueError, match="no profile passes"):  # a WhereError: nobody passes
        ens.to_thicket(where='"mpi.world.size" < 0')
