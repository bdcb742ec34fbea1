"""What the tests of the JSON profile readers (speedscope, cpuprofile, trace events) share:
where their fixtures are, and the numbers a GraphFrame holds, read from its dataframe."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from cctviz.adapters.formats.calltree import KEY

DATA = Path(__file__).resolve().parent / "data" / "formats"


def rows(gf: Any) -> list[tuple[Any, tuple[Any, ...], dict[str, float]]]:
    """(node, (rank/thread…), {column: value}) for each row of the dataframe."""
    df = gf.dataframe
    out = []
    for key, (_, row) in zip(df.index, df.iterrows(), strict=True):
        node, levels = (key[0], tuple(key[1:])) if isinstance(key, tuple) else (key, ())
        out.append((node, levels, {c: row[c] for c in df.columns if c != "name"}))
    return out


def roots(gf: Any, column: str) -> dict[tuple[Any, ...], float]:
    """The sum of ``column`` over the roots, per rank/thread (``()`` with neither)."""
    out: dict[tuple[Any, ...], float] = defaultdict(float)
    for node, levels, values in rows(gf):
        if not node.parents:
            out[levels] += float(values[column])
    return dict(out)


def paths(gf: Any, column: str) -> dict[tuple[str, ...], float]:
    """Each call path (names, outermost first) → ``column`` summed over ranks and threads."""
    out: dict[tuple[str, ...], float] = defaultdict(float)
    for node, _, values in rows(gf):
        out[tuple(n.frame["name"] for n in node.path())] += float(values[column])
    return dict(out)


def pins(gf: Any) -> dict[str, list[Any]]:
    return dict(json.loads(gf.metadata[KEY]))


def cut(source: Path, target: Path, fraction: float = 0.5) -> Path:
    """``source``'s first ``fraction`` of bytes written to ``target`` (a truncated file)."""
    data = source.read_bytes()
    target.write_bytes(data[: int(len(data) * fraction)])
    return target
