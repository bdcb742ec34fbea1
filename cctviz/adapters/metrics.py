"""Which dataframe columns are metrics, whether each is inclusive or exclusive, and their pairs.

The readers' own lists are not trusted blindly: LLNL's HPCToolkit v4 reader lists the string
column ``name`` among ``exc_metrics``, Thicket's ``default_metric`` can name a column that does not
exist, and the two Hatchet distributions name the same Caliper metrics differently. So a metric is
a *numeric* column; the readers' lists only say which numeric columns are metrics and of what kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_complex_dtype, is_numeric_dtype

from ..table import NodeTable

# Numeric columns that readers add as identifiers or source positions, not measurements.
# Used only when a reader lists no metric at all.
IDENTIFIER_COLUMNS = frozenset(
    {"nid", "_hatchet_nid", "line", "rank", "thread", "profile", "depth", "node", "pid", "tid"}
)

# How the readers mark an inclusive column: "time (inc)" (HPCToolkit, cProfile, LLNL timemory),
# "x.inc" (UMD timemory), "inclusive#..." / "...#inclusive#..." (Caliper, UMD names).
_INCLUSIVE_MARKS = (
    re.compile(r"\s*\(inc\)$"),
    re.compile(r"\.inc$"),
    re.compile(r"(^|#)inclusive#"),
)


def is_numeric_column(series: pd.Series) -> bool:
    """True for int/float columns (not booleans, complex numbers or objects)."""
    dtype = series.dtype
    return is_numeric_dtype(dtype) and not is_bool_dtype(dtype) and not is_complex_dtype(dtype)


def exclusive_name(name: str) -> str:
    """The name an inclusive metric's exclusive partner would have (``name`` if none applies)."""
    for mark in _INCLUSIVE_MARKS:
        stripped = mark.sub(lambda m: m.group(1) if m.groups() else "", name, count=1)
        if stripped != name:
            return stripped
    return name


def discover(
    df: pd.DataFrame, exc_listed: Iterable[str], inc_listed: Iterable[str]
) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """Return ``(metric columns, kind per metric, partner per metric)``.

    ``kind`` is ``"exclusive"``, ``"inclusive"`` or ``"other"``; ``partner`` maps an exclusive
    metric to its inclusive partner and back (``time`` <-> ``time (inc)``).
    """
    exc = [c for c in dict.fromkeys(exc_listed) if c in df.columns]
    inc = [c for c in dict.fromkeys(inc_listed) if c in df.columns]
    complex_ = [c for c in dict.fromkeys([*exc, *inc]) if is_complex_dtype(df[c].dtype)]
    if complex_:
        raise ValueError(
            f"metric columns {complex_} hold complex numbers; cctviz draws real values: replace "
            "them with their magnitude or real part (e.g. df[c] = df[c].abs())"
        )
    numeric = [c for c in df.columns if is_numeric_column(df[c])]
    listed = [c for c in dict.fromkeys([*exc, *inc]) if c in set(numeric)]
    metrics = listed or [c for c in numeric if str(c) not in IDENTIFIER_COLUMNS]

    kind: dict[str, str] = {}
    for c in metrics:
        if c in inc and c not in exc:
            kind[c] = "inclusive"
        elif c in exc and c not in inc:
            # A reader may list an inclusive-looking column as exclusive (LLNL lists all Caliper
            # aliases as exclusive); its name decides only when a partner exists, below.
            kind[c] = "exclusive"
        else:
            kind[c] = "other"

    partner: dict[str, str] = {}
    by_name = {str(c): c for c in metrics}
    for c in metrics:
        base = exclusive_name(str(c))
        if base != str(c) and base in by_name and by_name[base] not in partner:
            e = by_name[base]
            partner[e], partner[c] = c, e
            kind[e], kind[c] = "exclusive", "inclusive"
    return metrics, kind, partner


def default_pair(
    metrics: Sequence[str],
    kind: Mapping[str, str],
    partner: Mapping[str, str],
    default_metric: str | None,
    values: Mapping[str, int] | None = None,
) -> tuple[str, str]:
    """Default (colour, size) metrics: an exclusive metric for colour, its inclusive partner for
    size, preferring the reader's ``default_metric`` (or its partner) when it is a real metric.

    ``values`` (nodes with a value, per metric) sets aside metrics measured on few nodes: a
    Caliper ``max#...`` column with a value on 1 node of 53 would colour every other node "no
    value" and give a legend of one number. A metric is kept when it has values on at least
    two nodes and a tenth as many as the best-covered metric; the exclusive metric with an
    inclusive partner and the most values wins unless the reader's default qualifies."""
    if not metrics:
        raise ValueError("the profile has no numeric metric column to draw")
    shown = [m for m in metrics if m != ""]  # the front end reads "" as "no metric"
    if not shown:
        raise ValueError(
            "the profile's only metric column has an empty name; rename it, e.g. "
            "gf.dataframe.rename(columns={'': 'time'}, inplace=True)"
        )
    count = values or {}
    best = max((count.get(m, 0) for m in shown), default=0)
    pool = [m for m in shown if count.get(m, 0) >= max(2, best / 10)] or shown
    preferred = default_metric if default_metric in pool else None
    if (
        preferred is not None
        and kind.get(preferred) == "inclusive"
        and partner.get(preferred) in pool
    ):
        preferred = partner[preferred]
    paired = [m for m in pool if kind[m] == "exclusive" and m in partner]
    if preferred is not None and (preferred in partner or not paired):
        colour = preferred
    else:
        colour = max(paired or pool, key=lambda m: count.get(m, 0))  # the first of equals
    size = partner.get(colour, colour)
    return colour, (size if size in pool else colour)


def table_defaults(table: NodeTable, reader_default: object = None) -> tuple[str, str]:
    """``default_pair`` for a node table: its metrics' kinds, partners and values per metric."""
    m = table.metrics
    kinds = {k: v.kind for k, v in m.items()}
    partners = {k: v.partner for k, v in m.items() if v.partner}
    values = {k: int(np.count_nonzero(~np.isnan(v.values))) for k, v in m.items()}
    reader = str(reader_default) if reader_default is not None else None
    return default_pair(list(m), kinds, partners, reader, values)
