"""Per-node summaries kept at ingest: the ``sums`` table.

Each write of the values (``commit.append``) also writes, for every node key and metric of those
rows, the ``count`` of values, their ``sum``, ``min`` and ``max``, and ``m2``: the sum of squared
deviations from the part's own mean (Welford's and Chan's form: the "sum of squares" shifted by
the mean, so a standard deviation of values near 10⁶ keeps its digits). The rows carry the batch
of the add, like every other table, and are committed with it.

A reduction whose reducers are all of ``SUMMARISED`` (mean, std, min, max, sum, imbalance, count)
reads, for each batch that has summaries and whose profiles the filter keeps whole, these rows
instead of every value: the partial results merge exactly (Chan et al., "Updating formulae and a
pairwise algorithm for computing sample variances", 1979):

    n = Σ nᵢ,   mean = Σ sumᵢ / n,   M2 = Σ m2ᵢ + Σ nᵢ (meanᵢ − mean)²,   std = √(M2 / (n − 1))

Medians and percentiles are exact order statistics: they always read the values. A batch written
before the summaries existed (or by an older cctviz) has none: its values are read, so a store of
any age answers the same numbers.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from .ids import ID_COLUMNS as VALUE_IDS
from .store import BATCH

SUMMARISED = frozenset(("mean", "std", "min", "max", "sum", "imbalance", "count"))
ID_COLUMNS = frozenset((*VALUE_IDS, BATCH))
COLUMNS = ("key", "metric", "count", "sum", "m2", "min", "max")


def summaries(values: pa.Table) -> pa.Table:
    """One row per (node key, metric) holding a value in ``values`` (the Arrow table written to
    the values table: ``key`` and one float64 column per metric)."""
    parts = []
    for name in values.column_names:
        if name in ID_COLUMNS:
            continue
        grouped = values.select(["key", name]).group_by("key")
        got = grouped.aggregate(
            [
                (name, "count"),
                (name, "sum"),
                (name, "min"),
                (name, "max"),
                (name, "variance", pc.VarianceOptions(ddof=0)),
            ]
        )
        got = got.filter(pc.greater(got[f"{name}_count"], 0))
        count = got[f"{name}_count"]
        parts.append(
            pa.table(
                {
                    "key": got["key"].cast(pa.int64()),
                    "metric": pa.array([name] * len(got), pa.string()),
                    "count": count.cast(pa.int64()),
                    "sum": got[f"{name}_sum"].cast(pa.float64()),
                    # population variance × n: the squared deviations from the part's mean
                    "m2": pc.multiply(got[f"{name}_variance"], count.cast(pa.float64())),
                    "min": got[f"{name}_min"].cast(pa.float64()),
                    "max": got[f"{name}_max"].cast(pa.float64()),
                }
            )
        )
    if not parts:
        return empty()
    return pa.concat_tables(parts)


def empty() -> pa.Table:
    return pa.table(
        {
            "key": pa.array([], pa.int64()),
            "metric": pa.array([], pa.string()),
            **{c: pa.array([], pa.int64() if c == "count" else pa.float64()) for c in COLUMNS[2:]},
        }
    )


def merged_sql(parts: str, reducers: tuple[str, ...]) -> str:
    """DuckDB SQL merging ``parts`` (a relation of summary rows: ``key``, ``count``, ``sum``,
    ``m2``, ``min``, ``max``) into one row per key: ``key``, ``count`` and one column per reducer
    (all of ``SUMMARISED``)."""
    merged = {
        "mean": "t.mean",
        "sum": "t.total",
        "min": "min(s.min)",
        "max": "max(s.max)",
        "count": "t.n",
        "imbalance": "max(s.max) / nullif(t.mean, 0)",
        # Chan's merge of the parts' squared deviations; one value has none: NULL, as DuckDB's
        # stddev_samp gives
        "std": "CASE WHEN t.n > 1 THEN sqrt(greatest((sum(s.m2) + "
        "sum(s.count * (s.sum / s.count - t.mean) * (s.sum / s.count - t.mean))) / (t.n - 1), "
        "0)) END",
    }
    columns = ", ".join(f'{merged[r]} AS "{r}"' for r in reducers)
    return (
        f"WITH s AS ({parts}), "
        "t AS (SELECT key, sum(count)::BIGINT AS n, sum(sum) AS total, "
        "sum(sum) / sum(count) AS mean FROM s GROUP BY key) "
        f"SELECT s.key, t.n AS count, {columns} FROM s JOIN t ON s.key = t.key "
        "GROUP BY s.key, t.n, t.mean, t.total"
    )


def value_parts(source: str, column: str, conditions: str) -> str:
    """DuckDB SQL of the summary rows of values read as they are: ``column`` (a quoted metric) of
    ``source`` (the values table) per key, where ``conditions`` (``AND ...``) hold."""
    return (
        f"SELECT key, count({column}) AS count, sum({column}) AS sum, "
        f"var_pop({column}) * count({column}) AS m2, min({column}) AS min, "
        f"max({column}) AS max FROM {source} WHERE {column} IS NOT NULL {conditions} GROUP BY key"
    )
