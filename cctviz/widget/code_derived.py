"""``CCT.to_code``'s lines for derived metrics (``CCT.derive``): pandas code that adds each one
to the rebuilt profile's dataframe as a column holding the values the view shows.

A derived metric is computed from each node's values, its rows (ranks, threads, profiles) combined
by the reducer first. With one row per node the code is the expression over the dataframe's
columns; with several it combines each node's rows as the view does (pandas' groupby, threads
added up within a rank first under ``std`` and ``imbalance``), computes the expression per node,
and gives each row its node's value. A zero denominator gives NaN, as in the view
(``nonzero``)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..adapters.reduce import COMPARES_RANKS
from ..analysis.derive import Definition
from ..core.expression import to_pandas
from ..core.table import NodeTable

NONZERO = [
    "def nonzero(values):",
    "    # a zero denominator gives NaN (no value), as in the view",
    "    return values.where(values != 0)",
]


def _combine(reducer: str | None, grouped: str) -> str:
    """The pandas that combines each node's rows (``grouped``: by node) as ``reducer`` does."""
    if reducer == "sum":
        return f"{grouped}.sum(min_count=1)"
    if reducer == "imbalance":  # max ÷ mean, as cctviz.adapters.reduce
        return f"{grouped}.max() / {grouped}.mean()"
    return f"{grouped}.{reducer or 'mean'}()"


def lines(table: NodeTable, data: Any, definitions: dict[str, Definition], frame: str) -> list[str]:
    """The lines that add ``definitions`` to ``frame`` (the rebuilt profile's name); none when
    there are no derived metrics."""
    if not definitions:
        return []
    df = getattr(data, "dataframe", None)
    columns = {str(c) for c in getattr(df, "columns", ())}
    done: set[str] = set()
    skipped: list[str] = []
    usable: list[Definition] = []
    for d in definitions.values():
        missing = [n for n in d.inputs if n not in columns and n not in done]
        if missing:
            skipped.append(
                f"# {d.name!r} is not computed here: it reads {', '.join(map(repr, missing))}, "
                "which no column of the profile holds (cctviz computes it)"
            )
            continue
        usable.append(d)
        done.add(d.name)
    out = [
        "",
        "",
        "# derived metrics (w.derive), per node from the values the view shows",
        *skipped,
    ]
    if not usable:
        return out
    out += ["", *NONZERO, "", ""]
    levels = [str(n) for n in getattr(df, "index", pd.Index([])).names if n != "node"]
    if not levels:  # one row per node: the expression over the columns
        for d in usable:
            code = to_pandas(d.tree, lambda n: f"{frame}.dataframe[{n!r}]")
            out.append(f"{frame}.dataframe[{d.name!r}] = {code}")
        return out
    own = list(dict.fromkeys(n for d in usable for n in d.inputs if n in columns))
    reducer = table.reducer
    rows = f"{frame}.dataframe[{own!r}]"
    if reducer in COMPARES_RANKS and len(levels) > 1:  # a rank's threads added up first
        out.append(f"ranks = {rows}.groupby(level={['node', levels[0]]!r}).sum(min_count=1)")
        rows = "ranks"
    grouped = f'{rows}.groupby(level="node")'
    out.append(f"# each node's rows combined by {reducer!r}, as the view does")
    out.append(f"nodes = {_combine(reducer, grouped)}")
    for d in usable:
        code = to_pandas(d.tree, lambda n: f"nodes[{n!r}]")
        out.append(f"nodes[{d.name!r}] = {code}")
    out.append(f'node_of_row = {frame}.dataframe.index.get_level_values("node")')
    out.append("# each row holds its node's value")
    for d in usable:
        out.append(
            f"{frame}.dataframe[{d.name!r}] = nodes[{d.name!r}].reindex(node_of_row).to_numpy()"
        )
    return out
