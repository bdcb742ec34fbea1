"""The reducers of an ensemble: how the values of one node over profiles are combined. The same
names in every engine (DuckDB, Dask) and the same definitions as pandas:

- ``mean``, ``sum``, ``min``, ``max``, ``median``;
- ``std``: the sample standard deviation (ddof = 1, as pandas and Thicket's stats);
- ``pNN``: the NN-th percentile, linear interpolation between values (pandas' ``quantile``
  default, DuckDB's ``quantile_cont``), e.g. ``p95``;
- ``imbalance``: max ÷ mean (1 = every profile the same);
- ``count``: profiles with a value of the metric at the node.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

NAMED = ("mean", "std", "min", "max", "median", "sum", "imbalance", "count")
DEFAULT = ("mean", "std", "min", "max", "median", "p95", "imbalance")
_PERCENTILE = re.compile(r"p(\d{1,2}(?:\.\d+)?)$")


def check(reducers: Iterable[str] | str) -> tuple[str, ...]:
    """The reducers asked for, checked; a clear error names what is accepted."""
    given = (reducers,) if isinstance(reducers, str) else tuple(reducers)
    if not given:
        raise ValueError(f"no reducer given; accepted: {', '.join(NAMED)} and pNN (e.g. p95)")
    for r in given:
        if not isinstance(r, str) or (r not in NAMED and quantile(r) is None):
            raise ValueError(
                f"unknown reducer {r!r}; accepted: {', '.join(NAMED)} and pNN, a percentile "
                "from p0 to p99.9 (e.g. p95)"
            )
    return given


def quantile(reducer: str) -> float | None:
    """0.95 for ``p95``; None for a reducer that is no percentile."""
    match = _PERCENTILE.match(reducer)
    if not match:
        return None
    q = float(match.group(1)) / 100
    return q if 0 <= q < 1 else None


def sql(reducer: str, column: str) -> str:
    """The DuckDB aggregate of ``reducer`` over ``column`` (a quoted column name)."""
    q = quantile(reducer)
    if q is not None:
        return f"quantile_cont({column}, {q!r})"
    return {
        "mean": f"avg({column})",
        "std": f"stddev_samp({column})",
        "min": f"min({column})",
        "max": f"max({column})",
        "median": f"quantile_cont({column}, 0.5)",
        "sum": f"sum({column})",
        "imbalance": f"max({column}) / nullif(avg({column}), 0)",
        "count": f"count({column})",
    }[reducer]


def quote(name: str) -> str:
    """A column name as a DuckDB identifier."""
    return '"' + name.replace('"', '""') + '"'
