"""The store on disk: a folder of Parquet files in five tables, each a folder of parts that
``add`` appends to (a part is written whole, then renamed into place: a reader never sees half a
part).

- ``nodes/``: one row per calling context (``key``, ``parent``, ``name``, ``file``, ``line``,
  ``module``, ``type``, ``frame`` as canonical JSON);
- ``values/``: one row per (``profile``, ``key``) with the node's ``parent`` key and every
  numeric metric;
- ``profiles/``: one row per profile: ``profile``, ``hash``, ``source``, ``nodes`` and every
  metadata value;
- ``ranks/``: when asked at ingest, one row per (``profile``, ``key``, ``rank``[, ``thread``])
  with the measured metrics (``values`` holds the nodes reduced over ranks);
- ``metrics/``: one row per metric and part: ``metric``, ``kind``, ``partner`` (what the reader
  and cctviz's rules said each metric is, so that the store's numbers keep their meaning).
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

TABLES = ("nodes", "values", "profiles", "metrics", "ranks")
FORMAT = {"format": "cctviz-ensemble", "version": 1}
ROW_GROUP = 64 * 1024  # rows per Parquet row group


class StoreError(ValueError):
    """The folder is not an ensemble store cctviz can use."""


def open_folder(path: str | os.PathLike[str], create: bool) -> Path:
    """The store's folder, created when asked (and missing)."""
    root = Path(path).expanduser()
    marker = root / "cctviz-ensemble.json"
    if marker.exists():
        try:
            found = json.loads(marker.read_text())
        except (OSError, ValueError) as error:
            raise StoreError(f"{marker} is not readable: {error}") from None
        if found.get("format") != FORMAT["format"] or found.get("version", 0) > FORMAT["version"]:
            raise StoreError(f"{root} holds a store of format {found}; this cctviz reads {FORMAT}")
        return root
    if root.exists() and any(root.iterdir()):
        raise StoreError(
            f"{root} is a folder that is not an ensemble store (no cctviz-ensemble.json): "
            "give an empty or new folder"
        )
    if not create:
        raise StoreError(f"no ensemble store at {root}")
    for table in TABLES:
        (root / table).mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps(FORMAT))
    return root


def parts(root: Path, table: str) -> list[Path]:
    return sorted((root / table).glob("*.parquet"))


def glob_of(root: Path, table: str) -> str:
    return str(root / table / "*.parquet")


def _arrow_safe(df: pd.DataFrame) -> pd.DataFrame:
    """Columns pyarrow can write: an object column mixing kinds of values becomes text."""
    out = df.copy()
    for column in out.columns:
        if out[column].dtype != object:
            continue
        kinds = {
            type(v) for v in out[column] if v is not None and not (isinstance(v, float) and v != v)
        }
        if len(kinds) > 1 and not kinds <= {int, float}:
            out[column] = [None if v is None else str(v) for v in out[column]]
    return out


def write_part(root: Path, table: str, df: pd.DataFrame, batch: str) -> None:
    """Appends ``df`` to ``table`` as one new part."""
    if df.empty:
        return
    (root / table).mkdir(exist_ok=True)  # a store older than the table
    final = root / table / f"part-{batch}.parquet"
    tmp = final.with_suffix(".tmp")
    if table == "values":
        # sorted by parent, then node: a row group spans few of them, and a query of one node
        # (its distribution) or of a node's children (a trend) reads only the row groups whose
        # ranges hold them
        df = df.sort_values([c for c in ("parent", "key") if c in df.columns], kind="stable")
    pq.write_table(
        pa.Table.from_pandas(_arrow_safe(df), preserve_index=False), tmp, row_group_size=ROW_GROUP
    )
    os.replace(tmp, final)


def new_batch() -> str:
    return f"{pd.Timestamp.now('UTC').strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:8]}"
