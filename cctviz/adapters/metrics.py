"""Which dataframe columns are metrics, whether each is inclusive or exclusive, and their pairs.

The readers' own lists are not trusted blindly: LLNL's HPCToolkit v4 reader lists the string
column ``name`` among ``exc_metrics``, Thicket's ``default_metric`` can name a column that does not
exist, and the two Hatchet distributions name the same Caliper metrics differently. So a metric is
a *numeric* column; the readers' lists only say which numeric columns are metrics and of what kind.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_complex_dtype, is_numeric_dtype

from ..core.table import NodeTable
from . import semantics

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
    df: pd.DataFrame, exc_listed: Iterable[str], inc_listed: Iterable[str], data: Any = None
) -> tuple[list[Any], dict[Any, str], dict[Any, Any], dict[Any, semantics.Decision]]:
    """Return ``(metric columns, kind per metric, partner per metric, decision per metric)``.

    ``kind`` is ``"exclusive"``, ``"inclusive"``, ``"ratio"``, ``"max"`` or ``"other"``, decided
    from the data's own semantics where it has them (:mod:`cctviz.adapters.semantics`), else from
    the reader's lists; ``partner`` maps an exclusive metric to its inclusive partner and back
    (``time`` <-> ``time (inc)``); ``data`` (the GraphFrame or Thicket) gives the metadata.
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

    reader: dict[Any, str] = {}
    for c in metrics:
        if c in inc and c not in exc:
            reader[c] = "inclusive"
        elif c in exc and c not in inc:
            reader[c] = "exclusive"
        else:
            reader[c] = "other"

    partner: dict[Any, Any] = {}
    by_name = {str(c): c for c in metrics}
    for c in metrics:
        base = exclusive_name(str(c))
        if base != str(c) and base in by_name and by_name[base] not in partner:
            e = by_name[base]
            partner[e], partner[c] = c, e
            reader[e], reader[c] = "exclusive", "inclusive"
    decisions = semantics.decide(data, df, metrics, reader, dict(partner))
    kind = {c: decisions[c].kind for c in metrics}
    # Caliper statistics whose names differ only by inclusive# pair up (through aliases too):
    # `Avg time/rank (exc)` (avg#sum#sum#time.duration) with `Avg time/rank`
    keyed: dict[tuple[str, str], Any] = {}
    for c in metrics:
        if decisions[c].caliper and c not in partner and kind[c] in ("exclusive", "inclusive"):
            keyed.setdefault((semantics.pair_key(decisions[c].caliper), kind[c]), c)
    for (key, k), c in keyed.items():
        other = keyed.get((key, "inclusive"))
        if k == "exclusive" and other is not None:
            partner[c], partner[other] = other, c
    for c in list(partner):  # a pair holds only where the data says exclusive and inclusive
        other = partner.get(c)
        if other is not None and {kind[c], kind[other]} != {"exclusive", "inclusive"}:
            partner.pop(c)
            partner.pop(other, None)
    return metrics, kind, partner, decisions


_TIME = re.compile(r"time|duration|\bsec\b|\(s\)|\(sec\)|\(usec\)|seconds|walltime", re.I)
_NOT_TIME = re.compile(r"count|bytes|\(b\)|:h2d|:d2h|flops|iterations|\breps\b", re.I)
_STATISTIC = (  # which of a per-rank statistic's columns to show first: the mean, then the sum
    (re.compile(r"(^|\W|_)(avg|mean|average)(\W|_|#|$)", re.I), 2),
    (re.compile(r"(^|\W|_)(sum|total)(\W|_|#|$)", re.I), 1),
    (re.compile(r"(^|\W|_)(min|max|std|var)(\W|_|#|$)", re.I), 0),
)


_COMPANION = re.compile(r" (\((mean|sum|min|max)\)|\[(mean|sum|min|max)\])$")
"""The suffix of a size companion (adapters.rows.companion_name): "x (mean)" is x's statistic."""


def _statistic(name: str) -> int:
    name = _COMPANION.sub("", name)
    for pattern, rank in _STATISTIC:
        if pattern.search(name):
            return rank
    return 1


def default_pair(
    metrics: Sequence[str],
    kind: Mapping[str, str],
    partner: Mapping[str, str],
    default_metric: str | None,
    values: Mapping[str, int] | None = None,
    totals: Mapping[str, float] | None = None,
) -> tuple[str, str]:
    """Default (colour, size) metrics: an exclusive metric for colour, its inclusive partner for
    size; without one, an inclusive metric for both.

    The choice never depends on the order readers list metrics in (UMD hatchet's HPCToolkit
    reader lists them in set order, which changes from one interpreter start to the next): among
    the metrics measured on enough nodes (at least two, and a tenth as many as the best-covered
    metric: a Caliper ``max#...`` column with a value on 1 node of 53 would colour every other
    node "no value"), it prefers, in this order, an exclusive metric with an inclusive partner,
    a time over counts and bytes, a mean over a sum over a minimum or maximum (``Avg
    time/rank`` before ``Min time/rank``), the reader's ``default_metric`` (or its partner), the
    most nodes with a value, then the data: the largest ``totals`` (each metric's inclusive
    total at the roots: its own, or its inclusive partner's; two GPU times with partners, ``GKER
    (sec)`` and ``GXCOPY (sec)``, tie on everything else), and last the name in sorted order."""
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
    preferred = {default_metric, partner.get(default_metric or "", None)} - {None}
    additive = [m for m in pool if kind.get(m) in ("exclusive", "inclusive")] or pool

    total = totals or {}

    def score(m: str) -> tuple[int, int, int, int, int, int, float]:
        return (
            int(kind.get(m) == "exclusive" and partner.get(m) in pool),
            int(kind.get(m) in ("exclusive", "inclusive")),
            int(bool(_TIME.search(m)) and not _NOT_TIME.search(m)),
            _statistic(m),
            int(m in preferred),
            count.get(m, 0),
            total.get(m, -np.inf),
        )

    colour = sorted(sorted(additive), key=score, reverse=True)[0]  # sorted: ties by name
    size = partner.get(colour, colour)
    return colour, (size if size in pool else colour)


def table_defaults(table: NodeTable, reader_default: object = None) -> tuple[str, str]:
    """``default_pair`` for a node table: its metrics' kinds, partners and values per metric."""
    m = table.metrics
    kinds = {k: v.kind for k, v in m.items()}
    partners = {k: v.partner for k, v in m.items() if v.partner}
    values = {k: int(np.count_nonzero(~np.isnan(v.values))) for k, v in m.items()}
    reader = str(reader_default) if reader_default is not None else None
    return default_pair(list(m), kinds, partners, reader, values, root_totals(table))


def root_totals(table: NodeTable) -> dict[str, float]:
    """Each metric that adds up: its inclusive total at the roots (an exclusive metric: its
    inclusive partner's); NaN-free, -inf where there is none."""
    out: dict[str, float] = {}
    roots = np.asarray(table.roots, dtype=np.intp)
    for name, metric in table.metrics.items():
        inclusive = metric if metric.kind == "inclusive" else None
        other = table.metrics.get(metric.partner or "")
        if metric.kind == "exclusive" and other is not None:
            inclusive = other if other.kind == "inclusive" else None
        if inclusive is None or not roots.size:
            continue
        at = inclusive.values[roots]
        at = at[np.isfinite(at)]
        if at.size:
            out[name] = float(at.sum())
    return out
