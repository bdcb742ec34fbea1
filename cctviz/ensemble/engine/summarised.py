"""A reduction read from the per-node summaries kept at ingest (cctviz.ensemble.store.summary)
where they give the same numbers, and from the values elsewhere.

The filter decides per batch (an ``add``): a batch whose profiles it keeps all, and that has
summaries, is read from them (a few rows per node instead of one per profile); a batch it keeps
none of is not read at all; a batch it keeps part of, or that has no summaries (written before
them), has its values read, those of the kept profiles only. Both kinds of rows are merged by
``summary.merged_sql``. Medians and percentiles never come here: they read every value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from ..store.store import Snapshot
from ..store.summary import SUMMARISED, merged_sql, value_parts
from . import reducers as red
from .pruning import parquet

if TYPE_CHECKING:
    from .duckdb_engine import DuckEngine
    from .interface import KeyRange, Where


def applies(reducers: tuple[str, ...], snap: Snapshot) -> bool:
    """Whether a reduction by ``reducers`` can read summaries of this store."""
    return set(reducers) <= SUMMARISED and bool(snap.files("sums"))


def reduce(
    engine: DuckEngine,
    metric: str,
    reducers: tuple[str, ...],
    where: Where,
    keys: KeyRange | None,
    snap: Snapshot,
) -> pd.DataFrame:
    """``DuckEngine.reduce`` read from summaries where they apply (see the module's text)."""
    summed = {p.batch for p in snap.parts.get("sums", ())}
    if where:
        counts = engine.kept_per_batch(where, snap)
        whole = {b for b, (n, kept) in counts.items() if kept == n and b in summed}
        partial = {b for b, (_, kept) in counts.items() if kept and b not in whole}
    else:
        whole, partial = summed, set(snap.batches) - summed
    share = "AND key BETWEEN $low AND $high" if keys is not None else ""
    sums = parquet([p.path for p in snap.parts["sums"] if p.batch in whole], "sums")
    parts = f"SELECT key, count, sum, m2, min, max FROM {sums} WHERE metric = $metric {share}"
    held = [
        p.path
        for p in snap.parts["values"]
        if p.batch in partial and metric in engine.columns_of(p.path)
    ]
    if held:
        filter_ = f"AND profile IN ({engine.selected(where, snap)})" if where else ""
        same = all(engine.columns_of(f) == engine.columns_of(held[0]) for f in held[1:])
        read = value_parts(parquet(held, "values", same), red.quote(metric), f"{share} {filter_}")
        parts += f" UNION ALL {read}"
    more: dict[str, object] = {"metric": metric}
    if keys is not None:
        more.update(low=int(keys[0]), high=int(keys[1]))
    # the filter's parameters only where its values are read (DuckDB refuses unused ones)
    return engine.run_filtered(where if held else (), merged_sql(parts, reducers), more)
