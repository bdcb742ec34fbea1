"""What the format readers' tests share: the fixtures' folder, a GraphFrame's values by call
path and at its roots, independent of the readers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "formats"


def rows(gf: Any) -> list[tuple[Any, dict[str, Any]]]:
    """(Hatchet node, row as a dict) for every dataframe row."""
    df = gf.dataframe
    out = []
    for index, row in zip(df.index, df.to_dict("records"), strict=True):
        out.append((index[0] if isinstance(index, tuple) else index, row))
    return out


def at_roots(gf: Any, column: str) -> float:
    """The sum of ``column`` over the rows of the graph's roots (every rank and thread)."""
    roots = {id(r) for r in gf.graph.roots}
    return sum(float(row[column]) for node, row in rows(gf) if id(node) in roots)


def names(node: Any) -> tuple[str, ...]:
    return tuple(str(n.frame["name"]) for n in node.path())
