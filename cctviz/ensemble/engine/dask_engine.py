"""The same reductions as duckdb_engine.py on a Dask cluster (``distributed``): a ``LocalCluster``
on one machine, or a cluster from ``dask-jobqueue`` on SLURM, reading the store from a shared file
system. Each partition of the values is reduced to partial aggregates (count, sum, min, max, and for
the variance sums of the values shifted by their node's minimum) that Dask merges; percentiles and
the median are exact too: the values of each node are gathered by a shuffle and their quantile taken
as pandas does (a sketch would be approximate; exact is affordable)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..store.store import Tables
from . import reducers as red


class DaskEngine:
    """Reductions of one store on the cluster of ``client`` (a ``distributed.Client``)."""

    def __init__(self, client: Any, tables: Tables) -> None:
        if not hasattr(client, "submit") or not hasattr(client, "scheduler_info"):
            raise TypeError(
                "engine= takes a dask.distributed Client (or None / 'duckdb' for the embedded "
                f"engine); got {type(client).__name__}"
            )
        self.client = client
        self.tables = tables

    def _values(self, metric: str, profiles: Any) -> Any:
        import dask.dataframe as dd

        files = self.tables.snapshot().files("values")  # the committed batches' files
        frame = dd.read_parquet(files, columns=["profile", "key", metric])
        if profiles:
            frame = frame[frame["profile"].isin(list(profiles))]
        return frame[frame[metric].notnull()]

    def reduce(self, metric: str, reducers: tuple[str, ...], profiles: Any) -> pd.DataFrame:
        if profiles == ():
            profiles = None
        frame = self._values(metric, profiles)
        grouped = frame.groupby("key")[metric]
        stats = grouped.agg(["count", "sum", "min", "max", "mean"]).compute()
        if "std" in reducers:
            stats["std"] = self._std(frame, metric, stats)
        wanted = [red.quantile(r) for r in reducers] + ([0.5] if "median" in reducers else [])
        quantiles = sorted({q for q in wanted if q is not None})
        if quantiles:
            qs = grouped.apply(
                lambda s: pd.Series([s.quantile(q) for q in quantiles], index=quantiles),
                meta=(metric, "f8"),
            ).compute()
            per_q = qs.unstack() if isinstance(qs.index, pd.MultiIndex) else pd.DataFrame(qs)
        out = pd.DataFrame(index=stats.index)
        out["count"] = stats["count"].astype(np.int64)
        for r in reducers:
            q = 0.5 if r == "median" else red.quantile(r)
            if q is not None:
                out[r] = per_q[q].reindex(stats.index)
            elif r == "imbalance":
                out[r] = stats["max"] / stats["mean"].replace(0, np.nan)
            elif r == "count":
                out[r] = stats["count"].astype(np.int64)
            else:
                out[r] = stats[r]
        return out.rename_axis("key").reset_index()

    @staticmethod
    def _std(frame: Any, metric: str, stats: pd.DataFrame) -> pd.Series:
        """The sample standard deviation from partial sums of the values shifted by their node's
        minimum: unshifted sums of squares cancel (identical values gave 4e-14, not 0); shifted,
        identical values give exactly 0 and the rest agree with DuckDB's Welford to ~1e-12."""
        shift = frame["key"].map(stats["min"], meta=("key", "f8"))
        d = (frame[metric] - shift).to_frame("d")
        d["d2"] = d["d"] * d["d"]
        d["key"] = frame["key"]
        sums = d.groupby("key")[["d", "d2"]].sum().compute().reindex(stats.index)
        n = stats["count"].astype(np.float64)
        var = (sums["d2"] - sums["d"] * sums["d"] / n) / (n - 1)
        return np.sqrt(var.clip(lower=0)).where(n > 1)
